"""Chartered's picture, drawn from a view only: the plot map (each plot with its company's code and floors, the
headquarters starred, canals where neighbouring plots do not touch, the plots where a company may be founded), the
companies with their flags, the stock board with each company on its step, the players, the market, and the
viewer's own hand beside it; in the language being read (report.py's messages and words)."""
from __future__ import annotations

from pbem.messages import joined

from .report import T, card_text, code, goods, side

_, ngettext = T.gettext, T.ngettext

# a light fill per company; the company's three-letter code is always written on it, so no colour must be told apart.
# A picture of at most 16 colours is written at half a byte a pixel (docs/performance.md, "The mail a phone can
# carry"): so only a founded company shows its fill (one free to found is drawn as an empty plot is, FREE), the
# words "free to found" are in ink and the hand's panel is white in its blue frame. Six seats, FREE, ink, paper, the
# canal (seat 5's blue) and the picture's rule leave room for six founded companies at six players (seven at four), as
# many as the test games found at once; beyond that the picture is written at a byte a pixel, as before
FILLS = ["#fbd5a5", "#bfe3f6", "#a8e0cf", "#f7f0a0", "#a9c8e8", "#f6bfa3", "#efc6dd", "#d9d9d9", "#d8c8f0",
         "#e0e8b0"]
CANAL = "#0072b2"
FREE = "#f4f1ea"  # an empty plot, and a company free to found
PLOT_W, PLOT_H, GAP = 58, 44, 14
LINE = 13  # a line of a table's cell


def draw(view: dict, viewer: str | None, sheet) -> None:
    fills = {c["id"]: FILLS[i % len(FILLS)] for i, c in enumerate(view["companies"])}
    right = plot_map(view, fills, sheet, 0, 0)
    x = right + 24
    y = companies(view, fills, sheet, x, 0)
    y = stock_board(view, fills, sheet, x, y + 14)
    y = players(view, sheet, x, y + 14)
    y = market(view, sheet, x, y + 14)
    if view.get("private"):
        hand(view, sheet, x, y + 14)


def grid(view):
    """Each plot's (row, column) on the map, and the canals: pairs of neighbouring places that do not touch."""
    rows = [line.split() for line in view["map"][0::2]]
    joints = [line.split() for line in view["map"][1::2]]
    places, canals = {}, []
    for r, row in enumerate(rows):
        for c, plot in enumerate(row[0::2]):
            if plot != "~":
                places[plot] = (r, c)
            if c + 1 < len(row[0::2]) and row[2 * c + 1] == "." and plot != "~" and row[2 * c + 2] != "~":
                canals.append(((r, c), (r, c + 1)))
            if r + 1 < len(rows) and joints[r][c] == "." and plot != "~" and rows[r + 1][2 * c] != "~":
                canals.append(((r, c), (r + 1, c)))
    return places, canals


def corner(r, c, x0, y0):
    return x0 + c * (PLOT_W + GAP), y0 + 20 + r * (PLOT_H + GAP)


def plot_map(view, fills, sheet, x0, y0):
    sheet.text(x0, y0 + 12, _("The board ({side} side)", side=side(view)), size=13, bold=True)
    places, canals = grid(view)
    owned = {plot: (company, floors) for company in view["companies"] if company["founded"]
             for plot, floors in company["plots"].items()}
    foundable = set(view["foundable"].split())
    for (r1, c1), (r2, c2) in canals:
        x1, y1 = corner(r1, c1, x0, y0)
        x2, y2 = corner(r2, c2, x0, y0)
        if r1 == r2:
            sheet.rect(x1 + PLOT_W + 3, y1 - 4, GAP - 6, PLOT_H + 8, fill=CANAL, stroke=CANAL)
        else:
            sheet.rect(x1 - 4, y1 + PLOT_H + 3, PLOT_W + 8, GAP - 6, fill=CANAL, stroke=CANAL)
        sheet.key(("swatch", CANAL, CANAL, None), _("canal (plots do not touch)"))
    right = x0
    for plot, (r, c) in places.items():
        x, y = corner(r, c, x0, y0)
        company, floors = owned.get(plot, (None, 0))
        sheet.rect(x, y, PLOT_W, PLOT_H, fill=fills[company["id"]] if company else FREE, rx=3,
                   width=2 if company else 1)
        sheet.text(x + 4, y + 12, plot, size=10, bold=True)
        if company:
            star = " ★" if company["hq"] == plot else ""
            sheet.text(x + 4, y + 27, code(company) + star, size=11, bold=True)
            if star:
                sheet.key(("glyph", "★"), _("headquarters"))
            for f in range(floors):
                sheet.rect(x + 6 + f * 9, y + 32, 7, 8, fill="#1a1a1a")
                sheet.key(("swatch", "#1a1a1a", "#1a1a1a", None), _("a floor"))
        elif plot in foundable:
            sheet.text(x + PLOT_W - 6, y + 30, "+", size=18, anchor="end", bold=True, fill="#009e73")
            sheet.key(("glyph", "+"), _("a company may be founded here"))
        right = max(right, x + PLOT_W)
    for i, link in enumerate(view["links"]):
        sheet.text(x0, y0 + 20 + (max(r for r, _c in places.values()) + 1) * (PLOT_H + GAP) + 12 + i * 14,
                   _("{plot} and {other} also touch", plot=link.split()[0], other=link.split()[1]), size=10)
    return right


