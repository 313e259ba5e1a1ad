"""What a seat cannot see, imagined for the search bot (pbem.search): the other barons' money and the orders they
delivered face down, and the order of both decks.

`sample_state(view, components, rnd)` rebuilds a whole position from a player's view: everything the view shows
is copied; the decks are the tiles and orders seen nowhere, shuffled; each other baron's unseen deliveries are
drawn from the orders seen nowhere; and each other baron's money is guessed: what they started with, plus as much
as the seat itself took from banks, less the tiles they bought (the view shows their tiles, not what they paid).
A decision whose frames the view does not show (a substitution's spot, a cube for an empty cart, under which the
rest of a draw waits) cannot be rebuilt: None, and the search plays the greedy bot's move there.
"""
from __future__ import annotations

import random

from .setup import copy_components

NOT_REBUILT = ("choose_cube", "choose_substitutes")


def sample_state(view: dict, components: dict, rnd: random.Random) -> dict | None:
    """A whole position consistent with `view` (a player's view, of a decision not over) and the components."""
    if "private" not in view or view["to_act"] is None or view["to_act"]["decision"] in NOT_REBUILT:
        return None
    players = [p["name"] for p in view["players"]]
    numbers = next(row for row in components["setup"] if row["players"] == len(players))
    comp = copy_components(components, len(players), numbers)
    state = shown_table(view, players, comp)
    state["pits"] = {p: pit_record(view, p, numbers["money"], comp) for p in players}
    deal_decks(state, view, rnd)
    guess_money(state, view, numbers["money"], rnd)
    state["stack"] = [pending_frame(view)]
    return state


def shown_table(view: dict, players: list[str], comp: dict) -> dict:
    """Everything but the pits and the decks, as the view shows it."""
    to_act = view["to_act"]
    spaces = {space["space"]: space for space in view["board"]}
    display = {space: (spaces[space]["tile"] or spaces[space]["order"] or {}).get("id")
               for space, spec in comp["spaces"].items() if spec["kind"] in ("factory", "order")}
    return {
        "components": comp, "shift": view["shift"], "start_player": view["start_player"],
        "turn": None if to_act["decision"] in ("draft_orders", "pick_phase_card") else to_act["player"],
        "tile_deck": [], "order_deck": [], "display": display,
        "board": {space: list(spaces[space]["workers"]) for space in comp["spaces"]},
        "canteen": {p["name"]: p["canteen"] for p in view["players"]}, "supply": dict(view["supply"]),
        "pits": {}, "phase": phase_record(view, players), "draft": draft_record(view, players, comp),
        "awards": [dict(award) for award in view["awards"]], "stack": [], "over": view["over"],
    }


def pit_record(view: dict, player: str, money: int, comp: dict) -> dict:
    """A pit as the view shows it; the money and the unseen deliveries are filled in later (the seat's own are
    in its private part)."""
    shown = next(pit for pit in view["pits"] if pit["player"] == player)
    public = next(p for p in view["players"] if p["name"] == player)
    awarded = sum(award["vp"] for award in view["awards"] if award["player"] == player)
    mine = view["private"]["player"] == player
    scorings = comp["shifts"] if view["over"] else view["shift"] - 1
    return {
        "money": view["private"]["money"] if mine else money, "workers": public["workers"], "vp": public["vp"],
        "delivery_vp": public["vp"] - awarded,
        "tunnels": [{"tile": tunnel["id"], "carts": list(tunnel["loads"])} for tunnel in shown["tunnels"]],
        "cage": {"level": shown["cage"]["level"], "cubes": list(shown["cage"]["cubes"])},
        "storage": list(shown["storage"]),
        "orders": [{"id": order["id"], "spots": [list(spot) for spot in order["spots"]]} for order in shown["orders"]],
        "delivered": [o["id"] for o in (view["private"]["delivered"] if mine else shown["shown"])],
        "shown_at_scorings": [sum(1 for o in shown["shown"] if o["shift"] <= k) for k in range(1, scorings + 1)],
    }


