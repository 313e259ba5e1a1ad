"""What each player may see: everything on the table (map, crates, trucks, money, face-up cards, the discard
pile, the number of cards in the deck and in each hand); a player's own hand in their `private` part only. The
deck's order is never shown."""
from __future__ import annotations

from pbem import decisions
from pbem.memo import Bounded
from pbem.viewfields import for_bot, whole

from .phases.actions import capacity
from .phases.common import CENTRE, hauler
from .scoring import is_over


def location_view(state: dict, location: str, cell: str | None) -> dict:
    spec = state["components"]["locations"][location]
    alternate = location in state["map"]["alternate"]
    return {"id": location, "name": spec["name"], "cell": cell, "native": spec["native"],
            "demands": [{"good": g, "price": p} for g, p in spec["demands"].items()],
            "crates": dict(state["crates"].get(location, {})),
            "side": "alternate" if alternate else "standard",
            "roads": dict(spec["alternate"]) if alternate else {}}


PRINTED = Bounded(64)  # a game's location cards and alternate sides -> {card: view} (a search's rollouts copy them)


def printed_locations(state: dict) -> dict[str, dict]:
    """Each location card's view as location_view makes it, for a bot's view (pbem.viewfields.for_bot): made once a
    game's location cards and alternate sides, and copied for each view, its cell and crates then filled in. Its
    demands and roads are shared by the bot's views, which only read them."""
    cards, alternate = state["components"]["locations"], state["map"]["alternate"]
    return PRINTED.of(cards, lambda: {card: location_view(state, card, None) for card in cards}, *alternate)


def locations_view(state: dict, bot: bool) -> list[dict]:
    """Every location card: those on the map, in the map's order, then those removed (cell None)."""
    if not bot:
        return [location_view(state, loc, cell) for loc, cell in placed(state).items() if loc != CENTRE] \
            + [location_view(state, loc, None) for loc in state["removed"]]
    cards, crates, found = printed_locations(state), state["crates"], []
    for location, cell in [*placed(state).items(), *((loc, None) for loc in state["removed"])]:
        if location != CENTRE:
            view = cards[location].copy()
            view["cell"], view["crates"] = cell, dict(crates.get(location, {}))
            found.append(view)
    return found


def upgrade_view(state: dict, upgrade: str, cell: str | None, owner: str | None) -> dict:
    spec = state["components"]["truck_stops"][upgrade]
    return {"id": upgrade, "name": spec["name"], "cost": spec["cost"], "effect": spec["effect"],
            "amount": spec.get("amount"), "goods": list(spec.get("goods", [])), "text": spec["text"], "cell": cell,
            "owner": owner}


def upgrades_view(state: dict) -> list[dict]:
    """Every upgrade in the game: on the map (bought or not), still to be placed, or carried by its owner."""
    found = [upgrade_view(state, s["upgrade"], s["cell"], s["bought_by"]) for s in state["truck_stops"]]
    if state["setup"]:
        found += [upgrade_view(state, u, None, None) for u in state["setup"]["stops_to_place"]]
    on_map = {s["upgrade"] for s in state["truck_stops"]}
    found += [upgrade_view(state, h["upgrade"], None, p) for p, h in state["haulers"].items()
              if h["upgrade"] and h["upgrade"] not in on_map]
    return found


def player_view(state: dict, player: str) -> dict:
    truck = hauler(state, player)
    return {"name": player, "money": truck["money"], "cell": truck["cell"], "cargo": dict(truck["cargo"]),
            "capacity": capacity(state, player), "hand": len(truck["hand"]), "upgrade": truck["upgrade"]}


def to_act_view(state: dict) -> dict | None:
    if decisions.pending(state["stack"], is_over(state)) is None:
        return None
    top = state["stack"][-1]
    return {"player": top["player"], "decision": top["decision"], "route": top.get("route"),
            "upgrade": top.get("upgrade")}


def view(state: dict, player: str | None) -> dict:
    return whole(FIELDS, state, player)


FIELDS = {  # the view field by field (pbem.viewfields), each of (the state, the player, `make`), declared once
    # after the game's id, its rules version and the options (pbem writes them)
    "start_player": lambda state, player, make: state["start_player"],
    "money_goal": lambda state, player, make: state["components"]["money_goal"],
    "over": lambda state, player, make: state["over"],
    "to_act": lambda state, player, make: to_act_view(state),
    "turn": lambda state, player, make: None if state["turn"] is None else {
        "player": state["turn"]["player"], "route": state["turn"]["route"], "towed": state["turn"]["towed"]},
    "end": lambda state, player, make: dict(state["end"]),
    "frame": lambda state, player, make: dict(state["map"]["frame"]),
    "centre": lambda state, player, make: {"name": state["components"]["centre"]["name"],
                                           "cell": placed(state)[CENTRE]},
    "locations": lambda state, player, make: locations_view(state, for_bot(make)),
    "road_features": lambda state, player, make: {k: dict(v) for k, v in state["components"]["road_features"].items()},
    "upgrades": lambda state, player, make: upgrades_view(state),
    "players": lambda state, player, make: [player_view(state, p) for p in state["players"]],
    "goods": lambda state, player, make: [{"id": g, "colour": spec["colour"], "penalty": spec["penalty"]}
                                          for g, spec in state["components"]["goods"].items()],
    "fuel": lambda state, player, make: [{"id": f["id"], "spaces": f["spaces"]} for f in state["components"]["fuel"]],
    "location_capacity": lambda state, player, make: state["components"]["location_capacity"],
    "max_distance": lambda state, player, make: state["components"]["truck"]["max_distance"],
    "face_up": lambda state, player, make: list(state["face_up"]),
    "deck": lambda state, player, make: len(state["deck"]),
    "discard": lambda state, player, make: dict(state["discard"]),
    "private": lambda state, player, make: {"player": player, "hand": list(hauler(state, player)["hand"])},
}


def placed(state: dict) -> dict[str, str]:
    """Each location card on the map with its cell."""
    return {card: cell for cell, card in state["map"]["cells"].items()}
