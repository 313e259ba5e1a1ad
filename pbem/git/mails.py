"""The referee's mails in play by git, composed and sent by the mail transport (pbem.mail): a player without a key
gets their view (and their legal moves when they are to act) after every refereed commit, and the talk it kept
that they cannot read in the repository; a player with an address whose commit was refused is told why (and given
their legal moves when they are to act: the mail goes to them alone, where refused.yaml, which everyone reads,
never lists them); the clock's reminders and timeout notices; the table's talk to the spectators. Each goes once
(`send`).
"""
from __future__ import annotations

from ..contract import PbemError
from ..engine import engine
from ..messages import _, ngettext
from ..text import language, report
from . import cimail, layout
from . import compose as commits


def move_by_git(name: str) -> str:
    # TRANSLATORS: the command and the file name are typed as they are; {name}: the player's name.
    return _("Move with: pbem git move CLONE --as {name} --text '...' --push (or commit moves/NNNN-{name}.yaml and "
             "git push).", name=name)


def send(desk, run, mailer, views: bool) -> tuple[list[str], str | None]:
    """Every mail a refereed commit calls for: (addresses mailed, a warning when some could not be made or sent).
    Each mail is in the language of the player it goes to, and goes once: its Message-ID is made from what it is
    about (`about`), so a run made again after it was mailed (a referee in CI killed before its push) makes the
    same mails, which the mail ledger and an outbox know for sent (Mailer.send_owed)."""
    out = _mailer(desk, mailer) if mailer is not None else None
    mailed, warnings, made = [], [], []
    for wanted, compose in ((views, view_messages), (True, refusal_messages),
                            (bool(run.clock and (run.clock["events"] or run.clock["entries"])), clock_messages),
                            (True, lambda *given: talk_messages(*given, views))):
        if not wanted or (out is None and compose is not view_messages):
            continue
        messages, composed = compose(desk, run, out)
        made += [str(message["Message-ID"]) for message in messages]
        sent, unsent = out.send_owed(desk.gd.id, messages, _bases(desk, messages)) if messages else ([], None)
        mailed += [address for address in sent if address not in mailed]
        warnings += [warning for warning in (composed, unsent) if warning]
    if desk.mailbook is not None:  # a referee in CI: what could not go is owed, carried in referee.age
        warnings += filter(None, [cimail.collect(desk.mailbook, desk.gd.path.parent, made), desk.mailbook.owed_line()])
    return mailed, "; ".join(warnings) or None


def send_owed_first(desk, transport) -> tuple[list[str], str | None]:
    """A referee in CI sends the mails an earlier run owed (referee.age carries them) before any of its own, oldest
    first, and stops at the first the transport fails (the rest stay owed, in order). A mail the server was reached
    and refused (an address gone, say) is dropped, so that it never holds the others back. (addresses mailed, a
    warning when the archive's ledger could not be read, a mail was dropped or the owed mails could not all go.)"""
    book = desk.mailbook
    if book is None:
        return [], None
    warnings, mailed = [book.warning] if book.warning else [], []
    if book.owed and transport is None:
        warnings.append("the mails owed since an earlier run wait for a run with --smtp HOST:PORT or --outbox")
    elif book.owed:
        from ..mail.transport import Refused
        transport.prepare()
        while book.owed:
            try:
                mailed += transport.send([cimail.parse(book.owed[0])], once=True)
            except Refused as exc:
                warnings.append(f"{exc}; dropped the mail to {cimail.recipients(book.owed[:1])[0]} an earlier run "
                                f"owed: the server refuses it")
                book.dropped += 1
            except PbemError as exc:
                warnings.append(f"{exc}; the mails owed since an earlier run wait for the next")
                break
            else:
                book.delivered += 1
            book.owed.pop(0)
    return list(dict.fromkeys(mailed)), "; ".join(warnings) or None


