"""Building a warehouse (French rules, B): founding a company, expanding one, stacking a floor, and merging.

A company's capitalisation is 10 florins a warehouse: 30 at its founding (3 warehouses), +10 per warehouse added
(a new plot or a floor), and in a merger the survivor adds the absorbed company's value plus the 10 of the
warehouse that joined them. The builder then receives florins equal to the capitalisation of the company built on.
"""
from __future__ import annotations

from . import board, shares


def place_warehouse(state: dict, plot: str, company: str) -> None:
    """One warehouse from the supply onto a plot: the first floor there, or one more. A company's plots are kept
    in number order, so the files read the same way every time."""
    plots = state["companies"][company]["plots"]
    state["companies"][company]["plots"] = in_plot_order({**plots, plot: plots.get(plot, 0) + 1})
    state["supply"] -= 1


def in_plot_order(plots: dict[str, int]) -> dict[str, int]:
    return dict(sorted(plots.items(), key=lambda item: board.plot_order(item[0])))


def expand(state: dict, plot: str, company: str) -> str:
    """A warehouse on an empty plot beside the company, or on one of its plots: +10."""
    place_warehouse(state, plot, company)
    state["companies"][company]["value"] += state["values"]["floor"]
    return company


def stack_floor(state: dict, plot: str) -> str:
    """A warehouse on an occupied plot (its plot card, or a level card) stacks a floor on it."""
    return expand(state, plot, board.company_at(state, plot))


def found(state: dict, player: str, plot: str, company: str, free_plots: list[str]) -> str:
    """French rules: the first warehouse on the card's plot and the two free ones beside it; the company starts
    at 30 with its headquarters on the first plot, and the founder takes one of its share cards."""
    for where in [plot, *free_plots]:
        place_warehouse(state, where, company)
    data = state["companies"][company]
    data["value"] = state["values"]["founding"]
    data["hq"] = plot
    shares.give_share(state, player, company)
    return company


def merger_survivors(state: dict, companies: list[str]) -> list[str]:
    """French rules: the company with the higher capitalisation wins the merger. All those tied for the highest
    are returned; the builder chooses among them (ruling)."""
    best = max(state["companies"][c]["value"] for c in companies)
    return [c for c in companies if state["companies"][c]["value"] == best]


def merge(state: dict, plot: str, survivor: str, companies: list[str]) -> str:
    """French rules, in order: the merged company gains 10 (the warehouse joining them); every share of each
    absorbed company is sold to the bank at its stock-board price; the survivor gains the absorbed value; the
    absorbed company leaves the board and may be founded again (at 30)."""
    place_warehouse(state, plot, survivor)
    state["companies"][survivor]["value"] += state["values"]["merger"]
    record = {"plot": plot, "survivor": survivor, "absorbed": []}
    absorbed = sorted((c for c in companies if c != survivor),
                      key=lambda c: (-state["companies"][c]["value"], list(state["companies"]).index(c)))
    for company in absorbed:
        record["absorbed"].append(absorb(state, survivor, company))
    record["value"] = state["companies"][survivor]["value"]
    state["last_merger"] = record  # for the report; the log keeps every move
    return survivor


def absorb(state: dict, survivor: str, company: str) -> dict:
    data = state["companies"][company]
    price = shares.share_price(state, company)
    payouts = []
    for player in state["players"]:
        held = data["shares"].get(player, 0)
        flag = data["flag"] == player
        amount = price * held + (shares.flag_value(state, company) if flag else 0)
        if held or flag:
            shares.bank_pays(state, player, amount)
            payouts.append({"player": player, "shares": held, "flag": flag, "amount": amount})
    survivor_data = state["companies"][survivor]
    survivor_data["plots"] = in_plot_order({**survivor_data["plots"], **data["plots"]})
    survivor_data["value"] += data["value"]
    entry = {"company": company, "value": data["value"], "price": price, "payouts": payouts}
    # ruling: the absorbed company's flag goes back to its owner, paid as 4 shares like the share cards.
    data.update(value=0, hq=None, plots={}, shares={}, flag=None)
    return entry


def receive_income(state: dict, player: str, company: str) -> None:
    """French rules: the builder receives florins equal to the capitalisation of the company built on."""
    income = state["companies"][company]["value"]
    shares.bank_pays(state, player, income)
    state["turn"]["company"] = company
    state["turn"]["income"] = income
