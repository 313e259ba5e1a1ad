"""The greedy coal baron: decides from the mover's view alone (their pit, their money, what is on the board), never
the state.

It plays for the orders: it drafts and takes orders it can fill from the cubes in its pit, mines to fill them (the
cubes at hand first, then the levels whose carts hold what is missing, two spare cubes for a spot no cart can
fill), delivers every complete order at once, buys a tile when an order needs a colour its pit lacks, and takes
money when it has nothing better to do. It takes no new order it could not fill before the end. Ties are broken by
`rnd`, so a game is the same for the same `rnd`.
"""
from __future__ import annotations

import random

from pbem.bots import instantiate

SURFACE = 0
EXTRA_WORKER = 6    # what one more worker on a space costs, in the same points as the rest of the scoring
KEPT_WORKER = 4     # what a worker kept by passing is worth for a later round of the shift (phase cards)
CAGE_CAPACITY = 5   # the cage's size in the published game (not in the view; only the bot's plans use it)


def choose(view: dict, legal: list[dict], rnd: random.Random) -> dict:
    me = Seat(view)
    return CHOOSERS[view["to_act"]["decision"]](me, legal, rnd)


class Seat:
    """What the mover knows of their own position, read from their view."""

    def __init__(self, view: dict):
        self.view = view
        self.name = view["private"]["player"]
        self.money = view["private"]["money"]
        self.pit = next(p for p in view["pits"] if p["player"] == self.name)
        self.workers = next(p["workers"] for p in view["players"] if p["name"] == self.name)
        self.known: dict[str, object] = {}  # what a decision works out once of the view (it does not change)

    def once(self, name: str, work):
        """`work(self)` worked out once a decision: a bot weighs many moves against the same pit and board (the
        value is shared: callers that change it copy it first)."""
        if name not in self.known:
            self.known[name] = work(self)
        return self.known[name]

    def space(self, name: str) -> dict:
        """The board's space of that name."""
        return self.once("board", lambda me: {space["space"]: space for space in me.view["board"]})[name]

    @property
    def late(self) -> bool:
        """Too late to fill a new order: the last shift, with few workers left."""
        return self.view["shift"] == self.view["shifts"] and self.workers <= 4

    def open_spots(self) -> list[tuple[dict, str]]:
        """(order, colour) for every empty spot of the outstanding orders."""
        return self.once("open_spots", lambda me: [(o, colour) for o in me.pit["orders"] if not o["complete"]
                                                   for colour, spot in zip(o["cubes"], o["spots"]) if not spot])

    def needed(self) -> dict[str, int]:
        return self.once("needed", lambda me: counted(colour for _, colour in me.open_spots()))

    def at_hand(self) -> list[str]:
        """Cube tokens that can go onto an order now or after a ride up: the cage's and the storage's."""
        return self.once("at_hand", lambda me: list(me.pit["cage"]["cubes"])
                         + ["stored-" + c for c in me.pit["storage"]])

    def at_hand_colours(self) -> dict[str, int]:
        return self.once("at_hand_colours", lambda me: counted(colour_of(token) for token in me.at_hand()))

    def in_carts(self) -> dict[str, int]:
        return self.once("in_carts", lambda me: counted(cube for tunnel in me.pit["tunnels"]
                                                        for cube in tunnel["loads"] if cube))

    def missing(self) -> dict[str, int]:
        """Needed colours beyond what the cage, the storage and the carts hold."""
        return self.once("missing", Seat._missing)

    def _missing(self) -> dict[str, int]:
        have = self.once("cubes", Seat._cubes)
        return {c: n - have.get(c, 0) for c, n in self.needed().items() if n > have.get(c, 0)}

    def _cubes(self) -> dict[str, int]:
        """The pit's cubes by colour: the carts', then those at hand."""
        have = dict(self.in_carts())
        for colour, n in self.at_hand_colours().items():
            have[colour] = have.get(colour, 0) + n
        return have

    def still_to_bring(self) -> dict[str, int]:
        """Needed colours beyond what is at hand that the carts hold: to be loaded."""
        return self.once("still_to_bring", Seat._still_to_bring)

    def _still_to_bring(self) -> dict[str, int]:
        have, carts = self.at_hand_colours(), self.in_carts()
        bring = {c: min(n - have.get(c, 0), carts.get(c, 0)) for c, n in self.needed().items()}
        return {c: n for c, n in bring.items() if n > 0}

    def spare_at_hand(self) -> int:
        """Cubes at hand beyond what the open spots of their colour take: free for substitutions."""
        return self.once("spare_at_hand", lambda me: sum(max(0, n - me.needed().get(c, 0))
                                                         for c, n in me.at_hand_colours().items()))

    def spares_to_bring(self) -> int:
        """Spare cubes still to bring up for the spots no cube of the pit can fill (two cubes each)."""
        return max(0, 2 * sum(self.missing().values()) - self.spare_at_hand())

    def can_fill(self, cubes: list[str]) -> int:
        """How many of an order's cubes the pit could supply, after the outstanding orders take theirs."""
        have = dict(self.once("free_cubes", Seat._free_cubes))
        filled = 0
        for colour in cubes:
            if have.get(colour, 0) > 0:
                have[colour] -= 1
                filled += 1
        return filled

    def _free_cubes(self) -> dict[str, int]:
        """The pit's cubes by colour less what the outstanding orders take."""
        have = dict(self.once("cubes", Seat._cubes))
        for colour, n in self.needed().items():
            have[colour] = have.get(colour, 0) - n
        return have


