"""The end of the game (French rules): 20 florins paid per card left in hand, every share and flag sold at its
stock-board value; the richest player wins."""
from __future__ import annotations

from pbem.messages import NP_

from .phases import shares


def is_over(state: dict) -> bool:
    """Over with the turn that placed the last warehouse, or after a round of passes (phases/turn.end_turn)."""
    return state["over"]


def holdings(state: dict, player: str) -> list[tuple[str, int, int]]:
    """(company, share cards held, price) for each company the player holds shares of."""
    return [(company, shares.shares_held(state, player, company), shares.share_price(state, company))
            for company in shares.companies_held(state, player)]


def final_account(state: dict, player: str) -> dict:
    share_lines = holdings(state, player)
    flag_lines = [(company, shares.flag_value(state, company)) for company in shares.flags_of(state, player)]
    cards = len(state["hands"][player])
    account = {
        "florins": state["money"][player],
        "shares": sum(held * price for _, held, price in share_lines),
        "flags": sum(value for _, value in flag_lines),
        "cards": cards,
        "penalty": -cards * state["costs"]["hand_penalty"],
        "share_lines": share_lines,
        "flag_lines": flag_lines,
    }
    account["total"] = account["florins"] + account["shares"] + account["flags"] + account["penalty"]
    return account


def sum_text(parts: list[str], total: int) -> str:
    return f"{' + '.join(parts)} = {total}" if parts else "0"


def details(state: dict, account: dict) -> dict:
    """The lines of the calculation, the same keys for every player (the final report's columns)."""
    shares_text = sum_text([f"{held} {company} x {price}" for company, held, price in account["share_lines"]],
                           account["shares"])
    flag_shares = state["values"]["flag_shares"]
    flags_text = sum_text([f"{company} flag {flag_shares} x {value // flag_shares}"
                           for company, value in account["flag_lines"]], account["flags"])
    penalty = state["costs"]["hand_penalty"]
    # the columns' names are stored in English in the results, and translated where shown (report.score_cell)
    return {NP_("score", "florins"): account["florins"], NP_("score", "shares"): shares_text,
            NP_("score", "flags"): flags_text,
            NP_("score", "cards in hand"): f"{account['cards']} x -{penalty} = {account['penalty']}",
            NP_("score", "total"): account["total"]}


def result(state: dict) -> list[dict]:
    """Most florins after the final sale wins. ruling: a tie goes to the player with more florins before the sale
    (richer in cash, the French rules' "le plus riche"); still tied, the players share the rank."""
    accounts = {player: final_account(state, player) for player in state["players"]}

    def standing(player):
        return accounts[player]["total"], accounts[player]["florins"]

    ranking = []
    for player in sorted(state["players"], key=lambda p: tuple(-x for x in standing(p))):
        better = sum(1 for other in state["players"] if standing(other) > standing(player))
        ranking.append({"player": player, "score": accounts[player]["total"], "rank": better + 1,
                        "details": details(state, accounts[player])})
    return ranking





def estimate(state: dict) -> dict[str, float]:
    """Each player's worth for a search that stops before the end (pbem.search): the final account as if the game
    ended now, but a card in hand counted as a later build on the biggest company rather than as its penalty, for
    the share of the cards still to be played that the warehouses left can take (once the cards outnumber the
    warehouses, only some of them will be built)."""
    biggest = max((data["value"] for data in state["companies"].values()), default=0) + state["values"]["floor"]
    cards = sum(len(hand) for hand in state["hands"].values()) + len(state["deck"]) + len(state["market"])
    built = min(1.0, state["supply"] / cards) if cards else 0.0
    worth = built * biggest + state["costs"]["hand_penalty"]
    return {player: final_account(state, player)["total"] + worth * len(state["hands"][player])
            for player in state["players"]}
