"""The Great Heartland Hauling Co.'s part of a text report, built only from a view (so nothing hidden can be
printed): the map drawn as a grid, the players, the cards on the table, the viewer's own hand; and `describe`,
a short phrase for each legal move built from the mover's view.

Each space of the map is a box: a location shows its name, its crates (the native good starred), the goods it
demands with their price, and the trucks parked there; a truck stop shows its upgrade. Road features of the
alternate-route side are drawn on the edge they guard: X closed road, W weigh station, $ toll road.
"""
from __future__ import annotations

import textwrap

from pbem.tables import table

from .phases.board import DIRECTIONS, OPPOSITE, cell_coords, cell_name, route_end

INNER = 13  # characters inside a box: five columns of the map fit in 78
MAP_COLUMNS = 5  # a wider map (the truck stops add columns) is printed in parts of at most five columns
LINES = 4   # lines inside a box
EDGE_MARK = {"closed": "X", "weigh": "W", "toll": "$"}


def render(view: dict, viewer: str | None) -> str:
    parts = [headline(view), map_parts(view), legend(view), players_table(view)]
    if any(loc["cell"] is None for loc in view["locations"]):
        placing = view["to_act"] and view["to_act"]["decision"] == "place_location"
        title = "Removed, to be placed next to the map" if placing else "Not in this game"
        parts.append(f"{title}:\n" + removed_table(view))
    if view["upgrades"]:
        parts.append("Truck-stop upgrades:\n" + upgrades_table(view))
    parts.append(cards_text(view))
    private = view.get("private")
    if private:
        parts.append(f"Your hand ({private['player']}): {', '.join(private['hand']) or 'empty'}")
    return "\n\n".join(parts) + "\n"


def headline(view: dict) -> str:
    text = f"Race to ${view['money_goal']}; start player {view['start_player']}"
    end = view["end"]
    if end["triggered_by"]:
        text += f"; {end['triggered_by']} reached ${view['money_goal']}: the last turn is {end['last_player']}'s"
    if view["over"]:
        text += "; the game is over"
    elif view["to_act"]:
        act = view["to_act"]
        text += f"; {act['player']} to act ({DECISION_WORDS[act['decision']]}"
        if act["route"]:
            text += f", route {' '.join(act['route'])}"
        text += ")"
    turn = view["turn"]
    if turn and turn["towed"]:
        text += f"\n{turn['player']} was towed to the centre this turn."
    options = ", ".join(f"{k}={v}" for k, v in view["options"].items()
                        if v not in ("off", "standard") and (k, v) not in USUAL_READINGS)
    return text + (f"\nOptions: {options}" if options else "")


# What each decision is, in the headline's words (a decision's name is the game's, not the players')
DECISION_WORDS = {"place_location": "placing a removed location", "place_truck_stop": "placing a truck stop",
                  "drive": "driving", "pay": "paying for the route", "buy_upgrade": "buying an upgrade",
                  "act": "loading, unloading or discarding", "refill": "refilling the hand"}


# The rulings every new game plays by: an option line names only what differs from them.
USUAL_READINGS = {("returned-locations", "random"), ("removed-next-to", "location")}


# ---------------------------------------------------------------- the map


def short_names(view: dict) -> dict[str, str]:
    """Two letters a good (so, co, ca, pi), or the whole id where two would be alike."""
    ids = [g["id"] for g in view["goods"]]
    short = {g: g[:2] for g in ids}
    if len(set(short.values())) < len(ids):
        return {g: g for g in ids}
    return short


def spaces(view: dict) -> dict[str, list[str]]:
    """The lines inside each box, by cell."""
    short = short_names(view)
    trucks = {}
    for p in view["players"]:
        trucks.setdefault(p["cell"], []).append(p["name"])
    centre = view["centre"]["cell"]
    boxes = {centre: [view["centre"]["name"], "(centre)", "", truck_line(trucks, centre)]}
    for loc in view["locations"]:
        if loc["cell"] is None:
            continue
        crates = " ".join(("*" if good == loc["native"] else "") + f"{short[good]}{n}"
                          for good, n in sorted(loc["crates"].items(), key=lambda kv: kv[0] != loc["native"]))
        demands = " ".join(f"{short[d['good']]}${d['price']}" for d in loc["demands"])
        name = alternate_mark(loc["name"]) if loc["side"] == "alternate" else loc["name"]
        boxes[loc["cell"]] = [name, crates or f"*{short[loc['native']]}0", demands, truck_line(trucks, loc["cell"])]
    for upgrade in view["upgrades"]:
        if upgrade["cell"]:
            price = "sold" if upgrade["owner"] else f"${upgrade['cost']}"  # to whom: the upgrades' table
            name = textwrap.wrap(upgrade["name"], INNER)[:2]
            boxes[upgrade["cell"]] = [f"STOP {price}", *name, *[""] * (2 - len(name)),
                                      truck_line(trucks, upgrade["cell"])]
    return boxes


