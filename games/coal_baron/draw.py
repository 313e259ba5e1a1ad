"""Coal Baron's picture, drawn from a view only (the public one or a player's): the players, the board's spaces by
domain with their workers and the tiles and orders on offer, the order draft and the phase cards, then every pit as
the physical board lies (lit tunnels left of the shaft, dark ones right, the cage in the shaft, storage at the
surface) with its outstanding orders. The viewer's own money, delivered orders and drawn cards beside it."""
from __future__ import annotations

# the cubes' own colours, each with its letter (K for black, as printers say, so that brown keeps B); the yellow is
# the palette's (the fourth seat's too: a seat's mark has its shape and letter), so a picture needs 16 colours at most
CUBES = {"yellow": ("#f0e442", "Y"), "brown": ("#8b5a2b", "B"), "grey": ("#a8a8a8", "G"), "black": ("#1a1a1a", "K")}
SECONDARY = "#555555"  # words that matter less: what a space needs, the levels, an empty spot's colour
LIT, DARK, SHAFT = "#fff6cc", "#9a9a9a", "#d9d2c3"
DOMAINS = [("money", "Bank"), ("mining", "Mining"), ("delivery", "Delivery"), ("orders", "Orders"),
           ("factory", "Factory")]
SPACE_W, SPACE_H, COLUMN_W = 168, 40, 178
BOARD_W = 5 * COLUMN_W - 10  # the board's five columns: no line of words or row of cards is wider
ORDERS_A_ROW = BOARD_W // 130  # order cards side by side (each 120 wide, 10 apart)
LEVEL_H, PIT_W = 30, 214
TRANSPORT = {"wheelbarrow": "Wb", "carriage": "Ca", "lorry": "Lo", "train": "Tr"}


def draw(view: dict, viewer: str | None, sheet) -> None:
    private = view.get("private")
    y = players_table(view, private, sheet, 0)
    y = phase_and_draft(view, sheet, y + 14)
    y = board(view, sheet, y + 14)
    pits = sorted(view["pits"], key=lambda pit: pit["player"] != viewer)  # the viewer's own pit first
    bottom = y + 14
    for i, pit in enumerate(pits):
        bottom = max(bottom, pit_drawing(pit, sheet, i * (PIT_W + 10), y + 14))
    if private:
        private_part(private, sheet, bottom + 14)


def cube(sheet, x, y, colour, size=12):
    fill, letter = CUBES[colour]
    sheet.piece(x, y, fill, letter, size=size)
    sheet.key(("piece", fill, letter), f"{colour} cube")


def empty(sheet, x, y, colour=None, size=12):
    """An empty cart or order spot (the letter says which colour it wants)."""
    sheet.rect(x - size / 2, y - size / 2, size, size, fill="#ffffff", dash="3 2")
    sheet.key(("swatch", "#ffffff", "#1a1a1a", "3 2"), "empty spot or cart")
    if colour:
        sheet.text(x, y + size * 0.3, CUBES[colour][1], size=size * 0.7, anchor="middle", fill=SECONDARY)


def transport(sheet, order) -> str:
    """An order's transport, abbreviated (the legend spells the abbreviations out)."""
    sheet.key(("glyph", " ".join(TRANSPORT.values())), ", ".join(TRANSPORT))
    return TRANSPORT[order["transport"]]


def players_table(view, private, sheet, y):
    headers = ["player", "VP", "workers", "canteen", "orders", "delivered", "money"]
    xs = [0, 130, 175, 240, 305, 365, 440]
    for x, head in zip(xs, headers):
        sheet.text(x, y + 12, head, bold=True)
    y += 18
    for p in view["players"]:
        y += 22
        money = private["money"] if private and private["player"] == p["name"] else "hidden"
        sheet.token(p["name"], 9, y - 4)
        sheet.text(22, y, p["name"])
        for x, value in zip(xs[1:], [p["vp"], p["workers"], p["canteen"], p["orders"], p["delivered"], money]):
            sheet.text(x, y, value)
    shift = f"Shift {view['shift']} of {view['shifts']}, start player {view['start_player']}"
    sheet.text(0, y + 24, shift)
    options = ", ".join(f"{k}={v}" for k, v in view["options"].items() if v != "off")
    supply = "  ".join(f"{c} {n}" for c, n in view["supply"].items())
    sheet.text(0, y + 40, f"Decks: {view['decks']['tiles']} tiles, {view['decks']['orders']} orders.  "
                          f"Cube supply: {supply}" + (f".  Options: {options}" if options else ""))
    return y + 44