def phase_record(view: dict, players: list[str]) -> dict | None:
    """The phase-card round; who is still to pick follows from the leader, the cards picked and the workers."""
    phase = view["phase"]
    if phase is None:
        return None
    cards = {entry["player"]: entry["card"] for entry in phase["cards"]}
    to_pick = []
    if view["to_act"]["decision"] == "pick_phase_card":
        workers = {p["name"]: p["workers"] for p in view["players"]}
        start = players.index(phase["leader"])
        order = [players[(start + k) % len(players)] for k in range(len(players))]
        to_pick = [p for p in order if workers[p] > 0 and p not in cards and p != view["to_act"]["player"]]
    return {"leader": phase["leader"], "domain": phase["domain"], "cards": cards, "passed": list(phase["passed"]),
            "to_pick": to_pick}


def draft_record(view: dict, players: list[str], comp: dict) -> dict | None:
    """The order draft: the picks still to come follow from the start player and the orders taken so far."""
    if view["draft"] is None:
        return None
    start, count = players.index(view["start_player"]), len(players)
    picks = [players[(start - 1 - k) % count] for k in range(comp["draft"]["cards_per_player"] * count)]
    taken = sum(len(pit["orders"]) for pit in view["pits"])
    return {"revealed": [order["id"] for order in view["draft"]["revealed"]], "queue": picks[taken + 1:]}


def deal_decks(state: dict, view: dict, rnd: random.Random) -> None:
    """Both decks from the cards seen nowhere, shuffled; each other baron's deliveries not shown yet drawn from
    the orders seen nowhere."""
    comp, drawn = state["components"], drawn_cards(view)
    pits = state["pits"].values()
    seen_tiles = set(state["display"].values()) | {t["tile"] for pit in pits for t in pit["tunnels"]} | set(drawn)
    tiles = [tile for tile, spec in comp["tiles"].items() if not spec.get("printed") and tile not in seen_tiles]
    seen_orders = set(state["display"].values()) | set(drawn) | set((state["draft"] or {}).get("revealed", []))
    seen_orders |= {o["id"] for pit in pits for o in pit["orders"]} | {o for pit in pits for o in pit["delivered"]}
    orders = [order for order in comp["orders"] if order not in seen_orders]
    rnd.shuffle(tiles)
    rnd.shuffle(orders)
    for shown in view["players"]:
        pit = state["pits"][shown["name"]]
        missing = shown["delivered"] - len(pit["delivered"])
        pit["delivered"] += orders[:missing]
        del orders[:missing]
    state["tile_deck"], state["order_deck"] = tiles, orders


def drawn_cards(view: dict) -> list[str]:
    drawn = view["private"]["drawn"]
    return [card["id"] for card in drawn["cards"]] if drawn else []


def guess_money(state: dict, view: dict, start: int, rnd: random.Random) -> None:
    """The others' money: the start, plus what the seat itself gained beyond its tiles (banks come to everyone
    alike), less their own tiles' printed costs, give or take 2."""
    seat = view["private"]["player"]
    tiles = state["components"]["tiles"]

    def spent(player):
        return sum(tiles[t["tile"]]["cost"] for t in state["pits"][player]["tunnels"])
    gained = state["pits"][seat]["money"] - start + spent(seat)
    for player, pit in state["pits"].items():
        if player != seat:
            pit["money"] = max(0, start + gained - spent(player) + rnd.randint(-2, 2))


def pending_frame(view: dict) -> dict:
    to_act = view["to_act"]
    frame = {"decision": to_act["decision"], "player": to_act["player"]}
    if to_act["decision"] == "mine":
        frame["steps"] = to_act["steps_left"]
    elif to_act["decision"] in ("keep_tile", "keep_order"):
        frame.update(drawn=drawn_cards(view), fresh_info=True)
    elif to_act["decision"] in ("return_tiles", "return_orders"):
        frame["cards"] = drawn_cards(view)
    return frame
