"""Helpers for the Coal Baron tests: small states built by setup() with a fixed Rng, then edited."""
from __future__ import annotations

import copy

import pytest

from pbem import notation, registry
from pbem.rng import Rng

NAMES = ["alice", "bob", "carol", "dave"]


class Table:
    """A game in memory: moves are given as text and checked against legal_moves exactly as the engine does."""

    def __init__(self):
        self.game = registry.get("coal-baron")
        self.rules = self.game.rules
        self.number = 0

    def setup(self, players=2, options=None, seed="test"):
        names = NAMES[:players] if isinstance(players, int) else list(players)
        options = self.game.resolve_options(options or {})
        return self.rules.setup(names, options, self.game.default_components(), Rng(seed, "t", 0))

    def started(self, players=2, options=None, seed="test"):
        """Past the order draft (each drafter takes the first revealed card): the first placement is pending."""
        return self.draft(self.setup(players, options, seed))

    def draft(self, state):
        """Play the order draft: each drafter takes the first revealed card."""
        while self.rules.pending(state)["decision"] == "draft_orders":
            state = self.play(state, self.rules.legal_moves(state, self.to_act(state))[0])
        return state

    def to_act(self, state):
        return self.rules.pending(state)["player"]

    def legal_texts(self, state, player=None):
        player = player or self.to_act(state)
        return [self.game.format_move(m) for m in self.rules.legal_moves(state, player)]

    def is_legal(self, state, text, player=None):
        player = player or self.to_act(state)
        return notation.is_legal(self.game.parse_move(text), self.rules.legal_moves(state, player))

    def play(self, state, move, player=None):
        """Apply one move (text or dict) of the player to act; refuse it if it is not legal."""
        player = player or self.to_act(state)
        if isinstance(move, str):
            move = self.game.parse_move(move)
        legal = self.rules.legal_moves(state, player)
        assert notation.is_legal(move, legal), f"{self.game.format_move(move)} not legal for {player}: " \
                                               f"{[self.game.format_move(m) for m in legal]}"
        self.number += 1
        return self.rules.apply(copy.deepcopy(state), player, move, Rng("test", "t", self.number))

    def turn(self, state, line):
        """A whole turn written on one line, `;` between moves, as a player submits it."""
        for text in notation.split_turn(line):
            state = self.play(state, text)
        return state

    def give_turn(self, state, player, decision="place_workers", **data):
        """Make `player` the one to act now (the state's stack replaced by a single frame)."""
        frame = {"decision": decision, "player": player}
        frame.update(data)
        state["stack"] = [frame]
        state["turn"] = player
        return state


    @staticmethod
    def count_cubes(state):
        """Every cube of each colour wherever it is: supply, carts, cages, storage, spots of outstanding orders."""
        total = dict(state["supply"])
        for pit in state["pits"].values():
            cubes = [c for tunnel in pit["tunnels"] for c in tunnel["carts"] if c is not None]
            cubes += pit["cage"]["cubes"] + pit["storage"]
            cubes += [c for order in pit["orders"] for spot in order["spots"] for c in spot]
            for c in cubes:
                total[c] += 1
        return total


@pytest.fixture
def t():
    return Table()