def phase_and_draft(view, sheet, y):
    phase = view["phase"]
    if phase:
        cards = ", ".join(f"{c['player']}: {c['card']}" for c in phase["cards"]) or "none yet"
        lines = sheet.lines(0, y + 12, f"Phase round: leader {phase['leader']}, domain "
                                       f"{phase['domain'] or 'not chosen yet'}; phase cards {cards}; passed: "
                                       f"{', '.join(phase['passed']) or 'nobody'}", BOARD_W, leading=15)
        y += 20 + (lines - 1) * 15
    if view["draft"]:
        sheet.text(0, y + 12, "Order draft, revealed:", bold=True)
        revealed = view["draft"]["revealed"]
        for i, order in enumerate(revealed):  # in rows no wider than the board
            order_card(order, sheet, (i % ORDERS_A_ROW) * 130, y + 20 + (i // ORDERS_A_ROW) * 44)
        y += 20 + -(-len(revealed) // ORDERS_A_ROW) * 44
    return y


def order_card(order, sheet, x, y, spots=None):
    """An order: its id, transport and VP, then its cubes (filled spots as cubes, open ones dashed)."""
    sheet.rect(x, y, 120, 38, fill="#ffffff", rx=3)
    sheet.text(x + 4, y + 13, f"{order['id']} {transport(sheet, order)} {order['vp']} VP", size=10, bold=True)
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
        return f"bank +{space['amount']}"
    if kind == "mining":
        return f"mining {space['steps']} steps"
    if kind == "delivery":
        return space["space"].split("-", 1)[1]  # the column says "Delivery"
    return space["space"].replace("-", " ")


def board(view, sheet, y):
    sheet.text(0, y + 12, "Board", size=13, bold=True)
    y += 20
    bottom = y
    for column, (domain, title) in enumerate(DOMAINS):
        x = column * COLUMN_W
        sheet.text(x, y + 12, title, bold=True)
        spaces = [s for s in view["board"] if s["domain"] == domain]
        for row, space in enumerate(spaces):
            top = y + 18 + row * (SPACE_H + 6)
            space_box(space, sheet, x, top)
            bottom = max(bottom, top + SPACE_H)
    return bottom


def space_box(space, sheet, x, y):
    sheet.rect(x, y, SPACE_W, SPACE_H, fill="#f4f1ea", rx=4)
    sheet.text(x + 5, y + 13, space_label(space), size=10, bold=True)
    sheet.text(x + SPACE_W - 5, y + 13, f"needs {space['needs']}", size=10, anchor="end", fill=SECONDARY)
    counts = {}
    for p in space["workers"]:
        counts[p] = counts.get(p, 0) + 1
    for i, (player, n) in enumerate(counts.items()):
        sheet.token(player, x + 12 + i * 40, y + 28, 8, count=n)
    if space["tile"]:
        tile = space["tile"]
        cube(sheet, x + 66, y + 28, tile["colour"], size=12)
        sheet.text(x + 75, y + 32, f"{tile['id']} {tile['side']} {tile['carts']}c ${tile['cost']}", size=10)
    elif space["order"]:
        order = space["order"]
        sheet.text(x + 52, y + 32, f"{order['id']} {transport(sheet, order)} {order['vp']}VP", size=10)
        for i, colour in enumerate(order["cubes"]):
            cube(sheet, x + SPACE_W - 8 - (len(order["cubes"]) - 1 - i) * 12, y + 28, colour, size=11)
    elif space["kind"] in ("factory", "order"):
        sheet.text(x + 52, y + 32, "(empty)", size=10, fill=SECONDARY)


def pit_drawing(pit, sheet, x, y):
    """One pit: the surface (storage, the cage at level 0), then levels 1–4, lit left of the shaft, dark right."""
    sheet.token(pit["player"], x + 9, y + 8)
    sheet.text(x + 22, y + 12, f"Pit of {pit['player']} (tiles lit {pit['lit']}, dark {pit['dark']})", size=10,
               bold=True)
    top = y + 22
    shaft_x = x + PIT_W / 2 - 14
    levels = max([t["level"] for t in pit["tunnels"]] + [4])
    sheet.rect(shaft_x, top, 28, LEVEL_H * (levels + 1), fill=SHAFT)
    sheet.text(x + 2, top + 19, "surface", size=10, fill=SECONDARY)
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
        sheet.text(x, bottom + 12, f"delivered: {pit['delivered']} face down", size=10)
        bottom += 16
    for order in pit["shown"]:
        sheet.text(x, bottom + 12, f"shown at shift {order['shift']}: {order['id']} {order['transport']} "
                                   f"{order['vp']} VP", size=10)
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
        sheet.key(("swatch", fill, "#1a1a1a", None), f"{side} tunnel")
        if load:
            cube(sheet, cx, top + height / 2, load, size=size)
        else:
            empty(sheet, cx, top + height / 2, tunnel["colour"], size=size)


def private_part(private, sheet, y):
    """What the viewer alone sees: their money, their delivered orders, the cards drawn for them."""
    sheet.rect(0, y, BOARD_W, 22, fill="#e8f0ff", stroke="#0072b2")
    sheet.text(6, y + 15, f"For {private['player']} only: money {private['money']}", bold=True)
    y += 28
    if private["delivered"]:
        sheet.text(0, y + 12, "Your delivered orders (face down):", size=10)
        for i, order in enumerate(private["delivered"]):
            order_card(order, sheet, (i % ORDERS_A_ROW) * 130, y + 18 + (i // ORDERS_A_ROW) * 44)
        y += 18 + -(-len(private["delivered"]) // ORDERS_A_ROW) * 44
    drawn = private["drawn"]
    if drawn:
        sheet.text(0, y + 12, f"Drawn for you alone ({drawn['kind']}):", size=10)
        prices = {p["tile"]: p["pays"] for p in private["tile_prices"]}
        for i, card in enumerate(drawn["cards"]):
            if drawn["kind"] == "tiles":
                sheet.rect(i * 130, y + 18, 120, 26, fill="#ffffff", rx=3)
                cube(sheet, i * 130 + 12, y + 31, card["colour"])
                cost = prices.get(card["id"], card["cost"])
                sheet.text(i * 130 + 22, y + 35, f"{card['id']} {card['side']} {card['carts']}c ${cost}", size=10)
            else:
                order_card(card, sheet, i * 130, y + 18)
