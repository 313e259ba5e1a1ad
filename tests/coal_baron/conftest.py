"""Helpers for the Coal Baron tests: small states built by setup() with a fixed Rng, then edited."""
from __future__ import annotations

from support import RuleTable, table_fixture


class Table(RuleTable):
    """Coal Baron on the table of a test: seeded chance, the order draft and turns in the game's own words."""

    game_id = "coal-baron"

    def started(self, players=2, options=None, seed="test"):
        """Past the order draft (each drafter takes the first revealed card): the first placement is pending."""
        return self.draft(self.new(players, options, seed=seed))

    def draft(self, state):
        """Play the order draft: each drafter takes the first revealed card."""
        while self.decision(state)[1] == "draft_orders":
            state = self.play(state, self.legal(state)[0])
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


t = table_fixture(Table)