def _bases(desk, messages: list) -> dict[str, dict] | None:
    """A referee in CI records with each mail the refereed commit its run started from (what its archive keeps
    of the ledger is the last runs', pbem.git.cimail)."""
    if desk.mailbook is None:
        return None
    return {str(message["Message-ID"]): {"base": desk.last} for message in messages}


def about(run) -> str:
    """What the mails of a run are about, the same when the run is made again on the same history: the refereed
    commit it started from, the commits it judged and what its clock did (a later run starts from another)."""
    from ..mail.clockmail import tick_key
    clock = tick_key(run.clock) if run.clock else ""
    return " ".join([run.base or "", *(verdict.commit for verdict in run.verdicts), clock])


def view_messages(desk, run, out) -> tuple[list, str | None]:
    """Players without a key get their view by mail, and their legal moves when they are to act; a seat whose
    view goes by mail and that has no address is named in the warning (nothing reaches it)."""
    from ..mail import compose
    wanting = [p["name"] for p in desk.config["players"] if p["view"] == "mail"]
    if not wanting:
        return [], None
    if out is None:
        return [], (f"{', '.join(wanting)} get their view by mail: give --smtp HOST:PORT or --outbox MAILDIR "
                    f"(`pbem status {desk.gd.path} --as NAME` shows a view meanwhile)")
    secrets = out.reads.secrets(desk.gd)
    messages = []
    for entry in secrets["players"]:
        if entry["name"] not in wanting or not entry["email"]:
            continue
        doc = engine.status(desk.gd, entry["name"])
        with language.reading(engine.language_of(desk.gd, entry["name"])):
            subject = compose.subject_for(desk.gd, _("move {number}, your view", number=doc["move_number"]))
            summary = commits.summary(run, desk.gd.meta["game"])[1:]
            parts = ["\n".join(summary), report.status_text(doc), *_your_turn(desk, entry["name"])]
            messages.append(_message(desk, out, entry["email"], subject, parts, about(run), "view"))
    return messages, _unreachable(wanting, secrets)


def _unreachable(wanting: list[str], secrets: dict) -> str | None:
    """The warning for seats whose view goes by mail and that have no address (a seat handed on without one)."""
    lost = [entry["name"] for entry in secrets["players"] if entry["name"] in wanting and not entry["email"]]
    if not lost:
        return None
    return (f"nothing mailed to {', '.join(lost)}: the view goes by mail and there is no address; register a key "
            f"(`pbem git referee ... --key {lost[0]}=KEY.pub`) or hand the seat on with an address "
            f"(`pbem replace ... --by NAME:EMAIL`)")


def refusal_messages(desk, run, out) -> tuple[list, str | None]:
    """A player with an address whose commit was refused is told which and why: the player its move file names,
    else the player whose address the commit's author gives."""
    from ..mail import compose
    refused = [v for v in run.verdicts if v.kind == "refused"]
    if not refused:
        return [], None
    mailable = addresses(desk.gd)
    by_player: dict[str, list] = {}
    for verdict in refused:
        if verdict.player in mailable:
            by_player.setdefault(verdict.player, []).append(verdict)
    messages = []
    number = engine.status(desk.gd)["move_number"]
    for player, verdicts in by_player.items():
        with language.reading(engine.language_of(desk.gd, player)):
            subject = compose.subject_for(desk.gd, _("your commit was not applied (move {number})", number=number))
            parts = [refusal_text(desk.gd.id, verdicts),
                     _("refused.yaml lists every refusal. The game is at move {number}.", number=number),
                     *_your_turn(desk, player)]
            # the same refused commits are the same mail, whatever the run that judged them again
            messages.append(_message(desk, out, mailable[player], subject, parts,
                                     " ".join(verdict.commit for verdict in verdicts), "refused"))
    return messages, None


