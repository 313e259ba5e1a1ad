"""Coal Baron's picture, drawn from a view only (the public one or a player's): the players, the board's spaces by
domain with their workers and the tiles and orders on offer, the order draft and the phase cards, then every pit as
the physical board lies (lit tunnels left of the shaft, dark ones right, the cage in the shaft, storage at the
surface) with its outstanding orders. The viewer's own money, delivered orders and drawn cards beside it. Its words
in the language being read (the report's messages and the glossary's names, locale/ and glossary.yaml)."""
from __future__ import annotations

from pbem.messages import NP_, Domain, joined
from pbem.text.sheet import advance, first_fitting, fits, text_width, wrap

from .report import colour, phase_card

T = Domain("coal_baron")
_, pgettext = T.gettext, T.pgettext

# the cubes' own colours, each with its letter (K for black, as printers say, so that brown keeps B; each language
# has its own letters, context "mark"); the yellow is the palette's (the fourth seat's too: a seat's mark has its
# shape and letter), so a picture needs 16 colours at most
CUBES = {"yellow": ("#f0e442", NP_("mark", "Y")), "brown": ("#8b5a2b", NP_("mark", "B")),
         "grey": ("#a8a8a8", NP_("mark", "G")), "black": ("#1a1a1a", NP_("mark", "K"))}
SECONDARY = "#555555"  # words that matter less: what a space needs, the levels, an empty spot's colour
LIT, DARK, SHAFT = "#fff6cc", "#9a9a9a", "#d9d2c3"
DOMAINS = [("money", NP_("column", "Bank")), ("mining", NP_("column", "Mining")),
           ("delivery", NP_("column", "Delivery")), ("orders", NP_("column", "Orders")),
           ("factory", NP_("column", "Factory"))]
SPACE_W, SPACE_H, COLUMN_W = 168, 40, 178
BOARD_W = 5 * COLUMN_W - 10  # the board's five columns: no line of words or row of cards is wider
ORDERS_A_ROW = BOARD_W // 130  # order cards side by side (each 120 wide, 10 apart)
LEVEL_H, PIT_W = 30, 214
HEADING_LEADING = 12  # a pit's heading that takes two lines
COLUMNS = [0, 130, 175, 240, 305, 365, 440]  # the players' table's columns, each moved right only if it must be
GUTTER = 6  # between a column's widest word and the next column
OPTIONS = {"phase-cards": NP_("option", "phase-card variant"),  # meta.yaml's options, each as a player reads it
           "overplace": NP_("option", "overplacing variant")}
TRANSPORT = {"wheelbarrow": NP_("mark", "Wb"), "carriage": NP_("mark", "Ca"), "lorry": NP_("mark", "Lo"),
             "train": NP_("mark", "Tr")}  # the transports' abbreviations, in each language its own


def draw(view: dict, viewer: str | None, sheet) -> None:
    private = view.get("private")
    y = players_table(view, private, sheet, 0)
    y = phase_and_draft(view, sheet, y + 14)
    y = board(view, sheet, y + 14)
    pits = sorted(view["pits"], key=lambda pit: pit["player"] != viewer)  # the viewer's own pit first
    headings = [pit_heading(pit) for pit in pits]
    depth = max(len(lines) for lines in headings) if headings else 1  # the pits' levels side by side, aligned
    bottom = y + 14
    for i, (pit, heading) in enumerate(zip(pits, headings)):
        bottom = max(bottom, pit_drawing(pit, heading, depth, sheet, i * (PIT_W + 10), y + 14))
    if private:
        private_part(private, sheet, bottom + 14)


def letter(name):
    """A cube colour's letter in the language being read."""
    return pgettext("mark", CUBES[name][1])


def cube(sheet, x, y, name, size=12):
    fill, mark = CUBES[name][0], letter(name)
    sheet.piece(x, y, fill, mark, size=size)
    sheet.key(("piece", fill, mark), _("{colour} cube", colour=colour(name)))


def empty(sheet, x, y, wanted=None, size=12):
    """An empty cart or order spot (the letter says which colour it wants)."""
    sheet.rect(x - size / 2, y - size / 2, size, size, fill="#ffffff", dash="3 2")
    sheet.key(("swatch", "#ffffff", "#1a1a1a", "3 2"), _("empty spot or cart"))
    if wanted:
        sheet.text(x, y + size * 0.3, letter(wanted), size=size * 0.7, anchor="middle", fill=SECONDARY)


def transport(sheet, order) -> str:
    """An order's transport, abbreviated (the legend spells the abbreviations out)."""
    marks = [pgettext("mark", mark) for mark in TRANSPORT.values()]
    sheet.key(("glyph", " ".join(marks)), joined(T.term("transport", name) for name in TRANSPORT))
    mark = TRANSPORT[order["transport"]]
    return pgettext("mark", mark)


