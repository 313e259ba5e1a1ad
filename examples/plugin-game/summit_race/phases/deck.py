"""The deck: a climber draws from it; when a draw finds it empty, the discards are shuffled into a new one, until
the storm (the `storms`-th empty deck) ends the game."""
from __future__ import annotations

from pbem.messages import NP_


def draw(state: dict, player: str, rng) -> None:
    """The deck's top card into the player's hand (kept sorted, so its order tells nothing); or the storm. The card
    is known from the shuffle the log recorded (privately): a draw itself asks the rng nothing."""
    if not state["deck"]:
        state["empty_decks"] += 1
        if state["empty_decks"] >= state["storms"]:
            state["over"] = True
            return
        state["deck"] = rng.shuffle(state["discards"], what=NP_("chance", "discards shuffled into a new deck"))
        state["discards"] = []
    card = state["deck"].pop(0)
    state["hands"][player] = sorted([*state["hands"][player], card])
