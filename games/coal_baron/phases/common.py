"""What the phases of Coal Baron share: colours and levels, the turn order, the phase cards' bonuses, tile
prices, orders, and the display refilled from the decks.
"""
from __future__ import annotations




SURFACE = 0


def level_of(state, colour):
    return state["components"]["colours"][colour]


def colour_at(state, level):
    return next(c for c, lv in state["components"]["colours"].items() if lv == level)


def tile_level(state, tile_id):
    return level_of(state, state["components"]["tiles"][tile_id]["colour"])


def sort_cubes(state, cubes):
    return sorted(cubes, key=lambda c: level_of(state, c))


def next_clockwise(state, player, skip_without_workers=True):
    """The next player clockwise after `player` (possibly `player` itself last) who still has workers, else None."""
    players = state["players"]
    i = players.index(player)
    for k in range(1, len(players) + 1):
        p = players[(i + k) % len(players)]
        if not skip_without_workers or state["pits"][p]["workers"] > 0:
            return p
    return None


def phase_bonus(state, player, domain):
    """Phase-card variant: the holder of the card of the round's domain gets its bonus there (0 otherwise)."""
    phase = state["phase"]
    if phase is None:
        return 0
    card = phase["cards"].get(player)
    if card is None:
        return 0
    spec = state["components"]["phase_cards"][card]
    return spec["amount"] if spec["domain"] == domain else 0


def tile_cost(state, player, tile_id):
    discount = phase_bonus(state, player, "factory")
    return max(0, state["components"]["tiles"][tile_id]["cost"] - discount)


def order_complete(state, order):
    """Every spot filled: by a cube of its colour, or by the substitute cubes (any colours)."""
    card = state["components"]["orders"][order["id"]]
    substitute = state["components"]["substitute_cubes"]
    return all(spot == [colour] or len(spot) == substitute for colour, spot in zip(card["cubes"], order["spots"]))


def is_phase_game(state):
    return state["options"].get("phase-cards") == "on"


def new_order(state, order_id):
    return {"id": order_id, "spots": [[] for _ in state["components"]["orders"][order_id]["cubes"]]}


def refill_display(state, kinds=("factory", "order")):
    for space, card in state["display"].items():
        kind = state["components"]["spaces"][space]["kind"]
        if card is None and kind in kinds:
            deck = "tile_deck" if kind == "factory" else "order_deck"
            if state[deck]:  # an empty deck leaves the space empty (the Chinese rules)
                state["display"][space] = state[deck].pop(0)
