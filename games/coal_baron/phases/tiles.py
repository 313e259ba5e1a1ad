"""Minecart tiles bought, cubes on their carts, and the draw-5 choices (keep one, return the rest)."""
from __future__ import annotations

from pbem.decisions import push

from .common import new_order, tile_cost


def buy_tile(state, player, tile):
    """Pay, lay the tile in the pit, one cube of its colour onto each cart; a short supply lets the buyer choose any
    colour for the carts it cannot fill (the Chinese rules' last note)."""
    pit = state["pits"][player]
    pit["money"] -= tile_cost(state, player, tile)
    spec = state["components"]["tiles"][tile]
    colour = spec["colour"]
    carts = []
    for _ in range(spec["carts"]):
        if state["supply"][colour] > 0:
            state["supply"][colour] -= 1
            carts.append(colour)
        else:
            carts.append(None)
    pit["tunnels"].append({"tile": tile, "carts": carts})
    ask_for_substitute_cube(state, player, len(pit["tunnels"]) - 1)


def ask_for_substitute_cube(state, player, tunnel):
    carts = state["pits"][player]["tunnels"][tunnel]["carts"]
    if None in carts and any(state["supply"].values()):
        push(state, "choose_cube", player, tunnel=tunnel)


def legal_cube(state, frame):
    return [{"action": "cube", "colour": c} for c in state["components"]["colours"] if state["supply"][c] > 0]


def choose_cube(state, frame, move, rng):
    player = frame["player"]
    carts = state["pits"][player]["tunnels"][frame["tunnel"]]["carts"]
    carts[carts.index(None)] = move["colour"]
    state["supply"][move["colour"]] -= 1
    ask_for_substitute_cube(state, player, frame["tunnel"])


def legal_keep(state, frame):
    player = frame["player"]
    moves = [{"action": "keep", "card": "none"}]  # the Chinese rules: all five may go back
    for card in frame["drawn"]:
        if frame["decision"] == "keep_order" or tile_cost(state, player, card) <= state["pits"][player]["money"]:
            moves.append({"action": "keep", "card": card})
    return moves


def keep_card(state, frame, move, rng):
    player = frame["player"]
    rest = [c for c in frame["drawn"] if c != move["card"]]
    returning = "return_tiles" if frame["decision"] == "keep_tile" else "return_orders"
    if rest:
        push(state, returning, player, cards=rest)
    if move["card"] != "none":
        if frame["decision"] == "keep_tile":
            buy_tile(state, player, move["card"])  # may ask for substitute cubes before the rest goes back
        else:
            state["pits"][player]["orders"].append(new_order(state, move["card"]))


def legal_return(state, frame):
    """The rest go back on top or at the bottom, in the mover's chosen order (the list is the order they will be
    drawn in): one entry each, an ordering of the cards. Top and bottom are two actions: everyone at the table sees
    which, only the order is secret."""
    cards = list(frame["cards"])
    return [{"action": action, "cards": {"from": cards, "min": len(cards), "max": len(cards)}}
            for action in ("return_top", "return_bottom")]


def return_cards(state, frame, move, rng):
    deck = "tile_deck" if frame["decision"] == "return_tiles" else "order_deck"
    if move["action"] == "return_top":
        state[deck] = move["cards"] + state[deck]
    else:
        state[deck] = state[deck] + move["cards"]
