"""A player's turn (French rules): A buy a card (after an optional market refresh), B build a warehouse and then
trade, or C — when one can neither buy nor build — sell shares and buy a card.

Each decision has a `legal_*` function (the one place its legality is decided) and an `apply_*` function that
trusts it. The turn's own record is `state["turn"]`: who plays, the company built on, the income and the trades
made so far (the limits of 2 shares bought and 2 sold count from it).
"""
from __future__ import annotations

from pbem import decisions
from pbem.messages import NP_
from pbem.viewfields import once

from . import board, merger, shares
from .cards import card_level, level_card, sort_hand

MAX_LISTED_BUILDS = 24  # beyond this many playable plot cards, `build` is one choice entry (pbem moves stays short)
DECK = "deck"


def push(state: dict, decision: str, player: str, fresh_info: bool = False, **data) -> None:
    """Chartered's frames always say whether they follow new information."""
    decisions.push(state, decision, player, fresh_info=fresh_info, **data)


def begin_turn(state: dict, player: str) -> None:
    number = state["turn"]["number"] + 1 if state["turn"] else 1
    state["turn"] = {"number": number, "player": player, "company": None, "income": 0, "bought": 0, "sold": 0}
    push(state, "take_turn", player)


def end_turn(state: dict, passed: bool = False) -> None:
    """The game ends with the turn that placed the last warehouse (French rules), or when every player in a row
    could do nothing but pass (ruling: no card can be bought or played any more)."""
    state["passes"] = state["passes"] + 1 if passed else 0
    if state["supply"] == 0 or state["passes"] >= len(state["players"]):
        state["over"] = True
        return
    players = state["players"]
    begin_turn(state, players[(players.index(state["turn"]["player"]) + 1) % len(players)])


# -------------------------------------------------------------------------------------------- what is possible

def plot_card_effects(state: dict, player: str) -> dict[str, dict]:
    """Each distinct plot card of the hand that can be played now, with what it would do."""
    if state["supply"] < 1:
        return {}
    placing, foundable = board.placing(state), foundable_now(state)
    effects = {}
    for card in state["hands"][player]:
        if card_level(card) is None and card not in effects:
            effect = effect_of_card(state, card, placing, foundable)
            if effect is not None:
                effects[card] = effect
    return effects


def foundable_now(state: dict):
    """board.foundable_plots as a set, found when first asked and kept (a function of no argument): most builds
    stack or expand, and never ask."""
    return once(lambda: set(board.foundable_plots(state)))


def effect_of_card(state: dict, card: str, placing: board.Placing, foundable) -> dict | None:
    """What playing this plot card does now (board.plot_card_effect), None if it cannot be played; `placing`:
    board.placing(state), `foundable`: foundable_now(state), asked only of an empty plot touching no company."""
    company = placing.owners.get(card)
    floors = state["companies"][company]["plots"][card] if company else 0
    touching = placing.near(card)
    can_found = not floors and not touching and card in foundable()
    return board.plot_card_effect(floors, company, touching, can_found, state["values"]["max_floors"])


def raisable_plots(state: dict, level: int) -> list[str]:
    """ruling: a level-N card adds the N-th floor, so it goes on a warehouse N-1 floors high (French rules: a
    level-3 card only on a level-2 warehouse)."""
    if state["supply"] < 1 or level > state["values"]["max_floors"]:
        return []
    return sorted((plot for data in state["companies"].values() for plot, floors in data["plots"].items()
                   if floors == level - 1), key=board.plot_order)


def level_cards_playable(state: dict, player: str) -> dict[str, list[str]]:
    levels = sorted({card_level(card) for card in state["hands"][player]} - {None})
    return {level_card(level): plots for level in levels if (plots := raisable_plots(state, level))}


def cards_for_sale(state: dict) -> bool:
    return bool(state["market"] or state["deck"])


def can_buy_card(state: dict, player: str) -> bool:
    return cards_for_sale(state) and state["money"][player] >= state["costs"]["card"]


