"""Setup: the components checked and copied into the state, the map laid out, crates, money, cards; then the
decisions the referee asks for before the first turn (3 players: players 3 and 2 each place a removed location;
the truck-stop expansion: the last player places the dealt stops)."""
from __future__ import annotations

from pbem.contract import PbemError
from pbem.messages import NP_

from .phases import board
from .phases.common import CENTRE, add_crates, push, sort_cards, turn_order

EFFECTS_WITH_AMOUNT = {"free-spaces", "free-load", "extra-capacity", "unload-bonus",
                       "free-unload", "hand-size"}
RESERVED_WORDS = {"cash", "and", "at", "centre"}
# Rulings that changed after games were already played: a game whose options predate the option (an earlier pbem
# made it) keeps the earlier reading, so it replays as it was played; a new game gets the option's default.
EARLIER_READINGS = {"returned-locations": "goods-order", "removed-next-to": "any-card"}


def reading(state_or_options: dict, option: str) -> str:
    """The value of an option for this game: its own, or the earlier reading for a game made before the option."""
    options = state_or_options.get("options", state_or_options)
    return options.get(option, EARLIER_READINGS.get(option))


# ---------------------------------------------------------------- components


def repeated(ids: list[str]) -> list[str]:
    return sorted({x for x in ids if ids.count(x) > 1})


def component_problems(components: dict) -> list[str]:
    """What makes a club's components unusable beyond their schema (which has already been checked)."""
    goods = [g["id"] for g in components["goods"]]
    return (card_problems(components, goods) + location_problems(components, goods)
            + crate_problems(components, goods) + layout_problems(components, goods)
            + truck_stop_problems(components, goods))


def card_problems(components: dict, goods: list[str]) -> list[str]:
    cards = goods + [f["id"] for f in components["fuel"]]
    problems = [f"card {word!r} is named twice (goods and fuel cards are words of the same hand)"
                for word in repeated(cards)]
    problems += [f"{word!r} cannot name a card: it is a word of the move notation"
                 for word in sorted(set(cards) & RESERVED_WORDS)]
    most = max((row["players"] for row in components["player_counts"]), default=0)
    dealt = components["hand_size"] * most + components["face_up"]
    total = sum(g["bills"] for g in components["goods"]) + sum(f["count"] for f in components["fuel"])
    if total < dealt:
        problems.append(f"{total} cards cannot deal {components['hand_size']} to {most} players and "
                        f"{components['face_up']} face up")
    return problems


def location_problems(components: dict, goods: list[str]) -> list[str]:
    locations = [loc["id"] for loc in components["locations"]]
    problems = [f"location {word!r} appears twice" for word in repeated(locations)]
    if components["centre"]["id"] in locations or CENTRE in locations:
        problems.append(f"no location may be called {components['centre']['id']!r} or {CENTRE!r} (the centre)")
    for loc in components["locations"]:
        if loc["native"] not in goods:
            problems.append(f"location {loc['id']}: native good {loc['native']!r} is not a good")
        demanded = [d["good"] for d in loc["demands"]]
        problems += [f"location {loc['id']}: demanded good {good!r} is not a good"
                     for good in demanded if good not in goods]
        if repeated(demanded):
            problems.append(f"location {loc['id']}: a good is demanded twice")
    return problems


def truck_stop_problems(components: dict, goods: list[str]) -> list[str]:
    stops = components["truck_stops"]
    problems = [f"truck stop {word!r} appears twice" for word in repeated([s["id"] for s in stops])]
    for stop in stops:
        if stop["effect"] in EFFECTS_WITH_AMOUNT and "amount" not in stop:
            problems.append(f"truck stop {stop['id']}: effect {stop['effect']} needs an amount")
        if stop["effect"] == "unload-bonus" and (not stop.get("goods") or not set(stop["goods"]) <= set(goods)):
            problems.append(f"truck stop {stop['id']}: effect unload-bonus needs its goods, among {', '.join(goods)}")
    return problems


def starting_crates(native: str, demanded: list[str], crates: dict, warehouse_mix: bool) -> dict[str, int]:
    """5 native crates, or with Warehouse Mix 3 native and 1 of each demanded good (the native one included)."""
    if not warehouse_mix:
        return {native: crates["native"]}
    found = {native: crates["warehouse_mix_native"]}
    for good in demanded:
        found[good] = found.get(good, 0) + 1
    return found


