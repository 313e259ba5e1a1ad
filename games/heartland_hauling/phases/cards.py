"""Phase 3, the refill: back to 5 cards one at a time, each from the top of the deck or one of the three
face-up cards (replaced from the deck at once). Every card drawn shows something new, so each further draw is a
decision marked fresh_info: the engine ends a submitted turn there and the player sees the card first."""
from __future__ import annotations

from pbem.messages import NP_

from .common import effect_amount, hauler, push, sort_cards, upgrade_effect


def hand_limit(state: dict, player: str) -> int:
    return state["components"]["hand_size"] + effect_amount(state, player, "hand-size")


def deck_can_give(state: dict) -> bool:
    return bool(state["deck"]) or any(state["discard"].values())


def draw_card(state: dict, rng) -> str | None:
    """The top card of the deck; an empty deck is first made again from the shuffled discard pile (as the fan
    implementation by owners of the game does; the rules do not say). None when there is no card left at all."""
    if not state["deck"]:
        pile = [card for card in sorted(state["discard"]) for _ in range(state["discard"][card])]
        if not pile:
            return None
        state["deck"] = rng.shuffle(pile, what=NP_("chance", "discard pile shuffled into a new deck"),
                                    public=False)
        state["discard"] = {}
    return state["deck"].pop(0)


def begin_refill(state: dict, player: str) -> bool:
    """Push the next refill decision if the hand is short and a card can still be had."""
    if len(hauler(state, player)["hand"]) >= hand_limit(state, player):
        return False
    if not deck_can_give(state) and not state["face_up"]:
        return False  # every card is in a hand
    push(state, "refill", player, fresh_info=state["turn"]["revealed"])
    return True


def may_salvage(state: dict, player: str) -> bool:
    """A Load Board: once a turn, one card of the player's choice from the discard pile (which is public)."""
    return upgrade_effect(state, player, "discard-pick") is not None and not state["turn"]["salvaged"]


def legal_refill(state: dict, frame: dict) -> list[dict]:
    player = frame["player"]
    moves = [{"action": "draw"}] if deck_can_give(state) else []
    moves += [{"action": "take", "card": card} for card in sort_cards(state, list(set(state["face_up"])))]
    if may_salvage(state, player):
        moves += [{"action": "salvage", "card": card} for card in sort_cards(state, list(state["discard"]))]
    return moves


def add_to_hand(state: dict, player: str, card: str) -> None:
    hand = hauler(state, player)["hand"]
    hand.append(card)
    hand[:] = sort_cards(state, hand)


def draw_from_deck(state: dict, frame: dict, move: dict, rng) -> None:
    add_to_hand(state, frame["player"], draw_card(state, rng))
    state["turn"]["revealed"] = True


def take_face_up(state: dict, frame: dict, move: dict, rng) -> None:
    """The face-up card is replaced at once from the deck; a slot stays empty only when no card is left."""
    slot = state["face_up"].index(move["card"])
    add_to_hand(state, frame["player"], move["card"])
    replacement = draw_card(state, rng)
    if replacement is None:
        del state["face_up"][slot]
    else:
        state["face_up"][slot] = replacement
    state["turn"]["revealed"] = replacement is not None


def salvage_card(state: dict, frame: dict, move: dict, rng) -> None:
    """Nothing hidden is shown (the discard pile is public): the next draw is not fresh information."""
    pile = state["discard"]
    pile[move["card"]] -= 1
    if not pile[move["card"]]:
        del pile[move["card"]]
    add_to_hand(state, frame["player"], move["card"])
    state["turn"]["salvaged"] = True
    state["turn"]["revealed"] = False


REFILLS = {"draw": draw_from_deck, "take": take_face_up, "salvage": salvage_card}


def refill(state: dict, frame: dict, move: dict, rng) -> None:
    """The `refill` decision: a card from the deck, a face-up one, or one salvaged."""
    REFILLS[move["action"]](state, frame, move, rng)