def alternate_mark(name: str) -> str:
    """`^` after the name of a location showing its alternate-route side, inside the box."""
    return f"{name} ^" if len(name) + 2 <= INNER else f"{name[:INNER - 1]}^"


def truck_line(trucks: dict[str, list[str]], cell: str) -> str:
    """The trucks parked on a space, as many names as fit and a count of the rest."""
    names = trucks.get(cell, [])
    for shown in range(len(names), 0, -1):
        text = " ".join(names[:shown]) + (f" +{len(names) - shown}" if shown < len(names) else "")
        if len(text) <= INNER:
            return text
    return f"{len(names)} trucks" if names else ""


def edge_features(view: dict) -> dict[tuple[str, str], str]:
    """(cell, direction) -> feature, both ways round."""
    found = {}
    for loc in view["locations"]:
        if loc["cell"] is None:
            continue
        for direction, feature in loc["roads"].items():
            row, col = cell_coords(loc["cell"])
            dr, dc = DIRECTIONS[direction]
            if 0 <= row + dr < view["frame"]["rows"] and 0 <= col + dc < view["frame"]["cols"]:
                found[(loc["cell"], direction)] = feature
                found[(cell_name(row + dr, col + dc), OPPOSITE[direction])] = feature
    return found


def map_parts(view: dict) -> str:
    """The map under its title; a map wider than MAP_COLUMNS columns in parts, west to east."""
    boxes = spaces(view)
    columns = sorted({cell_coords(c)[1] for c in boxes})
    first, last = columns[0], columns[-1]
    if last - first < MAP_COLUMNS:
        return "Map (north up):\n" + map_text(view, boxes)
    parts = []
    for left in range(first, last + 1, MAP_COLUMNS):
        right = min(left + MAP_COLUMNS - 1, last)
        part = {cell: lines for cell, lines in boxes.items() if left <= cell_coords(cell)[1] <= right}
        if part:
            parts.append(f"Map (north up), columns {cell_name(0, left)[0]} to {cell_name(0, right)[0]}:\n"
                         + map_text(view, part))
    return "\n\n".join(parts)


def map_text(view: dict, boxes: dict[str, list[str]]) -> str:
    coords = [cell_coords(c) for c in boxes]
    top, bottom = min(r for r, _ in coords), max(r for r, _ in coords)
    left, right = min(c for _, c in coords), max(c for _, c in coords)
    width, height = (right - left + 1) * (INNER + 1) + 1, (bottom - top + 1) * (LINES + 1) + 1
    canvas = [[" "] * width for _ in range(height)]
    features = edge_features(view)
    for cell, lines in boxes.items():
        row, col = cell_coords(cell)
        y, x = (row - top) * (LINES + 1), (col - left) * (INNER + 1)
        draw_box(canvas, y, x)
        for i, line in enumerate(lines):
            for j, char in enumerate(line[:INNER]):
                canvas[y + 1 + i][x + 1 + j] = char
        for direction in ("e", "s", "w", "n"):
            feature = features.get((cell, direction))
            if feature:
                mark_edge(canvas, y, x, direction, feature)
    labels = "   " + "".join(f" {cell_name(0, c)[0]:<{INNER}}" for c in range(left, right + 1))
    rows = [labels]
    for i, chars in enumerate(canvas):
        grid_row = top + (i - 1) // (LINES + 1)
        label = f"{grid_row + 1:>2} " if i % (LINES + 1) == 1 else "   "
        rows.append((label + "".join(chars)).rstrip())
    return "\n".join(rows)


