"""Coal Baron's queue words (meta.yaml `queues:`): the choice forms, the conditions and the events that disarm a
standing order. Each reads a view (the public one, or the player's own where meta.yaml says `private`), never the
state: a queue knows no more than its player."""
from __future__ import annotations


def draft_best(view: dict, legal: list[dict]) -> dict | None:
    """`draft best`: the revealed order worth most points, the first of them as listed."""
    points = {order["id"]: order["vp"] for order in (view["draft"] or {}).get("revealed", [])}
    offered = [move for move in legal if move["action"] == "draft" and move["order"] in points]
    return max(offered, key=lambda move: points[move["order"]]) if offered else None


def money(view: dict, player: str, amount: int) -> bool:
    """Money is hidden: only one's own is in one's view."""
    return view["private"]["player"] == player and view["private"]["money"] >= amount


def domain(view: dict, domain: str) -> bool:
    return (view["phase"] or {}).get("domain") == domain


def shift(view: dict, shift: int) -> bool:
    return view["shift"] == shift


def workers(view: dict, player: str, count: int) -> bool:
    return any(p["name"] == player and p["workers"] >= count for p in view["players"])


def free(view: dict, space: str) -> bool:
    return any(s["space"] == space and not s["workers"] for s in view["board"])


def new_shift(view: dict) -> int:
    return view["shift"]


PLACING = ("place_workers", "place_or_pass")


def turn(view: dict):
    """The turn under way: each placement (or pass) opens one, told apart by the shift, the workers left, the
    passes and the round's domain so far; the order draft is one turn, and so are a round's phase-card picks. The
    steps that follow a placement (mining, a card kept, a cube chosen) go on with its turn: None."""
    act = view["to_act"]
    if act is None or act["decision"] not in (*PLACING, "draft_orders", "pick_phase_card"):
        return None
    workers = sum(player["workers"] for player in view["players"])
    if act["decision"] == "draft_orders":
        return ["draft"]
    if act["decision"] == "pick_phase_card":
        return ["phase cards", view["shift"], workers]
    phase = view["phase"] or {}
    return [view["shift"], workers, len(phase.get("passed", [])), phase.get("domain")]


def names(view: dict, move: dict) -> dict:
    """A cube named by its colour, as storage prints it: the cage's while the cage at the surface holds one of that
    colour, else storage's (`put black on o12` is `put stored-black on o12` when the black cube is stored; each
    cube of `with` likewise, in turn); the log records `stored-black`."""
    if move["action"] not in ("fill", "cubes"):
        return move
    pit = next(pit for pit in view["pits"] if pit["player"] == view["to_act"]["player"])
    cage = list(pit["cage"]["cubes"]) if pit["cage"]["level"] == 0 else []
    stored = list(pit["storage"])
    written = move["cube"] if move["action"] == "fill" else move["cubes"]
    cubes = []
    for word in ([written] if move["action"] == "fill" else written):
        if word in cage:
            cage.remove(word)
        elif word in stored:
            stored.remove(word)
            word = f"stored-{word}"
        cubes.append(word)
    return {**move, "cube": cubes[0]} if move["action"] == "fill" else {**move, "cubes": cubes}
