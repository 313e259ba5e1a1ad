"""Coal Baron's part of a text report, built only from a view (so nothing hidden can be printed), in the language
being read (its messages in locale/, its words in glossary.yaml: docs/translating.md).

Players, the board (spaces with their workers and the face-up tiles and orders), then each pit drawn as the
physical board lies: lit tunnels left of the shaft, dark ones right, the cage in the shaft, storage and orders at
the surface. The viewer's own money, delivered orders, drawn cards and tile prices come from the view's `private`
part, which only they get; other players' delivered orders lie face down, but for what the shift scorings showed.
"""
from __future__ import annotations

from pbem.messages import NP_, Domain, joined
from pbem.tables import clip, table

T = Domain("coal_baron")
_, ngettext = T.gettext, T.ngettext

EMPTY = "-"
# What the headline calls each decision (the names of meta.yaml `decisions`)
DECISIONS = {"draft_orders": NP_("decision", "draft orders"), "pick_phase_card": NP_("decision", "pick phase card"),
             "place_workers": NP_("decision", "place workers"), "place_or_pass": NP_("decision", "place or pass"),
             "mine": NP_("decision", "mine"), "choose_substitutes": NP_("decision", "choose substitutes"),
             "keep_tile": NP_("decision", "keep tile"), "return_tiles": NP_("decision", "return tiles"),
             "keep_order": NP_("decision", "keep order"), "return_orders": NP_("decision", "return orders"),
             "choose_cube": NP_("decision", "choose cube")}
# The shift scorings of components.yaml, as the awards table names them (a club's own keep their ids)
SCORINGS = [NP_("scoring", "yellow-cubes"), NP_("scoring", "brown-cubes"), NP_("scoring", "grey-cubes"),
            NP_("scoring", "black-cubes"), NP_("scoring", "wheelbarrow"), NP_("scoring", "carriage"),
            NP_("scoring", "lorry"), NP_("scoring", "train"), NP_("scoring", "empty-yellow-carts"),
            NP_("scoring", "empty-brown-carts"), NP_("scoring", "empty-grey-carts"),
            NP_("scoring", "empty-black-carts")]


def colour(name):
    return T.term("colour", name) if name else EMPTY


def render(view: dict, viewer: str | None) -> str:
    private = view.get("private")
    parts = [headline(view), players_table(view, private)]
    if view["draft"]:
        parts.append(_("Order draft, revealed:") + "\n" + orders_table(view["draft"]["revealed"]))
    if view["phase"]:
        parts.append(phase_text(view["phase"]))
    prices = {price["tile"]: price["pays"] for price in private["tile_prices"]} if private else {}
    parts.append(_("Board:") + "\n" + board_table(view, prices))
    parts.append(supply_text(view))
    pits = sorted(view["pits"], key=lambda pit: pit["player"] != viewer)  # the viewer's own pit first
    parts += [pit_text(pit, private["delivered"] if private and pit["player"] == viewer else None) for pit in pits]
    if private and private["drawn"]:
        parts.append(drawn_text(private["drawn"], prices))
    if view["awards"]:
        parts.append(_("Shift scoring:") + "\n" + awards_table(view["awards"]))
    return "\n\n".join(parts) + "\n"


def headline(view):
    act, common = view["to_act"], {"shift": view["shift"], "shifts": view["shifts"], "player": view["start_player"]}
    if view["over"]:
        text = _("Shift {shift} of {shifts}, start player {player}; the game is over", **common)
    elif act:
        doing = T.stored(DECISIONS.get(act["decision"], act["decision"]), "decision")
        if act["steps_left"] is not None:
            doing = ngettext("{decision}, {count} work step left", "{decision}, {count} work steps left",
                             act["steps_left"], decision=doing, count=act["steps_left"])
        if act["drawn"] is not None:
            doing = ngettext("{decision}, {count} card drawn", "{decision}, {count} cards drawn", act["drawn"],
                             decision=doing, count=act["drawn"])
        text = _("Shift {shift} of {shifts}, start player {player}; {actor} to act ({decision})", **common,
                 actor=act["player"], decision=doing)
    else:
        text = _("Shift {shift} of {shifts}, start player {player}", **common)
    options = ", ".join(f"{k}={v}" for k, v in view["options"].items() if v != "off")
    return text + ("\n" + _("Options: {options}", options=options) if options else "")


