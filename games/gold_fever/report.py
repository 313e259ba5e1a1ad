"""La Fièvre de l'Or: the text report of the table, built only from a view (nothing hidden can be printed), in the
language being read (its messages in locale/, its words in glossary.yaml: docs/translating.md)."""
from __future__ import annotations

import re

from pbem.messages import NP_, Domain, Message, N_, Words, joined
from pbem.tables import clip, table

from .phases.common import BANK
from .phases.events import HOLDUP_ROLL
from .phases.production import PRODUCTION_ROLL

T = Domain("gold_fever")
_, ngettext, pgettext = T.gettext, T.ngettext, T.pgettext

EMPTY = "-"
NEW_VEIN_BONUS = 3  # the concession table's key says a New Vein's value is counted in (components.yaml: bonus)
# What the headline calls each decision (the names of meta.yaml `decisions`)
DECISION_WORDS = {
    "bid_for_lot": NP_("decision", "bid or pass"),
    "choose_card": NP_("decision", "take a card"),
    "ride_mustang": NP_("decision", "ride the Mustang or pass"),
    "send_telegraph": NP_("decision", "use the Telegraph or pass"),
    "light_dynamite": NP_("decision", "choose what the dynamite blows up"),
    "expropriate_concession": NP_("decision", "choose the concession to expropriate"),
    "aim_holdup": NP_("decision", "name the hold-up's victim and sum"),
    "build_saloon": NP_("decision", "choose the saloon's town"),
    "place_saloon_girls": NP_("decision", "choose the saloon for the girls"),
    "appoint_governor": NP_("decision", "choose the governor's town"),
    "stake_new_vein": NP_("decision", "choose the concession for the new vein"),
}
# What an event did, as the state keeps it (phases: `chronicle`, in English, so that every stored game replays byte
# for byte): each sentence's English template, read back into its parts and said in the reader's language.
EFFECTS = [
    N_("the bank won {payments}"), N_("took {gold} from the bank"), N_("kept, waiting for a target"),
    N_("rides the Mustang: chooses next"), N_("took {concession} from {owner}"), N_("opened {saloon}"),
    N_("work in {saloon}"), N_("governs {town}: mayor fees doubled"), N_("runs under {concession}"),
    N_("blew up {target} of {owner}"),
]
WORDS = ("concession", "saloon", "target", "town")  # the parts of an effect that are ids of the notation


def words(text: str) -> Words:
    """An id of the notation (a card, a town), shown in the reader's words."""
    return Words(T.name, text)


def town_label(town: dict) -> str:
    """A town as a sentence names it: the glossary's name where the reader's language has one of its own (pbem's
    Chinese names), else the name printed on the cards (components.yaml: the French edition's, as in English)."""
    named = T.term("town", town["id"])
    return town["name"] if named == town["id"] else named


def event_name(kind: str, printed: str | None) -> str:
    """An event card's name: the one printed on it (the French edition's) where the reader's word for the card
    is that name, else the reader's word (the glossary's, `-` read as a space), with a capital."""
    own = words(kind).render().replace("-", " ")
    if printed and printed.lower().replace("-", " ") == own.lower():
        return printed
    return own[:1].upper() + own[1:]


def card_text(card: dict | None, dangerous_mines: bool, name=words) -> str:
    """A card on offer; `name` names a concession (words: as a player types it)."""
    if card is None:
        return _("(taken)")
    if card["type"] == "concession":
        # The printed mark matters only when the dangerous-mines option is on.
        if dangerous_mines and card.get("dangerous"):
            return ngettext("{card} (number {number}, {count} nugget, dangerous)",
                            "{card} (number {number}, {count} nuggets, dangerous)", card["nuggets"],
                            card=name(card["id"]), number=card["number"], count=card["nuggets"])
        return ngettext("{card} (number {number}, {count} nugget)", "{card} (number {number}, {count} nuggets)",
                        card["nuggets"], card=name(card["id"]), number=card["number"], count=card["nuggets"])
    if card["type"] == "saloon":
        return _("{card} (saloon of {town})", card=words(card["id"]), town=words(card["town"]))
    # an event by the reader's word for it (`dynamite-2`, `炸藥-2`), which is its name: the name printed on the card
    # is the French edition's, no word of an English or a Chinese reader (the pictures show it where it is theirs)
    return words(card["id"]).render()


