"""The Great Heartland Hauling Co.'s picture, drawn from a view only: the map's grid, north up, each location with
its crates (the native good ringed), the goods it demands with their price and the trucks parked there; truck
stops with their upgrade and its owner; the centre; the road features of the alternate-route side on the edges
they guard. Then the players (money, cargo, cards, upgrade), the cards on the table and the viewer's own hand.
Its words are the report's messages and the glossary's names, in the language being read."""
from __future__ import annotations

from pbem.messages import joined
from pbem.tables import width

from .phases.board import cell_coords, cell_name
from .report import edge_features, short_names, upgrade_name
from .texts.names import (T, _, centre_name, dollars, feature_name, good_name, location_name, named, ngettext,
                          pgettext, upgrade_title)

CELL_W, CELL_H, GAP = 124, 96, 8
GOOD_FILLS = {"green": "#009e73", "yellow": "#f0e442", "black": "#1a1a1a", "pink": "#cc79a7", "red": "#d55e00",
              "blue": "#0072b2", "orange": "#e69f00", "brown": "#8b5a2b", "white": "#ffffff"}
EDGE = {"closed": ("#1a1a1a", "X"), "weigh": ("#e69f00", "W"), "toll": ("#56b4e9", "$")}
SECONDARY = "#555555"
CRATE = 17  # a good's mark: wide enough for its two letters at the smallest type
DEMAND = 48  # from one demanded good to the next: room for its price as any language writes it (4 元, 4 $)


def draw(view: dict, viewer: str | None, sheet) -> None:
    short = short_names(view)
    goods = {g["id"]: (GOOD_FILLS.get(g["colour"], "#999999"), short[g["id"]].capitalize()[:2],
                       _("{good} ({colour}, -${penalty} a crate left)", good=good_name(g["id"]),
                         colour=named("colour", g["colour"]), penalty=g["penalty"])) for g in view["goods"]}
    bottom, right = map_drawing(view, goods, sheet, 0, 0)
    y = players_table(view, goods, sheet, 0, bottom + 16)
    y = cards(view, goods, sheet, 0, y + 12)
    if view.get("private"):
        hand(view, goods, sheet, 0, y + 12)


def good(sheet, goods, x, y, good_id, size=CRATE, native=False):
    fill, letter, words = goods[good_id]
    if native:
        sheet.circle(x, y, size * 0.75, fill="#ffffff", stroke="#1a1a1a", width=1.2)
        sheet.key(("ring",), _("ringed: the native good (1 bill a crate)"))
    sheet.piece(x, y, fill, letter, size=size)
    sheet.key(("piece", fill, letter), words)


def box_at(cell, top, left):
    row, col = cell_coords(cell)
    return (col - left) * (CELL_W + GAP), 30 + (row - top) * (CELL_H + GAP)  # below the columns' letters


