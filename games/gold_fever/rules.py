"""La Fièvre de l'Or (Cathala & Faidutti, 2004): the rules as pure functions over plain data.

The turn (the French rules): reveal as many cards as players, auction (bid higher or pass), payment down the table,
card choice from the winner leftwards (concessions pay the mayor's fee, events act), the winner rolls two dice
and every concession with that number produces its nuggets in gold. The game ends with the roll of the turn
that empties the deck. Rulings and their reasons are in rules.md; `ruling:` comments here point at them.

Seats are the player list in clockwise order: a player's LEFT neighbour is the next seat (the card choice and
the auction go that way), the RIGHT neighbour the previous one (the payment goes that way).
Pending decisions are frames on `state["stack"]` (the top is last); `advance` runs the automatic steps (payment,
dice, production, the next turn) until a player must decide or the game is over.
"""
from __future__ import annotations

from pbem import decisions
from pbem.contract import PbemError

RULES_VERSION = 2
BANK = "bank"
MAX_AUTOMATIC_STEPS = 200  # a cap on the automatic flow between two decisions (a bug would otherwise spin)

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
# The numbers an event card carries (its fee, gold, bonus, factor, hold-up range), shown with it in views.
EVENT_NUMBERS = ("fee", "factor", "gold", "bonus", "min", "max")
# Kept by choice and used later (the English rules).
KEPT_FOR_LATER = ("mustang", "telegraph")


# --------------------------------------------------------------------------------------------------- setup

def catalogue_cards(components: dict) -> tuple[list[dict], dict, list[str]]:
    """Towns, every card by id, and the deck's cards (concessions + events), all from the components."""
    towns, cards, deck = [], {}, []
    for town in components["towns"]:
        towns.append({"id": town["id"], "name": town["name"], "english": town.get("english", town["name"])})
        for concession in town["concessions"]:
            cid = f"{town['id']}-{concession['number']}"
            if cid in cards:
                raise PbemError(f"components: two concessions numbered {concession['number']} in {town['id']}")
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


def setup(players: list[str], options: dict, components: dict, rng) -> dict:
    if BANK in players:  # the payment names the bank as a receiver
        raise PbemError(f"a player may not be called {BANK!r} in this game")
    towns, cards, cards_in_deck = catalogue_cards(components)
    deck = rng.shuffle(cards_in_deck, what="deck shuffle")
    set_aside = []
    if options.get("bank-takes-the-rest") == "on":
        require_players(players, components["bank_takes_the_rest"]["players"], "the bank's share of the payment")
    if options.get("short-game") == "on":
        short = components["short_game"]
        require_players(players, short["players"], "the short game")
        # The English rules: 15 cards removed at random from the deck, unseen.
        set_aside, deck = deck[:short["remove"]], deck[short["remove"]:]
    state = {
        "rules_version": RULES_VERSION,
        "players": list(players),
        "options": dict(options),
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
    }
    # The English rules: the first player of the first turn is drawn at random (the French rules do not say).
    first = rng.choice(list(players), what="first player", public=True)
    start_turn(state, first, rng)
    return state


def require_players(players: list[str], count: int, what: str) -> None:
    """An option the English rules give to one player count only is refused at other counts."""
    if len(players) != count:
        raise PbemError(f"{what} is for {count} players, not {len(players)}")


# --------------------------------------------------------------------------------------------- helpers

def left_of(state: dict, player: str, steps: int = 1) -> str:
    players = state["players"]
    return players[(players.index(player) + steps) % len(players)]


def clockwise_from(state: dict, player: str) -> list[str]:
    return [left_of(state, player, k) for k in range(len(state["players"]))]


def town_of(state: dict, card: str) -> str:
    return state["cards"][card]["town"]


def concessions_of(state: dict, player: str, town: str | None = None) -> list[str]:
    return sorted((cid for cid, owner in state["owners"].items()
                   if owner == player and (town is None or town_of(state, cid) == town)),
                  key=lambda cid: (town_of(state, cid), state["cards"][cid]["number"]))


def saloons_of(state: dict, player: str) -> list[str]:
    return sorted(sid for sid, saloon in state["saloons"].items() if saloon["owner"] == player)


