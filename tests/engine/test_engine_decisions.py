"""pbem.decisions: the contract's pending() and legal_moves()' first step over a game's stack of decisions."""
from pbem import decisions

STACK = [{"player": "ann", "decision": "take_turn"}, {"player": "bob", "decision": "bid", "fresh_info": True}]


def test_the_top_frame_is_the_pending_decision():
    assert decisions.pending(STACK, over=False) == {"player": "bob", "decision": "bid", "fresh_info": True}
    assert decisions.pending(STACK[:1], over=False) == {"player": "ann", "decision": "take_turn",
                                                        "fresh_info": False}


def test_nothing_is_pending_once_the_game_is_over_or_the_stack_is_empty():
    assert decisions.pending(STACK, over=True) is None
    assert decisions.pending([], over=False) is None


def test_only_the_deciding_player_gets_the_frame():
    assert decisions.frame_for(STACK, False, "bob") is STACK[-1]
    assert decisions.frame_for(STACK, False, "ann") is None
    assert decisions.frame_for(STACK, True, "bob") is None
