"""Chartered's part of a text report and the phrase for each legal move, built only from a view (so nothing
hidden can be printed): the board as a map of plots, the companies and the stock board, the players' florins,
shares and flags, the market, and the viewer's own hand; in the language being read (its messages in locale/, its
words in glossary.yaml: docs/translating.md)."""
from __future__ import annotations

import re

from pbem.messages import N_, NP_, Domain, joined
from pbem.tables import clip, ljust, table
from pbem.tables import width as text_width

from .phases.board import plot_card_effect
from .phases.cards import card_level, level_card

T = Domain(__package__.rpartition(".")[2])  # the game's catalogue: its package's name
_, ngettext = T.gettext, T.ngettext

# The headline of each decision (the names of meta.yaml `decisions`); found_company and choose_survivor name the
# plot built on
HEADLINES = {
    "take_turn": N_("Turn {number} ({side} side): {player} to buy a card or build"),
    "buy_card": N_("Turn {number} ({side} side): {player} to buy a card from the new market"),
    "found_company": N_("Turn {number} ({side} side): {player} to found a company on plot {plot}"),
    "choose_survivor": N_("Turn {number} ({side} side): {player} to choose the surviving company on plot {plot}"),
    "trade_shares": N_("Turn {number} ({side} side): {player} to trade shares after building"),
    "raise_funds": N_("Turn {number} ({side} side): {player} to sell shares to buy a card"),
}
# The names of the components' companies (a club's own keep the names its file gives them)
COMPANY_NAMES = [NP_("company", "Koffie Compagnie"), NP_("company", "Edelsteen Compagnie"),
                 NP_("company", "Goud Compagnie"), NP_("company", "Buskruit Compagnie"),
                 NP_("company", "Amfioen Compagnie"), NP_("company", "Peper Compagnie"),
                 NP_("company", "Zijde Compagnie"), NP_("company", "Zilver Compagnie"),
                 NP_("company", "Thee Compagnie")]
# The companies' codes, their marks on the map (three letters, or one character in Chinese)
COMPANY_CODES = [NP_("code", "COF"), NP_("code", "GEM"), NP_("code", "GLD"), NP_("code", "GUN"), NP_("code", "OPI"),
                 NP_("code", "PEP"), NP_("code", "SLK"), NP_("code", "SLV"), NP_("code", "TEA")]


def company_name(company: dict) -> str:
    return T.stored(company["name"], "company")


def code(company: dict) -> str:
    return T.stored(company["code"], "code")


def goods(company_id: str) -> str:
    """A company by its goods, the notation's id (`gold`), in the reader's words."""
    return T.term("company", company_id)


def side(view: dict) -> str:
    return T.term("side", view["side"])


def ordinal(n: int) -> str:
    """`1st`, `2nd`, `3rd`, `4th`: a floor, a flag."""
    if n == 1:
        return _("1st")
    if n == 2:
        return _("2nd")
    if n == 3:
        return _("3rd")
    return _("{n}th", n=n)


# ------------------------------------------------------------------------------------------ reading a view

def companies_by_id(view: dict) -> dict[str, dict]:
    return {company["id"]: company for company in view["companies"]}


def occupied(view: dict) -> dict[str, dict]:
    """Each occupied plot with its company and floors."""
    return {plot: {"company": company["id"], "floors": floors}
            for company in view["companies"] if company["founded"] for plot, floors in company["plots"].items()}


def company_on(view: dict, plot: str) -> dict | None:
    """The company with a warehouse on the plot, or None."""
    return next((company for company in view["companies"] if company["founded"] and plot in company["plots"]), None)


def holder(view: dict, plot: str) -> dict | None:
    """The company on one plot and its floors there, or None: occupied(view).get(plot) without the whole map."""
    company = company_on(view, plot)
    return None if company is None else {"company": company["id"], "floors": company["plots"][plot]}


def touching(view: dict, plot: str) -> list[str]:
    return [company["id"] for company in view["companies"]
            if company["founded"] and plot in company["frontier"].split()]


def card_effect(view: dict, card: str) -> dict | None:
    """What a plot card would do now, from the view alone (the rules' own function, fed from the view)."""
    here, near = holder(view, card), touching(view, card)
    can_found = not here and not near and card in view["foundable"].split()  # asked only where it can matter
    return plot_card_effect(here["floors"] if here else 0, here["company"] if here else None, near, can_found,
                            view["values"]["max_floors"])


def value_after(view: dict, effect: dict, companies: dict[str, dict] | None = None) -> int:
    """The capitalisation of the company built on once the card is played: what the builder receives
    (`companies`: companies_by_id(view), when the caller has it)."""
    values = view["values"]
    if effect["kind"] == "found":
        return values["founding"]
    companies = companies_by_id(view) if companies is None else companies
    if effect["kind"] == "merge":
        return sum(companies[c]["value"] for c in effect["companies"]) + values["merger"]
    return companies[effect["company"]]["value"] + values["floor"]


