"""Everything that changes a game once it exists, under its lock: a turn submitted (checked, played, and the
moves the referee plays after it), a resignation, and any other change (the clock, a seat handed on) committed
with the files that follow from it, as one transaction. Records other layers keep in the state envelope (the
clock of pbem.clock.correspondence) change through their hooks (`after_turn`) or their own commits (`commit`'s
`fields`): this module knows none of them.
"""
from __future__ import annotations

import contextlib
from typing import Callable

from .. import digests
from ..contract import PbemError
from ..messages import lazy
from ..play import queues, trust, words
from ..play.submission import Turn, play_submission, queue_submission
from ..play.turns import RESIGN, MoveAt, answered, check_turn, ending, is_resign, referee_turns, to_act
from ..store import yamlio
from ..store.gamedir import (FULL_LOG, LOG, PRIVATE, PUBLIC_MODE, SECRETS, STATE, STATE_CACHE, GameDir, check_player,
                             commit_files, components_reader, load_state, locked, roster)
from ..store.safefiles import Missing
from .documents import (RECENT, append_entry, log_text, public_entry, public_log, state_files, status_docs,
                        status_files, text_digests, with_status_digests, yaml_text)
from .requests import Request


class Submission(Request):
    """How a turn, a queue or a resignation came (the keywords of `submit`, `set_queue` and `resign`).

    by: `player` (it must prove to be theirs) or `referee` (entered by the referee for them: no proof asked);
    move_number: the move it answers (a signed file names it; None: the current one);
    signature, password: its proof (a move file's HMAC, a mail's password), or `authenticated`: the transport has
    proved who sent it by its own means (a commit signed with the player's SSH key), and the entry is still the
    player's;
    before_write(number): called with the move number once it is accepted and before anything is written (a
    transport records what it is about to apply); if it raises, nothing is written;
    after_turn(env, state, entries): the envelope fields that change with it: the hook of the layer above that
    keeps records of its own in the envelope (pbem.clock.correspondence: the clock);
    may_queue: steps beyond the turn are queued (pbem.play.queues); false refuses them instead (a transport that
    would publish the move file in the clear)."""

    __slots__ = ("by", "move_number", "signature", "password", "authenticated", "before_write", "after_turn",
                 "may_queue")
    DEFAULTS = {"by": "player", "move_number": None, "signature": None, "password": None, "authenticated": False,
                "before_write": None, "after_turn": None, "may_queue": True}
    by: str
    move_number: int | None
    signature: str | None
    password: str | None
    authenticated: bool
    before_write: Callable[[int], None] | None
    after_turn: Callable[[dict, dict, list[dict]], dict] | None
    may_queue: bool

    def turn(self, player: str, texts: list[str], current: int) -> Turn:
        """The turn sent, as the engine plays it (it answers the `current` move number)."""
        turn = Turn(player, texts, self.by, self.signature, self.may_queue)
        turn.answers = self.move_number if self.move_number not in (None, current) else None
        return turn


def authenticate(gd: GameDir, player: str, texts: list[str], sent: Submission, current: int, queue: bool = False
                  ) -> None:
    """The submission is the player's: entered by the referee, proved by the transport, or with the player's
    password or signature (over the move number it answers)."""
    if sent.by == "referee" or sent.authenticated:
        return
    entry = next(p for p in roster(gd) if p["name"] == player)
    if sent.password is not None:
        if not trust.same_secret(entry["secret"], sent.password):
            raise PbemError(lazy("wrong password for {player}", player=player))
        return
    number = current if sent.move_number is None else sent.move_number
    trust.check_signature(entry["secret"], sent.signature, gd.id, number, player, texts, queue=queue)


