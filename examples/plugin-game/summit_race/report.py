"""Summit Race's part of a text report, and a phrase for each legal move, built only from a view (so nothing hidden
can be printed): the climbers and their heights, the deck and the discards, and the viewer's own hand. Each text
is a message of the game's own catalogue (locale/), said in the reader's language (docs/translating.md)."""
from __future__ import annotations

from pbem.messages import Domain, joined
from pbem.tables import table

T = Domain("summit_race")
_, ngettext = T.gettext, T.ngettext


def climber(view: dict, name: str) -> dict:
    return next(c for c in view["players"] if c["name"] == name)


def headline(view: dict) -> str:
    summit = view["summit"]
    if view["winner"]:
        return _("Summit Race to height {summit}: {player} reached the summit", summit=summit, player=view["winner"])
    if view["over"]:
        return _("Summit Race to height {summit}: the storm ended the game", summit=summit)
    player = view["to_act"]["player"]
    if view["to_act"]["decision"] == "discard":
        return _("Summit Race to height {summit}: {player} to discard", summit=summit, player=player)
    return _("Summit Race to height {summit}: {player} to play", summit=summit, player=player)


def climbers_table(view: dict) -> str:
    rows = [[c["name"], c["height"], view["summit"] - c["height"], c["cards"]] for c in view["players"]]
    return table(rows, headers=[_("climber"), _("height"), _("to the summit"), _("cards in hand")])


def deck_text(view: dict) -> str:
    count = view["deck_count"]
    if view["empty_decks"] + 1 >= view["storms"]:
        deck = ngettext("Deck: {count} card (when a draw finds it empty, the storm comes).",
                        "Deck: {count} cards (when a draw finds it empty, the storm comes).", count, count=count)
    else:
        deck = ngettext("Deck: {count} card (when a draw finds it empty, the discards are shuffled into it).",
                        "Deck: {count} cards (when a draw finds it empty, the discards are shuffled into it).",
                        count, count=count)
    discards = view["discards"]
    pile = (_("Discards: {count}, the top one a {card}.", count=len(discards), card=discards[-1]) if discards
            else _("Discards: none."))
    return f"{deck}\n{pile}"  # two sentences, one a line: no language's sentence spacing is assumed


def hand_text(view: dict) -> str:
    hand = view["private"]["hand"]
    return _("Your hand: {cards}", cards=" ".join(map(str, hand))) if hand else _("Your hand: empty")


def render(view: dict, viewer: str | None) -> str:
    parts = [headline(view), climbers_table(view), deck_text(view)]
    if "private" in view:
        parts.append(hand_text(view))
    return "\n\n".join(parts) + "\n"


def describe(view: dict, move: dict) -> str:
    """What one legal move does, from the mover's view or the public one (the mover is then the climber to act): it
    reads only what both show, never the hand."""
    me = climber(view, view["private"]["player"] if "private" in view else view["to_act"]["player"])
    if move["action"] == "climb":
        return climb_text(view, me, me["height"] + move["card"])
    if move["action"] == "draw":
        left = view["deck_count"]
        if me["cards"] >= view["hand_limit"]:
            return _("a card from the deck ({left} left), then discard one ({limit} at most)",
                     left=left, limit=view["hand_limit"])
        return _("a card from the deck ({left} left)", left=left)
    return _("discard a {card} face up", card=move["card"])


def climb_text(view: dict, me: dict, height: int) -> str:
    if height == view["summit"]:
        return _("reach the summit and win")
    bumped = [c["name"] for c in view["players"] if c["name"] != me["name"] and c["height"] == height]
    if not bumped:
        return _("up to height {height}, then draw a card", height=height)
    # TRANSLATORS: {climbers} is the list of the climbers standing on that height, sent down {slide} heights.
    return ngettext("up to height {height}, then draw a card, {climbers} slides down {slide}",
                    "up to height {height}, then draw a card, {climbers} slide down {slide}", len(bumped),
                    height=height, climbers=joined(bumped), slide=view["slide"])