def counted(items) -> dict[str, int]:
    """How many times each item comes, in the order first seen."""
    counts = {}
    for item in items:
        counts[item] = counts.get(item, 0) + 1
    return counts


def colour_of(token: str) -> str:
    return token[len("stored-"):] if token.startswith("stored-") else token


def best(scored: list[tuple[float, dict]], rnd: random.Random) -> dict:
    top = max(score for score, _ in scored)
    return rnd.choice([move for score, move in scored if score == top])


# ----------------------------------------------------------------------------------------------------------------
# Orders: the draft, a face-up order, a draw


def order_value(me: Seat, order: dict) -> float:
    """Points for the order, by what it pays per cube and how much of it the pit can fill; a transport the bot holds
    no order of is worth a little more (another majority to win at the shift scorings)."""
    cubes = order["cubes"]
    fillable = me.can_fill(cubes)
    value = order["vp"] / len(cubes) * 2 + 4 * fillable - 3 * (len(cubes) - fillable)
    mine = [o["transport"] for o in me.pit["orders"]]
    if order["transport"] not in mine:
        value += 2
    return value


def choose_draft(me: Seat, legal: list[dict], rnd: random.Random) -> dict:
    offered = {o["id"]: o for o in me.view["draft"]["revealed"]}
    return best([(order_value(me, offered[m["order"]]), m) for m in legal], rnd)


def choose_keep(me: Seat, legal: list[dict], rnd: random.Random) -> dict:
    drawn = {c["id"]: c for c in me.view["private"]["drawn"]["cards"]}
    kind = me.view["private"]["drawn"]["kind"]
    scored = []
    for move in legal:
        card = drawn.get(move["card"])
        if card is None:
            scored.append((0, move))
        elif kind == "orders":
            scored.append((order_value(me, card) - 4 if not me.late else -10, move))
        else:
            scored.append((tile_value(me, card, price(me, card)), move))
    return best(scored, rnd)


def choose_return(me: Seat, legal: list[dict], rnd: random.Random) -> dict:
    """Everything drawn goes to the bottom, in the order drawn: nothing is worth steering."""
    move = next((m for m in legal if m["action"] == "return_bottom"), legal[0])
    return {**move, "cards": list(move["cards"]["from"])}


# ----------------------------------------------------------------------------------------------------------------
# Tiles


def price(me: Seat, tile: dict) -> int:
    prices = me.once("prices", lambda me: {p["tile"]: p["pays"] for p in me.view["private"]["tile_prices"]})
    return prices.get(tile["id"], tile["cost"])


def tile_value(me: Seat, tile: dict, cost: int) -> float:
    """A tile is worth buying when an order needs its colour and the pit has none; the lit and dark sides should
    stay even (each tile of difference costs 2 VP at the end)."""
    if cost > me.money:
        return -100
    missing = me.missing().get(tile["colour"], 0)
    if not missing:
        return -5
    balance = me.pit["lit"] - me.pit["dark"]
    even = 3 if (balance > 0) == (tile["side"] == "dark") and balance else 0
    return 30 + 4 * min(missing, tile["carts"]) + even - cost


def choose_cube(me: Seat, legal: list[dict], rnd: random.Random) -> dict:
    needed = me.needed()
    return best([(needed.get(m["colour"], 0), m) for m in legal], rnd)


# ----------------------------------------------------------------------------------------------------------------
# Placing workers


