"""A turn's course: the lots revealed, the automatic steps between decisions (`advance`), the next turn."""
from __future__ import annotations

from pbem.messages import NP_

from .choice import call_next_chooser
from .common import push
from .events import wake_waiting_events
from .production import produce, telegraph_holder


MAX_AUTOMATIC_STEPS = 200  # a cap on the automatic flow between two decisions (a bug would otherwise spin)


def start_turn(state: dict, first_player: str, rng) -> None:
    number = state["turn"]["number"] + 1 if state["turn"] else 1
    offer = reveal_lots(state, rng, first_turn=number == 1)
    state["previous_turn"] = state["turn"]  # kept for the report: last turn's roll, production, fees
    state["turn"] = {
        "number": number,
        "first_player": first_player,
        "offer": offer,
        "bids": [],
        "high": None,
        "passed": [],
        "winner": None,
        "price": None,
        "payment": [],
        "choosers": [],
        "taken": [],
        "mustang_offered": False,
        "roll": None,
        "telegraph_asked": [],
        "telegraph": None,
        "production": [],
        "saloon_fees": [],
        "fees": [],
        "holdups": [],
        "collapsed": [],
        "events": [],
    }
    state["phase"] = "auction"
    push(state, "bid_for_lot", first_player, fresh_info=True)


def reveal_lots(state: dict, rng, first_turn: bool) -> list:
    """As many cards as players, face up. First turn: concessions only; the events drawn go back into the deck,
    which is reshuffled (the French rules)."""
    count = len(state["players"])
    deck = state["deck"]
    if not first_turn:
        state["deck"] = deck[count:]
        return deck[:count]
    offer, put_back = [], []
    while len(offer) < count and deck:
        card = deck.pop(0)
        (offer if state["cards"][card]["type"] == "concession" else put_back).append(card)
    if put_back:
        state["deck"] = rng.shuffle(deck + put_back, what=NP_("chance", "deck reshuffle (first turn)"))
    return offer


def end_turn(state: dict, rng) -> None:
    """The game ends with the roll of the turn that emptied the deck; else the winner leads the next turn."""
    if not state["deck"]:
        state["phase"] = "over"
    else:
        start_turn(state, state["turn"]["winner"], rng)


def advance(state: dict, rng) -> None:
    """Run the automatic steps until a player must decide or the game is over."""
    for _ in range(MAX_AUTOMATIC_STEPS):
        if state["stack"] or state["phase"] == "over":
            return
        if wake_waiting_events(state):
            continue
        if state["phase"] == "choosing":
            call_next_chooser(state, rng)
        elif state["phase"] == "production":
            holder = telegraph_holder(state)
            if holder is not None:
                state["turn"]["telegraph_asked"].append(holder)
                push(state, "send_telegraph", holder, fresh_info=True)
            else:
                produce(state)
                end_turn(state, rng)
    raise RuntimeError("gold-fever: the automatic flow did not settle")
