"""La Fièvre de l'Or's setup: the towns and cards from the components, the deck, the players' gold, the first
turn.
"""
from __future__ import annotations

from pbem.contract import PbemError
from pbem.messages import NP_, Domain

from .phases.common import BANK
from .phases.turn import start_turn

T = Domain("gold_fever")


def catalogue_cards(components: dict) -> tuple[list[dict], dict, list[str]]:
    """Towns, every card by id, and the deck's cards (concessions + events), all from the components."""
    towns, cards, deck = [], {}, []
    for town in components["towns"]:
        towns.append({"id": town["id"], "name": town["name"], "english": town.get("english", town["name"])})
        for concession in town["concessions"]:
            cid = f"{town['id']}-{concession['number']}"
            if cid in cards:
                raise PbemError(T.lazy("components: two concessions numbered {number} in {town}",
                                       number=concession["number"], town=town["id"]))
            cards[cid] = {"type": "concession", "town": town["id"], "number": concession["number"],
                          "nuggets": concession["nuggets"], "dangerous": bool(concession.get("dangerous", False))}
            deck.append(cid)
        for n in range(1, components.get("saloon_cards_per_town", 2) + 1):
            cards[f"{town['id']}-saloon-{n}"] = {"type": "saloon", "town": town["id"]}
    for event in components["events"]:
        params = {key: value for key, value in event.items() if key not in ("count", "source")}
        for n in range(1, event["count"] + 1):
            eid = f"{event['kind']}-{n}"
            cards[eid] = {"type": "event", **params}
            deck.append(eid)
    return towns, cards, deck


def setup(state: dict, components: dict, rng) -> None:
    """The state already holds its rules version, the players and the options (pbem's; meta.yaml `state_header`:
    no game id, as the first games had none)."""
    players, options = state["players"], state["options"]
    if BANK in players:  # the payment names the bank as a receiver
        raise PbemError(T.lazy("a player may not be called {name} in this game", name=repr(BANK)))
    towns, cards, cards_in_deck = catalogue_cards(components)
    deck = rng.shuffle(cards_in_deck, what=NP_("chance", "deck shuffle"))
    set_aside = []
    if options.get("bank-takes-the-rest") == "on":
        require_players(players, components["bank_takes_the_rest"]["players"],
                        T.plazy("option", "the bank's share of the payment"))
    if options.get("short-game") == "on":
        short = components["short_game"]
        require_players(players, short["players"], T.plazy("option", "the short game"))
        # The English rules: 15 cards removed at random from the deck, unseen.
        set_aside, deck = deck[:short["remove"]], deck[short["remove"]:]
    state.update({
        "towns": towns,
        "cards": cards,
        "points_per_maire": components["points_per_maire"],
        "collapse_rolls": list(components.get("collapse_rolls", [])),
        "deck": deck,
        "set_aside": set_aside,
        "gold": {player: components["starting_gold"] for player in players},
        # ruling: an unlimited bank with a ledger, so that sum(gold) + taken_in - paid_out never changes.
        "bank": {"paid_out": 0, "taken_in": 0},
        "owners": {},
        "veins": {},
        "saloons": {},
        "saloon_supply": [cid for cid, card in cards.items() if card["type"] == "saloon"],
        "mayors": {town["id"]: None for town in towns},
        "governor": None,
        "kept": {player: [] for player in players},
        "discard": [],
        "phase": "auction",
        "previous_turn": None,
        "turn": None,
        "stack": [],
    })
    # The English rules: the first player of the first turn is drawn at random (the French rules do not say).
    first = rng.choice(list(players), what=NP_("chance", "first player"), public=True)
    start_turn(state, first, rng)


def require_players(players: list[str], count: int, what) -> None:
    """An option the English rules give to one player count only is refused at other counts."""
    if len(players) != count:
        raise PbemError(T.lazy("{option} is for {count} players, not {players}", option=what, count=count,
                               players=len(players)))