def players_table(view, private):
    rows = []
    for p in view["players"]:
        money = private["money"] if private and private["player"] == p["name"] else _("hidden")
        rows.append([p["name"], p["vp"], p["workers"], p["canteen"], p["orders"], p["delivered"], money])
    return table(rows, headers=[_("player"), _("VP"), T.term("word", "workers"), _("canteen"), _("orders"),
                                _("delivered"), T.term("word", "money")], tablefmt="simple")


def workers_text(workers):
    if not workers:
        return EMPTY
    counts = {}
    for p in workers:
        counts[p] = counts.get(p, 0) + 1
    return joined(_("{player} x{count}", player=p, count=n) for p, n in counts.items())


def tile_text(tile, prices=None):
    """A tile with its printed cost, and what the viewer pays when a phase card makes it cheaper for them."""
    text = ngettext("{tile} {colour} {side} {carts} cart, cost {cost}", "{tile} {colour} {side} {carts} carts, "
                    "cost {cost}", tile["carts"], tile=tile["id"], colour=colour(tile["colour"]),
                    side=T.term("side", tile["side"]), carts=tile["carts"], cost=tile["cost"])
    if prices and tile["id"] in prices:
        text = _("{offer} (you pay {pays})", offer=text, pays=prices[tile["id"]])
    return text


def order_text(order):
    return _("{order} {transport} {vp} VP: {cubes}", order=order["id"], transport=T.term("transport",
             order["transport"]), vp=order["vp"], cubes=" ".join(colour(c) for c in order["cubes"]))


def board_table(view, prices):
    rows = []
    for space in view["board"]:
        offer = (tile_text(space["tile"], prices) if space["tile"]
                 else order_text(space["order"]) if space["order"] else "")
        if not offer and space["kind"] in ("factory", "order"):
            offer = _("(empty)")
        rows.append([T.words(space["space"]), workers_text(space["workers"]), space["needs"], offer])
    return table(rows, headers=[_("space"), T.term("word", "workers"), _("needs"), _("on offer")],
                 tablefmt="simple")


def supply_text(view):
    supply = joined(f"{colour(c)} {n}" for c, n in view["supply"].items())
    return _("Decks: {tiles} tiles, {orders} orders.  Cube supply: {supply}", tiles=view["decks"]["tiles"],
             orders=view["decks"]["orders"], supply=supply)


def phase_text(phase):
    cards = joined(phase_card(c) for c in phase["cards"]) or _("none yet")
    domain = T.term("domain", phase["domain"]) if phase["domain"] else _("not chosen yet")
    passed = joined(phase["passed"]) or _("nobody")
    return _("Phase round: leader {leader}, domain {domain}; phase cards {cards}; passed: {passed}",
             leader=phase["leader"], domain=domain, cards=cards, passed=passed)


def carts_text(tunnel):
    loads = ",".join(colour(c) for c in tunnel["loads"])
    return f"{tunnel['id']}[{loads}]"


def pit_rows(pit):
    levels = {}
    for tunnel in pit["tunnels"]:
        levels.setdefault(tunnel["level"], {"colour": tunnel["colour"], "lit": [], "dark": []})
        levels[tunnel["level"]][tunnel["side"]].append(carts_text(tunnel))
    cage = pit["cage"]
    cage_text = T.term("word", "cage") + "[" + ",".join(colour(c) for c in cage["cubes"]) + "]"
    rows = [[_("0 surface"), _("storage: {cubes}", cubes=" ".join(colour(c) for c in pit["storage"]) or EMPTY),
             cage_text if cage["level"] == 0 else "|", ""]]
    for level in sorted(levels):
        row = levels[level]
        rows.append([f"{level} {colour(row['colour'])}", " ".join(row["lit"]) or EMPTY,
                     cage_text if cage["level"] == level else "|", " ".join(row["dark"]) or EMPTY])
    return rows