def status_lines(view: dict) -> list[str]:
    turn = view["turn"]
    common = {"turn": turn["number"], "player": turn["first_player"], "deck": view["deck_count"]}
    if view["set_aside_count"]:
        lines = [_("Turn {turn}: first player {player}; deck {deck} cards ({aside} set aside unseen)", **common,
                   aside=view["set_aside_count"])]
    else:
        lines = [_("Turn {turn}: first player {player}; deck {deck} cards", **common)]
    if view["to_act"]:
        act = view["to_act"]
        decision = act["decision"]
        doing = T.stored(DECISION_WORDS[decision], "decision") if decision in DECISION_WORDS else decision
        lines.append(_("To act: {player} ({decision})", player=act["player"], decision=doing))
    else:
        lines.append(_("The game is over."))
    return lines


def offer_table(view: dict) -> str:
    dangerous_mines = view["options"].get("dangerous-mines") == "on"
    rows = [[slot["slot"], card_text(slot["card"], dangerous_mines)] for slot in view["turn"]["offer"]]
    return _("Cards on offer") + "\n" + table(rows, headers=[_("slot"), _("card")])


def payee(name: str) -> str:
    return pgettext("payee", "bank") if name == BANK else name


def stored_sentence(text: str, patterns: list, context: str | None = None, name=words) -> str:
    """A sentence the game stored in English (in its state or its log) in the reader's language: read back by its
    template into its parts (the ids among them named by `name`: in the reader's words); a text no template reads,
    as stored."""
    for template, pattern in patterns:
        found = re.fullmatch(pattern, text)  # compiled at its first use (re's cache): most batches read few of them
        if found:
            params = {key: name(value) if key in WORDS else value for key, value in found.groupdict().items()}
            return T.pgettext(context, template, **params) if context else T.gettext(template, **params)
    return T.stored(text, context)


def _patterns(templates: list[str]) -> list[tuple[str, str]]:
    """Each template with the regular expression that reads a sentence it made back into its parts."""
    found = []
    for template in templates:
        pieces = re.split(r"\{(\w+)\}", template)
        found.append((template, "".join(re.escape(piece) if i % 2 == 0 else f"(?P<{piece}>.+?)"
                                        for i, piece in enumerate(pieces))))
    return found


_EFFECTS = _patterns(EFFECTS)
_CHANCES = _patterns([PRODUCTION_ROLL, HOLDUP_ROLL])


def effect_text(effect: str, name=words) -> str:
    """What an event did, in the reader's language."""
    return stored_sentence(effect, _EFFECTS, name=name)


def chance_text(what: str) -> str:
    """What a roll or a shuffle of the log was, in the reader's language (pbem.text.report asks the game)."""
    return stored_sentence(what, _CHANCES, "chance")


def bids_text(turn: dict) -> str:
    bids = [_("{player} pass", player=bid["player"]) if bid["bid"] is None
            else _("{player} bids {amount}", player=bid["player"], amount=bid["bid"]) for bid in turn["bids"]]
    return joined(bids) or _("none yet")


def holdup_text(holdup: dict) -> str:
    common = {"player": holdup["player"], "victim": holdup["victim"], "amount": holdup["amount"],
              "first": holdup["dice"][0], "second": holdup["dice"][1]}
    if sum(holdup["dice"]) >= holdup["amount"]:
        return _("Hold-up by {player} on {victim} for {amount}: rolled {first}+{second}, stole {stolen}", **common,
                 stolen=holdup["stolen"])
    return _("Hold-up by {player} on {victim} for {amount}: rolled {first}+{second}, failed", **common)


def auction_lines(turn: dict, current: bool) -> list[str]:
    """The bids, and the winner with what was paid down the table."""
    if current and turn["winner"] is None:
        lines = [_("Bids so far: {bids}", bids=bids_text(turn))]
    else:
        lines = [_("Bids: {bids}", bids=bids_text(turn))]
    if turn["winner"] is not None:
        paid = joined(_("{payee} {amount}", payee=payee(share["to"]), amount=share["amount"])
                      for share in turn["payment"]) or _("nothing")
        lines.append(_("Auction won by {winner} for {price}; paid down the table: {paid}", winner=turn["winner"],
                       price=turn["price"], paid=paid))
    return lines


