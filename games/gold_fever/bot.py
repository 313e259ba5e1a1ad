"""The greedy prospector: decides from the mover's view alone (everything but the deck is public), never the state.

It values every card in gold: a concession is worth its nuggets (they count at the end) plus what it should
produce in the rolls left (the chance of its number times its nuggets), plus a Maire card it would win, less the
mayor's fee and the saloons' fees; an event is worth what it takes from the others or gives. It bids for the first
choice what that choice is worth over the card it would otherwise get (and no more: the price goes to the others),
takes the best card, aims events at the richest target, and uses the Telegraph when a die changed pays it more than
the others. Ties are broken by `rnd`, so a game is the same for the same `rnd`.
"""
from __future__ import annotations

import functools
import random

from pbem.bots import instantiate

# The chance that two dice make each sum.
CHANCE = {total: (6 - abs(total - 7)) / 36 for total in range(2, 13)}
PRICE_SHARE = 0.6   # of what the first choice is worth, the most the bot pays for it (the price goes to the others)
MAYOR_FEES = 3      # what a mayorship should bring in fees over the rest of a game, besides its Maire card


def choose(view: dict, legal: list[dict], rnd: random.Random) -> dict:
    me = Prospector(view)
    chooser = CHOOSERS.get(view["to_act"]["decision"], choose_target)
    return chooser(me, legal, rnd)


def best(scored: list[tuple[float, dict]], rnd: random.Random) -> dict:
    top = max(score for score, _ in scored)
    return rnd.choice([move for score, move in scored if score == top])


