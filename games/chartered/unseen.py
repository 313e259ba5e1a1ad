"""What a seat cannot see, imagined for the search bot (pbem.search): the other players' hands and the deck's order.

`sample_state(view, components, rnd)` rebuilds a whole position from a player's view: everything the view shows
is copied, and the cards it does not show are dealt from the cards still unseen — the box's cards of this player
count less the seat's hand, the market and the cards played. Which cards were played the view tells only in part
(a warehouse on plot 17 was most likely built with card 17, but a founding's two free warehouses and level cards
leave no card behind), so the cards played are guessed from the board and then evened out to the exact count the
view gives (`played`). Two things the view does not keep are set as a fresh game has them: the bank's ledger and
the count of players who passed in a row.
"""
from __future__ import annotations

import random

from .phases import board
from .setup import cards_in_play, sort_hand


def sample_state(view: dict, components: dict, rnd: random.Random) -> dict | None:
    """A whole position consistent with `view` (a player's view) and the game's components; None for the public
    view (nothing to imagine for)."""
    if "private" not in view:
        return None
    seat = view["private"]["player"]
    players = [p["name"] for p in view["players"]]
    state = shown_position(view)
    unseen = unseen_cards(view, components, len(players), rnd)
    rnd.shuffle(unseen)
    state["hands"] = {seat: list(view["private"]["hand"])}
    for player in view["players"]:
        if player["name"] != seat:
            state["hands"][player["name"]] = sort_hand(unseen[:player["cards"]])
            del unseen[:player["cards"]]
    state["hands"] = {player: state["hands"][player] for player in players}
    state["deck"] = unseen
    state["stack"] = [pending_frame(state, view["to_act"])] if view["to_act"] else []
    return state


def shown_position(view: dict) -> dict:
    """Everything of the position the view shows, in the state's own form."""
    return {
        "side": view["side"], "map": list(view["map"]), "links": list(view["links"]),
        "costs": dict(view["costs"], flags=list(view["costs"]["flags"])), "values": dict(view["values"]),
        "stock_board": [dict(step) for step in view["stock_board"]],
        "companies": {company["id"]: company_record(company) for company in view["companies"]},
        "supply": view["supply"], "deck": [], "market": list(view["market"]), "played": view["played"],
        "hands": {}, "money": {p["name"]: p["money"] for p in view["players"]},
        "bank": {"paid_out": 0, "taken_in": 0}, "turn": dict(view["turn"]) if view["turn"] else None,
        "passes": 0, "last_merger": merger_record(view["last_merger"]), "stack": [], "over": view["over"],
    }


def company_record(company: dict) -> dict:
    record = {"name": company["name"], "goods": company["goods"], "code": company["code"], "value": 0, "hq": None,
              "plots": {}, "shares": {}, "flag": None}
    if company["founded"]:
        record.update(value=company["value"], hq=company["hq"], plots=dict(company["plots"]),
                      shares=dict(company["holders"]), flag=company["flag"])
    return record


def merger_record(shown: dict | None) -> dict | None:
    if shown is None:
        return None
    return {"plot": shown["plot"], "survivor": shown["survivor"],
            "absorbed": [{"company": a["company"], "value": a["value"], "price": a["price"],
                          "payouts": [dict(p) for p in a["payouts"]]} for a in shown["absorbed"]],
            "value": shown["value"]}


def unseen_cards(view: dict, components: dict, count: int, rnd: random.Random) -> list[str]:
    """The cards in other hands and in the deck: the box's cards less what the seat sees and a guess at the cards
    played (a plot card for each warehouse's plot, as far as the box has them), evened out to the number the view
    says are out of sight."""
    row = next(r for r in components["setup"] if r["players"] == count)
    plot_cards, level_cards = cards_in_play(components, row)
    left = plot_cards + level_cards
    for card in view["private"]["hand"] + view["market"]:
        left.remove(card)
    guessed = []
    for company in view["companies"]:
        for plot, floors in company.get("plots", {}).items():
            for _ in range(min(floors, left.count(plot))):
                left.remove(plot)
                guessed.append(plot)
    hidden = view["deck_count"] + sum(p["cards"] for p in view["players"] if p["name"] != view["private"]["player"])
    if len(left) > hidden:  # more cards were played than the board shows (level cards, cards of absorbed plots)
        for card in rnd.sample(left, len(left) - hidden):
            left.remove(card)
    elif len(left) < hidden:  # the free warehouses of foundings: their plots' cards were not played
        left += rnd.sample(guessed, hidden - len(left))
    return left


def pending_frame(state: dict, to_act: dict) -> dict:
    """The decision frame the view's `to_act` stands for (the rules push nothing else on top of a turn)."""
    frame = {"decision": to_act["decision"], "player": to_act["player"],
             "fresh_info": to_act["decision"] == "buy_card"}
    if to_act["decision"] == "found_company":
        frame["plot"] = to_act["plot"]
    elif to_act["decision"] == "choose_survivor":
        frame.update(plot=to_act["plot"], companies=board.touching_companies(state, to_act["plot"]),
                     tied=list(to_act["companies"]))
    return frame
