"""Takeback by consent, under the game's lock: a player asks to take back their last decision, every other player
still in answers, and the referee grants it (the game goes back to the position before that decision) or refuses
it (someone declined, the deadline passed, or something was revealed since). Each step is a log entry of its own
(pbem.play.turns.TAKEBACK_WORDS), never a rewrite; verify replays it (pbem.engine.verify.rewind).

The request waiting for answers is the referee's record `takeback` in the state envelope: who asked, the decision
(its move number), who must still answer, and until when (`until`, ISO-8601 UTC, set by the clock layer: the engine
knows no clock and only compares the texts). The game goes on meanwhile: a granted takeback undoes every move since
the decision too, which the others agreed to, and is refused if one of them revealed anything.
"""
from __future__ import annotations

from ..contract import PbemError
from ..messages import lazy
from ..play import queues, takebacks
from ..play.turns import (TAKEBACK_AGREE, TAKEBACK_DECLINE, TAKEBACK_GRANTED, TAKEBACK_REFUSED, TAKEBACK_REQUEST,
                          keep, to_act)
from ..store.gamedir import FULL_LOG, GameDir, check_player, load_state, locked, read_components
from .documents import public_entry
from .writer import Submission, authenticate, check_number, commit

RECORD = "takeback"


def request(gd: GameDir, player: str, until: str | None = None, **how) -> dict:
    """`player` asks to take back their last decision (`how`: a Submission, proved like a move). Refused, nothing
    written, when the game is over, a takeback is already asked, they have no decision to take back, or it or a
    move after it revealed something (the reason in the player's words). With nobody to ask (the others resigned
    or are bots) it is granted at once."""
    sent = Submission(**how)
    check_player(gd, player)
    with locked(gd):
        env = load_state(gd)
        _check_open(gd, env)
        if env.get(RECORD):
            asked = env[RECORD]
            raise PbemError(lazy("{player} has already asked to take back move {number}; it must be answered "
                                 "first", player=asked["by"], number=asked["of"]))
        check_number(gd, env, sent.move_number)  # a signed file names the move number it answers
        current = env["move_number"]
        authenticate(gd, player, [TAKEBACK_REQUEST], sent, current)
        log = gd.read(FULL_LOG, "log.schema.json")
        target = takebacks.last_decision(log["entries"] or [], player)
        if target is None:
            raise PbemError(lazy("{player} has no decision to take back (none since the start or since the last "
                                 "takeback)", player=player))
        _, why = _rewind(gd, env, log, target, current)
        if why is not None:
            raise PbemError(lazy("move {number} cannot be taken back: {reason}", number=target, reason=why))
        entry = _entry(current, player, sent.by, TAKEBACK_REQUEST, sent.signature)
        waiting = takebacks.waiting_for(env["players"], player, env["resigned"], env.get("bots"))
        asked = {"by": player, "of": target, "asked": current, "waiting": waiting}
        if until:
            asked["until"] = until
        if waiting:
            new_env = commit(gd, env, env["state"], [entry], env["resigned"], fields={RECORD: asked})
            return _result(gd, new_env, asked, [entry], "request")
        return _decide(gd, env, asked, [entry], sent, "request")


def answer(gd: GameDir, player: str, agree: bool, now: str | None = None, **how) -> dict:
    """`player` agrees to the takeback asked, or declines it (`how`: a Submission). A decline refuses it; the last
    agreement grants it, unless something was revealed meanwhile. An answer after the deadline (`now`, ISO-8601
    UTC, past the request's `until`) finds it refused for that."""
    sent = Submission(**how)
    check_player(gd, player)
    with locked(gd):
        env = load_state(gd)
        asked = env.get(RECORD)
        if not asked:
            raise PbemError(lazy("no takeback is asked in {game}", game=gd.id))
        if player not in asked["waiting"]:
            raise PbemError(lazy("{player} is not asked: the takeback of move {number} waits for {waiting}",
                                 player=player, number=asked["of"], waiting=asked["waiting"]))
        check_number(gd, env, sent.move_number)
        current = env["move_number"]
        word = TAKEBACK_AGREE if agree else TAKEBACK_DECLINE
        authenticate(gd, player, [word], sent, current)
        if _overdue(asked, now):
            return _refuse(gd, env, asked, [], _deadline_passed(asked), "expired")
        entry = _entry(current, player, sent.by, word, sent.signature)
        if not agree:
            return _refuse(gd, env, asked, [entry], lazy("{player} declined", player=player), "decline")
        asked = dict(asked, waiting=[name for name in asked["waiting"] if name != player])
        if asked["waiting"]:
            new_env = commit(gd, env, env["state"], [entry], env["resigned"], fields={RECORD: asked})
            return _result(gd, new_env, asked, [entry], "agree")
        return _decide(gd, env, asked, [entry], sent, "agree")


def expire(gd: GameDir, now: str, owed=None) -> dict | None:
    """The takeback asked, refused once its deadline has passed (`now`: ISO-8601 UTC); None when there is none to
    refuse. `owed(entries)`: the files the layer above commits with the refusal, given its log entries as the
    public sees them (what it owes the players, pbem.clock.notices)."""
    with locked(gd):
        env = load_state(gd)
        asked = env.get(RECORD)
        if not asked or not _overdue(asked, now):
            return None
        return _refuse(gd, env, asked, [], _deadline_passed(asked), "expired", owed)


