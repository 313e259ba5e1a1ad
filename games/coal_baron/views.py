"""What each player may see: the public view, and a player's own money, delivered orders and drawn cards."""
from __future__ import annotations

from pbem.memo import Bounded
from pbem.viewfields import for_bot, once, whole

from .phases.common import level_of, order_complete, phase_bonus, tile_cost
from .phases.placement import workers_needed
from .scoring import tile_balance


def tile_view(state, tile_id):
    t = state["components"]["tiles"][tile_id]
    return {"id": tile_id, "colour": t["colour"], "level": level_of(state, t["colour"]), "side": t["side"],
            "carts": t["carts"], "cost": t["cost"]}


def order_view(state, order_id):
    o = state["components"]["orders"][order_id]
    return {"id": order_id, "transport": o["transport"], "vp": o["vp"], "cubes": list(o["cubes"])}


def pit_view(state, player, make):
    """A player's pit, made by `make` (pbem.viewfields: a seat's bot reads its own pit of all the pits, found by its
    player, made at once; the other fields, PIT, when first read)."""
    return make(PIT, {"player": player}, (state, state["pits"][player]))


PIT = {  # a pit's fields after its player, each of (the state, the pit)
    "tunnels": lambda state, pit: [tunnel_view(state, t, state["components"]["tiles"]) for t in pit["tunnels"]],
    "cage": lambda state, pit: {"level": pit["cage"]["level"], "cubes": list(pit["cage"]["cubes"])},
    "storage": lambda state, pit: list(pit["storage"]),
    "orders": lambda state, pit: [outstanding_view(state, o) for o in pit["orders"]],
    "delivered": lambda state, pit: len(pit["delivered"]),
    "shown": lambda state, pit: shown_orders(state, pit),
    "lit": lambda state, pit: tile_balance(state, pit)[0],
    "dark": lambda state, pit: tile_balance(state, pit)[1],
}


def tunnel_view(state, tunnel, tiles):
    """A tile in a pit: the tile's view, whether it was printed on the pit board, and its carts' cubes."""
    view = tile_view(state, tunnel["tile"])
    view["printed"] = bool(tiles[tunnel["tile"]].get("printed"))
    view["loads"] = list(tunnel["carts"])
    return view


def outstanding_view(state, order):
    """An order taken and not delivered yet: the order's view, the cubes on its spots and whether it is complete."""
    view = order_view(state, order["id"])
    view["spots"] = [list(s) for s in order["spots"]]
    view["complete"] = order_complete(state, order)
    return view


def shown_orders(state, pit):
    """Delivered orders lie face down; each shift scoring turns them all up, then down again. The public sees those
    the scorings showed, each with the shift whose scoring first showed it."""
    shown, start = [], 0
    for shift, count in enumerate(pit["shown_at_scorings"], start=1):
        shown += [dict(order_view(state, o), shift=shift) for o in pit["delivered"][start:count]]
        start = count
    return shown


def view(state, player):
    return whole(FIELDS, state, player)


def private_view(state, player, make):
    """A player's private part, made by `make`: a bot reads its name and money at every decision (made at once),
    its delivered orders and the tile prices seldom."""
    pit = state["pits"][player]
    drawn = once(lambda: drawn_view(state, player))  # shared by `drawn` and `tile_prices`
    return make({
        "delivered": lambda: [order_view(state, o) for o in pit["delivered"]],
        "drawn": drawn,
        "tile_prices": lambda: tile_prices(state, player, drawn()),
    }, {"player": player, "money": pit["money"]})


def tile_prices(state, player, drawn):
    """The price `player` pays for each tile on offer to them (face up, or drawn for them), where it is not the
    printed cost (the factory phase card, in a round whose domain is the factory or not chosen yet)."""
    if state["phase"] and state["phase"]["domain"] not in (None, "factory"):
        return []  # no tile can be bought in this round
    if not phase_bonus(state, player, "factory"):
        return []  # no discount: every tile at its printed cost
    offered = [card for space, card in state["display"].items()
               if card and state["components"]["spaces"][space]["kind"] == "factory"]
    if drawn and drawn["kind"] == "tiles":
        offered += [tile["id"] for tile in drawn["cards"]]
    return [{"tile": t, "pays": tile_cost(state, player, t)} for t in offered
            if tile_cost(state, player, t) != state["components"]["tiles"][t]["cost"]]


