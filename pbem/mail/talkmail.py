"""Table talk by mail: the `say` lines of a player's mail, alone or with a move, and the mails that carry them.

    say: I am away this weekend              (one line, to the table)
    say to bob: shall we share the coast?    (one line, to bob only)
    say to bob:                              (a block: the lines after it, up to a line `end`)
    ...
    end

A message to the table is mailed to every other player with an address and to every spectator, and kept in the
game's public talk; a private one to its one recipient only, kept in the referee's files (pbem.clock.talk). A
message is only ever the body of a mail, under a line naming who said it, never a header. In a mail with a move,
the talk is checked first (a refused one refuses the mail: nothing is played), then kept once the move is; a
message another mail of the same player left no room for in between is never dropped unsaid: the player is told.

Each message is kept once and mailed once, however often its mail is handled (a run killed after keeping it and
before recording the mail handled meets the mail again): it is kept under its source, the mail's Message-ID and
its place in the mail (pbem.clock.talk), and each of its mails has a Message-ID made from that source and goes
through the ledger of mails sent once (Mailer.send_owed).
"""
from __future__ import annotations

import re
from email.message import EmailMessage

from ..clock import club, talk
from ..contract import PbemError
from ..digests import sha256
from ..engine import engine
from ..messages import _
from ..text import language, talktext
from . import compose
from .outcome import Outcome, Reject
from .outgoing import Letter, Mailer
from .telling import Handling

SAY = re.compile(r"^say(?:\s+to\s+([A-Za-z][A-Za-z0-9_-]{0,31}))?\s*:\s*(.*)$", re.IGNORECASE)


def take(lines: list[str]) -> tuple[list[tuple[str | None, str]], list[str]]:
    """The messages a mail's lines say ((recipient or None, text) each) and the lines left (the move)."""
    said, rest, block = [], [], None
    for line in lines:
        if block is not None:
            if line.strip().lower() == "end":
                said.append((block[0], "\n".join(block[1])))
                block = None
            else:
                block[1].append(line)
            continue
        match = SAY.match(line)
        if match is None:
            rest.append(line)
        elif match.group(2).strip():
            said.append((_seat(match.group(1)), match.group(2)))
        else:
            block = (_seat(match.group(1)), [])
    if block is not None:
        said.append((block[0], "\n".join(block[1])))
    return said, rest


def source(handling: Handling, index: int) -> str:
    """What carried the mail's message number `index` (from 0): the mail, by a digest of its Message-ID (the mail
    ledger's key: the same mail handled again), and the message's place in it."""
    return f"mail {sha256(handling.incoming.message_id.encode('utf-8', 'surrogateescape')).hexdigest()[:32]} {index}"


def checked(mailer: Mailer, handling: Handling, sender: str) -> bool:
    """The talk of a player's mail checked before anything of it is applied (a Reject if it cannot be said, or
    comes with a command rather than a move); is it a mail of talk only?"""
    incoming = handling.incoming
    try:
        check(handling.gd, mailer.reads.secrets(handling.gd), sender, handling.said, handling.now,
              [source(handling, index) for index in range(len(handling.said))])
    except PbemError as exc:
        raise Reject(exc.render()) from None
    if incoming.admin or incoming.command in ("help", "status", "moves"):
        raise Reject(_("`say` goes in a mail of its own or with a move, not with a command: send the command "
                       "in another mail."))
    return not incoming.lines


def check(gd: engine.GameDir, secrets: dict, sender: str, said: list[tuple[str | None, str]], now,
          sources: list[str]) -> None:
    """Refuse what could not be said (talk turned off, no such seat, too long, or more today than the limit with
    the messages already sent; those kept from `sources` already count once)."""
    talk.check_room(gd, sender, sources, now)
    for to, text in said:
        talk.check_allowed(gd, secrets, sender, to)
        talk.cleaned(text)


def keep(handling: Handling, sender: str, index: int) -> dict:
    """The mail's message number `index` kept (pbem.clock.talk.say, once from its source), with its source."""
    to, text = handling.said[index]
    where = source(handling, index)
    return {**talk.say(handling.gd, sender, text, to, handling.now, where), "source": where}


