"""What a seat cannot see, imagined for the search bot (pbem.search): the deck's order and the cards set aside.

Almost everything of La Fièvre de l'Or is on the table, so `sample_state(view, components, rnd)` copies the view
into the state's own form and deals the cards seen nowhere: the deck and the cards the short game set aside,
shuffled. Event cards that lie under something the view shows by its effect only (a saloon's Saloon card, its
Saloon Girls, a New Vein under a concession, the Governor) are cards of that kind seen nowhere else. Two records
the view does not keep are set as the rules would have them now: whether the Mustang was offered this turn, and
who was asked about the Telegraph.
"""
from __future__ import annotations

import random

from .setup import catalogue_cards

UNDER = ("saloon", "saloon-girls", "new-vein", "governor")  # event kinds lying under something the view shows


def sample_state(view: dict, components: dict, rnd: random.Random) -> dict | None:
    """A whole position consistent with `view` (a player's view, of a decision not over) and the components."""
    if "viewer" not in view or view["to_act"] is None:
        return None
    towns, cards, deck = catalogue_cards(components)
    unseen = [card for card in deck if card not in seen_cards(view)]
    rnd.shuffle(unseen)
    under = {kind: [card for card in unseen if cards[card].get("kind") == kind] for kind in UNDER}
    state = shown_table(view, towns, cards, components)
    laid = lay_cards_under(state, view, under)
    unseen = [card for card in unseen if card not in laid]
    state["set_aside"], state["deck"] = unseen[:view["set_aside_count"]], unseen[view["set_aside_count"]:]
    return state


def seen_cards(view: dict) -> set[str]:
    """Every deck card the view names: the offers, the concessions, the kept cards, the discard pile, the event
    being played."""
    seen = {card["id"] for card in view["discard"]}
    for turn in (view["turn"], view["previous_turn"] or {"offer": []}):
        seen |= {slot["card"]["id"] for slot in turn["offer"] if slot["card"]}
    for player in view["players"]:
        seen |= {card["id"] for card in player["concessions"] + player["kept"]}
    if "card" in view["to_act"]:
        seen.add(view["to_act"]["card"]["id"])
    return seen


def shown_table(view: dict, towns: list[dict], cards: dict, components: dict) -> dict:
    players = [p["name"] for p in view["players"]]
    saloon_cards = [card for card, data in cards.items() if data["type"] == "saloon"]
    owned = {saloon["id"] for p in view["players"] for saloon in p["saloons"]}
    gone = {card["id"] for card in view["discard"]}
    return {
        "towns": [{"id": t["id"], "name": t["name"], "english": t["english"]} for t in view["towns"]],
        "cards": cards, "points_per_maire": view["points_per_maire"],
        "collapse_rolls": list(components.get("collapse_rolls", [])), "deck": [], "set_aside": [],
        "gold": {p["name"]: p["gold"] for p in view["players"]}, "bank": dict(view["bank"]),
        "owners": {c["id"]: p["name"] for p in view["players"] for c in p["concessions"]},
        "veins": {}, "saloons": {}, "saloon_supply": [s for s in saloon_cards if s not in owned and s not in gone],
        "mayors": {t["id"]: t["mayor"] for t in view["towns"]}, "governor": None,
        "kept": {p["name"]: [card["id"] for card in p["kept"]] for p in view["players"]},
        "discard": [card["id"] for card in view["discard"]], "phase": view["phase"],
        "previous_turn": turn_record(view["previous_turn"], view, players) if view["previous_turn"] else None,
        "turn": turn_record(view["turn"], view, players), "stack": [pending_frame(view)],
    }


def lay_cards_under(state: dict, view: dict, under: dict) -> set[str]:
    """The saloons' cards, the New Veins and the Governor, each a card of its kind seen nowhere: the cards laid."""
    left = {card for cards in under.values() for card in cards}
    for player in view["players"]:
        for saloon in player["saloons"]:
            state["saloons"][saloon["id"]] = {"owner": player["name"], "event": under["saloon"].pop(),
                                              "girls": under["saloon-girls"].pop() if saloon["girls"] else None}
        for concession in player["concessions"]:
            if concession["vein"]:
                state["veins"][concession["id"]] = under["new-vein"].pop()
    town = next((t["id"] for t in view["towns"] if t["governor"]), None)
    if town is not None:
        state["governor"] = {"card": under["governor"].pop(), "town": town}
    return left - {card for cards in under.values() for card in cards}


def turn_record(shown: dict, view: dict, players: list[str]) -> dict:
    """A turn as the rules keep it: the view's, with the Mustang's offer (made once the winner has chosen) and
    the Telegraph's questions (every holder before the one asked now, clockwise from the winner)."""
    return {
        "number": shown["number"], "first_player": shown["first_player"],
        "offer": [slot["card"]["id"] if slot["card"] else None for slot in shown["offer"]],
        "bids": [dict(bid) for bid in shown["bids"]],
        "high": {"player": shown["high_bidder"], "amount": shown["high_bid"]} if shown["high_bidder"] else None,
        "passed": list(shown["passed"]), "winner": shown["winner"], "price": shown["price"],
        "payment": [dict(share) for share in shown["payment"]], "choosers": list(shown["still_to_choose"]),
        "taken": [dict(taken) for taken in shown["taken"]], "mustang_offered": bool(shown["taken"]),
        "roll": list(shown["roll"]) if shown["roll"] else None,
        "telegraph_asked": telegraph_asked(shown, view, players),
        "telegraph": dict(shown["telegraph"]) if shown["telegraph"] else None,
        "production": [dict(line) for line in shown["production"]],
        "saloon_fees": [dict(line) for line in shown["saloon_fees"]], "fees": [dict(fee) for fee in shown["fees"]],
        "holdups": [{**holdup, "dice": list(holdup["dice"])} for holdup in shown["holdups"]],
        "collapsed": list(shown["collapsed"]), "events": [dict(line) for line in shown["events"]],
    }


def telegraph_asked(shown: dict, view: dict, players: list[str]) -> list[str]:
    if view["to_act"]["decision"] != "send_telegraph" or shown is not view["turn"]:
        return []
    holding = {p["name"] for p in view["players"] if any(card["kind"] == "telegraph" for card in p["kept"])}
    start = players.index(shown["winner"])
    asked = []
    for player in [players[(start + k) % len(players)] for k in range(len(players))]:
        if player in holding:
            asked.append(player)
        if player == view["to_act"]["player"]:
            return asked
    return asked


def pending_frame(view: dict) -> dict:
    to_act = view["to_act"]
    fresh = to_act["decision"] == "send_telegraph" or (to_act["decision"] == "bid_for_lot" and not view["turn"]["bids"])
    frame = {"decision": to_act["decision"], "player": to_act["player"], "fresh_info": fresh}
    if "card" in to_act:
        frame["card"] = to_act["card"]["id"]
    return frame
