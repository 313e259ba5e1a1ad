"""A takeback by mail: `takeback` asks to take back the sender's last decision, `agree` and `decline` answer the one
asked (pbem.clock.takebacks), authenticated as moves are (the registered From and the password). Every player with
an address is told, whatever their mail preference: a request asks each of them to answer, and a granted takeback
changes the position (their mail then carries it from their seat)."""
from __future__ import annotations

from ..clock import correspondence, takebacks
from ..contract import PbemError
from ..engine import engine
from ..text import language
from ..text.takebacks import told
from . import compose
from .outcome import Reject
from .outgoing import Letter, Mailer
from .telling import Handling

WORDS = ("takeback", "agree", "decline")


def answer(mailer: Mailer, handling: Handling, player: dict) -> tuple[str, tuple[list[str], str | None]]:
    """The sender's `takeback`, `agree` or `decline` applied (a Reject, told to them alone, when it cannot be), and
    every player told: (the word, what was sent)."""
    gd, word, name = handling.gd, handling.incoming.command, player["name"]
    how = {"by": "player", "password": handling.incoming.password, "now": handling.now}
    try:
        if word == "takeback":
            result = takebacks.request(gd, name, **how)
        else:
            result = takebacks.answer(gd, name, word == "agree", **how)
    except PbemError as exc:
        raise Reject(str(exc)) from None
    mailer.reads.moved(gd)
    letters = []
    for reader in mailer.reads.secrets(gd)["players"]:
        if reader["email"]:
            letters.append(mailer.mail(gd, handling.incoming if reader["name"] == name else None,
                                       _letter(gd, result, reader, handling, reply=reader["name"] == name)))
    sent = mailer.send(letters)
    mailer.ledger.put(handling.incoming.message_id, handling.record(word, player=name))
    if word == "takeback" and handling.incoming.has_message_id:  # a refusal by the tick answers this mail
        mailer.ledger.put(compose.asked_key(gd.id, result["entries"][0]["number"]),
                          {"state": "done", "message_id": handling.incoming.message_id})
    return word, sent


def _letter(gd: engine.GameDir, result: dict, reader: dict, handling: Handling, reply: bool) -> Letter:
    """One player's mail of the takeback, in their language: the news, and with a granted one the position as
    their seat sees it (with their decision, if it is theirs)."""
    with language.reading(engine.language_of(gd, reader["name"])):
        news = told(result).strip()
    if result["outcome"] == "granted":
        subject, body = compose.player_report(gd, reader["name"], lead=news, now=handling.moment,
                                              preference=correspondence.notify_of(reader))
    else:
        subject, body = compose.subject_for(gd, "takeback"), news + "\n"
    return Letter(reader["email"], subject, body, reply=reply)
