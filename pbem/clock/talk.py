"""Table talk: a player's message to the table or to one seat, through the referee.

Talk is outside the move record: `verify` replays moves, never talk, and a message changes no position. It is
kept durably all the same, each message written in a transaction of its own under the game's lock:

    talk.yaml            the messages to the table (public: the game directory, a git repository, the site)
    referee/talk.yaml    every message, those to one seat too (the referee's alone; a private message reaches
                         its two players only, by their mail or their encrypted copy)

The organiser chooses what talk a game allows (pbem.clock.club: all, table only, or none). A message is at most
MAX_CHARS characters, a player sends at most MAX_A_DAY a day (UTC), a text over MAX_BYTES is refused before it is
read, and every character a reader must not be shown (control characters but the line break, bidirectional
controls, separators: pbem.store.printable) is taken out, the answer saying how many: a message is only ever a
mail's body, never a header.
"""
from __future__ import annotations

import re

from ..contract import PbemError
from ..engine import engine
from ..engine.documents import yaml_text
from ..messages import lazy
from ..store.gamedir import ALL_TALK, PRIVATE, PUBLIC_MODE, TALK, GameDir, commit_files
from ..store.printable import UNPRINTABLE
from ..store.safefiles import Missing
from . import club

SCHEMA = "talk.schema.json"
MAX_CHARS = 2000
MAX_A_DAY = 20
MAX_BYTES = 1024 * 1024
LATEST = 3  # the messages of each kind `pbem status` shows


def cleaned(text: str) -> tuple[str, int]:
    """The message as it will be kept and shown, and how many characters were taken out of it; refused when it
    is too large to read, empty or too long."""
    if len(text) > MAX_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise too_large()
    lines = text.replace("\r\n", "\n").replace("\r", "\n").replace("\t", " ").split("\n")
    kept = [re.sub(UNPRINTABLE, "", line).rstrip() for line in lines]
    removed = sum(len(line) for line in lines) - sum(len(re.sub(UNPRINTABLE, "", line)) for line in lines)
    message = "\n".join(kept).strip("\n")
    if not message.strip():
        raise PbemError(lazy("your message is empty: write what you want to say after `say`."))
    if len(message) > MAX_CHARS:
        raise PbemError(lazy("your message has {count} characters; a message is at most {limit}: send it in "
                             "parts.", count=len(message), limit=MAX_CHARS))
    return message, removed


def too_large() -> PbemError:
    """The refusal of a message over MAX_BYTES, which is not read."""
    return PbemError(lazy("your message is over 1 MB and was not read: a message is at most {limit} characters.",
                          limit=MAX_CHARS))


def check_allowed(gd: GameDir, secrets: dict, sender: str, to: str | None) -> None:
    """Refuse talk the organiser turned off, and a message to no other player of the game."""
    engine.check_player(gd, sender)
    allowed = club.settings(secrets)["talk"]
    if allowed == "off":
        raise PbemError(lazy("talk is turned off in this game: its organiser chose to play without messages."))
    if to is None:
        return
    if allowed == "table":
        raise PbemError(lazy("private messages are turned off in this game: its organiser allows messages to the "
                             "whole table only (`say` without `to`)."))
    if to == sender or to not in gd.players:
        raise PbemError(lazy("{to} is not another player of this game: a private message goes to one of {players}.",
                             to=to, players=", ".join(p for p in gd.players if p != sender)))


def check_room(gd: GameDir, sender: str, sources: list[str], now=None) -> None:
    """Refuse the messages of `sources` from `sender` today when they would pass MAX_A_DAY (read before a mail's
    move is played, so that a mail whose talk cannot all be kept plays nothing); those kept already (the same
    mail handled again) count once."""
    from . import clock
    every = _messages(gd, ALL_TALK)
    sent = sent_on_day(every, sender, clock.moment(now))
    count = sum(1 for where in sources if _kept_from(every, where) is None)
    if sent + count > MAX_A_DAY:
        raise PbemError(lazy("you sent {sent} messages today and your mail holds {count}; a player may send at "
                             "most {limit} a day (UTC): send fewer, or write again tomorrow.", sent=sent,
                             count=count, limit=MAX_A_DAY))


