"""La Fièvre de l'Or's picture, drawn from a view only: the cards on offer and the auction, each town with its
mayor, fee, governor and saloons and every player's concessions in it (number, nuggets, new vein), the players'
gold and score, and what the last turn brought (the roll, the events). Everything in this game is public but the
deck, so every player's picture is the public one."""
from __future__ import annotations

from pbem.messages import NP_, Domain, joined

from .report import NEW_VEIN_BONUS, card_text, event_name, town_label, turn_lines, words

T = Domain("gold_fever")
_, pgettext = T.gettext, T.pgettext

NUGGET = ("#d4a017", NP_("mark", "N"))  # a nugget's colour and letter (the letter in the reader's language)
DANGER = ("#ffe0d0", "#d55e00", "4 2")  # a dangerous mine's card: its fill, border and dashes
SECONDARY = "#555555"
TOWN_W, TOWN_GAP = 150, 10
CARD_W = 200
CARDS_A_ROW = 4  # the cards on offer side by side: as wide as the players' table and the towns
LINE = 13  # a line of a table's cell


def draw(view: dict, viewer: str | None, sheet) -> None:
    name = namer(view)
    y = players_table(view, name, sheet, 0)
    if view["phase"] != "over":
        y = offer(view, name, sheet, y + 16)
    y = towns(view, sheet, y + 16)
    turns(view, name, sheet, y + 16)


def cards_in(view: dict) -> list[dict]:
    """Every card the view shows whole: on offer, kept, owned."""
    offered = [slot["card"] for slot in view["turn"]["offer"] if slot["card"]] if view.get("turn") else []
    return offered + [card for p in view["players"] for card in p["kept"] + p["concessions"]]


def namer(view: dict):
    """How the picture names an id of the notation: a town by its name (town_label), a concession by its town and
    number, a saloon card by its town, an event card by its name (event_name); never as a player types it
    (`new-london-9`)."""
    towns = {town["id"]: town_label(town) for town in view["towns"]}
    printed = {card["kind"]: card["name"] for card in cards_in(view) if card["type"] == "event"}

    def name(key: str) -> str:
        if key in towns:
            return towns[key]
        kind, _dash, number = key.rpartition("-")
        if kind in towns and number.isdigit():
            # TRANSLATORS: a concession card as the picture names it: its town's name and its number
            return pgettext("card", "{town} {number}", town=towns[kind], number=number)
        town = kind.removesuffix("-saloon")
        if town in towns and number.isdigit():
            return towns[town]  # a saloon card: "saloon" is said by the sentence naming it
        return event_name(kind, printed.get(kind)) if number.isdigit() else words(key).render()
    return name


def offer_text(card: dict | None, dangerous_mines: bool, name) -> str:
    """A card on offer, named as the picture names it."""
    if card is not None and card["type"] == "saloon":
        return _("saloon in {town}", town=name(card["town"]))
    if card is not None and card["type"] == "event":
        return event_name(card["kind"], card["name"])
    return card_text(card, dangerous_mines, lambda _id: name(card["town"]))


def nuggets(sheet, right: float, y: float, count: int, most: int) -> None:
    """`count` nuggets ending at `right`, one mark each up to `most`, beyond that one mark and the count."""
    letter = pgettext("mark", NUGGET[1])
    sheet.key(("piece", NUGGET[0], letter, "circle"), _("a nugget"))
    if count > most:
        sheet.piece(right - 38, y, NUGGET[0], letter, size=12, shape="circle")
        sheet.text(right - 30, y + 4, f"×{count}", size=10)
        return
    for n in range(count):
        sheet.piece(right - 6 - n * 13, y, NUGGET[0], letter, size=12, shape="circle")


def danger_box(sheet, x, y, w, h, dangerous: bool, rx: float) -> None:
    """A card's box, a dangerous mine's in its own colours and dashes (the legend says so only when drawn)."""
    if dangerous:
        sheet.rect(x, y, w, h, fill=DANGER[0], stroke=DANGER[1], dash=DANGER[2], rx=rx)
        sheet.key(("swatch", *DANGER), _("dangerous mine"))
    else:
        sheet.rect(x, y, w, h, fill="#ffffff", rx=rx)


def players_table(view, name, sheet, y):
    columns = [(_("player"), 0, 145), (_("gold"), 150, 45), (_("nuggets"), 200, 65), (_("mayor of"), 270, 185),
               (_("saloons"), 460, 135), (_("cards kept"), 600, 155), (_("score now"), 760, 60)]
    for head, x, _width in columns:
        sheet.text(x, y + 12, head, bold=True)
    y += 16
    for player in view["players"]:
        y += 22
        sheet.token(player["name"], 9, y - 4)
        sheet.text(22, y, _("{player} (you)", player=player["name"]) if player["name"] == view.get("viewer")
                   else player["name"])
        saloons = joined(_("{town} ({fee}, girls)", town=name(s["town"]), fee=s["fee"]) if s.get("girls")
                         else _("{town} ({fee})", town=name(s["town"]), fee=s["fee"]) for s in player["saloons"])
        kept = joined(name(card["id"]) for card in player["kept"])
        cells = [player["gold"], player["score"]["nuggets"], joined(name(town) for town in player["maires"]) or "-",
                 saloons or "-", kept or "-", player["score"]["total"]]
        lines = sheet.cells(y, [(x, width, value) for (_, x, width), value in zip(columns[1:], cells)], size=10,
                            leading=LINE)
        y += (lines - 1) * LINE
    bank = view["bank"]
    turn = view["turn"]
    sheet.text(0, y + 24, _("Turn {turn}, first player {player}; deck {deck} cards; bank paid out {paid}, took in "
                            "{taken}", turn=turn["number"], player=turn["first_player"], deck=view["deck_count"],
                            paid=bank["paid_out"], taken=bank["taken_in"]))
    return y + 28


