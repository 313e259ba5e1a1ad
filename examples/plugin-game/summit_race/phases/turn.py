"""A climber's turn: climb with a card (then draw one) or draw a card, and discard down to the hand limit after
a draw. Each decision is a handler (pbem.decisions.Handler): its legal moves, and their effect."""
from __future__ import annotations

from pbem import decisions

from . import deck


def next_player(state: dict, player: str) -> str:
    """Play goes clockwise: the seat after `player`."""
    players = state["players"]
    return players[(players.index(player) + 1) % len(players)]


def begin_turn(state: dict, player: str) -> None:
    decisions.push(state, "turn", player)


def end_turn(state: dict, player: str) -> None:
    if not state["over"]:
        begin_turn(state, next_player(state, player))


def playable(state: dict, player: str) -> list[int]:
    """The cards of the hand that do not take the climber past the summit (each value once)."""
    room = state["summit"] - state["heights"][player]
    return sorted(card for card in set(state["hands"][player]) if card <= room)


# ------------------------------------------------------------------------------------------------ the turn

def legal_turn(state: dict, frame: dict) -> list[dict]:
    # `draw` first: the modest move the referee plays for a player who resigned (pbem/contract.py)
    return [{"action": "draw"}] + [{"action": "climb", "card": card} for card in playable(state, frame["player"])]


def apply_turn(state: dict, frame: dict, move: dict, rng) -> None:
    player = frame["player"]
    if move["action"] == "climb":
        climb(state, player, move["card"])
        if state["over"]:
            return
    deck.draw(state, player, rng)
    if not state["over"] and len(state["hands"][player]) > state["hand_limit"]:
        # the player has just seen the card drawn: the engine ends the submitted turn here (fresh_info)
        decisions.push(state, "discard", player, fresh_info=True)
        return
    end_turn(state, player)


def climb(state: dict, player: str, card: int) -> None:
    """The card is played face up; a climber landing on others' height sends them sliding down; the summit wins."""
    state["hands"][player].remove(card)
    state["discards"].append(card)
    height = state["heights"][player] + card
    state["heights"][player] = height
    if height == state["summit"]:
        state["winner"], state["over"] = player, True
        return
    for other in state["players"]:
        if other != player and state["heights"][other] == height:
            state["heights"][other] = max(0, height - state["slide"])


# --------------------------------------------------------------------------------------------- the discard

def legal_discard(state: dict, frame: dict) -> list[dict]:
    return [{"action": "discard", "card": card} for card in sorted(set(state["hands"][frame["player"]]))]


def apply_discard(state: dict, frame: dict, move: dict, rng) -> None:
    player = frame["player"]
    state["hands"][player].remove(move["card"])
    state["discards"].append(move["card"])
    end_turn(state, player)
