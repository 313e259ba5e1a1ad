"""What each player may see: everything but the deck's order and the cards set aside unseen."""
from __future__ import annotations

from pbem import decisions
from pbem.viewfields import built

from .phases.common import EVENT_NUMBERS, KEPT_FOR_LATER, holdings, production_value, saloons_of, town_of
from .phases.mayors import mayor_fee
from .scoring import is_over, score_lines


def card_view(state: dict, card: str) -> dict:
    data = state["cards"][card]
    if data["type"] == "concession":
        return {"id": card, "type": "concession", "town": data["town"], "number": data["number"],
                "nuggets": data["nuggets"], "dangerous": data["dangerous"]}
    if data["type"] == "saloon":
        return {"id": card, "type": "saloon", "town": data["town"]}
    numbers = {key: data[key] for key in EVENT_NUMBERS if key in data}  # printed on the card: public
    return {"id": card, "type": "event", "kind": data["kind"], "name": data["name"], **numbers}


def concession_view(state: dict, card: str) -> dict:
    """A concession held: card_view's fields, then its vein and value (one dict made at once: the search's
    rollouts make every player's at every decision)."""
    data = state["cards"][card]
    return {"id": card, "type": "concession", "town": data["town"], "number": data["number"],
            "nuggets": data["nuggets"], "dangerous": data["dangerous"], "vein": card in state["veins"],
            "value": production_value(state, card)}


def player_fields(state: dict, player: str, concessions: list[str]) -> dict:
    """A player's part field by field (pbem.viewfields); `concessions`: the player's (concessions_of)."""
    return {
        "name": lambda: player,
        "gold": lambda: state["gold"][player],
        "concessions": lambda: [concession_view(state, cid) for cid in concessions],
        "saloons": lambda: [{"id": sid, "town": town_of(state, sid),
                             "fee": state["cards"][state["saloons"][sid]["girls"] or state["saloons"][sid]["event"]]
                             ["fee"], "girls": state["saloons"][sid]["girls"] is not None}
                            for sid in saloons_of(state, player)],
        "maires": lambda: [town["id"] for town in state["towns"] if state["mayors"][town["id"]] == player],
        "kept": lambda: [{**card_view(state, card), "waiting": state["cards"][card]["kind"] not in KEPT_FOR_LATER}
                         for card in state["kept"][player]],
        "score": lambda: score_lines(state, player, concessions),
    }


def turn_view(state: dict, turn: dict) -> dict:
    return built(turn_fields(state, turn))


def turn_fields(state: dict, turn: dict) -> dict:
    """A turn field by field (pbem.viewfields): a bot reads its offer and roll, of all its records."""
    return {
        "number": lambda: turn["number"],
        "first_player": lambda: turn["first_player"],
        "offer": lambda: [{"slot": slot, "card": card_view(state, card) if card else None}
                          for slot, card in enumerate(turn["offer"], start=1)],
        "bids": lambda: [dict(bid) for bid in turn["bids"]],
        "high_bidder": lambda: turn["high"]["player"] if turn["high"] else None,
        "high_bid": lambda: turn["high"]["amount"] if turn["high"] else None,
        "passed": lambda: list(turn["passed"]),
        "winner": lambda: turn["winner"],
        "price": lambda: turn["price"],
        "payment": lambda: [dict(share) for share in turn["payment"]],
        "still_to_choose": lambda: list(turn["choosers"]),
        "taken": lambda: [dict(taken) for taken in turn["taken"]],
        "fees": lambda: [dict(fee) for fee in turn["fees"]],
        "holdups": lambda: [{**holdup, "dice": list(holdup["dice"])} for holdup in turn["holdups"]],
        "roll": lambda: list(turn["roll"]) if turn["roll"] else None,
        "telegraph": lambda: dict(turn["telegraph"]) if turn["telegraph"] else None,
        "production": lambda: [dict(line) for line in turn["production"]],
        "saloon_fees": lambda: [dict(line) for line in turn["saloon_fees"]],
        "collapsed": lambda: list(turn["collapsed"]),
        "events": lambda: [dict(line) for line in turn["events"]],
    }


def to_act_view(state: dict) -> dict:
    """Who decides what; for an event's target, the event card being played."""
    frame = state["stack"][-1]
    act = {"player": frame["player"], "decision": frame["decision"]}
    if "card" in frame:
        act["card"] = card_view(state, frame["card"])
    return act


def town_fields(state: dict, town: dict, governor: dict | None) -> dict:
    """A town field by field (pbem.viewfields)."""
    return {"id": lambda: town["id"], "name": lambda: town["name"], "english": lambda: town["english"],
            "mayor": lambda: state["mayors"][town["id"]],
            "governor": lambda: bool(governor and governor["town"] == town["id"]),
            "fee": lambda: mayor_fee(state, town["id"]),
            "saloons_left": lambda: sum(1 for sid in state["saloon_supply"] if town_of(state, sid) == town["id"])}


def view(state: dict, player: str | None) -> dict:
    return built(fields(state, player, built))


def fields(state: dict, player: str | None, make) -> dict:
    """The view field by field (pbem.viewfields; `make` makes a town and a player's part from their fields).
    Everything is public but the deck's order and the cards set aside unseen (their counts are public).
    ruling: gold is public (open coins on the table in the physical game)."""
    decision = decisions.pending(state["stack"], is_over(state))
    governor = state["governor"]
    public = {  # after the game's id, its rules version and the options (pbem writes them)
        "phase": lambda: state["phase"],
        "to_act": lambda: to_act_view(state) if decision else None,
        "deck_count": lambda: len(state["deck"]),
        "set_aside_count": lambda: len(state["set_aside"]),
        "points_per_maire": lambda: state["points_per_maire"],
        "turn": lambda: make(turn_fields(state, state["turn"])),
        "previous_turn": lambda: turn_view(state, state["previous_turn"]) if state["previous_turn"] else None,
        "towns": lambda: [make(town_fields(state, town, governor)) for town in state["towns"]],
        "players": lambda: [make(player_fields(state, p, concessions)) for p, concessions in holdings(state).items()],
        "bank": lambda: dict(state["bank"]),
        "discard": lambda: [card_view(state, card) for card in state["discard"]],
    }
    if player is not None:
        public["viewer"] = lambda: player
    return public
