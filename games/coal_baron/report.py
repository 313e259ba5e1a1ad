"""Coal Baron's part of a text report, built only from a view (so nothing hidden can be printed).

Players, the board (spaces with their workers and the face-up tiles and orders), then each pit drawn as the
physical board lies: lit tunnels left of the shaft, dark ones right, the cage in the shaft, storage and orders at
the surface. The viewer's own money, delivered orders, drawn cards and tile prices come from the view's `private`
part, which only they get; other players' delivered orders lie face down, but for what the shift scorings showed.
"""
from __future__ import annotations

from pbem.tables import table

EMPTY = "-"


def render(view: dict, viewer: str | None) -> str:
    private = view.get("private")
    parts = [headline(view), players_table(view, private)]
    if view["draft"]:
        parts.append("Order draft, revealed:\n" + orders_table(view["draft"]["revealed"]))
    if view["phase"]:
        parts.append(phase_text(view["phase"]))
    prices = {price["tile"]: price["pays"] for price in private["tile_prices"]} if private else {}
    parts.append("Board:\n" + board_table(view, prices))
    parts.append(supply_text(view))
    pits = sorted(view["pits"], key=lambda pit: pit["player"] != viewer)  # the viewer's own pit first
    parts += [pit_text(pit, private["delivered"] if private and pit["player"] == viewer else None) for pit in pits]
    if private and private["drawn"]:
        parts.append(drawn_text(private["drawn"], prices))
    if view["awards"]:
        parts.append("Shift scoring:\n" + awards_table(view["awards"]))
    return "\n\n".join(parts) + "\n"


def headline(view):
    text = f"Shift {view['shift']} of {view['shifts']}, start player {view['start_player']}"
    act = view["to_act"]
    if view["over"]:
        text += "; the game is over"
    elif act:
        text += f"; {act['player']} to act ({act['decision'].replace('_', ' ')}"
        if act["steps_left"] is not None:
            text += f", {act['steps_left']} work steps left"
        if act["drawn"] is not None:
            text += f", {act['drawn']} cards drawn"
        text += ")"
    options = ", ".join(f"{k}={v}" for k, v in view["options"].items() if v != "off")
    return text + (f"\nOptions: {options}" if options else "")


def players_table(view, private):
    rows = []
    for p in view["players"]:
        money = private["money"] if private and private["player"] == p["name"] else "hidden"
        rows.append([p["name"], p["vp"], p["workers"], p["canteen"], p["orders"], p["delivered"], money])
    return table(rows, headers=["player", "VP", "workers", "canteen", "orders", "delivered", "money"],
                    tablefmt="simple")


def workers_text(workers):
    if not workers:
        return EMPTY
    counts = {}
    for p in workers:
        counts[p] = counts.get(p, 0) + 1
    return ", ".join(f"{p} x{n}" for p, n in counts.items())


def tile_text(tile, prices=None):
    """A tile with its printed cost, and what the viewer pays when a phase card makes it cheaper for them."""
    text = f"{tile['id']} {tile['colour']} {tile['side']} {tile['carts']} cart{'s' if tile['carts'] > 1 else ''}, " \
           f"cost {tile['cost']}"
    if prices and tile["id"] in prices:
        text += f" (you pay {prices[tile['id']]})"
    return text


def order_text(order):
    return f"{order['id']} {order['transport']} {order['vp']} VP: {' '.join(order['cubes'])}"


def board_table(view, prices):
    rows = []
    for space in view["board"]:
        offer = (tile_text(space["tile"], prices) if space["tile"]
                 else order_text(space["order"]) if space["order"] else "")
        if not offer and space["kind"] in ("factory", "order"):
            offer = "(empty)"
        rows.append([space["space"], workers_text(space["workers"]), space["needs"], offer])
    return table(rows, headers=["space", "workers", "needs", "on offer"], tablefmt="simple")


def supply_text(view):
    supply = ", ".join(f"{c} {n}" for c, n in view["supply"].items())
    return f"Decks: {view['decks']['tiles']} tiles, {view['decks']['orders']} orders.  Cube supply: {supply}"


