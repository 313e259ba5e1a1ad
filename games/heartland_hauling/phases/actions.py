"""Phase 2: at a truck stop, its upgrade may be bought; then one action: load one good (1 freight bill a crate
of the location's native good, 2 of any other; the truck holds 8), unload one good the location demands (1 bill
a crate, paid its price; a location holds 8 crates), or discard any number of cards for $1. A player who can
neither load nor unload and cannot pay for the discard is towed to the centre and discards for free."""
from __future__ import annotations

from . import board
from .common import add_crates, cargo_total, discard_cards, effect_amount, hauler, push, upgrade_effect
from .ending import check_money_goal
from .movement import send_to_centre


# ---------------------------------------------------------------- truck-stop upgrades


def stop_for_sale(state: dict, player: str) -> dict | None:
    """The truck stop the player stands on, if its upgrade is unsold, they own none yet and they can pay."""
    truck = hauler(state, player)
    stop = board.stop_at(state, truck["cell"])
    if stop is None or stop["bought_by"] is not None or truck["upgrade"] is not None:
        return None
    return stop if truck["money"] >= state["components"]["truck_stops"][stop["upgrade"]]["cost"] else None


def begin_buy(state: dict, player: str) -> bool:
    stop = stop_for_sale(state, player)
    if stop is not None:
        push(state, "buy_upgrade", player, upgrade=stop["upgrade"])
    return stop is not None


def legal_buy(state: dict, frame: dict) -> list[dict]:
    return [{"action": "pass"}, {"action": "buy", "upgrade": frame["upgrade"]}]


def buy_upgrade(state: dict, frame: dict, move: dict, rng) -> None:
    player = frame["player"]
    stop = board.stop_at(state, hauler(state, player)["cell"])
    hauler(state, player)["money"] -= state["components"]["truck_stops"][stop["upgrade"]]["cost"]
    hauler(state, player)["upgrade"] = stop["upgrade"]
    stop["bought_by"] = player
    state["turn"]["phase"] = "act"


def pass_upgrade(state: dict, frame: dict, move: dict, rng) -> None:
    state["turn"]["phase"] = "act"


# ---------------------------------------------------------------- loading and unloading


def location_here(state: dict, player: str) -> str | None:
    cell = hauler(state, player)["cell"]
    return board.card_at(state, cell) if board.is_location(state, cell) else None


def capacity(state: dict, player: str) -> int:
    truck = state["components"]["truck"]
    base = truck["short_haul_capacity"] if state["options"]["short-haul"] == "on" else truck["capacity"]
    return base + effect_amount(state, player, "extra-capacity")


def load_rate(state: dict, player: str, location: str, good: str) -> int:
    """Freight bills a crate: 1 for the location's native good, 2 for any other (a Forklift: always 1)."""
    native = state["components"]["locations"][location]["native"]
    return 1 if good == native or upgrade_effect(state, player, "native-rate") else 2


def load_bills(state: dict, player: str, location: str, good: str, crates: int) -> int:
    free = effect_amount(state, player, "free-load")  # a Pallet Jack loads that many crates without a bill
    return load_rate(state, player, location, good) * max(0, crates - free)


def most_loadable(state: dict, player: str, location: str, good: str) -> int:
    bills = hauler(state, player)["hand"].count(good)
    by_bills = bills // load_rate(state, player, location, good) + effect_amount(state, player, "free-load")
    room = capacity(state, player) - cargo_total(state, player)
    return max(0, min(state["crates"][location].get(good, 0), room, by_bills))


def unload_price(state: dict, player: str, location: str, good: str) -> int:
    price = state["components"]["locations"][location]["demands"][good]
    bonus = upgrade_effect(state, player, "unload-bonus")
    return price + (bonus["amount"] if bonus and good in bonus["goods"] else 0)


def unload_bills(state: dict, player: str, crates: int) -> int:
    return max(0, crates - effect_amount(state, player, "free-unload"))  # a Freight Broker: that many free


