"""What a player (or the public) may see: everything but the hands (each climber sees their own, the others only
how many cards it holds) and the deck (its size, never its order). The discards lie face up."""
from __future__ import annotations

from pbem import decisions

from .scoring import is_over


def to_act_view(state: dict) -> dict | None:
    pending = decisions.pending(state["stack"], is_over(state))
    return None if pending is None else {"player": pending["player"], "decision": pending["decision"]}


def view(state: dict, player: str | None) -> dict:
    public = {  # after the game's id, its rules version and the options (pbem writes them)
        "summit": state["summit"],
        "hand_limit": state["hand_limit"],
        "slide": state["slide"],
        "storms": state["storms"],
        "empty_decks": state["empty_decks"],
        "deck_count": len(state["deck"]),
        "discards": list(state["discards"]),
        "players": [{"name": p, "height": state["heights"][p], "cards": len(state["hands"][p])}
                     for p in state["players"]],
        "to_act": to_act_view(state),
        "winner": state["winner"],
        "over": state["over"],
    }
    if player is not None:
        public["private"] = {"player": player, "hand": list(state["hands"][player])}
    return public