def find_player(state: dict, name: str) -> str:
    """Players are named in moves by their lower-cased name (the notation lower-cases every word)."""
    return next(player for player in state["players"] if player.lower() == name)


def push(state: dict, decision: str, player: str, fresh_info: bool = False, **extra) -> None:
    state["stack"].append({"decision": decision, "player": player, "fresh_info": fresh_info, **extra})


def chronicle(state: dict, player: str, card: str, effect: str) -> None:
    """What an event did, for the report."""
    state["turn"]["events"].append({"player": player, "card": card, "effect": effect})


def discard(state: dict, card: str | None) -> None:
    if card is not None:
        state["discard"].append(card)


def transfer(state: dict, payer: str, payee: str, amount: int) -> int:
    """Pay what you can (the English rules on bankruptcy: never more than you hold, no debt); the bank is a payee
    too."""
    paid = max(0, min(amount, state["gold"][payer]))
    state["gold"][payer] -= paid
    if payee == BANK:
        state["bank"]["taken_in"] += paid
    else:
        state["gold"][payee] += paid
    return paid


def bank_pays(state: dict, player: str, amount: int) -> None:
    state["gold"][player] += amount
    state["bank"]["paid_out"] += amount


# ------------------------------------------------------------------------------------------------ turn

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
        state["deck"] = rng.shuffle(deck + put_back, what="deck reshuffle (first turn)")
    return offer


# ---------------------------------------------------------------------------------------------- auction

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


def bid_for_lot(state: dict, player: str, move: dict, rng) -> None:
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


# ------------------------------------------------------------------------------------------ card choice

def call_next_chooser(state: dict, rng) -> None:
    """Push the next card choice; when everyone has a card (or the offer is empty) the winner rolls."""
    turn = state["turn"]
    cards_left = any(card is not None for card in turn["offer"])
    if cards_left and len(turn["taken"]) == 1 and not turn["mustang_offered"]:
        turn["mustang_offered"] = True
        rider = mustang_rider(state)
        if rider is not None:
            push(state, "ride_mustang", rider)
            return
    if cards_left and turn["choosers"]:
        push(state, "choose_card", turn["choosers"].pop(0))
        return
    roll_for_production(state, rng)


def mustang_rider(state: dict) -> str | None:
    """The English rules' Mustang: choose right after the high bidder instead of in your normal turn. Offered once a
    turn, after the winner's choice, to a holder who has not chosen yet and would not be next anyway."""
    choosers = state["turn"]["choosers"]
    for player in choosers[1:]:
        if any(state["cards"][card]["kind"] == "mustang" for card in state["kept"][player]):
            return player
    return None


def ride_mustang(state: dict, player: str, move: dict, rng) -> None:
    if move["action"] == "pass":
        return
    card = next(card for card in state["kept"][player] if state["cards"][card]["kind"] == "mustang")
    state["kept"][player].remove(card)
    discard(state, card)
    choosers = state["turn"]["choosers"]
    choosers.remove(player)
    choosers.insert(0, player)
    chronicle(state, player, card, "rides the Mustang: chooses next")


def choose_card(state: dict, player: str, move: dict, rng) -> None:
    turn = state["turn"]
    card = turn["offer"][move["slot"] - 1]
    turn["offer"][move["slot"] - 1] = None
    turn["taken"].append({"player": player, "card": card})
    if state["cards"][card]["type"] == "concession":
        place_concession(state, player, card)
    else:
        play_event(state, player, card)


def place_concession(state: dict, player: str, card: str) -> None:
    town = town_of(state, card)
    pay_mayor_fee(state, player, town)  # the French rules: the mayor changes after the payment
    state["owners"][card] = player
    appoint_mayor(state, town)


# ------------------------------------------------------------------------------------------------ mayors

def mayor_fee(state: dict, town: str) -> int:
    """The French rules: the mayor receives as much as he has concessions of his town; a Governor doubles it."""
    mayor = state["mayors"][town]
    if mayor is None:
        return 0
    fee = len(concessions_of(state, mayor, town))
    governor = state["governor"]
    if governor and governor["town"] == town:
        fee *= state["cards"][governor["card"]]["factor"]
    return fee


