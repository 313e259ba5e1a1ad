"""La Fièvre de l'Or: the text report of the table, built only from a view (nothing hidden can be printed)."""
from __future__ import annotations

from pbem.tables import table

DECISION_WORDS = {
    "bid_for_lot": "bid or pass",
    "choose_card": "take a card",
    "ride_mustang": "ride the Mustang or pass",
    "send_telegraph": "use the Telegraph or pass",
    "light_dynamite": "choose what the dynamite blows up",
    "expropriate_concession": "choose the concession to expropriate",
    "aim_holdup": "name the hold-up's victim and sum",
    "build_saloon": "choose the saloon's town",
    "place_saloon_girls": "choose the saloon for the girls",
    "appoint_governor": "choose the governor's town",
    "stake_new_vein": "choose the concession for the new vein",
}


def card_text(card: dict | None, dangerous_mines: bool) -> str:
    if card is None:
        return "(taken)"
    if card["type"] == "concession":
        # The printed mark matters only when the dangerous-mines option is on.
        danger = ", dangerous" if dangerous_mines and card.get("dangerous") else ""
        nuggets = f"{card['nuggets']} nugget{'' if card['nuggets'] == 1 else 's'}"
        return f"{card['id']} (number {card['number']}, {nuggets}{danger})"
    if card["type"] == "saloon":
        return f"{card['id']} (saloon of {card['town']})"
    return f"{card['id']} ({card['name']})"


def status_lines(view: dict) -> list[str]:
    turn = view["turn"]
    lines = [f"Turn {turn['number']}: first player {turn['first_player']}; deck {view['deck_count']} cards"
             + (f" ({view['set_aside_count']} set aside unseen)" if view["set_aside_count"] else "")]
    if view["to_act"]:
        act = view["to_act"]
        lines.append(f"To act: {act['player']} ({DECISION_WORDS.get(act['decision'], act['decision'])})")
    else:
        lines.append("The game is over.")
    return lines


def offer_table(view: dict) -> str:
    dangerous_mines = view["options"].get("dangerous-mines") == "on"
    rows = [[slot["slot"], card_text(slot["card"], dangerous_mines)] for slot in view["turn"]["offer"]]
    return "Cards on offer\n" + table(rows, headers=["slot", "card"])


def turn_lines(turn: dict, current: bool) -> list[str]:
    """What happened in one turn: bids, payment, cards taken, fees, hold-ups, the roll and what it produced."""
    bids = ", ".join(f"{bid['player']} {'pass' if bid['bid'] is None else 'bids ' + str(bid['bid'])}"
                     for bid in turn["bids"]) or "none yet"
    lines = [f"Bids{' so far' if current and turn['winner'] is None else ''}: {bids}"]
    if turn["winner"] is not None:
        paid = ", ".join(f"{share['to']} {share['amount']}" for share in turn["payment"]) or "nothing"
        lines.append(f"Auction won by {turn['winner']} for {turn['price']}; paid down the table: {paid}")
    for taken in turn["taken"]:
        lines.append(f"{taken['player']} took {taken['card']}")
    if current and turn["still_to_choose"] and turn["roll"] is None:
        lines.append("Then to choose, in order: " + ", ".join(turn["still_to_choose"]))
    for event in turn["events"]:
        lines.append(f"{event['player']}'s {event['card']}: {event['effect']}")
    for fee in turn["fees"]:
        lines.append(f"{fee['player']} paid mayor {fee['mayor']} {fee['amount']} for {fee['town']}")
    for holdup in turn["holdups"]:
        outcome = f"stole {holdup['stolen']}" if sum(holdup["dice"]) >= holdup["amount"] else "failed"
        lines.append(f"Hold-up by {holdup['player']} on {holdup['victim']} for {holdup['amount']}: "
                     f"rolled {holdup['dice'][0]}+{holdup['dice'][1]}, {outcome}")
    if turn["roll"]:
        roll = turn["roll"]
        lines.append(f"Production roll: {roll[0]} + {roll[1]} = {roll[0] + roll[1]}")
    if turn["telegraph"]:
        wire = turn["telegraph"]
        lines.append(f"{wire['player']} used the Telegraph: die {wire['die']} from {wire['from']} to {wire['to']}")
    for line in turn["production"]:
        lines.append(f"{line['concession']} produced {line['gold']} for {line['player']}")
    for line in turn["saloon_fees"]:
        lines.append(f"{line['player']} paid {line['amount']} at {line['owner']}'s saloon {line['saloon']}")
    for cid in turn["collapsed"]:
        lines.append(f"{cid} collapsed")
    return lines


def concession_table(view: dict) -> str:
    towns = [town["id"] for town in view["towns"]]
    rows = []
    for player in view["players"]:
        cells = []
        for town in towns:
            mines = [f"{c['number']}:{c['value']}" + ("+v" if c["vein"] else "")
                     for c in player["concessions"] if c["town"] == town]
            cells.append(" ".join(mines))
        rows.append([player["name"], *cells])
    return ("Concessions by town (number:value; +v = with a New Vein, +3 counted in)\n"
            + table(rows, headers=["player", *towns]))


