"""A turn's end and the game's: reaching the money goal ($30 / $40 / $50 with 4 / 3 / 2 players) during one's turn
triggers the end; every other player then has one more turn (the score: scoring.py)."""
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
