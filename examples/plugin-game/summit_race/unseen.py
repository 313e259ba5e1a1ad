"""What a climber cannot see, imagined for pbem's search bot: the other hands and the deck's order.

`sample_state(view, components, rnd)` copies the view into the state's own form and deals the cards seen nowhere
(the components' deck less the discards and the climber's own hand) to the other hands, then the deck, shuffled.
"""
from __future__ import annotations

import random



def sample_state(view: dict, components: dict, rnd: random.Random) -> dict | None:
    """A whole position consistent with `view` (a climber's view) and the components; None for the public view."""
    if "private" not in view or view["to_act"] is None:
        return None
    seat = view["private"]["player"]
    unseen = [card["value"] for card in components["cards"] for _ in range(card["count"])]
    for card in view["private"]["hand"] + view["discards"]:
        unseen.remove(card)
    rnd.shuffle(unseen)
    hands = {}
    for climber in view["players"]:
        if climber["name"] == seat:
            hands[seat] = list(view["private"]["hand"])
        else:
            hands[climber["name"]], unseen = sorted(unseen[:climber["cards"]]), unseen[climber["cards"]:]
    frame = {"decision": view["to_act"]["decision"], "player": view["to_act"]["player"]}
    if frame["decision"] == "discard":
        frame["fresh_info"] = True
    return {"summit": view["summit"], "hand_limit": view["hand_limit"],
            "slide": view["slide"], "storms": view["storms"],
            "heights": {c["name"]: c["height"] for c in view["players"]}, "hands": hands, "deck": unseen,
            "discards": list(view["discards"]), "empty_decks": view["empty_decks"], "winner": view["winner"],
            "over": view["over"], "stack": [frame]}