def turn_lines(turn: dict, current: bool, name=words) -> list[str]:
    """What happened in one turn: bids, payment, cards taken, fees, hold-ups, the roll and what it produced; each
    card and town named by `name` (words: as a player types it)."""
    lines = auction_lines(turn, current)
    for taken in turn["taken"]:
        lines.append(_("{player} took {card}", player=taken["player"], card=name(taken["card"])))
    if current and turn["still_to_choose"] and turn["roll"] is None:
        lines.append(_("Then to choose, in order: {players}", players=joined(turn["still_to_choose"])))
    for event in turn["events"]:
        lines.append(_("{player}'s {card}: {effect}", player=event["player"], card=name(event["card"]),
                       effect=effect_text(event["effect"], name)))
    for fee in turn["fees"]:
        lines.append(_("{player} paid mayor {mayor} {amount} for {town}", player=fee["player"], mayor=fee["mayor"],
                       amount=fee["amount"], town=name(fee["town"])))
    lines += [holdup_text(holdup) for holdup in turn["holdups"]]
    if turn["roll"]:
        roll = turn["roll"]
        lines.append(_("Production roll: {first} + {second} = {total}", first=roll[0], second=roll[1],
                       total=roll[0] + roll[1]))
    if turn["telegraph"]:
        wire = turn["telegraph"]
        lines.append(_("{player} used the Telegraph: die {die} from {before} to {after}", player=wire["player"],
                       die=wire["die"], before=wire["from"], after=wire["to"]))
    for line in turn["production"]:
        lines.append(_("{concession} produced {gold} for {player}", concession=name(line["concession"]),
                       gold=line["gold"], player=line["player"]))
    for line in turn["saloon_fees"]:
        lines.append(_("{player} paid {amount} at {owner}'s saloon {saloon}", player=line["player"],
                       amount=line["amount"], owner=line["owner"], saloon=name(line["saloon"])))
    lines += [_("{concession} collapsed", concession=name(cid)) for cid in turn["collapsed"]]
    return lines


def concession_table(view: dict) -> str:
    towns = [town["id"] for town in view["towns"]]
    rows = []
    for player in view["players"]:
        cells = []
        for town in towns:
            mines = [_("{number}:{value}+v", number=c["number"], value=c["value"]) if c["vein"]  # (see the key)
                     else f"{c['number']}:{c['value']}" for c in player["concessions"] if c["town"] == town]
            cells.append(" ".join(mines))
        rows.append([player["name"], *cells])
    return (_("Concessions by town (number:value; +v = with a New Vein, +{bonus} counted in)", bonus=NEW_VEIN_BONUS)
            + "\n" + table(rows, headers=[_("player"), *(T.term("town", town) for town in towns)]))


def towns_table(view: dict) -> str:
    rows = [[T.term("town", town["id"]), _("{name} ({english})", name=town["name"], english=town["english"]),
             town["mayor"] or EMPTY, town["fee"], _("yes") if town["governor"] else "", town["saloons_left"]]
            for town in view["towns"]]
    return _("Towns") + "\n" + table(rows, headers=[_("town"), _("name (English edition)"), _("mayor"), _("fee"),
                                                    _("governor"), _("saloon cards left")])


def players_table(view: dict) -> str:
    rows = []
    for player in view["players"]:
        saloons = joined(_("{saloon} ({fee})", saloon=words(s["id"]), fee=s["fee"]) for s in player["saloons"])
        kept = joined(_("{card} (waiting)", card=words(card["id"])) if card["waiting"] else words(card["id"]).render()
                      for card in player["kept"])
        rows.append([player["name"], player["gold"], joined(T.term("town", town) for town in player["maires"]),
                     saloons, kept])
    bank = view["bank"]
    return (_("Players") + "\n" + table(rows, headers=[_("player"), _("gold"), _("mayor of"), _("saloons (fee)"),
                                                       _("cards kept")])
            + "\n" + _("Bank: paid out {paid}, took in {taken}", paid=bank["paid_out"], taken=bank["taken_in"]))


def render(view: dict, viewer: str | None) -> str:
    parts = ["\n".join(status_lines(view))]
    if view["phase"] != "over":
        parts.append(offer_table(view))
    for turn, current in ((view["previous_turn"], False), (view["turn"], True)):
        if turn:
            parts.append(_("Turn {number}", number=turn["number"]) + "\n" + "\n".join(turn_lines(turn, current)))
    parts += [players_table(view), concession_table(view), towns_table(view)]
    return "\n\n".join(parts) + "\n"  # the final score: the referee's ranking, with every line of it


# ----------------------------------------------------------------------------------------------------- moves
# What one legal move does, for `pbem moves`; built from the mover's view only (here everything is public).