def phase_text(phase):
    cards = ", ".join(f"{c['player']}: {c['card']}" for c in phase["cards"]) or "none yet"
    domain = phase["domain"] or "not chosen yet"
    passed = ", ".join(phase["passed"]) or "nobody"
    return f"Phase round: leader {phase['leader']}, domain {domain}; phase cards {cards}; passed: {passed}"


def carts_text(tunnel):
    loads = ",".join(c if c else EMPTY for c in tunnel["loads"])
    return f"{tunnel['id']}[{loads}]"


def pit_text(pit, own_delivered=None):
    """`own_delivered`: the viewer's own delivered orders (face down, but they know them); None for another pit."""
    levels = {}
    for tunnel in pit["tunnels"]:
        levels.setdefault(tunnel["level"], {"colour": tunnel["colour"], "lit": [], "dark": []})
        levels[tunnel["level"]][tunnel["side"]].append(carts_text(tunnel))
    cage = pit["cage"]
    cage_text = "cage[" + ",".join(cage["cubes"]) + "]"
    rows = [["0 surface", "storage: " + (" ".join(pit["storage"]) or EMPTY),
             cage_text if cage["level"] == 0 else "|", ""]]
    for level in sorted(levels):
        row = levels[level]
        rows.append([f"{level} {row['colour']}", " ".join(row["lit"]) or EMPTY,
                     cage_text if cage["level"] == level else "|", " ".join(row["dark"]) or EMPTY])
    text = f"Pit of {pit['player']} (lit tiles {pit['lit']}, dark tiles {pit['dark']}):\n"
    text += table(rows, headers=["level", "lit (left)", "shaft", "dark (right)"], tablefmt="simple")
    if pit["orders"]:
        text += "\nOutstanding orders:\n" + table(
            [[o["id"], o["transport"], o["vp"], spots_text(o), "yes" if o["complete"] else "no"]
             for o in pit["orders"]], headers=["order", "transport", "VP", "spots", "complete"], tablefmt="simple")
    if own_delivered:
        text += "\nDelivered (face down): " + "; ".join(order_text(o) for o in own_delivered)
    elif pit["delivered"]:
        text += f"\nDelivered: {pit['delivered']} face down"
        if pit["shown"]:
            text += "; shown at the shift scorings: " + "; ".join(
                f"{order_text(o)} (shift {o['shift']})" for o in pit["shown"])
    return text


def spots_text(order):
    """Each printed colour with what fills it: the cube, two substitute cubes joined by +, or - when open."""
    return " ".join(f"{colour}:{'+'.join(spot) if spot else EMPTY}" for colour, spot in zip(order["cubes"],
                                                                                         order["spots"]))


def drawn_text(drawn, prices):
    if drawn["kind"] == "tiles":
        lines = [tile_text(t, prices) for t in drawn["cards"]]
    else:
        lines = [order_text(o) for o in drawn["cards"]]
    return "Drawn for you alone:\n  " + "\n  ".join(lines)


def orders_table(orders):
    return table([[o["id"], o["transport"], o["vp"], " ".join(o["cubes"])] for o in orders],
                    headers=["order", "transport", "VP", "cubes"], tablefmt="simple")


def awards_table(awards):
    return table([[a["shift"], a["category"], a["player"], "1st" if a["place"] == 1 else "2nd", a["vp"]]
                     for a in awards], headers=["shift", "category", "player", "place", "VP"], tablefmt="simple")


# ----------------------------------------------------------------------------------------------------------------
# What one legal move does, for `pbem moves` (from the mover's view only)


def describe(view: dict, move: dict) -> str:
    """A short phrase: the card a move takes, what it costs and what it gains; "" when the move says it all."""
    private = view.get("private")
    mover = private["player"] if private else view["to_act"]["player"]
    describer = DESCRIBERS.get(move["action"])
    return clip(describer(view, mover, move)) if describer else ""


def clip(text, width=72):
    """At most `width` characters, cut at a word."""
    return text if len(text) <= width else text[:width - 2].rsplit(" ", 1)[0].rstrip(",;:") + " …"


