"""Coal Baron's part of a text report, built only from a view (so nothing hidden can be printed).

Players, the board (spaces with their workers and the face-up tiles and orders), then each pit drawn as the
physical board lies: lit tunnels left of the shaft, dark ones right, the cage in the shaft, storage and orders at
the surface. The viewer's own money, delivered orders, drawn cards and tile prices come from the view's `private`
part, which only they get; other players' delivered orders lie face down, but for what the shift scorings showed.
"""
from __future__ import annotations

from tabulate import tabulate

EMPTY = "-"


def render(view: dict, viewer: str | None) -> str:
    private = view.get("private")
    parts = [headline(view), players_table(view, private)]
    if view["draft"]:
        parts.append("Order draft, revealed:\n" + orders_table(view["draft"]["revealed"]))
    if view["phase"]:
        parts.append(phase_text(view["phase"]))
    prices = {price["tile"]: price["pays"] for price in private["tile_prices"]} if private else {}
    parts.append("Board:\n" + board_table(view, prices))
    parts.append(supply_text(view))
    pits = sorted(view["pits"], key=lambda pit: pit["player"] != viewer)  # the viewer's own pit first
    parts += [pit_text(pit, private["delivered"] if private and pit["player"] == viewer else None) for pit in pits]
    if private and private["drawn"]:
        parts.append(drawn_text(private["drawn"], prices))
    if view["awards"]:
        parts.append("Shift scoring:\n" + awards_table(view["awards"]))
    return "\n\n".join(parts) + "\n"


def headline(view):
    text = f"Shift {view['shift']} of {view['shifts']}, start player {view['start_player']}"
    act = view["to_act"]
    if view["over"]:
        text += "; the game is over"
    elif act:
        text += f"; {act['player']} to act ({act['decision'].replace('_', ' ')}"
        if act["steps_left"] is not None:
            text += f", {act['steps_left']} work steps left"
        if act["drawn"] is not None:
            text += f", {act['drawn']} cards drawn"
        text += ")"
    options = ", ".join(f"{k}={v}" for k, v in view["options"].items() if v != "off")
    return text + (f"\nOptions: {options}" if options else "")


def players_table(view, private):
    rows = []
    for p in view["players"]:
        money = private["money"] if private and private["player"] == p["name"] else "hidden"
        rows.append([p["name"], p["vp"], p["workers"], p["canteen"], p["orders"], p["delivered"], money])
    return tabulate(rows, headers=["player", "VP", "workers", "canteen", "orders", "delivered", "money"],
                    tablefmt="simple")


def workers_text(workers):
    if not workers:
        return EMPTY
    counts = {}
    for p in workers:
        counts[p] = counts.get(p, 0) + 1
    return ", ".join(f"{p} x{n}" for p, n in counts.items())


def tile_text(tile, prices=None):
    """A tile with its printed cost, and what the viewer pays when a phase card makes it cheaper for them."""
    text = f"{tile['id']} {tile['colour']} {tile['side']} {tile['carts']} cart{'s' if tile['carts'] > 1 else ''}, " \
           f"cost {tile['cost']}"
    if prices and tile["id"] in prices:
        text += f" (you pay {prices[tile['id']]})"
    return text


def order_text(order):
    return f"{order['id']} {order['transport']} {order['vp']} VP: {' '.join(order['cubes'])}"


def board_table(view, prices):
    rows = []
    for space in view["board"]:
        offer = (tile_text(space["tile"], prices) if space["tile"]
                 else order_text(space["order"]) if space["order"] else "")
        if not offer and space["kind"] in ("factory", "order"):
            offer = "(empty)"
        rows.append([space["space"], workers_text(space["workers"]), space["needs"], offer])
    return tabulate(rows, headers=["space", "workers", "needs", "on offer"], tablefmt="simple")


def supply_text(view):
    supply = ", ".join(f"{c} {n}" for c, n in view["supply"].items())
    return f"Decks: {view['decks']['tiles']} tiles, {view['decks']['orders']} orders.  Cube supply: {supply}"


def phase_text(phase):
    cards = ", ".join(f"{c['player']}: {c['card']}" for c in phase["cards"]) or "none yet"
    domain = phase["domain"] or "not chosen yet"
    passed = ", ".join(phase["passed"]) or "nobody"
    return f"Phase round: leader {phase['leader']}, domain {domain}; phase cards {cards}; passed: {passed}"


def carts_text(tunnel):
    loads = ",".join(c if c else EMPTY for c in tunnel["loads"])
    return f"{tunnel['id']}[{loads}]"


def pit_text(pit, own_delivered=None):
    """`own_delivered`: the viewer's own delivered orders (face down, but they know them); None for another pit."""
    levels = {}
    for tunnel in pit["tunnels"]:
        levels.setdefault(tunnel["level"], {"colour": tunnel["colour"], "lit": [], "dark": []})
        levels[tunnel["level"]][tunnel["side"]].append(carts_text(tunnel))
    cage = pit["cage"]
    cage_text = "cage[" + ",".join(cage["cubes"]) + "]"
    rows = [["0 surface", "storage: " + (" ".join(pit["storage"]) or EMPTY),
             cage_text if cage["level"] == 0 else "|", ""]]
    for level in sorted(levels):
        row = levels[level]
        rows.append([f"{level} {row['colour']}", " ".join(row["lit"]) or EMPTY,
                     cage_text if cage["level"] == level else "|", " ".join(row["dark"]) or EMPTY])
    text = f"Pit of {pit['player']} (lit tiles {pit['lit']}, dark tiles {pit['dark']}):\n"
    text += tabulate(rows, headers=["level", "lit (left)", "shaft", "dark (right)"], tablefmt="simple")
    if pit["orders"]:
        text += "\nOutstanding orders:\n" + tabulate(
            [[o["id"], o["transport"], o["vp"], spots_text(o), "complete" if o["complete"] else ""]
             for o in pit["orders"]], headers=["order", "transport", "VP", "spots", ""], tablefmt="simple")
    if own_delivered:
        text += "\nDelivered (face down): " + "; ".join(order_text(o) for o in own_delivered)
    elif pit["delivered"]:
        text += f"\nDelivered: {pit['delivered']} face down"
        if pit["shown"]:
            text += "; shown at the shift scorings: " + "; ".join(
                f"{order_text(o)} (shift {o['shift']})" for o in pit["shown"])
    return text


def spots_text(order):
    """Each printed colour with what fills it: the cube, two substitute cubes joined by +, or - when open."""
    return " ".join(f"{colour}:{'+'.join(spot) if spot else EMPTY}" for colour, spot in zip(order["cubes"],
                                                                                         order["spots"]))


def drawn_text(drawn, prices):
    if drawn["kind"] == "tiles":
        lines = [tile_text(t, prices) for t in drawn["cards"]]
    else:
        lines = [order_text(o) for o in drawn["cards"]]
    return "Drawn for you alone:\n  " + "\n  ".join(lines)


def orders_table(orders):
    return tabulate([[o["id"], o["transport"], o["vp"], " ".join(o["cubes"])] for o in orders],
                    headers=["order", "transport", "VP", "cubes"], tablefmt="simple")


def awards_table(awards):
    return tabulate([[a["shift"], a["category"], a["player"], "1st" if a["place"] == 1 else "2nd", a["vp"]]
                     for a in awards], headers=["shift", "category", "player", "place", "VP"], tablefmt="simple")