def mining_value(me: Seat, steps: int) -> float:
    """Worth going down when some open spot can be filled from the pit: by a cube of its colour, or (a colour the
    pit lacks) by two spare cubes."""
    needed = me.needed()
    if not needed:
        return -5
    reachable = sum(needed.values()) - sum(me.missing().values())
    spares = len(me.at_hand()) + sum(me.in_carts().values()) - reachable
    at_hand = me.spare_at_hand() >= 2 and steps >= 3  # up (if need be) and a substitution
    if not reachable and not at_hand and (spares < 2 or steps < 6):
        return -5
    return 35 + 3 * min(steps, 2 * reachable + 2) + 2 * reachable


def place_value(me: Seat, move: dict) -> float:
    if move["action"] == "pass":
        return 0
    if move["action"] == "overplace":
        return -50
    space = me.space(move["space"])
    cost = EXTRA_WORKER * (space["needs"] - 1)
    kind = space["kind"]
    if kind == "delivery":
        ready = [o for o in me.pit["orders"] if o["complete"] and o["transport"] == space["transport"]]
        return 100 + sum(o["vp"] + 3 * len(o["cubes"]) for o in ready) - cost if ready else -100
    if kind == "mining":
        return mining_value(me, space["steps"]) - cost
    if kind == "factory":
        return tile_value(me, space["tile"], price(me, space["tile"])) - cost if space["tile"] else -100
    if kind == "order":
        if me.late or not space["order"] or len(me.open_spots()) > 6:
            return -10
        return 20 + order_value(me, space["order"]) - cost
    if kind == "order-draw":
        return (8 if not me.late and len(me.open_spots()) <= 2 else -10) - cost
    if kind == "factory-draw":
        return (6 if me.missing() and me.money >= 4 else -10) - cost
    amount = space["amount"]
    return (3 * amount if me.money < 8 else amount) - cost


def worker_cost(me: Seat, move: dict) -> float:
    """In a phase-card round a pass keeps the workers for a later round of the shift: a placement must be worth the
    workers it takes. (Without the phase cards nobody may pass, so nothing is kept.)"""
    if me.view["to_act"]["decision"] != "place_or_pass" or move["action"] != "place":
        return 0
    space = me.space(move["space"])
    return KEPT_WORKER * space["needs"]


def choose_place(me: Seat, legal: list[dict], rnd: random.Random) -> dict:
    scored = [(place_value(me, m) - worker_cost(me, m), m) for m in legal]
    move = best(scored, rnd)
    return instantiate(move, rnd)


def choose_pick(me: Seat, legal: list[dict], rnd: random.Random) -> dict:
    """The phase card of the domain the bot would rather play in now (by its best space there)."""
    cards = {b["card"]: b["domain"] for b in me.view["phase"]["bonuses"]}
    wanted = {}
    for space in me.view["board"]:
        value = place_value(me, {"action": "place", "space": space["space"]})
        wanted[space["domain"]] = max(wanted.get(space["domain"], -1000), value)
    return best([(wanted.get(cards[m["card"]], -1000), m) for m in legal], rnd)


# ----------------------------------------------------------------------------------------------------------------
# Mining: one step at a time


def fill_order(me: Seat, orders: list[str]) -> str:
    """Of the orders a cube may go on, the one nearest completion (fewest open spots), then the richest."""
    by_id = {o["id"]: o for o in me.pit["orders"]}
    return min(orders, key=lambda o: (sum(1 for s in by_id[o]["spots"] if not s), -by_id[o]["vp"]))


def choose_mine(me: Seat, legal: list[dict], rnd: random.Random) -> dict:
    steps = me.view["to_act"]["steps_left"]
    cage = me.pit["cage"]
    by_action = {}
    for move in legal:
        by_action.setdefault(move["action"], []).append(move)
    fills = by_action.get("fill", [])
    if fills:  # a cube at hand onto an order: always the best use of a step
        move = fills[0]
        return {**move, "order": [fill_order(me, move["order"]["from"] if isinstance(move["order"], dict)
                                             else move["order"])]}
    if cage["level"] == SURFACE:
        return surface_step(me, by_action, steps, rnd)
    return underground_step(me, by_action, steps)


def substitute_spot(me: Seat, by_action: dict) -> dict | None:
    """Two spare cubes for a spot no cart of the pit can fill (a colour missing from the pit)."""
    missing = me.missing()
    spare = len(me.at_hand()) - sum(me.needed().get(colour_of(t), 0) > 0 for t in me.at_hand())
    for move in by_action.get("substitute", []):
        if missing.get(move["spot"]) and spare >= 2:
            orders = move["order"]["from"] if isinstance(move["order"], dict) else move["order"]
            return {**move, "order": [fill_order(me, orders)]}
    return None


