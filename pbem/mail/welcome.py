"""A game's welcome mails: each player's password and how to move; sent by `pbem mail welcome`, and by `pbem new`
when it is given a way to send them (--smtp or --outbox): the mail transport's part of `new`, so the core command
line sends no mail itself."""
from __future__ import annotations

from email.message import EmailMessage

from ..contract import PbemError, UsageError
from ..engine import engine
from ..messages import _
from ..text import report
from . import compose, helptext
from .readers import reading_as


def prepare(organiser: str | None, smtp: str | None, outbox, smtp_user: str | None, starttls: str | None):
    """The transport the welcomes will go by, checked before the game exists (an outbox that cannot be written,
    no organiser to write from: refused, and no game is made)."""
    if not organiser:
        raise UsageError("welcome mails need --organiser EMAIL (the address the referee writes from)")
    from . import transport
    sender = transport.make(smtp, outbox, smtp_user, starttls)
    sender.prepare()
    return sender


def send(gd, sender) -> tuple[list[str], PbemError | None]:
    """Mail each player with an address their welcome: (who was mailed, the failure if the mails did not go).
    The game exists either way: a failure is for the caller to report after the passwords."""
    try:
        return send_welcome(gd, transport=sender), None
    except PbemError as exc:
        return [], exc


def welcome_messages(gd: engine.GameDir, referee: str | None = None) -> list[EmailMessage]:
    secrets = engine.load_secrets(gd)
    referee = referee or secrets.get("organiser")
    if not referee:
        raise PbemError(f"{gd.id} has no organiser address: the welcome mails need one to come from "
                        f"(pbem new ... --organiser EMAIL)")
    roster = secrets["players"]
    messages = []
    public = engine.legal(gd)
    to_act = public["to_act"]
    for player in roster:
        if not player["email"]:
            continue
        pictured = compose.pictures_available(player)  # every player sees the board they will play on
        with reading_as(gd, player):  # (the mover's moves described from the mover's view, in their words)
            legal = engine.legal(gd, to_act) if to_act == player["name"] else None
            subject, body = welcome(gd, player, roster, legal, pictures=pictured)
            msg = compose.message(referee, player["email"], subject, body, game=gd.id,
                                  move_number=public["move_number"],
                                  message_id=compose.thread_root(gd, player["name"], referee),
                                  redact=[p["secret"] for p in roster if p["name"] != player["name"]])
            if pictured:
                compose.add_picture(msg, engine.status(gd, player["name"]))
        messages.append(msg)
    return messages


def pictures_note() -> str:
    return _("The mails that ask you to move carry a picture of the board as you see it. For mails in text only, "
             "write `pictures off` (with your password) in a mail to the referee; `pictures on` brings the picture "
             "back.")


def welcome(gd: engine.GameDir, player: dict, roster: list[dict], legal: dict | None, pictures: bool = False
            ) -> tuple[str, str]:
    """The welcome of a new game's player: the game, their password, how to move (and, when their mails carry
    pictures, how to turn them off), their turn if it is theirs, the position."""
    doc, name = engine.status(gd, player["name"]), player["name"]
    others = [p["name"] for p in roster if p["name"] != name]
    parts = [_("Welcome to {title}, game {game}. You play as {player}, against {others}.", title=helptext.title(gd),
               game=gd.id, player=name, others=others),
             _("Seating order: {players}.", players=list(gd.players)),
             _("Your password (keep it private; the referee puts it in no other mail, and sends this welcome again "
               "only when the organiser asks):") + "\n\n" + helptext.password_line(player["secret"]),
             _("The referee only accepts mail from the address this was sent to, with that password in it."),
             *([pictures_note()] if pictures else []),
             helptext.how_to_move(gd, doc["move_number"] if doc["to_act"] == name else None) + "\n"
             + _("The Move-Number line (from the report you answer) is optional: it guards against a move being "
                 "applied twice or too late."),
             helptext.notation_help(gd)]
    if doc["to_act"] == name and legal:
        parts.append(_("You start.") + " " + compose.turn_head(doc, game_type=gd.game.id) + "\n\n"
                     + compose.legal_block(legal, gd.game.id))
    else:
        parts.append(_("First to act: {player}. You will get a mail when it is your turn.", player=doc["to_act"]))
    parts.append(report.status_text(doc))
    return compose.subject_for(gd, _("welcome, your password and how to move")), "\n\n".join(p.rstrip() for p in parts)


def send_welcome(gd: engine.GameDir, smtp: str | None = None, outbox=None, transport=None) -> list[str]:
    """Mail each player with an address their welcome: their password and how to move. Returns who was mailed."""
    from . import transport as transports
    sender = transport or transports.make(smtp, outbox)
    messages = welcome_messages(gd)
    if not messages:
        raise PbemError(f"no player of {gd.id} has an email address (pbem new ... --player NAME:EMAIL)")
    try:
        return sender.send(messages)
    except PbemError as exc:
        raise PbemError(f"{exc}. Game {gd.id} exists; send the welcome mails again with "
                        f"`pbem mail welcome {gd.path} --smtp HOST:PORT` (or --outbox DIR)") from None

