"""Setting up a game: the components checked (a club may bring its own file), the deck shuffled, three cards dealt
to each climber, everyone at the foot of the mountain, and the first climber drawn."""
from __future__ import annotations

from pbem.contract import PbemError
from pbem.messages import NP_, Domain

from .phases import turn

T = Domain("summit_race")


def check_components(components: dict, players: int) -> None:
    """What the schema cannot say: the deck must deal every hand and never run dry while hands are full."""
    deck = sum(entry["count"] for entry in components["cards"])
    needed = players * (components["hand_limit"] + 1) + 1
    if components["hand"] > components["hand_limit"]:
        raise PbemError(T.lazy("components: a starting hand of {hand} is over the hand limit {limit}",
                               hand=components["hand"], limit=components["hand_limit"]))
    if deck < needed:
        raise PbemError(T.lazy("components: {players} climbers need a deck of at least {needed} cards, this one has "
                               "{deck}", players=players, needed=needed, deck=deck))


def setup(state: dict, components: dict, rng) -> None:
    """The state already holds the game's id, its rules version, the players and the options (pbem's)."""
    players = state["players"]
    check_components(components, len(players))
    cards = [entry["value"] for entry in components["cards"] for _ in range(entry["count"])]
    deck = rng.shuffle(cards, what=NP_("chance", "deck"))  # private: nobody sees the order
    size = components["hand"]
    hands = {player: sorted(deck[i * size:(i + 1) * size]) for i, player in enumerate(players)}
    state.update({
        "summit": components["routes"][state["options"]["route"]],
        "hand_limit": components["hand_limit"],
        "slide": components["slide"],
        "storms": components["storms"],
        "heights": {player: 0 for player in players},
        "hands": hands,
        "deck": deck[len(players) * size:],
        "discards": [],
        "empty_decks": 0,
        "winner": None,
        "over": False,
        "stack": [],
    })
    turn.begin_turn(state, rng.choice(list(players), what=NP_("chance", "first player"), public=True))
