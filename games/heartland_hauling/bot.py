"""The greedy hauler: decides from the mover's view alone (their hand, everything public), never the state.

It drives where its cargo sells best, or else where the freight bills in hand load most of a good that sells
well elsewhere (keeping a bill for each crate to unload it later); pays with fuel cards before cash; unloads all
it can, else loads; refills with the cards its cargo and its next load need; buys an upgrade when money is left
over. Ties are broken by `rnd`, so a game is the same for the same `rnd`.

What a decision reads of the view (the fuel in hand, each good's prices, a route's road charges, what a
destination is worth) is worked out once a decision, in a Sight, and not again for each move weighed: the search's
rollouts ask this bot hundreds of thousands of times a game.
"""
from __future__ import annotations

import random
from functools import lru_cache
from itertools import permutations

from pbem.bots import instantiate

from .phases.board import DIRECTIONS, OPPOSITE, cell_coords, cell_name


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
    sight = Sight(view)
    scored = [(score(sight, entry), rnd.random(), i) for i, entry in enumerate(legal)]
    return concrete(sight, legal[max(scored)[2]], rnd)


def concrete(sight: Sight, entry: dict, rnd: random.Random) -> dict:
    """One move of the entry: the crates it should move, a route's directions as given, useless cards away."""
    move = instantiate(entry, rnd)
    if entry["action"] == "unload":
        move["crates"] = entry["crates"]["max"]
    elif entry["action"] == "load":
        move["crates"] = entry["crates"]["max"]
    elif entry["action"] == "move" and isinstance(entry["route"], dict):
        move["route"] = list(sight.cheapest_order(tuple(entry["route"]["from"])))
    elif entry["action"] in ("discard", "towed"):  # chosen only when forced: make room for new cards
        move["cards"] = cards_to_discard(sight)
    elif entry["action"] in ("place", "stop"):
        move["cells"] = [rnd.choice(entry["cells"]["from"])]
    return move


# ---------------------------------------------------------------- what things are worth


class once:  # noqa: N801 (used as a decorator, like functools.cached_property)
    """functools.cached_property without the lock it takes at each first read before Python 3.12: a Sight lives
    for one decision of one thread."""

    def __init__(self, make):
        self.make, self.__doc__ = make, make.__doc__

    def __set_name__(self, owner, name: str) -> None:
        self.name = name

    def __get__(self, sight, owner=None):
        if sight is None:
            return self
        value = sight.__dict__[self.name] = self.make(sight)
        return value