def buy_entries(state: dict) -> list[dict]:
    market = [{"action": "buy", "card": card} for card in dict.fromkeys(state["market"])]
    return market + ([{"action": "buy", "card": DECK}] if state["deck"] else [])


def share_words(counts: dict[str, int], most: int) -> list[str]:
    """A choice's words for shares: each company as often as it may be chosen (at most `most` times)."""
    return [company for company, count in counts.items() for _ in range(min(count, most))]


def sell_entry(state: dict, player: str, most: int) -> list[dict]:
    """Shares back to the bank at their stock-board price: any 1..most of the player's share cards."""
    held = {company: shares.shares_held(state, player, company) for company in shares.companies_held(state, player)}
    words = share_words(held, most)
    return [{"action": "sell_share", "company": {"from": words, "min": 1, "max": min(most, len(words))}}] if words \
        else []


# ------------------------------------------------------------------------------------------------ take_turn

def legal_take_turn(state: dict, frame: dict) -> list[dict]:
    """Builds first (a resigned player's seat keeps building, which brings the end nearer), then buys."""
    player = frame["player"]
    effects = plot_card_effects(state, player)
    builds = [{"action": "build", "plot": [card]} for card in sorted(effects, key=board.plot_order)]
    if len(builds) > MAX_LISTED_BUILDS:
        builds = [{"action": "build", "plot": {"from": [b["plot"][0] for b in builds], "min": 1, "max": 1}}]
    moves = builds + [{"action": "raise", "plot": {"from": plots, "min": 1, "max": 1}}
                      for plots in level_cards_playable(state, player).values()]
    if can_buy_card(state, player):
        moves += buy_entries(state)
        costs = state["costs"]
        if state["deck"] and state["money"][player] >= costs["refresh"] + costs["card"]:
            moves.append({"action": "refresh"})
    if moves:
        return moves
    # C: neither buy nor build. Selling helps only if there is a card to buy; else the player can but pass.
    if not cards_for_sale(state):
        return [{"action": "pass"}]
    return sell_entry(state, player, sum_shares(state, player)) or [{"action": "pass"}]


def apply_take_turn(state: dict, frame: dict, move: dict, rng) -> None:
    player = frame["player"]
    action = move["action"]
    if action == "build":
        build_plot_card(state, player, move["plot"][0])
    elif action == "raise":
        raise_floor(state, player, move["plot"][0])
    elif action == "buy":
        buy_card(state, player, move["card"])
        end_turn(state)
    elif action == "refresh":
        refresh_market(state, player, rng)
    elif action == "sell_share":
        sell_to_buy(state, player, move["company"])
    else:
        end_turn(state, passed=True)


# ------------------------------------------------------------------------------------------------ A: buy

def take_from_hand(state: dict, player: str, card: str) -> None:
    state["hands"][player].remove(card)
    state["played"] += 1


def buy_card(state: dict, player: str, card: str) -> None:
    """50 florins for a card from the market (refilled from the deck at once) or the top card of the deck."""
    shares.pay_bank(state, player, state["costs"]["card"])
    if card == DECK:
        bought = state["deck"].pop(0)
    else:
        state["market"].remove(card)
        bought = card
        if state["deck"]:
            state["market"].append(state["deck"].pop(0))
    state["hands"][player] = sort_hand(state["hands"][player] + [bought])


def refresh_market(state: dict, player: str, rng) -> None:
    """French rules: 50 florins for new cards in the market. ruling: the new cards are drawn first, then the old
    ones are shuffled into the deck, so a refresh never takes a plot's card out of the game."""
    shares.pay_bank(state, player, state["costs"]["refresh"])
    count, old = state["costs"]["market"], state["market"]
    state["market"], rest = state["deck"][:count], state["deck"][count:]
    state["deck"] = rng.shuffle(rest + old, what=NP_("chance", "the old market shuffled into the deck"))
    push(state, "buy_card", player, fresh_info=True)  # the new market must be seen before choosing


def legal_buy_card(state: dict, frame: dict) -> list[dict]:
    return buy_entries(state)