class Prospector:
    """The mover's position and the table, read from their view."""

    def __init__(self, view: dict):
        self.view = view
        self.name = view["viewer"]
        self.players = {p["name"]: p for p in view["players"]}
        self.me = self.players[self.name]
        self.towns = {t["id"]: t for t in view["towns"]}
        self.dangerous = view["options"].get("dangerous-mines") == "on"
        self._rivals: dict[str, int] = {}

    @functools.cached_property
    def rolls_left(self) -> int:
        """Production rolls still to come, this turn's included while it has not been rolled."""
        turn = self.view["turn"]
        return -(-self.view["deck_count"] // len(self.players)) + (turn["roll"] is None)

    @functools.cached_property
    def held(self) -> dict[str, dict[str, int]]:
        """How many concessions each player holds in each town (counted once a decision: each card weighed asks)."""
        held = {}
        for name, player in self.players.items():
            towns = held[name] = {}
            for concession in player["concessions"]:
                towns[concession["town"]] = towns.get(concession["town"], 0) + 1
        return held

    def count_in(self, player: str, town: str) -> int:
        return self.held[player].get(town, 0)

    def yields(self, number: int, value: int, dangerous: bool = False) -> float:
        """What a concession is worth to its owner: its value at the end and its production till then."""
        rolls = self.rolls_left
        keep = (1 - CHANCE[2] - CHANCE[12]) ** rolls if dangerous and self.dangerous else 1
        return value * keep + CHANCE[number] * value * rolls * (1 + keep) / 2

    @functools.cached_property
    def saloon_fees(self) -> dict[str, int]:
        """The fees the others' saloons charge in each town (summed once a decision: each card weighed asks)."""
        fees = dict.fromkeys(self.towns, 0)
        for player in self.view["players"]:
            if player["name"] != self.name:
                for saloon in player["saloons"]:
                    fees[saloon["town"]] = fees.get(saloon["town"], 0) + saloon["fee"]
        return fees

    def saloon_toll(self, town: str, number: int) -> float:
        """The fees the others' saloons of the town would charge this concession."""
        return CHANCE[number] * self.saloon_fees[town] * self.rolls_left

    def rivals(self, town: str) -> int:
        """The most concessions another player holds in the town (found once a decision)."""
        if town not in self._rivals:
            self._rivals[town] = max((self.count_in(p, town) for p in self.players if p != self.name), default=0)
        return self._rivals[town]

    def mayorship(self, town: str) -> float:
        """What one more concession in the town does for the bot's mayorship."""
        info = self.towns[town]
        if info["mayor"] == self.name:
            return 1.0  # a safer majority
        mine = self.count_in(self.name, town) + 1
        mayor_count = self.count_in(info["mayor"], town) if info["mayor"] else 0
        if mine >= 2 and mine > self.rivals(town) and mine > mayor_count:
            return self.view["points_per_maire"] + MAYOR_FEES
        return 0.0

    def concession_value(self, card: dict) -> float:
        town = self.towns[card["town"]]
        fee = town["fee"] if town["mayor"] not in (None, self.name) else 0
        return (self.yields(card["number"], card["nuggets"], card.get("dangerous", False))
                + self.mayorship(card["town"]) - fee - self.saloon_toll(card["town"], card["number"]))

    def opponents_concessions(self) -> list[tuple[str, dict]]:
        return [(p["name"], c) for p in self.view["players"] if p["name"] != self.name for c in p["concessions"]]

    def leader(self) -> str:
        return self.leading

    @functools.cached_property
    def leading(self) -> str:
        """The best scorer of the others (the first of them in a tie)."""
        others = [p for p in self.view["players"] if p["name"] != self.name]
        return max(others, key=lambda p: p["score"]["total"])["name"]

    def harm(self, owner: str, concession: dict) -> float:
        """What losing the concession costs its owner, counted double when the owner leads."""
        loss = self.yields(concession["number"], concession["value"], concession.get("dangerous", False))
        return loss * (1.5 if owner == self.leader() else 1)

    def event_value(self, card: dict) -> float:
        kind = card["kind"]
        others = len(self.players) - 1
        if kind == "stagecoach-robbery":
            return card["gold"]
        if kind == "card-shark":
            return min(card["gold"], 4) * others / 2
        if kind == "dynamite":
            return max([self.harm(o, c) for o, c in self.opponents_concessions()], default=1)
        if kind == "expropriation":
            mine = {c["town"] for c in self.me["concessions"]}
            return max([self.harm(o, c) + self.yields(c["number"], c["value"]) for o, c in self.opponents_concessions()
                        if c["town"] in mine], default=1)
        if kind == "new-vein":
            return max([self.yields(c["number"], card["bonus"]) for c in self.me["concessions"]], default=1)
        if kind == "holdup":
            return max((steal_odds(card["min"], card["max"], p["gold"])[0] for p in self.view["players"]
                        if p["name"] != self.name), default=0) * 1.5
        if kind == "saloon":
            return max(sum(CHANCE[c["number"]] * card["fee"] * self.rolls_left for _, c in self.opponents_concessions()
                           if c["town"] == town) for town in self.towns)
        if kind == "saloon-girls":
            return 2.0 if self.me["saloons"] else 0.5
        if kind == "governor":
            return 3.0 if self.me["maires"] else 0.5
        return 2.0  # mustang, telegraph: a small edge later

    def card_value(self, card: dict | None) -> float:
        if card is None:
            return -1000
        return self.concession_value(card) if card["type"] == "concession" else self.event_value(card)


@functools.lru_cache(maxsize=4096)
def steal_odds(low: int, high: int, gold: int) -> tuple[float, int]:
    """The best expected theft from a player holding `gold`, and the sum to name for it."""
    options = [(sum(CHANCE[t] for t in range(amount, 13)) * min(amount, gold), amount)
               for amount in range(low, high + 1)]
    return max(options)


# ----------------------------------------------------------------------------------------------------- the turn


def choose_bid(me: Prospector, legal: list[dict], rnd: random.Random) -> dict:
    """Bid the least raise while the first choice is worth it; else pass."""
    values = sorted((me.card_value(slot["card"]) for slot in me.view["turn"]["offer"] if slot["card"]),
                    reverse=True)
    worth = values[0] - sum(values) / len(values)  # the best card over what the bot would get on average
    bid = next((m for m in legal if m["action"] == "bid"), None)
    if bid is not None and bid["amount"]["min"] <= worth * PRICE_SHARE:
        return {"action": "bid", "amount": bid["amount"]["min"]}
    return {"action": "pass"}


def choose_card(me: Prospector, legal: list[dict], rnd: random.Random) -> dict:
    offer = {slot["slot"]: slot["card"] for slot in me.view["turn"]["offer"]}
    return best([(me.card_value(offer[m["slot"]]), m) for m in legal], rnd)


def choose_mustang(me: Prospector, legal: list[dict], rnd: random.Random) -> dict:
    """Ride now when the best card left is clearly better than the rest."""
    values = sorted((me.card_value(slot["card"]) for slot in me.view["turn"]["offer"] if slot["card"]),
                    reverse=True)
    ride = len(values) > 1 and values[0] - values[-1] >= 4
    return next(m for m in legal if m["action"] == ("mustang" if ride else "pass"))


def production_edge(me: Prospector, total: int) -> float:
    """The bot's production on that sum less the best of the others'."""
    made = {p["name"]: sum(c["value"] for c in p["concessions"] if c["number"] == total) for p in me.view["players"]}
    return made[me.name] - max(v for p, v in made.items() if p != me.name)


def choose_telegraph(me: Prospector, legal: list[dict], rnd: random.Random) -> dict:
    roll = me.view["turn"]["roll"]
    scored = [(production_edge(me, sum(roll)), {"action": "pass"})]
    for entry in legal:
        if entry["action"] != "telegraph":
            continue
        values = entry["value"]
        low, high = (values["min"], values["max"]) if isinstance(values, dict) else (values, values)
        other = roll[2 - entry["die"]]
        for value in range(low, high + 1):
            scored.append((production_edge(me, other + value) - 1, {**entry, "value": value}))  # -1: keep the card
    return best(scored, rnd)


# --------------------------------------------------------------------------------------------------- events


def targets_of(entry: dict, field: str) -> list[str]:
    value = entry[field]
    return value["from"] if isinstance(value, dict) else value


def choose_target(me: Prospector, legal: list[dict], rnd: random.Random) -> dict:
    """An event's target: the one that gains the bot most or harms the others most."""
    owners = {c["id"]: (p["name"], c) for p in me.view["players"] for c in p["concessions"] + p["saloons"]}
    scored = []
    for entry in legal:
        field = next((f for f in ("target", "concession") if f in entry), None)
        if field is None:
            scored.append((simple_target_value(me, entry), instantiate(entry, rnd)))
            continue
        for target in targets_of(entry, field):
            owner, card = owners[target]
            if entry["action"] == "vein":
                value = me.yields(card["number"], 3)
            elif "number" not in card:
                value = 3.0 * (1.5 if owner == me.leader() else 1)  # a saloon
            else:
                value = me.harm(owner, card) + (me.yields(card["number"], card["value"])
                                                if entry["action"] == "expropriate" else 0)
            scored.append((value, {**entry, field: [target]}))
    return best(scored, rnd)


def simple_target_value(me: Prospector, entry: dict) -> float:
    """Hold-up victims, saloon towns, saloons for the girls, the governor's town."""
    action = entry["action"]
    if action == "holdup":
        gold = me.players[next(p for p in me.players if p.lower() == entry["victim"])]["gold"]
        return steal_odds(entry["amount"]["min"], entry["amount"]["max"], gold)[0]
    if action == "saloon":
        return sum(CHANCE[c["number"]] for _, c in me.opponents_concessions() if c["town"] == entry["town"])
    if action == "governor":
        return me.towns[entry["town"]]["fee"]
    return 0.0


def choose_holdup(me: Prospector, legal: list[dict], rnd: random.Random) -> dict:
    scored = []
    for entry in legal:
        gold = me.players[next(p for p in me.players if p.lower() == entry["victim"])]["gold"]
        expected, amount = steal_odds(entry["amount"]["min"], entry["amount"]["max"], gold)
        scored.append((expected, {**entry, "amount": amount}))
    return best(scored, rnd)


CHOOSERS = {
    "bid_for_lot": choose_bid,
    "choose_card": choose_card,
    "ride_mustang": choose_mustang,
    "send_telegraph": choose_telegraph,
    "aim_holdup": choose_holdup,
}
