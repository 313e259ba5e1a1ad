"""Chartered's part of a text report and the phrase for each legal move, built only from a view (so nothing
hidden can be printed): the board as a map of plots, the companies and the stock board, the players' florins,
shares and flags, the market, and the viewer's own hand."""
from __future__ import annotations

from pbem.tables import table

from .phases.board import plot_card_effect
from .phases.cards import card_level, level_card

DECISION_WORDS = {
    "take_turn": "buy a card or build",
    "buy_card": "buy a card from the new market",
    "found_company": "found a company",
    "choose_survivor": "choose the surviving company",
    "trade_shares": "trade shares after building",
    "raise_funds": "sell shares to buy a card",
}
MAX_PHRASE = 70
ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}


# ------------------------------------------------------------------------------------------ reading a view

def companies_by_id(view: dict) -> dict[str, dict]:
    return {company["id"]: company for company in view["companies"]}


def occupied(view: dict) -> dict[str, dict]:
    """Each occupied plot with its company and floors."""
    return {plot: {"company": company["id"], "floors": floors}
            for company in view["companies"] if company["founded"] for plot, floors in company["plots"].items()}


def touching(view: dict, plot: str) -> list[str]:
    return [company["id"] for company in view["companies"]
            if company["founded"] and plot in company["frontier"].split()]


def card_effect(view: dict, card: str) -> dict | None:
    """What a plot card would do now, from the view alone (the rules' own function, fed from the view)."""
    here = occupied(view).get(card)
    return plot_card_effect(here["floors"] if here else 0, here["company"] if here else None,
                            touching(view, card), card in view["foundable"].split(), view["values"]["max_floors"])


def value_after(view: dict, effect: dict) -> int:
    """The capitalisation of the company built on once the card is played: what the builder receives."""
    companies, values = companies_by_id(view), view["values"]
    if effect["kind"] == "found":
        return values["founding"]
    if effect["kind"] == "merge":
        return sum(companies[c]["value"] for c in effect["companies"]) + values["merger"]
    return companies[effect["company"]]["value"] + values["floor"]


def ordinal(n: int) -> str:
    return ORDINALS.get(n, f"{n}th")


def words_of(value) -> list[str]:
    """The words of a legal-move field: a choice form's `from` list, or the list itself."""
    return value["from"] if isinstance(value, dict) else value


def shares_count(value) -> str:
    """`1 share`, `up to 2 shares`, `2 shares`: how many a share move's field stands for."""
    low, high = (value["min"], value["max"]) if isinstance(value, dict) else (len(value), len(value))
    count = f"{high}" if low == high else f"up to {high}"
    return f"{count} share{'s' if high > 1 else ''}"


def share_offers(companies: dict[str, dict], move: dict, price: str) -> str:
    """`GLD 50, TEA 60`: each company of a share move once, at its `price` or `buying_price`."""
    return ", ".join(f"{companies[c]['code']} {companies[c][price]}" for c in dict.fromkeys(words_of(move["company"])))


def shorten(text: str) -> str:
    return text if len(text) <= MAX_PHRASE else text[:MAX_PHRASE - 3] + "..."


# -------------------------------------------------------------------------------------------- describe

def effect_text(view: dict, card: str) -> str:
    """`17: expands GLD to 110, you get 110` and the like; how a plot card would play now."""
    effect = card_effect(view, card)
    if effect is None:
        return f"{card}: cannot be played now"
    companies, value = companies_by_id(view), value_after(view, effect)
    if effect["kind"] == "found":
        return f"{card}: founds a company at {value} + 1 share, you get {value}"
    if effect["kind"] == "merge":
        parts = " + ".join(f"{companies[c]['code']} {companies[c]['value']}" for c in effect["companies"])
        return f"{card}: merges {parts} into {value}, you get {value}"
    company = companies[effect["company"]]
    if effect["kind"] == "stack":
        floor = occupied(view)[card]["floors"] + 1
        return f"{card}: {ordinal(floor)} floor of {company['code']}, {value}, you get {value}"
    return f"{card}: expands {company['code']} to {value}, you get {value}"


def card_text(view: dict, card: str) -> str:
    level = card_level(card)
    if level is not None:
        return f"{card}: a {ordinal(level)} floor on a plot you choose"
    return effect_text(view, card)


