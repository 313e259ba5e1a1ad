"""Placing workers on a space, and what each kind of space does."""
from __future__ import annotations

from pbem.decisions import push

from .common import new_order, order_complete, phase_bonus, tile_cost
from .tiles import buy_tile


def place(state, frame, move, rng):
    """`place_workers` and `place_or_pass`: workers on a space, or (in a phase round) a pass."""
    if move["action"] == "pass":
        state["phase"]["passed"].append(frame["player"])
    else:
        place_workers(state, frame, move)


def workers_needed(state, space):
    """The Chinese rules: 1 worker on an empty space, workers there + 1 on an occupied one; bank 1 always exactly 1."""
    spec = state["components"]["spaces"][space]
    if "fixed_workers" in spec:
        return spec["fixed_workers"]
    return len(state["board"][space]) + 1


def can_carry_out(state, player, space):
    """A space may be chosen only if its action can be carried out fully (the Chinese rules)."""
    spec = state["components"]["spaces"][space]
    kind = spec["kind"]
    pit = state["pits"][player]
    if kind == "factory":
        tile = state["display"][space]
        return tile is not None and tile_cost(state, player, tile) <= pit["money"]
    if kind == "order":
        return state["display"][space] is not None
    if kind == "factory-draw":
        return bool(state["tile_deck"])
    if kind == "order-draw":
        return bool(state["order_deck"])
    if kind == "delivery":
        return any(state["components"]["orders"][o["id"]]["transport"] == spec["transport"] and order_complete(state, o)
                   for o in pit["orders"])
    return True  # bank and mining


def legal_place(state, frame):
    """One entry per space that can take the player's workers (a pass first, in a phase round after its leader's
    placement: `place_or_pass`); with the overplace
    option one more entry: any number of workers from 2 on any free space that can take them (the French rules'
    reading: several workers only on a free space; an occupied one takes exactly its workers + 1)."""
    player = frame["player"]
    workers = state["pits"][player]["workers"]
    domain = state["phase"]["domain"] if state["phase"] else None
    open_spaces = [space for space, spec in state["components"]["spaces"].items()
                   if (domain is None or spec["domain"] == domain)  # phase-card variant: the round's domain only
                   and workers_needed(state, space) <= workers and can_carry_out(state, player, space)]
    moves = [{"action": "pass"}] if frame["decision"] == "place_or_pass" else []
    moves += [{"action": "place", "space": space} for space in open_spaces]
    crowdable = [space for space in open_spaces if not state["board"][space]
                 and "fixed_workers" not in state["components"]["spaces"][space]]
    if state["options"].get("overplace") == "on" and crowdable and workers >= 2:
        moves.append({"action": "overplace", "workers": {"min": 2, "max": workers},
                      "space": {"from": crowdable, "min": 1, "max": 1}})
    return moves


def place_workers(state, frame, move):
    player = frame["player"]
    space = move["space"][0] if move["action"] == "overplace" else move["space"]
    count = move.get("workers", workers_needed(state, space))
    spec = state["components"]["spaces"][space]
    board = state["board"]
    if "fixed_workers" in spec:
        board[space].extend([player] * count)  # bank 1 stacks and never displaces anyone
    else:
        for p in board[space]:  # the workers already there go to the canteen
            state["canteen"][p] += 1
        board[space] = [player] * count
    state["pits"][player]["workers"] -= count
    state["turn"] = player
    if state["phase"] is not None and state["phase"]["domain"] is None:
        state["phase"]["domain"] = spec["domain"]  # the leader's action sets the round's domain
    ACTIONS[spec["kind"]](state, player, space, spec)


def take_money(state, player, space, spec):
    state["pits"][player]["money"] += spec["amount"] + phase_bonus(state, player, "money")


def start_mining(state, player, space, spec):
    push(state, "mine", player, steps=spec["steps"] + phase_bonus(state, player, "mining"))


def deliver_orders(state, player, space, spec):
    """The French rules: all complete orders of that transport at once; VP at once, cubes back to the supply, cards kept
    face down for the shift scoring."""
    pit = state["pits"][player]
    gained = phase_bonus(state, player, "delivery")  # phase card: +1 VP for the delivery action
    still = []
    for order in pit["orders"]:
        card = state["components"]["orders"][order["id"]]
        if card["transport"] == spec["transport"] and order_complete(state, order):
            for spot in order["spots"]:
                for cube in spot:
                    state["supply"][cube] += 1
            pit["delivered"].append(order["id"])
            gained += card["vp"]
        else:
            still.append(order)
    pit["orders"] = still
    pit["vp"] += gained
    pit["delivery_vp"] += gained


def take_order(state, player, space, spec):
    order = state["display"][space]
    state["display"][space] = None  # refilled at the end of the turn
    state["pits"][player]["orders"].append(new_order(state, order))


def buy_face_up_tile(state, player, space, spec):
    tile = state["display"][space]
    state["display"][space] = None  # refilled at the end of the turn
    buy_tile(state, player, tile)


def draw_five(state, player, space, spec):
    """Draw-5 (the French and the Chinese rules): the top 5 (or what is left), shown to the mover alone."""
    deck = "tile_deck" if spec["kind"] == "factory-draw" else "order_deck"
    count = state["components"]["draw_count"]
    drawn, state[deck] = state[deck][:count], state[deck][count:]
    push(state, "keep_tile" if deck == "tile_deck" else "keep_order", player, drawn=drawn, fresh_info=True)


ACTIONS = {"bank": take_money, "mining": start_mining, "delivery": deliver_orders, "order": take_order,
           "factory": buy_face_up_tile, "factory-draw": draw_five, "order-draw": draw_five}