def apply_buy_card(state: dict, frame: dict, move: dict, rng) -> None:
    player = frame["player"]
    buy_card(state, player, move["card"])
    end_turn(state)


# --------------------------------------------------------------------------------------- C: sell to buy a card

def sum_shares(state: dict, player: str) -> int:
    return sum(shares.shares_held(state, player, company) for company in state["companies"])


def sell_to_buy(state: dict, player: str, companies: list[str]) -> None:
    for company in companies:
        shares.sell_share(state, player, company)
    if state["money"][player] >= state["costs"]["card"] or sum_shares(state, player):
        push(state, "raise_funds", player)
    else:  # everything sold and still short of a card's price: the turn ends
        end_turn(state)


def legal_raise_funds(state: dict, frame: dict) -> list[dict]:
    """French rules: sell at least one share (done), then buy a card; more shares may be sold first. ruling 20:
    a player still short of a card's price may stop selling (`pass`: the turn ends, the other shares are kept) —
    the rules ask for one share sold, not every share."""
    player = frame["player"]
    if state["money"][player] >= state["costs"]["card"]:
        return buy_entries(state) + sell_entry(state, player, sum_shares(state, player))
    return [{"action": "pass"}] + sell_entry(state, player, sum_shares(state, player))


def apply_raise_funds(state: dict, frame: dict, move: dict, rng) -> None:
    player = frame["player"]
    if move["action"] == "sell_share":
        sell_to_buy(state, player, move["company"])
    elif move["action"] == "pass":
        end_turn(state)
    else:
        buy_card(state, player, move["card"])
        end_turn(state)


# ------------------------------------------------------------------------------------------------ B: build

def build_plot_card(state: dict, player: str, plot: str) -> None:
    effect = effect_of_card(state, plot, board.placing(state), foundable_now(state))  # legal: it can be played
    take_from_hand(state, player, plot)
    if effect["kind"] == "stack":
        finish_build(state, player, merger.stack_floor(state, plot))
    elif effect["kind"] == "expand":
        finish_build(state, player, merger.expand(state, plot, effect["company"]))
    elif effect["kind"] == "found":
        push(state, "found_company", player, plot=plot)
    else:
        start_merger(state, player, plot, effect["companies"])


def raise_floor(state: dict, player: str, plot: str) -> None:
    take_from_hand(state, player, level_card(board.floors_at(state, plot) + 1))
    finish_build(state, player, merger.stack_floor(state, plot))


def legal_found_company(state: dict, frame: dict) -> list[dict]:
    plot = frame["plot"]
    free_plots = board.free_warehouse_plots(state, plot)
    count = state["values"]["free_warehouses"]
    return [{"action": "found", "company": company, "plots": {"from": free_plots, "min": count, "max": count}}
            for company in board.free_companies(state)]


def apply_found_company(state: dict, frame: dict, move: dict, rng) -> None:
    player, plot = frame["player"], frame["plot"]
    finish_build(state, player, merger.found(state, player, plot, move["company"], move["plots"]))


def start_merger(state: dict, player: str, plot: str, companies: list[str]) -> None:
    survivors = merger.merger_survivors(state, companies)
    if len(survivors) > 1:  # ruling: on a tie the builder chooses the survivor
        push(state, "choose_survivor", player, plot=plot, companies=companies, tied=survivors)
    else:
        finish_build(state, player, merger.merge(state, plot, survivors[0], companies))


def legal_choose_survivor(state: dict, frame: dict) -> list[dict]:
    return [{"action": "survivor", "company": company} for company in frame["tied"]]


def apply_choose_survivor(state: dict, frame: dict, move: dict, rng) -> None:
    finish_build(state, frame["player"], merger.merge(state, frame["plot"], move["company"], frame["companies"]))


def finish_build(state: dict, player: str, company: str) -> None:
    merger.receive_income(state, player, company)
    offer_trades(state, player)


# ---------------------------------------------------------------------------------------- after building

