"""Money, shares and flags: the bank, the stock board and what a player may buy or sell after building.

The bank never runs out; it keeps a ledger (paid out, taken in) so that the florins in play plus what the bank
took in, minus what it paid out, never change.
"""
from __future__ import annotations


def bank_pays(state: dict, player: str, amount: int) -> None:
    state["money"][player] += amount
    state["bank"]["paid_out"] += amount


def pay_bank(state: dict, player: str, amount: int) -> None:
    state["money"][player] -= amount  # every cost is checked against the player's florins in legal_moves
    state["bank"]["taken_in"] += amount


def share_price(state: dict, company: str) -> int:
    """The stock board: the price of the highest step the company's capitalisation reaches."""
    value = state["companies"][company]["value"]
    price = 0
    for step in state["stock_board"]:
        if value >= step["value"]:
            price = step["price"]
    return price


def buying_price(state: dict, company: str) -> int:
    """French rules: a share is bought at its stock-board price, but never for less than 50 florins."""
    return max(state["costs"]["minimum_share_price"], share_price(state, company))


def shares_held(state: dict, player: str, company: str) -> int:
    return state["companies"][company]["shares"].get(player, 0)


def shares_left(state: dict, company: str) -> int:
    """Share cards still at the bank."""
    return state["values"]["shares_per_company"] - sum(state["companies"][company]["shares"].values())


def give_share(state: dict, player: str, company: str) -> None:
    shares = state["companies"][company]["shares"]
    shares[player] = shares.get(player, 0) + 1


def take_share(state: dict, player: str, company: str) -> None:
    shares = state["companies"][company]["shares"]
    shares[player] -= 1
    if not shares[player]:
        del shares[player]


def companies_held(state: dict, player: str) -> list[str]:
    return [company for company, data in state["companies"].items() if data["shares"].get(player)]


def flags_of(state: dict, player: str) -> list[str]:
    return [company for company, data in state["companies"].items() if data["flag"] == player]


def flag_cost(state: dict, player: str) -> int | None:
    """French rules: a player's first flag costs 200, the second 400; a player has no more flags than that.
    ruling: the cost counts the player's flags on the board now, so a flag returned by a merger is bought at the
    first price again."""
    costs = state["costs"]["flags"]
    placed = len(flags_of(state, player))
    return costs[placed] if placed < len(costs) else None


def buyable_companies(state: dict, player: str) -> list[str]:
    """Founded companies with a share card at the bank that the player can pay for."""
    return [company for company, data in state["companies"].items()
            if data["hq"] is not None and shares_left(state, company) > 0
            and buying_price(state, company) <= state["money"][player]]


def buy_share(state: dict, player: str, company: str) -> None:
    pay_bank(state, player, buying_price(state, company))
    give_share(state, player, company)


def sell_share(state: dict, player: str, company: str) -> None:
    """A share goes back to the bank at its stock-board price."""
    take_share(state, player, company)
    bank_pays(state, player, share_price(state, company))


def can_buy_flag(state: dict, player: str, company: str | None) -> bool:
    """ruling: the flag is that of the company just built on ("un drapeau de la société"), one per company."""
    if company is None or state["companies"][company]["flag"] is not None:
        return False
    cost = flag_cost(state, player)
    return cost is not None and cost <= state["money"][player]


def buy_flag(state: dict, player: str, company: str) -> None:
    pay_bank(state, player, flag_cost(state, player))
    state["companies"][company]["flag"] = player


def flag_value(state: dict, company: str) -> int:
    """French rules: a flag is worth 4 shares of its company."""
    return state["values"]["flag_shares"] * share_price(state, company)
