"""Phase 1, the move: 1-3 orthogonal spaces, never a space twice, passing trucks and the centre but stopping on
neither; paid with fuel cards totalling exactly the distance or $1 a space, never both; road features cost cash
on top. Two decisions: the route (`move n e e`), then its payment (`pay fuel-1 fuel-2`, `pay cash`). A player
with no route they can pay for is towed to the centre (`tow`)."""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations, permutations

from pbem.memo import Bounded

from . import board
from .common import CENTRE, cargo_total, discard_cards, effect_amount, fuel_value, hauler, leave_cell, push, \
    upgrade_effect


# ---------------------------------------------------------------- routes


def crossing_charge(state: dict, player: str, feature: str | None) -> int:
    """Cash for crossing an edge with this road feature: a toll road's toll, a weigh station's $1 a crate above four
    on the truck."""
    if feature is None:
        return 0
    spec = state["components"]["road_features"][feature]
    charge = spec["toll"]
    if spec["per_crate_above"] is not None:
        charge += max(0, cargo_total(state, player) - spec["per_crate_above"])
    return charge


def may_stop(state: dict, player: str, cell: str) -> bool:
    """Not on the centre, not where another truck is parked (a Sleeper Cab may share a location)."""
    if board.card_at(state, cell) == CENTRE:
        return False
    if any(h["cell"] == cell for p, h in state["haulers"].items() if p != player):
        return board.is_location(state, cell) and upgrade_effect(state, player, "share-space") is not None
    return True


def next_space(state: dict, cell: str, direction: str, seen) -> tuple[str, str | None] | None:
    """The space a truck enters going that way, if it may (a space of the map, not used yet this turn, and no
    closed road on the edge), with the road feature on the edge crossed."""
    nxt = board.neighbour(state, cell, direction)
    if nxt is None or nxt in seen or not board.is_space(state, nxt):
        return None
    feature = board.edge_feature(state, cell, direction)
    return None if feature == "closed" else (nxt, feature)


def walk(state: dict, player: str, route: list[str]) -> tuple[str, int] | None:
    """Where the route ends and the road charges on the way; None if it is not a drivable route."""
    cell = hauler(state, player)["cell"]
    seen, charges = {cell}, 0
    for direction in route:
        entered = next_space(state, cell, direction, seen)
        if entered is None:
            return None
        nxt, feature = entered
        charges += crossing_charge(state, player, feature)
        seen.add(nxt)
        cell = nxt
    return cell, charges


def drivable_routes(state: dict, player: str) -> list[tuple[tuple[str, ...], str, int]]:
    """Every (route, end cell, road charges) of 1..max spaces ending where the truck may stop. Whether the truck may
    stop on a cell is looked up once a listing (its routes end on the same few)."""
    found, stops = [], {}
    for route, end, features in route_shapes(state, hauler(state, player)["cell"]):
        if end not in stops:
            stops[end] = may_stop(state, player, end)
        if stops[end]:
            found.append((route, end, sum(crossing_charge(state, player, feature) for feature in features)))
    return found


ROUTES = Bounded(4096)  # (the map's layout, a start cell, the longest move) -> the routes from that cell


def route_shapes(state: dict, start: str) -> tuple[tuple[tuple[str, ...], str, tuple[str, ...]], ...]:
    """Every (route, end cell, road features crossed) of 1..max spaces from `start` through spaces of the map, in
    the order a depth-first walk finds them, whoever drives: where a truck may stop and what the features cost
    depend on the truck, the rest only on the layout. The same listings come back at every move of a game and in
    every rollout of the search, so each is worked out once a process."""
    limit = state["components"]["truck"]["max_distance"]
    return ROUTES.get((layout(state), start, limit), lambda: tuple(walked_routes(state, start, limit)))


def layout(state: dict) -> tuple:
    """What the routes on the map depend on: the frame, the cards on the cells and the road features of the
    alternate sides shown (all set at setup), and the cells of the truck stops still on the table."""
    cards, the_map = state["components"]["locations"], state["map"]
    return (the_map["frame"]["rows"], the_map["frame"]["cols"], tuple(the_map["cells"].items()),
            tuple((card, tuple(cards[card]["alternate"].items())) for card in the_map["alternate"]),
            tuple(stop["cell"] for stop in state["truck_stops"]))


def walked_routes(state: dict, start: str, limit: int) -> list[tuple[tuple[str, ...], str, tuple[str, ...]]]:
    """route_shapes worked out: each route, its end and the road features on its edges (plain edges left out),
    never a space twice nor a closed road."""
    found = []
    frame = state["map"]["frame"]
    spaces = {*state["map"]["cells"], *(stop["cell"] for stop in state["truck_stops"])}  # board.is_space

    def extend(route: tuple[str, ...], cell: str, seen: tuple[str, ...], features: tuple[str, ...]) -> None:
        if route:
            found.append((route, cell, features))
        if len(route) == limit:
            return
        for direction in board.DIRECTIONS:  # next_space
            nxt = board.step(cell, direction, frame["rows"], frame["cols"])
            if nxt is None or nxt in seen or nxt not in spaces:
                continue
            feature = board.edge_feature(state, cell, direction)
            if feature != "closed":
                extend(route + (direction,), nxt, seen + (nxt,), features + (feature,) if feature else features)

    extend((), start, (start,), ())
    return found