def offer(view, name, sheet, y):
    dangerous_mines = view["options"].get("dangerous-mines") == "on"
    turn = view["turn"]
    sheet.text(0, y + 12, _("Cards on offer"), size=13, bold=True)
    for i, slot in enumerate(turn["offer"]):  # in rows no wider than the towns
        x, top = (i % CARDS_A_ROW) * (CARD_W + 10), y + 20 + (i // CARDS_A_ROW) * 66
        card = slot["card"]
        danger_box(sheet, x, top, CARD_W, 58, bool(card and dangerous_mines and card.get("dangerous")), 4)
        sheet.text(x + 6, top + 15, _("slot {slot}", slot=slot["slot"]), size=10, fill=SECONDARY)
        sheet.lines(x + 6, top + 32, offer_text(card, dangerous_mines, name), CARD_W - 12, size=10, leading=LINE)
        if card and card["type"] == "concession":
            nuggets(sheet, x + CARD_W - 4, top + 11, card["nuggets"], 6)
    y += (-(-len(turn["offer"]) // CARDS_A_ROW) - 1) * 66
    bids = joined(_("{player} pass", player=b["player"]) if b["bid"] is None
                  else _("{player} {bid}", player=b["player"], bid=b["bid"]) for b in turn["bids"]) or _("none yet")
    if turn["high_bidder"]:
        said = _("Bids: {bids}; highest {bid} by {player}", bids=bids, bid=turn["high_bid"], player=turn["high_bidder"])
    else:
        said = _("Bids: {bids}", bids=bids)
    lines = sheet.lines(0, y + 96, said, CARDS_A_ROW * (CARD_W + 10) - 10, leading=15)
    return y + 100 + (lines - 1) * 15


def towns(view, sheet, y):
    sheet.text(0, y + 12, _("Towns and concessions"), size=13, bold=True)
    top = y + 20
    bottom = top
    dangerous_mines = view["options"].get("dangerous-mines") == "on"
    for i, town in enumerate(view["towns"]):
        x = i * (TOWN_W + TOWN_GAP)
        sheet.rect(x, top, TOWN_W, 72, fill="#f4f1ea", rx=4)
        sheet.text(x + 6, top + 15, town_label(town), bold=True, size=11)
        sheet.text(x + 6, top + 29, f"({town['english']})", size=10, fill=SECONDARY)
        if town["mayor"]:
            mark = pgettext("mark", "M")  # a mayor's mark
            sheet.text(x + 6, top + 47, mark, bold=True)
            sheet.key(("glyph", mark), _("mayor"))
            sheet.token(town["mayor"], x + 28, top + 43, 8)
        sheet.text(x + 42, top + 47, _("fee {fee}", fee=town["fee"]) + ("  ★" if town["governor"] else ""), size=10)
        if town["governor"]:
            sheet.key(("glyph", "★"), _("governor"))
        sheet.text(x + 6, top + 63, _("saloons left {count}", count=town["saloons_left"]), size=10)
        row_y = top + 80
        for player in view["players"]:
            for concession in sorted((c for c in player["concessions"] if c["town"] == town["id"]),
                                     key=lambda c: c["number"]):
                concession_card(concession, player["name"], sheet, x, row_y, dangerous_mines)
                row_y += 26
            for saloon in player["saloons"]:
                if saloon["town"] == town["id"]:
                    sheet.rect(x, row_y, TOWN_W, 22, fill="#ffffff", rx=3, dash="2 2")
                    sheet.token(player["name"], x + 11, row_y + 11, 8)
                    sheet.text(x + 22, row_y + 15, _("saloon, fee {fee}", fee=saloon["fee"]), size=10)
                    row_y += 26
        bottom = max(bottom, row_y)
    return bottom


def concession_card(concession, owner, sheet, x, y, dangerous_mines):
    danger_box(sheet, x, y, TOWN_W, 22, dangerous_mines and concession["dangerous"], 3)
    sheet.token(owner, x + 11, y + 11, 8)
    number = concession["number"]
    sheet.text(x + 22, y + 15, _("no. {number} +v", number=number) if concession["vein"] else
               _("no. {number}", number=number), size=10, bold=True)
    if concession["vein"]:
        sheet.key(("glyph", "+v"), _("new vein (+{bonus})", bonus=NEW_VEIN_BONUS))
    nuggets(sheet, x + TOWN_W - 4, y + 11, concession["value"], 5)


def turns(view, name, sheet, y):
    for turn, current in ((view["previous_turn"], False), (view["turn"], True)):
        if not turn:
            continue
        sheet.text(0, y + 12, _("Turn {number} (now)", number=turn["number"]) if current else
                   _("Turn {number}", number=turn["number"]), bold=True)
        y += 16
        if turn["roll"]:
            for i, pips in enumerate(turn["roll"]):
                die(sheet, 14 + i * 26, y + 14, pips)
            y += 28
        for line in turn_lines(turn, current, name):
            y += 15 * sheet.lines(0, y + 12, line, 800, size=10, leading=15)
        y += 6
    return y


PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)], 4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
        5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)], 6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}


def die(sheet, x, y, pips):
    sheet.rect(x - 10, y - 10, 20, 20, fill="#ffffff", rx=3)
    for dx, dy in PIPS[pips]:
        sheet.circle(x + dx * 5, y + dy * 5, 1.8, fill="#1a1a1a", stroke="#1a1a1a", width=0.5)
