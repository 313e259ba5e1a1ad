"""Coal Baron's scoring: the shift scorings' majorities, the final score, the ranking, the end of the game."""
from __future__ import annotations

from pbem.messages import NP_

from .phases.common import level_of, tile_level


# The lines of a final score (the ranking's columns, in English in the stored results; translated where shown)
SHIFT_LINES = {1: NP_("score", "shift 1"), 2: NP_("score", "shift 2"), 3: NP_("score", "shift 3")}
TIE_BREAK = NP_("score", "tie-break: money left over")


def is_over(state):
    """The game ends after the last shift's scoring."""
    return state["over"]


def score_shift(state):
    """Majorities after each shift, cumulative over every order delivered so far (the French and the Chinese rules).
    The scoring turns every delivered order face up (then face down again): how many each one showed is kept."""
    shift = state["shift"]
    for p in state["players"]:
        pit = state["pits"][p]
        pit["shown_at_scorings"].append(len(pit["delivered"]))
    allow_second = len(state["players"]) > 2  # the Chinese rules: no second place with 2 players
    for category in state["components"]["shift_scoring"]:
        if category["from_shift"] > shift:
            continue
        counts = {p: category_count(state, p, category) for p in state["players"]}
        for player, place, vp in majority_awards(state["players"], counts, category["first"], category["second"],
                                                 allow_second):
            state["pits"][player]["vp"] += vp
            state["awards"].append({"shift": shift, "category": category["id"], "player": player,
                                    "place": place, "vp": vp})


def category_count(state, player, category):
    pit = state["pits"][player]
    orders = state["components"]["orders"]
    if category["count"] == "colour":  # printed symbols: a substituted spot counts as its printed colour
        return sum(orders[o]["cubes"].count(category["of"]) for o in pit["delivered"])
    if category["count"] == "transport":  # cube symbols, not cards
        return sum(len(orders[o]["cubes"]) for o in pit["delivered"] if orders[o]["transport"] == category["of"])
    level = level_of(state, category["of"])  # empty minecarts on that level, printed carts included
    return sum(t["carts"].count(None) for t in pit["tunnels"] if tile_level(state, t["tile"]) == level)


def majority_awards(players, counts, first, second, allow_second):
    """The Chinese rules: ties share first place and then no second; ties for second share it; at least 1 to score."""
    scoring = [p for p in players if counts[p] > 0]
    if not scoring:
        return []
    top = max(counts[p] for p in scoring)
    firsts = [p for p in scoring if counts[p] == top]
    awards = [(p, 1, first) for p in firsts]
    rest = [p for p in scoring if counts[p] < top]
    if len(firsts) == 1 and allow_second and rest:
        runner_up = max(counts[p] for p in rest)
        awards += [(p, 2, second) for p in rest if counts[p] == runner_up]
    return awards


def cubes_owned(pit):
    """Carts, cage, storage and the spots of outstanding orders (the Chinese rules: whatever colour and wherever)."""
    return (sum(len([c for c in t["carts"] if c is not None]) for t in pit["tunnels"]) + len(pit["cage"]["cubes"])
            + len(pit["storage"]) + sum(len(spot) for o in pit["orders"] for spot in o["spots"]))


def tile_balance(state, pit):
    """Lit and dark bought tiles; the printed carts do not count."""
    tiles = state["components"]["tiles"]
    bought = [tiles[t["tile"]] for t in pit["tunnels"] if not tiles[t["tile"]].get("printed")]
    return sum(1 for t in bought if t["side"] == "lit"), sum(1 for t in bought if t["side"] == "dark")


