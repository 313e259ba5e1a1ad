"""La Fièvre de l'Or's picture, drawn from a view only: the cards on offer and the auction, each town with its
mayor, fee, governor and saloons and every player's concessions in it (number, nuggets, new vein), the players'
gold and score, and what the last turn brought (the roll, the events). Everything in this game is public but the
deck, so every player's picture is the public one."""
from __future__ import annotations

from .report import card_text, turn_lines

NUGGET = ("#d4a017", "N")
TOWN_W, TOWN_GAP = 150, 10
CARD_W = 200


def draw(view: dict, viewer: str | None, sheet) -> None:
    y = players_table(view, sheet, 0)
    if view["phase"] != "over":
        y = offer(view, sheet, y + 16)
    y = towns(view, sheet, y + 16)
    turns(view, sheet, y + 16)
    sheet.key(("piece", NUGGET[0], NUGGET[1], "circle"), "a nugget on a concession")
    sheet.key(("swatch", "#ffe0d0", "#d55e00", "4 2"), "dangerous mine")
    sheet.key(("glyph", "M"), "mayor")
    sheet.key(("glyph", "★"), "governor")
    sheet.key(("glyph", "+v"), "new vein (+3)")


def players_table(view, sheet, y):
    headers = [("player", 0), ("gold", 150), ("nuggets", 200), ("mayor of", 270), ("saloons", 460),
               ("cards kept", 600), ("score now", 760)]
    for head, x in headers:
        sheet.text(x, y + 12, head, bold=True)
    y += 16
    for player in view["players"]:
        y += 22
        sheet.token(player["name"], 9, y - 4)
        sheet.text(22, y, player["name"] + (" (you)" if player["name"] == view.get("viewer") else ""))
        saloons = ", ".join(f"{s['town']} ({s['fee']}{', girls' if s.get('girls') else ''})" for s in player["saloons"])
        kept = ", ".join(card["id"] for card in player["kept"])
        cells = [player["gold"], player["score"]["nuggets"], ", ".join(player["maires"]) or "-", saloons or "-",
                 kept or "-", player["score"]["total"]]
        for (_, x), value in zip(headers[1:], cells):
            sheet.text(x, y, value, size=10)
    bank = view["bank"]
    turn = view["turn"]
    sheet.text(0, y + 24, f"Turn {turn['number']}, first player {turn['first_player']}; deck {view['deck_count']} "
                          f"cards; bank paid out {bank['paid_out']}, took in {bank['taken_in']}")
    return y + 28


def offer(view, sheet, y):
    dangerous_mines = view["options"].get("dangerous-mines") == "on"
    turn = view["turn"]
    sheet.text(0, y + 12, "Cards on offer", size=13, bold=True)
    for i, slot in enumerate(turn["offer"]):
        x = i * (CARD_W + 10)
        card = slot["card"]
        danger = bool(card and dangerous_mines and card.get("dangerous"))
        sheet.rect(x, y + 20, CARD_W, 40, fill="#ffe0d0" if danger else "#ffffff",
                   stroke="#d55e00" if danger else "#1a1a1a", dash="4 2" if danger else None, rx=4)
        sheet.text(x + 6, y + 35, f"slot {slot['slot']}", size=9, fill="#555555")
        words = card_text(card, dangerous_mines)
        sheet.text(x + 6, y + 51, words if len(words) <= 34 else words[:33] + "…", size=9)
        if card and card["type"] == "concession":
            for n in range(card["nuggets"]):
                sheet.piece(x + CARD_W - 10 - n * 12, y + 32, NUGGET[0], NUGGET[1], size=10, shape="circle")
    bids = ", ".join(f"{b['player']} {'pass' if b['bid'] is None else b['bid']}" for b in turn["bids"]) or "none yet"
    high = f"; highest {turn['high_bid']} by {turn['high_bidder']}" if turn["high_bidder"] else ""
    sheet.text(0, y + 78, f"Bids: {bids}{high}")
    return y + 82


def towns(view, sheet, y):
    sheet.text(0, y + 12, "Towns and concessions", size=13, bold=True)
    top = y + 20
    bottom = top
    for i, town in enumerate(view["towns"]):
        x = i * (TOWN_W + TOWN_GAP)
        sheet.rect(x, top, TOWN_W, 56, fill="#f4f1ea", rx=4)
        sheet.text(x + 6, top + 15, town["name"], bold=True, size=11)
        sheet.text(x + 6, top + 29, f"({town['english']})", size=9, fill="#555555")
        if town["mayor"]:
            sheet.text(x + 6, top + 47, "M", bold=True)
            sheet.token(town["mayor"], x + 26, top + 43, 7)
        sheet.text(x + 42, top + 47, f"fee {town['fee']}" + ("  ★" if town["governor"] else ""), size=10)
        sheet.text(x + TOWN_W - 6, top + 47, f"saloons left {town['saloons_left']}", size=8, anchor="end")
        row_y = top + 64
        for player in view["players"]:
            for concession in sorted((c for c in player["concessions"] if c["town"] == town["id"]),
                                     key=lambda c: c["number"]):
                concession_card(concession, player["name"], sheet, x, row_y,
                                view["options"].get("dangerous-mines") == "on")
                row_y += 26
            for saloon in player["saloons"]:
                if saloon["town"] == town["id"]:
                    sheet.rect(x, row_y, TOWN_W, 22, fill="#ffffff", rx=3, dash="2 2")
                    sheet.token(player["name"], x + 11, row_y + 11, 7)
                    sheet.text(x + 22, row_y + 15, f"saloon, fee {saloon['fee']}", size=9)
                    row_y += 26
        bottom = max(bottom, row_y)
    return bottom


def concession_card(concession, owner, sheet, x, y, dangerous_mines):
    danger = dangerous_mines and concession["dangerous"]
    sheet.rect(x, y, TOWN_W, 22, fill="#ffe0d0" if danger else "#ffffff", stroke="#d55e00" if danger else "#1a1a1a",
               dash="4 2" if danger else None, rx=3)
    sheet.token(owner, x + 11, y + 11, 7)
    sheet.text(x + 22, y + 15, f"no. {concession['number']}" + (" +v" if concession["vein"] else ""), size=9,
               bold=True)
    for n in range(min(concession["value"], 8)):
        sheet.piece(x + TOWN_W - 9 - n * 11, y + 11, NUGGET[0], NUGGET[1], size=9, shape="circle")


def turns(view, sheet, y):
    for turn, current in ((view["previous_turn"], False), (view["turn"], True)):
        if not turn:
            continue
        sheet.text(0, y + 12, f"Turn {turn['number']}" + (" (now)" if current else ""), bold=True)
        y += 16
        if turn["roll"]:
            for i, pips in enumerate(turn["roll"]):
                die(sheet, 14 + i * 26, y + 14, pips)
            y += 28
        for line in turn_lines(turn, current):
            sheet.text(0, y + 12, line, size=10)
            y += 15
        y += 6
    return y


PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)], 4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
        5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)], 6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}


def die(sheet, x, y, pips):
    sheet.rect(x - 10, y - 10, 20, 20, fill="#ffffff", rx=3)
    for dx, dy in PIPS[pips]:
        sheet.circle(x + dx * 5, y + dy * 5, 1.8, fill="#1a1a1a", stroke="#1a1a1a", width=0.5)