def map_drawing(view, goods, sheet, x0, y0):
    sheet.text(x0, y0 + 12, _("Map (north up)"), size=13, bold=True)
    centre = view["centre"]["cell"]
    located = [loc for loc in view["locations"] if loc["cell"]]
    stops = [u for u in view["upgrades"] if u["cell"]]
    cells = [centre] + [loc["cell"] for loc in located] + [u["cell"] for u in stops]
    coords = [cell_coords(c) for c in cells]
    top, left = min(r for r, _ in coords), min(c for _, c in coords)
    bottom, right = max(r for r, _ in coords), max(c for _, c in coords)
    for col in range(left, right + 1):
        sheet.text(x0 + 22 + (col - left) * (CELL_W + GAP) + CELL_W / 2, y0 + 30, cell_name(0, col)[0], size=10,
                   anchor="middle", fill=SECONDARY)
    for row in range(top, bottom + 1):
        sheet.text(x0 + 6, y0 + 20 + 30 + (row - top) * (CELL_H + GAP) + CELL_H / 2, row + 1, size=10,
                   anchor="middle", fill=SECONDARY)
    ox, oy = x0 + 22, y0 + 20  # room on the left for the rows' numbers and a road feature on the first column
    trucks = {}
    for p in view["players"]:
        trucks.setdefault(p["cell"], []).append(p["name"])
    x, y = box_at(centre, top, left)
    sheet.rect(ox + x, oy + y, CELL_W, CELL_H, fill="#e6e0f0", rx=4, width=2)
    sheet.text(ox + x + 5, oy + y + 14, centre_name(view), size=10, bold=True)
    sheet.text(ox + x + 5, oy + y + 28, _("(centre)"), size=10, fill=SECONDARY)
    for loc in located:
        x, y = box_at(loc["cell"], top, left)
        location_box(loc, goods, sheet, ox + x, oy + y)
    for stop in stops:
        x, y = box_at(stop["cell"], top, left)
        sheet.rect(ox + x, oy + y, CELL_W, CELL_H, fill="#fff3d6", rx=4, dash="5 3")
        sheet.text(ox + x + 5, oy + y + 14, _("TRUCK STOP"), size=10, bold=True)
        sheet.text(ox + x + 5, oy + y + 29, upgrade_title(stop), size=10)
        if stop["owner"]:
            sheet.text(ox + x + 5, oy + y + 46, _("sold to"), size=10)
            sheet.token(stop["owner"], ox + x + 57, oy + y + 42, 8)
        else:
            sheet.text(ox + x + 5, oy + y + 46, dollars(stop["cost"]), size=10)
    for cell, names in trucks.items():
        if cell:
            x, y = box_at(cell, top, left)
            for i, name in enumerate(names):
                truck(sheet, name, ox + x + 16 + i * 29, oy + y + CELL_H - 13)
    for (cell, direction), feature in edge_features(view).items():
        if direction in ("e", "s"):
            x, y = box_at(cell, top, left)
            edge(sheet, feature, feature_name(view, feature), direction, ox + x, oy + y)
    # (a road feature on the edge of an empty cell may lie past the locations: the sheet's extent holds it)
    return max(oy + (bottom - top + 1) * (CELL_H + GAP), sheet.height), ox + (right - left + 1) * (CELL_W + GAP)


def location_box(loc, goods, sheet, x, y):
    sheet.rect(x, y, CELL_W, CELL_H, fill="#f4f1ea", rx=4)
    sheet.text(x + 5, y + 14, location_name(loc) + (" ^" if loc["side"] == "alternate" else ""), size=10, bold=True)
    if loc["side"] == "alternate":
        sheet.key(("glyph", "^"), _("alternate-route side"))
    crates = sorted(loc["crates"].items(), key=lambda kv: kv[0] != loc["native"])
    if not crates:
        crates = [(loc["native"], 0)]
    for i, (good_id, n) in enumerate(crates):
        native = good_id == loc["native"]
        cx = x + 17 + i * 38 + (4 if i else 0)  # (the native good's ring comes first)
        good(sheet, goods, cx, y + 32, good_id, native=native)
        sheet.text(cx + (15 if native else 11), y + 36, f"×{n}", size=10)
    for i, demand in enumerate(loc["demands"]):
        good(sheet, goods, x + 15 + i * DEMAND, y + 58, demand["good"], size=CRATE)
        sheet.text(x + 26 + i * DEMAND, y + 62, dollars(demand["price"]), size=10, bold=True)


def truck(sheet, player, x, y):
    """A truck: the player's mark on a little lorry body, so it reads as a truck and as that player."""
    sheet.rect(x - 13, y - 8, 26, 15, fill=sheet.seat_colour(player), stroke="#1a1a1a", rx=2)
    sheet.token(player, x, y - 1, 7)


def edge(sheet, feature: str, name: str, direction: str, x: float, y: float) -> None:
    """A road feature on the east or south edge of the location box at (x, y), its name in the legend."""
    fill, letter = EDGE[feature]
    if direction == "e":
        cx, cy = x + CELL_W + GAP / 2, y + CELL_H / 2
        sheet.rect(cx - 3, y + 4, 6, CELL_H - 8, fill=fill, stroke=fill)
    else:
        cx, cy = x + CELL_W / 2, y + CELL_H + GAP / 2
        sheet.rect(x + 4, cy - 3, CELL_W - 8, 6, fill=fill, stroke=fill)
    sheet.piece(cx, cy, fill, letter, size=14, shape="circle")
    sheet.key(("piece", fill, letter), name)