def final_lines(state, player):
    """Every line of a player's final score, in the order of the French rules' final scoring. Keys are the same for
    every player (the final report is a table); a conversion line reads "what was counted -> VP"."""
    pit = state["pits"][player]
    rules = state["components"]["final_scoring"]
    lines = {NP_("score", "deliveries"): pit["delivery_vp"]}
    for shift in range(1, state["components"]["shifts"] + 1):
        lines[SHIFT_LINES.get(shift, f"shift {shift}")] = sum(a["vp"] for a in state["awards"]
                                                              if a["shift"] == shift and a["player"] == player)
    lit, dark = tile_balance(state, pit)
    cubes = cubes_owned(pit)
    money_vp = pit["money"] // rules["money_per_vp"]
    cubes_vp = cubes // rules["cubes_per_vp"]
    orders_vp = len(pit["orders"]) * rules["vp_per_outstanding_order"]
    imbalance_vp = abs(lit - dark) * rules["vp_per_imbalanced_tile"]
    total = sum(lines.values()) + money_vp + cubes_vp + orders_vp + imbalance_vp
    lines[NP_("score", "money")] = f"{pit['money']} -> {money_vp:+d}"
    lines[NP_("score", "cubes")] = f"{cubes} -> {cubes_vp:+d}"
    lines[NP_("score", "outstanding orders")] = f"{len(pit['orders'])} -> {orders_vp:+d}"
    lines[NP_("score", "lit/dark tiles")] = f"{lit}/{dark} -> {imbalance_vp:+d}"
    lines[NP_("score", "total")] = total
    lines[TIE_BREAK] = pit["money"] % rules["money_per_vp"]
    return lines


def result(state):
    """Most VP wins; tie: the most money left (the Chinese rules), after converting it (money mod 5, as the
    BoardGameArena implementation); still tied: shared (the Chinese rules)."""
    rows = []
    for p in state["players"]:
        details = final_lines(state, p)
        rows.append({"player": p, "score": details["total"], "details": details})
    key = {r["player"]: (r["score"], r["details"][TIE_BREAK]) for r in rows}
    for r in rows:
        r["rank"] = 1 + sum(1 for other in rows if key[other["player"]] > key[r["player"]])
    rows.sort(key=lambda r: (r["rank"], state["players"].index(r["player"])))
    return [{"player": r["player"], "score": r["score"], "rank": r["rank"], "details": r["details"]} for r in rows]


WORKER_LEFT = 4  # VP a worker not yet placed this shift is worth to the search's estimate (what it may still do)


def estimate(state):
    """Each player's worth for a search that stops before the end (pbem.search): the final score as if the game
    ended now (money and cubes counted to the fraction, so a coin or a cube always counts), plus what is under way
    — the filled part of each outstanding order (its VP by the share of spots filled), the workers still to place
    this shift (each worth WORKER_LEFT: a worker spent on little, or a pass not taken in a phase round, costs what
    it could still do) and the current shift's majorities as they stand, by the share of the shift's workers
    already placed (the later in the shift, the surer the standing)."""
    totals = {row["player"]: row["score"] for row in result(state)}
    orders, rules = state["components"]["orders"], state["components"]["final_scoring"]
    for player in state["players"]:
        pit = state["pits"][player]
        totals[player] += pit["money"] % rules["money_per_vp"] / rules["money_per_vp"] + \
            cubes_owned(pit) % rules["cubes_per_vp"] / rules["cubes_per_vp"] + WORKER_LEFT * pit["workers"]
        for order in pit["orders"]:
            filled = sum(1 for spot in order["spots"] if spot)
            totals[player] += orders[order["id"]]["vp"] * filled / len(order["spots"])
    workers = state["components"]["workers"] * len(state["players"])
    placed = 1 - sum(state["pits"][p]["workers"] for p in state["players"]) / workers
    allow_second = len(state["players"]) > 2
    for category in state["components"]["shift_scoring"]:
        if category["from_shift"] <= state["shift"]:
            counts = {p: category_count(state, p, category) for p in state["players"]}
            for player, _, vp in majority_awards(state["players"], counts, category["first"], category["second"],
                                                 allow_second):
                totals[player] += vp * placed
    return totals
