"""What the phases of La Fièvre de l'Or share: seats, towns, owners, the chronicle of events, payments, the
bank, and the value of a concession.
"""
from __future__ import annotations

from pbem import decisions


BANK = "bank"


# The numbers an event card carries (its fee, gold, bonus, factor, hold-up range), shown with it in views.
EVENT_NUMBERS = ("fee", "factor", "gold", "bonus", "min", "max")


# Kept by choice and used later (the English rules).
KEPT_FOR_LATER = ("mustang", "telegraph")


def kept_card(state: dict, player: str, kind: str) -> str | None:
    """The first card of `kind` (KEPT_FOR_LATER) the player keeps, or None."""
    return next((card for card in state["kept"][player] if state["cards"][card]["kind"] == kind), None)


def use_kept(state: dict, player: str, kind: str) -> str:
    """A kept card played: out of the player's keeping, onto the discard pile; the card."""
    card = kept_card(state, player, kind)
    state["kept"][player].remove(card)
    discard(state, card)
    return card


def left_of(state: dict, player: str, steps: int = 1) -> str:
    players = state["players"]
    return players[(players.index(player) + steps) % len(players)]


def clockwise_from(state: dict, player: str) -> list[str]:
    return [left_of(state, player, k) for k in range(len(state["players"]))]


def town_of(state: dict, card: str) -> str:
    return state["cards"][card]["town"]


def concessions_of(state: dict, player: str, town: str | None = None) -> list[str]:
    return sorted(owned(state, player, town), key=listing_order(state))


def listing_order(state: dict):
    """The order a player's concessions are listed in: by town, then by number."""
    cards = state["cards"]
    return lambda cid: (cards[cid]["town"], cards[cid]["number"])


def holdings(state: dict) -> dict[str, list[str]]:
    """Every player's concessions, each list as concessions_of gives it, from one pass over the owners (a view
    lists everyone's)."""
    held = {player: [] for player in state["players"]}
    for cid, owner in state["owners"].items():
        if owner in held:
            held[owner].append(cid)
    order = listing_order(state)
    for cids in held.values():
        cids.sort(key=order)
    return held


def owned(state: dict, player: str, town: str | None = None) -> list[str]:
    """The player's concessions (of one town), in no order: for counts and sums (the search's rollouts count them
    at every decision)."""
    cards = state["cards"]
    return [cid for cid, owner in state["owners"].items()
            if owner == player and (town is None or cards[cid]["town"] == town)]


def saloons_of(state: dict, player: str) -> list[str]:
    return sorted(sid for sid, saloon in state["saloons"].items() if saloon["owner"] == player)


def find_player(state: dict, name: str) -> str:
    """Players are named in moves by their lower-cased name (the notation lower-cases every word)."""
    return next(player for player in state["players"] if player.lower() == name)


def push(state: dict, decision: str, player: str, fresh_info: bool = False, **extra) -> None:
    """La Fièvre de l'Or's frames always say whether they follow new information."""
    decisions.push(state, decision, player, fresh_info=fresh_info, **extra)


def chronicle(state: dict, player: str, card: str, effect: str) -> None:
    """What an event did, for the report."""
    state["turn"]["events"].append({"player": player, "card": card, "effect": effect})


def discard(state: dict, card: str | None) -> None:
    if card is not None:
        state["discard"].append(card)


def transfer(state: dict, payer: str, payee: str, amount: int) -> int:
    """Pay what you can (the English rules on bankruptcy: never more than you hold, no debt); the bank is a payee
    too."""
    paid = max(0, min(amount, state["gold"][payer]))
    state["gold"][payer] -= paid
    if payee == BANK:
        state["bank"]["taken_in"] += paid
    else:
        state["gold"][payee] += paid
    return paid


def bank_pays(state: dict, player: str, amount: int) -> None:
    state["gold"][player] += amount
    state["bank"]["paid_out"] += amount


def production_value(state: dict, concession: str) -> int:
    vein = state["veins"].get(concession)
    return state["cards"][concession]["nuggets"] + (state["cards"][vein]["bonus"] if vein else 0)


def int_ranges_without(low: int, high: int, excluded: int) -> list:
    """low..high but `excluded`: up to two ranges (a single value as itself)."""
    return [a if a == b else {"min": a, "max": b} for a, b in ((low, excluded - 1), (excluded + 1, high)) if a <= b]


def one_per_town(state: dict, action: str, field: str, targets: list[str]) -> list[dict]:
    """Concessions and saloons to aim at, one entry per town (a choice of one of its cards), so that the list
    stays short however many cards are on the table: at most one entry per town."""
    moves = []
    for town in state["towns"]:
        in_town = [target for target in targets if town_of(state, target) == town["id"]]
        if in_town:
            moves.append({"action": action, field: in_town if len(in_town) == 1 else
                          {"from": in_town, "min": 1, "max": 1}})
    return moves