def players_table(view, goods, sheet, x, y):
    columns = [(_("player"), 0), (T.term("word", "money"), 130), (_("truck at"), 185), (_("cargo"), 260),
               (_("cards"), 480), (T.term("word", "upgrade"), 530)]
    for head, dx in columns:
        sheet.text(x + dx, y + 12, head, bold=True)
    y += 16
    for player in view["players"]:
        y += 24
        sheet.token(player["name"], x + 9, y - 4)
        sheet.text(x + 22, y, player["name"])
        sheet.text(x + 130, y, dollars(player["money"]))
        sheet.text(x + 185, y, player["cell"] or "-")
        cx = x + 269
        for good_id, n in player["cargo"].items():
            for _crate in range(n):
                good(sheet, goods, cx, y - 4, good_id)
                cx += 19
        sheet.text(cx - 4, y, f"{sum(player['cargo'].values())}/{player['capacity']}", size=10)
        sheet.text(x + 480, y, player["hand"])
        sheet.text(x + 530, y, upgrade_name(view, player["upgrade"]))
    end = view["end"]
    if end["triggered_by"]:
        sheet.text(x, y + 22, _("{player} reached ${goal}: the last turn is {last}'s", player=end["triggered_by"],
                                goal=view["money_goal"], last=end["last_player"]), bold=True)
        y += 18
    else:
        sheet.text(x, y + 22, _("Race to ${goal}; start player {player}", goal=view["money_goal"],
                                player=view["start_player"]))
        y += 18
    return y + 8


def card(sheet, goods, x, y, name):
    """A freight bill (a good's colour and letter) or a fuel card (the spaces it moves)."""
    sheet.rect(x, y, 40, 26, fill="#ffffff", rx=3)
    if name in goods:
        good(sheet, goods, x + 20, y + 13, name)
    else:
        spaces = name.rsplit("-", 1)[-1]
        glyph = _("F{spaces}", spaces=spaces)
        sheet.text(x + 20, y + 17, glyph, size=10, anchor="middle", bold=True)
        sheet.key(("glyph", glyph), ngettext("a fuel card moving {count} space", "a fuel card moving {count} spaces",
                                             int(spaces), count=int(spaces)))


def card_name(name: str) -> str:
    """A card as the picture names it: a freight bill by its good, a fuel card by the spaces it moves (`fuel 2`),
    never as a player types it (`fuel-2`)."""
    if name.startswith("fuel-"):
        # TRANSLATORS: a fuel card in the list of the discard pile under the picture: it moves {spaces} spaces
        return pgettext("card", "fuel {spaces}", spaces=name.rsplit("-", 1)[-1])
    return good_name(name)


def cards(view, goods, sheet, x, y):
    title = _("Face up (deck {count}):", count=view["deck"])
    sheet.text(x, y + 12, title, bold=True)
    left = max(150, 7 * width(title) + 12)  # the cards after the title, however long it reads (7 points a column)
    for i, name in enumerate(view["face_up"]):
        card(sheet, goods, x + left + i * 46, y, name)
    discard = joined(_("{count} {card}", count=n, card=card_name(name)) for name, n in view["discard"].items())
    lines = sheet.lines(x, y + 44, _("Discard: {pile}", pile=discard or _("empty")), 640, size=10, leading=13)
    return y + 48 + (lines - 1) * 13


def hand(view, goods, sheet, x, y):
    private = view["private"]
    across = max(300, 160 + 46 * len(private["hand"]))
    sheet.rect(x, y, across, 40, fill="#e8f0ff", stroke="#0072b2")
    sheet.text(x + 6, y + 24, _("Hand of {player}:", player=private["player"]), bold=True)
    for i, name in enumerate(private["hand"]):
        card(sheet, goods, x + 150 + i * 46, y + 7, name)
    if not private["hand"]:
        sheet.text(x + 150, y + 24, _("empty"))