def cubes_text(cubes):
    """`2 black`, `yellow + brown + grey + black`."""
    counts = {}
    for cube in cubes:
        counts[cube] = counts.get(cube, 0) + 1
    return " + ".join(f"{n} {c}" if n > 1 else c for c, n in counts.items())


def order_brief(order):
    return f"{order['transport']}, {order['vp']} VP for {cubes_text(order['cubes'])}"


def tile_brief(tile, prices=None):
    cost = prices.get(tile["id"], tile["cost"]) if prices else tile["cost"]
    carts = f"{tile['carts']} cart{'s' if tile['carts'] > 1 else ''}"
    return f"{tile['colour']} {tile['side']} tile, {carts}, costs {cost}"


def own_pit(view, mover):
    return next(pit for pit in view["pits"] if pit["player"] == mover)


def tile_prices(view):
    private = view.get("private")
    return {price["tile"]: price["pays"] for price in private["tile_prices"]} if private else {}


def bonus_of(view, mover, domain):
    """The phase card's bonus the mover gets on an action of that domain this round (0 without one)."""
    phase = view["phase"]
    if not phase or phase["domain"] not in (None, domain):
        return 0
    card = next((c["card"] for c in phase["cards"] if c["player"] == mover), None)
    return next((b["amount"] for b in phase["bonuses"] if b["card"] == card and b["domain"] == domain), 0)


def describe_draft(view, mover, move):
    order = next(o for o in view["draft"]["revealed"] if o["id"] == move["order"])
    return order_brief(order)


PHASE_BONUS = {"factory": "tiles cost {n} less", "mining": "{n} more work step(s)",
               "delivery": "{n} more VP per delivery", "money": "{n} more money per bank action",
               "orders": "no bonus"}


def describe_pick(view, mover, move):
    bonus = next(b for b in view["phase"]["bonuses"] if b["card"] == move["card"])
    gain = PHASE_BONUS[bonus["domain"]].format(n=bonus["amount"]) if bonus["amount"] else "none"
    return f"bonus in {bonus['domain']} rounds: {gain}"


def workers_cost(space):
    """`1 worker`, `3 workers, displace dan's 2` (bank 1 stacks: it needs 1 and displaces nobody). A space
    holds the workers of one player only, but bank 1."""
    needs = space["needs"]
    text = f"{needs} worker{'s' if needs > 1 else ''}"
    if space["workers"] and needs == len(space["workers"]) + 1:
        text += f", displace {space['workers'][0]}'s {len(space['workers'])}"
    return text


def space_gain(view, mover, space):
    kind = space["kind"]
    if kind == "bank":
        return f"+{space['amount'] + bonus_of(view, mover, 'money')} money"
    if kind == "mining":
        return f"{space['steps'] + bonus_of(view, mover, 'mining')} work steps"
    if kind == "delivery":
        ready = [o for o in own_pit(view, mover)["orders"] if o["complete"] and o["transport"] == space["transport"]]
        vp = sum(o["vp"] for o in ready) + bonus_of(view, mover, "delivery")
        return f"deliver {' '.join(o['id'] for o in ready)}: {vp} VP"
    if kind == "order":
        return f"take {space['order']['id']}: {order_brief(space['order'])}"
    if kind == "factory":
        return f"buy {space['tile']['id']}: {tile_brief(space['tile'], tile_prices(view))}"
    what = "tiles" if kind == "factory-draw" else "orders"
    return f"draw {what} (deck {view['decks'][what]}), keep one or none"


def describe_place(view, mover, move):
    space = next(s for s in view["board"] if s["space"] == move["space"])
    return f"{space_gain(view, mover, space)} ({workers_cost(space)})"


def describe_overplace(view, mover, move):
    return "2 or more workers on a free space: displacing them costs that + 1"


def describe_pass(view, mover, move):
    return "out of this phase round"


def describe_cage(view, mover, move):
    if move["level"] == 0:
        return "up to the surface, to store cubes or put them on orders"
    tunnels = [t for t in own_pit(view, mover)["tunnels"] if t["level"] == move["level"]]
    loads = [c for t in tunnels for c in t["loads"] if c]
    colour = f", {tunnels[0]['colour']}" if tunnels else ""
    return f"down to level {move['level']}{colour}: {len(loads)} cube{'s' if len(loads) != 1 else ''} in its carts"


