"""The Great Heartland Hauling Co.'s part of a text report, built only from a view (so nothing hidden can be
printed): the map drawn as a grid, the players, the cards on the table, the viewer's own hand; and `describe`,
a short phrase for each legal move built from the mover's view. In the language being read: its messages in
locale/, the names of its goods, places, upgrades and words in glossary.yaml (docs/translating.md).

Each space of the map is a box: a location shows its name, its crates (the native good starred), the goods it
demands with their price, and the trucks parked there; a truck stop shows its upgrade. Road features of the
alternate-route side are drawn on the edge they guard: X closed road, W weigh station, $ toll road.
"""
from __future__ import annotations

from pbem.messages import NP_, joined
from pbem.tables import table, width, wrap

from .phases.board import DIRECTIONS, OPPOSITE, cell_coords, cell_name, route_end
from .texts.names import (T, _, cards_shown, centre_name, dollars, feature_name, good_name, location_name, named,
                          ngettext, upgrade_text, upgrade_title)

INNER = 13  # columns inside a box: five columns of the map fit in 78
MAP_COLUMNS = 5  # a wider map (the truck stops add columns) is printed in parts of at most five columns
LINES = 4   # lines inside a box
EDGE_MARK = {"closed": "X", "weigh": "W", "toll": "$"}
# What the headline calls each decision (the names of meta.yaml `decisions`)
# What each decision is, in the headline's words (a decision's name is the game's, not the players')
DECISIONS = {"place_location": NP_("decision", "placing a removed location"),
             "place_truck_stop": NP_("decision", "placing a truck stop"), "drive": NP_("decision", "driving"),
             "pay": NP_("decision", "paying for the route"), "buy_upgrade": NP_("decision", "buying an upgrade"),
             "act": NP_("decision", "loading, unloading or discarding"),
             "refill": NP_("decision", "refilling the hand")}


# ---------------------------------------------------------------- the report


def render(view: dict, viewer: str | None) -> str:
    parts = [headline(view), map_parts(view), legend(view), players_table(view)]
    if any(loc["cell"] is None for loc in view["locations"]):
        placing = view["to_act"] and view["to_act"]["decision"] == "place_location"
        title = _("Removed, to be placed next to the map:") if placing else _("Not in this game:")
        parts.append(title + "\n" + removed_table(view))
    if view["upgrades"]:
        parts.append(_("Truck-stop upgrades:") + "\n" + upgrades_table(view))
    parts.append(cards_text(view))
    private = view.get("private")
    if private:
        parts.append(_("Your hand ({player}): {cards}", player=private["player"],
                       cards=cards_shown(private["hand"]) or _("empty")))
    return "\n\n".join(parts) + "\n"


def headline(view: dict) -> str:
    common = {"goal": view["money_goal"], "player": view["start_player"]}
    text = _("Race to ${goal}; start player {player}", **common)
    end = view["end"]
    if end["triggered_by"]:
        text = _("{headline}; {player} reached ${goal}: the last turn is {last}'s", headline=text,
                 player=end["triggered_by"], goal=view["money_goal"], last=end["last_player"])
    if view["over"]:
        text = _("{headline}; the game is over", headline=text)
    elif view["to_act"]:
        act = view["to_act"]
        doing = T.stored(DECISIONS.get(act["decision"], act["decision"]), "decision")
        if act["route"]:
            doing = _("{decision}, route {route}", decision=doing, route=T.words(" ".join(act["route"])))
        text = _("{headline}; {player} to act ({decision})", headline=text, player=act["player"], decision=doing)
    turn = view["turn"]
    if turn and turn["towed"]:
        text += "\n" + _("{player} was towed to the centre this turn.", player=turn["player"])
    options = ", ".join(f"{k}={v}" for k, v in view["options"].items()
                        if v not in ("off", "standard") and (k, v) not in USUAL_READINGS)
    return text + ("\n" + _("Options: {options}", options=options) if options else "")


# The rulings every new game plays by: an option line names only what differs from them.
USUAL_READINGS = {("returned-locations", "random"), ("removed-next-to", "location")}


# ---------------------------------------------------------------- the map


def short_names(view: dict) -> dict[str, str]:
    """Two columns a good, from its name in the language being read (so, co, ca, pi; so, ma, bé, po; 黃, 玉, 牛,
    豬), or the whole name where two would be alike."""
    names = {g["id"]: good_name(g["id"]) for g in view["goods"]}
    short = {good: clipped(name, 2) for good, name in names.items()}
    if len(set(short.values())) < len(names):
        return names
    return short


