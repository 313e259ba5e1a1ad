"""Everything that changes a game once it exists, under its lock: a turn submitted (checked, played, and the
moves the referee plays after it), a resignation, and any other change (the clock, a seat handed on) committed
with the files that follow from it, as one transaction. Records other layers keep in the state envelope (the
clock of pbem.correspondence) change through their hooks (`after_turn`) or their own commits (`commit`'s
`fields`): this module knows none of them.
"""
from __future__ import annotations

import contextlib

from .. import digests
from ..contract import PbemError
from ..play import queues, trust
from ..play.turns import RESIGN, check_turn, ending, is_resign, play_submission, queue_submission, referee_turns, to_act
from ..store import yamlio
from ..store.gamedir import (FULL_LOG, LOG, PRIVATE, PUBLIC_MODE, SECRETS, STATE, STATE_CACHE, GameDir, check_player,
                             commit_files, load_state, locked, roster)
from ..store.safefiles import Missing
from .documents import (RECENT, append_entry, log_text, public_entry, public_log, state_files, status_docs,
                        status_files, text_digests, with_status_digests, yaml_text)

def _authenticate(gd: GameDir, player: str, move_number: int, texts: list[str], by: str,
                  signature: str | None, password: str | None, authenticated: bool = False, queue: bool = False
                  ) -> None:
    if by == "referee" or authenticated:
        return
    entry = next(p for p in roster(gd) if p["name"] == player)
    if password is not None:
        if not trust.same_secret(entry["secret"], password):
            raise PbemError(f"wrong password for {player}")
        return
    trust.check_signature(entry["secret"], signature, gd.id, move_number, player, texts, queue=queue)


def commit(gd: GameDir, env: dict, state: dict, entries: list[dict], resigned: list[str],
           fields: dict | None = None, secrets_doc: dict | None = None, queues: dict | None = None,
           also: dict[str, tuple[str, int]] | None = None) -> dict:
    """Write the new state and every file that follows from it, with the new log entries (maybe none: a change
    of the clock, of a queue), the envelope's `fields` kept by the layers above (the clock's record), the secrets
    and the players' queues when they changed, and `also` (other files of the layout: what the change owes the
    players, pbem.notices), as one transaction. Returns the new state envelope. The caller holds the game's
    lock."""
    game = gd.game
    public = [public_entry(game, entry) for entry in entries]
    finished = to_act(game, {"state": state, "recent": env["recent"] + public}) is None
    new_env = {**env, "state": state, "resigned": resigned}
    new_env.update(fields or {})
    if queues is not None:
        new_env.pop("queues", None)
        if queues:
            new_env["queues"] = queues
    files = {}
    if entries:
        full_text = _full_log_text(gd, env)
        public_text = _public_log_text(gd, env, full_text)
        for entry, shown in zip(entries, public):
            full_text = append_entry(gd, full_text, entry)
            public_text = append_entry(gd, public_text, shown)
        if finished:  # the game is over: the full log and the seed are revealed so anyone can replay it
            public_text = full_text.replace("$schema=../schemas/", "$schema=schemas/", 1).replace(
                "visibility: referee", "visibility: public", 1)
        new_env.update({"move_number": entries[-1]["number"] + 1, "recent": (env["recent"] + public)[-RECENT:],
                        "log_sha256": text_digests({FULL_LOG: full_text, LOG: public_text})})
        files.update({FULL_LOG: (full_text, PRIVATE), LOG: (public_text, PUBLIC_MODE)})
    docs = status_docs(gd, new_env, new_env["recent"])
    if secrets_doc is not None:
        files[SECRETS] = (yaml_text(SECRETS, "secrets.schema.json", secrets_doc, game.id, f"{gd.id} secrets"), PRIVATE)
        docs[SECRETS] = secrets_doc
    status = with_status_digests(status_files(gd, new_env, new_env["recent"], docs))
    files.update({**state_files(gd, new_env), **status, **(also or {})})
    commit_files(gd, files)
    gd.remember(files, docs)
    gd.known[STATE] = (files[STATE][0].encode("utf-8"), files[STATE_CACHE][0])
    return new_env