class Sight:
    """What one decision reads of the view, each part worked out when first needed and then kept: the mover
    (`me`), their hand, the fuel cards' values, the locations by cell and each good's prices, the road features on
    the map, and what each route and destination weighed so far costs or is worth."""

    def __init__(self, view: dict):
        self.view = view
        self.me = next(p for p in view["players"] if p["name"] == view["private"]["player"])
        self.hand: list[str] = view["private"]["hand"]
        self.charges: dict[tuple[str, ...], tuple[str, int]] = {}
        self.orders: dict[tuple[str, ...], tuple[str, ...]] = {}
        self.destinations: dict[str, float] = {}
        self.loads: dict[tuple[str, int], int] = {}
        self.supplies: dict[str, dict[int, int]] = {}

    @once
    def fuel(self) -> dict[str, int]:
        """Each fuel card's spaces."""
        return {f["id"]: f["spaces"] for f in self.view["fuel"]}

    @once
    def fuel_in_hand(self) -> int:
        return sum(self.fuel.get(c, 0) for c in self.hand)

    @once
    def placed(self) -> list[dict]:
        """The locations on the map."""
        return [loc for loc in self.view["locations"] if loc["cell"]]

    @once
    def at_cell(self) -> dict:
        """The location on each cell (the first listed, as a search of the list finds it)."""
        found = {}
        for loc in self.view["locations"]:
            found.setdefault(loc["cell"], loc)
        return found

    @once
    def prices(self) -> dict[str, tuple[str, int, int]]:
        """Each good's best offer on the map and the best price at any other location (0: none): (location, price,
        price elsewhere). A good's best price but at one location is one of the two prices."""
        found: dict[str, tuple[str, int, int]] = {}
        for loc in self.placed:
            for d in loc["demands"]:
                good, price = d["good"], d["price"]
                best = found.get(good)
                if best is None:
                    found[good] = (loc["id"], price, 0)
                elif price > best[1]:
                    found[good] = (loc["id"], price, best[1])
                elif price > best[2]:
                    found[good] = (best[0], best[1], price)
        return found

    @once
    def roads(self) -> dict[str, dict]:
        """Each location's cell with the road features of its alternate side."""
        return {loc["cell"]: loc["roads"] for loc in self.placed}

    @once
    def room(self) -> int:
        return self.me["capacity"] - sum(self.me["cargo"].values())

    def here(self) -> dict | None:
        return self.at_cell.get(self.me["cell"])

    def best_price(self, good: str, exclude: str | None = None) -> int:
        """The best price of the good at a location on the map (but `exclude`), 0 where none demands it."""
        best = self.prices.get(good)
        if best is None:
            return 0
        return best[1] if best[0] != exclude else best[2]

    def road_charges(self, route: tuple[str, ...]) -> int:
        """The cash the road features on the way cost (tolls; weigh stations by the crates above their limit), read
        from the alternate sides shown in the view, as the referee charges them."""
        return self.drive(route)[1]

    def drive(self, route: tuple[str, ...]) -> tuple[str, int]:
        """Where the route from the truck's cell ends and its road charges, each worked out from its route but the
        last step (the routes weighed share their first steps)."""
        if route not in self.charges:
            if route:
                cell, charges = self.drive(route[:-1])
                end = step(cell, route[-1])
                self.charges[route] = end, charges + edge_charge(self.view, self.me, cell, route[-1], end, self.roads)
            else:
                self.charges[route] = self.me["cell"], 0
        return self.charges[route]

    def cheapest_order(self, words: tuple[str, ...]) -> tuple[str, ...]:
        """A route as driven: for `move (e e n in any order)` the ordering whose road charges are lowest."""
        if words not in self.orders:
            self.orders[words] = min(sorted(set(permutations(words))), key=self.road_charges)
        return self.orders[words]

    def destination_value(self, cell: str) -> float:
        if cell not in self.destinations:
            self.destinations[cell] = destination_value(self, cell)
        return self.destinations[cell]

    def loadable_anywhere(self, good: str, bills: int) -> int:
        """The most crates of `good` these bills would load at one location of the map: at the locations that
        take as many bills a crate, what the one with most crates would load."""
        if (good, bills) not in self.loads:
            self.loads[good, bills] = max(
                (min(crates, self.room, bills // rate) for rate, crates in self.supply(good).items()), default=0)
        return self.loads[good, bills]

    def supply(self, good: str) -> dict[int, int]:
        """The most crates of the good at one location of the map by the bills a crate costs there (1 where the
        good is native, 2 elsewhere)."""
        if good not in self.supplies:
            most: dict[int, int] = {}
            for loc in self.placed:
                rate = 1 if good == loc["native"] else 2
                most[rate] = max(most.get(rate, 0), loc["crates"].get(good, 0))
            self.supplies[good] = most
        return self.supplies[good]


def cards_to_discard(sight: Sight) -> list[str]:
    keep = [c for c in sight.hand if worth_keeping(sight, c)]
    if sight.me["money"] == 0 and not any(c in sight.fuel for c in keep):
        keep = keep[:2]  # broke and no fuel: the truck cannot move until new cards come, so let most go
    rest = list(sight.hand)
    for card in keep:
        rest.remove(card)
    return sorted(rest)


def worth_keeping(sight: Sight, card: str) -> bool:
    """A forced discard keeps the bills that unload the cargo and the smallest fuel cards (they pay any short
    move); everything else goes, so that new cards come in: a truck stuck with the wrong cards stays stuck."""
    if card in sight.fuel:
        return sight.fuel[card] == min(sight.fuel.values())
    return sight.me["cargo"].get(card, 0) > 0


def loadable(sight: Sight, loc: dict, good: str) -> int:
    rate = 1 if good == loc["native"] else 2
    return min(loc["crates"].get(good, 0), sight.room, sight.hand.count(good) // rate)


def sale_value(sight: Sight, loc: dict) -> int:
    space = sight.view["location_capacity"] - sum(loc["crates"].values())
    return max((min(sight.me["cargo"].get(d["good"], 0), sight.hand.count(d["good"]), space) * d["price"]
                for d in loc["demands"]), default=0)


def load_value(sight: Sight, loc: dict) -> float:
    return max((loadable(sight, loc, good) * sight.best_price(good, exclude=loc["id"]) * 0.4
                for good in loc["crates"]), default=0.0)


def destination_value(sight: Sight, cell: str) -> float:
    loc = sight.at_cell.get(cell)
    if loc is not None:
        return max(sale_value(sight, loc), load_value(sight, loc))
    me = sight.me
    stop = next((u for u in sight.view["upgrades"] if u["cell"] == cell), None)
    if stop and stop["owner"] is None and me["upgrade"] is None and me["money"] >= stop["cost"] + 3:
        return 3.0
    return 0.0


@lru_cache(maxsize=4096)
def step(cell: str, direction: str) -> str:
    row, col = cell_coords(cell)
    dr, dc = DIRECTIONS[direction]
    return cell_name(row + dr, col + dc)


def edge_charge(view: dict, me: dict, cell: str, direction: str, nxt: str, roads: dict[str, dict]) -> int:
    """The road charge of the edge from `cell` to `nxt` (`roads`: each location's cell with its road features)."""
    feature = roads.get(cell, {}).get(direction) or roads.get(nxt, {}).get(OPPOSITE[direction])
    if feature and feature in view["road_features"]:
        spec = view["road_features"][feature]
        return spec["toll"] + (max(0, sum(me["cargo"].values()) - spec["per_crate_above"])
                               if spec["per_crate_above"] is not None else 0)
    return 0


def score(sight: Sight, entry: dict) -> float:
    action, me = entry["action"], sight.me
    if action == "move":
        route = entry["route"]
        route = sight.cheapest_order(tuple(route["from"])) if isinstance(route, dict) else tuple(route)
        driving = 0.5 * len(route) if sight.fuel_in_hand >= len(route) else len(route)
        end, charges = sight.drive(route)
        cost = charges + driving
        return sight.destination_value(end) - cost
    if action in ("fuel", "mixed"):
        return 10 - len(entry["cards"]) - (5 if action == "mixed" else 0)
    if action == "cash":
        return 4
    if action == "buy":
        cost = next(u["cost"] for u in sight.view["upgrades"] if u["id"] == entry["upgrade"])
        return 1 if me["money"] >= cost + 2 else -1
    if action == "unload":
        price = next(d["price"] for d in sight.here()["demands"] if d["good"] == entry["good"])
        return 100 + price * entry["crates"]["max"]
    if action == "load":
        return 50 + sight.best_price(entry["good"], exclude=sight.here()["id"]) * entry["crates"]["max"]
    if action in ("take", "salvage"):
        return card_value(sight, entry["card"])
    if action == "draw":
        return 1
    return 0  # pass, discard, tow, towed, place, stop: whatever is left


def card_value(sight: Sight, card: str) -> float:
    """A bill to unload cargo with is worth most, then fuel when short of it, then bills that make a load possible
    (or bigger) for a well-paid good."""
    if card in sight.fuel:
        return 3 if sight.fuel_in_hand < 3 else 0
    held = sight.hand.count(card)
    if sight.me["cargo"].get(card, 0) > held:
        return 4 + sight.best_price(card) / 10
    gain = sight.loadable_anywhere(card, held + 1) - sight.loadable_anywhere(card, held)
    return gain * sight.best_price(card) / 2
