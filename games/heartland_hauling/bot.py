"""The greedy hauler: decides from the mover's view alone (their hand, everything public), never the state.

It drives where its cargo sells best, or else where the freight bills in hand load most of a good that sells
well elsewhere (keeping a bill for each crate to unload it later); pays with fuel cards before cash; unloads all
it can, else loads; refills with the cards its cargo and its next load need; buys an upgrade when money is left
over. Ties are broken by `rnd`, so a game is the same for the same `rnd`.
"""
from __future__ import annotations

import random
from itertools import permutations

from pbem.bots import instantiate

from .phases.board import DIRECTIONS, OPPOSITE, cell_coords, cell_name, route_end


def resigned(view: dict, legal: list[dict]) -> dict | None:
    """A resigned seat's move (rules.md): the discard of no card as its action (no crate taken from a location or
    left on one, no location filled), and the top of the deck when refilling (no face-up card taken from the
    others); no upgrade bought (`pass`, pbem.bots); else the first legal move (the route listed first)."""
    decision = view["to_act"]["decision"]
    if decision == "act":
        entry = next((m for m in legal if m["action"] in ("discard", "towed")), None)
        return None if entry is None else {"action": entry["action"], "cards": []}
    if decision == "refill":
        return next((m for m in legal if m["action"] == "draw"), None)
    return None


def choose(view: dict, legal: list[dict], rnd: random.Random) -> dict:
    me = next(p for p in view["players"] if p["name"] == view["private"]["player"])
    hand = view["private"]["hand"]
    roads = road_map(view)  # read once a decision: every route weighed crosses it
    scored = [(score(view, me, hand, entry, roads), rnd.random(), i) for i, entry in enumerate(legal)]
    return concrete(view, me, hand, legal[max(scored)[2]], rnd, roads)


def concrete(view: dict, me: dict, hand: list[str], entry: dict, rnd: random.Random,
             roads: dict[str, dict] | None = None) -> dict:
    """One move of the entry: the crates it should move, a route's directions as given, useless cards away
    (`roads`: road_map(view), when the caller has it)."""
    move = instantiate(entry, rnd)
    if entry["action"] == "unload":
        move["crates"] = entry["crates"]["max"]
    elif entry["action"] == "load":
        move["crates"] = entry["crates"]["max"]
    elif entry["action"] == "move" and isinstance(entry["route"], dict):
        move["route"] = cheapest_order(view, me, entry, roads)
    elif entry["action"] in ("discard", "towed"):  # chosen only when forced: make room for new cards
        move["cards"] = cards_to_discard(view, me, hand)
    elif entry["action"] in ("place", "stop"):
        move["cells"] = [rnd.choice(entry["cells"]["from"])]
    return move


# ---------------------------------------------------------------- what things are worth


def here(view: dict, me: dict) -> dict | None:
    return next((loc for loc in view["locations"] if loc["cell"] == me["cell"]), None)


def best_price(view: dict, good: str, exclude: str | None = None) -> int:
    return max((d["price"] for loc in view["locations"] if loc["cell"] and loc["id"] != exclude
                for d in loc["demands"] if d["good"] == good), default=0)


def fuel_values(view: dict) -> dict[str, int]:
    return {f["id"]: f["spaces"] for f in view["fuel"]}


def fuel_in_hand(view: dict, hand: list[str]) -> int:
    values = fuel_values(view)
    return sum(values.get(c, 0) for c in hand)


def cards_to_discard(view: dict, me: dict, hand: list[str]) -> list[str]:
    keep = [c for c in hand if worth_keeping(view, me, c)]
    if me["money"] == 0 and not any(c in fuel_values(view) for c in keep):
        keep = keep[:2]  # broke and no fuel: the truck cannot move until new cards come, so let most go
    rest = list(hand)
    for card in keep:
        rest.remove(card)
    return sorted(rest)


def worth_keeping(view: dict, me: dict, card: str) -> bool:
    """A forced discard keeps the bills that unload the cargo and the smallest fuel cards (they pay any short
    move); everything else goes, so that new cards come in: a truck stuck with the wrong cards stays stuck."""
    values = fuel_values(view)
    if card in values:
        return values[card] == min(values.values())
    return me["cargo"].get(card, 0) > 0


