"""Archived complete games replayed to their stored final scores. The 2-player game is the one `pbem demo` plays
with seed cb-hand-2p; rules.md ("A game checked by hand") computes its final scoring line by line from the final
state, independently of result(). A rule change that alters any of these games must raise rules_version."""
from __future__ import annotations

import pytest

from pbem import playout, registry

GAME = registry.get("coal-baron")


def play(players, game_id):
    return playout.play(GAME, players, {}, seed=game_id, bot_seed=game_id, game_id=game_id)


def test_hand_checked_two_player_game_scores_as_computed_by_hand():
    state = play(["alice", "bob"], "cb-hand-2p")
    by_hand = {  # rules.md, "A game checked by hand"
        "alice": {"deliveries": 4, "shift 1": 0, "shift 2": 0, "shift 3": 47, "money": "1 -> +0",
                  "cubes": "19 -> +6", "outstanding orders": "12 -> -12", "lit/dark tiles": "5/8 -> -6",
                  "total": 39, "tie-break: money left over": 1},
        "bob": {"deliveries": 0, "shift 1": 0, "shift 2": 0, "shift 3": 11, "money": "1 -> +0",
                "cubes": "24 -> +8", "outstanding orders": "12 -> -12", "lit/dark tiles": "8/5 -> -6",
                "total": 1, "tie-break: money left over": 1},
    }
    result = GAME.rules.result(state)
    assert [(r["player"], r["score"], r["rank"]) for r in result] == [("alice", 39, 1), ("bob", 1, 2)]
    assert {r["player"]: r["details"] for r in result} == by_hand
    shift_3 = sorted((a["category"], a["player"], a["vp"]) for a in state["awards"])
    assert shift_3 == [("empty-black-carts", "alice", 13), ("empty-brown-carts", "bob", 11),
                       ("empty-grey-carts", "alice", 12), ("empty-yellow-carts", "alice", 10),
                       ("grey-cubes", "alice", 4), ("lorry", "alice", 8)]


@pytest.mark.parametrize("players,game_id,scores", [
    (["alice", "bob", "carol"], "cb-hand-3p", [("alice", 28, 1), ("bob", 14, 2), ("carol", -9, 3)]),
    (["alice", "bob", "carol", "dave"], "cb-hand-4p",
     [("alice", 43, 1), ("carol", 19, 2), ("bob", -4, 3), ("dave", -9, 4)]),
])
def test_archived_game_replays_to_its_stored_final_scores(players, game_id, scores):
    result = GAME.rules.result(play(players, game_id))
    assert [(r["player"], r["score"], r["rank"]) for r in result] == scores
