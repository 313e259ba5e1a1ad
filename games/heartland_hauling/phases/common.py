"""Small helpers every phase module uses: the decision stack, players in turn order, cards, upgrades.

The state is plain data (see the state schema); nothing here decides legality or moves the game on.
"""
from __future__ import annotations

from pbem.decisions import push  # noqa: F401  (the phase modules push their decisions through here)

CENTRE = "centre"


def turn_order(state: dict) -> list[str]:
    """Seating order starting with the start player: turn_order(state)[k - 1] is "player k" of the rules."""
    players = state["players"]
    s = players.index(state["start_player"])
    return players[s:] + players[:s]


def next_player(state: dict, player: str) -> str:
    players = state["players"]
    return players[(players.index(player) + 1) % len(players)]


def previous_player(state: dict, player: str) -> str:
    players = state["players"]
    return players[(players.index(player) - 1) % len(players)]


def hauler(state: dict, player: str) -> dict:
    return state["haulers"][player]


# ---------------------------------------------------------------- cards


def card_order(state: dict) -> list[str]:
    """Fuel cards by value, then freight bills in the components' order of goods: a hand is kept sorted so."""
    comp = state["components"]
    return [f["id"] for f in comp["fuel"]] + list(comp["goods"])


def sort_cards(state: dict, cards: list[str]) -> list[str]:
    order = card_order(state)
    return sorted(cards, key=order.index)


def fuel_value(state: dict, card: str) -> int:
    """Spaces a fuel card pays for; 0 for a freight bill."""
    return state["components"]["fuel_values"].get(card, 0)


def remove_cards(hand: list[str], cards: list[str]) -> None:
    for card in cards:
        hand.remove(card)


def discard_cards(state: dict, player: str, cards: list[str]) -> None:
    """Cards leave the hand face up onto the discard pile (public: every spent card is named in the log)."""
    remove_cards(hauler(state, player)["hand"], cards)
    pile = state["discard"]
    for card in cards:
        pile[card] = pile.get(card, 0) + 1


# ---------------------------------------------------------------- upgrades


def upgrade_effect(state: dict, player: str, effect: str) -> dict | None:
    """The player's upgrade if it has this effect (an upgrade's ability, usable once a turn), else None."""
    owned = hauler(state, player)["upgrade"]
    if owned is None:
        return None
    spec = state["components"]["truck_stops"][owned]
    return spec if spec["effect"] == effect else None


def effect_amount(state: dict, player: str, effect: str) -> int:
    spec = upgrade_effect(state, player, effect)
    return spec.get("amount", 0) if spec else 0


# ---------------------------------------------------------------- crates


def cargo_total(state: dict, player: str) -> int:
    return sum(hauler(state, player)["cargo"].values())


def add_crates(place: dict, good: str, count: int) -> None:
    place[good] = place.get(good, 0) + count
    if place[good] == 0:
        del place[good]


def leave_cell(state: dict, player: str) -> None:
    """A truck leaving a truck stop whose upgrade its driver bought takes the card along (the expansion: "when
    you leave it on your next turn, take the card"), so that stop is no longer a space of the map."""
    cell = hauler(state, player)["cell"]
    state["truck_stops"] = [s for s in state["truck_stops"] if not (s["cell"] == cell and s["bought_by"] == player)]
