"""What a player (or the public) may see. Everything is public but the hands (each player sees their own; the
others see how many cards it holds) and the deck (its size only, never its order)."""
from __future__ import annotations

from pbem import decisions
from pbem.viewfields import once, whole

from .phases import board, shares
from .scoring import is_over


def to_act_view(state: dict) -> dict | None:
    if decisions.pending(state["stack"], is_over(state)) is None:
        return None
    frame = state["stack"][-1]
    return {"player": frame["player"], "decision": frame["decision"], "plot": frame.get("plot"),
            "companies": list(frame.get("tied", []))}


def company_view(state: dict, company: str, placing, make) -> dict:
    """A company, made by `make` (pbem.viewfields): one free to found shows only who it is; a founded one its value,
    shares, flag and plots. Lists of plots (the frontier) are written as one string of numbers ("11 16 18") to keep
    every view short. `placing`: board.placing(state), a function of no argument that finds it once. The first
    fields are lookups, made at once (a bot's rollouts read a company's id and whether it is founded at every
    decision); the others (FOUNDED) when a bot first reads them."""
    data = state["companies"][company]
    first = {"id": company, "name": data["name"], "goods": data["goods"], "code": data["code"],
             "founded": data["hq"] is not None}
    if data["hq"] is None:
        return first
    first["hq"], first["value"] = data["hq"], data["value"]
    return make(FOUNDED, first, (state, company, data, placing))


FOUNDED = {  # a founded company's fields after its first, each of (the state, the company, its data, the placing)
    "price": lambda state, company, data, placing: shares.share_price(state, company),
    "buying_price": lambda state, company, data, placing: shares.buying_price(state, company),
    "shares_left": lambda state, company, data, placing: shares.shares_left(state, company),
    "holders": lambda state, company, data, placing: {player: data["shares"][player] for player in state["players"]
                                                      if player in data["shares"]},
    "flag": lambda state, company, data, placing: data["flag"],
    "plots": lambda state, company, data, placing: dict(data["plots"]),
    "frontier": lambda state, company, data, placing: placing().frontier(company),
}


def player_view(state: dict, player: str, make) -> dict:
    """A player's part, made by `make` (pbem.viewfields): the first fields at once (lookups), the others (PLAYER)
    when a bot first reads them."""
    return make(PLAYER, {"name": player, "money": state["money"][player], "cards": len(state["hands"][player])},
                (state, player))


PLAYER = {  # a player's fields after their first, each of (the state, the player)
    "shares": lambda state, player: {company: held for company, data in state["companies"].items()
                                     if (held := data["shares"].get(player, 0))},  # shares_held, read at every decision
    "flags": lambda state, player: shares.flags_of(state, player),
    "next_flag_cost": lambda state, player: shares.flag_cost(state, player),
}


def view(state: dict, player: str | None) -> dict:
    return whole(FIELDS, state, player)


FIELDS = {  # the view field by field (pbem.viewfields), each of (the state, the player, `make`: it makes a company
    # and a player's part), declared once; after the game's id, its rules version and the options (pbem writes them)
    "side": lambda state, player, make: state["side"],
    "over": lambda state, player, make: state["over"],
    "to_act": lambda state, player, make: to_act_view(state),
    "turn": lambda state, player, make: dict(state["turn"]),
    "supply": lambda state, player, make: state["supply"],
    "deck_count": lambda state, player, make: len(state["deck"]),
    "market": lambda state, player, make: list(state["market"]),
    "played": lambda state, player, make: state["played"],
    "costs": lambda state, player, make: dict(state["costs"], flags=list(state["costs"]["flags"])),
    "values": lambda state, player, make: dict(state["values"]),
    "stock_board": lambda state, player, make: [dict(step) for step in state["stock_board"]],
    "map": lambda state, player, make: list(state["map"]),
    "links": lambda state, player, make: list(state["links"]),
    "foundable": lambda state, player, make: " ".join(board.foundable_plots(state)),
    "companies": lambda state, player, make: companies_view(state, make),
    "players": lambda state, player, make: [player_view(state, p, make) for p in state["players"]],
    "last_merger": lambda state, player, make: merger_view(state["last_merger"]) if state["last_merger"] else None,
    "private": lambda state, player, make: {"player": player, "hand": list(state["hands"][player])},
}


def companies_view(state: dict, make) -> list[dict]:
    placing = once(lambda: board.placing(state))
    return [company_view(state, company, placing, make) for company in state["companies"]]


def merger_view(record: dict) -> dict:
    return {"plot": record["plot"], "survivor": record["survivor"], "value": record["value"],
            "absorbed": [{"company": a["company"], "value": a["value"], "price": a["price"],
                          "payouts": [dict(p) for p in a["payouts"]]} for a in record["absorbed"]]}