def commit_turn(gd: GameDir, env: dict, state: dict, entries: list[dict], resigned: list[str], after_turn=None,
                queues: dict | None = None) -> dict:
    """Write an accepted turn (and the moves the referee and the queues played after it: resigned seats, forced
    moves, queued moves), with the envelope fields `after_turn(env, state, entries)` gives (the layer above's
    records: the clock restarts)."""
    fields = after_turn(env, state, entries) if after_turn is not None else None
    new_env = commit(gd, env, state, entries, resigned, fields, queues=queues)
    return turn_result(gd, entries, new_env)


def turn_result(gd: GameDir, entries: list[dict], env: dict) -> dict:
    """What `submit` tells of a turn accepted (`env`: the position after it): the player's entry as the public sees
    it, the moves played after it (by the referee, by the queues), and the mover's queue as their view shows it
    (with its notices); `ended`, why, when the referee ended the game."""
    public = [public_entry(gd.game, entry) for entry in entries]
    pending = to_act(gd.game, env)
    mover = entries[0]["player"]
    result = {"game": gd.id, "number": entries[0]["number"], "player": mover,
              "moves": entries[0]["moves"], "public_moves": public[0]["moves"], "chance": public[0]["chance"],
              "referee_moves": public[1:], "move_number": env["move_number"],
              "to_act": pending["player"] if pending else None, "finished": pending is None,
              "queue": queues.shown((env.get("queues") or {}).get(mover)) if pending else None}
    end = ending(env)
    if end is not None:
        result["ended"] = end["reason"]
    return result


@contextlib.contextmanager
def writing(gd: GameDir):
    """The game's lock held and its referee state read (refused if edited): for a change that is not a turn
    (the clock, a seat handed on). Commit it with `commit`."""
    with locked(gd):
        yield load_state(gd)


def _full_log_text(gd: GameDir, env: dict) -> str:
    """The referee's log as it last wrote it (its digest is in the state), to append to."""
    text = gd.read_text(FULL_LOG)
    recorded = env.get("log_sha256")  # absent in games started before logs had digests
    if recorded and text_digests({FULL_LOG: text})[FULL_LOG] != recorded[FULL_LOG]:
        raise PbemError(f"{gd.where(FULL_LOG)} was changed outside pbem (it does not match the checksum in the "
                        f"referee's state); nothing was done. `pbem verify` shows what differs")
    return text


def _public_log_text(gd: GameDir, env: dict, full_text: str) -> str:
    """The public log as the referee last wrote it, to append to. Players may be able to write it: when it is
    not what the referee wrote (its digest is in the state), it is written again from the referee's log."""
    recorded = (env.get("log_sha256") or {}).get(LOG)
    try:
        data = gd.read_bytes(LOG)
    except Missing:
        data = None
    if data is not None and (recorded is None or digests.sha256(data).hexdigest() == recorded):
        with contextlib.suppress(UnicodeDecodeError):
            return data.decode("utf-8")
    full = yamlio.loads(full_text, gd.where(FULL_LOG))
    return log_text(gd, LOG, public_log(gd, full, finished=False))


def _open_turn(gd: GameDir, move_number: int | None) -> dict:
    env = load_state(gd)
    check_turn(gd.game, gd.id, env, move_number)
    return env


def submit(gd: GameDir, player: str, texts: list[str], *, by: str = "player", move_number: int | None = None,
           signature: str | None = None, password: str | None = None, authenticated: bool = False,
           before_write=None, may_queue: bool = True, after_turn=None) -> dict:
    """Check and apply one turn. On any error nothing on disk changes.

    `authenticated`: the transport has already proved who sent it by its own means (a commit signed with the
    player's SSH key), so neither a signature nor a password is asked for; the entry is still the player's.
    `before_write(number)`, if given, is called with the turn's move number once the turn is accepted and before
    anything is written (a transport records what it is about to apply); if it raises, nothing is written.
    `after_turn(env, state, entries)`, if given, returns the envelope fields that change with the turn: the hook
    of the layer above that keeps records of its own in the envelope (pbem.correspondence: the clock).
    Steps beyond the turn are queued (pbem.queues); `may_queue=False` refuses them instead (a transport that
    would publish the move file in the clear)."""
    check_player(gd, player)
    if not texts:
        raise PbemError("no move given")
    if len(texts) == 1 and is_resign(texts[0]):
        return resign(gd, player, by=by, move_number=move_number, signature=signature, password=password,
                      authenticated=authenticated, before_write=before_write, after_turn=after_turn)
    with locked(gd):
        env = load_state(gd)
        state, entries, records = play(gd, env, player, texts, by, move_number, signature, password,
                                       authenticated, handed_over=True, may_queue=may_queue)  # read for this turn
        if before_write is not None:
            before_write(env["move_number"])
        return commit_turn(gd, env, state, entries, env["resigned"], after_turn, records)


