"""The event cards: what each does, what it may be aimed at, and one waiting for a target."""
from __future__ import annotations

from pbem.messages import NP_

from .common import (BANK, KEPT_FOR_LATER, bank_pays, chronicle, concessions_of, discard, find_player, one_per_town,
                     push, saloons_of, town_of, transfer)
from .mayors import appoint_mayor, pay_mayor_fee

# What the log says a hold-up's roll was (in English, as every stored game holds it; the report reads it back)
HOLDUP_ROLL = NP_("chance", "hold-up by {player} on {victim} for {amount}")


# Events whose target is chosen as a move: the decision each one pushes. When no target exists yet, the card is
# kept in front of its holder, waiting, and acts as soon as it can (the French rules: an effect that cannot apply
# now is kept until the rules allow it).
EVENT_DECISIONS = {
    "dynamite": "light_dynamite",
    "expropriation": "expropriate_concession",
    "holdup": "aim_holdup",
    "saloon": "build_saloon",
    "saloon-girls": "place_saloon_girls",
    "governor": "appoint_governor",
    "new-vein": "stake_new_vein",
}


def play_event(state: dict, player: str, card: str) -> None:
    """The French rules: an event acts at once, a lasting one is placed, some are kept to be used later."""
    event = state["cards"][card]
    kind = event["kind"]
    if kind == "card-shark":  # every other player pays the bank
        paid = {other: transfer(state, other, BANK, event["gold"]) for other in state["players"] if other != player}
        chronicle(state, player, card, "the bank won " + ", ".join(f"{p} {g}" for p, g in paid.items()))
        discard(state, card)
    elif kind == "stagecoach-robbery":  # gold from the bank
        bank_pays(state, player, event["gold"])
        chronicle(state, player, card, f"took {event['gold']} from the bank")
        discard(state, card)
    elif kind in KEPT_FOR_LATER or not event_targets(state, player, card):
        state["kept"][player].append(card)
        if kind not in KEPT_FOR_LATER:
            chronicle(state, player, card, "kept, waiting for a target")
    else:
        push(state, EVENT_DECISIONS[kind], player, card=card)


def event_targets(state: dict, player: str, card: str) -> list[str]:
    """What the event may be aimed at now (ids, towns or player names); empty: it waits in front of its holder."""
    kind = state["cards"][card]["kind"]
    others = [p for p in state["players"] if p != player]
    if kind == "dynamite":  # an opponent's concession or saloon
        return ([cid for p in others for cid in concessions_of(state, p)]
                + [sid for p in others for sid in saloons_of(state, p)])
    if kind == "expropriation":  # an opponent's concession in a town where the player already has one
        mine = {town_of(state, cid) for cid in concessions_of(state, player)}
        return [cid for p in others for cid in concessions_of(state, p) if town_of(state, cid) in mine]
    if kind == "holdup":
        return [p.lower() for p in others]
    if kind == "saloon":  # a town whose Saloon cards are not all built
        supply = {town_of(state, sid) for sid in state["saloon_supply"]}
        return [town["id"] for town in state["towns"] if town["id"] in supply]
    if kind == "saloon-girls":
        return [sid for sid in saloons_of(state, player) if state["saloons"][sid]["girls"] is None]
    if kind == "governor":
        if state["governor"] is not None:
            return []
        return [town["id"] for town in state["towns"] if state["mayors"][town["id"]] == player]
    if kind == "new-vein":
        return [cid for cid in concessions_of(state, player) if cid not in state["veins"]]
    return []


def wake_waiting_events(state: dict) -> bool:
    """A waiting event acts as soon as it has a target; one at a time, in seat order."""
    for player in state["players"]:
        for card in state["kept"][player]:
            kind = state["cards"][card]["kind"]
            if kind in EVENT_DECISIONS and event_targets(state, player, card):
                state["kept"][player].remove(card)
                push(state, EVENT_DECISIONS[kind], player, card=card)
                return True
    return False


def light_dynamite(state: dict, frame: dict, move: dict, rng) -> None:
    player, card = frame["player"], frame["card"]
    target = move["target"][0]
    if target in state["saloons"]:  # the saloon, its event card and any Girls leave the game
        saloon = state["saloons"].pop(target)
        discard(state, saloon["event"])
        discard(state, saloon["girls"])
        discard(state, target)
        chronicle(state, player, card, f"blew up {target} of {saloon['owner']}")
    else:  # the concession leaves the game, its New Vein with it
        chronicle(state, player, card, f"blew up {target} of {state['owners'][target]}")
        remove_concession(state, target)
    discard(state, card)