def _check_open(gd: GameDir, env: dict) -> None:
    if to_act(gd.game, env) is None:
        raise PbemError(lazy("{game} is over; no more moves", game=gd.id))


def _overdue(asked: dict, now: str | None) -> bool:
    return bool(now and asked.get("until") and now >= asked["until"])


def _deadline_passed(asked: dict):
    return lazy("the deadline passed ({until}) before every player answered", until=asked["until"])


def _entry(number: int, player: str, by: str, word: str, signature: str | None = None, reason: str | None = None
           ) -> dict:
    entry = {"number": number, "player": player, "by": by, "moves": [word], "chance": []}
    if signature:
        entry["signature"] = signature
    if reason is not None:
        entry["reason"] = reason[:200]
    return entry


def _rewind(gd: GameDir, env: dict, log: dict, target: int, upto: int):
    """The position before move `target` and why the moves from it to `upto` (excluded) cannot be taken back
    (None: they can), by replaying the full log from the seed (pbem.engine.verify.rewind)."""
    from .verify import rewind
    played = GameDir(gd.dir, {**gd.meta, "players": env["players"], "options": env["options"]}, gd.overlay)
    components = read_components(gd, gd.meta["components_sha256"])
    return rewind(played, env["seed"], components, log, target, upto)


def _decide(gd: GameDir, env: dict, asked: dict, entries: list[dict], sent: Submission, kind: str) -> dict:
    """Everyone asked has agreed: granted, unless a move since the request revealed something."""
    log = gd.read(FULL_LOG, "log.schema.json")
    log = {**log, "entries": (log["entries"] or []) + entries}
    number = env["move_number"] + len(entries)
    before, why = _rewind(gd, env, log, asked["of"], number)
    if why is not None:
        return _refuse(gd, env, asked, entries, why, kind)
    done = _entry(number, asked["by"], "referee", TAKEBACK_GRANTED,
                  reason=f"back to the position before move {asked['of']}")
    records, dropped = _queues_dropped(env, log["entries"], asked)
    fields = sent.after_turn(env, before, [*entries, done]) if sent.after_turn is not None else None
    new_env = commit(gd, _without_record(env), before, [*entries, done], env["resigned"], fields=fields,
                     queues=records)
    return {**_result(gd, new_env, None, [*entries, done], kind), "outcome": "granted", "of": asked["of"],
            "requester": asked["by"], "dropped": dropped}


def _refuse(gd: GameDir, env: dict, asked: dict, entries: list[dict], why, kind: str, owed=None) -> dict:
    number = env["move_number"] + len(entries)
    done = _entry(number, asked["by"], "referee", TAKEBACK_REFUSED, reason=why.english())
    also = owed([public_entry(gd.game, entry) for entry in [*entries, done]]) if owed is not None else None
    new_env = commit(gd, _without_record(env), env["state"], [*entries, done], env["resigned"], also=also)
    return {**_result(gd, new_env, None, [*entries, done], kind), "outcome": "refused", "why": why,
            "of": asked["of"], "requester": asked["by"]}


def _without_record(env: dict) -> dict:
    return {key: value for key, value in env.items() if key != RECORD}


def _queues_dropped(env: dict, entries: list[dict], asked: dict) -> tuple[dict, list[str]]:
    """The players' queue records once the moves from the decision on are undone: the requester's queue, and the
    queue of everyone who had a decision among those moves, was written after the position it now no longer
    follows: it is dropped, and its owner told (a notice in their view). The others' queues stay; each step's
    meaning is read again when it comes (pbem.play.guards)."""
    undone = [entry for entry in entries if entry["number"] >= asked["of"]]
    movers = {asked["by"]} | {entry["player"] for entry in undone if takebacks.is_decision(entry, entry["player"])}
    records = dict(env.get("queues") or {})
    dropped = []
    for name in sorted(movers & set(records)):
        record = queues.taken_back(records[name], asked["of"])
        if record != records[name]:
            dropped.append(name)
        keep(records, name, record)
    return records, dropped


def _result(gd: GameDir, env: dict, asked: dict | None, entries: list[dict], kind: str) -> dict:
    """What a takeback's step answers: `kind` (request, agree, decline, expired), the takeback still `asked`
    (None once decided), its public entries, and the position's move number and who is to act; `outcome`
    (granted, refused, None while asked) and `why` (a refusal's reason, a Message) are added when decided."""
    pending_now = to_act(gd.game, env)
    return {"game": gd.id, "game_type": gd.game.id, "kind": kind, "player": entries[0]["player"],
            "requester": asked["by"] if asked else None, "of": asked["of"] if asked else None,
            "asked": asked, "entries": [public_entry(gd.game, entry) for entry in entries], "outcome": None,
            "move_number": env["move_number"], "to_act": pending_now["player"] if pending_now else None,
            "finished": pending_now is None}