def describe_load(view, mover, move):
    return f"a {move['colour']} cube from a cart into the cage"


def describe_store(view, mover, move):
    return f"a {move['colour']} cube from the cage into storage"


def completes(view, mover, orders, spots=1):
    """Which of these orders one more filled spot completes."""
    pit = own_pit(view, mover)
    return [o["id"] for o in pit["orders"] if o["id"] in orders and sum(1 for s in o["spots"] if not s) == spots]


def completion(view, mover, orders):
    """`; completes o12 (lorry, 4 VP)` when the cube completes the order (one of them, for a choice)."""
    ids = orders["from"] if isinstance(orders, dict) else orders
    done = completes(view, mover, ids)
    if not done:
        return ""
    if len(ids) == 1:
        order = next(o for o in own_pit(view, mover)["orders"] if o["id"] == ids[0])
        return f"; completes {order['id']} ({order['transport']}, {order['vp']} VP)"
    return "; completes " + ", ".join(done)


def describe_fill(view, mover, move):
    source = "storage" if move["cube"].startswith("stored-") else "the cage"
    return f"1 step, a cube from {source}" + completion(view, mover, move["order"])


def describe_substitute(view, mover, move):
    return f"2 steps: any 2 cubes fill one {move['spot']} spot" + completion(view, mover, move["order"])


def describe_cubes(view, mover, move):
    return "the two cubes for the spot, from the cage at the surface or storage"


def describe_end(view, mover, move):
    left = view["to_act"]["steps_left"]
    return f"stop mining, losing {left} step{'s' if left != 1 else ''}"


def describe_keep(view, mover, move):
    drawn = view["private"]["drawn"] if view.get("private") else None
    if move["card"] == "none":
        return "keep nothing: every card drawn goes back"
    if not drawn:
        return ""  # not the mover's view: the cards drawn are not in it
    card = next(c for c in drawn["cards"] if c["id"] == move["card"])
    return tile_brief(card, tile_prices(view)) if drawn["kind"] == "tiles" else order_brief(card)


def describe_return(view, mover, move):
    where = "on top of the deck, drawn next" if move["action"] == "return_top" else "at the bottom of the deck"
    return f"{where}, in the order you write them"


def describe_cube(view, mover, move):
    return f"a {move['colour']} cube for the empty cart ({view['supply'][move['colour']]} in the supply)"


DESCRIBERS = {
    "draft": describe_draft, "pick": describe_pick, "place": describe_place, "overplace": describe_overplace,
    "pass": describe_pass, "cage": describe_cage, "load": describe_load, "store": describe_store,
    "fill": describe_fill, "substitute": describe_substitute, "cubes": describe_cubes, "end": describe_end,
    "keep": describe_keep, "return_top": describe_return, "return_bottom": describe_return, "cube": describe_cube,
}


# ----------------------------------------------------------------------------------------------------------------
# What a queued move means (pbem.play.guards): read when it is queued and again when its turn comes; a change stops
# the queue. Only what other players can change is said: what a space needs and gives, the order a pick takes.


def meaning(view: dict, move: dict) -> str:
    """What a move would cost and give the viewer now, in words that change only when the move would do something
    else ("" when its words say it all, or the view shows nothing it would take)."""
    mover = view["private"]["player"]
    space = next((s for s in view["board"] if s["space"] == move.get("space")), None)
    if move["action"] == "place" and space is not None:
        gain = "draw and keep one or none" if space["kind"] in ("factory-draw", "order-draw") else \
            space_gain(view, mover, space)
        return f"{gain} ({workers_cost(space)})"
    if move["action"] == "draft" and view["draft"]:
        order = next((o for o in view["draft"]["revealed"] if o["id"] == move["order"]), None)
        return order_brief(order) if order else ""
    if move["action"] == "pick" and view["phase"]:
        return describe_pick(view, mover, move)
    return ""