def mails(mailer: Mailer, gd: engine.GameDir, kept: list[dict], mailed: set[str] | None = None
          ) -> list[EmailMessage]:
    """Each message to whoever may read it, in their language: the table's to the other players and the
    spectators, a private one to its recipient; of the players, those of `mailed` only (None: all with an
    address; play by git mails those who read no repository). A message with its `source` gets mails whose
    Message-IDs are made from it (the same when made again: send them with Mailer.send_owed)."""
    secrets = mailer.reads.secrets(gd)
    players = {p["name"]: p.get("email") for p in secrets["players"] if mailed is None or p["name"] in mailed}
    out = []
    for message in kept:
        if message["to"] is None:
            readers = [(engine.language_of(gd, name), a) for name, a in players.items()
                       if a and name != message["from"]]
            readers += [(s.get("language") or engine.language_of(gd), s["email"]) for s in club.spectators(secrets)]
        else:
            addressee = message["to"]
            readers = [(engine.language_of(gd, addressee), players[addressee])] if players.get(addressee) else []
        for code, to in _unique(readers):
            with language.reading(code):
                subject = _("{player} to the table", player=message["from"]) if message["to"] is None else \
                    _("{player} to you only", player=message["from"])
                body = "\n".join(talktext.message_lines(message))
                out.append(mailer.mail(gd, None, Letter(to, compose.subject_for(gd, subject), body, thread=None,
                                                        message_id=_message_id(mailer, gd, message, to))))
    return out


def _message_id(mailer: Mailer, gd: engine.GameDir, message: dict, to: str) -> str | None:
    """The Message-ID of a message's mail to `to`: made from its source and its recipient (None: a new one)."""
    if not message.get("source"):
        return None
    return compose.made_id(gd, mailer.referee_address(gd), message["source"], to, "talk")


def send(mailer: Mailer, gd: engine.GameDir, answers: list[EmailMessage], told: list[EmailMessage]
         ) -> tuple[list[str], str | None]:
    """The answers and reports of a handled mail sent, then the mails of its talk (`told`), each once (a run killed
    after they went, before the mail was recorded handled, makes them again and finds them sent)."""
    sent, warning = mailer.send(answers)
    again, late = mailer.send_owed(gd.id, told) if told else ([], None)
    return sent + again, warning or late


def _unique(readers: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Each address once (a spectator who also plays is mailed as the player)."""
    seen, out = set(), []
    for code, address in readers:
        if address not in seen:
            seen.add(address)
            out.append((code, address))
    return out


def answer(mailer: Mailer, handling: Handling, player: dict) -> Outcome:
    """A mail of talk only: each message kept and mailed, the sender answered with what was kept."""
    gd, name = handling.gd, player["name"]
    try:
        said = [keep(handling, name, index) for index in range(len(handling.said))]
    except PbemError as exc:
        raise Reject(exc.render()) from None
    letter = Letter(player["email"], compose.subject_for(gd, _("message sent")), answer_text(said), reply=True)
    sent = send(mailer, gd, [mailer.mail(gd, handling.incoming, letter)], mails(mailer, gd, said))
    mailer.ledger.put(handling.incoming.message_id, handling.record("say", player=name))
    return Outcome(handling.incoming.message_id, "command", "say", gd.id, name, *sent)


def after_move(mailer: Mailer, handling: Handling, name: str) -> tuple[list[EmailMessage], list[EmailMessage]]:
    """The talk of a mail whose move was accepted, kept: (the answer to the mover when some of it could not be,
    the mails that tell it; send them with `send`). It was checked before the move, but another mail of the same
    player may have used up the day's messages in between: the move stands, and the player is told which
    messages were not delivered and why (never dropped without a word)."""
    said, refusal = [], None
    for index in range(len(handling.said)):
        try:
            said.append(keep(handling, name, index))
        except PbemError as exc:
            refusal = exc
            break
    answers = []
    if refusal is not None:
        unsent = [(to, talk.cleaned(text)[0]) for to, text in handling.said[len(said):]]  # checked: they clean
        answers.append(not_delivered(mailer, handling, name, unsent, refusal))
    return answers, mails(mailer, handling.gd, said)


def not_delivered(mailer: Mailer, handling: Handling, name: str, unsent: list[tuple[str | None, str]],
                  refusal: PbemError) -> EmailMessage:
    """The mail that tells the mover their move is played but these messages were not delivered, and why."""
    gd = handling.gd
    player = next(p for p in mailer.reads.secrets(gd)["players"] if p["name"] == name)
    body = talktext.undelivered_text(unsent, refusal.render())
    letter = Letter(player["email"], compose.subject_for(gd, _("message not delivered")), body, reply=True)
    return mailer.mail(gd, handling.incoming, letter)


def answer_text(kept: list[dict]) -> str:
    """The answer to the sender of a mail of talk only: what was kept, and to whom it went."""
    parts = [_("Your message is sent; the referee keeps it in the game's talk (outside the moves)."),
             talktext.messages_text(kept)]
    removed = sum(message["removed"] for message in kept)
    if removed:
        parts.append(talktext.cleaned_note(removed))
    return "\n\n".join(parts)


def _seat(name: str | None) -> str | None:
    return name.lower() if name else None
