"""Helpers for the La Fièvre de l'Or rule tests: small tables built from the real components, moves played
through the notation and checked against legal_moves, dice decided by the test."""
from __future__ import annotations

from pbem.games.gold_fever.phases import common, mayors
from pbem.games.gold_fever.phases import turn as turns
from support import SHORT_NAMES, RuleTable, ScriptedRng, table_fixture


class Table(RuleTable):
    """La Fièvre de l'Or on the table of a test: three seats unless told, chance scripted (the deck in component
    order, concessions then events; dice given to `play`), auctions and holdings in the game's own words."""

    game_id = "gold-fever"
    seats = SHORT_NAMES
    players = 3
    scripted = True

    def at_choice(self, state, winner, offer, choosers=None):
        """The auction is over (won by `winner` at 0); `offer` is on the table and `winner` chooses first."""
        turn = state["turn"]
        turn["offer"] = list(offer)
        state["deck"] = [card for card in state["deck"] if card not in offer]
        turn["high"], turn["winner"], turn["price"] = None, winner, 0
        turn["choosers"] = list(choosers) if choosers is not None else common.clockwise_from(state, winner)
        state["phase"] = "choosing"
        state["stack"] = []
        turns.advance(state, ScriptedRng())
        return state

    def take_remaining(self, state, dice):
        """Everyone still to choose takes the first card left; the last choice brings the roll."""
        while self.decision(state) and self.decision(state)[1] == "choose_card":
            player = self.decision(state)[0]
            last = sum(card is not None for card in state["turn"]["offer"]) == 1
            slot = next(n for n, card in enumerate(state["turn"]["offer"], 1) if card)
            state = self.play(state, f"take {slot}", player, dice=dice if last else ())
        return state

    def own(self, state, player, *concessions):
        for cid in concessions:
            state["owners"][cid] = player
            state["deck"] = [card for card in state["deck"] if card != cid]
        for town in {common.town_of(state, cid) for cid in concessions}:
            mayors.appoint_mayor(state, town)
        return state

    def hold(self, state, player, *cards):
        for card in cards:
            state["kept"][player].append(card)
            state["deck"] = [c for c in state["deck"] if c != card]
        return state

    def money_total(self, state):
        return sum(state["gold"].values()) + state["bank"]["taken_in"] - state["bank"]["paid_out"]


gf = table_fixture(Table, "gf")