def describe(view: dict, move: dict) -> str:
    """A short phrase for one legal-move entry (forms allowed), from the mover's view only."""
    action = move["action"]
    costs, values = view["costs"], view["values"]
    companies = companies_by_id(view)
    if action == "build":
        cards = words_of(move["plot"])
        return shorten(effect_text(view, cards[0]) if len(cards) == 1 else f"play one of {len(cards)} plot cards")
    if action == "raise":
        plots = words_of(move["plot"])
        floor = occupied(view)[plots[0]]["floors"] + 1
        return shorten(f"{level_card(floor)} card: a {ordinal(floor)} floor on one of {len(plots)} plots, "
                       f"+{values['floor']} to its company")
    if action == "buy":
        if move["card"] == "deck":
            return f"the top card of the deck for {costs['card']} ({view['deck_count']} left)"
        return shorten(f"for {costs['card']}: {card_text(view, move['card'])}")
    if action == "refresh":
        return f"pay {costs['refresh']} for {costs['market']} new market cards, then buy one"
    if action == "found":
        company = companies[move["company"]]
        return shorten(f"{company['name']} ({company['goods']}) on {view['to_act']['plot']}: "
                       f"{values['founding']}, 1 free share")
    if action == "survivor":
        others = [companies[c] for c in view["to_act"]["companies"] if c != move["company"]]
        paid = ", ".join(f"{c['code']} shares paid {c['price']}" for c in others)
        return shorten(f"{companies[move['company']]['code']} survives; {paid}")
    if action == "buy_share":
        return shorten(f"{shares_count(move['company'])} at: {share_offers(companies, move, 'buying_price')}")
    if action == "sell_share":
        return shorten(f"{shares_count(move['company'])} to the bank at: {share_offers(companies, move, 'price')}")
    if action == "buy_flag":
        me = next(p for p in view["players"] if p["name"] == view["to_act"]["player"])
        company = companies[view["turn"]["company"]]
        which = ordinal(len(me["flags"]) + 1)
        return (f"your {which} flag, on {company['code']}, for {me['next_flag_cost']}: worth "
                f"{values['flag_shares']} x {company['price']} now")
    if action == "pass" and view["to_act"]["decision"] == "raise_funds":
        return f"keep your other shares; still short of the {costs['card']} a card costs, your turn ends"
    return ""


def meaning(view: dict, move: dict) -> str:
    """What a queued move would do now (pbem.play.guards: a change stops the queue): what a plot card does to
    which companies, the price of the shares traded; "" when the words say it all."""
    companies = companies_by_id(view)
    if move["action"] in ("buy_share", "sell_share"):
        named = words_of(move["company"])
        if not all(c in companies and companies[c]["founded"] for c in named):
            return ""
        return share_offers(companies, move, "buying_price" if move["action"] == "buy_share" else "price")
    if move["action"] == "build" and len(words_of(move["plot"])) == 1:
        effect = card_effect(view, words_of(move["plot"])[0])
        if effect is None:
            return ""
        codes = " + ".join(companies[c]["code"] for c in effect.get("companies", [effect.get("company")]) if c)
        return EFFECTS[effect["kind"]].format(codes=codes)
    return ""


EFFECTS = {"found": "founds a company", "expand": "expands {codes}", "stack": "a floor of {codes}",
           "merge": "merges {codes}"}


# -------------------------------------------------------------------------------------------------- render

def headline(view: dict) -> str:
    turn = view["turn"]
    text = f"Turn {turn['number']} ({view['side']} side)"
    act = view["to_act"]
    if view["over"]:
        return text + ": the game is over"
    text += f": {act['player']} to {DECISION_WORDS[act['decision']]}"
    if act["plot"]:
        text += f" on plot {act['plot']}"
    return text


def cell(view: dict, plot: str, width: int, here: dict | None, foundable: set[str]) -> str:
    """`17 GLD2*`: plot 17, company GLD, 2 floors, its headquarters; `17 +`: a company may be founded there."""
    if here is None:
        return f"{plot:>{width}}{' +' if plot in foundable else ''}"
    company = companies_by_id(view)[here["company"]]
    hq = "*" if company["hq"] == plot else ""
    return f"{plot:>{width}} {company['code']}{here['floors']}{hq}"


def board_map(view: dict) -> str:
    """The view's map with each plot number replaced by its cell; `-` and `|` join the plots that touch."""
    where, foundable = occupied(view), set(view["foundable"].split())
    rows = [line.split() for line in view["map"][0::2]]
    width = max(len(word) for row in rows for word in row[0::2])
    cells = {plot: cell(view, plot, width, where.get(plot), foundable) for row in rows for plot in row[0::2]
             if plot != "~"}
    size = max(len(text) for text in cells.values())
    lines = []
    for index, line in enumerate(view["map"]):
        words = line.split()
        if index % 2 == 0:
            text = ""
            for position, word in enumerate(words):
                if position % 2:
                    text += " - " if word == "-" else "   "
                else:
                    text += (cells[word] if word != "~" else "~" * width).ljust(size)
        else:
            text = "   ".join((" " * (width - 1) + "|" if word == "|" else "").ljust(size) for word in words)
        lines.append(text.rstrip())
    if view["links"]:
        lines.append("Also touching: " + ", ".join(link.replace(" ", "-") for link in view["links"]))
    return "\n".join(lines)


