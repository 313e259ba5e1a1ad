"""The referee's mails in play by git, composed and sent by the mail transport (pbem.mail): a player without a key
gets their view (and their legal moves when they are to act) after every refereed commit; a player with an address
whose commit was refused is told why (and given their legal moves when they are to act: the mail goes to them
alone, where refused.yaml, which everyone reads, never lists them); the clock's reminders and timeout notices.
"""
from __future__ import annotations

from ..engine import engine
from ..text import report
from . import layout

MOVE_BY_GIT = ("Move with: pbem git move CLONE --as {name} --text '...' --push (or commit moves/NNNN-{name}.yaml "
               "and git push).")


def send(desk, run, summary: list[str], mailer, views: bool) -> tuple[list[str], str | None]:
    """Every mail a refereed commit calls for: (addresses mailed, a warning when some could not be sent)."""
    mailed, warnings = [], []
    for wanted, compose in ((views, view_messages), (True, refusal_messages),
                            (bool(run.clock and run.clock["events"] and mailer is not None), clock_messages)):
        if not wanted:
            continue
        messages, warning = compose(desk, run, summary, mailer)
        if messages:
            sent, warning = _mailer(desk, mailer).send(messages)
            mailed += [address for address in sent if address not in mailed]
        if warning:
            warnings.append(warning)
    return mailed, "; ".join(warnings) or None


def view_messages(desk, run, summary: list[str], mailer) -> tuple[list, str | None]:
    """Players without a key get their view by mail, and their legal moves when they are to act."""
    from ..mail import compose
    wanting = [p["name"] for p in desk.config["players"] if p["view"] == "mail"]
    if not wanting:
        return [], None
    if mailer is None:
        return [], (f"{', '.join(wanting)} get their view by mail: give --smtp HOST:PORT or --outbox MAILDIR "
                    f"(`pbem status {desk.gd.path} --as NAME` shows a view meanwhile)")
    secrets = engine.load_secrets(desk.gd)
    messages = []
    for entry in secrets["players"]:
        if entry["name"] not in wanting or not entry["email"]:
            continue
        doc = engine.status(desk.gd, entry["name"])
        subject = compose.subject_for(desk.gd, f"move {doc['move_number']}, your view")
        parts = ["\n".join(summary), report.status_text(doc), *_your_turn(desk, entry["name"])]
        messages.append(_message(desk, secrets, entry["email"], subject, parts, doc["move_number"]))
    return messages, None


def refusal_messages(desk, run, summary: list[str], mailer) -> tuple[list, str | None]:
    """A player with an address whose commit was refused is told which and why: the player its move file names,
    else the player whose address the commit's author gives."""
    from ..mail import compose
    refused = [v for v in run.verdicts if v.kind == "refused"]
    if not refused or mailer is None:
        return [], None
    secrets = engine.load_secrets(desk.gd)
    mailable = addresses(desk.gd)
    by_player: dict[str, list] = {}
    for verdict in refused:
        if verdict.player in mailable:
            by_player.setdefault(verdict.player, []).append(verdict)
    messages = []
    number = engine.status(desk.gd)["move_number"]
    for player, verdicts in by_player.items():
        subject = compose.subject_for(desk.gd, f"your commit was not applied (move {number})")
        lines = "\n".join(f"  {v.commit[:10]}" + (f" ({v.path})" if v.path else "") + f": {v.reason}"
                          for v in verdicts)
        parts = [f"The referee did not apply {'this commit' if len(verdicts) == 1 else 'these commits'} of game "
                 f"{desk.gd.id}; the game is unchanged by {'it' if len(verdicts) == 1 else 'them'}:\n{lines}",
                 f"refused.yaml lists every refusal. The game is at move {number}.",
                 *_your_turn(desk, player)]
        messages.append(_message(desk, secrets, mailable[player], subject, parts, number))
    return messages, None


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


def clock_messages(desk, run, summary: list[str], mailer) -> tuple[list, str | None]:
    """Reminders and timeout notices to the players who have an address (the mail transport's texts)."""
    from ..clock.clock import utcnow
    from ..mail.clockmail import tick_messages
    return tick_messages(_mailer(desk, mailer), desk.gd, run.clock, desk.now or utcnow()), None


def _your_turn(desk, player: str) -> list[str]:
    """When `player` is to act: their legal moves with what each does, and how to move by git."""
    from ..mail import compose
    from .player import turn_goes_on, whole_turn
    legal = engine.legal(desk.gd, player)
    if legal["to_act"] != player:
        return []
    whole = [whole_turn(player)] if turn_goes_on(engine.status(desk.gd), player) else []
    return [f"It is your turn (move {legal['move_number']}). " + compose.legal_block(legal),
            MOVE_BY_GIT.format(name=player), *whole]


def _message(desk, secrets: dict, to: str, subject: str, parts: list[str], number: int):
    from ..mail import compose
    from ..mail.transport import hostname
    referee = secrets.get("organiser") or f"pbem@{hostname()}"
    return compose.message(referee, to, subject, "\n\n".join(p.rstrip() for p in parts if p), game=desk.gd.id,
                           move_number=number, redact=[p["secret"] for p in secrets["players"]])


def _mailer(desk, transport):
    """The mail transport's Mailer for this game's mails: its send keeps what a failing transport could not send
    (in ROOT/.pbem-mail/unsent, for `pbem mail resend`), so a committed position never loses its mails."""
    from ..mail.outgoing import Mailer
    return Mailer(desk.gd.path.parent, transport)
