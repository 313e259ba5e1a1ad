"""The card choice, from the winner leftwards (the Mustang lets its holder choose next)."""
from __future__ import annotations

from .common import chronicle, kept_card, push, town_of, use_kept
from .events import play_event
from .mayors import appoint_mayor, pay_mayor_fee
from .production import roll_for_production


def call_next_chooser(state: dict, rng) -> None:
    """Push the next card choice; when everyone has a card (or the offer is empty) the winner rolls."""
    turn = state["turn"]
    cards_left = any(card is not None for card in turn["offer"])
    if cards_left and len(turn["taken"]) == 1 and not turn["mustang_offered"]:
        turn["mustang_offered"] = True
        rider = mustang_rider(state)
        if rider is not None:
            push(state, "ride_mustang", rider)
            return
    if cards_left and turn["choosers"]:
        push(state, "choose_card", turn["choosers"].pop(0))
        return
    roll_for_production(state, rng)


def mustang_rider(state: dict) -> str | None:
    """The English rules' Mustang: choose right after the high bidder instead of in your normal turn. Offered once a
    turn, after the winner's choice, to a holder who has not chosen yet and would not be next anyway."""
    choosers = state["turn"]["choosers"]
    for player in choosers[1:]:
        if kept_card(state, player, "mustang"):
            return player
    return None


def ride_mustang(state: dict, frame: dict, move: dict, rng) -> None:
    player = frame["player"]
    if move["action"] == "pass":
        return
    card = use_kept(state, player, "mustang")
    choosers = state["turn"]["choosers"]
    choosers.remove(player)
    choosers.insert(0, player)
    chronicle(state, player, card, "rides the Mustang: chooses next")


def choose_card(state: dict, frame: dict, move: dict, rng) -> None:
    player = frame["player"]
    turn = state["turn"]
    card = turn["offer"][move["slot"] - 1]
    turn["offer"][move["slot"] - 1] = None
    turn["taken"].append({"player": player, "card": card})
    if state["cards"][card]["type"] == "concession":
        place_concession(state, player, card)
    else:
        play_event(state, player, card)


def place_concession(state: dict, player: str, card: str) -> None:
    town = town_of(state, card)
    pay_mayor_fee(state, player, town)  # the French rules: the mayor changes after the payment
    state["owners"][card] = player
    appoint_mayor(state, town)


def legal_choose_card(state: dict, frame: dict) -> list[dict]:
    return [{"action": "take", "slot": slot}
            for slot, card in enumerate(state["turn"]["offer"], start=1) if card is not None]


# `pass` first where it declines: the referee plays the first legal move for a resigned player
def legal_ride_mustang(state: dict, frame: dict) -> list[dict]:
    return [{"action": "pass"}, {"action": "mustang"}]