# ---------------------------------------------------------------- payment


def fuel_sets(state: dict, player: str) -> tuple[tuple[tuple[str, ...], int], ...]:
    """Every distinct set of fuel cards in the hand with the spaces it pays for, fewest spaces first (then by the
    cards' names)."""
    values = [(card, fuel_value(state, card)) for card in hauler(state, player)["hand"]]
    return sets_of_fuel(tuple((card, value) for card, value in values if value > 0))


@lru_cache(maxsize=1024)
def sets_of_fuel(fuel: tuple[tuple[str, int], ...]) -> tuple[tuple[tuple[str, ...], int], ...]:
    """fuel_sets of a hand's fuel cards, (card, spaces) each: a few dozen hands make every hand of a game, and each
    is asked at every move, so each is worked out once a process."""
    found = {}
    for size in range(1, len(fuel) + 1):
        for combo in combinations(fuel, size):
            cards = tuple(sorted(card for card, _ in combo))  # the notation's set field: sorted words
            found[cards] = sum(value for _, value in combo)
    return tuple(sorted(found.items(), key=lambda item: (item[1], item[0])))


def payments(state: dict, player: str, distance: int, charges: int) -> list[tuple[dict, int, list[str]]]:
    """Each way to pay a move of `distance` spaces with `charges` of road features: (move, cash, cards).

    Fuel cards must total exactly the spaces paid for, cash is $1 a space, never both (a Jerry Can may mix them);
    an Eco Engine pays for one space less if its owner wants; road charges are always cash."""
    money = hauler(state, player)["money"]
    spaces = sorted({distance, max(0, distance - effect_amount(state, player, "free-spaces"))})
    options = []
    if money >= spaces[0] + charges:
        options.append(({"action": "cash"}, spaces[0] + charges, []))
    mixing = upgrade_effect(state, player, "mixed-payment") is not None
    for cards, value in fuel_sets(state, player):
        if value in spaces and money >= charges:
            options.append(({"action": "fuel", "cards": list(cards)}, charges, list(cards)))
        elif mixing and value < spaces[-1]:
            cash = min(s for s in spaces if s > value) - value + charges
            if money >= cash:
                options.append(({"action": "mixed", "cards": list(cards)}, cash, list(cards)))
    return options


def routes_to_entries(routes: list[tuple[str, ...]]) -> list[dict]:
    """Legal routes as few entries: when every ordering of a route's directions is itself a legal route, one
    entry `move (e e n in any order)` stands for all of them; any other route is listed on its own."""
    legal = set(routes)
    entries, done = [], set()
    for route in sorted(routes, key=lambda r: (len(r), r)):
        if route in done:
            continue
        orderings = set(permutations(route))
        if len(orderings) > 1 and orderings <= legal:
            words = sorted(route)
            entries.append({"action": "move", "route": {"from": words, "min": len(words), "max": len(words)}})
            done |= orderings
        else:
            entries.append({"action": "move", "route": list(route)})
            done.add(route)
    return entries


def payable_routes(state: dict, player: str) -> list[tuple[str, ...]]:
    routes = drivable_routes(state, player)
    payable = {}  # whether a move can be paid depends only on its length and road charges: asked once each
    for route, _, charges in routes:
        if (len(route), charges) not in payable:
            payable[len(route), charges] = bool(payments(state, player, len(route), charges))
    return [route for route, _, charges in routes if payable[len(route), charges]]


# ---------------------------------------------------------------- decisions


def legal_drive(state: dict, frame: dict) -> list[dict]:
    routes = payable_routes(state, frame["player"])
    return routes_to_entries(routes) if routes else [{"action": "tow"}]


def choose_route(state: dict, frame: dict, move: dict, rng) -> None:
    push(state, "pay", frame["player"], route=list(move["route"]))


def tow_truck(state: dict, frame: dict, move: dict, rng) -> None:
    """No move possible: towed to the centre, and the action must be the discard."""
    send_to_centre(state, frame["player"])
    state["turn"]["towed"] = True
    state["turn"]["phase"] = "act"


def send_to_centre(state: dict, player: str) -> None:
    leave_cell(state, player)
    hauler(state, player)["cell"] = board.centre_cell(state)


def legal_pay(state: dict, frame: dict) -> list[dict]:
    player = frame["player"]
    _, charges = walk(state, player, frame["route"])
    return [move for move, _, _ in payments(state, player, len(frame["route"]), charges)]


def pay_for_route(state: dict, frame: dict, move: dict, rng) -> None:
    player = frame["player"]
    end, charges = walk(state, player, frame["route"])
    _, cash, cards = next(o for o in payments(state, player, len(frame["route"]), charges) if o[0] == move)
    truck = hauler(state, player)
    truck["money"] -= cash
    discard_cards(state, player, cards)
    leave_cell(state, player)
    truck["cell"] = end
    state["turn"]["route"] = list(frame["route"])
    state["turn"]["phase"] = "buy"


def drive(state: dict, frame: dict, move: dict, rng) -> None:
    """The `drive` decision: a route, or a tow to the centre."""
    (tow_truck if move["action"] == "tow" else choose_route)(state, frame, move, rng)
