"""A mining turn: its steps (cage, load, store, fill an order, substitute) and their legal moves."""
from __future__ import annotations

from pbem.decisions import push

from .common import SURFACE, level_of, sort_cubes, tile_level


def cube_sources(state, pit):
    """Cube tokens a spot can be filled from: `colour` from the cage at the surface, `stored-colour` from storage;
    the cheapest colours first."""
    tokens = list(pit["cage"]["cubes"]) if pit["cage"]["level"] == SURFACE else []
    tokens += ["stored-" + c for c in pit["storage"]]
    return sorted(tokens, key=lambda token: (level_of(state, colour_of(token)), token.startswith("stored-")))


def colour_of(token):
    return token[len("stored-"):] if token.startswith("stored-") else token


def legal_mine(state, frame):
    """`end` first (what the referee plays for a resigned player), then the cage, loads, stores, and the fills:
    one entry per cube and one per spot colour, each naming the orders it may go on (an order is a one-word
    choice), so the list stays short however many orders are outstanding."""
    pit = state["pits"][frame["player"]]
    tokens = cube_sources(state, pit)
    moves = [{"action": "end"}] + cage_moves(state, pit) + load_moves(state, pit) + store_moves(state, pit)
    moves += fill_moves(state, pit, tokens)
    if frame["steps"] >= state["components"]["substitute_cubes"] \
            and len(tokens) >= state["components"]["substitute_cubes"]:
        moves += substitute_moves(state, pit)
    return moves


def cage_moves(state, pit):
    """One step moves the cage to any other level, however far (the Chinese rules)."""
    return [{"action": "cage", "level": lv} for lv in range(len(state["components"]["colours"]) + 1)
            if lv != pit["cage"]["level"]]


def load_moves(state, pit):
    cage = pit["cage"]
    if cage["level"] == SURFACE or len(cage["cubes"]) >= state["components"]["cage_capacity"]:
        return []
    loadable = {c for t in pit["tunnels"] if tile_level(state, t["tile"]) == cage["level"]
                for c in t["carts"] if c is not None}
    return [{"action": "load", "colour": c} for c in sort_cubes(state, loadable)]


def store_moves(state, pit):
    if pit["cage"]["level"] != SURFACE:
        return []
    return [{"action": "store", "colour": c} for c in sort_cubes(state, set(pit["cage"]["cubes"]))]


def orders_open_for(state, pit, colour):
    """The outstanding orders with an open spot of that colour, in the order they were taken."""
    return [o["id"] for o in pit["orders"]
            if any(c == colour and not spot
                   for c, spot in zip(state["components"]["orders"][o["id"]]["cubes"], o["spots"]))]


def fill_moves(state, pit, tokens):
    """A cube onto an open spot of its colour: one entry per cube (from the cage or storage), any one of the orders
    with such a spot."""
    moves = []
    for token in dict.fromkeys(tokens):
        orders = orders_open_for(state, pit, colour_of(token))
        if orders:
            moves.append({"action": "fill", "cube": token, "order": {"from": orders, "min": 1, "max": 1}})
    return moves


def substitute_moves(state, pit):
    """The French rules: two cubes of any colours fill one spot, for two steps; one entry per open spot colour, any
    one of the orders with such a spot. The cubes are chosen next (`choose_substitutes`)."""
    moves = []
    for colour in state["components"]["colours"]:
        orders = orders_open_for(state, pit, colour)
        if orders:
            moves.append({"action": "substitute", "spot": colour, "order": {"from": orders, "min": 1, "max": 1}})
    return moves


def legal_substitutes(state, frame):
    """Any two of the cubes at hand (each token at most twice in the list: only two are taken), cheapest first."""
    count = state["components"]["substitute_cubes"]
    tokens = cube_sources(state, state["pits"][frame["player"]])
    offered = [token for i, token in enumerate(tokens) if tokens[:i].count(token) < count]
    return [{"action": "cubes", "cubes": {"from": offered, "min": count, "max": count}}]


def spend_steps(state, frame, steps):
    """Unspent steps stay in the frame; at 0 the mining turn is over."""
    if frame["steps"] > steps:
        push(state, "mine", frame["player"], steps=frame["steps"] - steps)


def move_cage(state, frame, move):
    state["pits"][frame["player"]]["cage"]["level"] = move["level"]
    spend_steps(state, frame, 1)


def load_cube(state, frame, move):
    pit = state["pits"][frame["player"]]
    level = pit["cage"]["level"]
    for tunnel in pit["tunnels"]:
        if tile_level(state, tunnel["tile"]) == level and move["colour"] in tunnel["carts"]:
            tunnel["carts"][tunnel["carts"].index(move["colour"])] = None
            break
    pit["cage"]["cubes"] = sort_cubes(state, pit["cage"]["cubes"] + [move["colour"]])
    spend_steps(state, frame, 1)


def store_cube(state, frame, move):
    pit = state["pits"][frame["player"]]
    pit["cage"]["cubes"].remove(move["colour"])
    pit["storage"] = sort_cubes(state, pit["storage"] + [move["colour"]])
    spend_steps(state, frame, 1)


def take_cube(pit, token):
    colour = colour_of(token)
    if token.startswith("stored-"):
        pit["storage"].remove(colour)
    else:
        pit["cage"]["cubes"].remove(colour)
    return colour


def open_spot(state, pit, order_id, colour):
    order = next(o for o in pit["orders"] if o["id"] == order_id)
    card = state["components"]["orders"][order_id]
    i = next(i for i, (c, spot) in enumerate(zip(card["cubes"], order["spots"])) if c == colour and not spot)
    return order["spots"], i


def fill_order(state, frame, move):
    pit = state["pits"][frame["player"]]
    colour = take_cube(pit, move["cube"])
    spots, i = open_spot(state, pit, move["order"][0], colour)
    spots[i] = [colour]
    spend_steps(state, frame, 1)


def substitute_spot(state, frame, move):
    """The French rules: two cubes of any colour fill one spot, at the price of two steps; the steps are spent now
    and the cubes chosen next, so the mining turn goes on (if steps are left) once they are on the spot."""
    spend_steps(state, frame, state["components"]["substitute_cubes"])
    push(state, "choose_substitutes", frame["player"], order=move["order"][0], spot=move["spot"])


def substitute_cubes(state, frame, move, rng):
    pit = state["pits"][frame["player"]]
    cubes = [take_cube(pit, token) for token in move["cubes"]]
    spots, i = open_spot(state, pit, frame["order"], frame["spot"])
    spots[i] = cubes


STEPS = {"cage": move_cage, "load": load_cube, "store": store_cube, "fill": fill_order, "substitute": substitute_spot}


def mine(state, frame, move, rng):
    """One step of a mining turn (the move's action says which); `end` ends it: unspent steps are lost (the
    Chinese rules)."""
    if move["action"] != "end":
        STEPS[move["action"]](state, frame, move)