def most_unloadable(state: dict, player: str, location: str, good: str) -> int:
    if good not in state["components"]["locations"][location]["demands"]:
        return 0
    truck = hauler(state, player)
    bills = truck["hand"].count(good) + effect_amount(state, player, "free-unload")
    space = state["components"]["location_capacity"] - sum(state["crates"][location].values())
    return max(0, min(truck["cargo"].get(good, 0), bills, space))


def crate_entries(state: dict, player: str, action: str, most_of) -> list[dict]:
    """One entry a good for `load` or `unload` here: a range of 1 to the most crates `most_of` allows."""
    location = location_here(state, player)
    if location is None:
        return []
    entries = []
    for good in state["components"]["goods"]:
        most = most_of(state, player, location, good)
        if most:
            entries.append({"action": action, "good": good, "crates": {"min": 1, "max": most}})
    return entries


# ---------------------------------------------------------------- the action


def discard_price(state: dict, player: str) -> int:
    return 0 if upgrade_effect(state, player, "free-discard") else state["components"]["discard_cost"]


def discard_form(state: dict, player: str) -> dict | list:
    hand = sorted(hauler(state, player)["hand"])
    return {"from": hand, "min": 0, "max": len(hand)} if hand else []


def legal_act(state: dict, frame: dict) -> list[dict]:
    player = frame["player"]
    entries = (crate_entries(state, player, "load", most_loadable)
               + crate_entries(state, player, "unload", most_unloadable))
    affordable = hauler(state, player)["money"] >= discard_price(state, player)
    if entries:
        return entries + ([{"action": "discard", "cards": discard_form(state, player)}] if affordable else [])
    if affordable or state["turn"]["towed"]:  # forced to discard: free when broke (already towed: stays put)
        return [{"action": "discard", "cards": discard_form(state, player)}]
    return [{"action": "towed", "cards": discard_form(state, player)}]


def load_goods(state: dict, frame: dict, move: dict, rng) -> None:
    player, good, crates = frame["player"], move["good"], move["crates"]
    location = location_here(state, player)
    discard_cards(state, player, [good] * load_bills(state, player, location, good, crates))
    add_crates(state["crates"][location], good, -crates)
    add_crates(hauler(state, player)["cargo"], good, crates)
    state["turn"]["phase"] = "refill"


def unload_goods(state: dict, frame: dict, move: dict, rng) -> None:
    player, good, crates = frame["player"], move["good"], move["crates"]
    location = location_here(state, player)
    discard_cards(state, player, [good] * unload_bills(state, player, crates))
    add_crates(hauler(state, player)["cargo"], good, -crates)
    add_crates(state["crates"][location], good, crates)
    hauler(state, player)["money"] += unload_price(state, player, location, good) * crates
    check_money_goal(state, player)
    state["turn"]["phase"] = "refill"


def discard_action(state: dict, frame: dict, move: dict, rng) -> None:
    """$1 whatever the number of cards (none included); free when forced and broke."""
    player = frame["player"]
    truck = hauler(state, player)
    price = discard_price(state, player)
    if truck["money"] >= price:  # only a forced discard is ever offered to a player who cannot pay
        truck["money"] -= price
    discard_cards(state, player, move["cards"])
    state["turn"]["phase"] = "refill"


def tow_and_discard(state: dict, frame: dict, move: dict, rng) -> None:
    """Neither load nor unload possible and no money for the discard: towed to the centre, discard for free."""
    send_to_centre(state, frame["player"])
    state["turn"]["towed"] = True
    discard_cards(state, frame["player"], move["cards"])
    state["turn"]["phase"] = "refill"


ACTS = {"load": load_goods, "unload": unload_goods, "discard": discard_action, "towed": tow_and_discard}


def decide_upgrade(state: dict, frame: dict, move: dict, rng) -> None:
    """The `buy_upgrade` decision: buy the truck stop's upgrade, or pass."""
    (buy_upgrade if move["action"] == "buy" else pass_upgrade)(state, frame, move, rng)


def act(state: dict, frame: dict, move: dict, rng) -> None:
    """The `act` decision: load, unload, or discard cards (after a tow: `towed`)."""
    ACTS[move["action"]](state, frame, move, rng)