EVENT_EFFECTS = {
    "saloon": N_("a saloon: others' producing concessions in its town pay you {fee}"),
    "saloon-girls": N_("one of your saloons collects {fee} instead"),
    "dynamite": N_("blow up an opponent's concession or saloon"),
    "expropriation": N_("take an opponent's concession in a town where you have one"),
    "governor": N_("your mayor fees in one of your towns x{factor}"),
    "card-shark": N_("every other player pays the bank {gold}"),
    "new-vein": N_("one of your concessions yields {bonus} more, now and at the end"),
    "mustang": N_("keep it: later, choose your card right after the winner"),
    "stagecoach-robbery": N_("take {gold} from the bank"),
    "holdup": N_("name a player and a sum {min}-{max}; two dice reaching it steal it"),
    "telegraph": N_("keep it: change one die of a later production roll"),
}


def describe(view: dict, move: dict) -> str:
    """A short phrase: the card a move takes, what it costs or gains; "" when the move says it all."""
    mover = view.get("viewer") or view["to_act"]["player"]
    describer = DESCRIBERS.get(move["action"])
    return clip(describer(view, mover, move)) if describer else ""


def town_name(view: dict, town: str) -> str:
    return town_label(next(t for t in view["towns"] if t["id"] == town))


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
    template = EVENT_EFFECTS[card["kind"]]
    return T.gettext(template, **card)


def card_brief(view: dict, mover: str, card: dict) -> str:
    """What taking this card means for the mover: a concession's number, nuggets and the mayor's fee; an event's
    effect."""
    if card["type"] != "concession":
        if card["type"] == "event":
            return _("{name}: {effect}", name=event_name(card["kind"], card["name"]), effect=event_effect(card))
        return words(card["id"]).render()
    town = next(t for t in view["towns"] if t["id"] == card["town"])
    common = {"town": town_label(town), "number": card["number"], "count": card["nuggets"]}
    if town["mayor"] and town["mayor"] != mover and town["fee"]:
        return ngettext("{town} {number}, {count} nugget; pay mayor {mayor} {fee}",
                        "{town} {number}, {count} nuggets; pay mayor {mayor} {fee}", card["nuggets"], **common,
                        mayor=town["mayor"], fee=town["fee"])
    return ngettext("{town} {number}, {count} nugget", "{town} {number}, {count} nuggets", card["nuggets"], **common)


def describe_bid(view: dict, mover: str, move: dict) -> str:
    turn = view["turn"]
    gold = player_of(view, mover)["gold"]
    if turn["high_bidder"] is None:
        return _("open the auction (you hold {gold}): the winner chooses first and rolls", gold=gold)
    return _("outbid {player}'s {bid} (you hold {gold}); paid down the table", player=turn["high_bidder"],
             bid=turn["high_bid"], gold=gold)


def explain_refusal(view: dict, move: dict) -> Message | None:
    """Why a bid is not legal, from the bidder's view (pbem.contract: a game may say more than the generic range)."""
    if move["action"] != "bid" or not view.get("viewer"):
        return None
    gold, turn = player_of(view, view["viewer"])["gold"], view["turn"] or {}
    if turn.get("high_bid") is not None and move["amount"] <= turn["high_bid"]:
        # TRANSLATORS: why a bid is refused (after "bid 4 is not legal now: "): {player} holds the highest bid, {bid}.
        return T.lazy("the highest bid is {player}'s {bid}: a bid must be more", player=turn["high_bidder"],
                      bid=turn["high_bid"])
    if move["amount"] > gold:
        # TRANSLATORS: why a bid is refused (after "bid 12 is not legal now: "): the bidder holds {gold}.
        return T.lazy("you hold {gold} gold, and a bid is never more than your gold", gold=gold)
    return None


def describe_pass(view: dict, mover: str, move: dict) -> str:
    decision = view["to_act"]["decision"]
    if decision == "ride_mustang":
        return _("keep the Mustang for a later turn")
    if decision == "send_telegraph":
        roll = view["turn"]["roll"]
        return _("keep the Telegraph; the roll stays {first} + {second} = {total}", first=roll[0], second=roll[1],
                 total=sum(roll))
    return _("out of this auction")


def describe_take(view: dict, mover: str, move: dict) -> str:
    card = next(slot["card"] for slot in view["turn"]["offer"] if slot["slot"] == move["slot"])
    return card_brief(view, mover, card)


def describe_mustang(view: dict, mover: str, move: dict) -> str:
    return _("choose your card now, right after the auction winner")


def describe_telegraph(view: dict, mover: str, move: dict) -> str:
    roll = view["turn"]["roll"]
    other = roll[2 - move["die"]]
    values = move["value"]
    low, high = (values["min"], values["max"]) if isinstance(values, dict) else (values, values)
    common = {"die": move["die"], "shows": roll[move["die"] - 1], "now": sum(roll)}
    if low == high:
        return _("die {die} shows {shows}: the roll becomes {total} (now {now})", **common, total=other + low)
    return _("die {die} shows {shows}: the roll becomes {low}..{high} (now {now})", **common, low=other + low,
             high=other + high)


