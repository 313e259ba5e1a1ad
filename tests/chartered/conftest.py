"""Helpers for the Chartered tests: a game set up from the real components with a scripted rng (shuffles keep their
order, the first player is the first seat), then edited into the smallest position a rule needs; moves are played
as text and checked against legal_moves exactly as the engine does."""
from __future__ import annotations

import copy

import pytest

from pbem import notation, registry
from pbem.games.chartered.setup import sort_hand
from support import ScriptedRng

NAMES = ["ann", "bob", "cid", "dee", "eve", "fay"]


class Table:
    rng_class = ScriptedRng

    def __init__(self):
        self.game = registry.get("chartered")
        self.rules = self.game.rules

    def components(self):
        return self.game.default_components()

    def new(self, players=2, components=None, options=None):
        """A fresh game: seat 1 to act; hands, market and deck in component order (no shuffle). Without options,
        the options of a game made before there were any (the earlier readings)."""
        names = NAMES[:players]
        return self.rules.setup(names, options or {}, components or self.components(), ScriptedRng())

    def empty_hands(self, state):
        """Every hand emptied into the deck's end, so a test gives exactly the cards it needs."""
        for player, hand in state["hands"].items():
            state["deck"] += hand
            state["hands"][player] = []
        return state

    def give(self, state, player, *cards):
        for card in cards:
            if card in state["deck"]:
                state["deck"].remove(card)
            state["hands"][player].append(card)
        state["hands"][player] = sort_hand(state["hands"][player])
        return state

    def company(self, state, company, plots, hq=None, value=None, shares=None, flag=None):
        """Put a founded company on the board: {plot: floors}; its value is 10 a warehouse unless given."""
        data = state["companies"][company]
        data["plots"] = {str(plot): floors for plot, floors in plots.items()}
        data["hq"] = str(hq or next(iter(plots)))
        data["value"] = value if value is not None else 10 * sum(plots.values())
        data["shares"] = dict(shares or {})
        data["flag"] = flag
        state["supply"] -= sum(plots.values())
        return state

    def to_act(self, state):
        return self.rules.pending(state)["player"]

    def decision(self, state):
        pending = self.rules.pending(state)
        return (pending["player"], pending["decision"]) if pending else None

    def legal(self, state, player=None):
        return self.rules.legal_moves(state, player or self.to_act(state))

    def texts(self, state, player=None):
        return [self.game.format_move(move) for move in self.legal(state, player)]

    def is_legal(self, state, text, player=None):
        return notation.is_legal(self.game.normalise(self.game.parse_move(text)), self.legal(state, player))

    def play(self, state, text, player=None, rng=None):
        """Apply one move given as text after checking it is legal for the player to act."""
        player = player or self.to_act(state)
        assert self.to_act(state) == player, self.rules.pending(state)
        move = self.game.normalise(self.game.parse_move(text))
        assert notation.is_legal(move, self.legal(state, player)), (text, self.texts(state, player))
        return self.rules.apply(copy.deepcopy(state), player, move, rng or ScriptedRng())

    def turn(self, state, line):
        for text in notation.split_turn(line):
            state = self.play(state, text)
        return state

    @staticmethod
    def money_in_play(state):
        """Florins held plus what the bank took in minus what it paid out: never changes."""
        return sum(state["money"].values()) + state["bank"]["taken_in"] - state["bank"]["paid_out"]

    @staticmethod
    def warehouses_placed(state):
        return sum(floors for data in state["companies"].values() for floors in data["plots"].values())


@pytest.fixture
def t():
    return Table()