def crate_problems(components: dict, goods: list[str]) -> list[str]:
    """Enough crates of every good to fill every location at once, in both starting variants."""
    problems = []
    for mix in (False, True):
        need = dict.fromkeys(goods, 0)
        for loc in components["locations"]:
            demanded = [d["good"] for d in loc["demands"]]
            for good, count in starting_crates(loc["native"], demanded, components["crates"], mix).items():
                if good in need:
                    need[good] += count
        for good in components["goods"]:
            if need[good["id"]] > good["crates"]:
                variant = "with Warehouse Mix" if mix else "at setup"
                problems.append(f"{good['crates']} {good['id']} crates cannot fill every location {variant} "
                                f"({need[good['id']]} needed)")
    return problems


def layout_problems(components: dict, goods: list[str]) -> list[str]:
    counts = {row["players"]: row for row in components["player_counts"]}
    keys = [(layout["id"], layout["players"]) for layout in components["layouts"]]
    problems = [f"layout {key[0]} for {key[1]} players appears twice" for key in repeated(keys)]
    for layout in components["layouts"]:
        name = f"layout {layout['id']} for {layout['players']} players"
        problems += [f"{name}: {problem}" for problem in
                     one_layout_problems(layout, counts.get(layout["players"]), components, goods)]
    return problems


def one_layout_problems(layout: dict, row: dict | None, components: dict, goods: list[str]) -> list[str]:
    problems = []
    if sum(line.count("W") for line in layout["rows"]) != 1:
        problems.append("draw exactly one W (the distribution centre)")
    if not board.layout_connected(layout["rows"]):
        problems.append("the cards do not all connect orthogonally")
    if row is None:
        return problems + [f"no player_counts row for {layout['players']} players"]
    natives = {loc["native"] for loc in components["locations"]}
    if row["remove_one_of_each_good"] and not set(goods) <= natives:
        problems.append(f"no location of {', '.join(g for g in goods if g not in natives)} to remove")
    slots, _ = board.parse_layout(layout["rows"])
    placed = layout.get("placed_by", [])
    if len(slots) + len(placed) > len(components["locations"]):
        problems.append(f"{len(slots) + len(placed)} locations needed, {len(components['locations'])} exist")
    problems += [f"placed_by names player {p}, not a turn position" for p in placed
                 if not 1 <= p <= layout["players"]]
    if max(len(line) for line in layout["rows"]) + 2 * (len(placed) + 1) > 26:
        problems.append("too wide to name its cells a..z")
    return problems


def check_components(components: dict) -> None:
    problems = component_problems(components)
    if problems:
        raise PbemError("the components cannot be used:\n  " + "\n  ".join(problems))


def copy_components(components: dict, players: int) -> dict:
    """What later functions need, keyed by id: the state is then self-contained."""
    row = next((r for r in components["player_counts"] if r["players"] == players), None)
    if row is None:
        raise PbemError(f"the components have no money goal for {players} players")
    return {
        "goods": {g["id"]: {k: v for k, v in g.items() if k != "id"} for g in components["goods"]},
        "fuel": [dict(f) for f in components["fuel"]],
        "fuel_values": {f["id"]: f["spaces"] for f in components["fuel"]},
        "truck": dict(components["truck"]),
        "location_capacity": components["location_capacity"],
        "hand_size": components["hand_size"],
        "face_up": components["face_up"],
        "discard_cost": components["discard_cost"],
        "crates": dict(components["crates"]),
        "money_goal": row["money_goal"],
        "centre": dict(components["centre"]),
        "locations": {loc["id"]: {"name": loc["name"], "native": loc["native"],
                                  "demands": {d["good"]: d["price"] for d in loc["demands"]},
                                  "alternate": dict(loc["alternate"])} for loc in components["locations"]},
        "road_features": {k: dict(v) for k, v in components["road_features"].items()},
        "truck_stops": {s["id"]: {k: (list(v) if isinstance(v, list) else v) for k, v in s.items()
                                  if k not in ("id", "source")} for s in components["truck_stops"]},
    }


# ---------------------------------------------------------------- the map


def choose_layout(components: dict, options: dict, players: int) -> dict:
    layout = next((x for x in components["layouts"]
                   if x["id"] == options["layout"] and x["players"] == players), None)
    if layout is None:
        offered = sorted(x["id"] for x in components["layouts"] if x["players"] == players)
        raise PbemError(f"layout {options['layout']} is not in the components for {players} players "
                        f"(they have: {', '.join(offered) or 'none'})")
    return layout