def target_text(view: dict, target: str, whose: bool = True) -> str:
    """`bob's Cold Mountain 9 (3 nuggets)`, `cid's saloon in Takamawok`."""
    owner, card = owned(view)[target]
    town = town_name(view, card["town"])
    if "number" not in card:
        return _("{owner}'s saloon in {town}", owner=owner, town=town) if whose else \
            _("saloon in {town}", town=town)
    common = {"town": town, "number": card["number"], "count": card["value"]}
    if whose:
        return ngettext("{owner}'s {town} {number} ({count} nugget)", "{owner}'s {town} {number} ({count} nuggets)",
                        card["value"], owner=owner, **common)
    return ngettext("{town} {number} ({count} nugget)", "{town} {number} ({count} nuggets)", card["value"], **common)


def targets_text(view: dict, targets) -> str:
    """One target, or a town's choice of them: `one in Cold Mountain: bob 3, 4; cid 9, saloon`."""
    ids = targets["from"] if isinstance(targets, dict) else targets
    if len(ids) == 1:
        return target_text(view, ids[0])
    cards = owned(view)
    by_owner = {}
    for target in ids:
        owner, card = cards[target]
        by_owner.setdefault(owner, []).append(str(card["number"]) if "number" in card else pgettext("target",
                                                                                                    "saloon"))
    town = town_name(view, cards[ids[0]][1]["town"])
    choices = pgettext("owners separator", "; ").join(_("{owner} {marks}", owner=owner, marks=joined(marks))
                                                      for owner, marks in by_owner.items())
    return _("one in {town}: {choices}", town=town, choices=choices)


def describe_dynamite(view: dict, mover: str, move: dict) -> str:
    return _("blow up {targets}", targets=targets_text(view, move["target"]))


def describe_expropriate(view: dict, mover: str, move: dict) -> str:
    ids = move["concession"]["from"] if isinstance(move["concession"], dict) else move["concession"]
    town = next(t for t in view["towns"] if t["id"] == owned(view)[ids[0]][1]["town"])
    targets = targets_text(view, move["concession"])
    if town["mayor"] not in (None, mover) and town["fee"]:
        return _("take {targets}; pay mayor {mayor} {fee}", targets=targets, mayor=town["mayor"], fee=town["fee"])
    return _("take {targets}", targets=targets)


def describe_holdup(view: dict, mover: str, move: dict) -> str:
    victim = player_of(view, move["victim"])
    return _("{player} holds {gold}: two dice must reach the sum you name", player=victim["name"],
             gold=victim["gold"])


def describe_saloon(view: dict, mover: str, move: dict) -> str:
    card = view["to_act"].get("card") or {}
    town = town_name(view, move["town"])
    if "fee" in card:
        return _("others' concessions in {town} pay you {fee} each time they produce", town=town, fee=card["fee"])
    return _("others' concessions in {town} pay you each time they produce", town=town)


def describe_girls(view: dict, mover: str, move: dict) -> str:
    card = view["to_act"].get("card") or {}
    town = town_name(view, next(s["town"] for s in player_of(view, mover)["saloons"] if s["id"] == move["saloon"]))
    if "fee" in card:
        return _("your saloon in {town} collects {fee} from each producing concession", town=town, fee=card["fee"])
    return _("your saloon in {town} collects more from each producing concession", town=town)


def describe_governor(view: dict, mover: str, move: dict) -> str:
    town = next(t for t in view["towns"] if t["id"] == move["town"])
    factor = (view["to_act"].get("card") or {}).get("factor", 2)
    return _("the fee paid to you in {town} goes from {fee} to {doubled}", town=town_label(town), fee=town["fee"],
             doubled=town["fee"] * factor)


def describe_vein(view: dict, mover: str, move: dict) -> str:
    card = view["to_act"].get("card") or {}
    more = _("{bonus} more", bonus=card["bonus"]) if "bonus" in card else _("more")
    ids = move["concession"]["from"] if isinstance(move["concession"], dict) else move["concession"]
    if len(ids) == 1:
        return _("your {concession} yields {more}", concession=target_text(view, ids[0], whose=False), more=more)
    cards = owned(view)
    numbers = joined(str(cards[cid][1]["number"]) for cid in ids)
    return _("one of your {town} {numbers} yields {more}", town=town_name(view, cards[ids[0]][1]["town"]),
             numbers=numbers, more=more)


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
