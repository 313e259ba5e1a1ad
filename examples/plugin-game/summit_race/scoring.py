"""The end: a climber reaches the summit exactly and wins at once; or the storm ends the game (phases/deck.py) and
the highest climber wins."""
from __future__ import annotations


def is_over(state: dict) -> bool:
    """The one way the game says it is over."""
    return state["over"]


def result(state: dict) -> list[dict]:
    """Ranked by height (the climber on the summit is the highest). ruling: climbers at the same height share the
    rank: the rules name no tie-breaker, and a hidden hand should not decide a race."""
    heights = state["heights"]
    ranking = []
    for player in sorted(state["players"], key=lambda p: -heights[p]):
        better = sum(1 for other in state["players"] if heights[other] > heights[player])
        ranking.append({"player": player, "score": heights[player], "rank": better + 1,
                        "details": {"height": heights[player], "to the summit": state["summit"] - heights[player]}})
    return ranking