def words_of(value) -> list[str]:
    """The words of a legal-move field: a choice form's `from` list, or the list itself."""
    return value["from"] if isinstance(value, dict) else value


def shares_count(value) -> str:
    """`1 share`, `up to 2 shares`, `2 shares`: how many a share move's field stands for."""
    low, high = (value["min"], value["max"]) if isinstance(value, dict) else (len(value), len(value))
    if low == high:
        return ngettext("{count} share", "{count} shares", high, count=high)
    return ngettext("up to {count} share", "up to {count} shares", high, count=high)


def share_offers(companies: dict[str, dict], move: dict, price: str) -> str:
    """`GLD 50, TEA 60`: each company of a share move once, at its `price` or `buying_price`."""
    return joined(f"{code(companies[c])} {companies[c][price]}" for c in dict.fromkeys(words_of(move["company"])))


# -------------------------------------------------------------------------------------------- describe

def effect_text(view: dict, card: str) -> str:
    """`17: expands GLD to 110, you get 110` and the like; how a plot card would play now."""
    effect = card_effect(view, card)
    if effect is None:
        return _("{card}: cannot be played now", card=card)
    companies, value = companies_by_id(view), value_after(view, effect)
    if effect["kind"] == "found":
        return _("{card}: founds a company at {value} + 1 share, you get {value}", card=card, value=value)
    if effect["kind"] == "merge":
        parts = " + ".join(f"{code(companies[c])} {companies[c]['value']}" for c in effect["companies"])
        return _("{card}: merges {companies} into {value}, you get {value}", card=card, companies=parts, value=value)
    company = companies[effect["company"]]
    if effect["kind"] == "stack":
        floor = occupied(view)[card]["floors"] + 1
        return _("{card}: {ordinal} floor of {company}, {value}, you get {value}", card=card, ordinal=ordinal(floor),
                 company=code(company), value=value)
    return _("{card}: expands {company} to {value}, you get {value}", card=card, company=code(company), value=value)


def card_text(view: dict, card: str) -> str:
    level = card_level(card)
    if level is not None:
        return _("{card}: a {ordinal} floor on a plot you choose", card=T.words(card), ordinal=ordinal(level))
    return effect_text(view, card)


def describe(view: dict, move: dict) -> str:
    """A short phrase for one legal-move entry (forms allowed), from the mover's view only."""
    describer = DESCRIBERS.get(move["action"])
    return clip(describer(view, move)) if describer else ""


def describe_build(view: dict, move: dict) -> str:
    cards = words_of(move["plot"])
    if len(cards) == 1:
        return effect_text(view, cards[0])
    return ngettext("play one of {count} plot card", "play one of {count} plot cards", len(cards), count=len(cards))


def describe_raise(view: dict, move: dict) -> str:
    plots = words_of(move["plot"])
    floor = occupied(view)[plots[0]]["floors"] + 1
    return ngettext("{card} card: a {ordinal} floor on {count} plot, +{amount} to its company",
                    "{card} card: a {ordinal} floor on one of {count} plots, +{amount} to its company", len(plots),
                    card=T.words(level_card(floor)), ordinal=ordinal(floor), count=len(plots),
                    amount=view["values"]["floor"])


def describe_buy(view: dict, move: dict) -> str:
    cost = view["costs"]["card"]
    if move["card"] == "deck":
        return _("the top card of the deck for {cost} ({count} left)", cost=cost, count=view["deck_count"])
    return _("for {cost}: {effect}", cost=cost, effect=card_text(view, move["card"]))


def describe_refresh(view: dict, move: dict) -> str:
    costs = view["costs"]
    return _("pay {cost} for {count} new market cards, then buy one", cost=costs["refresh"], count=costs["market"])


def describe_found(view: dict, move: dict) -> str:
    company = companies_by_id(view)[move["company"]]
    return _("{company} ({goods}) on {plot}: {value}, 1 free share", company=company_name(company),
             goods=goods(company["goods"]), plot=view["to_act"]["plot"], value=view["values"]["founding"])


def describe_survivor(view: dict, move: dict) -> str:
    companies = companies_by_id(view)
    others = [companies[c] for c in view["to_act"]["companies"] if c != move["company"]]
    paid = joined(_("{company} shares paid {price}", company=code(c), price=c["price"]) for c in others)
    return _("{company} survives; {paid}", company=code(companies[move["company"]]), paid=paid)


