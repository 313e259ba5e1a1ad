"""The end: reaching the money goal ($30 / $40 / $50 with 4 / 3 / 2 players) during one's turn triggers it; every
other player then has one more turn. Crates left on a truck cost $1 (corn, soybeans) or $2 (cattle, pigs). Most
money wins; tie: fewest crates left; still tied: a shared victory."""
from __future__ import annotations

from .common import hauler, next_player, previous_player


def new_turn(player: str) -> dict:
    return {"player": player, "phase": "drive", "route": None, "towed": False, "revealed": False, "salvaged": False}


def check_money_goal(state: dict, player: str) -> None:
    end = state["end"]
    if end["triggered_by"] is None and hauler(state, player)["money"] >= state["components"]["money_goal"]:
        end["triggered_by"] = player
        end["last_player"] = previous_player(state, player)  # everyone else plays once more, ending with them


def end_turn(state: dict) -> None:
    player = state["turn"]["player"]
    if state["end"]["last_player"] == player:
        state["over"] = True
        state["turn"] = None
        return
    state["turn"] = new_turn(next_player(state, player))


def penalty(state: dict, player: str) -> int:
    goods = state["components"]["goods"]
    return sum(goods[good]["penalty"] * count for good, count in hauler(state, player)["cargo"].items())


def score_lines(state: dict, player: str) -> dict:
    """The final table's columns; the score is the money plus the (negative) penalty."""
    truck = hauler(state, player)
    return {"money": truck["money"], "crates left": sum(truck["cargo"].values()), "penalty": -penalty(state, player)}


def result(state: dict) -> list[dict]:
    rows = [{"player": p, "details": score_lines(state, p)} for p in state["players"]]
    for r in rows:
        r["score"] = r["details"]["money"] + r["details"]["penalty"]
    key = {r["player"]: (r["score"], -r["details"]["crates left"]) for r in rows}
    for r in rows:
        r["rank"] = 1 + sum(1 for other in rows if key[other["player"]] > key[r["player"]])
    rows.sort(key=lambda r: (r["rank"], state["players"].index(r["player"])))
    return [{"player": r["player"], "score": r["score"], "rank": r["rank"], "details": r["details"]} for r in rows]
