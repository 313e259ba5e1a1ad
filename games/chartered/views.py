"""What a player (or the public) may see. Everything is public but the hands (each player sees their own; the
others see how many cards it holds) and the deck (its size only, never its order)."""
from __future__ import annotations

from pbem import decisions
from pbem.viewfields import built

from .phases import board, shares
from .scoring import is_over


def to_act_view(state: dict) -> dict | None:
    if decisions.pending(state["stack"], is_over(state)) is None:
        return None
    frame = state["stack"][-1]
    return {"player": frame["player"], "decision": frame["decision"], "plot": frame.get("plot"),
            "companies": list(frame.get("tied", []))}


def company_view(state: dict, company: str, occupied: dict[str, str]) -> dict:
    """A company free to found shows only who it is; a founded one its value, shares, flag and plots. Lists of
    plots (the frontier) are written as one string of numbers ("11 16 18") to keep every view short."""
    data = state["companies"][company]
    entry = {"id": company, "name": data["name"], "goods": data["goods"], "code": data["code"],
             "founded": data["hq"] is not None}
    if not entry["founded"]:
        return entry
    return {
        **entry,
        "hq": data["hq"],
        "value": data["value"],
        "price": shares.share_price(state, company),
        "buying_price": shares.buying_price(state, company),
        "shares_left": shares.shares_left(state, company),
        "holders": {player: data["shares"][player] for player in state["players"] if player in data["shares"]},
        "flag": data["flag"],
        "plots": dict(data["plots"]),
        "frontier": " ".join(board.frontier(state, company, occupied)),
    }


def player_view(state: dict, player: str) -> dict:
    return {
        "name": player,
        "money": state["money"][player],
        "cards": len(state["hands"][player]),
        "shares": {company: held for company, data in state["companies"].items()
                   if (held := data["shares"].get(player, 0))},  # shares_held, read at every rollout decision
        "flags": shares.flags_of(state, player),
        "next_flag_cost": shares.flag_cost(state, player),
    }


def view(state: dict, player: str | None) -> dict:
    return built(fields(state, player, built))


def fields(state: dict, player: str | None, make) -> dict:
    """The view field by field (pbem.viewfields)."""
    public = {  # after the game's id, its rules version and the options (pbem writes them)
        "side": lambda: state["side"],
        "over": lambda: state["over"],
        "to_act": lambda: to_act_view(state),
        "turn": lambda: dict(state["turn"]),
        "supply": lambda: state["supply"],
        "deck_count": lambda: len(state["deck"]),
        "market": lambda: list(state["market"]),
        "played": lambda: state["played"],
        "costs": lambda: dict(state["costs"], flags=list(state["costs"]["flags"])),
        "values": lambda: dict(state["values"]),
        "stock_board": lambda: [dict(step) for step in state["stock_board"]],
        "map": lambda: list(state["map"]),
        "links": lambda: list(state["links"]),
        "foundable": lambda: " ".join(board.foundable_plots(state)),
        "companies": lambda: companies_view(state),
        "players": lambda: [player_view(state, p) for p in state["players"]],
        "last_merger": lambda: merger_view(state["last_merger"]) if state["last_merger"] else None,
    }
    if player is not None:
        public["private"] = lambda: {"player": player, "hand": list(state["hands"][player])}
    return public


def companies_view(state: dict) -> list[dict]:
    occupied = board.owners(state)
    return [company_view(state, company, occupied) for company in state["companies"]]


def merger_view(record: dict) -> dict:
    return {"plot": record["plot"], "survivor": record["survivor"], "value": record["value"],
            "absorbed": [{"company": a["company"], "value": a["value"], "price": a["price"],
                          "payouts": [dict(p) for p in a["payouts"]]} for a in record["absorbed"]]}