FIELDS = {  # the view field by field (pbem.viewfields), each of (the state, the player, `make`: it makes a pit and
    # the private part), declared once; after the game's id, its rules version and the options (pbem writes them)
    "shift": lambda state, player, make: state["shift"],
    "shifts": lambda state, player, make: state["components"]["shifts"],
    "start_player": lambda state, player, make: state["start_player"],
    "over": lambda state, player, make: state["over"],
    "to_act": lambda state, player, make: to_act_view(state),
    "players": lambda state, player, make: [
        {"name": p, "vp": state["pits"][p]["vp"], "workers": state["pits"][p]["workers"],
         "canteen": state["canteen"][p], "orders": len(state["pits"][p]["orders"]),
         "delivered": len(state["pits"][p]["delivered"])} for p in state["players"]],
    "board": lambda state, player, make: board_view(state, for_bot(make)),
    "decks": lambda state, player, make: {"tiles": len(state["tile_deck"]),  # sizes only
                                          "orders": len(state["order_deck"])},
    "supply": lambda state, player, make: dict(state["supply"]),
    "draft": lambda state, player, make: None if state["draft"] is None else {
        "revealed": [order_view(state, o) for o in state["draft"]["revealed"]]},
    "phase": lambda state, player, make: phase_view(state),
    "pits": lambda state, player, make: [pit_view(state, p, make) for p in state["players"]],
    "awards": lambda state, player, make: [dict(a) for a in state["awards"]],
    # for a player: their money, their delivered orders, the cards they drew, and what they would pay for each tile
    # on offer when a phase card makes it cheaper for them
    "private": lambda state, player, make: private_view(state, player, make),
}


def to_act_view(state):
    top = state["stack"][-1] if state["stack"] else None
    return None if top is None or state["over"] else {
        "player": top["player"], "decision": top["decision"], "steps_left": top.get("steps"),
        "drawn": len(top["drawn"]) if "drawn" in top else None}


def board_view(state, bot=False):
    """Every space, in the order of the components. A rollout builds the board at every placement and changes a
    space or two between one and the next: a bot's board (pbem.viewfields.for_bot: a bot only reads it) shares a
    space's view with the game's earlier boards that had the same workers and card on that space (all a space's
    view depends on but the components); a player's board is made afresh."""
    spaces, printed = state["components"]["spaces"], printed_spaces(state)
    if not bot:
        return [space_view(state, space, printed[space]) for space in spaces]
    known, workers, display = BOT_SPACES.of(spaces, lambda: Bounded(MOST_SPACES)), state["board"], state["display"]
    return [known.get((space, tuple(workers[space]), display.get(space)),
                      lambda: space_view(state, space, printed[space])) for space in spaces]


BOT_SPACES = Bounded(64)  # a game's spaces -> Bounded {(space, its workers, its card): the space's view for a bot}
MOST_SPACES = 4096        # a rollout's boards have a few hundred distinct spaces


def space_view(state, space, printed):
    card = state["display"].get(space)
    return {**printed, "workers": list(state["board"][space]), "needs": workers_needed(state, space),
            "tile": tile_view(state, card) if card and printed["kind"] == "factory" else None,
            "order": order_view(state, card) if card and printed["kind"] == "order" else None}


PRINTED = Bounded(64)  # a game's spaces -> {space: what is printed on it} (a search's rollouts copy the components)


def printed_spaces(state):
    """Each board space's printed part of its view (its name, domain, kind and what it gives), made once for a
    game's spaces: the search's rollouts build the board at every placement. The spaces never change in a game;
    a view copies the part it is given."""
    spaces = state["components"]["spaces"]
    return PRINTED.of(spaces, lambda: {space: printed_space(space, spec) for space, spec in spaces.items()})


def printed_space(space, spec):
    gives = {key: spec[key] for key in ("amount", "steps", "transport") if key in spec}  # what the space gives
    return {"space": space, "domain": spec["domain"], "kind": spec["kind"], **gives}


def phase_view(state):
    phase = state["phase"]
    if phase is None:
        return None
    return {"leader": phase["leader"], "domain": phase["domain"], "passed": list(phase["passed"]),
            "cards": [{"player": p, "card": phase["cards"][p]} for p in state["players"] if p in phase["cards"]],
            "bonuses": [{"card": c, "domain": spec["domain"], "amount": spec["amount"]}
                        for c, spec in state["components"]["phase_cards"].items()]}


def drawn_view(state, player):
    """Draw-5 cards, for the mover alone, from the draw until the rest are back in the deck."""
    top = state["stack"][-1] if state["stack"] else None
    if top is None or top["player"] != player or top["decision"] not in DRAW_DECISIONS:
        return None
    cards = top.get("drawn", top.get("cards"))
    if top["decision"] in ("keep_tile", "return_tiles"):
        return {"kind": "tiles", "cards": [tile_view(state, c) for c in cards]}
    return {"kind": "orders", "cards": [order_view(state, c) for c in cards]}


DRAW_DECISIONS = ("keep_tile", "return_tiles", "keep_order", "return_orders")