def towns_table(view: dict) -> str:
    rows = [[town["id"], f"{town['name']} ({town['english']})", town["mayor"] or "-", town["fee"],
             "yes" if town["governor"] else "", town["saloons_left"]] for town in view["towns"]]
    return "Towns\n" + table(rows, headers=["town", "name (English edition)", "mayor", "fee",
                                               "governor", "saloon cards left"])


def players_table(view: dict) -> str:
    rows = []
    for player in view["players"]:
        saloons = ", ".join(f"{s['id']} ({s['fee']})" for s in player["saloons"])
        kept = ", ".join(card["id"] + (" (waiting)" if card["waiting"] else "") for card in player["kept"])
        rows.append([player["name"], player["gold"], ", ".join(player["maires"]), saloons, kept])
    bank = view["bank"]
    return ("Players\n" + table(rows, headers=["player", "gold", "mayor of", "saloons (fee)", "cards kept"])
            + f"\nBank: paid out {bank['paid_out']}, took in {bank['taken_in']}")


def render(view: dict, viewer: str | None) -> str:
    parts = ["\n".join(status_lines(view))]
    if view["phase"] != "over":
        parts.append(offer_table(view))
    for turn, current in ((view["previous_turn"], False), (view["turn"], True)):
        if turn:
            parts.append(f"Turn {turn['number']}\n" + "\n".join(turn_lines(turn, current)))
    parts += [players_table(view), concession_table(view), towns_table(view)]
    return "\n\n".join(parts) + "\n"  # the final score: the referee's ranking, with every line of it


# ----------------------------------------------------------------------------------------------------- moves
# What one legal move does, for `pbem moves`; built from the mover's view only (here everything is public).

EVENT_EFFECTS = {
    "saloon": "a saloon: others' producing concessions in its town pay you {fee}",
    "saloon-girls": "one of your saloons collects {fee} instead",
    "dynamite": "blow up an opponent's concession or saloon",
    "expropriation": "take an opponent's concession in a town where you have one",
    "governor": "your mayor fees in one of your towns x{factor}",
    "card-shark": "every other player pays the bank {gold}",
    "new-vein": "one of your concessions yields {bonus} more, now and at the end",
    "mustang": "keep it: later, choose your card right after the winner",
    "stagecoach-robbery": "take {gold} from the bank",
    "holdup": "name a player and a sum {min}-{max}; two dice reaching it steal it",
    "telegraph": "keep it: change one die of a later production roll",
}


def describe(view: dict, move: dict) -> str:
    """A short phrase: the card a move takes, what it costs or gains; "" when the move says it all."""
    mover = view.get("viewer") or view["to_act"]["player"]
    describer = DESCRIBERS.get(move["action"])
    return clip(describer(view, mover, move)) if describer else ""


def clip(text: str, width: int = 72) -> str:
    return text if len(text) <= width else text[:width - 2].rsplit(" ", 1)[0].rstrip(",;:") + " …"


def town_name(view: dict, town: str) -> str:
    return next(t["name"] for t in view["towns"] if t["id"] == town)


def player_of(view: dict, name: str) -> dict:
    return next(p for p in view["players"] if p["name"].lower() == name.lower())


def owned(view: dict) -> dict:
    """Every concession and saloon on the table: id -> (owner, the card as its owner's view shows it)."""
    cards = {}
    for player in view["players"]:
        for card in player["concessions"] + player["saloons"]:
            cards[card["id"]] = (player["name"], card)
    return cards


def event_effect(card: dict) -> str:
    return EVENT_EFFECTS[card["kind"]].format(**card)


def card_brief(view: dict, mover: str, card: dict) -> str:
    """What taking this card means for the mover: a concession's number, nuggets and the mayor's fee; an event's
    effect."""
    if card["type"] != "concession":
        return f"{card['name']}: {event_effect(card)}" if card["type"] == "event" else card["id"]
    town = next(t for t in view["towns"] if t["id"] == card["town"])
    text = f"{town['name']} {card['number']}, {card['nuggets']} nugget{'s' if card['nuggets'] != 1 else ''}"
    if town["mayor"] and town["mayor"] != mover and town["fee"]:
        text += f"; pay mayor {town['mayor']} {town['fee']}"
    return text


def describe_bid(view: dict, mover: str, move: dict) -> str:
    turn = view["turn"]
    gold = player_of(view, mover)["gold"]
    if turn["high_bidder"] is None:
        return f"open the auction (you hold {gold}): the winner chooses first and rolls"
    return f"outbid {turn['high_bidder']}'s {turn['high_bid']} (you hold {gold}); paid down the table"


def describe_pass(view: dict, mover: str, move: dict) -> str:
    decision = view["to_act"]["decision"]
    if decision == "ride_mustang":
        return "keep the Mustang for a later turn"
    if decision == "send_telegraph":
        roll = view["turn"]["roll"]
        return f"keep the Telegraph; the roll stays {roll[0]} + {roll[1]} = {sum(roll)}"
    return "out of this auction"