def companies_table(view: dict) -> str:
    rows = []
    for company in view["companies"]:
        if not company["founded"]:
            rows.append([company["code"], company["name"], company["goods"], "-", "-",
                         view["values"]["shares_per_company"], "free to found", "", "", ""])
            continue
        holders = ", ".join(f"{p} {n}" for p, n in company["holders"].items())
        rows.append([company["code"], company["name"], company["goods"], company["value"],
                     f"{company['price']} (buy {company['buying_price']})", company["shares_left"], holders,
                     company["flag"] or "", company["hq"], len(company["plots"])])
    return "Companies\n" + table(rows, headers=["code", "company", "goods", "value", "share price",
                                                    "shares left", "shareholders", "flag", "HQ", "plots"])


def stock_board_table(view: dict) -> str:
    """The stock board across: each step's capitalisation and share price, with the companies standing on it."""
    steps = view["stock_board"]
    standing = {index: [] for index in range(len(steps))}
    for company in view["companies"]:
        if company["founded"]:
            index = max(i for i, step in enumerate(steps) if company["value"] >= step["value"])
            standing[index].append(company["code"])
    rows = [["value"] + [step["value"] for step in steps], ["price"] + [step["price"] for step in steps]]
    height = max((len(codes) for codes in standing.values()), default=0)
    for line in range(height):
        rows.append([""] + [standing[i][line] if line < len(standing[i]) else "" for i in range(len(steps))])
    return "Stock board (capitalisation from which a share is worth the price)\n" + table(rows, tablefmt="plain")


def players_table(view: dict) -> str:
    codes = {company["id"]: company["code"] for company in view["companies"]}
    rows = [[p["name"], p["money"], p["cards"],
             ", ".join(f"{codes[c]} {n}" for c, n in p["shares"].items()),
             ", ".join(codes[c] for c in p["flags"]),
             p["next_flag_cost"] if p["next_flag_cost"] is not None else "none left"] for p in view["players"]]
    return "Players\n" + table(rows, headers=["player", "florins", "cards in hand", "shares", "flags",
                                                  "next flag"])


def market_text(view: dict) -> str:
    market = ", ".join(view["market"]) or "empty"
    return (f"Market: {market}  (a card costs {view['costs']['card']}; refresh {view['costs']['refresh']})\n"
            f"Deck: {view['deck_count']} cards.  Warehouses left: {view['supply']}.  "
            f"Cards played: {view['played']}")


def turn_text(view: dict) -> str:
    turn = view["turn"]
    if turn["company"] is None:
        return ""
    code = companies_by_id(view)[turn["company"]]["code"]
    return (f"This turn {turn['player']} built on {code} and received {turn['income']}; shares bought "
            f"{turn['bought']}, sold {turn['sold']}")


def merger_text(view: dict) -> str:
    record = view["last_merger"]
    if record is None:
        return ""
    lines = []
    for absorbed in record["absorbed"]:
        paid = ", ".join(f"{p['player']} {p['amount']}" for p in absorbed["payouts"]) or "nobody held shares"
        lines.append(f"{absorbed['company']} ({absorbed['value']}, shares at {absorbed['price']}; paid: {paid})")
    return (f"Last merger, on plot {record['plot']}: {record['survivor']} absorbed " + "; ".join(lines)
            + f"; now worth {record['value']}")


def hand_text(view: dict) -> str:
    hand = view["private"]["hand"]
    lines = [f"  {card_text(view, card)}" + (f" (x{hand.count(card)})" if hand.count(card) > 1 else "")
             for card in dict.fromkeys(hand)]
    return f"Your hand ({len(hand)} cards):\n" + ("\n".join(lines) if lines else "  empty")


def render(view: dict, viewer: str | None) -> str:
    parts = [headline(view),
             "Board: plot, company and floors (* headquarters, + a company may be founded here)\n" + board_map(view),
             companies_table(view), stock_board_table(view), players_table(view), market_text(view),
             turn_text(view), merger_text(view)]
    if "private" in view:
        parts.append(hand_text(view))
    return "\n\n".join(part for part in parts if part) + "\n"
