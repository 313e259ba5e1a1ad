"""Phase 3, the refill: back to 5 cards one at a time, from the deck or the face-up three (replaced at once);
each card drawn is new information the player sees before choosing the next; hands are private."""
from __future__ import annotations

import pytest

from pbem.contract import PbemError
from pbem.engine import engine
from pbem.rng import Rng


def refilling(t, hand, deck=None, face_up=None, discard=None):
    state = t.lay_map(t.started(2), t.SMALL)
    t.truck(state, "alice", cell="b2", hand=list(hand))
    if deck is not None:
        state["deck"] = list(deck)
    if face_up is not None:
        state["face_up"] = list(face_up)
    if discard is not None:
        state["discard"] = dict(discard)
    return t.begin(state, "alice", phase="refill")


def test_the_hand_is_refilled_to_five_one_card_at_a_time(t):
    state = refilling(t, ["corn", "corn"], deck=["pigs", "cattle", "fuel-1", "corn"], face_up=["fuel-2", "soybeans"])
    for size in (3, 4, 5):
        assert t.decision(state)[1] == "refill"
        state = t.play(state, "draw")
        assert len(state["haulers"]["alice"]["hand"]) == size
    assert state["turn"]["player"] == "bob"
    assert state["haulers"]["alice"]["hand"] == ["fuel-1", "corn", "corn", "cattle", "pigs"]


def test_a_face_up_card_is_replaced_from_the_deck_at_once(t):
    state = refilling(t, ["corn"] * 4, deck=["pigs", "cattle"], face_up=["fuel-2", "soybeans", "corn"])
    assert t.legal_texts(state) == ["draw", "take fuel-2", "take soybeans", "take corn"]
    state = t.play(state, "take soybeans")
    assert state["face_up"] == ["fuel-2", "pigs", "corn"] and state["deck"] == ["cattle"]
    assert "soybeans" in state["haulers"]["alice"]["hand"]


def test_each_card_drawn_makes_the_next_refill_decision_fresh_information(t):
    state = refilling(t, ["corn"] * 3, deck=["pigs", "cattle", "fuel-1"], face_up=["fuel-2"])
    assert t.rules.pending(state)["fresh_info"] is False  # the first draw follows the action
    state = t.play(state, "draw")
    assert t.rules.pending(state)["fresh_info"] is True


def test_a_submitted_turn_stops_where_a_drawn_card_must_be_seen_first(t):
    state = refilling(t, ["corn"] * 3, deck=["pigs", "cattle", "fuel-1"], face_up=["fuel-2"])
    moves = [t.game.parse_move("draw"), t.game.parse_move("draw")]
    with pytest.raises(PbemError, match="new information"):
        engine.play_turn(t.game, state, "alice", moves, Rng("s", "t", 1))


def test_an_empty_deck_is_made_again_from_the_shuffled_discard_pile(t):
    state = refilling(t, ["corn"] * 4, deck=[], face_up=["fuel-2"], discard={"pigs": 2, "cattle": 1})
    state = t.play(state, "draw")
    assert state["discard"] == {}
    assert sorted(state["deck"] + [c for c in state["haulers"]["alice"]["hand"] if c != "corn"]) == \
        ["cattle", "pigs", "pigs"]


def test_a_face_up_slot_stays_empty_only_when_no_card_is_left(t):
    state = refilling(t, ["corn"] * 4, deck=[], face_up=["fuel-2", "pigs"], discard={})
    assert t.legal_texts(state) == ["take fuel-2", "take pigs"]
    state = t.play(state, "take pigs")
    assert state["face_up"] == ["fuel-2"]


def test_hands_are_private_others_see_their_size_and_nobody_the_deck_order(t):
    state = t.started(3)
    alice = t.view(state, "alice")
    assert alice["private"]["hand"] == state["haulers"]["alice"]["hand"]
    for viewer in (None, "bob"):
        view = t.view(state, viewer)
        assert [p["hand"] for p in view["players"]] == [5, 5, 5]
        assert view["deck"] == len(state["deck"])
        text = repr(view)
        assert "private" not in view or view["private"]["player"] == viewer
        if viewer is None:
            assert "'hand': [" not in text
    assert "private" not in t.view(state, None)