def pay_mayor_fee(state: dict, taker: str, town: str) -> None:
    mayor = state["mayors"][town]
    if mayor is not None and mayor != taker:
        paid = transfer(state, taker, mayor, mayor_fee(state, town))
        state["turn"]["fees"].append({"player": taker, "mayor": mayor, "town": town, "amount": paid})


def appoint_mayor(state: dict, town: str) -> None:
    """The French rules: the Maire card goes to the player with the most concessions of the town, at least 2.
    ruling: the mayor keeps it while nobody has more (the English rules: only MORE mines take it); when others
    have more and the most is tied between them, or the mayor has no concession there left, it goes back aside
    until one player alone has the most. A Governor leaves with the mayorship (the English rules)."""
    counts = {player: len(concessions_of(state, player, town)) for player in state["players"]}
    best = max(counts.values())
    leaders = [player for player in state["players"] if counts[player] == best]
    mayor = state["mayors"][town]
    if mayor is not None and 0 < counts[mayor] == best:
        new = mayor
    elif best >= 2 and len(leaders) == 1:
        new = leaders[0]
    else:
        new = None
    if new != mayor:
        state["mayors"][town] = new
        governor = state["governor"]
        if governor and governor["town"] == town:
            discard(state, governor["card"])
            state["governor"] = None


# ------------------------------------------------------------------------------------------------ events

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


def light_dynamite(state: dict, player: str, move: dict, card: str) -> None:
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


def expropriate_concession(state: dict, player: str, move: dict, card: str) -> None:
    """The English rules: take the concession; if the town has a mayor you still pay his fee; the New Vein goes
    along."""
    concession = move["concession"][0]
    town = town_of(state, concession)
    chronicle(state, player, card, f"took {concession} from {state['owners'][concession]}")
    pay_mayor_fee(state, player, town)
    state["owners"][concession] = player
    appoint_mayor(state, town)
    discard(state, card)


def aim_holdup(state: dict, player: str, move: dict, card: str, rng) -> None:
    """The English rules: name a player and a sum 2..12, roll two dice: at least that sum steals it."""
    victim = find_player(state, move["victim"])
    dice = rng.roll(2, 6, what=f"hold-up by {player} on {victim} for {move['amount']}", public=True)
    stolen = transfer(state, victim, player, move["amount"]) if sum(dice) >= move["amount"] else 0
    state["turn"]["holdups"].append({"player": player, "victim": victim, "amount": move["amount"],
                                     "dice": dice, "stolen": stolen})
    discard(state, card)


def build_saloon(state: dict, player: str, move: dict, card: str) -> None:
    """French edition: the Saloon event takes one of the town's Saloon cards kept aside."""
    saloon = next(sid for sid in state["saloon_supply"] if town_of(state, sid) == move["town"])
    state["saloon_supply"].remove(saloon)
    state["saloons"][saloon] = {"owner": player, "event": card, "girls": None}
    chronicle(state, player, card, f"opened {saloon}")


def place_saloon_girls(state: dict, player: str, move: dict, card: str) -> None:
    state["saloons"][move["saloon"]]["girls"] = card
    chronicle(state, player, card, f"work in {move['saloon']}")


def appoint_governor(state: dict, player: str, move: dict, card: str) -> None:
    state["governor"] = {"card": card, "town": move["town"]}
    chronicle(state, player, card, f"governs {move['town']}: mayor fees doubled")


def stake_new_vein(state: dict, player: str, move: dict, card: str) -> None:
    concession = move["concession"][0]
    state["veins"][concession] = card
    chronicle(state, player, card, f"runs under {concession}")


# -------------------------------------------------------------------------------------------- production

def roll_for_production(state: dict, rng) -> None:
    """The French rules: the auction winner always rolls the two dice."""
    turn = state["turn"]
    turn["roll"] = rng.roll(2, 6, what=f"production roll, turn {turn['number']}", public=True)
    state["phase"] = "production"


