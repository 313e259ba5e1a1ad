"""Coal Baron's picture, drawn from a view only (the public one or a player's): the players, the board's spaces by
domain with their workers and the tiles and orders on offer, the order draft and the phase cards, then every pit as
the physical board lies (lit tunnels left of the shaft, dark ones right, the cage in the shaft, storage at the
surface) with its outstanding orders. The viewer's own money, delivered orders and drawn cards beside it."""
from __future__ import annotations

# the cubes' own colours, each with its letter (K for black, as printers say, so that brown keeps B)
CUBES = {"yellow": ("#f2c500", "Y"), "brown": ("#8b5a2b", "B"), "grey": ("#a8a8a8", "G"), "black": ("#1a1a1a", "K")}
DOMAINS = [("money", "Bank"), ("mining", "Mining"), ("delivery", "Delivery"), ("orders", "Orders"),
           ("factory", "Factory")]
SPACE_W, SPACE_H, COLUMN_W = 168, 40, 178
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
    for colour, (fill, letter) in CUBES.items():
        sheet.key(("piece", fill, letter), f"{colour} cube")
    sheet.key(("swatch", "#fff6cc", "#1a1a1a", None), "lit tunnel")
    sheet.key(("swatch", "#9a9a9a", "#1a1a1a", None), "dark tunnel")
    sheet.key(("swatch", "#ffffff", "#1a1a1a", "3 2"), "empty spot or cart")
    sheet.key(("glyph", "Wb Ca Lo Tr"), "wheelbarrow, carriage, lorry, train")


def cube(sheet, x, y, colour, size=12):
    fill, letter = CUBES[colour]
    sheet.piece(x, y, fill, letter, size=size)


def empty(sheet, x, y, colour=None, size=12):
    """An empty cart or order spot (the letter says which colour it wants)."""
    sheet.rect(x - size / 2, y - size / 2, size, size, fill="#ffffff", dash="3 2")
    if colour:
        sheet.text(x, y + size * 0.3, CUBES[colour][1], size=size * 0.7, anchor="middle", fill="#767676")


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
        sheet.text(0, y + 12, f"Phase round: leader {phase['leader']}, domain {phase['domain'] or 'not chosen yet'}; "
                              f"phase cards {cards}; passed: {', '.join(phase['passed']) or 'nobody'}")
        y += 20
    if view["draft"]:
        sheet.text(0, y + 12, "Order draft, revealed:", bold=True)
        for i, order in enumerate(view["draft"]["revealed"]):
            order_card(order, sheet, i * 130, y + 20)
        y += 20 + 44
    return y


def order_card(order, sheet, x, y, spots=None):
    """An order: its id, transport and VP, then its cubes (filled spots as cubes, open ones dashed)."""
    sheet.rect(x, y, 120, 38, fill="#ffffff", rx=3)
    sheet.text(x + 4, y + 13, f"{order['id']} {TRANSPORT[order['transport']]} {order['vp']} VP", size=10, bold=True)
    for i, colour in enumerate(order["cubes"]):
        filled = spots[i] if spots is not None else [colour]
        if filled:
            for j, c in enumerate(filled):
                cube(sheet, x + 11 + i * 26 + j * 10, y + 27, c, size=11 if len(filled) == 1 else 9)
        else:
            empty(sheet, x + 11 + i * 26, y + 27, colour, size=11)


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
    sheet.text(x + SPACE_W - 5, y + 13, f"needs {space['needs']}", size=9, anchor="end", fill="#555555")
    counts = {}
    for p in space["workers"]:
        counts[p] = counts.get(p, 0) + 1
    for i, (player, n) in enumerate(counts.items()):
        sheet.token(player, x + 12 + i * 40, y + 28, 8, count=n)
    if space["tile"]:
        tile = space["tile"]
        cube(sheet, x + 70, y + 28, tile["colour"], size=12)
        sheet.text(x + 80, y + 32, f"{tile['id']} {tile['side']} {tile['carts']}c ${tile['cost']}", size=9)
    elif space["order"]:
        order = space["order"]
        sheet.text(x + 60, y + 32, f"{order['id']} {TRANSPORT[order['transport']]} {order['vp']}VP", size=9)
        for i, colour in enumerate(order["cubes"]):
            cube(sheet, x + 130 + i * 11, y + 28, colour, size=10)
    elif space["kind"] in ("factory", "order"):
        sheet.text(x + 60, y + 32, "(empty)", size=9, fill="#767676")


