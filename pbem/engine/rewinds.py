"""A takeback's entries replayed by verify (pbem.engine.verify): the positions a replay keeps for the takebacks
its log grants, and each takeback entry checked and applied (a grant goes back to the position before the decision
it takes back)."""
from __future__ import annotations

import copy
from typing import TYPE_CHECKING

from ..contract import PbemError
from ..messages import Message, lazy
from ..play import takebacks
from ..play.turns import TAKEBACK_AGREE, TAKEBACK_DECLINE, TAKEBACK_REFUSED, TAKEBACK_REQUEST

if TYPE_CHECKING:
    from ..store.registry import Game


class Rewinds:
    """The positions a replay keeps for the takebacks its log grants (pbem.play.takebacks.granted_targets), and
    for one about to be granted (`extra`: {its number: the decision it takes back}): for each decision taken back,
    the position before it and each position after it until the grant, copied as the replay passes them, so that
    no takeback replays the log again."""

    def __init__(self, entries: list[dict], extra: dict[int, int] | None = None):
        self.targets = {**takebacks.granted_targets(entries), **(extra or {})}
        self.kept: dict[int, list] = {}

    def keep(self, count: int, state: dict, entry: dict | None) -> None:
        for grant, target in self.targets.items():
            if count == target - 1:
                self.kept[target] = [copy.deepcopy(state), []]
            elif target <= count < grant and target in self.kept:
                self.kept[target][1].append((entry, copy.deepcopy(state)))



def replay_takeback(game: Game, replaying: tuple, entry: dict, asked: dict | None, state: dict
                     ) -> tuple[dict, dict | None]:
    """A takeback's entry replayed (`replaying`: the log's entries, the positions kept, the log's name): (the state
    after it, the takeback still asked). A request names the requester's last decision; an answer is another
    player's; a granted takeback goes back to the position before that decision, which nothing since may have
    revealed."""
    entries, rewinds, source = replaying
    word, number = entry["moves"][0], entry["number"]

    def failed(why: Message) -> PbemError:
        return PbemError(lazy("verify failed: {source}: move {number}: {why}", source=source, number=number, why=why))
    if word == TAKEBACK_REQUEST:
        target = takebacks.last_decision(entries[:number - 1], entry["player"])
        if asked is not None or target is None:
            raise failed(lazy("a takeback asked while another was waiting, or with no decision to take back"))
        return state, {"by": entry["player"], "of": target, "declined": False}
    if asked is None:
        raise failed(lazy("a takeback answered or decided, but none was asked"))
    if word in (TAKEBACK_AGREE, TAKEBACK_DECLINE):
        if entry["player"] == asked["by"]:
            raise failed(lazy("a takeback answered by the player who asked it"))
        return state, dict(asked, declined=asked["declined"] or word == TAKEBACK_DECLINE)
    if entry["by"] != "referee" or entry["player"] != asked["by"]:
        raise failed(lazy("a takeback's outcome not written by the referee for its requester"))
    if word == TAKEBACK_REFUSED:
        return state, None
    before, steps = rewinds.kept.pop(asked["of"])
    why = takebacks.revealed(game, before, steps)
    if asked["declined"]:
        raise failed(lazy("a takeback granted that was declined"))
    if why is not None:
        raise failed(lazy("a takeback granted though {why}", why=why))
    return before, None
