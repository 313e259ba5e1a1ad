"""La Fièvre de l'Or: the text report of the table, built only from a view (nothing hidden can be printed)."""
from __future__ import annotations

from tabulate import tabulate

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
    return "Cards on offer\n" + tabulate(rows, headers=["slot", "card"])


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
            + tabulate(rows, headers=["player", *towns]))


def towns_table(view: dict) -> str:
    rows = [[town["id"], f"{town['name']} ({town['english']})", town["mayor"] or "-", town["fee"],
             "yes" if town["governor"] else "", town["saloons_left"]] for town in view["towns"]]
    return "Towns\n" + tabulate(rows, headers=["town", "name (English edition)", "mayor", "fee",
                                               "governor", "saloon cards left"])


def players_table(view: dict) -> str:
    rows = []
    for player in view["players"]:
        saloons = ", ".join(f"{s['id']} ({s['fee']})" for s in player["saloons"])
        kept = ", ".join(card["id"] + (" (waiting)" if card["waiting"] else "") for card in player["kept"])
        rows.append([player["name"], player["gold"], ", ".join(player["maires"]), saloons, kept])
    bank = view["bank"]
    return ("Players\n" + tabulate(rows, headers=["player", "gold", "Maire of", "saloons (fee)", "cards kept"])
            + f"\nBank: paid out {bank['paid_out']}, took in {bank['taken_in']}")


def score_table(view: dict) -> str:
    rows = []
    totals = sorted((p["score"]["total"] for p in view["players"]), reverse=True)
    for player in sorted(view["players"], key=lambda p: -p["score"]["total"]):
        score = player["score"]
        rows.append([totals.index(score["total"]) + 1, player["name"], score["gold"], score["nuggets"],
                     f"{score['maires']} x {view['points_per_maire']} = {score['maire_points']}", score["total"]])
    return f"Final score: gold + nuggets + {view['points_per_maire']} per Maire card\n" + tabulate(
        rows, headers=["rank", "player", "gold", "nuggets", "Maire cards", "total"])


def render(view: dict, viewer: str | None) -> str:
    parts = ["\n".join(status_lines(view))]
    if view["phase"] != "over":
        parts.append(offer_table(view))
    for turn, current in ((view["previous_turn"], False), (view["turn"], True)):
        if turn:
            parts.append(f"Turn {turn['number']}\n" + "\n".join(turn_lines(turn, current)))
    parts += [players_table(view), concession_table(view), towns_table(view)]
    if view["phase"] == "over":
        parts.append(score_table(view))
    return "\n\n".join(parts) + "\n"
