"""The production roll, the Telegraph's change of a die, the nuggets and saloon fees paid."""
from __future__ import annotations

from pbem.messages import NP_

from .common import (bank_pays, clockwise_from, int_ranges_without, kept_card, production_value, town_of,
                     transfer, use_kept)
from .events import remove_concession

# What the log says the roll was (in English, as every stored game holds it; the report reads it back)
PRODUCTION_ROLL = NP_("chance", "production roll, turn {turn}")


def roll_for_production(state: dict, rng) -> None:
    """The French rules: the auction winner always rolls the two dice."""
    turn = state["turn"]
    turn["roll"] = rng.roll(2, 6, what=PRODUCTION_ROLL.format(turn=turn["number"]), public=True)
    state["phase"] = "production"


def telegraph_holder(state: dict) -> str | None:
    """The English rules' Telegraph: after any production roll its holder may change one die; asked once per roll."""
    turn = state["turn"]
    for player in clockwise_from(state, turn["winner"]):
        if kept_card(state, player, "telegraph") and player not in turn["telegraph_asked"]:
            return player
    return None


def send_telegraph(state: dict, frame: dict, move: dict, rng) -> None:
    player = frame["player"]
    if move["action"] == "pass":
        return
    turn = state["turn"]
    use_kept(state, player, "telegraph")
    turn["telegraph"] = {"player": player, "die": move["die"], "from": turn["roll"][move["die"] - 1],
                         "to": move["value"]}
    turn["roll"][move["die"] - 1] = move["value"]


def produce(state: dict) -> None:
    """Every concession numbered like the dice pays its owner its nuggets from the bank; then each saloon of the
    town charges the owner of each producing concession its fee (2, or 4 with Saloon Girls)."""
    turn = state["turn"]
    total = sum(turn["roll"])
    producing = sorted(cid for cid in state["owners"] if state["cards"][cid]["number"] == total)
    for cid in producing:
        owner = state["owners"][cid]
        bank_pays(state, owner, production_value(state, cid))
        turn["production"].append({"player": owner, "concession": cid, "gold": production_value(state, cid)})
    for cid in producing:
        owner = state["owners"][cid]
        for sid in sorted(state["saloons"]):
            saloon = state["saloons"][sid]
            if town_of(state, sid) != town_of(state, cid) or saloon["owner"] == owner:
                continue
            fee = state["cards"][saloon["girls"] or saloon["event"]]["fee"]
            paid = transfer(state, owner, saloon["owner"], fee)
            turn["saloon_fees"].append({"player": owner, "saloon": sid, "owner": saloon["owner"], "amount": paid})
    if state["options"].get("dangerous-mines") == "on" and total in state["collapse_rolls"]:
        collapse_dangerous_mines(state)


def collapse_dangerous_mines(state: dict) -> None:
    """Option, the English rules: dangerous mines collapse on a production roll of 2 or 12 and leave the game."""
    for cid in sorted(state["owners"]):
        if state["cards"][cid]["dangerous"]:
            state["turn"]["collapsed"].append(cid)
            remove_concession(state, cid)


def legal_telegraph(state: dict, frame: dict) -> list[dict]:
    return [{"action": "pass"}] + [{"action": "telegraph", "die": die, "value": values}
                                   for die, shown in enumerate(state["turn"]["roll"], start=1)
                                   for values in int_ranges_without(1, 6, shown)]