def pit_drawing(pit, sheet, x, y):
    """One pit: the surface (storage, the cage at level 0), then levels 1–4, lit left of the shaft, dark right."""
    sheet.token(pit["player"], x + 9, y + 8)
    sheet.text(x + 22, y + 12, f"Pit of {pit['player']} (tiles lit {pit['lit']}, dark {pit['dark']})", size=10,
               bold=True)
    top = y + 22
    shaft_x = x + PIT_W / 2 - 14
    levels = max([t["level"] for t in pit["tunnels"]] + [4])
    sheet.rect(shaft_x, top, 28, LEVEL_H * (levels + 1), fill="#d9d2c3")
    sheet.text(x + 2, top + 19, "surface", size=9, fill="#555555")
    for i, colour in enumerate(pit["storage"]):
        cube(sheet, x + 50 + i * 13, top + 15, colour, size=11)
    for level in range(1, levels + 1):
        row_y = top + level * LEVEL_H
        sheet.line(x, row_y, x + PIT_W, row_y, stroke="#bbbbbb")
        sheet.text(x + 2, row_y + 19, level, size=9, fill="#555555")
        for side in ("lit", "dark"):
            tunnels = [t for t in pit["tunnels"] if t["level"] == level and t["side"] == side]
            carts = [(t, load) for t in tunnels for load in t["loads"]]
            for i, (tunnel, load) in enumerate(carts):
                cx = shaft_x - 14 - i * 16 if side == "lit" else shaft_x + 28 + 14 + i * 16
                sheet.rect(cx - 7, row_y + 5, 14, 20, fill="#fff6cc" if side == "lit" else "#9a9a9a", stroke="#555555")
                if load:
                    cube(sheet, cx, row_y + 15, load, size=11)
                else:
                    empty(sheet, cx, row_y + 15, tunnel["colour"], size=10)
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
                                   f"{order['vp']} VP", size=9)
        bottom += 14
    return bottom


def private_part(private, sheet, y):
    """What the viewer alone sees: their money, their delivered orders, the cards drawn for them."""
    sheet.rect(0, y, 5 * COLUMN_W - 10, 22, fill="#e8f0ff", stroke="#0072b2")
    sheet.text(6, y + 15, f"For {private['player']} only: money {private['money']}", bold=True)
    y += 28
    if private["delivered"]:
        sheet.text(0, y + 12, "Your delivered orders (face down):", size=10)
        for i, order in enumerate(private["delivered"]):
            order_card(order, sheet, (i % 6) * 130, y + 18 + (i // 6) * 44)
        y += 18 + ((len(private["delivered"]) + 5) // 6) * 44
    drawn = private["drawn"]
    if drawn:
        sheet.text(0, y + 12, f"Drawn for you alone ({drawn['kind']}):", size=10)
        prices = {p["tile"]: p["pays"] for p in private["tile_prices"]}
        for i, card in enumerate(drawn["cards"]):
            if drawn["kind"] == "tiles":
                sheet.rect(i * 130, y + 18, 120, 26, fill="#ffffff", rx=3)
                cube(sheet, i * 130 + 12, y + 31, card["colour"])
                cost = prices.get(card["id"], card["cost"])
                sheet.text(i * 130 + 22, y + 35, f"{card['id']} {card['side']} {card['carts']}c ${cost}", size=9)
            else:
                order_card(card, sheet, i * 130, y + 18)