class Besides(Request):
    """What a commit writes besides the new position (the keywords of `commit`): the envelope's `fields` kept by
    the layers above (the clock's record), the secrets and the players' queues when they changed, and `also`,
    other files of the layout (what the change owes the players, pbem.clock.notices)."""

    __slots__ = ("fields", "secrets_doc", "queues", "also")
    DEFAULTS = {"fields": None, "secrets_doc": None, "queues": None, "also": None}
    fields: dict | None
    secrets_doc: dict | None
    queues: dict | None
    also: dict[str, tuple[str, int]] | None


def commit(gd: GameDir, env: dict, state: dict, entries: list[dict], resigned: list[str], **besides) -> dict:
    """Write the new state and every file that follows from it, with the new log entries (maybe none: a change
    of the clock, of a queue) and what changed `besides` (a Besides), as one transaction. Returns the new state
    envelope. The caller holds the game's lock."""
    also = Besides(**besides)
    game = gd.game
    public = [public_entry(game, entry) for entry in entries]
    finished = to_act(game, {"state": state, "recent": env["recent"] + public}) is None
    new_env = {**env, "state": state, "resigned": resigned}
    new_env.update(also.fields or {})
    if also.queues is not None:
        new_env.pop("queues", None)
        if also.queues:
            new_env["queues"] = also.queues
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
    if also.secrets_doc is not None:
        files[SECRETS] = (yaml_text(SECRETS, "secrets.schema.json", also.secrets_doc, game.id, f"{gd.id} secrets"),
                          PRIVATE)
        docs[SECRETS] = also.secrets_doc
    status = with_status_digests(status_files(gd, new_env, new_env["recent"], docs))
    files.update({**state_files(gd, new_env), **status, **(also.also or {})})
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
    new_env = commit(gd, env, state, entries, resigned, fields=fields, queues=queues)
    return turn_result(gd, entries, new_env)