def remove_concession(state: dict, concession: str) -> None:
    del state["owners"][concession]
    discard(state, state["veins"].pop(concession, None))
    discard(state, concession)
    appoint_mayor(state, town_of(state, concession))


def expropriate_concession(state: dict, frame: dict, move: dict, rng) -> None:
    """The English rules: take the concession; if the town has a mayor you still pay his fee; the New Vein goes
    along."""
    player, card = frame["player"], frame["card"]
    concession = move["concession"][0]
    town = town_of(state, concession)
    chronicle(state, player, card, f"took {concession} from {state['owners'][concession]}")
    pay_mayor_fee(state, player, town)
    state["owners"][concession] = player
    appoint_mayor(state, town)
    discard(state, card)


def aim_holdup(state: dict, frame: dict, move: dict, rng) -> None:
    """The English rules: name a player and a sum 2..12, roll two dice: at least that sum steals it."""
    player, card = frame["player"], frame["card"]
    victim = find_player(state, move["victim"])
    dice = rng.roll(2, 6, what=HOLDUP_ROLL.format(player=player, victim=victim, amount=move["amount"]), public=True)
    stolen = transfer(state, victim, player, move["amount"]) if sum(dice) >= move["amount"] else 0
    state["turn"]["holdups"].append({"player": player, "victim": victim, "amount": move["amount"],
                                     "dice": dice, "stolen": stolen})
    discard(state, card)


def build_saloon(state: dict, frame: dict, move: dict, rng) -> None:
    """French edition: the Saloon event takes one of the town's Saloon cards kept aside."""
    player, card = frame["player"], frame["card"]
    saloon = next(sid for sid in state["saloon_supply"] if town_of(state, sid) == move["town"])
    state["saloon_supply"].remove(saloon)
    state["saloons"][saloon] = {"owner": player, "event": card, "girls": None}
    chronicle(state, player, card, f"opened {saloon}")


def place_saloon_girls(state: dict, frame: dict, move: dict, rng) -> None:
    player, card = frame["player"], frame["card"]
    state["saloons"][move["saloon"]]["girls"] = card
    chronicle(state, player, card, f"work in {move['saloon']}")


def appoint_governor(state: dict, frame: dict, move: dict, rng) -> None:
    player, card = frame["player"], frame["card"]
    state["governor"] = {"card": card, "town": move["town"]}
    chronicle(state, player, card, f"governs {move['town']}: mayor fees doubled")


def stake_new_vein(state: dict, frame: dict, move: dict, rng) -> None:
    player, card = frame["player"], frame["card"]
    concession = move["concession"][0]
    state["veins"][concession] = card
    chronicle(state, player, card, f"runs under {concession}")


def targets_of(state: dict, frame: dict) -> list[str]:
    return event_targets(state, frame["player"], frame["card"])


def legal_dynamite(state: dict, frame: dict) -> list[dict]:
    return one_per_town(state, "dynamite", "target", targets_of(state, frame))


def legal_expropriation(state: dict, frame: dict) -> list[dict]:
    return one_per_town(state, "expropriate", "concession", targets_of(state, frame))


def legal_holdup(state: dict, frame: dict) -> list[dict]:
    event = state["cards"][frame["card"]]
    return [{"action": "holdup", "victim": target, "amount": {"min": event["min"], "max": event["max"]}}
            for target in targets_of(state, frame)]


def legal_saloon(state: dict, frame: dict) -> list[dict]:
    return [{"action": "saloon", "town": target} for target in targets_of(state, frame)]


def legal_girls(state: dict, frame: dict) -> list[dict]:
    return [{"action": "girls", "saloon": target} for target in targets_of(state, frame)]


def legal_governor(state: dict, frame: dict) -> list[dict]:
    return [{"action": "governor", "town": target} for target in targets_of(state, frame)]


def legal_vein(state: dict, frame: dict) -> list[dict]:
    return one_per_town(state, "vein", "concession", targets_of(state, frame))