def surface_step(me: Seat, by_action: dict, steps: int, rnd: random.Random) -> dict:
    substitute = substitute_spot(me, by_action)
    if substitute:
        return substitute
    target = best_level(me)
    if target is not None and steps >= 2:
        if len(me.pit["cage"]["cubes"]) >= CAGE_CAPACITY and by_action.get("store"):
            return by_action["store"][0]  # a full cage of spare cubes: make room
        return {"action": "cage", "level": target}
    return {"action": "end"}


def best_level(me: Seat) -> int | None:
    """The level whose carts hold most of the cubes still to bring up; else, when spare cubes must come up for a
    substitution, the level with most cubes (the cheapest colour on a tie)."""
    bring = me.still_to_bring()
    counts = {}
    for tunnel in me.pit["tunnels"]:
        for cube in tunnel["loads"]:
            if cube and (bring.get(cube) or not bring and me.spares_to_bring()):
                counts[tunnel["level"]] = counts.get(tunnel["level"], 0) + 1
    if counts:
        return max(sorted(counts), key=lambda level: counts[level])
    return None


def underground_step(me: Seat, by_action: dict, steps: int) -> dict:
    cage = me.pit["cage"]
    needed_in_cage = sum(1 for c in cage["cubes"] if me.needed().get(c))
    if needed_in_cage and steps <= needed_in_cage + 1:
        return {"action": "cage", "level": SURFACE}  # up now, to put what the cage holds on the orders
    bring = me.still_to_bring()
    wanted = [m for m in by_action.get("load", []) if bring.get(m["colour"])]
    if not wanted and not bring and me.spares_to_bring():
        wanted = by_action.get("load", [])  # spare cubes for a substitution: the cheapest first
    if wanted:
        return wanted[0]
    target = best_level(me)
    if target not in (None, cage["level"]) and len(cage["cubes"]) < CAGE_CAPACITY and steps > needed_in_cage + 2:
        return {"action": "cage", "level": target}
    if needed_in_cage or me.missing() and me.spare_at_hand() >= 2 and steps >= 3:
        return {"action": "cage", "level": SURFACE}  # to put cubes on orders, or two spares on a spot
    return {"action": "end"}


def choose_substitutes(me: Seat, legal: list[dict], rnd: random.Random) -> dict:
    """The two cubes least needed elsewhere: the cheapest spare ones first."""
    form = legal[0]["cubes"]
    needed = dict(me.needed())
    ranked = sorted(enumerate(form["from"]), key=lambda item: (needed.get(colour_of(item[1]), 0) > 0, item[0]))
    return {**legal[0], "cubes": [token for _, token in ranked[:form["min"]]]}


def resigned(view: dict, legal: list[dict]) -> dict | None:
    """A resigned seat's move (rules.md): the phase card whose bonus is nothing (orders), so no one loses a card
    they want; leading a phase round, never a money space while anything else is legal (a money round leaves the
    others nothing but banks and passes): a free mining space with the fewest steps first (the round's domain is
    then one every player may play in, and no worker is displaced), then any other free space, then the fewest
    workers displaced. Else the first legal move (`bank-1` in the base game: it never blocks a space), and `pass`
    wherever passing is legal (pbem.bots)."""
    decision = view["to_act"]["decision"]
    if decision == "pick_phase_card":
        cards = {b["card"]: b["domain"] for b in view["phase"]["bonuses"]}
        return next((m for m in legal if cards.get(m["card"]) == "orders"), None)
    if decision == "place_workers" and view.get("phase"):
        board = {space["space"]: space for space in view["board"]}
        places = [m for m in legal if m["action"] == "place"]
        return min(places, key=lambda m: least_disturbing(board[m["space"]])) if places else None
    return None


def least_disturbing(space: dict) -> tuple:
    """How much a placement leading a phase round changes the others' round, least first: a money round, then
    workers displaced, then a domain other than mining, then workers spent and steps."""
    return (space["domain"] == "money", len(space["workers"]), space["kind"] != "mining", space["needs"],
            space.get("steps") or 0, space["space"])


CHOOSERS = {
    "draft_orders": choose_draft,
    "pick_phase_card": choose_pick,
    "place_workers": choose_place,
    "place_or_pass": choose_place,
    "mine": choose_mine,
    "choose_substitutes": choose_substitutes,
    "keep_tile": choose_keep,
    "keep_order": choose_keep,
    "return_tiles": choose_return,
    "return_orders": choose_return,
    "choose_cube": choose_cube,
}
