"""Spectators by mail: the `watch`, `unwatch` and `confirm` commands of an address that plays no seat, and the
mails a spectator gets.

A spectator's mail is the public report (compose.public_report: the public view, rendered as the organiser's
copy is), never a player's view with something taken out: whatever a spectator receives is what the public view
holds. `watch` (or `watch daily`) and `unwatch` are answered only to the address in the From, with a token; the
change is made when a mail from that address sends `confirm TOKEN` back (pbem.clock.club). A forged From makes
the referee write to the real address, which can ignore it; it never learns the token.
"""
from __future__ import annotations

from email.message import EmailMessage

from .. import digests
from ..clock import club
from ..contract import PbemError
from ..engine import engine
from ..messages import _
from ..text import language, times
from . import compose, news
from .outcome import Outcome, Reject
from .outgoing import Letter, Mailer

WORDS = ("watch", "unwatch", "confirm", "language")


def request(lines: list[str]) -> tuple[str, list[str]] | None:
    """A spectator's command (`watch`, `watch daily`, `unwatch`, `language CODE`, `confirm TOKEN`): (its word, the
    rest). `language` is a player's command too: the caller asks `watcher` whose it is."""
    if len(lines) != 1:
        return None
    words = lines[0].split()
    return (words[0].lower(), words[1:]) if words and words[0].lower() in WORDS else None


def answer(mailer: Mailer, handling, word: str, args: list[str]) -> Outcome:
    """The command made (a Reject if it cannot be) and answered to the From address alone. `handling`: the
    message being handled (pbem.mail.telling.Handling, not imported: telling mails the spectators' reports)."""
    gd, sender = handling.gd, handling.incoming.sender
    if not sender:
        raise Reject(_("your mail has no address to answer: the referee writes only to the address a request "
                       "comes from."))
    try:
        if word == "confirm":
            subject, body = _confirmed(mailer, handling, args)
        else:
            subject, body = _asked(mailer, handling, word, args)
    except PbemError as exc:
        raise Reject(exc.render()) from None
    mailer.reads.secrets_changed(gd)
    sent = mailer.send([mailer.mail(gd, handling.incoming, Letter(sender, subject, body, reply=True))])
    mailer.ledger.put(handling.incoming.message_id, handling.record(word))
    return Outcome(handling.incoming.message_id, "command", word, gd.id, None, *sent)


def watcher(mailer: Mailer, handling) -> bool:
    """Is the mail's From an address that watches the game and plays no seat (its `language` is a spectator's)?"""
    secrets, sender = mailer.reads.secrets(handling.gd), handling.incoming.sender or ""
    return club.spectator(secrets, sender) is not None and club.plays(secrets, sender) is None


def _asked(mailer: Mailer, handling, word: str, args: list[str]) -> tuple[str, str]:
    gd, sender = handling.gd, handling.incoming.sender
    if word == "language":
        return _language_asked(handling, args)
    preference = args[0].lower() if args else "every"
    if len(args) > 1 or preference not in club.SPECTATOR_NOTIFY or (word == "unwatch" and args):
        raise PbemError(_("write `watch` (a mail after every move), `watch daily` (one digest a day) or "
                          "`unwatch`."))
    token = club.ask(gd, sender, word, times.iso(handling.moment), preference)
    if word == "watch":
        what = _("You asked to watch game {game} ({title}): the referee will mail you the public report of "
                 "the game ({notify}).", game=gd.id, title=gd.game.title, notify=preference)
    else:
        what = _("You asked to stop watching game {game}.", game=gd.id)
    steps = _("To confirm, reply to this mail (keep the [{game}] tag in the subject) with this one line:\n\n"
              "    confirm {token}\n\nIf you did not ask, ignore this mail: nothing changes.",
              game=gd.id, token=token)
    return compose.subject_for(gd, _("please confirm")), "\n\n".join([what, steps])


def _language_asked(handling, args: list[str]) -> tuple[str, str]:
    """A spectator's `language CODE`: asked, to be confirmed from their address like `watch`."""
    gd, sender = handling.gd, handling.incoming.sender
    if len(args) != 1:
        raise PbemError(_("write `language` and a language's code: {codes}.", codes=", ".join(language.LANGUAGES)))
    code = language.check(args[0])
    token = club.ask(gd, sender, "language", times.iso(handling.moment), language=code)
    what = _("You asked for the mails of game {game} in {language} ({code}).", game=gd.id,
             language=language.LANGUAGES[code][0], code=code)
    steps = _("To confirm, reply to this mail (keep the [{game}] tag in the subject) with this one line:\n\n"
              "    confirm {token}\n\nIf you did not ask, ignore this mail: nothing changes.",
              game=gd.id, token=token)
    return compose.subject_for(gd, _("please confirm")), "\n\n".join([what, steps])


