"""Coal Baron's setup: the components copied into the state, the pits, the first tiles and the order draft."""
from __future__ import annotations

from pbem.messages import NP_

from .phases.common import SURFACE, refill_display
from .phases.draft import start_draft


def setup(state, components, rng):
    """The state already holds the game's id, its rules version, the players and the options (pbem's)."""
    players = state["players"]
    n = len(players)
    numbers = next((row for row in components["setup"] if row["players"] == n), None)
    if numbers is None:
        raise ValueError(f"coal-baron is played by {', '.join(str(r['players']) for r in components['setup'])} players")
    comp = copy_components(components, n, numbers)
    tile_ids = [t for t, tile in comp["tiles"].items() if not tile.get("printed")]
    order_ids = list(comp["orders"])
    supply = {c: components["cubes_per_colour"] for c in comp["colours"]}
    pits = {}
    for p in players:
        pits[p] = new_pit(comp, numbers)
        for tunnel in pits[p]["tunnels"]:  # the printed carts take their cube from the 16 of their colour
            for cube in tunnel["carts"]:
                supply[cube] -= 1
    state.update({
        "components": comp,
        "shift": 1,
        # the Chinese rules: the start player at random
        "start_player": rng.choice(list(players), what=NP_("chance", "start player"), public=True),
        "turn": None,
        "tile_deck": rng.shuffle(tile_ids, what=NP_("chance", "tile deck"), public=False),
        "order_deck": rng.shuffle(order_ids, what=NP_("chance", "order deck"), public=False),
        "display": {s: None for s, sp in comp["spaces"].items() if sp["kind"] in ("factory", "order")},
        "board": {s: [] for s in comp["spaces"]},
        "canteen": {p: 0 for p in players},
        "supply": supply,
        "pits": pits,
        "phase": None,
        "draft": None,
        "awards": [],
        "stack": [],
        "over": False,
    })
    deal_tiles(state)
    start_draft(state)


def copy_components(components, n, numbers):
    """The part of the components later functions need, with the spaces locked for this player count left out."""
    pit = components["pit"]
    tiles = {t: dict(tile) for t, tile in components["tiles"].items()}
    for cart in pit["printed_carts"]:  # printed carts are pseudo-tiles: one cart, never bought, not in the balance
        tiles[cart["id"]] = {"colour": cart["colour"], "side": cart["side"], "carts": 1, "cost": 0, "printed": True}
    return {
        "colours": {c["id"]: c["level"] for c in components["colours"]},
        "cubes_per_colour": components["cubes_per_colour"],
        "transports": list(components["transports"]),
        "workers": numbers["workers"],
        "money": numbers["money"],
        "draft": dict(components["draft"]),
        "draw_count": components["draw_count"],
        "shifts": components["shifts"],
        "cage_capacity": pit["cage_capacity"],
        "substitute_cubes": pit["substitute_cubes"],
        "printed_carts": [c["id"] for c in pit["printed_carts"]],
        "final_scoring": dict(components["final_scoring"]),
        "spaces": {s["id"]: {k: v for k, v in s.items() if k not in ("id", "min_players")}
                   for s in components["spaces"] if s.get("min_players", 0) <= n},
        "shift_scoring": [dict(c) for c in components["shift_scoring"]],
        "phase_cards": {c["id"]: {k: v for k, v in c.items() if k not in ("id", "source")}
                        for c in components["phase_cards"]},
        "tiles": tiles,
        "orders": {o: {"transport": c["transport"], "vp": c["vp"], "cubes": list(c["cubes"])}
                   for o, c in components["orders"].items()},
    }


def new_pit(comp, numbers):
    tunnels = [{"tile": t, "carts": [comp["tiles"][t]["colour"]]} for t in comp["printed_carts"]]
    return {"money": numbers["money"], "workers": numbers["workers"], "vp": 0, "delivery_vp": 0,
            "tunnels": tunnels, "cage": {"level": SURFACE, "cubes": []}, "storage": [], "orders": [],
            "delivered": [], "shown_at_scorings": []}


def deal_tiles(state):
    """Setup: one face-up tile on each open factory space, from the shuffled stack (the order spaces wait for the
    draft's leftover)."""
    refill_display(state, kinds=("factory",))