def deal_locations(components: dict, layout: dict, remove: bool, returned: str, rng) -> tuple[list[str], list[str]]:
    """The locations for the layout's slots and the removed ones (set aside face up, for the players who place
    one). The locations are shuffled; with 2 or 3 players the first of each native good is removed; a layout with
    more slots than are left takes the rest from the removed ones: the first removed in the shuffle (`random`), or
    with the earlier reading (`goods-order`) in the components' order of goods (soybeans, then corn)."""
    shuffled = rng.shuffle([loc["id"] for loc in components["locations"]], what=NP_("chance", "locations"),
                           public=True)
    native = {loc["id"]: loc["native"] for loc in components["locations"]}
    removed = []
    if remove:
        for good in [g["id"] for g in components["goods"]]:
            removed += [next(loc for loc in shuffled if native[loc] == good)]
    if returned == "random":
        removed.sort(key=shuffled.index)
    kept = [loc for loc in shuffled if loc not in removed]
    slots, _ = board.parse_layout(layout["rows"])
    in_play = (kept + removed)[:len(slots)]
    return in_play, [loc for loc in shuffled if loc not in in_play]


def lay_out_map(state: dict, layout: dict, in_play: list[str], new_start: bool, rng) -> None:
    """Cards onto the layout's slots, inside a frame with a margin for every card still to come next to it."""
    slots, centre = board.parse_layout(layout["rows"])
    margin = len(layout.get("placed_by", [])) + 1
    width = max(len(line) for line in layout["rows"])
    state["map"]["frame"] = {"rows": len(layout["rows"]) + 2 * margin, "cols": width + 2 * margin}
    cards = list(in_play)
    if new_start:  # the centre is shuffled in with the locations, so it may land on any slot
        slots = slots + [centre]
        cards = rng.shuffle(cards + [CENTRE], what=NP_("chance", "new start: cards on the map"), public=True)
    else:
        state["map"]["cells"][board.cell_name(centre[0] + margin, centre[1] + margin)] = CENTRE
    for (row, col), card in zip(slots, cards):
        state["map"]["cells"][board.cell_name(row + margin, col + margin)] = card


def stock_location(state: dict, location: str) -> None:
    """A location's starting crates, taken from the box."""
    comp = state["components"]
    spec = comp["locations"][location]
    mix = state["options"]["warehouse-mix"] == "on"
    crates = {}
    for good, count in starting_crates(spec["native"], list(spec["demands"]), comp["crates"], mix).items():
        state["box"][good] -= count
        add_crates(crates, good, count)
    state["crates"][location] = crates


def flip_alternate_sides(state: dict, rng) -> None:
    """Alternate routes: in a random order, each location turns to its alternate side unless a neighbour already
    shows its own or the turn would cut a card off the map (closed roads); so no two are adjacent. `on`: as many
    as fit; a number: that many (fewer only when no more fit)."""
    locations = [card for card in state["map"]["cells"].values() if card != CENTRE]
    cells = list(state["map"]["cells"])
    wanted = state["options"]["alternate-routes"]
    most = len(locations) if wanted == "on" else int(wanted)
    order = rng.shuffle(sorted(locations), what=NP_("chance", "alternate sides, in this order"), public=True)
    for location in order:
        if len(state["map"]["alternate"]) >= most:
            break
        cell = board.location_cell(state, location)
        if any(board.card_at(state, other) in state["map"]["alternate"] for _, other in board.neighbours(state, cell)):
            continue
        state["map"]["alternate"].append(location)
        if not board.connected(state, cells):
            state["map"]["alternate"].remove(location)
    state["map"]["alternate"].sort()


# ---------------------------------------------------------------- setup


def setup(state: dict, components: dict, rng) -> None:
    """The state already holds the game's id, its rules version, the players and the options (pbem's)."""
    players, options = state["players"], state["options"]
    check_components(components)
    n = len(players)
    layout = choose_layout(components, options, n)
    if options["truck-stops"] == "on" and len(components["truck_stops"]) < n + 2:
        raise PbemError(f"the truck-stop expansion needs {n + 2} upgrade cards for {n} players; "
                        f"the components have {len(components['truck_stops'])}")
    start = rng.choice(list(players), what=NP_("chance", "start player"), public=True)
    state.update(empty_state(players, copy_components(components, n), components, start))
    remove = next(r for r in components["player_counts"] if r["players"] == n)["remove_one_of_each_good"]
    in_play, state["removed"] = deal_locations(components, layout, remove, reading(options, "returned-locations"), rng)
    lay_out_map(state, layout, in_play, options["new-start"] == "on", rng)
    for location in in_play:
        stock_location(state, location)
    for hauler in state["haulers"].values():
        hauler["cell"] = board.centre_cell(state)
    deal_cards(state, rng)
    order = turn_order(state)
    state["setup"] = {"placers": [order[k - 1] for k in layout.get("placed_by", [])],
                      "sides_flipped": options["alternate-routes"] == "off",
                      "stops_to_place": deal_truck_stops(state, components, rng)}