def players_table(view, private, sheet, y):
    headers = [_("player"), _("VP"), T.term("word", "workers"), _("canteen"), _("orders"), _("delivered"),
               T.term("word", "money")]
    rows = [[p["name"], p["vp"], p["workers"], p["canteen"], p["orders"], p["delivered"],
             private["money"] if private and private["player"] == p["name"] else _("hidden")]
            for p in view["players"]]
    xs = columns(headers, rows)
    for x, head in zip(xs, headers):
        sheet.text(x, y + 12, head, bold=True)
    y += 18
    for row in rows:
        y += 22
        sheet.token(row[0], 9, y - 4)
        sheet.text(22, y, row[0])
        for x, value in zip(xs[1:], row[1:]):
            sheet.text(x, y, value)
    sheet.text(0, y + 24, _("Shift {shift} of {shifts}, start player {player}", shift=view["shift"],
                            shifts=view["shifts"], player=view["start_player"]))
    options = joined(option_name(key, value) for key, value in view["options"].items() if value != "off")
    supply = "  ".join(f"{colour(c)} {n}" for c, n in view["supply"].items())
    decks = {"tiles": view["decks"]["tiles"], "orders": view["decks"]["orders"], "supply": supply}
    said = (_("Decks: {tiles} tiles, {orders} orders.  Cube supply: {supply}.  Options: {options}", **decks,
              options=options) if options else _("Decks: {tiles} tiles, {orders} orders.  Cube supply: {supply}",
                                                 **decks))
    if text_width(said, 11) <= BOARD_W:  # (the estimate, as the sheet measures its extent: the board's width)
        sheet.text(0, y + 40, said)
        return y + 44
    lines = sheet.lines(0, y + 40, said, BOARD_W, leading=15)  # (French, with both options)
    return y + 44 + (lines - 1) * 15


def columns(headers: list[str], rows: list[list]) -> list[float]:
    """Where the players' table's columns begin: each where COLUMNS puts it, or further right if the column
    before it would not leave a GUTTER after its widest word (a bold header in French: `commandes`, `livrées`)."""
    xs = [COLUMNS[0]]
    for i, default in enumerate(COLUMNS[1:]):
        widest = max([advance(headers[i], 11, bold=True)] +
                     [advance(str(row[i]), 11) + (22 if i == 0 else 0) for row in rows])  # a name after its token
        xs.append(max(default, xs[-1] + widest + GUTTER))
    return xs


def option_name(key: str, value: str) -> str:
    """An option a game is played with, named in the reader's words (`variante des cartes de phase`), never as
    the organiser types it (`phase-cards=on`); a club's own option, as typed."""
    if value == "on" and key in OPTIONS:
        return pgettext("option", OPTIONS[key])
    return f"{key}={value}"