def trades_reading(state: dict) -> str:
    """`faq` (the publisher's FAQ: 2 trades in all, the shares of one company), or `wide` (2 bought and 2 sold of
    any companies), the reading of games made before the option existed."""
    return state["options"].get("trades", "wide")


def legal_trade_shares(state: dict, frame: dict) -> list[dict]:
    return trade_moves(state, frame["player"])


def trade_moves(state: dict, player: str) -> list[dict]:
    """French rules: after building, buy up to 2 shares (50 florins at least each, while share cards remain),
    sell up to 2 at the stock-board price, buy the flag; `done` ends it. ruling 14: by default 2 trades in all,
    each kind of one company (the FAQ); `trades=wide`: 2 bought and 2 sold, in any order, of any companies."""
    turn, values = state["turn"], state["values"]
    moves = []
    if trades_reading(state) == "faq":
        left = max(values["share_buys"], values["share_sales"]) - turn["bought"] - turn["sold"]
        moves += faq_purchases(state, player, min(left, values["share_buys"] - turn["bought"]), turn.get("bought_of"))
        moves += faq_sales(state, player, min(left, values["share_sales"] - turn["sold"]), turn.get("sold_of"))
    else:
        buy_entry = share_purchase_entry(state, player, values["share_buys"] - turn["bought"])
        moves += [buy_entry] if buy_entry else []
        moves += sell_entry(state, player, values["share_sales"] - turn["sold"])
    if shares.can_buy_flag(state, player, turn["company"]):
        moves.append({"action": "buy_flag"})
    return [{"action": "done"}] + moves if moves else []


def share_purchase_entry(state: dict, player: str, most: int) -> dict | None:
    """Any 1..most shares of the founded companies with cards left. Two at once only when the player can pay for
    any two of them; otherwise one now, and the next one in the following decision."""
    buyable = shares.buyable_companies(state, player)
    if most < 1 or not buyable:
        return None
    words = share_words({company: shares.shares_left(state, company) for company in buyable}, most)
    dearest = max(shares.buying_price(state, company) for company in buyable)
    at_once = min(most, len(words)) if state["money"][player] >= most * dearest else 1
    return {"action": "buy_share", "company": {"from": words, "min": 1, "max": at_once}}


def faq_purchases(state: dict, player: str, most: int, company: str | None) -> list[dict]:
    """The FAQ's reading: 1..most shares of one company (the one already bought from this turn, if any), as many
    as are left at the bank and the player can pay for."""
    moves = []
    for choice in shares.buyable_companies(state, player):
        if company not in (None, choice):
            continue
        count = min(most, shares.shares_left(state, choice),
                    state["money"][player] // shares.buying_price(state, choice))
        moves += [{"action": "buy_share", "company": [choice] * n} for n in range(1, count + 1)]
    return moves


def faq_sales(state: dict, player: str, most: int, company: str | None) -> list[dict]:
    """The FAQ's reading: 1..most shares of one company held (the one already sold from this turn, if any)."""
    return [{"action": "sell_share", "company": [choice] * n} for choice in shares.companies_held(state, player)
            if company in (None, choice) for n in range(1, min(most, shares.shares_held(state, player, choice)) + 1)]


def offer_trades(state: dict, player: str) -> None:
    if trade_moves(state, player):
        push(state, "trade_shares", player)
    else:  # nothing to trade: the turn ends without asking
        end_turn(state)


# a share trade: what it does to each company named, and the turn's count of that kind of trade
TRADES = {"buy_share": (shares.buy_share, "bought"), "sell_share": (shares.sell_share, "sold")}


def apply_trade_shares(state: dict, frame: dict, move: dict, rng) -> None:
    player = frame["player"]
    action, turn = move["action"], state["turn"]
    if action == "done":
        end_turn(state)
        return
    if action in TRADES:
        trade, counted = TRADES[action]
        for company in move["company"]:
            trade(state, player, company)
        turn[counted] += len(move["company"])
        if trades_reading(state) == "faq":
            turn[f"{counted}_of"] = move["company"][0]
    else:
        shares.buy_flag(state, player, turn["company"])
    offer_trades(state, player)