def describe_buy_share(view: dict, move: dict) -> str:
    return _("{shares} at: {offers}", shares=shares_count(move["company"]),
             offers=share_offers(companies_by_id(view), move, "buying_price"))


def describe_sell_share(view: dict, move: dict) -> str:
    return _("{shares} to the bank at: {offers}", shares=shares_count(move["company"]),
             offers=share_offers(companies_by_id(view), move, "price"))


def describe_buy_flag(view: dict, move: dict) -> str:
    me = next(p for p in view["players"] if p["name"] == view["to_act"]["player"])
    company = companies_by_id(view)[view["turn"]["company"]]
    return _("your {ordinal} flag, on {company}, for {cost}: worth {shares} x {price} now",
             ordinal=ordinal(len(me["flags"]) + 1), company=code(company), cost=me["next_flag_cost"],
             shares=view["values"]["flag_shares"], price=company["price"])


def describe_pass(view: dict, move: dict) -> str:
    if view["to_act"]["decision"] != "raise_funds":
        return ""
    return _("keep your other shares; still short of the {cost} a card costs, your turn ends",
             cost=view["costs"]["card"])


DESCRIBERS = {"build": describe_build, "raise": describe_raise, "buy": describe_buy, "refresh": describe_refresh,
              "found": describe_found, "survivor": describe_survivor, "buy_share": describe_buy_share,
              "sell_share": describe_sell_share, "buy_flag": describe_buy_flag, "pass": describe_pass}


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
    turn, act = view["turn"], view["to_act"]
    if view["over"]:
        return _("Turn {number} ({side} side): the game is over", number=turn["number"], side=side(view))
    template = HEADLINES[act["decision"]]
    return _(template, number=turn["number"], side=side(view), player=act["player"], plot=act["plot"])


def cell(view: dict, plot: str, width: int, here: dict | None, foundable: set[str]) -> str:
    """`17 GLD2*`: plot 17, company GLD, 2 floors, its headquarters; `17 +`: a company may be founded there."""
    if here is None:
        return f"{plot:>{width}}{' +' if plot in foundable else ''}"
    company = companies_by_id(view)[here["company"]]
    hq = "*" if company["hq"] == plot else ""
    return f"{plot:>{width}} {code(company)}{here['floors']}{hq}"


def board_map(view: dict) -> str:
    """The view's map with each plot number replaced by its cell; `-` and `|` join the plots that touch."""
    where, foundable = occupied(view), set(view["foundable"].split())
    rows = [line.split() for line in view["map"][0::2]]
    width = max(len(word) for row in rows for word in row[0::2])
    cells = {plot: cell(view, plot, width, where.get(plot), foundable) for row in rows for plot in row[0::2]
             if plot != "~"}
    size = max(text_width(text) for text in cells.values())
    lines = []
    for index, line in enumerate(view["map"]):
        words = line.split()
        if index % 2 == 0:
            text = ""
            for position, word in enumerate(words):
                if position % 2:
                    text += " - " if word == "-" else "   "
                else:
                    text += ljust(cells[word] if word != "~" else "~" * width, size)
        else:
            text = "   ".join((" " * (width - 1) + "|" if word == "|" else "").ljust(size) for word in words)
        lines.append(text.rstrip())
    if view["links"]:
        lines.append(_("Also touching: {links}", links=joined(link.replace(" ", "-") for link in view["links"])))
    return "\n".join(lines)


def companies_table(view: dict) -> str:
    rows = []
    for company in view["companies"]:
        if not company["founded"]:
            rows.append([code(company), company_name(company), goods(company["goods"]), "-", "-",
                         view["values"]["shares_per_company"], _("free to found"), "", "", ""])
            continue
        holders = joined(f"{p} {n}" for p, n in company["holders"].items())
        rows.append([code(company), company_name(company), goods(company["goods"]), company["value"],
                     _("{price} (buy {buying})", price=company["price"], buying=company["buying_price"]),
                     company["shares_left"], holders, company["flag"] or "", company["hq"], len(company["plots"])])
    return _("Companies") + "\n" + table(rows, headers=[_("code"), _("company"), _("goods"), _("value"),
                                                        _("share price"), _("shares left"), _("shareholders"),
                                                        _("flag"), _("HQ"), _("plots")])


def stock_board_table(view: dict) -> str:
    """The stock board, a row a step: its capitalisation, its share price and the companies standing on it."""
    steps = view["stock_board"]
    standing = {index: [] for index in range(len(steps))}
    for company in view["companies"]:
        if company["founded"]:
            index = max(i for i, step in enumerate(steps) if company["value"] >= step["value"])
            standing[index].append(code(company))
    rows = [[step["value"], step["price"], joined(standing[index])] for index, step in enumerate(steps)]
    # TRANSLATORS: the stock board's columns: a step's capitalisation, its share price, the companies on it
    headers = [_("value"), _("share price"), _("companies")]
    return _("Stock board (capitalisation from which a share is worth the price)") + "\n" + table(rows, headers)