# The marks around a message in the pseudo-locale of the tests (pbem.text.pseudo): they take no room in a box, and a
# name cut to fit keeps them balanced
OPEN, CLOSE = "⟦", "⟧"


def seen_width(text: str) -> int:
    """The columns a text takes in a box (a Chinese character two, a pseudo-locale's mark none)."""
    return width(text.replace(OPEN, "").replace(CLOSE, ""))


def clipped(text: str, columns: int) -> str:
    """The start of a text that fits `columns` columns of a box, its marks closed."""
    kept, used = [], 0
    for char in text:
        if char not in (OPEN, CLOSE):
            used += width(char)
            if used > columns:
                break
        kept.append(char)
    cut = "".join(kept)
    return cut + CLOSE * (cut.count(OPEN) - cut.count(CLOSE))


def spaces(view: dict) -> dict[str, list[str]]:
    """The lines inside each box, by cell."""
    short = short_names(view)
    trucks = {}
    for p in view["players"]:
        trucks.setdefault(p["cell"], []).append(p["name"])
    centre = view["centre"]["cell"]
    boxes = {centre: [centre_name(view), _("(centre)"), "", truck_line(trucks, centre)]}
    for loc in view["locations"]:
        if loc["cell"] is None:
            continue
        crates = " ".join(("*" if good == loc["native"] else "") + f"{short[good]}{n}"
                          for good, n in sorted(loc["crates"].items(), key=lambda kv: kv[0] != loc["native"]))
        demands = " ".join(f"{short[d['good']]}${d['price']}" for d in loc["demands"])
        name = alternate_mark(location_name(loc)) if loc["side"] == "alternate" else location_name(loc)
        boxes[loc["cell"]] = [name, crates or f"*{short[loc['native']]}0", demands, truck_line(trucks, loc["cell"])]
    for upgrade in view["upgrades"]:
        if upgrade["cell"]:
            price = _("sold") if upgrade["owner"] else dollars(upgrade["cost"])  # to whom: the upgrades' table
            name = wrap(upgrade_title(upgrade), INNER, break_long_words=True)[:2]
            boxes[upgrade["cell"]] = [_("STOP {price}", price=price), *name, *[""] * (2 - len(name)),
                                      truck_line(trucks, upgrade["cell"])]
    return boxes


def alternate_mark(name: str) -> str:
    """`^` after the name of a location showing its alternate-route side, inside the box."""
    return f"{name} ^" if seen_width(name) + 2 <= INNER else f"{clipped(name, INNER - 1)}^"


def truck_line(trucks: dict[str, list[str]], cell: str) -> str:
    """The trucks parked on a space, as many names as fit and a count of the rest."""
    names = trucks.get(cell, [])
    for shown in range(len(names), 0, -1):
        text = " ".join(names[:shown]) + (f" +{len(names) - shown}" if shown < len(names) else "")
        if width(text) <= INNER:
            return text
    return ngettext("{count} truck", "{count} trucks", len(names), count=len(names)) if names else ""


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
        return _("Map (north up):") + "\n" + map_text(view, boxes)
    parts = []
    for left in range(first, last + 1, MAP_COLUMNS):
        right = min(left + MAP_COLUMNS - 1, last)
        part = {cell: lines for cell, lines in boxes.items() if left <= cell_coords(cell)[1] <= right}
        if part:
            parts.append(_("Map (north up), columns {first} to {last}:", first=cell_name(0, left)[0],
                           last=cell_name(0, right)[0]) + "\n" + map_text(view, part))
    return "\n\n".join(parts)


def map_text(view: dict, boxes: dict[str, list[str]]) -> str:
    coords = [cell_coords(c) for c in boxes]
    top, bottom = min(r for r, _ in coords), max(r for r, _ in coords)
    left, right = min(c for _, c in coords), max(c for _, c in coords)
    across, height = (right - left + 1) * (INNER + 1) + 1, (bottom - top + 1) * (LINES + 1) + 1
    canvas = [[" "] * across for _row in range(height)]
    features = edge_features(view)
    for cell, lines in boxes.items():
        row, col = cell_coords(cell)
        y, x = (row - top) * (LINES + 1), (col - left) * (INNER + 1)
        draw_box(canvas, y, x)
        for i, line in enumerate(lines):
            write(canvas[y + 1 + i], x + 1, line)
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