def turn_result(gd: GameDir, entries: list[dict], env: dict) -> dict:
    """What `submit` tells of a turn accepted (`env`: the position after it): the player's entry as the public sees
    it, the moves played after it (by the referee, by the queues), and the mover's queue as their view shows it
    (with its notices); `ended`, why, when the referee ended the game."""
    public = [public_entry(gd.game, entry) for entry in entries]
    pending = to_act(gd.game, env)
    mover = entries[0]["player"]
    result = {"game": gd.id, "game_type": gd.game.id, "number": entries[0]["number"], "player": mover,
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
    check_number(gd, env, move_number)
    return env


def check_number(gd: GameDir, env: dict, move_number: int | None) -> None:
    """A turn must answer the position's move number (pbem.play.turns.check_turn), or the one its decision had
    before seats were handed on (`answered`): a hand-over makes no one's move stale, by any transport."""
    current = env["move_number"]
    since = []
    if move_number is not None and move_number < current:
        since = [entry for entry in env["recent"] if entry["number"] >= move_number]
        if len(since) < current - move_number and len(env["recent"]) == RECENT:  # not all in the recent ones
            since = [entry for entry in gd.read(LOG, "log.schema.json")["entries"] or []
                     if entry["number"] >= move_number]
    check_turn(gd.game, gd.id, env, answered(move_number, current, since))


def submit(gd: GameDir, player: str, texts: list[str], **how) -> dict:
    """Check and apply one turn, sent as `how` says (a Submission). On any error nothing on disk changes."""
    sent = Submission(**how)
    check_player(gd, player)
    if not texts:
        raise PbemError(lazy("no move given"))
    texts = words.canonical_texts(gd.game, texts, gd.players)  # a move in the player's words: the notation's
    if len(texts) == 1 and is_resign(texts[0]):
        return resign(gd, player, **how)
    with locked(gd):
        env = load_state(gd)
        state, entries, records = play(gd, env, player, texts, sent, handed_over=True)  # read for this turn
        if sent.before_write is not None:
            sent.before_write(env["move_number"])
        return commit_turn(gd, env, state, entries, env["resigned"], sent.after_turn, records)


def play(gd: GameDir, env: dict, player: str, texts: list[str], sent: Submission, handed_over: bool
         ) -> tuple[dict, list[dict], dict]:
    """One turn checked and played on the position `env` (`handed_over`: its state is the game's to change): the
    new state, the log entries (the player's, then the moves the referee and the queues play after it) and the
    players' queues. Nothing is written."""
    check_number(gd, env, sent.move_number)
    authenticate(gd, player, texts, sent, env["move_number"])
    return play_submission(gd.game, gd.id, env, sent.turn(player, texts, env["move_number"]), handed_over,
                           components_reader(gd))


def set_queue(gd: GameDir, player: str, texts: list[str], **how) -> dict:
    """Replace a player's queue (`texts`: queued steps, `next`, standing orders, `cancel`; all of it is for later,
    none for a decision now) without a move of theirs. The queue is asked at once: when the decision to take is
    theirs and the queue answers it, it plays. A signed queue names the move number it was made at and is taken
    once (a copy sent again is refused). Returns what the queue played and the queue as the player's view shows
    it. `how`: as for `submit` (`after_turn` when the queue played)."""
    sent = Submission(**how)
    check_player(gd, player)
    game = gd.game
    texts = words.canonical_texts(game, texts, gd.players)
    with locked(gd):
        env = load_state(gd)
        check_number(gd, env, sent.move_number)
        current = env["move_number"]
        authenticate(gd, player, texts, sent, current, queue=True)
        records = dict(env.get("queues") or {})
        if sent.signature and sent.signature in (records.get(player) or {}).get("signed", []):
            raise PbemError(lazy("this signed queue was taken already; sign the new one (it names the move number)"))
        state, entries, records = queue_submission(game, gd.id, env, player, texts, components_reader(gd))
        if sent.signature:
            record = records.setdefault(player, queues.empty_record())
            kept = record.get("signed", []) if record.get("signed_at") == current else []
            record.update(signed_at=current, signed=kept + [sent.signature])
        fields = sent.after_turn(env, state, entries) if entries and sent.after_turn is not None else None
        if sent.before_write is not None:
            sent.before_write(current)
        new_env = commit(gd, env, state, entries, env["resigned"], fields=fields, queues=records)
    pending = to_act(game, new_env)
    return {"game": gd.id, "game_type": game.id, "player": player,
            "queue": queues.shown(records.get(player)) if pending else None,
            "moves_played": [public_entry(game, entry) for entry in entries], "number": current,
            "move_number": new_env["move_number"], "to_act": pending["player"] if pending else None,
            "finished": pending is None}



def resign(gd: GameDir, player: str, **how) -> dict:
    """A player leaves the game: the referee plays their turns from now on (turns.referee_turns: the move
    that changes the game least for the others) and they rank last.

    Allowed at any time, not only on one's turn; it takes a move number like any turn, so it is in the log.
    `how`: as for `submit` (a Submission).
    """
    sent = Submission(**how)
    check_player(gd, player)
    with locked(gd):
        env = _open_turn(gd, sent.move_number)
        current = env["move_number"]
        authenticate(gd, player, [RESIGN], sent, current)
        if player in env["resigned"]:
            raise PbemError(lazy("{player} has already resigned", player=player))
        resigned = env["resigned"] + [player]
        entry = {"number": current, "player": player, "by": sent.by, "moves": [RESIGN], "chance": []}
        if sent.move_number not in (None, current):
            entry["answers"] = sent.move_number  # (seats were handed on since: its signature names that number)
        if sent.signature:
            entry["signature"] = sent.signature
        records = {name: record for name, record in (env.get("queues") or {}).items() if name != player}
        at = MoveAt(env["seed"], gd.id, current + 1, components_reader(gd))
        state, auto, records = referee_turns(gd.game, env["state"], env, at, resigned, records)
        if sent.before_write is not None:
            sent.before_write(current)
        return commit_turn(gd, env, state, [entry, *auto], resigned, sent.after_turn, records)