def phase_and_draft(view, sheet, y):
    phase = view["phase"]
    if phase:
        cards = joined(phase_card(c) for c in phase["cards"]) or _("none yet")
        domain = T.term("domain", phase["domain"]) if phase["domain"] else _("not chosen yet")
        said = _("Phase round: leader {leader}, domain {domain}; phase cards {cards}; passed: {passed}",
                 leader=phase["leader"], domain=domain, cards=cards, passed=joined(phase["passed"]) or _("nobody"))
        lines = sheet.lines(0, y + 12, said, BOARD_W, leading=15)
        y += 20 + (lines - 1) * 15
    if view["draft"]:
        sheet.text(0, y + 12, _("Order draft, revealed:"), bold=True)
        revealed = view["draft"]["revealed"]
        for i, order in enumerate(revealed):  # in rows no wider than the board
            order_card(order, sheet, (i % ORDERS_A_ROW) * 130, y + 20 + (i // ORDERS_A_ROW) * 44)
        y += 20 + -(-len(revealed) // ORDERS_A_ROW) * 44
    return y


def order_card(order, sheet, x, y, spots=None):
    """An order: its id, transport and VP, then its cubes (filled spots as cubes, open ones dashed)."""
    sheet.rect(x, y, 120, 38, fill="#ffffff", rx=3)
    sheet.text(x + 4, y + 13, _("{order} {transport} {vp} VP", order=order["id"], transport=transport(sheet, order),
                                vp=order["vp"]), size=10, bold=True)
    for i, colour in enumerate(order["cubes"]):
        filled = spots[i] if spots is not None else [colour]
        if filled:
            for j, c in enumerate(filled):
                cube(sheet, x + 11 + i * 28 + j * 12, y + 27, c, size=11)
        else:
            empty(sheet, x + 11 + i * 28, y + 27, colour, size=11)


def space_label(space):
    kind = space["kind"]
    if kind == "bank":
        return _("{bank} +{amount}", bank=T.term("space", "bank"), amount=space["amount"])
    if kind == "mining":
        return _("{mining} {steps} steps", mining=T.term("space", "mining"), steps=space["steps"])
    if kind == "delivery":
        return T.term("transport", space["space"].split("-", 1)[1])  # the column says "Delivery"
    return T.words(space["space"]).replace("-", " ")


def tile_label(tile, cost):
    """`t05 lit 2c $3`: a tile, its side, its carts and what it costs."""
    return _("{tile} {side} {carts}c ${cost}", tile=tile["id"], side=T.term("side", tile["side"]), carts=tile["carts"],
             cost=cost)


def board(view, sheet, y):
    sheet.text(0, y + 12, _("Board"), size=13, bold=True)
    y += 20
    bottom = y
    for column, (domain, title) in enumerate(DOMAINS):
        x = column * COLUMN_W
        sheet.text(x, y + 12, pgettext("column", title), bold=True)
        spaces = [s for s in view["board"] if s["domain"] == domain]
        for row, space in enumerate(spaces):
            top = y + 18 + row * (SPACE_H + 6)
            space_box(space, sheet, x, top)
            bottom = max(bottom, top + SPACE_H)
    return bottom


def space_box(space, sheet, x, y):
    sheet.rect(x, y, SPACE_W, SPACE_H, fill="#f4f1ea", rx=4)
    name = space_label(space)
    sheet.text(x + 5, y + 13, name, size=10, bold=True)
    room = SPACE_W - 10 - advance(name, 10, bold=True) - GUTTER  # what the space's name leaves on its line
    # TRANSLATORS: what a board space needs, where "needs {count}" does not fit beside the space's name: short
    needs = first_fitting([_("needs {count}", count=space["needs"]), pgettext("short", "needs {count}",
                                                                              count=space["needs"])], 10, room)
    sheet.text(x + SPACE_W - 5, y + 13, needs, size=10, anchor="end", fill=SECONDARY)
    counts = {}
    for p in space["workers"]:
        counts[p] = counts.get(p, 0) + 1
    for i, (player, n) in enumerate(counts.items()):
        sheet.token(player, x + 12 + i * 40, y + 28, 8, count=n)
    if space["tile"]:
        tile = space["tile"]
        cube(sheet, x + 66, y + 28, tile["colour"], size=12)
        sheet.text(x + 75, y + 32, tile_label(tile, tile["cost"]), size=10)
    elif space["order"]:
        order = space["order"]
        sheet.text(x + 52, y + 32, _("{order} {transport} {vp}VP", order=order["id"], transport=transport(sheet, order),
                                     vp=order["vp"]), size=10)
        for i, colour in enumerate(order["cubes"]):
            cube(sheet, x + SPACE_W - 8 - (len(order["cubes"]) - 1 - i) * 12, y + 28, colour, size=11)
    elif space["kind"] in ("factory", "order"):
        sheet.text(x + 52, y + 32, _("(empty)"), size=10, fill=SECONDARY)


def pit_heading(pit) -> list[str]:
    """A pit's heading in the lines it takes beside its owner's token: one, or two where it is wider than the
    pit (French: `Mine de carol (tuiles éclairées 2, sombres 4)`)."""
    heading = _("Pit of {player} (tiles lit {lit}, dark {dark})", player=pit["player"], lit=pit["lit"],
                dark=pit["dark"])
    return [heading] if fits(heading, 10, PIT_W - 22, bold=True) else wrap(heading, 10, PIT_W - 22, bold=True)


def pit_drawing(pit, heading: list[str], depth: int, sheet, x, y):
    """One pit: its heading (`depth` lines, the most any pit's takes), the surface (storage, the cage at level 0),
    then levels 1–4, lit left of the shaft, dark right."""
    sheet.token(pit["player"], x + 9, y + 8)
    for i, line in enumerate(heading):
        sheet.text(x + 22, y + 12 + i * HEADING_LEADING, line, size=10, bold=True)
    top = y + 22 + (depth - 1) * HEADING_LEADING
    shaft_x = x + PIT_W / 2 - 14
    levels = max([t["level"] for t in pit["tunnels"]] + [4])
    sheet.rect(shaft_x, top, 28, LEVEL_H * (levels + 1), fill=SHAFT)
    sheet.text(x + 2, top + 19, _("surface"), size=10, fill=SECONDARY)
    for i, colour in enumerate(pit["storage"]):
        cube(sheet, x + 50 + i * 13, top + 15, colour, size=11)
    for level in range(1, levels + 1):
        row_y = top + level * LEVEL_H
        sheet.line(x, row_y, x + PIT_W, row_y, stroke=SHAFT)
        sheet.text(x + 2, row_y + 19, level, size=10, fill=SECONDARY)
        for side in ("lit", "dark"):
            tunnels = [t for t in pit["tunnels"] if t["level"] == level and t["side"] == side]
            carts(sheet, [(t, load) for t in tunnels for load in t["loads"]], side, shaft_x, row_y)
    cage = pit["cage"]
    cage_y = top + cage["level"] * LEVEL_H
    sheet.rect(shaft_x + 2, cage_y + 2, 24, LEVEL_H - 4, fill="#ffffff", stroke="#1a1a1a", width=2)
    for i, colour in enumerate(cage["cubes"][:2]):
        cube(sheet, shaft_x + 8 + i * 12, cage_y + LEVEL_H / 2, colour, size=10)
    bottom = top + LEVEL_H * (levels + 1) + 6
    for i, order in enumerate(pit["orders"]):
        order_card(order, sheet, x, bottom + i * 44, order["spots"])
    bottom += len(pit["orders"]) * 44
    if pit["delivered"]:
        sheet.text(x, bottom + 12, _("delivered: {count} face down", count=pit["delivered"]), size=10)
        bottom += 16
    for order in pit["shown"]:
        sheet.text(x, bottom + 12, _("shown at shift {shift}: {order} {transport} {vp} VP", shift=order["shift"],
                                     order=order["id"], transport=T.term("transport", order["transport"]),
                                     vp=order["vp"]), size=10)
        bottom += 14
    return bottom


CARTS_A_ROW = 4  # the carts of one level and side in a row from the shaft; more go in two rows of smaller carts


def carts(sheet, loaded: list[tuple[dict, str | None]], side: str, shaft_x: float, row_y: float) -> None:
    """One level's carts on one side of the shaft, from the shaft outwards, each with its cube or the colour it
    wants; the level's number stays clear at the pit's left."""
    rows = 1 if len(loaded) <= CARTS_A_ROW else 2
    a_row = -(-len(loaded) // rows)
    height, size = (20, 11) if rows == 1 else (12, 10)
    fill = LIT if side == "lit" else DARK
    for i, (tunnel, load) in enumerate(loaded):
        step = (i % a_row) * (16 if rows == 1 else 14)
        cx = shaft_x - 14 - step if side == "lit" else shaft_x + 42 + step
        top = row_y + (5 if rows == 1 else 3 + (i // a_row) * 13)
        sheet.rect(cx - 7, top, 14, height, fill=fill, stroke=SECONDARY)
        sheet.key(("swatch", fill, "#1a1a1a", None), _("lit tunnel") if side == "lit" else _("dark tunnel"))
        if load:
            cube(sheet, cx, top + height / 2, load, size=size)
        else:
            empty(sheet, cx, top + height / 2, tunnel["colour"], size=size)


def private_part(private, sheet, y):
    """What the viewer alone sees: their money, their delivered orders, the cards drawn for them."""
    sheet.rect(0, y, BOARD_W, 22, fill="#e8f0ff", stroke="#0072b2")
    sheet.text(6, y + 15, _("For {player} only: money {money}", player=private["player"], money=private["money"]),
               bold=True)
    y += 28
    if private["delivered"]:
        sheet.text(0, y + 12, _("Your delivered orders (face down):"), size=10)
        for i, order in enumerate(private["delivered"]):
            order_card(order, sheet, (i % ORDERS_A_ROW) * 130, y + 18 + (i // ORDERS_A_ROW) * 44)
        y += 18 + -(-len(private["delivered"]) // ORDERS_A_ROW) * 44
    drawn = private["drawn"]
    if drawn:
        sheet.text(0, y + 12, _("Drawn for you alone (tiles):") if drawn["kind"] == "tiles" else
                   _("Drawn for you alone (orders):"), size=10)
        prices = {p["tile"]: p["pays"] for p in private["tile_prices"]}
        for i, card in enumerate(drawn["cards"]):
            if drawn["kind"] == "tiles":
                sheet.rect(i * 130, y + 18, 120, 26, fill="#ffffff", rx=3)
                cube(sheet, i * 130 + 12, y + 31, card["colour"])
                cost = prices.get(card["id"], card["cost"])
                sheet.text(i * 130 + 22, y + 35, tile_label(card, cost), size=10)
            else:
                order_card(card, sheet, i * 130, y + 18)
