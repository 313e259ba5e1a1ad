"""What a seat cannot see, imagined for the search bot (pbem.search): the other hands and the deck's order.

`sample_state(view, components, rnd)` rebuilds a whole position from a player's view: the map, crates, trucks,
face-up cards and discard pile are copied, the crates in the box are what the components have less those on the
map and the trucks, and the cards seen nowhere (the deck's cards less the face-up ones, the discard pile and the
seat's hand) are dealt to the other hands and the deck, shuffled. The decisions before the first turn (placing a
removed location or a truck stop) are not rebuilt (None: the search plays the greedy bot's move there), nor is a
refill of a player whose Load Board may take a card from the discard pile once a turn (the view does not say
whether it did already).
"""
from __future__ import annotations

import random

from .phases.common import CENTRE, sort_cards
from .setup import copy_components

PHASES = {"drive": "drive", "pay": "drive", "buy_upgrade": "buy", "act": "act", "refill": "refill"}


def sample_state(view: dict, components: dict, rnd: random.Random) -> dict | None:
    """A whole position consistent with `view` (a player's view, of a turn's decision) and the components."""
    if "private" not in view or view["to_act"] is None or view["to_act"]["decision"] not in PHASES:
        return None
    players = [p["name"] for p in view["players"]]
    comp = copy_components(components, len(players))
    comp["truck_stops"] = {u["id"]: comp["truck_stops"][u["id"]] for u in view["upgrades"]}
    if view["to_act"]["decision"] == "refill" and salvages(view, comp):
        return None
    state = shown_table(view, comp)
    deal_hands(state, view, comp, rnd)
    return state


def salvages(view: dict, comp: dict) -> bool:
    """Does the seat's upgrade take a card from the discard pile (once a turn)?"""
    upgrade = next(p["upgrade"] for p in view["players"] if p["name"] == view["private"]["player"])
    return upgrade is not None and comp["truck_stops"][upgrade]["effect"] == "discard-pick"


def shown_table(view: dict, comp: dict) -> dict:
    placed = [loc for loc in view["locations"] if loc["cell"] is not None]
    cells = {view["centre"]["cell"]: CENTRE, **{loc["cell"]: loc["id"] for loc in placed}}
    to_act = view["to_act"]
    return {
        "components": comp, "start_player": view["start_player"],
        "map": {"frame": dict(view["frame"]), "cells": cells,
                "alternate": sorted(loc["id"] for loc in placed if loc["side"] == "alternate")},
        "removed": [loc["id"] for loc in view["locations"] if loc["cell"] is None],
        "crates": {loc["id"]: dict(loc["crates"]) for loc in placed}, "box": crates_in_box(view, comp),
        "truck_stops": [{"upgrade": u["id"], "cell": u["cell"], "bought_by": u["owner"]}
                        for u in view["upgrades"] if u["cell"] is not None],
        "haulers": {p["name"]: {"money": p["money"], "cell": p["cell"], "cargo": dict(p["cargo"]), "hand": [],
                                "upgrade": p["upgrade"]} for p in view["players"]},
        "deck": [], "face_up": list(view["face_up"]), "discard": dict(view["discard"]), "setup": None,
        "turn": {"player": view["turn"]["player"], "phase": PHASES[to_act["decision"]],
                 "route": view["turn"]["route"], "towed": view["turn"]["towed"], "revealed": False,
                 "salvaged": False},
        "end": dict(view["end"]), "stack": [pending_frame(to_act)], "over": view["over"],
    }


def crates_in_box(view: dict, comp: dict) -> dict[str, int]:
    """Every good's crates less those on the map and on the trucks."""
    box = {good: spec["crates"] for good, spec in comp["goods"].items()}
    for crates in [loc["crates"] for loc in view["locations"]] + [p["cargo"] for p in view["players"]]:
        for good, count in crates.items():
            box[good] -= count
    return box


def deal_hands(state: dict, view: dict, comp: dict, rnd: random.Random) -> None:
    """The cards seen nowhere, shuffled, to the other hands (each its size) and the deck."""
    cards = [good for good, spec in comp["goods"].items() for _ in range(spec["bills"])]
    cards += [fuel["id"] for fuel in comp["fuel"] for _ in range(fuel["count"])]
    seen = list(view["face_up"]) + list(view["private"]["hand"])
    seen += [card for card, count in view["discard"].items() for _ in range(count)]
    for card in seen:
        cards.remove(card)
    rnd.shuffle(cards)
    for player in view["players"]:
        if player["name"] == view["private"]["player"]:
            hand = list(view["private"]["hand"])
        else:
            hand, cards = cards[:player["hand"]], cards[player["hand"]:]
        state["haulers"][player["name"]]["hand"] = sort_cards(state, hand)
    state["deck"] = cards


def pending_frame(to_act: dict) -> dict:
    frame = {"decision": to_act["decision"], "player": to_act["player"]}
    if to_act["decision"] == "pay":
        frame["route"] = list(to_act["route"])
    elif to_act["decision"] == "buy_upgrade":
        frame["upgrade"] = to_act["upgrade"]
    elif to_act["decision"] == "refill":
        frame["fresh_info"] = False
    return frame