def pit_text(pit, own_delivered=None):
    """`own_delivered`: the viewer's own delivered orders (face down, but they know them); None for another pit."""
    text = _("Pit of {player} (lit tiles {lit}, dark tiles {dark}):", player=pit["player"], lit=pit["lit"],
             dark=pit["dark"]) + "\n"
    text += table(pit_rows(pit), headers=[_("level"), _("lit (left)"), _("shaft"), _("dark (right)")],
                  tablefmt="simple")
    if pit["orders"]:
        text += "\n" + _("Outstanding orders:") + "\n" + table(
            [[o["id"], T.term("transport", o["transport"]), o["vp"], spots_text(o), _("yes") if o["complete"]
              else _("no")] for o in pit["orders"]],
            headers=[_("order"), _("transport"), _("VP"), _("spots"), _("complete")], tablefmt="simple")
    if own_delivered:
        text += "\n" + _("Delivered (face down): {orders}", orders="; ".join(order_text(o) for o in own_delivered))
    elif pit["delivered"] and pit["shown"]:
        shown = "; ".join(_("{order} (shift {shift})", order=order_text(o), shift=o["shift"]) for o in pit["shown"])
        text += "\n" + _("Delivered: {count} face down; shown at the shift scorings: {shown}",
                         count=pit["delivered"], shown=shown)
    elif pit["delivered"]:
        text += "\n" + _("Delivered: {count} face down", count=pit["delivered"])
    return text


def spots_text(order):
    """Each printed colour with what fills it: the cube, two substitute cubes joined by +, or - when open."""
    return " ".join(f"{colour(c)}:{'+'.join(colour(cube) for cube in spot) if spot else EMPTY}"
                    for c, spot in zip(order["cubes"], order["spots"]))


def drawn_text(drawn, prices):
    if drawn["kind"] == "tiles":
        lines = [tile_text(t, prices) for t in drawn["cards"]]
    else:
        lines = [order_text(o) for o in drawn["cards"]]
    return _("Drawn for you alone:") + "\n  " + "\n  ".join(lines)


def orders_table(orders):
    return table([[o["id"], T.term("transport", o["transport"]), o["vp"], " ".join(colour(c) for c in o["cubes"])]
                  for o in orders], headers=[_("order"), _("transport"), _("VP"), _("cubes")], tablefmt="simple")


def awards_table(awards):
    return table([[a["shift"], T.stored(a["category"], "scoring"), a["player"], _("1st") if a["place"] == 1
                   else _("2nd"), a["vp"]] for a in awards],
                 headers=[_("shift"), _("category"), _("player"), _("place"), _("VP")], tablefmt="simple")


# ----------------------------------------------------------------------------------------------------------------
# What one legal move does, for `pbem moves` (from the mover's view only)


def describe(view: dict, move: dict) -> str:
    """A short phrase: the card a move takes, what it costs and what it gains; "" when the move says it all."""
    private = view.get("private")
    mover = private["player"] if private else view["to_act"]["player"]
    describer = DESCRIBERS.get(move["action"])
    return clip(describer(view, mover, move)) if describer else ""


def cubes_text(cubes):
    """`2 black`, `yellow + brown + grey + black`."""
    counts = {}
    for cube in cubes:
        counts[cube] = counts.get(cube, 0) + 1
    return " + ".join(_("{count} {colour}", count=n, colour=colour(c)) if n > 1 else colour(c)
                      for c, n in counts.items())


def order_brief(order):
    return _("{transport}, {vp} VP for {cubes}", transport=T.term("transport", order["transport"]), vp=order["vp"],
             cubes=cubes_text(order["cubes"]))


def tile_brief(tile, prices=None):
    cost = prices.get(tile["id"], tile["cost"]) if prices else tile["cost"]
    return ngettext("{colour} {side} tile, {count} cart, costs {cost}", "{colour} {side} tile, {count} carts, "
                    "costs {cost}", tile["carts"], colour=colour(tile["colour"]), side=T.term("side", tile["side"]),
                    count=tile["carts"], cost=cost)


def own_pit(view, mover):
    return next(pit for pit in view["pits"] if pit["player"] == mover)


def tile_prices(view):
    private = view.get("private")
    return {price["tile"]: price["pays"] for price in private["tile_prices"]} if private else {}


def bonus_of(view, mover, domain):
    """The phase card's bonus the mover gets on an action of that domain this round (0 without one)."""
    phase = view["phase"]
    if not phase or phase["domain"] not in (None, domain):
        return 0
    card = next((c["card"] for c in phase["cards"] if c["player"] == mover), None)
    return next((b["amount"] for b in phase["bonuses"] if b["card"] == card and b["domain"] == domain), 0)


