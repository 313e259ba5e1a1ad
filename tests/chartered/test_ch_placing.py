"""board.Placing: what depends only on which plots each company holds, worked out once a placing and shared by every
state with it. Its answers must be those of the board worked out afresh, position after position of a game whose
state changes in place (as the search's rollouts change theirs)."""
from __future__ import annotations

import random

from pbem import bots
from pbem.games.chartered.phases import board
from pbem.rng import Rng

NAMES = ["ann", "bob", "cid", "dee"]


def touching_afresh(state: dict, plot: str) -> list[str]:
    near = set(board.neighbours_of(state, plot))
    return [company for company, data in state["companies"].items() if near & data["plots"].keys()]


def foundable_afresh(state: dict) -> list[str]:
    """The French rules' reading, by distances: clear of every company, with enough clear plots beside."""
    values = state["values"]
    if state["supply"] < 1 + values["free_warehouses"] or not board.free_companies(state):
        return []
    distance = board.distances_from_companies(state)
    return [plot for plot in board.adjacency(state) if board.clear_of_companies(state, distance, plot)
            and len(board.free_warehouse_plots(state, plot, distance)) >= values["free_warehouses"]]


def frontier_afresh(state: dict, company: str) -> str:
    taken = board.owners(state)
    edge = {n for plot in state["companies"][company]["plots"] for n in board.neighbours_of(state, plot)
            if n not in taken}
    return " ".join(sorted(edge, key=int))


def test_a_placing_answers_as_the_board_worked_out_afresh_at_every_position_of_a_game(t):
    state = t.rules.setup(NAMES, {}, t.components(), Rng("placing", "g", 0))
    rnd, number, founded = random.Random(3), 0, set()
    while t.rules.pending(state):
        number += 1
        for plot in board.adjacency(state):
            assert board.touching_companies(state, plot) == touching_afresh(state, plot)
        assert board.foundable_plots(state) == foundable_afresh(state)
        view = t.view(state, None)
        for company in view["companies"]:
            if company["founded"]:
                founded.add(company["id"])
                assert company["frontier"] == frontier_afresh(state, company["id"])
        player = t.to_act(state)
        move = t.game.normalise(bots.choose(t.legal(state, player), rnd))
        state = t.rules.apply(state, player, move, Rng("placing", "g", number))  # in place, as a rollout's
    assert number > 100 and len(founded) >= 3