def draw_box(canvas: list[list[str]], y: int, x: int) -> None:
    for j in range(x, x + INNER + 2):
        for yy in (y, y + LINES + 1):
            canvas[yy][j] = "+" if j in (x, x + INNER + 1) else "-"
    for i in range(y + 1, y + LINES + 1):
        canvas[i][x] = canvas[i][x + INNER + 1] = "|"


def mark_edge(canvas: list[list[str]], y: int, x: int, direction: str, feature: str) -> None:
    mark = EDGE_MARK[feature]
    if direction in ("e", "w"):
        column = x + INNER + 1 if direction == "e" else x
        for i in range(y + 1, y + LINES + 1):
            canvas[i][column] = mark
    else:
        line = y + LINES + 1 if direction == "s" else y
        for j in range(x + 1, x + INNER + 1):
            canvas[line][j] = mark


def legend(view: dict) -> str:
    short = short_names(view)
    goods = ", ".join(f"{short[g['id']]} {g['id']} ({g['colour']}, -${g['penalty']} a crate left at the end)"
                      for g in view["goods"])
    text = (f"Goods: {goods}.\nIn a box: the crates there (*: the native good, 1 bill a crate to load, 2 for the "
            f"others), then the goods demanded with their price (pi$3: $3 a crate of pigs), then the trucks.")
    if any(loc["side"] == "alternate" for loc in view["locations"]):
        charges = view["road_features"]
        text += (f"\n^: alternate-route side. Edges: X {charges['closed']['name']}, W {charges['weigh']['name']} "
                 f"($1 a crate above {charges['weigh']['per_crate_above']}), $ {charges['toll']['name']} "
                 f"(${charges['toll']['toll']}), entering or leaving that way.")
    return text


# ---------------------------------------------------------------- tables


def place_name(view: dict, cell: str) -> str:
    if cell == view["centre"]["cell"]:
        return view["centre"]["name"]
    loc = next((x for x in view["locations"] if x["cell"] == cell), None)
    if loc:
        return loc["name"]
    stop = next((u for u in view["upgrades"] if u["cell"] == cell), None)
    return f"truck stop {stop['name']}" if stop else cell


def crates_text(crates: dict) -> str:
    return ", ".join(f"{n} {good}" for good, n in crates.items()) or "-"


def players_table(view: dict) -> str:
    rows = [[p["name"], f"${p['money']}", f"{p['cell']} {place_name(view, p['cell'])}",
             f"{crates_text(p['cargo'])} ({sum(p['cargo'].values())}/{p['capacity']})", p["hand"],
             upgrade_name(view, p["upgrade"])] for p in view["players"]]
    return table(rows, headers=["player", "money", "truck at", "cargo", "cards", "upgrade"], tablefmt="simple")


def upgrade_name(view: dict, upgrade: str | None) -> str:
    if upgrade is None:
        return "-"
    return next(u["name"] for u in view["upgrades"] if u["id"] == upgrade)


def removed_table(view: dict) -> str:
    rows = [[loc["id"], loc["name"], loc["native"], ", ".join(f"{d['good']} ${d['price']}" for d in loc["demands"])]
            for loc in view["locations"] if loc["cell"] is None]
    return table(rows, headers=["location", "name", "native", "demands"], tablefmt="simple")


def upgrades_table(view: dict) -> str:
    rows = [[u["id"], u["name"], f"${u['cost']}", u["text"], u["cell"] or ("carried" if u["owner"] else "to place"),
             u["owner"] or "-"] for u in view["upgrades"]]
    return table(rows, headers=["upgrade", "name", "cost", "once a turn", "cell", "owner"], tablefmt="simple")


def cards_text(view: dict) -> str:
    face_up = ", ".join(view["face_up"]) or "none"
    pile = ", ".join(f"{n} {card}" for card, n in sorted(view["discard"].items())) or "empty"
    return f"Face up: {face_up}.  Deck: {view['deck']} cards.  Discard pile: {pile}."


# ---------------------------------------------------------------- describing a legal move