def describe_draft(view, mover, move):
    order = next(o for o in view["draft"]["revealed"] if o["id"] == move["order"])
    return order_brief(order)


def phase_card(card: dict) -> str:
    """`bob: money`: a phase card on the table and who took it."""
    # TRANSLATORS: {player} took the phase card {card} (its domain's word); a list of them follows "phase cards".
    return _("{player}: {card}", player=card["player"], card=T.term("domain", card["card"]))


def phase_bonus(domain, n):
    """What a phase card's bonus of `n` does in its domain."""
    if domain == "factory":
        return _("tiles cost {n} less", n=n)
    if domain == "mining":
        return ngettext("{n} more work step", "{n} more work steps", n, n=n)
    if domain == "delivery":
        return _("{n} more VP per delivery", n=n)
    if domain == "money":
        return ngettext("{n} more money per bank action", "{n} more money per bank action", n, n=n)
    return _("no bonus")


def describe_pick(view, mover, move):
    bonus = next(b for b in view["phase"]["bonuses"] if b["card"] == move["card"])
    gain = phase_bonus(bonus["domain"], bonus["amount"]) if bonus["amount"] else _("none")
    return _("bonus in {domain} rounds: {gain}", domain=T.term("domain", bonus["domain"]), gain=gain)


def workers_cost(space):
    """`1 worker`, `3 workers, displace dan's 2` (bank 1 stacks: it needs 1 and displaces nobody). A space
    holds the workers of one player only, but bank 1. Displacing takes one worker more than those displaced (at
    least 2): the number a language's plural follows is theirs (French: "déloge 1 ouvrier de dan")."""
    needs = space["needs"]
    if space["workers"] and needs == len(space["workers"]) + 1:
        displaced = len(space["workers"])
        return ngettext("{count} workers, displace {player}'s {displaced}", "{count} workers, displace {player}'s "
                        "{displaced}", displaced, count=needs, player=space["workers"][0], displaced=displaced)
    return ngettext("{count} worker", "{count} workers", needs, count=needs)


def space_gain(view, mover, space):
    kind = space["kind"]
    if kind == "bank":
        amount = space["amount"] + bonus_of(view, mover, "money")
        return ngettext("+{amount} money", "+{amount} money", amount, amount=amount)
    if kind == "mining":
        steps = space["steps"] + bonus_of(view, mover, "mining")
        return ngettext("{count} work step", "{count} work steps", steps, count=steps)
    if kind == "delivery":
        ready = [o for o in own_pit(view, mover)["orders"] if o["complete"] and o["transport"] == space["transport"]]
        vp = sum(o["vp"] for o in ready) + bonus_of(view, mover, "delivery")
        return _("deliver {orders}: {vp} VP", orders=" ".join(o["id"] for o in ready), vp=vp)
    if kind == "order":
        return _("take {order}: {brief}", order=space["order"]["id"], brief=order_brief(space["order"]))
    if kind == "factory":
        return _("buy {tile}: {brief}", tile=space["tile"]["id"], brief=tile_brief(space["tile"], tile_prices(view)))
    if kind == "factory-draw":
        return _("draw tiles (deck {count}), keep one or none", count=view["decks"]["tiles"])
    return _("draw orders (deck {count}), keep one or none", count=view["decks"]["orders"])


def describe_place(view, mover, move):
    space = next(s for s in view["board"] if s["space"] == move["space"])
    return _("{gain} ({cost})", gain=space_gain(view, mover, space), cost=workers_cost(space))


def describe_overplace(view, mover, move):
    return _("2 or more workers on a free space: displacing them costs that + 1")


def describe_pass(view, mover, move):
    return _("out of this phase round")


def describe_cage(view, mover, move):
    if move["level"] == 0:
        return _("up to the surface, to store cubes or put them on orders")
    tunnels = [t for t in own_pit(view, mover)["tunnels"] if t["level"] == move["level"]]
    loads = len([c for t in tunnels for c in t["loads"] if c])
    if not tunnels:
        return ngettext("down to level {level}: {count} cube in its carts", "down to level {level}: {count} cubes "
                        "in its carts", loads, level=move["level"], count=loads)
    return ngettext("down to level {level}, {colour}: {count} cube in its carts", "down to level {level}, "
                    "{colour}: {count} cubes in its carts", loads, level=move["level"],
                    colour=colour(tunnels[0]["colour"]), count=loads)