def describe_take(view: dict, mover: str, move: dict) -> str:
    card = next(slot["card"] for slot in view["turn"]["offer"] if slot["slot"] == move["slot"])
    return card_brief(view, mover, card)


def describe_mustang(view: dict, mover: str, move: dict) -> str:
    return "choose your card now, right after the auction winner"


def describe_telegraph(view: dict, mover: str, move: dict) -> str:
    roll = view["turn"]["roll"]
    other = roll[2 - move["die"]]
    values = move["value"]
    low, high = (values["min"], values["max"]) if isinstance(values, dict) else (values, values)
    total = f"{other + low}" if low == high else f"{other + low}..{other + high}"
    return f"die {move['die']} shows {roll[move['die'] - 1]}: the roll becomes {total} (now {sum(roll)})"


def target_text(view: dict, target: str, whose: bool = True) -> str:
    """`bob's Cold Mountain 9 (3 nuggets)`, `cid's saloon in Takamawok`."""
    owner, card = owned(view)[target]
    owner = f"{owner}'s " if whose else ""
    if "number" not in card:
        return f"{owner}saloon in {town_name(view, card['town'])}"
    return f"{owner}{town_name(view, card['town'])} {card['number']} ({card['value']} nuggets)"


def targets_text(view: dict, targets) -> str:
    """One target, or a town's choice of them: `one in Cold Mountain: bob 3, 4; cid 9, saloon`."""
    ids = targets["from"] if isinstance(targets, dict) else targets
    if len(ids) == 1:
        return target_text(view, ids[0])
    cards = owned(view)
    by_owner = {}
    for target in ids:
        owner, card = cards[target]
        by_owner.setdefault(owner, []).append(str(card.get("number", "saloon")))
    town = town_name(view, cards[ids[0]][1]["town"])
    return f"one in {town}: " + "; ".join(f"{owner} {', '.join(marks)}" for owner, marks in by_owner.items())


def describe_dynamite(view: dict, mover: str, move: dict) -> str:
    return "blow up " + targets_text(view, move["target"])


def describe_expropriate(view: dict, mover: str, move: dict) -> str:
    ids = move["concession"]["from"] if isinstance(move["concession"], dict) else move["concession"]
    town = next(t for t in view["towns"] if t["id"] == owned(view)[ids[0]][1]["town"])
    fee = f"; pay mayor {town['mayor']} {town['fee']}" if town["mayor"] not in (None, mover) and town["fee"] else ""
    return "take " + targets_text(view, move["concession"]) + fee


def describe_holdup(view: dict, mover: str, move: dict) -> str:
    victim = player_of(view, move["victim"])
    return f"{victim['name']} holds {victim['gold']}: two dice must reach the sum you name"


def describe_saloon(view: dict, mover: str, move: dict) -> str:
    card = view["to_act"].get("card") or {}
    fee = f" {card['fee']}" if "fee" in card else ""
    return f"others' concessions in {town_name(view, move['town'])} pay you{fee} each time they produce"


def describe_girls(view: dict, mover: str, move: dict) -> str:
    card = view["to_act"].get("card") or {}
    town = next(s["town"] for s in player_of(view, mover)["saloons"] if s["id"] == move["saloon"])
    fee = f" {card['fee']}" if "fee" in card else " more"
    return f"your saloon in {town_name(view, town)} collects{fee} from each producing concession"


def describe_governor(view: dict, mover: str, move: dict) -> str:
    town = next(t for t in view["towns"] if t["id"] == move["town"])
    factor = (view["to_act"].get("card") or {}).get("factor", 2)
    return f"the fee paid to you in {town['name']} goes from {town['fee']} to {town['fee'] * factor}"


def describe_vein(view: dict, mover: str, move: dict) -> str:
    card = view["to_act"].get("card") or {}
    more = f"{card['bonus']} more" if "bonus" in card else "more"
    ids = move["concession"]["from"] if isinstance(move["concession"], dict) else move["concession"]
    if len(ids) == 1:
        return f"your {target_text(view, ids[0], whose=False)} yields {more}"
    cards = owned(view)
    numbers = ", ".join(str(cards[cid][1]["number"]) for cid in ids)
    return f"one of your {town_name(view, cards[ids[0]][1]['town'])} {numbers} yields {more}"


DESCRIBERS = {
    "bid": describe_bid, "pass": describe_pass, "take": describe_take, "mustang": describe_mustang,
    "telegraph": describe_telegraph, "dynamite": describe_dynamite, "expropriate": describe_expropriate,
    "holdup": describe_holdup, "saloon": describe_saloon, "girls": describe_girls, "governor": describe_governor,
    "vein": describe_vein,
}


def meaning(view: dict, move: dict) -> str:
    """What a queued move would take now (pbem.play.guards: a change stops the queue): the card in a slot and
    what it costs the viewer; "" for the moves whose words say it all (a bid's amount, a card named)."""
    if move["action"] != "take":
        return ""
    card = next((slot["card"] for slot in view["turn"]["offer"] if slot["slot"] == move["slot"]), None)
    return card_brief(view, view["viewer"], card) if card else ""