def telegraph_holder(state: dict) -> str | None:
    """The English rules' Telegraph: after any production roll its holder may change one die; asked once per roll."""
    turn = state["turn"]
    for player in clockwise_from(state, turn["winner"]):
        holds = any(state["cards"][card]["kind"] == "telegraph" for card in state["kept"][player])
        if holds and player not in turn["telegraph_asked"]:
            return player
    return None


def send_telegraph(state: dict, player: str, move: dict, rng) -> None:
    if move["action"] == "pass":
        return
    turn = state["turn"]
    card = next(card for card in state["kept"][player] if state["cards"][card]["kind"] == "telegraph")
    state["kept"][player].remove(card)
    discard(state, card)
    turn["telegraph"] = {"player": player, "die": move["die"], "from": turn["roll"][move["die"] - 1],
                         "to": move["value"]}
    turn["roll"][move["die"] - 1] = move["value"]


def production_value(state: dict, concession: str) -> int:
    vein = state["veins"].get(concession)
    return state["cards"][concession]["nuggets"] + (state["cards"][vein]["bonus"] if vein else 0)


def produce(state: dict) -> None:
    """Every concession numbered like the dice pays its owner its nuggets from the bank; then each saloon of the
    town charges the owner of each producing concession its fee (2, or 4 with Saloon Girls)."""
    turn = state["turn"]
    total = sum(turn["roll"])
    producing = sorted(cid for cid in state["owners"] if state["cards"][cid]["number"] == total)
    for cid in producing:
        owner = state["owners"][cid]
        bank_pays(state, owner, production_value(state, cid))
        turn["production"].append({"player": owner, "concession": cid, "gold": production_value(state, cid)})
    for cid in producing:
        owner = state["owners"][cid]
        for sid in sorted(state["saloons"]):
            saloon = state["saloons"][sid]
            if town_of(state, sid) != town_of(state, cid) or saloon["owner"] == owner:
                continue
            fee = state["cards"][saloon["girls"] or saloon["event"]]["fee"]
            paid = transfer(state, owner, saloon["owner"], fee)
            turn["saloon_fees"].append({"player": owner, "saloon": sid, "owner": saloon["owner"], "amount": paid})
    if state["options"].get("dangerous-mines") == "on" and total in state["collapse_rolls"]:
        collapse_dangerous_mines(state)


def collapse_dangerous_mines(state: dict) -> None:
    """Option, the English rules: dangerous mines collapse on a production roll of 2 or 12 and leave the game."""
    for cid in sorted(state["owners"]):
        if state["cards"][cid]["dangerous"]:
            state["turn"]["collapsed"].append(cid)
            remove_concession(state, cid)


def end_turn(state: dict, rng) -> None:
    """The game ends with the roll of the turn that emptied the deck; else the winner leads the next turn."""
    if not state["deck"]:
        state["phase"] = "over"
    else:
        start_turn(state, state["turn"]["winner"], rng)


# ------------------------------------------------------------------------------------------ the engine API

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


def pending(state: dict) -> dict | None:
    return decisions.pending(state["stack"], state["phase"] == "over")


def int_ranges_without(low: int, high: int, excluded: int) -> list:
    """low..high but `excluded`: up to two ranges (a single value as itself)."""
    return [a if a == b else {"min": a, "max": b} for a, b in ((low, excluded - 1), (excluded + 1, high)) if a <= b]


def one_per_town(state: dict, action: str, field: str, targets: list[str]) -> list[dict]:
    """Concessions and saloons to aim at, one entry per town (a choice of one of its cards), so that the list
    stays short however many cards are on the table: at most one entry per town."""
    moves = []
    for town in state["towns"]:
        in_town = [target for target in targets if town_of(state, target) == town["id"]]
        if in_town:
            moves.append({"action": action, field: in_town if len(in_town) == 1 else
                          {"from": in_town, "min": 1, "max": 1}})
    return moves


