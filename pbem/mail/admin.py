"""The admin lines of a player's mail: `vacation FROM TO`, `vacation cancel`, `notify every|turn|daily`,
`pictures on|off`, `language CODE`, each made and answered with what changed (pbem.mail.commands.Referee hands them here once it
knows the player)."""
from __future__ import annotations

from ..clock import correspondence
from ..contract import UsageError
from ..messages import _
from ..engine import engine
from ..text import times
from . import compose, telling
from .outgoing import Letter, Mailer
from .telling import Handling

PICTURES_ANSWER = {"on": "Pictures on: the mails that ask you to move carry a picture of the board as you see it. "
                         "`pictures off` turns them off.",
                   "off": "Pictures off: your mails are text only. `pictures on` brings the picture back."}


def answer(mailer: Mailer, handling: Handling, player: dict) -> tuple[str, tuple[list[str], str | None]]:
    """The admin line made (a PbemError if it cannot be) and answered to the player: (its word, what was sent)."""
    gd, (word, args) = handling.gd, handling.incoming.admin
    name = player["name"]
    body, outcome = _change(gd, name, (word, args), handling.now)
    mailer.reads.secrets_changed(gd)
    subject = compose.subject_for(gd, f"{word} {outcome}")
    if word == "notify":
        subject, body = telling.switched(mailer, handling, player, args[0])
    else:
        doc = mailer.reads.public(gd)
        if doc["to_act"] == name:  # the vacation may have moved the deadline
            body += "\n\n" + compose.turn_head(doc, handling.moment)
    sent = mailer.send([mailer.mail(gd, handling.incoming, Letter(player["email"], subject, body, reply=True))])
    mailer.ledger.put(handling.incoming.message_id, handling.record(word, player=name))
    if word == "notify":
        mailer.save_bookmarks()
    return word, sent


def _change(gd: engine.GameDir, name: str, line: tuple[str, list[str]], now) -> tuple[str, str]:
    """The change the line asks for, made: (what the answer says, the outcome its subject names)."""
    word, args = line
    if word == "notify":
        if len(args) != 1:
            raise UsageError("write `notify every`, `notify turn` or `notify daily`")
        correspondence.set_notify(gd, name, args[0])
        return "", "recorded"
    if word == "pictures":
        if len(args) != 1:
            raise UsageError("write `pictures on` or `pictures off`")
        correspondence.set_pictures(gd, name, args[0])
        return PICTURES_ANSWER[args[0]], f"{args[0]} recorded"
    if word == "language":
        if len(args) != 1:
            raise UsageError("write `language CODE` (en, fr, zh-Hant or zh-Hans)")
        code = correspondence.set_language(gd, name, args[0])["language"]
        from ..text import language
        with language.reading(code):  # the answer in the language just chosen
            return _("From now on you read this game in {language}. `language CODE` changes it again (en, fr, "
                     "zh-Hant, zh-Hans).", language=language.LANGUAGES[code][0]), f"{code} recorded"
    if args == ["cancel"]:
        correspondence.vacation(gd, name, now, cancel=True)
        return "Your vacation is cancelled; the days you did not take are given back.", "cancelled"
    if len(args) == 2:
        taken = correspondence.vacation(gd, name, now, args[0], args[1])["taken"]
        return (f"Your vacation from {times.readable(taken['from'])} to {times.readable(taken['to'])} is "
                f"recorded; the other players see it. Your deadlines stop meanwhile."), "recorded"
    raise UsageError("write `vacation FROM TO` (dates like 2025-12-24) or `vacation cancel`")
