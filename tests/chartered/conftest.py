"""Helpers for the Chartered tests: a game set up from the real components with a scripted rng (shuffles keep their
order, the first player is the first seat), then edited into the smallest position a rule needs; moves are played
as text and checked against legal_moves exactly as the engine does."""
from __future__ import annotations

from pbem.games.chartered.phases.cards import sort_hand
from support import SHORT_NAMES, RuleTable, table_fixture


class Table(RuleTable):
    """Chartered on the table of a test: chance scripted (hands, market and deck in component order, seat 1 to
    act); without options, the options of a game made before there were any (the earlier readings)."""

    game_id = "chartered"
    seats = SHORT_NAMES
    scripted = True
    fill_options = False

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

    @staticmethod
    def money_in_play(state):
        """Florins held plus what the bank took in minus what it paid out: never changes."""
        return sum(state["money"].values()) + state["bank"]["taken_in"] - state["bank"]["paid_out"]

    @staticmethod
    def warehouses_placed(state):
        return sum(floors for data in state["companies"].values() for floors in data["plots"].values())


t = table_fixture(Table)
