"""A greedy player for Chartered, deciding from the mover's view only (it never sees another hand or the deck).

Its point of the game: build where the income is highest (the capitalisation of the company built on, so big
companies and mergers first), buy the cards that would build best, keep a reserve of florins for the next card,
put spare florins into shares and flags of the biggest companies, and never refresh the market.

A card kept is a later build. Capitalisations only grow, so the same card pays more played later, and once the
deck is empty only the players with cards in hand still build — on the biggest company, turn after turn, while
the others pass. So while the deck lasts the bot buys rather than builds when the build would pay less than the
biggest company pays, or when its hand is no bigger than the largest other hand; and it takes the biggest
company's flag as soon as it can pay for it, before another player does (worth 4 of its shares at the end, at
their final price, not today's). One move ahead, these choices look like losses: that made the bot of version 2
no better than random play at 2 players, where the end comes by the deck running out.
"""
from __future__ import annotations

import random

from pbem.bots import instantiate

from .phases.board import plot_card_effect
from .phases.cards import card_level
from .report import companies_by_id, value_after

RESERVE = 100  # florins kept for buying the next cards


def me(view: dict) -> dict:
    return next(p for p in view["players"] if p["name"] == view["private"]["player"])


class Board:
    """What the view says of the board, read once a decision: the bot weighs every card of its hand and every
    plot a level card may raise against the same companies (the view does not change while it decides). The
    same answers as report.company_on, report.touching and report.card_effect, each found by a lookup."""

    def __init__(self, view: dict):
        self.view = view
        self.companies = companies_by_id(view)
        self._on: dict[str, dict] | None = None
        self._near: dict[str, list[str]] | None = None
        self._foundable: set[str] | None = None

    def company_on(self, plot: str) -> dict | None:
        """The company with a warehouse on the plot, or None."""
        if self._on is None:
            self._on = {}
            for company in self.view["companies"]:
                if company["founded"]:
                    for here in company["plots"]:
                        self._on.setdefault(here, company)
        return self._on.get(plot)

    def touching(self, plot: str) -> list[str]:
        """The companies whose frontier holds the plot, in the view's order (a company's frontier is read only
        when a card is weighed, as report.touching reads it)."""
        if self._near is None:
            self._near = {}
            for company in self.view["companies"]:
                if company["founded"]:
                    for here in dict.fromkeys(company["frontier"].split()):
                        self._near.setdefault(here, []).append(company["id"])
        return self._near.get(plot, [])

    def foundable(self, plot: str) -> bool:
        if self._foundable is None:
            self._foundable = set(self.view["foundable"].split())
        return plot in self._foundable

    def card_effect(self, card: str) -> dict | None:
        """report.card_effect(view, card)."""
        here, near = self.company_on(card), self.touching(card)
        if here is not None:  # `is`: a view's company made field by field would make every field to say it is true
            return plot_card_effect(here["plots"][card], here["id"], near, False, self.view["values"]["max_floors"])
        return plot_card_effect(0, None, near, not near and self.foundable(card), self.view["values"]["max_floors"])


def build_income(board: Board, card: str) -> int:
    """What playing this plot card now would pay (0 when it cannot be played); a founding also brings a share."""
    view = board.view
    effect = board.card_effect(card)
    if effect is None:
        return 0
    income = value_after(view, effect, board.companies)
    if effect["kind"] == "found":
        return income + view["costs"]["minimum_share_price"]
    if effect["kind"] == "merge":
        companies = board.companies
        return income + sum(companies[c]["price"] * companies[c]["holders"].get(view["private"]["player"], 0)
                            for c in effect["companies"])
    return income


def raise_income(board: Board, plot: str) -> int:
    return board.company_on(plot)["value"] + board.view["values"]["floor"]


def best_build(board: Board, legal: list[dict]) -> tuple[int, dict | None]:
    best = (0, None)
    for entry in legal:
        if entry["action"] == "build":
            for card in (entry["plot"]["from"] if isinstance(entry["plot"], dict) else entry["plot"]):
                income = build_income(board, card)
                if income > best[0]:  # the first of the best kept, as max() keeps it
                    best = (income, {"action": "build", "plot": [card]})
        elif entry["action"] == "raise":
            for plot in entry["plot"]["from"]:
                income = raise_income(board, plot)
                if income > best[0]:
                    best = (income, {"action": "raise", "plot": [plot]})
    return best