def sent_on_day(every: list[dict], sender: str, moment) -> int:
    """How many messages `sender` sent on the UTC day of `moment`."""
    from ..text import times
    day = times.iso(moment)[:10]
    return sum(1 for m in every if m["from"] == sender and m["at"][:10] == day)


def say(gd: GameDir, sender: str, text: str, to: str | None = None, now=None, source: str | None = None) -> dict:
    """A message of `sender` to the table (`to` None) or to one seat, kept: the message as recorded, with
    `removed`, the count of characters taken out of it. `source` names what carried it (a git talk file, a mail's
    message and its place in it): a message whose source is kept already is not kept again, its record is the
    answer (a run killed after keeping it and before its commit or its ledger record meets it again)."""
    from . import clock
    from ..text import times
    message, removed = cleaned(text)
    moment = clock.moment(now)
    with engine.writing(gd) as env:
        every = _messages(gd, ALL_TALK)
        kept = _kept_from(every, source)
        if kept is not None:
            return {**_shown(kept), "game": gd.id, "removed": removed}
        check_allowed(gd, engine.load_secrets(gd), sender, to)
        if sent_on_day(every, sender, moment) >= MAX_A_DAY:
            raise PbemError(lazy("you sent {limit} messages today, the most a player may send a day (UTC); "
                                 "write again tomorrow.", limit=MAX_A_DAY))
        record = {"at": times.iso(moment), "from": sender, "to": to, "move_number": env["move_number"],
                  "text": message}
        every.append({**record, "source": source} if source else record)
        # the public file is made from the referee's record each time: an edit of it (a player with write access)
        # lasts only until the next message, and a private message's count never shows in it
        files = {**_file(gd, ALL_TALK, every), **_file(gd, TALK, [_shown(m) for m in every if m["to"] is None])}
        commit_files(gd, files)
    return {**record, "game": gd.id, "removed": removed}


def _kept_from(every: list[dict], source: str | None) -> dict | None:
    """The message kept from `source` already, if any."""
    if source is None:
        return None
    return next((m for m in every if m.get("source") == source), None)


def _shown(message: dict) -> dict:
    """A message as its readers get it: without the name of what carried it (the referee's bookkeeping)."""
    return {key: value for key, value in message.items() if key != "source"}


def table(gd: GameDir) -> list[dict]:
    """The messages to the table: from the referee's record where it is (the public file may have been edited),
    else the public file."""
    if gd.has_referee():
        return [_shown(m) for m in _messages(gd, ALL_TALK) if m["to"] is None]
    return [_shown(m) for m in _messages(gd, TALK)]


def heard_by(gd: GameDir, player: str) -> list[dict]:
    """What `player` may read: the table's messages and the private ones they sent or received (the referee's
    record)."""
    engine.check_player(gd, player)
    return [_shown(m) for m in _messages(gd, ALL_TALK) if m["to"] in (None, player) or m["from"] == player]


def latest(gd: GameDir, player: str | None = None, count: int = LATEST) -> list[dict]:
    """What `pbem status` shows of the talk: the last `count` messages to the table and, for a player (where the
    referee's files are), the last `count` private messages they sent or received; oldest first. Nothing is read
    in a game without talk."""
    if not gd.has(TALK) and not gd.has(ALL_TALK):
        return []
    shown = table(gd)[-count:]
    if player is not None and gd.has_referee():
        shown += [m for m in heard_by(gd, player) if m["to"] is not None][-count:]
    return sorted(shown, key=lambda m: (m["at"], m["move_number"]))


def _messages(gd: GameDir, relative: str) -> list[dict]:
    try:
        data = gd.read_bytes(relative)
    except Missing:
        return []
    return gd.read(relative, SCHEMA, data)["messages"]


def _file(gd: GameDir, relative: str, messages: list[dict]) -> dict[str, tuple[str, int]]:
    visibility = "referee" if relative == ALL_TALK else "public"
    doc = {"format": "pbem-talk/1", "id": gd.id, "visibility": visibility, "messages": messages}
    text = yaml_text(relative, SCHEMA, doc, gd.meta["game"], gd.where(relative))
    return {relative: (text, PRIVATE if relative == ALL_TALK else PUBLIC_MODE)}
