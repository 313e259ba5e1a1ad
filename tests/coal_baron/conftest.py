"""Helpers for the Coal Baron tests: small states built by setup() with a fixed Rng, then edited."""
from __future__ import annotations

import pytest

from pbem.rng import Rng
from support import RuleTable

NAMES = ["alice", "bob", "carol", "dave"]


class Table(RuleTable):
    """A game in memory: moves are given as text and checked against legal_moves exactly as the engine does."""

    game_id = "coal-baron"

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
