"""The score: crates left on a truck cost $1 (corn, soybeans) or $2 (cattle, pigs). Most money wins; tie: fewest
crates left; still tied: a shared victory. The game is over once the last player of the final round has played."""
from __future__ import annotations

from pbem.messages import NP_

from .phases.common import hauler

# The lines of a final score (the ranking's columns, in English in the stored results; translated where shown)
MONEY, CRATES_LEFT, PENALTY = NP_("score", "money"), NP_("score", "crates left"), NP_("score", "penalty")


def is_over(state: dict) -> bool:
    return state["over"]


def penalty(state: dict, player: str) -> int:
    goods = state["components"]["goods"]
    return sum(goods[good]["penalty"] * count for good, count in hauler(state, player)["cargo"].items())


def score_lines(state: dict, player: str) -> dict:
    """The final table's columns; the score is the money plus the (negative) penalty."""
    truck = hauler(state, player)
    return {MONEY: truck["money"], CRATES_LEFT: sum(truck["cargo"].values()), PENALTY: -penalty(state, player)}


def result(state: dict) -> list[dict]:
    rows = [{"player": p, "details": score_lines(state, p)} for p in state["players"]]
    for r in rows:
        r["score"] = r["details"][MONEY] + r["details"][PENALTY]
    key = {r["player"]: (r["score"], -r["details"][CRATES_LEFT]) for r in rows}
    for r in rows:
        r["rank"] = 1 + sum(1 for other in rows if key[other["player"]] > key[r["player"]])
    rows.sort(key=lambda r: (r["rank"], state["players"].index(r["player"])))
    return [{"player": r["player"], "score": r["score"], "rank": r["rank"], "details": r["details"]} for r in rows]