def legal_moves(state: dict, player: str) -> list[dict]:
    frame = decisions.frame_for(state["stack"], state["phase"] == "over", player)
    if frame is None:
        return []
    name = frame["decision"]
    turn = state["turn"]
    if name == "bid_for_lot":
        lowest = turn["high"]["amount"] + 1 if turn["high"] else 1
        moves = [{"action": "pass"}]
        if lowest <= state["gold"][player]:  # never above what you hold
            moves.append({"action": "bid", "amount": {"min": lowest, "max": state["gold"][player]}})
        return moves
    if name == "choose_card":
        return [{"action": "take", "slot": slot}
                for slot, card in enumerate(turn["offer"], start=1) if card is not None]
    # `pass` first where it declines: the referee plays the first legal move for a resigned player
    if name == "ride_mustang":
        return [{"action": "pass"}, {"action": "mustang"}]
    if name == "send_telegraph":
        return [{"action": "pass"}] + [{"action": "telegraph", "die": die, "value": values}
                                       for die, shown in enumerate(turn["roll"], start=1)
                                       for values in int_ranges_without(1, 6, shown)]
    targets = event_targets(state, player, frame["card"])
    if name == "light_dynamite":
        return one_per_town(state, "dynamite", "target", targets)
    if name == "expropriate_concession":
        return one_per_town(state, "expropriate", "concession", targets)
    if name == "aim_holdup":
        event = state["cards"][frame["card"]]
        return [{"action": "holdup", "victim": target, "amount": {"min": event["min"], "max": event["max"]}}
                for target in targets]
    if name == "build_saloon":
        return [{"action": "saloon", "town": target} for target in targets]
    if name == "place_saloon_girls":
        return [{"action": "girls", "saloon": target} for target in targets]
    if name == "appoint_governor":
        return [{"action": "governor", "town": target} for target in targets]
    if name == "stake_new_vein":
        return one_per_town(state, "vein", "concession", targets)
    raise ValueError(f"unknown decision {name!r}")


EVENT_HANDLERS = {
    "light_dynamite": light_dynamite,
    "expropriate_concession": expropriate_concession,
    "build_saloon": build_saloon,
    "place_saloon_girls": place_saloon_girls,
    "appoint_governor": appoint_governor,
    "stake_new_vein": stake_new_vein,
}
TURN_HANDLERS = {
    "bid_for_lot": bid_for_lot,
    "choose_card": choose_card,
    "ride_mustang": ride_mustang,
    "send_telegraph": send_telegraph,
}


def apply(state: dict, player: str, move: dict, rng) -> dict:
    frame = state["stack"].pop()
    name = frame["decision"]
    if name in TURN_HANDLERS:
        TURN_HANDLERS[name](state, player, move, rng)
    elif name == "aim_holdup":
        aim_holdup(state, player, move, frame["card"], rng)
    else:
        EVENT_HANDLERS[name](state, player, move, frame["card"])
    advance(state, rng)
    return state


# ---------------------------------------------------------------------------------------- views, result

def card_view(state: dict, card: str) -> dict:
    data = state["cards"][card]
    if data["type"] == "concession":
        return {"id": card, "type": "concession", "town": data["town"], "number": data["number"],
                "nuggets": data["nuggets"], "dangerous": data["dangerous"]}
    if data["type"] == "saloon":
        return {"id": card, "type": "saloon", "town": data["town"]}
    numbers = {key: data[key] for key in EVENT_NUMBERS if key in data}  # printed on the card: public
    return {"id": card, "type": "event", "kind": data["kind"], "name": data["name"], **numbers}


def score_lines(state: dict, player: str) -> dict:
    """The French rules: gold + the nuggets on one's concessions (+3 with a New Vein) + 5 per Maire card."""
    gold = state["gold"][player]
    nuggets = sum(production_value(state, cid) for cid in concessions_of(state, player))
    maires = sum(1 for mayor in state["mayors"].values() if mayor == player)
    points = maires * state["points_per_maire"]
    return {"gold": gold, "nuggets": nuggets, "maires": maires, "maire_points": points,
            "total": gold + nuggets + points}


def player_view(state: dict, player: str) -> dict:
    return {
        "name": player,
        "gold": state["gold"][player],
        "concessions": [{**card_view(state, cid), "vein": cid in state["veins"],
                         "value": production_value(state, cid)} for cid in concessions_of(state, player)],
        "saloons": [{"id": sid, "town": town_of(state, sid),
                     "fee": state["cards"][state["saloons"][sid]["girls"] or state["saloons"][sid]["event"]]["fee"],
                     "girls": state["saloons"][sid]["girls"] is not None} for sid in saloons_of(state, player)],
        "maires": [town["id"] for town in state["towns"] if state["mayors"][town["id"]] == player],
        "kept": [{**card_view(state, card), "waiting": state["cards"][card]["kind"] not in KEPT_FOR_LATER}
                 for card in state["kept"][player]],
        "score": score_lines(state, player),
    }


