"""Summit Race's part of a text report, and a phrase for each legal move, built only from a view (so nothing hidden
can be printed): the climbers and their heights, the deck and the discards, and the viewer's own hand."""
from __future__ import annotations

from pbem.tables import table


def climber(view: dict, name: str) -> dict:
    return next(c for c in view["players"] if c["name"] == name)


def headline(view: dict) -> str:
    text = f"Summit Race to height {view['summit']}"
    if view["winner"]:
        return f"{text}: {view['winner']} reached the summit"
    if view["over"]:
        return f"{text}: the storm ended the game"
    return f"{text}: {view['to_act']['player']} to {'discard' if view['to_act']['decision'] == 'discard' else 'play'}"


def climbers_table(view: dict) -> str:
    rows = [[c["name"], c["height"], view["summit"] - c["height"], c["cards"]] for c in view["players"]]
    return table(rows, headers=["climber", "height", "to the summit", "cards in hand"])


def deck_text(view: dict) -> str:
    storm = "the storm comes" if view["empty_decks"] + 1 >= view["storms"] else "the discards are shuffled into it"
    discards = view["discards"]
    pile = f"{len(discards)}, the top one a {discards[-1]}" if discards else "none"
    return f"Deck: {view['deck_count']} cards (when a draw finds it empty, {storm}). Discards: {pile}."


def hand_text(view: dict) -> str:
    hand = view["private"]["hand"]
    return f"Your hand: {' '.join(map(str, hand)) if hand else 'empty'}"


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
        height = me["height"] + move["card"]
        if height == view["summit"]:
            return "reach the summit and win"
        bumped = [c["name"] for c in view["players"] if c["name"] != me["name"] and c["height"] == height]
        slide = f", {' and '.join(bumped)} slide{'s' if len(bumped) == 1 else ''} down {view['slide']}" if bumped else ""
        return f"up to height {height}, then draw a card{slide}"
    if move["action"] == "draw":
        extra = f", then discard one ({view['hand_limit']} at most)" if me["cards"] >= view["hand_limit"] else ""
        return f"a card from the deck ({view['deck_count']} left){extra}"
    return f"discard a {move['card']} face up"