def companies(view, fills, sheet, x, y):
    sheet.text(x, y + 12, _("Companies"), size=13, bold=True)
    columns = [(_("company"), 0, 125), (_("value"), 130, 40), (_("price (buy)"), 175, 70), (_("left"), 250, 30),
               (_("shareholders"), 285, 165), (_("flag"), 455, 30)]
    for head, dx, _width in columns:
        sheet.text(x + dx, y + 30, head, size=10, bold=True)
    y += 34
    for company in view["companies"]:
        y += 18
        sheet.rect(x, y - 12, 34, 16, fill=fills[company["id"]] if company["founded"] else FREE, stroke="#1a1a1a")
        sheet.text(x + 17, y, code(company), size=10, bold=True, anchor="middle")
        sheet.text(x + 40, y, goods(company["goods"]), size=10)
        if not company["founded"]:
            sheet.text(x + 130, y, _("free to found"), size=10)
            continue
        holders = joined(f"{p} {n}" for p, n in company["holders"].items())
        cells = [company["value"], f"{company['price']} ({company['buying_price']})", company["shares_left"],
                 holders or "-"]
        lines = sheet.cells(y, [(x + dx, width, value) for (_, dx, width), value in zip(columns[1:], cells)],
                            size=10, leading=LINE)
        if company["flag"]:
            sheet.token(company["flag"], x + 463, y - 4, 8)
        y += (lines - 1) * LINE
    return y + 6


def stock_board(view, fills, sheet, x, y):
    sheet.text(x, y + 12, _("Stock board: value → share price"), size=13, bold=True)
    steps = view["stock_board"]
    per_row = 10
    top = y + 20
    for i, step in enumerate(steps):
        sx, sy = x + (i % per_row) * 50, top + (i // per_row) * 76
        sheet.rect(sx, sy, 46, 28, fill="#ffffff")
        sheet.text(sx + 23, sy + 12, step["value"], size=10, anchor="middle")
        sheet.text(sx + 23, sy + 24, step["price"], size=10, anchor="middle", bold=True)
        upper = steps[i + 1]["value"] if i + 1 < len(steps) else None
        here = [c for c in view["companies"] if c["founded"] and c["value"] >= step["value"]
                and (upper is None or c["value"] < upper)]
        for j, company in enumerate(here[:3]):
            sheet.rect(sx, sy + 30 + j * 14, 46, 13, fill=fills[company["id"]], stroke="#1a1a1a", width=0.5)
            sheet.text(sx + 23, sy + 40 + j * 14, code(company), size=10, anchor="middle", bold=True)
    return top + ((len(steps) + per_row - 1) // per_row) * 76


def players(view, sheet, x, y):
    sheet.text(x, y + 12, _("Players"), size=13, bold=True)
    columns = [(_("player"), 0, 125), (_("florins"), 130, 55), (_("cards"), 190, 45), (_("shares"), 240, 155),
               (_("flags"), 400, 65), (_("next flag"), 470, 60)]
    for head, dx, _width in columns:
        sheet.text(x + dx, y + 30, head, size=10, bold=True)
    y += 34
    codes = {c["id"]: code(c) for c in view["companies"]}
    for player in view["players"]:
        y += 20
        sheet.token(player["name"], x + 8, y - 4, 8)
        sheet.text(x + 20, y, player["name"], size=10)
        shares = joined(f"{codes[c]} {n}" for c, n in player["shares"].items())
        flags = joined(codes[c] for c in player["flags"])
        cost = player["next_flag_cost"]
        values = [player["money"], player["cards"], shares or "-", flags or "-",
                  _("none left") if cost is None else cost]
        lines = sheet.cells(y, [(x + dx, width, value) for (_, dx, width), value in zip(columns[1:], values)],
                            size=10, leading=LINE)
        y += (lines - 1) * LINE
    return y + 6


def market(view, sheet, x, y):
    costs = view["costs"]
    sheet.text(x, y + 12, _("Market: {cards} (a card costs {card}; refresh {refresh})", cards=joined(view["market"])
                            or "-", card=costs["card"], refresh=costs["refresh"]), size=10)
    sheet.text(x, y + 28, ngettext("Deck: {deck} card. Warehouses left: {supply}. Cards played: {played}. Turn {turn}.",
                                   "Deck: {deck} cards. Warehouses left: {supply}. Cards played: {played}. Turn "
                                   "{turn}.", view["deck_count"], deck=view["deck_count"], supply=view["supply"],
                                   played=view["played"], turn=view["turn"]["number"]), size=10)
    return y + 32


def hand(view, sheet, x, y):
    cards = view["private"]["hand"]
    sheet.rect(x, y, 540, 24 + 15 * len(cards), fill="#ffffff", stroke=CANAL)
    sheet.text(x + 6, y + 16, ngettext("Hand of {player} ({count} card, for them only)",
                                       "Hand of {player} ({count} cards, for them only)", len(cards),
                                       player=view["private"]["player"], count=len(cards)), bold=True)
    for i, card in enumerate(cards):
        sheet.text(x + 10, y + 32 + i * 15, card_text(view, card), size=10)