def describe(view: dict, move: dict) -> str:
    """A short phrase for one legal-move entry (forms included), from the mover's view or the public one (the
    mover is then the player to act): it reads only what both show."""
    mover = view["private"]["player"] if "private" in view else view["to_act"]["player"]
    me = next(p for p in view["players"] if p["name"] == mover)
    action = move["action"]
    if action == "place":
        loc = next(x for x in view["locations"] if x["id"] == move["location"])
        return f"{loc['name']}: {loc['native']}; wants " + ", ".join(
            f"{d['good']} ${d['price']}" for d in loc["demands"])
    if action in ("stop", "buy"):
        upgrade = next(u for u in view["upgrades"] if u["id"] == move["upgrade"])
        return f"{upgrade['name']}, ${upgrade['cost']}: {upgrade['text']}"
    if action == "move":
        return describe_route(view, me, move["route"])
    if action == "tow":
        return "no move you can pay for: towed to the centre, then discard"
    if action in ("cash", "fuel", "mixed"):
        return describe_payment(view, me, move)
    if action in ("load", "unload"):
        return describe_crates(view, me, move)
    if action == "discard":
        return describe_discard(view, me)
    if action == "towed":
        return "nothing to load or unload and no money: towed, discard for free"
    if action == "draw":
        return f"the top card of the deck ({view['deck']} left)" if view["deck"] else \
            "the deck is empty: the discard pile is shuffled into a new one"
    if action == "take":
        return f"the face-up {move['card']}, replaced from the deck at once"
    if action == "salvage":
        return f"a {move['card']} from the discard pile (Load Board)"
    return ""


def describe_route(view: dict, me: dict, route) -> str:
    words = route["from"] if isinstance(route, dict) else route
    end = route_end(me["cell"], words)
    text = f"to {place_name(view, end)} ({end}), {len(words)} space{'s' if len(words) > 1 else ''}"
    if not isinstance(route, dict):
        charges = road_charges(view, me, words)
        if charges:
            text += f", ${charges} road charges"
    return text


def road_charges(view: dict, me: dict, route: list[str]) -> int:
    features, cell, total = edge_features(view), me["cell"], 0
    crates = sum(me["cargo"].values())
    for direction in route:
        feature = features.get((cell, direction))
        if feature:
            spec = view["road_features"][feature]
            total += spec["toll"] + (max(0, crates - spec["per_crate_above"]) if spec["per_crate_above"] is not None
                                     else 0)
        cell = route_end(cell, [direction])
    return total


def describe_payment(view: dict, me: dict, move: dict) -> str:
    route = view["to_act"]["route"] or []
    charges = road_charges(view, me, route)
    extra = f" + ${charges} road charges" if charges else ""
    if move["action"] == "cash":
        free = owned_amount(view, me, "free-spaces")
        return f"${max(0, len(route) - free)} for {len(route)} spaces{extra}"
    values = {f["id"]: f["spaces"] for f in view["fuel"]}
    worth = sum(values[c] for c in move["cards"])
    if move["action"] == "fuel":
        return f"fuel worth {worth} space{'s' if worth > 1 else ''}{extra}"
    return f"fuel worth {worth}, the rest in cash{extra}"


def owned_amount(view: dict, me: dict, effect: str) -> int:
    owned = owned_upgrade(view, me)
    return (owned["amount"] or 0) if owned and owned["effect"] == effect else 0


def owned_upgrade(view: dict, me: dict) -> dict | None:
    return next((u for u in view["upgrades"] if u["id"] == me["upgrade"]), None)


def describe_crates(view: dict, me: dict, move: dict) -> str:
    loc = next(x for x in view["locations"] if x["cell"] == me["cell"])
    good, most = move["good"], move["crates"]["max"] if isinstance(move["crates"], dict) else move["crates"]
    owned = owned_upgrade(view, me)
    if move["action"] == "load":
        rate = 1 if good == loc["native"] or (owned and owned["effect"] == "native-rate") else 2
        return f"{good} bill{'s' if rate > 1 else ''} x{rate} a crate; up to {most} of {loc['crates'][good]} here"
    price = next(d["price"] for d in loc["demands"] if d["good"] == good)
    if owned and owned["effect"] == "unload-bonus" and good in owned["goods"]:
        price += owned["amount"]
    return f"${price} a crate, 1 {good} bill each; up to {most} crates, ${price * most}"


def describe_discard(view: dict, me: dict) -> str:
    owned = owned_upgrade(view, me)
    if owned and owned["effect"] == "free-discard":
        return "any of your cards, free (Dispatcher)"
    if me["money"] == 0:
        return "any of your cards, free: you are broke and must discard"
    return "any of your cards, for $1"
