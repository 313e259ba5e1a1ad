"""The auction for the lots (bid higher or pass) and the payment down the table (the French rules)."""
from __future__ import annotations

from .common import BANK, clockwise_from, push


def next_bidder(state: dict, after: str) -> str | None:
    """The next player clockwise still in the auction who does not hold the high bid; None when it is over:
    all but one passed and that one holds the high bid, or everybody passed."""
    turn = state["turn"]
    active = [player for player in state["players"] if player not in turn["passed"]]
    high = turn["high"]["player"] if turn["high"] else None
    if not active or (len(active) == 1 and active[0] == high):
        return None
    for player in clockwise_from(state, after)[1:] + [after]:
        if player in active and player != high:
            return player
    return None


def bid_for_lot(state: dict, frame: dict, move: dict, rng) -> None:
    player = frame["player"]
    turn = state["turn"]
    if move["action"] == "pass":
        turn["passed"].append(player)  # a passer is out of this auction for good
        turn["bids"].append({"player": player, "bid": None})
    else:
        turn["high"] = {"player": player, "amount": move["amount"]}
        turn["bids"].append({"player": player, "bid": move["amount"]})
    bidder = next_bidder(state, player)
    if bidder is not None:
        push(state, "bid_for_lot", bidder)
        return
    close_auction(state)


def close_auction(state: dict) -> None:
    """The French rules: if everybody passes, the first player wins the auction (at 0)."""
    turn = state["turn"]
    winner, price = ((turn["high"]["player"], turn["high"]["amount"]) if turn["high"]
                     else (turn["first_player"], 0))
    turn["winner"], turn["price"] = winner, price
    turn["payment"] = pay_down_the_table(state["players"], winner, price,
                                         rest_to_bank=state["options"].get("bank-takes-the-rest") == "on")
    state["gold"][winner] -= price  # a bid is never above the bidder's gold (legal_moves)
    for share in turn["payment"]:
        if share["to"] == BANK:
            state["bank"]["taken_in"] += share["amount"]
        else:
            state["gold"][share["to"]] += share["amount"]
    turn["choosers"] = clockwise_from(state, winner)  # the card choice goes leftwards from the winner
    state["phase"] = "choosing"


def pay_down_the_table(seats: list[str], winner: str, price: int, rest_to_bank: bool = False) -> list[dict]:
    """The French rules: the winner pays his right neighbour, who keeps half rounded up and passes the rest on to
    his right, and so on. The winner never gets money back, so his left neighbour keeps all that reaches him.
    `rest_to_bank` (the English edition's 3-player rule): the left neighbour keeps half rounded up like the others
    and the bank takes the rest."""
    n = len(seats)
    at = seats.index(winner)
    shares, remaining = [], price
    for step in range(1, n):
        if remaining == 0:
            break
        last = step == n - 1  # the winner's left neighbour: nobody but the winner after him
        keep = remaining if last and not rest_to_bank else (remaining + 1) // 2
        shares.append({"to": seats[(at - step) % n], "amount": keep})
        remaining -= keep
    if remaining:
        shares.append({"to": BANK, "amount": remaining})
    return shares


def legal_bid(state: dict, frame: dict) -> list[dict]:
    """Pass, or bid more than the high bid, never above what you hold."""
    turn, player = state["turn"], frame["player"]
    lowest = turn["high"]["amount"] + 1 if turn["high"] else 1
    moves = [{"action": "pass"}]
    if lowest <= state["gold"][player]:
        moves.append({"action": "bid", "amount": {"min": lowest, "max": state["gold"][player]}})
    return moves