def turn_view(state: dict, turn: dict) -> dict:
    return {
        "number": turn["number"],
        "first_player": turn["first_player"],
        "offer": [{"slot": slot, "card": card_view(state, card) if card else None}
                  for slot, card in enumerate(turn["offer"], start=1)],
        "bids": [dict(bid) for bid in turn["bids"]],
        "high_bidder": turn["high"]["player"] if turn["high"] else None,
        "high_bid": turn["high"]["amount"] if turn["high"] else None,
        "passed": list(turn["passed"]),
        "winner": turn["winner"],
        "price": turn["price"],
        "payment": [dict(share) for share in turn["payment"]],
        "still_to_choose": list(turn["choosers"]),
        "taken": [dict(taken) for taken in turn["taken"]],
        "fees": [dict(fee) for fee in turn["fees"]],
        "holdups": [{**holdup, "dice": list(holdup["dice"])} for holdup in turn["holdups"]],
        "roll": list(turn["roll"]) if turn["roll"] else None,
        "telegraph": dict(turn["telegraph"]) if turn["telegraph"] else None,
        "production": [dict(line) for line in turn["production"]],
        "saloon_fees": [dict(line) for line in turn["saloon_fees"]],
        "collapsed": list(turn["collapsed"]),
        "events": [dict(line) for line in turn["events"]],
    }


def to_act_view(state: dict) -> dict:
    """Who decides what; for an event's target, the event card being played."""
    frame = state["stack"][-1]
    act = {"player": frame["player"], "decision": frame["decision"]}
    if "card" in frame:
        act["card"] = card_view(state, frame["card"])
    return act


def view(state: dict, player: str | None) -> dict:
    """Everything is public but the deck's order and the cards set aside unseen (their counts are public).
    ruling: gold is public (open coins on the table in the physical game)."""
    decision = pending(state)
    governor = state["governor"]
    public = {
        "game": "gold-fever",
        "rules_version": state["rules_version"],
        "options": dict(state["options"]),
        "phase": state["phase"],
        "to_act": to_act_view(state) if decision else None,
        "deck_count": len(state["deck"]),
        "set_aside_count": len(state["set_aside"]),
        "points_per_maire": state["points_per_maire"],
        "turn": turn_view(state, state["turn"]),
        "previous_turn": turn_view(state, state["previous_turn"]) if state["previous_turn"] else None,
        "towns": [{"id": town["id"], "name": town["name"], "english": town["english"],
                   "mayor": state["mayors"][town["id"]],
                   "governor": bool(governor and governor["town"] == town["id"]),
                   "fee": mayor_fee(state, town["id"]),
                   "saloons_left": sum(1 for sid in state["saloon_supply"] if town_of(state, sid) == town["id"])}
                  for town in state["towns"]],
        "players": [player_view(state, p) for p in state["players"]],
        "bank": dict(state["bank"]),
        "discard": [card_view(state, card) for card in state["discard"]],
    }
    if player is not None:
        public["viewer"] = player
    return public


def result(state: dict) -> list[dict]:
    """Highest total wins. ruling: equal totals share the rank (neither edition gives a tie-break).
    `details` are the lines that add up to the score."""
    lines = {player: score_lines(state, player) for player in state["players"]}
    ranking = []
    for player in sorted(state["players"], key=lambda p: -lines[p]["total"]):
        better = sum(1 for other in state["players"] if lines[other]["total"] > lines[player]["total"])
        score = lines[player]
        ranking.append({"player": player, "score": score["total"], "rank": better + 1, "details": {
            "gold": score["gold"], "nuggets on concessions": score["nuggets"],
            "Maire cards": score["maires"],
            f"points for Maire cards (x{state['points_per_maire']})": score["maire_points"]}})
    return ranking
