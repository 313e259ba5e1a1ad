"""The stack of pending decisions a game keeps in its state, and the contract's `pending` and the start of its
`legal_moves` over it.

Every game here keeps `state["stack"]`: frames {"player", "decision", "fresh_info" (optional), ...}, the top one
the decision now pending (a move pops it; the rules push what follows). The rules differ only in how they say the
game is over, so they pass that in.
"""
from __future__ import annotations


def pending(stack: list[dict], over: bool) -> dict | None:
    """The contract's pending(): the top frame's player and decision; None once the game is over."""
    if over or not stack:
        return None
    top = stack[-1]
    return {"player": top["player"], "decision": top["decision"], "fresh_info": bool(top.get("fresh_info"))}


def frame_for(stack: list[dict], over: bool, player: str) -> dict | None:
    """The pending frame if the decision is `player`'s, else None (legal_moves() is then [])."""
    decision = pending(stack, over)
    return stack[-1] if decision is not None and decision["player"] == player else None
