"""The admin lines of a player's mail: `vacation FROM TO`, `vacation cancel`, `notify every|turn|daily`,
`pictures on|off`, `language CODE`, each made and answered with what changed (pbem.mail.commands.Referee hands them
here once it knows the player)."""
from __future__ import annotations

from ..clock import correspondence
from ..contract import UsageError
from ..engine import engine
from ..messages import N_, _, gettext, lazy
from ..text import times
from . import compose, telling
from .outgoing import Letter, Mailer
from .readers import reading_as
from .telling import Handling

PICTURES_ANSWER = {"on": N_("Pictures on: the mails that ask you to move carry a picture of the board as you see it. "
                            "`pictures off` turns them off."),
                   "off": N_("Pictures off: your mails are text only. `pictures on` brings the picture back.")}
# what the subject of an admin answer says, by the word and what came of it (`pictures on recorded`)
SUBJECTS = {("notify", "recorded"): N_("notify recorded"), ("pictures", "on"): N_("pictures on recorded"),
            ("pictures", "off"): N_("pictures off recorded"), ("language", "recorded"): N_("language {code} recorded"),
            ("vacation", "recorded"): N_("vacation recorded"), ("vacation", "cancelled"): N_("vacation cancelled")}


def answer(mailer: Mailer, handling: Handling, player: dict) -> tuple[str, tuple[list[str], str | None]]:
    """The admin line made (a PbemError if it cannot be) and answered to the player: (its word, what was sent)."""
    gd, (word, args) = handling.gd, handling.incoming.admin
    name = player["name"]
    outcome = _change(gd, name, (word, args), handling.now)
    mailer.reads.secrets_changed(gd)
    player = next(p for p in mailer.reads.secrets(gd)["players"] if p["name"] == name)
    with reading_as(gd, player):  # (a `language` line: the answer in the language just chosen)
        msg, seen = _answer_mail(mailer, handling, player, word, args, outcome)
    sent = mailer.send([compose.picture_if_asked(msg, seen, player) if seen else msg])
    mailer.ledger.put(handling.incoming.message_id, handling.record(word, player=name))
    if word == "notify":
        mailer.save_bookmarks()
    return word, sent


def _answer_mail(mailer: Mailer, handling: Handling, player: dict, word: str, args: list[str], outcome: dict):
    """(the answer's mail, the view it shows when it asks the player to move, or None), in the language being
    read."""
    gd, name = handling.gd, player["name"]
    if word == "notify":
        subject, body = telling.switched(mailer, handling, player, args[0])
        return mailer.mail(gd, handling.incoming, Letter(player["email"], subject, body, reply=True)), None
    body, seen = _said(outcome), None
    subject = gettext(SUBJECTS[(word, outcome["subject"])], code=outcome.get("language"))
    if mailer.reads.public(gd)["to_act"] == name:  # their turn: answered as a turn mail (the deadline may move)
        seen = engine.status(gd, name)
        _subject, body = compose.player_report(gd, name, intro=body, now=handling.moment, doc=seen,
                                               preference=correspondence.notify_of(player))
        # TRANSLATORS: a subject: {what} what was recorded ("pictures on recorded"), then the player's turn.
        subject = _("{what}, your turn (move {number})", what=subject, number=seen["move_number"])
    msg = mailer.mail(gd, handling.incoming, Letter(player["email"], compose.subject_for(gd, subject), body,
                                                    reply=True))
    return msg, seen


def _said(outcome: dict) -> str:
    """What the answer says of the change (the language's, the vacation's dates), in the language being read."""
    from ..text import language
    if "language" in outcome:
        code = outcome["language"]
        return _("From now on you read this game in {language}. `language CODE` changes it again (en, fr, zh-Hant, "
                 "zh-Hans).", language=language.LANGUAGES[code][0])
    if "taken" in outcome:
        taken = outcome["taken"]
        return _("Your vacation from {start} to {end} is recorded; the other players see it. Your deadlines stop "
                 "meanwhile.", start=times.readable(taken["from"]), end=times.readable(taken["to"]))
    said = outcome.get("said")
    return gettext(said) if said else ""


def _change(gd: engine.GameDir, name: str, line: tuple[str, list[str]], now) -> dict:
    """The change the line asks for, made: what came of it (`subject`: the key of its answer's subject in SUBJECTS,
    and what the answer says: `said`, a msgid, or the `language` chosen or the vacation `taken`)."""
    word, args = line
    if word == "notify":
        if len(args) != 1:
            raise UsageError(lazy("write `notify every`, `notify turn` or `notify daily`"))
        correspondence.set_notify(gd, name, args[0])
        return {"subject": "recorded"}
    if word == "pictures":
        if len(args) != 1:
            raise UsageError(lazy("write `pictures on` or `pictures off`"))
        correspondence.set_pictures(gd, name, args[0])
        return {"subject": args[0], "said": PICTURES_ANSWER[args[0]]}
    if word == "language":
        if len(args) != 1:
            raise UsageError(lazy("write `language CODE` (en, fr, zh-Hant or zh-Hans)"))
        return {"subject": "recorded", "language": correspondence.set_language(gd, name, args[0])["language"]}
    if args == ["cancel"]:
        correspondence.vacation(gd, name, now, cancel=True)
        return {"subject": "cancelled",
                "said": N_("Your vacation is cancelled; the days you did not take are given back.")}
    if len(args) == 2:
        return {"subject": "recorded", "taken": correspondence.vacation(gd, name, now, args[0], args[1])["taken"]}
    # TRANSLATORS: the words in backquotes are the command as the referee reads it: keep them in English.
    raise UsageError(lazy("write `vacation FROM TO` (dates like 2025-12-24) or `vacation cancel`"))
