"""The stack of pending decisions a game keeps in its state, and the contract's `pending`, `legal_moves` and
`apply` over a game's table of handlers.

Every game keeps `state["stack"]`: frames {"player", "decision", "fresh_info" (optional), ...}, the top one the
decision now pending (a move pops it; the rules push what follows). Each game's decisions.py has one table,
`HANDLERS`, keyed by decision name (the names of meta.yaml `decisions`), each a `Handler(legal, apply)`:

    legal(state, frame) -> list[move]        every legal move of the frame's player
    apply(state, frame, move, rng) -> None   the move applied (the frame already popped); the rules push what follows

and says whether the game is over in one way, its scoring module's `is_over(state)`.
"""
from __future__ import annotations


class Handler:
    """One decision's two functions: its legal moves and their effect."""

    __slots__ = ("legal", "apply")

    def __init__(self, legal, apply):
        self.legal, self.apply = legal, apply


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


def legal_moves(handlers: dict[str, Handler], state: dict, player: str, over: bool) -> list[dict]:
    """The contract's legal_moves(): the pending decision's handler's, when it is `player`'s."""
    frame = frame_for(state["stack"], over, player)
    return [] if frame is None else handlers[frame["decision"]].legal(state, frame)


def apply(handlers: dict[str, Handler], state: dict, move: dict, rng) -> None:
    """The start of the contract's apply(): the pending frame popped and its handler applied."""
    frame = state["stack"].pop()
    handlers[frame["decision"]].apply(state, frame, move, rng)


def push(state: dict, decision: str, player: str, **data) -> None:
    """Make `player`'s `decision` the pending one (on top of the stack), with the frame's own data."""
    state["stack"].append({"decision": decision, "player": player, **data})
