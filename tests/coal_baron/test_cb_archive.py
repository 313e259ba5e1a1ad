"""Coal Baron's archived games (each replays to its stored result: tests/engine/test_engine_archives.py).
archive_cb_2p.yaml is the game rules.md ("A game checked by hand") computes line by line from the final state,
independently of result(). They were played by random bots under rules
version 2; version 3 changed only how moves are written, so their moves were rewritten in its notation and the games
are the same. A rule change that alters any of these games must raise rules_version."""
from __future__ import annotations

from pathlib import Path

from pbem.store import registry, yamlio
from support import replay_archive

GAME = registry.get("coal-baron")
HERE = Path(__file__).parent
ARCHIVES = sorted(HERE.glob("archive_cb_*.yaml"))


def replay(path):
    """The archived game and its final state."""
    archive, state, _ = replay_archive(GAME, path)
    assert GAME.rules.pending(state) is None
    return archive, state


def test_hand_checked_two_player_game_scores_as_computed_by_hand():
    _, state = replay(HERE / "archive_cb_2p.yaml")
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


def test_the_archive_holds_a_game_of_every_player_count():
    counts = sorted(len(yamlio.loads(p.read_bytes(), p.name)["players"]) for p in ARCHIVES)
    assert counts == [2, 3, 4]