def write(row: list[str], x: int, line: str) -> None:
    """A line into a box, cut to INNER columns: a character two columns wide (Chinese) takes its cell and the
    next, which is left empty; a pseudo-locale's mark goes with the character beside it."""
    at, opening = x, ""
    for char in clipped(line, INNER):
        if char == OPEN:
            opening += char
        elif char == CLOSE:
            row[at - 1 if row[at - 1] else at - 2] += char
        else:
            row[at] = opening + char
            opening = ""
            if width(char) == 2:
                row[at + 1] = ""
            at += width(char)


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
    goods = joined(_("{short} {good} ({colour}, -${penalty} a crate left at the end)", short=short[g["id"]],
                     good=good_name(g["id"]), colour=named("colour", g["colour"]), penalty=g["penalty"])
                   for g in view["goods"])
    example = view["goods"][-1]["id"]
    text = _("Goods: {goods}.", goods=goods) + "\n" + _(
        "In a box: the crates there (*: the native good, 1 bill a crate to load, 2 for the others), then the goods "
        "demanded with their price ({example}: ${price} a crate of {good}), then the trucks.",
        example=f"{short[example]}$3", price=3, good=good_name(example))
    if any(loc["side"] == "alternate" for loc in view["locations"]):
        charges = view["road_features"]
        text += "\n" + _("^: alternate-route side. Edges: X {closed}, W {weigh} ($1 a crate above {above}), $ {toll} "
                         "(${toll_cost}), entering or leaving that way.", closed=feature_name(view, "closed"),
                         weigh=feature_name(view, "weigh"), above=charges["weigh"]["per_crate_above"],
                         toll=feature_name(view, "toll"), toll_cost=charges["toll"]["toll"])
    return text


# ---------------------------------------------------------------- tables


def place_name(view: dict, cell: str) -> str:
    if cell == view["centre"]["cell"]:
        return centre_name(view)
    loc = next((x for x in view["locations"] if x["cell"] == cell), None)
    if loc:
        return location_name(loc)
    stop = next((u for u in view["upgrades"] if u["cell"] == cell), None)
    return _("truck stop {name}", name=upgrade_title(stop)) if stop else cell


def crates_text(crates: dict) -> str:
    """`pigs 2, corn 1`: each good's crates, the count after the good's name (the notation's word, a plural), so
    that no word must agree with a count of 1."""
    # TRANSLATORS: a truck's crates of one good: {good} the good's name (its notation word), {count} how many.
    return joined(_("{good} {count}", count=n, good=good_name(good)) for good, n in crates.items()) or "-"


def players_table(view: dict) -> str:
    rows = [[p["name"], dollars(p["money"]), f"{p['cell']} {place_name(view, p['cell'])}",
             f"{crates_text(p['cargo'])} ({sum(p['cargo'].values())}/{p['capacity']})", p["hand"],
             upgrade_name(view, p["upgrade"])] for p in view["players"]]
    return table(rows, headers=[_("player"), T.term("word", "money"), _("truck at"), _("cargo"), _("cards"),
                                T.term("word", "upgrade")], tablefmt="simple")


def upgrade_name(view: dict, upgrade: str | None) -> str:
    if upgrade is None:
        return "-"
    return upgrade_title(next(u for u in view["upgrades"] if u["id"] == upgrade))


def removed_table(view: dict) -> str:
    rows = [[T.words(loc["id"]), location_name(loc), good_name(loc["native"]),
             joined(_("{good} ${price}", good=good_name(d["good"]), price=d["price"]) for d in loc["demands"])]
            for loc in view["locations"] if loc["cell"] is None]
    return table(rows, headers=[_("location"), _("name"), _("native"), _("demands")], tablefmt="simple")


def upgrades_table(view: dict) -> str:
    """The upgrades in the game: the word a move names each by, its name where that reads otherwise (a club's own
    card), its cost and effect, where it is and who owns it."""
    upgrades = view["upgrades"]
    titled = any(fold_name(T.words(u["id"])) != fold_name(upgrade_title(u)) for u in upgrades)
    rows = [[T.words(u["id"]), *([upgrade_title(u)] if titled else []), dollars(u["cost"]), upgrade_text(u),
             u["cell"] or (_("carried") if u["owner"] else _("to place")), u["owner"] or "-"] for u in upgrades]
    return table(rows, headers=[T.term("word", "upgrade"), *([_("name")] if titled else []), _("cost"),
                                _("once a turn"), _("cell"), _("owner")], tablefmt="simple")


def fold_name(name: str) -> str:
    """A name as a move's word and a card's title are compared: `jerry-can` is Jerry Can."""
    return name.replace("-", " ").casefold()


def cards_text(view: dict) -> str:
    face_up = cards_shown(view["face_up"]) or _("none")
    pile = joined(_("{count} {card}", count=n, card=T.words(card)) for card, n in sorted(view["discard"].items()))
    return ngettext("Face up: {cards}.  Deck: {count} card.  Discard pile: {pile}.",
                    "Face up: {cards}.  Deck: {count} cards.  Discard pile: {pile}.", view["deck"], cards=face_up,
                    count=view["deck"], pile=pile or _("empty"))


