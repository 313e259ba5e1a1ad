"""Helpers for the La Fièvre de l'Or rule tests: small tables built from the real components, moves played
through the notation and checked against legal_moves, dice decided by the test."""
from __future__ import annotations

import copy

import pytest

from pbem import notation, registry
from support import ScriptedRng
from pbem.games.gold_fever.phases import common, mayors
from pbem.games.gold_fever.phases import turn as turns


class Table:
    """A game of gold-fever on the table of a test."""

    def __init__(self):
        self.game = registry.get("gold-fever")
        self.rules = self.game.rules
        self.rng_class = ScriptedRng

    def new(self, players=("ann", "bob", "cid"), options=None, components=None):
        """Turn 1, auction open, `players[0]` first; the deck in component order (concessions, then events)."""
        options = self.game.resolve_options(options or {})
        return self.rules.setup(list(players), options, components or self.game.default_components(),
                                ScriptedRng())

    def legal(self, state, player):
        return self.rules.legal_moves(state, player)

    def texts(self, state, player):
        """The legal moves as `pbem moves` lists them."""
        return [self.game.format_move(move) for move in self.legal(state, player)]

    def is_legal(self, state, player, text):
        return notation.is_legal(self.game.parse_move(text), self.legal(state, player))

    def play(self, state, player, text, dice=()):
        """Apply one move given as text, after checking it is legal; the rng used stays in `self.last_rng`."""
        move = self.game.parse_move(text)
        assert self.rules.pending(state)["player"] == player, self.rules.pending(state)
        assert notation.is_legal(move, self.legal(state, player)), (text, self.legal(state, player))
        rng = ScriptedRng(dice)
        new = self.rules.apply(copy.deepcopy(state), player, move, rng)
        assert not rng.dice, f"dice left unused: {rng.dice}"
        self.last_rng = rng
        return new

    def decision(self, state):
        pending = self.rules.pending(state)
        return (pending["player"], pending["decision"]) if pending else None

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
            state = self.play(state, player, f"take {slot}", dice=dice if last else ())
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


@pytest.fixture
def gf():
    return Table()