def best_card_to_buy(board: Board, legal: list[dict]) -> dict | None:
    """The market card that would build best now (a level card is worth a floor on the biggest company); the
    top of the deck when nothing on offer would build."""
    buys = [entry for entry in legal if entry["action"] == "buy"]
    if not buys:
        return None
    biggest = biggest_value(board.view)

    def worth(entry):
        card = entry["card"]
        if card == "deck":
            return 1
        if card_level(card) is not None:
            return biggest
        return build_income(board, card)
    return max(buys, key=worth)


def biggest_value(view: dict) -> int:
    return max((c["value"] for c in view["companies"] if c["founded"]), default=0)


def trade(view: dict, legal: list[dict]) -> dict:
    money = me(view)["money"]
    companies = companies_by_id(view)
    built_on = companies[view["turn"]["company"]]
    if {"action": "buy_flag"} in legal and built_on["value"] >= biggest_value(view) \
            and money >= me(view)["next_flag_cost"]:
        return {"action": "buy_flag"}  # the biggest company's flag: first come, first served
    for entry in legal:
        if entry["action"] == "buy_flag":
            company = companies[view["turn"]["company"]]
            worth = view["values"]["flag_shares"] * company["price"]
            if worth > me(view)["next_flag_cost"] and money - me(view)["next_flag_cost"] >= RESERVE:
                return entry
    for entry in legal:
        if entry["action"] == "buy_share":
            choice = max(words(entry["company"]), key=lambda c: companies[c]["value"])
            company = companies[choice]
            if money - company["buying_price"] >= RESERVE and company["price"] * 2 >= company["buying_price"]:
                return {"action": "buy_share", "company": [choice]}
    return {"action": "done"}


def words(value) -> list[str]:
    """The companies a share entry names: a choice's words, or the concrete list (`buy share gold gold`)."""
    return value["from"] if isinstance(value, dict) else value


def cheapest_sale(view: dict, entry: dict) -> dict:
    companies = companies_by_id(view)
    return {"action": "sell_share", "company": [min(words(entry["company"]), key=lambda c: companies[c]["price"])]}


def resigned(view: dict, legal: list[dict]) -> dict | None:
    """A resigned seat's move (rules.md): on its turn, the top card of the deck (hidden and random: nothing taken
    from the market the others see, no company built on, merged or paid); `done` after building, `pass` when short
    of a card after selling (pbem.bots); else the first legal move."""
    return next((m for m in legal if m == {"action": "buy", "card": "deck"}), None)


def keeps_card(view: dict, legal: list[dict], income: int) -> bool:
    """Buy a card instead of building for `income`: while the deck lasts, when the build pays less than one on the
    biggest company, or the hand is no bigger than the largest other hand (cards in hand are the builds left once
    the deck is empty)."""
    if view["deck_count"] == 0 or not any(entry["action"] == "buy" for entry in legal):
        return False
    hand = len(view["private"]["hand"])
    others = max(p["cards"] for p in view["players"] if p["name"] != view["private"]["player"])
    return income < biggest_value(view) + view["values"]["floor"] or hand <= others


def choose(view: dict, legal: list[dict], rnd: random.Random) -> dict:
    decision = view["to_act"]["decision"]
    actions = {entry["action"]: entry for entry in legal}
    if decision == "trade_shares":
        return trade(view, legal)
    if decision == "choose_survivor":
        viewer = view["private"]["player"]
        mine = {c["id"]: c["holders"].get(viewer, 0) * c["value"] for c in view["companies"] if c["founded"]}
        return max(legal, key=lambda entry: mine[entry["company"]])
    if decision == "found_company":
        return instantiate(legal[rnd.randrange(len(legal))], rnd)
    board = Board(view)
    income, build = best_build(board, legal)
    if build is not None and income > 0 and not keeps_card(view, legal, income):
        return build
    card = best_card_to_buy(board, legal)
    if card is not None:
        return card
    if build is not None and income > 0:
        return build
    if "sell_share" in actions:
        return cheapest_sale(view, actions["sell_share"])
    return instantiate(legal[0], rnd)
