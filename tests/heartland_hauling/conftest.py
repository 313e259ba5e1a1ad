"""Helpers for The Great Heartland Hauling Co. tests: a state from setup(), then edited into the smallest position
that shows a rule; moves are given as text and checked against legal_moves exactly as the engine does."""
from __future__ import annotations

from pbem.games.heartland_hauling.phases import ending, turn
from pbem.rng import Rng
from support import RuleTable, table_fixture

# A 3x3 map around the centre (c3), the standard 2-player layout:
#        b            c             d
#   2  eureka      midville      fort-lee
#   3  flint       centre        troy
#   4  tatanka     mount-berry   bedford-falls
SMALL = {"b2": "eureka", "c2": "midville", "d2": "fort-lee", "b3": "flint", "c3": "centre", "d3": "troy",
         "b4": "tatanka", "c4": "mount-berry", "d4": "bedford-falls"}


class Table(RuleTable):
    """The Great Heartland Hauling Co. on the table of a test: seeded chance, a map and trucks laid by the test."""

    SMALL = SMALL
    game_id = "heartland-hauling"

    def started(self, players=2, options=None, seed="test"):
        """Past every setup decision (each placed at the first legal cell): the first drive is pending."""
        state = self.new(players, options, seed=seed)
        while self.decision(state)[1] in ("place_location", "place_truck_stop"):
            state = self.play(state, self.game.normalise(self.first(state)))
        return state

    # ------------------------------------------------------------ editing a position

    def lay_map(self, state, cells: dict[str, str], crates: dict | None = None, size: int = 7):
        """Replace the map: {cell: location id or "centre"}; each location gets 5 native crates unless given."""
        state["map"] = {"frame": {"rows": size, "cols": size}, "cells": dict(cells), "alternate": []}
        locations = state["components"]["locations"]
        state["crates"] = {loc: ({locations[loc]["native"]: 5} if crates is None or loc not in crates
                                 else dict(crates[loc])) for loc in cells.values() if loc != "centre"}
        state["truck_stops"] = []
        state["removed"] = []
        centre = next(c for c, card in cells.items() if card == "centre")
        for h in state["haulers"].values():
            h["cell"] = centre
        return state

    def every_upgrade(self, state):
        """All 12 upgrades known to the state (a game keeps only the dealt ones), so a test may give any."""
        from pbem.games.heartland_hauling.setup import copy_components
        state["components"]["truck_stops"] = copy_components(self.game.default_components(), 2)["truck_stops"]
        return state

    def truck(self, state, player, cell=None, money=None, hand=None, cargo=None, upgrade="keep"):
        h = state["haulers"][player]
        if cell is not None:
            h["cell"] = cell
        if money is not None:
            h["money"] = money
        if hand is not None:
            h["hand"] = list(hand)
        if cargo is not None:
            h["cargo"] = dict(cargo)
        if upgrade != "keep":
            h["upgrade"] = upgrade
        return state

    def begin(self, state, player, phase="drive", towed=False):
        """Make it `player`'s turn at that phase: the stack emptied, the turn's next decision pushed."""
        state["setup"] = None
        state["stack"] = []
        state["turn"] = ending.new_turn(player)
        state["turn"]["phase"] = phase
        state["turn"]["towed"] = towed
        turn.advance(state, Rng("test", "t", 0))
        return state


def count_cards(state) -> dict[str, int]:
    """Every card wherever it is: deck, face up, discard pile, hands."""
    found = {}
    piles = [state["deck"], state["face_up"]] + [h["hand"] for h in state["haulers"].values()]
    for pile in piles:
        for card in pile:
            found[card] = found.get(card, 0) + 1
    for card, n in state["discard"].items():
        found[card] = found.get(card, 0) + n
    return found


def count_crates(state) -> dict[str, int]:
    """Every crate wherever it is: the box, the locations (removed ones included), the trucks."""
    found = dict(state["box"])
    for place in list(state["crates"].values()) + [h["cargo"] for h in state["haulers"].values()]:
        for good, n in place.items():
            found[good] += n
    return found


Table.count_cards = staticmethod(count_cards)
Table.count_crates = staticmethod(count_crates)


t = table_fixture(Table)