def _confirmed(mailer: Mailer, handling, args: list[str]) -> tuple[str, str]:
    gd, sender = handling.gd, handling.incoming.sender
    if len(args) != 1:
        raise PbemError(_("write `confirm` and the token of the referee's mail, on one line."))
    action = club.confirm(gd, sender, args[0])
    if action == "language":
        mailer.reads.secrets_changed(gd)
        code = club.spectator(mailer.reads.secrets(gd), sender)["language"]
        with language.reading(code):  # said in the language chosen
            return (compose.subject_for(gd, _("your language")),
                    _("You now get the mails of game {game} in {language}.", game=gd.id,
                      language=language.LANGUAGES[code][0]))
    if action == "unwatch":
        return (compose.subject_for(gd, _("you no longer watch")),
                _("You no longer watch game {game}: the referee sends you no more of its mail.", game=gd.id))
    mailer.reads.secrets_changed(gd)
    watcher = club.spectator(mailer.reads.secrets(gd), sender)
    book = mailer.bookmarks(gd)
    book.tell(_key(sender), mailer.reads.public(gd)["move_number"] - 1)  # told up to now: this mail shows it
    mailer.save_bookmarks()
    head = _("You now watch game {game} ({notify}): you get the public report, what every player may see. "
             "`unwatch` stops it.", game=gd.id, notify=watcher["notify"])
    return compose.public_report(gd, head)


def reports(mailer: Mailer, gd: engine.GameDir, entries: list[dict], key: str | None = None) -> list[EmailMessage]:
    """The mails of a change's moves (`entries`, as the public log holds them) to the spectators who hear of
    every move: the public report. `key` (an owed record's id): each gets a Message-ID made from it."""
    watchers = [s for s in club.spectators(mailer.reads.secrets(gd)) if s["notify"] == "every"]
    if not watchers or not entries:
        return []
    mails = []
    for code in dict.fromkeys(reads(gd, watcher) for watcher in watchers):  # the report once a language
        with language.reading(code):
            subject, body = compose.public_report(gd, compose.news_text(entries))
        mails += [_letter(mailer, gd, watcher, subject, body, key and f"{key}-watch") for watcher in watchers
                  if reads(gd, watcher) == code]
    return mails


def reads(gd: engine.GameDir, watcher: dict) -> str:
    """The language of a spectator's mails: their own choice, else the game's."""
    return watcher.get("language") or engine.language_of(gd)


def digests_due(mailer: Mailer, gd: engine.GameDir, now) -> list[tuple[str, EmailMessage]]:
    """One digest a day (UTC) for each daily spectator, of the moves since their last: (their bookmark, mail)."""
    daily = [s for s in club.spectators(mailer.reads.secrets(gd)) if s["notify"] == "daily"]
    if not daily:
        return []
    today, book, moment = now.date().isoformat(), mailer.bookmarks(gd), news.Moment(gd)
    mails = []
    for watcher in daily:
        name = _key(watcher["email"])
        seen = {"name": name, "notify": "daily"}
        if book.day(name) >= today or not news.untold(book, moment, seen):
            continue
        told = news.tell(book, moment, seen)
        book.tell(name, told[-1]["number"], day=today)
        with language.reading(reads(gd, watcher)):
            subject, body = compose.public_report(gd, compose.news_text(
                told, _("Your daily digest of {game} ({day}):", game=gd.id, day=today)))
        mails.append((name, _letter(mailer, gd, watcher, subject, body, f"digest-{told[0]['number']}")))
    return mails


def _letter(mailer: Mailer, gd: engine.GameDir, watcher: dict, subject: str, body: str, key: str | None):
    recipient = _key(watcher["email"]).replace(" ", "-")
    message_id = compose.owed_id(gd, mailer.referee_address(gd), key, recipient, "watch") if key else None
    return mailer.mail(gd, None, Letter(watcher["email"], subject, body, thread=None, message_id=message_id))


def _key(address: str) -> str:
    """A spectator's bookmark (pbem.mail.news) and the part of a Message-ID that names them: a digest of their
    address, which an ID must not hold as it is."""
    return "spectator " + digests.sha256(address.lower().encode()).hexdigest()[:16]