def describe_load(view, mover, move):
    return _("a {colour} cube from a cart into the cage", colour=colour(move["colour"]))


def describe_store(view, mover, move):
    return _("a {colour} cube from the cage into storage", colour=colour(move["colour"]))


def completes(view, mover, orders, spots=1):
    """Which of these orders one more filled spot completes."""
    pit = own_pit(view, mover)
    return [o["id"] for o in pit["orders"] if o["id"] in orders and sum(1 for s in o["spots"] if not s) == spots]


def with_completion(view, mover, orders, text):
    """`text; completes o12 (lorry, 4 VP)` when the cube completes the order (one of them, for a choice)."""
    ids = orders["from"] if isinstance(orders, dict) else orders
    done = completes(view, mover, ids)
    if not done:
        return text
    if len(ids) == 1:
        order = next(o for o in own_pit(view, mover)["orders"] if o["id"] == ids[0])
        return _("{description}; completes {order} ({transport}, {vp} VP)", description=text, order=order["id"],
                 transport=T.term("transport", order["transport"]), vp=order["vp"])
    return _("{description}; completes {orders}", description=text, orders=joined(done))


def describe_fill(view, mover, move):
    text = _("1 step, a cube from storage") if move["cube"].startswith("stored-") else \
        _("1 step, a cube from the cage")
    return with_completion(view, mover, move["order"], text)


def describe_substitute(view, mover, move):
    text = _("2 steps: any 2 cubes fill one {colour} spot", colour=colour(move["spot"]))
    return with_completion(view, mover, move["order"], text)


def describe_cubes(view, mover, move):
    return _("the two cubes for the spot, from the cage at the surface or storage")


def describe_end(view, mover, move):
    left = view["to_act"]["steps_left"]
    return ngettext("stop mining, losing {count} step", "stop mining, losing {count} steps", left, count=left)


def describe_keep(view, mover, move):
    drawn = view["private"]["drawn"] if view.get("private") else None
    if move["card"] == "none":
        return _("keep nothing: every card drawn goes back")
    if not drawn:
        return ""  # not the mover's view: the cards drawn are not in it
    card = next(c for c in drawn["cards"] if c["id"] == move["card"])
    return tile_brief(card, tile_prices(view)) if drawn["kind"] == "tiles" else order_brief(card)


def describe_return(view, mover, move):
    if move["action"] == "return_top":
        return _("on top of the deck, drawn next, in the order you write them")
    return _("at the bottom of the deck, in the order you write them")


def describe_cube(view, mover, move):
    return _("a {colour} cube for the empty cart ({count} in the supply)", colour=colour(move["colour"]),
             count=view["supply"][move["colour"]])


DESCRIBERS = {
    "draft": describe_draft, "pick": describe_pick, "place": describe_place, "overplace": describe_overplace,
    "pass": describe_pass, "cage": describe_cage, "load": describe_load, "store": describe_store,
    "fill": describe_fill, "substitute": describe_substitute, "cubes": describe_cubes, "end": describe_end,
    "keep": describe_keep, "return_top": describe_return, "return_bottom": describe_return, "cube": describe_cube,
}


# ----------------------------------------------------------------------------------------------------------------
# What a queued move means (pbem.play.guards): read when it is queued and again when its turn comes; a change stops
# the queue. Only what other players can change is said: what a space needs and gives, the order a pick takes.


def meaning(view: dict, move: dict) -> str:
    """What a move would cost and give the viewer now, in words that change only when the move would do something
    else ("" when its words say it all, or the view shows nothing it would take)."""
    mover = view["private"]["player"]
    space = next((s for s in view["board"] if s["space"] == move.get("space")), None)
    if move["action"] == "place" and space is not None:
        gain = "draw and keep one or none" if space["kind"] in ("factory-draw", "order-draw") else \
            space_gain(view, mover, space)
        return f"{gain} ({workers_cost(space)})"
    if move["action"] == "draft" and view["draft"]:
        order = next((o for o in view["draft"]["revealed"] if o["id"] == move["order"]), None)
        return order_brief(order) if order else ""
    if move["action"] == "pick" and view["phase"]:
        return describe_pick(view, mover, move)
    return ""
