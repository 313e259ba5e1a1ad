"""What every transport says of a takeback by consent (pbem.engine.takebacks): asked, answered, granted or refused,
in the language being read, from the data the engine answered."""
from __future__ import annotations

from ..messages import _


def told(r: dict) -> str:
    """The takeback's news as sentences, a line each: who asked or answered, who must still answer and until when,
    and the outcome with its reason; whose queued moves were dropped."""
    lines = []
    asked, number, player = r.get("asked"), r["of"], r["player"]
    if r["kind"] == "request":
        lines.append(_("{player} asks to take back move {number}.", player=player, number=number))
    elif r["kind"] == "agree":
        lines.append(_("{player} agrees to take back move {number}.", player=player, number=number))
    elif r["kind"] == "decline":
        lines.append(_("{player} declines to take back move {number}.", player=player, number=number))
    if asked is not None:
        lines.append(_("Waiting for {players} to agree or decline, by {until} at the latest.",
                       players=asked["waiting"], until=asked["until"]) if asked.get("until") else
                     _("Waiting for {players} to agree or decline.", players=asked["waiting"]))
    elif r["outcome"] == "granted":
        lines.append(_("Move {number} and every move after it are taken back, as {player} asked: the position is "
                       "again the one before it.", number=r["of"], player=r["requester"]))
        if r.get("to_act"):
            lines.append(_("It is {player}'s decision.", player=r["to_act"]))
    elif r["outcome"] == "refused":
        lines.append(_("The takeback of move {number} that {player} asked for is refused: {reason}.",
                       number=r["of"], player=r["requester"], reason=r["why"]))
    if r.get("dropped"):
        lines.append(_("The queued moves of {players} were dropped: they followed a position that is taken back.",
                       players=r["dropped"]))
    return "\n".join(lines) + "\n"


def news_line(entry: dict) -> str:
    """A takeback's log entry in words (a mail's news): `takeback-request`, `-agree`, `-decline`, `-granted` or
    `-refused` (pbem.play.turns.TAKEBACK_WORDS)."""
    number, player, word = entry["number"], entry["player"], entry["moves"][0].removeprefix("takeback-")
    if word == "request":
        return _("Move {number}: {player} asked to take back their last decision.", number=number, player=player)
    if word == "agree":
        return _("Move {number}: {player} agreed to the takeback.", number=number, player=player)
    if word == "decline":
        return _("Move {number}: {player} declined the takeback.", number=number, player=player)
    if word == "granted":
        return _("Move {number}: the referee granted {player}'s takeback: the position is again the one before "
                 "the decision taken back.", number=number, player=player)
    return _("Move {number}: the referee refused {player}'s takeback ({reason}).", number=number, player=player,
             reason=entry.get("reason", ""))
