"""What players and spectators read of club life: a game's talk, a message said, who watches a game.

Every sentence is a message of the catalogues; a message's own text is shown as its player wrote it (cleaned of
what a reader must not be shown, pbem.clock.talk), indented under a line that says who said it to whom, so it
can never pass for the referee's words.
"""
from __future__ import annotations

import textwrap

from ..messages import _, ngettext
from . import language, phrases, times

WIDTH = 78


def message_lines(message: dict) -> list[str]:
    """One message: who said it, to whom, when (and at which move), then its text indented, wrapped at 78
    columns."""
    when = language.when(times.parse_time(message["at"]))
    if message["to"] is None:
        # TRANSLATORS: the line above a player's message to every player; {when}: a date and time.
        head = _("{player} to the table, {when} (move {number}):", player=message["from"], when=when,
                 number=message["move_number"])
    else:
        # TRANSLATORS: the line above a private message; only its two players read it.
        head = _("{player} to {to} only, {when} (move {number}):", player=message["from"], to=message["to"],
                 when=when, number=message["move_number"])
    return [head, *indented(message["text"])]


def indented(text: str) -> list[str]:
    """A message's text, wrapped and indented under the line that says who said it."""
    body = []
    for line in text.split("\n"):
        body += textwrap.wrap(line, WIDTH - 4, break_long_words=True, replace_whitespace=False) or [""]
    return ["    " + line if line else "" for line in body]


def messages_text(messages: list[dict]) -> str:
    """Several messages, a blank line between them."""
    return "\n\n".join("\n".join(message_lines(m)) for m in messages)


def undelivered_text(unsent: list[tuple[str | None, str]], reason: str) -> str:
    """The answer to a mover whose move was played but whose messages (recipient or None, cleaned text) were not
    kept: why, and each message, so that it can be sent again."""
    # TRANSLATORS: {reason}: the referee's clause saying why (e.g. the day's limit of messages was reached).
    parts = [phrases.wrapped([ngettext(
        "Your move is played, but the message below was not delivered (nobody has read it): {reason}",
        "Your move is played, but the {count} messages below were not delivered (nobody has read them): {reason}",
        len(unsent), count=len(unsent), reason=reason)]).rstrip("\n")]
    for to, text in unsent:
        head = _("To the table:") if to is None else _("To {to} only:", to=to)
        parts.append("\n".join([head, *indented(text)]))
    return "\n\n".join(parts)


def talk_text(data: dict) -> str:
    """`pbem talk`: what talk the game allows, and the messages."""
    allowed = {"all": _("Talk: messages to the table and private messages are allowed."),
               "table": _("Talk: messages to the table only; private messages are turned off."),
               "off": _("Talk is turned off in this game."), None: None}[data["talk"]]
    parts = [p for p in (allowed, messages_text(data["messages"]) if data["messages"] else _("No messages yet."))
             if p]
    return "\n\n".join(parts) + "\n"


def latest_text(messages: list[dict]) -> str:
    """The talk below `pbem status`'s report: the latest messages, and where the rest is."""
    # TRANSLATORS: `pbem talk` is typed as it is.
    return _("The latest talk (`pbem talk` shows all of it):") + "\n\n" + messages_text(messages) + "\n"


def said_text(data: dict) -> str:
    """`pbem say`: the message as kept."""
    parts = ["\n".join(message_lines(data))]
    if data["removed"]:
        parts.append(cleaned_note(data["removed"]))
    return "\n\n".join(parts) + "\n"


def cleaned_note(count: int) -> str:
    # TRANSLATORS: after a message was kept; {count}: characters (control characters and the like) taken out.
    return ngettext("{count} character that cannot be shown (a control character or the like) was taken out of "
                    "your message.", "{count} characters that cannot be shown (control characters and the like) "
                    "were taken out of your message.", count, count=count)


def watchers_text(data: dict) -> str:
    """`pbem watch`: who may watch, and who does."""
    who = {"admitted": _("{game}: only the spectators the organiser admits may watch.", game=data["game"]),
           "open": _("{game}: open to watchers (anyone may ask by mail: `watch`).", game=data["game"])}
    lines = [who[data["club"]["watchers"]]]
    for spectator in data["spectators"]:
        lines.append("  " + _("{address} watches ({notify}).", address=spectator["email"],
                              notify=spectator["notify"]))
    if not data["spectators"]:
        lines.append("  " + _("Nobody watches yet."))
    return "\n".join(lines) + "\n"
