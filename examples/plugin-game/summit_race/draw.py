"""Summit Race's picture, drawn from a view only: the mountain path from the foot (0) to the summit with each
climber's piece on their height, the deck and the discards, and the viewer's own hand below; its texts are messages
of the game's catalogue (report.py's domain), said in the reader's language."""
from __future__ import annotations

from pbem.messages import Domain

T = Domain("summit_race")
_, ngettext = T.gettext, T.ngettext

STEP = 24  # the width of one height on the path
SUMMIT = "#d8c8f0"


def draw(view: dict, viewer: str | None, sheet) -> None:
    y = path(view, sheet, 0, 0)
    y = piles(view, sheet, 0, y + 16)
    if view.get("private"):
        hand(view, sheet, 0, y + 12)
    sheet.key(("swatch", SUMMIT, "#1a1a1a", None), _("the summit"))
    sheet.key(("swatch", "#d9d0bd", "#1a1a1a", None), _("every fifth height"))


def path(view: dict, sheet, x: int, y: int) -> int:
    """One cell a height, every fifth one darker; the numbers written are those of the view only (the summit and
    the heights where climbers stand), so the picture shows nothing its view does not."""
    sheet.text(x, y + 12, _("The path to the summit (height {summit})", summit=view["summit"]), size=13, bold=True)
    top = y + 24
    for height in range(view["summit"] + 1):
        fill = SUMMIT if height == view["summit"] else "#d9d0bd" if height % 5 == 0 else "#f4f1ea"
        sheet.rect(x + height * STEP, top, STEP, 16, fill=fill)
    lowest = top + 16
    for height in range(view["summit"] + 1):
        here = [c["name"] for c in view["players"] if c["height"] == height]
        if here or height == view["summit"]:
            sheet.text(x + height * STEP + STEP / 2, top + 12, height, size=9, anchor="middle")
        for i, name in enumerate(here):
            sheet.token(name, x + height * STEP + STEP / 2, top + 30 + i * 20, 8)
            lowest = max(lowest, top + 40 + i * 20)
    return lowest


def piles(view: dict, sheet, x: int, y: int) -> int:
    for i, c in enumerate(view["players"]):
        sheet.token(c["name"], x + 8, y + 8 + i * 18, 7)
        sheet.text(x + 20, y + 12 + i * 18, climber_text(c), size=10)
    y += 18 * len(view["players"]) + 8
    sheet.text(x, y + 12, piles_text(view), size=10)
    return y + 16


def climber_text(climber: dict) -> str:
    count = climber["cards"]
    return ngettext("{player}: height {height}, {count} card in hand",
                    "{player}: height {height}, {count} cards in hand", count,
                    player=climber["name"], height=climber["height"], count=count)


def piles_text(view: dict) -> str:
    params = {"deck": view["deck_count"], "discards": len(view["discards"]), "empty": view["empty_decks"],
              "storms": view["storms"]}
    if view["discards"]:
        return _("Deck: {deck} cards. Discards: {discards} (top: {top}). Empty decks so far: {empty} of {storms}.",
                 top=view["discards"][-1], **params)
    return _("Deck: {deck} cards. Discards: none. Empty decks so far: {empty} of {storms}.", **params)


def hand(view: dict, sheet, x: int, y: int) -> None:
    cards = view["private"]["hand"]
    sheet.text(x, y + 12, _("Hand of {player} (for them only)", player=view["private"]["player"]), size=11, bold=True)
    for i, card in enumerate(cards):
        sheet.rect(x + i * 34, y + 20, 28, 38, fill="#e8f0ff", stroke="#0072b2", rx=3)
        sheet.text(x + i * 34 + 14, y + 45, card, size=16, anchor="middle", bold=True)