def empty_state(players: list[str], comp: dict, components: dict, start: str) -> dict:
    """Every key of the game's own part of the state, before the map, the crates and the cards are dealt."""
    return {
        "components": comp,
        "start_player": start,
        "map": {"frame": {"rows": 0, "cols": 0}, "cells": {}, "alternate": []},
        "removed": [],
        "crates": {},
        "box": {g["id"]: g["crates"] for g in components["goods"]},
        "truck_stops": [],
        "haulers": {p: {"money": components["start_money"], "cell": "a1", "cargo": {}, "hand": [], "upgrade": None}
                    for p in players},
        "deck": [],
        "face_up": [],
        "discard": {},
        "setup": None,
        "turn": None,
        "end": {"triggered_by": None, "last_player": None},
        "stack": [],
        "over": False,
    }


def deal_truck_stops(state: dict, components: dict, rng) -> list[str]:
    """Players + 2 upgrade cards at random (public: they are placed face up); the others stay in the box."""
    dealt = []
    if state["options"]["truck-stops"] == "on":
        shuffled = rng.shuffle([s["id"] for s in components["truck_stops"]], what=NP_("chance", "truck stops dealt"),
                               public=True)
        dealt = shuffled[:len(state["players"]) + 2]
    state["components"]["truck_stops"] = {u: state["components"]["truck_stops"][u] for u in dealt}
    return list(dealt)


def deal_cards(state: dict, rng) -> None:
    comp = state["components"]
    cards = [good for good, spec in comp["goods"].items() for _ in range(spec["bills"])]
    cards += [f["id"] for f in comp["fuel"] for _ in range(f["count"])]
    state["deck"] = rng.shuffle(cards, what=NP_("chance", "deck"), public=False)
    for p in turn_order(state):
        hand, state["deck"] = state["deck"][:comp["hand_size"]], state["deck"][comp["hand_size"]:]
        state["haulers"][p]["hand"] = sort_cards(state, hand)
    state["face_up"], state["deck"] = state["deck"][:comp["face_up"]], state["deck"][comp["face_up"]:]


# ---------------------------------------------------------------- decisions before the first turn


def next_setup_decision(state: dict, rng) -> bool:
    """Push the next setup decision, doing the random steps between them; False once setup is over."""
    setup_state = state["setup"]
    if setup_state["placers"]:
        if not state["removed"] or not location_cells(state):
            setup_state["placers"] = []  # nothing left to place (a club's layout): the others skip
        else:
            push(state, "place_location", setup_state["placers"].pop(0))
            return True
    if not setup_state["sides_flipped"]:
        flip_alternate_sides(state, rng)
        setup_state["sides_flipped"] = True
    if setup_state["stops_to_place"]:
        if truck_stop_cells(state):
            push(state, "place_truck_stop", turn_order(state)[-1])
            return True
        setup_state["stops_to_place"] = []  # no cell left that the rule allows: the rest go back to the box
    state["setup"] = None
    return False


def location_cells(state: dict) -> list[str]:
    """3 players: a removed location goes next to a location of the map (the French rules: "adjacente à n'importe
    quel lieu actuel"; the centre is not a location); with the earlier reading (`any-card`), next to any card."""
    cells = state["map"]["cells"]
    if reading(state, "removed-next-to") == "location":
        cells = [cell for cell in cells if board.is_location(state, cell)]
    return board.empty_cells_next_to(state, list(cells))


def legal_place_location(state: dict, frame: dict) -> list[dict]:
    cells = location_cells(state)
    return [{"action": "place", "location": loc, "cells": {"from": cells, "min": 1, "max": 1}}
            for loc in state["removed"]]


def place_location(state: dict, frame: dict, move: dict, rng) -> None:
    location, cell = move["location"], move["cells"][0]
    state["map"]["cells"][cell] = location
    state["removed"].remove(location)
    stock_location(state, location)


def truck_stop_cells(state: dict) -> list[str]:
    """Next to at least one location, and orthogonally next to no other truck stop."""
    locations = [c for c in state["map"]["cells"] if board.is_location(state, c)]
    return [c for c in board.empty_cells_next_to(state, locations)
            if not any(board.stop_at(state, other) for _, other in board.neighbours(state, c))]


def legal_place_truck_stop(state: dict, frame: dict) -> list[dict]:
    cells = truck_stop_cells(state)
    return [{"action": "stop", "upgrade": stop, "cells": {"from": cells, "min": 1, "max": 1}}
            for stop in state["setup"]["stops_to_place"]]


def place_truck_stop(state: dict, frame: dict, move: dict, rng) -> None:
    state["setup"]["stops_to_place"].remove(move["upgrade"])
    state["truck_stops"].append({"upgrade": move["upgrade"], "cell": move["cells"][0], "bought_by": None})