def players_table(view: dict) -> str:
    codes = {company["id"]: code(company) for company in view["companies"]}
    rows = [[p["name"], p["money"], p["cards"],
             joined(f"{codes[c]} {n}" for c, n in p["shares"].items()),
             joined(codes[c] for c in p["flags"]),
             p["next_flag_cost"] if p["next_flag_cost"] is not None else _("none left")] for p in view["players"]]
    return _("Players") + "\n" + table(rows, headers=[_("player"), _("florins"), _("cards in hand"), _("shares"),
                                                      _("flags"), _("next flag")])


def market_text(view: dict) -> str:
    costs = view["costs"]
    cards = joined(T.words(card) for card in view["market"]) or _("empty")  # `level-3` in the reader's words
    market = _("Market: {cards}  (a card costs {card}; refresh {refresh})", cards=cards, card=costs["card"],
               refresh=costs["refresh"])
    return market + "\n" + ngettext("Deck: {deck} card.  Warehouses left: {supply}.  Cards played: {played}",
                                    "Deck: {deck} cards.  Warehouses left: {supply}.  Cards played: {played}",
                                    view["deck_count"], deck=view["deck_count"], supply=view["supply"],
                                    played=view["played"])


def turn_text(view: dict) -> str:
    turn = view["turn"]
    if turn["company"] is None:
        return ""
    return _("This turn {player} built on {company} and received {income}; shares bought {bought}, sold {sold}",
             player=turn["player"], company=code(companies_by_id(view)[turn["company"]]), income=turn["income"],
             bought=turn["bought"], sold=turn["sold"])


def merger_text(view: dict) -> str:
    record = view["last_merger"]
    if record is None:
        return ""
    absorbed = []
    for company in record["absorbed"]:
        paid = joined(f"{p['player']} {p['amount']}" for p in company["payouts"]) or _("nobody held shares")
        absorbed.append(_("{company} ({value}, shares at {price}; paid: {paid})", company=goods(company["company"]),
                          value=company["value"], price=company["price"], paid=paid))
    return _("Last merger, on plot {plot}: {survivor} absorbed {absorbed}; now worth {value}", plot=record["plot"],
             survivor=goods(record["survivor"]), absorbed="; ".join(absorbed), value=record["value"])


def hand_text(view: dict) -> str:
    hand = view["private"]["hand"]
    lines = ["  " + (_("{card} (x{count})", card=card_text(view, card), count=hand.count(card))
                     if hand.count(card) > 1 else card_text(view, card)) for card in dict.fromkeys(hand)]
    return ngettext("Your hand ({count} card):", "Your hand ({count} cards):", len(hand), count=len(hand)) + "\n" + \
        ("\n".join(lines) if lines else "  " + _("empty"))


def render(view: dict, viewer: str | None) -> str:
    parts = [headline(view),
             _("Board: plot, company and floors (* headquarters, + a company may be founded here)") + "\n"
             + board_map(view),
             companies_table(view), stock_board_table(view), players_table(view), market_text(view),
             turn_text(view), merger_text(view)]
    if "private" in view:
        parts.append(hand_text(view))
    return "\n\n".join(part for part in parts if part) + "\n"


# ------------------------------------------------------------------------------------------ the final score

SHARE_LINE = re.compile(r"(\d+) (\S+) x (\d+)")
FLAG_LINE = re.compile(r"(\S+) flag (\d+) x (\d+)")
CARDS_LINE = re.compile(r"(\d+) x (-\d+) = (-?\d+)")


def score_cell(key: str, value):
    """A cell of the final ranking (scoring.details, stored in English) in the reader's words: `1 opium x 200`,
    `opium flag 4 x 200`, the companies by their goods."""
    if not isinstance(value, str):
        return value
    if key == "cards in hand" and (found := CARDS_LINE.fullmatch(value)):
        return _("{count} x {penalty} = {total}", count=found[1], penalty=found[2], total=found[3])
    terms, sep, total = value.rpartition(" = ")
    if not sep:
        return value
    shown = []
    for term in terms.split(" + "):
        if found := SHARE_LINE.fullmatch(term):
            shown.append(_("{count} {company} x {price}", count=found[1], company=goods(found[2]), price=found[3]))
        elif found := FLAG_LINE.fullmatch(term):
            shown.append(_("{company} flag {shares} x {price}", company=goods(found[1]), shares=found[2],
                           price=found[3]))
        else:
            return value
    return " + ".join(shown) + " = " + total
