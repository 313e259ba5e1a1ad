"""The score: crates left on a truck cost $1 (corn, soybeans) or $2 (cattle, pigs). Most money wins; tie: fewest
crates left; still tied: a shared victory. The game is over once the last player of the final round has played."""
from __future__ import annotations

from pbem.messages import NP_

from .phases.common import hauler

# The lines of a final score (the ranking's columns, in English in the stored results; translated where shown)
MONEY, CRATES_LEFT, PENALTY = NP_("score", "money"), NP_("score", "crates left"), NP_("score", "penalty")
# the share of its best price a crate on a truck is counted at, for the search's estimate: it is not sold yet
SOLD = 0.6


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


def estimate(state: dict) -> dict[str, float]:
    """Each player's worth for a search that stops before the end (pbem.search): the final score as if the game
    ended now, but the crates on a truck counted as part of what they would sell for where they pay best (a truck
    loads to sell: the penalty is for crates still on it at the end)."""
    prices = {}
    for location in state["crates"]:
        for good, price in state["components"]["locations"][location]["demands"].items():
            prices[good] = max(prices.get(good, 0), price)
    return {player: hauler(state, player)["money"] + sum(SOLD * prices.get(good, 0) * count
                                                         for good, count in hauler(state, player)["cargo"].items())
            for player in state["players"]}