def loadable_anywhere(view: dict, me: dict, good: str, bills: int) -> int:
    """The most crates of `good` these bills would load at one location of the map."""
    room = me["capacity"] - sum(me["cargo"].values())
    return max((min(loc["crates"].get(good, 0), room, bills // (1 if good == loc["native"] else 2))
                for loc in view["locations"] if loc["cell"]), default=0)


def loadable(view: dict, me: dict, hand: list[str], loc: dict, good: str) -> int:
    rate = 1 if good == loc["native"] else 2
    room = me["capacity"] - sum(me["cargo"].values())
    return min(loc["crates"].get(good, 0), room, hand.count(good) // rate)


def sale_value(view: dict, me: dict, hand: list[str], loc: dict) -> int:
    space = view["location_capacity"] - sum(loc["crates"].values())
    return max((min(me["cargo"].get(d["good"], 0), hand.count(d["good"]), space) * d["price"]
                for d in loc["demands"]), default=0)


def load_value(view: dict, me: dict, hand: list[str], loc: dict) -> float:
    return max((loadable(view, me, hand, loc, good) * best_price(view, good, exclude=loc["id"]) * 0.4
                for good in loc["crates"]), default=0.0)


def destination_value(view: dict, me: dict, hand: list[str], cell: str) -> float:
    loc = next((x for x in view["locations"] if x["cell"] == cell), None)
    if loc is not None:
        return max(sale_value(view, me, hand, loc), load_value(view, me, hand, loc))
    stop = next((u for u in view["upgrades"] if u["cell"] == cell), None)
    if stop and stop["owner"] is None and me["upgrade"] is None and me["money"] >= stop["cost"] + 3:
        return 3.0
    return 0.0


def route_of(entry: dict) -> list[str]:
    return entry["route"]["from"] if isinstance(entry["route"], dict) else entry["route"]


def step(cell: str, direction: str) -> str:
    row, col = cell_coords(cell)
    dr, dc = DIRECTIONS[direction]
    return cell_name(row + dr, col + dc)


def road_map(view: dict) -> dict[str, dict]:
    """Each location's cell with the road features of its alternate side."""
    return {loc["cell"]: loc["roads"] for loc in view["locations"] if loc["cell"]}


def road_charges(view: dict, me: dict, route: list[str], roads: dict[str, dict] | None = None) -> int:
    """The cash the road features on the way cost (tolls; weigh stations by the crates above their limit), read
    from the alternate sides shown in the view, as the referee charges them (`roads`: road_map(view))."""
    roads = road_map(view) if roads is None else roads
    cargo, cell, total = sum(me["cargo"].values()), me["cell"], 0
    for direction in route:
        nxt = step(cell, direction)
        feature = roads.get(cell, {}).get(direction) or roads.get(nxt, {}).get(OPPOSITE[direction])
        if feature and feature in view["road_features"]:
            spec = view["road_features"][feature]
            total += spec["toll"] + (max(0, cargo - spec["per_crate_above"]) if spec["per_crate_above"] is not None
                                     else 0)
        cell = nxt
    return total


def cheapest_order(view: dict, me: dict, entry: dict, roads: dict[str, dict] | None = None) -> list[str]:
    """A route as driven: for `move (e e n in any order)` the ordering whose road charges are lowest."""
    if not isinstance(entry["route"], dict):
        return list(entry["route"])
    return min((list(order) for order in sorted(set(permutations(entry["route"]["from"])))),
               key=lambda order: road_charges(view, me, order, roads))


def score(view: dict, me: dict, hand: list[str], entry: dict, roads: dict[str, dict] | None = None) -> float:
    action = entry["action"]
    if action == "move":
        route = cheapest_order(view, me, entry, roads)
        driving = 0.5 * len(route) if fuel_in_hand(view, hand) >= len(route) else len(route)
        cost = road_charges(view, me, route, roads) + driving
        return destination_value(view, me, hand, route_end(me["cell"], route)) - cost
    if action in ("fuel", "mixed"):
        return 10 - len(entry["cards"]) - (5 if action == "mixed" else 0)
    if action == "cash":
        return 4
    if action == "buy":
        cost = next(u["cost"] for u in view["upgrades"] if u["id"] == entry["upgrade"])
        return 1 if me["money"] >= cost + 2 else -1
    if action == "unload":
        price = next(d["price"] for d in here(view, me)["demands"] if d["good"] == entry["good"])
        return 100 + price * entry["crates"]["max"]
    if action == "load":
        loc = here(view, me)
        return 50 + best_price(view, entry["good"], exclude=loc["id"]) * entry["crates"]["max"]
    if action in ("take", "salvage"):
        return card_value(view, me, hand, entry["card"])
    if action == "draw":
        return 1
    return 0  # pass, discard, tow, towed, place, stop: whatever is left


def card_value(view: dict, me: dict, hand: list[str], card: str) -> float:
    """A bill to unload cargo with is worth most, then fuel when short of it, then bills that make a load possible
    (or bigger) for a well-paid good."""
    if card in fuel_values(view):
        return 3 if fuel_in_hand(view, hand) < 3 else 0
    if me["cargo"].get(card, 0) > hand.count(card):
        return 4 + best_price(view, card) / 10
    gain = loadable_anywhere(view, me, card, hand.count(card) + 1) - loadable_anywhere(view, me, card, hand.count(card))
    return gain * best_price(view, card) / 2