def play(gd: GameDir, env: dict, player: str, texts: list[str], by: str, move_number: int | None,
         signature: str | None, password: str | None, authenticated: bool, handed_over: bool,
         may_queue: bool = True) -> tuple[dict, list[dict], dict]:
    """One turn checked and played on the position `env` (`handed_over`: its state is the game's to change): the
    new state, the log entries (the player's, then the moves the referee and the queues play after it) and the
    players' queues. Nothing is written."""
    check_turn(gd.game, gd.id, env, move_number)
    current = env["move_number"]
    _authenticate(gd, player, current if move_number is None else move_number, texts, by, signature, password,
                  authenticated)
    return play_submission(gd.game, gd.id, env, player, texts, by, signature, handed_over, may_queue)


def set_queue(gd: GameDir, player: str, texts: list[str], *, by: str = "player", move_number: int | None = None,
              signature: str | None = None, password: str | None = None, authenticated: bool = False,
              before_write=None, after_turn=None) -> dict:
    """Replace a player's queue (`texts`: queued steps, `next`, standing orders, `cancel`; all of it is for later,
    none for a decision now) without a move of theirs. The queue is asked at once: when the decision to take is
    theirs and the queue answers it, it plays. A signed queue names the move number it was made at and is taken
    once (a copy sent again is refused). Returns what the queue played and the queue as the player's view shows
    it. `before_write`, `after_turn`: as for `submit` (`after_turn` when the queue played)."""
    check_player(gd, player)
    game = gd.game
    with locked(gd):
        env = load_state(gd)
        check_turn(game, gd.id, env, move_number)
        current = env["move_number"]
        _authenticate(gd, player, current if move_number is None else move_number, texts, by, signature, password,
                      authenticated, queue=True)
        records = dict(env.get("queues") or {})
        if signature and signature in (records.get(player) or {}).get("signed", []):
            raise PbemError("this signed queue was taken already; sign the new one (it names the move number)")
        state, entries, records = queue_submission(game, gd.id, env, player, texts)
        if signature:
            record = records.setdefault(player, queues.empty_record())
            kept = record.get("signed", []) if record.get("signed_at") == current else []
            record.update(signed_at=current, signed=kept + [signature])
        fields = after_turn(env, state, entries) if entries and after_turn is not None else None
        if before_write is not None:
            before_write(current)
        new_env = commit(gd, env, state, entries, env["resigned"], fields, queues=records)
    pending = to_act(game, new_env)
    return {"game": gd.id, "player": player, "queue": queues.shown(records.get(player)) if pending else None,
            "moves_played": [public_entry(game, entry) for entry in entries], "number": current,
            "move_number": new_env["move_number"], "to_act": pending["player"] if pending else None,
            "finished": pending is None}



def resign(gd: GameDir, player: str, *, by: str = "player", move_number: int | None = None,
           signature: str | None = None, password: str | None = None, authenticated: bool = False,
           before_write=None, after_turn=None) -> dict:
    """A player leaves the game: the referee plays their turns from now on (turns.referee_turns: the move
    that changes the game least for the others) and they rank last.

    Allowed at any time, not only on one's turn; it takes a move number like any turn, so it is in the log.
    `before_write`, `after_turn`: as for `submit`.
    """
    check_player(gd, player)
    with locked(gd):
        env = _open_turn(gd, move_number)
        current = env["move_number"]
        _authenticate(gd, player, current if move_number is None else move_number, [RESIGN], by, signature, password,
                      authenticated)
        if player in env["resigned"]:
            raise PbemError(f"{player} has already resigned")
        resigned = env["resigned"] + [player]
        entry = {"number": current, "player": player, "by": by, "moves": [RESIGN], "chance": []}
        if signature:
            entry["signature"] = signature
        records = {name: record for name, record in (env.get("queues") or {}).items() if name != player}
        state, auto, records = referee_turns(gd.game, env["state"], env, gd.id, current + 1, resigned, records)
        if before_write is not None:
            before_write(current)
        return commit_turn(gd, env, state, [entry, *auto], resigned, after_turn, records)