def talk_messages(desk, run, out, views: bool) -> tuple[list, str | None]:
    """The talk a refereed commit kept, to those who read no repository: a message to the table to the spectators,
    and to the players without a key when no view mail (whose summary holds it) goes to them this time; a private
    message to its addressee when they have no key (nobody else can read it: it is encrypted in the repository).
    Each mail's Message-ID is made from the talk file's path and its recipient, so a run made again after it was
    mailed (killed before its commit was placed) makes the same mail, which the mail ledger and an outbox know."""
    from ..mail import talkmail
    kept = [v.result for v in run.verdicts if v.kind == "talk"]
    if not kept:
        return [], None
    keyless = {seat["name"] for seat in desk.config["players"] if seat["view"] == "mail"}
    table = [m for m in kept if m["to"] is None]
    messages = talkmail.mails(out, desk.gd, table, set() if views else keyless)
    messages += talkmail.mails(out, desk.gd, [m for m in kept if m["to"] is not None], keyless)
    return messages, None


def refusal_text(game_id: str, verdicts: list) -> str:
    """The commits of one player the referee refused, each with why, in the language being read."""
    lines = "\n".join("  " + (_("{commit} ({path}): {reason}", commit=v.commit[:10], path=v.path, reason=v.shown())
                              if v.path else _("{commit}: {reason}", commit=v.commit[:10], reason=v.shown()))
                      for v in verdicts)
    return ngettext("The referee did not apply this commit of game {game}; the game is unchanged by it:\n{lines}",
                    "The referee did not apply these commits of game {game}; the game is unchanged by them:\n{lines}",
                    len(verdicts), game=game_id, lines=lines)


def refused_player(verdict, players: list[str], addresses: dict[str, str]) -> str | None:
    """Whom a refusal concerns: the player its move file names, else the player whose address is the author's
    (anyone can write any author: a refusal notice is all it can bring them)."""
    named = layout.move_name(verdict.path or "")
    if named and named.group("player") in players:
        return named.group("player")
    author = verdict.author.rpartition("<")[2].rstrip(">").strip().lower()
    return next((name for name, address in addresses.items() if author and address.lower() == author), None)


def addresses(gd) -> dict[str, str]:
    """{player: email} of the players who gave an address."""
    return {entry["name"]: entry["email"] for entry in engine.load_secrets(gd)["players"] if entry["email"]}


def clock_messages(desk, run, out) -> tuple[list, str | None]:
    """Reminders, timeout notices and a takeback the clock refused, to the players who have an address (the mail
    transport's texts and Message-IDs: pbem.mail.clockmail.tick_key)."""
    from ..clock.clock import utcnow
    from ..mail.clockmail import tick_messages
    return tick_messages(out, desk.gd, run.clock, desk.now or utcnow()), None


def _your_turn(desk, player: str) -> list[str]:
    """When `player` is to act: their legal moves with what each does, and how to move by git."""
    from ..mail import compose
    from .player import turn_goes_on, whole_turn
    legal = engine.legal(desk.gd, player)
    if legal["to_act"] != player:
        return []
    whole = [whole_turn(player)] if turn_goes_on(engine.status(desk.gd), player) else []
    return [_("It is your turn (move {number}). {legal}", number=legal["move_number"],
              legal=compose.legal_block(legal)), move_by_git(player), *whole]


def _message(desk, out, to: str, subject: str, parts: list[str], what: str, kind: str):
    """A mail of the game (from its organiser, else the Mailer's address), its Message-ID made from `what` it is
    about, its `kind` and its recipient (compose.made_id)."""
    from ..mail import compose
    from ..mail.outgoing import Letter
    message_id = compose.made_id(desk.gd, out.referee_address(desk.gd), what, to, kind)
    return out.mail(desk.gd, None, Letter(to, subject, "\n\n".join(p.rstrip() for p in parts if p),
                                          message_id=message_id))


def _mailer(desk, transport):
    """The mail transport's Mailer for this game's mails: its send keeps what a failing transport could not send
    (in ROOT/.pbem-mail/unsent, for `pbem mail resend`), so a committed position never loses its mails."""
    from ..mail.outgoing import Mailer
    return Mailer(desk.gd.path.parent, transport, kept_in=cimail.KEPT_IN if desk.mailbook is not None else None)
