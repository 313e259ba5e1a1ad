"""Random play-outs of 2 to 6 players: they finish, and at every decision florins, cards, warehouses and shares are
conserved, a company is worth 10 a warehouse, and no view holds another player's hand. One seed per player count
by default (the generic suite plays four more, with schema checks); `pytest -m slow` plays ten."""
from __future__ import annotations

import pytest

from pbem.play import playout
from support import seeds

SEEDS = seeds(1, 10)
NAMES = ["ann", "bob", "cid", "dee", "eve", "fay"]


def cards_in_play(state):
    return sum(len(hand) for hand in state["hands"].values()) + len(state["deck"]) + len(state["market"]) \
        + state["played"]


def check_invariants(t, state, start):
    assert t.money_in_play(state) == start["money"]
    assert min(state["money"].values()) >= 0
    assert cards_in_play(state) == start["cards"]
    assert t.warehouses_placed(state) + state["supply"] == start["warehouses"]
    plots = [plot for data in state["companies"].values() for plot in data["plots"]]
    assert len(plots) == len(set(plots)), "a plot holds warehouses of two companies"
    for data in state["companies"].values():
        assert data["value"] == 10 * sum(data["plots"].values())
        assert sum(data["shares"].values()) <= state["values"]["shares_per_company"]
        if data["hq"] is None:
            assert not data["plots"] and not data["shares"] and data["flag"] is None
        else:
            assert data["hq"] in data["plots"]
    for player in state["players"]:
        assert sum(1 for data in state["companies"].values() if data["flag"] == player) <= 2


def check_hands_private(t, state):
    assert "private" not in t.view(state, None)
    for player in state["players"]:
        view = t.view(state, player)
        assert view["private"] == {"player": player, "hand": state["hands"][player]}
        assert [p["cards"] for p in view["players"]] == [len(state["hands"][p]) for p in state["players"]]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("seed", SEEDS)
def test_random_playout_finishes_and_conserves_florins_cards_warehouses_and_shares(t, players, seed):
    state = playout.start(t.game, NAMES[:players], seed=f"ch{seed}")
    start = {"money": t.money_in_play(state), "cards": cards_in_play(state), "warehouses": state["supply"]}
    for number, (_, _, state) in enumerate(playout.steps(t.game, state, seed=f"ch{seed}", bot_seed=seed), 1):
        check_invariants(t, state, start)
        if number % 20 == 0:
            check_hands_private(t, state)
    assert t.rules.pending(state) is None
    ranking = t.rules.result(state)
    assert sorted(row["player"] for row in ranking) == NAMES[:players]
    assert all(row["score"] == row["details"]["total"] for row in ranking)