# ---------------------------------------------------------------- describing a legal move


def describe(view: dict, move: dict) -> str:
    """A short phrase for one legal-move entry (forms included), from the mover's view or the public one (the
    mover is then the player to act): it reads only what both show."""
    mover = view["private"]["player"] if "private" in view else view["to_act"]["player"]
    me = next(p for p in view["players"] if p["name"] == mover)
    action = move["action"]
    if action == "place":
        loc = next(x for x in view["locations"] if x["id"] == move["location"])
        return _("{location}: {native}; wants {demands}", location=location_name(loc), native=good_name(loc["native"]),
                 demands=joined(_("{good} ${price}", good=good_name(d["good"]), price=d["price"])
                                for d in loc["demands"]))
    if action in ("stop", "buy"):
        upgrade = next(u for u in view["upgrades"] if u["id"] == move["upgrade"])
        return _("{upgrade}, ${cost}: {text}", upgrade=upgrade_title(upgrade), cost=upgrade["cost"],
                 text=upgrade_text(upgrade))
    if action == "move":
        return describe_route(view, me, move["route"])
    if action in ("cash", "fuel", "mixed"):
        return describe_payment(view, me, move)
    if action in ("load", "unload"):
        return describe_crates(view, me, move)
    if action == "discard":
        return describe_discard(view, me)
    if action == "draw":
        return _("the top card of the deck ({count} left)", count=view["deck"]) if view["deck"] else \
            _("the deck is empty: the discard pile is shuffled into a new one")
    if action == "take":
        return _("the face-up {card}, replaced from the deck at once", card=T.words(move["card"]))
    if action == "salvage":
        owned = owned_upgrade(view, me)  # (the one that lets its owner salvage)
        return _("a {card} from the discard pile ({upgrade})", card=T.words(move["card"]),
                 upgrade=upgrade_title(owned) if owned else named("upgrade", "load-board", "Load Board"))
    return T.stored(FIXED[action], "move") if action in FIXED else ""


# The moves whose phrase says nothing of the position
FIXED = {"tow": NP_("move", "no move you can pay for: towed to the centre, then discard"),
         "towed": NP_("move", "nothing to load or unload and no money: towed, discard for free"),
         "pass": NP_("move", "keep your money: no upgrade")}


def describe_route(view: dict, me: dict, route) -> str:
    words = route["from"] if isinstance(route, dict) else route
    end = route_end(me["cell"], words)
    text = ngettext("to {place} ({cell}), {count} space", "to {place} ({cell}), {count} spaces", len(words),
                    place=place_name(view, end), cell=end, count=len(words))
    if not isinstance(route, dict):
        charges = road_charges(view, me, words)
        if charges:
            text = _("{route}, ${charges} road charges", route=text, charges=charges)
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
    if move["action"] == "cash":
        free = owned_amount(view, me, "free-spaces")
        text = ngettext("${cost} for {count} space", "${cost} for {count} spaces", len(route),
                        cost=max(0, len(route) - free), count=len(route))
    else:
        values = {f["id"]: f["spaces"] for f in view["fuel"]}
        worth = sum(values[c] for c in move["cards"])
        if move["action"] == "fuel":
            text = ngettext("fuel worth {count} space", "fuel worth {count} spaces", worth, count=worth)
        else:
            text = _("fuel worth {count}, the rest in cash", count=worth)
    return _("{payment} + ${charges} road charges", payment=text, charges=charges) if charges else text


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
        return ngettext("{good} bill x{rate} a crate; up to {most} of {here} here",
                        "{good} bills x{rate} a crate; up to {most} of {here} here", rate, good=good_name(good),
                        rate=rate, most=most, here=loc["crates"][good])
    price = next(d["price"] for d in loc["demands"] if d["good"] == good)
    if owned and owned["effect"] == "unload-bonus" and good in owned["goods"]:
        price += owned["amount"]
    return ngettext("${price} a crate, 1 {good} bill each; up to {most} crate, ${total}",
                    "${price} a crate, 1 {good} bill each; up to {most} crates, ${total}", most, price=price,
                    good=good_name(good), most=most, total=price * most)


def describe_discard(view: dict, me: dict) -> str:
    owned = owned_upgrade(view, me)
    if owned and owned["effect"] == "free-discard":
        return _("any of your cards, free ({upgrade})", upgrade=upgrade_title(owned))
    if me["money"] == 0:
        return _("any of your cards, free: you are broke and must discard")
    return _("any of your cards, for $1")
