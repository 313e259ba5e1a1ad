"""What each player may see: everything on the table (map, crates, trucks, money, face-up cards, the discard
pile, the number of cards in the deck and in each hand); a player's own hand in their `private` part only. The
deck's order is never shown."""
from __future__ import annotations

from pbem import decisions
from pbem.memo import Bounded
from pbem.viewfields import built, for_bot

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
    return built(fields(state, player, built))


def fields(state: dict, player: str | None, make) -> dict:
    """The view field by field (pbem.viewfields)."""
    comp = state["components"]
    public = {  # after the game's id, its rules version and the options (pbem writes them)
        "start_player": lambda: state["start_player"],
        "money_goal": lambda: comp["money_goal"],
        "over": lambda: state["over"],
        "to_act": lambda: to_act_view(state),
        "turn": lambda: None if state["turn"] is None else {
            "player": state["turn"]["player"], "route": state["turn"]["route"], "towed": state["turn"]["towed"]},
        "end": lambda: dict(state["end"]),
        "frame": lambda: dict(state["map"]["frame"]),
        "centre": lambda: {"name": comp["centre"]["name"], "cell": placed(state)[CENTRE]},
        "locations": lambda: locations_view(state, for_bot(make)),
        "road_features": lambda: {k: dict(v) for k, v in comp["road_features"].items()},
        "upgrades": lambda: upgrades_view(state),
        "players": lambda: [player_view(state, p) for p in state["players"]],
        "goods": lambda: [{"id": g, "colour": spec["colour"], "penalty": spec["penalty"]}
                          for g, spec in comp["goods"].items()],
        "fuel": lambda: [{"id": f["id"], "spaces": f["spaces"]} for f in comp["fuel"]],
        "location_capacity": lambda: comp["location_capacity"],
        "max_distance": lambda: comp["truck"]["max_distance"],
        "face_up": lambda: list(state["face_up"]),
        "deck": lambda: len(state["deck"]),
        "discard": lambda: dict(state["discard"]),
    }
    if player is not None:
        public["private"] = lambda: {"player": player, "hand": list(hauler(state, player)["hand"])}
    return public


def placed(state: dict) -> dict[str, str]:
    """Each location card on the map with its cell."""
    return {card: cell for cell, card in state["map"]["cells"].items()}
