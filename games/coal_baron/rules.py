"""Coal Baron: the rules as pure functions over plain data (see rules.md for every ruling).

The state is self-contained: setup() copies from the components what later functions need into state["components"]
(one table of spaces, tiles and orders; everything else refers to them by id). Pending decisions are a stack of
frames in state["stack"]; the top frame says who decides what. legal_moves() is the only place legality is decided;
apply() trusts it.
"""
from __future__ import annotations

from pbem import decisions

GAME = "coal-baron"
RULES_VERSION = 3
SURFACE = 0


# ----------------------------------------------------------------------------------------------------------------
# Setup


def setup(players, options, components, rng):
    n = len(players)
    numbers = next((row for row in components["setup"] if row["players"] == n), None)
    if numbers is None:
        raise ValueError(f"coal-baron is played by {', '.join(str(r['players']) for r in components['setup'])} players")
    comp = copy_components(components, n, numbers)
    tile_ids = [t for t, tile in comp["tiles"].items() if not tile.get("printed")]
    order_ids = list(comp["orders"])
    supply = {c: components["cubes_per_colour"] for c in comp["colours"]}
    pits = {}
    for p in players:
        pits[p] = new_pit(comp, numbers)
        for tunnel in pits[p]["tunnels"]:  # the printed carts take their cube from the 16 of their colour
            for cube in tunnel["carts"]:
                supply[cube] -= 1
    state = {
        "game": GAME,
        "rules_version": RULES_VERSION,
        "players": list(players),
        "options": dict(options),
        "components": comp,
        "shift": 1,
        "start_player": rng.choice(list(players), what="start player", public=True),  # the Chinese rules: at random
        "turn": None,
        "tile_deck": rng.shuffle(tile_ids, what="tile deck", public=False),
        "order_deck": rng.shuffle(order_ids, what="order deck", public=False),
        "display": {s: None for s, sp in comp["spaces"].items() if sp["kind"] in ("factory", "order")},
        "board": {s: [] for s in comp["spaces"]},
        "canteen": {p: 0 for p in players},
        "supply": supply,
        "pits": pits,
        "phase": None,
        "draft": None,
        "awards": [],
        "stack": [],
        "over": False,
    }
    deal_tiles(state)
    start_draft(state)
    return state


def copy_components(components, n, numbers):
    """The part of the components later functions need, with the spaces locked for this player count left out."""
    pit = components["pit"]
    tiles = {t: dict(tile) for t, tile in components["tiles"].items()}
    for cart in pit["printed_carts"]:  # printed carts are pseudo-tiles: one cart, never bought, not in the balance
        tiles[cart["id"]] = {"colour": cart["colour"], "side": cart["side"], "carts": 1, "cost": 0, "printed": True}
    return {
        "colours": {c["id"]: c["level"] for c in components["colours"]},
        "cubes_per_colour": components["cubes_per_colour"],
        "transports": list(components["transports"]),
        "workers": numbers["workers"],
        "money": numbers["money"],
        "draft": dict(components["draft"]),
        "draw_count": components["draw_count"],
        "shifts": components["shifts"],
        "cage_capacity": pit["cage_capacity"],
        "substitute_cubes": pit["substitute_cubes"],
        "printed_carts": [c["id"] for c in pit["printed_carts"]],
        "final_scoring": dict(components["final_scoring"]),
        "spaces": {s["id"]: {k: v for k, v in s.items() if k not in ("id", "min_players")}
                   for s in components["spaces"] if s.get("min_players", 0) <= n},
        "shift_scoring": [dict(c) for c in components["shift_scoring"]],
        "phase_cards": {c["id"]: {k: v for k, v in c.items() if k not in ("id", "source")}
                        for c in components["phase_cards"]},
        "tiles": tiles,
        "orders": {o: {"transport": c["transport"], "vp": c["vp"], "cubes": list(c["cubes"])}
                   for o, c in components["orders"].items()},
    }


def new_pit(comp, numbers):
    tunnels = [{"tile": t, "carts": [comp["tiles"][t]["colour"]]} for t in comp["printed_carts"]]
    return {"money": numbers["money"], "workers": numbers["workers"], "vp": 0, "delivery_vp": 0,
            "tunnels": tunnels, "cage": {"level": SURFACE, "cubes": []}, "storage": [], "orders": [],
            "delivered": [], "shown_at_scorings": []}


def deal_tiles(state):
    """Setup: one face-up tile on each open factory space, from the shuffled stack (the order spaces wait for the
    draft's leftover)."""
    refill_display(state, kinds=("factory",))


def start_draft(state):
    """The Chinese rules: reveal 3 x players + 1 orders; from the start player's right, counter-clockwise, one card
    at a time until each holds 3."""
    players, comp = state["players"], state["components"]
    n = len(players)
    count = comp["draft"]["cards_per_player"] * n + comp["draft"]["extra_cards"]
    revealed, state["order_deck"] = state["order_deck"][:count], state["order_deck"][count:]
    s = players.index(state["start_player"])
    queue = [players[(s - 1 - k) % n] for k in range(comp["draft"]["cards_per_player"] * n)]
    state["draft"] = {"revealed": revealed, "queue": queue[1:]}
    push(state, "draft_orders", queue[0])


def finish_draft(state):
    """The Chinese rules: the leftover cards, then the deck, fill the order spaces (the leftover space first, then
    the others in board order). Leftovers that find no space go back on top of the deck: every card stays in the
    game. Then shift 1 begins."""
    leftover = state["draft"]["revealed"]
    state["draft"] = None
    first = state["components"]["draft"]["leftover_space"]
    spaces = sorted((s for s in state["display"] if state["components"]["spaces"][s]["kind"] == "order"),
                    key=lambda s: s != first)  # stable: the other spaces keep their board order
    for space in spaces:
        if leftover and state["display"][space] is None:
            state["display"][space] = leftover.pop(0)
    state["order_deck"] = leftover + state["order_deck"]
    refill_display(state)
    begin_shift(state)


# ----------------------------------------------------------------------------------------------------------------
# Small helpers


def push(state, decision, player, **data):
    frame = {"decision": decision, "player": player}
    frame.update(data)
    state["stack"].append(frame)


def level_of(state, colour):
    return state["components"]["colours"][colour]


def colour_at(state, level):
    return next(c for c, lv in state["components"]["colours"].items() if lv == level)


def tile_level(state, tile_id):
    return level_of(state, state["components"]["tiles"][tile_id]["colour"])


def sort_cubes(state, cubes):
    return sorted(cubes, key=lambda c: level_of(state, c))


def next_clockwise(state, player, skip_without_workers=True):
    """The next player clockwise after `player` (possibly `player` itself last) who still has workers, else None."""
    players = state["players"]
    i = players.index(player)
    for k in range(1, len(players) + 1):
        p = players[(i + k) % len(players)]
        if not skip_without_workers or state["pits"][p]["workers"] > 0:
            return p
    return None


def phase_bonus(state, player, domain):
    """Phase-card variant: the holder of the card of the round's domain gets its bonus there (0 otherwise)."""
    phase = state["phase"]
    if phase is None:
        return 0
    card = phase["cards"].get(player)
    if card is None:
        return 0
    spec = state["components"]["phase_cards"][card]
    return spec["amount"] if spec["domain"] == domain else 0


def tile_cost(state, player, tile_id):
    discount = phase_bonus(state, player, "factory")
    return max(0, state["components"]["tiles"][tile_id]["cost"] - discount)


def order_complete(state, order):
    card = state["components"]["orders"][order["id"]]
    return all(spot_filled(state, colour, spot) for colour, spot in zip(card["cubes"], order["spots"]))


def spot_filled(state, colour, spot):
    return spot == [colour] or len(spot) == state["components"]["substitute_cubes"]


def is_phase_game(state):
    return state["options"].get("phase-cards") == "on"


# ----------------------------------------------------------------------------------------------------------------
# The contract


def pending(state):
    return decisions.pending(state["stack"], state["over"])


def legal_moves(state, player):
    frame = decisions.frame_for(state["stack"], state["over"], player)
    return [] if frame is None else LEGAL[frame["decision"]](state, frame)


def apply(state, player, move, rng):
    frame = state["stack"].pop()
    APPLY[move["action"]](state, frame, move)
    if not state["stack"] and not state["over"]:
        end_turn(state)
    return state


# ----------------------------------------------------------------------------------------------------------------
# Order draft


def legal_draft(state, frame):
    return [{"action": "draft", "order": o} for o in state["draft"]["revealed"]]


def draft_orders(state, frame, move):
    state["draft"]["revealed"].remove(move["order"])
    state["pits"][frame["player"]]["orders"].append(new_order(state, move["order"]))
    queue = state["draft"]["queue"]
    if queue:
        push(state, "draft_orders", queue.pop(0))
    else:
        finish_draft(state)


def new_order(state, order_id):
    return {"id": order_id, "spots": [[] for _ in state["components"]["orders"][order_id]["cubes"]]}


# ----------------------------------------------------------------------------------------------------------------
# Turns, shifts, phase rounds


def begin_shift(state):
    if is_phase_game(state):
        state["phase"] = {"leader": state["start_player"], "domain": None, "cards": {}, "passed": [], "to_pick": []}
        begin_round(state)
    else:
        state["turn"] = state["start_player"]
        push(state, "place_workers", state["start_player"])


def end_turn(state):
    """After a turn's action: refill the emptied spaces (the Chinese rules: at the end of the turn), then the next
    player."""
    refill_display(state)
    if is_phase_game(state):
        continue_round(state)
        return
    nxt = next_clockwise(state, state["turn"])  # players without workers are skipped (the Chinese rules)
    if nxt is None:
        end_shift(state)
    else:
        state["turn"] = nxt
        push(state, "place_workers", nxt)


def refill_display(state, kinds=("factory", "order")):
    for space, card in state["display"].items():
        kind = state["components"]["spaces"][space]["kind"]
        if card is None and kind in kinds:
            deck = "tile_deck" if kind == "factory" else "order_deck"
            if state[deck]:  # an empty deck leaves the space empty (the Chinese rules)
                state["display"][space] = state[deck].pop(0)


def end_shift(state):
    """Shift scoring, then (after shifts 1 and 2) a new start player, and every worker comes home."""
    state["turn"] = None
    score_shift(state)
    if state["shift"] >= state["components"]["shifts"]:
        state["over"] = True
        state["phase"] = None
        return
    state["start_player"] = choose_start_player(state)
    return_workers(state)
    state["shift"] += 1
    begin_shift(state)


def return_workers(state):
    for p in state["players"]:
        state["pits"][p]["workers"] = state["components"]["workers"]
        state["canteen"][p] = 0
    for space in state["board"]:
        state["board"][space] = []


def choose_start_player(state):
    """The French rules: most workers on the minecart factory spaces (the draw-5 space included, the canteen not);
    the Chinese rules: on a tie the first tied player clockwise after the old start player, who never keeps it on a
    tie. Nobody in the factory: the next player clockwise (the BoardGameArena implementation)."""
    counts = {p: 0 for p in state["players"]}
    for space, workers in state["board"].items():
        if state["components"]["spaces"][space]["domain"] == "factory":
            for p in workers:
                counts[p] += 1
    old = state["start_player"]
    best = max(counts.values())
    tied = [p for p in state["players"] if counts[p] == best]
    if best > 0 and tied == [old]:
        return old
    players = state["players"]
    i = players.index(old)
    clockwise = [players[(i + k) % len(players)] for k in range(1, len(players))]
    if best == 0:
        return clockwise[0]
    return next(p for p in clockwise if p in tied)


def begin_round(state):
    """Phase-card variant: a round starts with every player who has workers picking a phase card, leader first."""
    phase = state["phase"]
    leader = phase["leader"]
    if state["pits"][leader]["workers"] == 0:
        leader = next_clockwise(state, leader)
    if leader is None:
        end_shift(state)
        return
    players = state["players"]
    i = players.index(leader)
    order = [players[(i + k) % len(players)] for k in range(len(players))]
    phase.update({"leader": leader, "domain": None, "cards": {}, "passed": [],
                  "to_pick": [p for p in order if state["pits"][p]["workers"] > 0]})
    push(state, "pick_phase_card", phase["to_pick"].pop(0))


def continue_round(state):
    """Phase-card variant: after a placement or a pass, the next player clockwise who has not passed and still has
    workers plays in the round's domain; when there is none, the round ends and the lead moves clockwise."""
    phase = state["phase"]
    players = state["players"]
    i = players.index(state["turn"])
    for k in range(1, len(players) + 1):
        p = players[(i + k) % len(players)]
        if p not in phase["passed"] and state["pits"][p]["workers"] > 0:
            state["turn"] = p
            push(state, "place_or_pass", p)
            return
    nxt = next_clockwise(state, phase["leader"])
    if nxt is None:
        end_shift(state)
        return
    phase["leader"] = nxt
    begin_round(state)


def legal_pick(state, frame):
    taken = set(state["phase"]["cards"].values())
    return [{"action": "pick", "card": c} for c in state["components"]["phase_cards"] if c not in taken]


def pick_phase_card(state, frame, move):
    phase = state["phase"]
    phase["cards"][frame["player"]] = move["card"]
    if phase["to_pick"]:
        push(state, "pick_phase_card", phase["to_pick"].pop(0))
    else:
        state["turn"] = phase["leader"]
        push(state, "place_workers", phase["leader"])


def pass_round(state, frame, move):
    state["phase"]["passed"].append(frame["player"])


# ----------------------------------------------------------------------------------------------------------------
# Placing workers


def workers_needed(state, space):
    """The Chinese rules: 1 worker on an empty space, workers there + 1 on an occupied one; bank 1 always exactly 1."""
    spec = state["components"]["spaces"][space]
    if "fixed_workers" in spec:
        return spec["fixed_workers"]
    return len(state["board"][space]) + 1


def can_carry_out(state, player, space):
    """A space may be chosen only if its action can be carried out fully (the Chinese rules)."""
    spec = state["components"]["spaces"][space]
    kind = spec["kind"]
    pit = state["pits"][player]
    if kind == "factory":
        tile = state["display"][space]
        return tile is not None and tile_cost(state, player, tile) <= pit["money"]
    if kind == "order":
        return state["display"][space] is not None
    if kind == "factory-draw":
        return bool(state["tile_deck"])
    if kind == "order-draw":
        return bool(state["order_deck"])
    if kind == "delivery":
        return any(state["components"]["orders"][o["id"]]["transport"] == spec["transport"] and order_complete(state, o)
                   for o in pit["orders"])
    return True  # bank and mining


def legal_place(state, frame):
    """One entry per space that can take the player's workers (a pass first, in a phase round after its leader's
    placement: `place_or_pass`); with the overplace
    option one more entry: any number of workers from 2 on any free space that can take them (the French rules'
    reading: several workers only on a free space; an occupied one takes exactly its workers + 1)."""
    player = frame["player"]
    workers = state["pits"][player]["workers"]
    domain = state["phase"]["domain"] if state["phase"] else None
    open_spaces = [space for space, spec in state["components"]["spaces"].items()
                   if (domain is None or spec["domain"] == domain)  # phase-card variant: the round's domain only
                   and workers_needed(state, space) <= workers and can_carry_out(state, player, space)]
    moves = [{"action": "pass"}] if frame["decision"] == "place_or_pass" else []
    moves += [{"action": "place", "space": space} for space in open_spaces]
    crowdable = [space for space in open_spaces if not state["board"][space]
                 and "fixed_workers" not in state["components"]["spaces"][space]]
    if state["options"].get("overplace") == "on" and crowdable and workers >= 2:
        moves.append({"action": "overplace", "workers": {"min": 2, "max": workers},
                      "space": {"from": crowdable, "min": 1, "max": 1}})
    return moves


def place_workers(state, frame, move):
    player = frame["player"]
    space = move["space"][0] if move["action"] == "overplace" else move["space"]
    count = move.get("workers", workers_needed(state, space))
    spec = state["components"]["spaces"][space]
    board = state["board"]
    if "fixed_workers" in spec:
        board[space].extend([player] * count)  # bank 1 stacks and never displaces anyone
    else:
        for p in board[space]:  # the workers already there go to the canteen
            state["canteen"][p] += 1
        board[space] = [player] * count
    state["pits"][player]["workers"] -= count
    state["turn"] = player
    if state["phase"] is not None and state["phase"]["domain"] is None:
        state["phase"]["domain"] = spec["domain"]  # the leader's action sets the round's domain
    ACTIONS[spec["kind"]](state, player, space, spec)


def take_money(state, player, space, spec):
    state["pits"][player]["money"] += spec["amount"] + phase_bonus(state, player, "money")


def start_mining(state, player, space, spec):
    push(state, "mine", player, steps=spec["steps"] + phase_bonus(state, player, "mining"))


def deliver_orders(state, player, space, spec):
    """The French rules: all complete orders of that transport at once; VP at once, cubes back to the supply, cards kept
    face down for the shift scoring."""
    pit = state["pits"][player]
    gained = phase_bonus(state, player, "delivery")  # phase card: +1 VP for the delivery action
    still = []
    for order in pit["orders"]:
        card = state["components"]["orders"][order["id"]]
        if card["transport"] == spec["transport"] and order_complete(state, order):
            for spot in order["spots"]:
                for cube in spot:
                    state["supply"][cube] += 1
            pit["delivered"].append(order["id"])
            gained += card["vp"]
        else:
            still.append(order)
    pit["orders"] = still
    pit["vp"] += gained
    pit["delivery_vp"] += gained


def take_order(state, player, space, spec):
    order = state["display"][space]
    state["display"][space] = None  # refilled at the end of the turn
    state["pits"][player]["orders"].append(new_order(state, order))


def buy_face_up_tile(state, player, space, spec):
    tile = state["display"][space]
    state["display"][space] = None  # refilled at the end of the turn
    buy_tile(state, player, tile)


def draw_five(state, player, space, spec):
    """Draw-5 (the French and the Chinese rules): the top 5 (or what is left), shown to the mover alone."""
    deck = "tile_deck" if spec["kind"] == "factory-draw" else "order_deck"
    count = state["components"]["draw_count"]
    drawn, state[deck] = state[deck][:count], state[deck][count:]
    push(state, "keep_tile" if deck == "tile_deck" else "keep_order", player, drawn=drawn, fresh_info=True)


ACTIONS = {"bank": take_money, "mining": start_mining, "delivery": deliver_orders, "order": take_order,
           "factory": buy_face_up_tile, "factory-draw": draw_five, "order-draw": draw_five}


# ----------------------------------------------------------------------------------------------------------------
# Tiles and the draw-5 choices


def buy_tile(state, player, tile):
    """Pay, lay the tile in the pit, one cube of its colour onto each cart; a short supply lets the buyer choose any
    colour for the carts it cannot fill (the Chinese rules' last note)."""
    pit = state["pits"][player]
    pit["money"] -= tile_cost(state, player, tile)
    spec = state["components"]["tiles"][tile]
    colour = spec["colour"]
    carts = []
    for _ in range(spec["carts"]):
        if state["supply"][colour] > 0:
            state["supply"][colour] -= 1
            carts.append(colour)
        else:
            carts.append(None)
    pit["tunnels"].append({"tile": tile, "carts": carts})
    ask_for_substitute_cube(state, player, len(pit["tunnels"]) - 1)


def ask_for_substitute_cube(state, player, tunnel):
    carts = state["pits"][player]["tunnels"][tunnel]["carts"]
    if None in carts and any(state["supply"].values()):
        push(state, "choose_cube", player, tunnel=tunnel)


def legal_cube(state, frame):
    return [{"action": "cube", "colour": c} for c in state["components"]["colours"] if state["supply"][c] > 0]


def choose_cube(state, frame, move):
    player = frame["player"]
    carts = state["pits"][player]["tunnels"][frame["tunnel"]]["carts"]
    carts[carts.index(None)] = move["colour"]
    state["supply"][move["colour"]] -= 1
    ask_for_substitute_cube(state, player, frame["tunnel"])


def legal_keep(state, frame):
    player = frame["player"]
    moves = [{"action": "keep", "card": "none"}]  # the Chinese rules: all five may go back
    for card in frame["drawn"]:
        if frame["decision"] == "keep_order" or tile_cost(state, player, card) <= state["pits"][player]["money"]:
            moves.append({"action": "keep", "card": card})
    return moves


def keep_card(state, frame, move):
    player = frame["player"]
    rest = [c for c in frame["drawn"] if c != move["card"]]
    returning = "return_tiles" if frame["decision"] == "keep_tile" else "return_orders"
    if rest:
        push(state, returning, player, cards=rest)
    if move["card"] != "none":
        if frame["decision"] == "keep_tile":
            buy_tile(state, player, move["card"])  # may ask for substitute cubes before the rest goes back
        else:
            state["pits"][player]["orders"].append(new_order(state, move["card"]))


def legal_return(state, frame):
    """The rest go back on top or at the bottom, in the mover's chosen order (the list is the order they will be
    drawn in): one entry each, an ordering of the cards. Top and bottom are two actions: everyone at the table sees
    which, only the order is secret."""
    cards = list(frame["cards"])
    return [{"action": action, "cards": {"from": cards, "min": len(cards), "max": len(cards)}}
            for action in ("return_top", "return_bottom")]


def return_cards(state, frame, move):
    deck = "tile_deck" if frame["decision"] == "return_tiles" else "order_deck"
    if move["action"] == "return_top":
        state[deck] = move["cards"] + state[deck]
    else:
        state[deck] = state[deck] + move["cards"]


# ----------------------------------------------------------------------------------------------------------------
# Mining: one work step per decision


def cube_sources(state, pit):
    """Cube tokens a spot can be filled from: `colour` from the cage at the surface, `stored-colour` from storage;
    the cheapest colours first."""
    tokens = list(pit["cage"]["cubes"]) if pit["cage"]["level"] == SURFACE else []
    tokens += ["stored-" + c for c in pit["storage"]]
    return sorted(tokens, key=lambda token: (level_of(state, colour_of(token)), token.startswith("stored-")))


def colour_of(token):
    return token[len("stored-"):] if token.startswith("stored-") else token


def legal_mine(state, frame):
    """`end` first (what the referee plays for a resigned player), then the cage, loads, stores, and the fills:
    one entry per cube and one per spot colour, each naming the orders it may go on (an order is a one-word
    choice), so the list stays short however many orders are outstanding."""
    pit = state["pits"][frame["player"]]
    tokens = cube_sources(state, pit)
    moves = [{"action": "end"}] + cage_moves(state, pit) + load_moves(state, pit) + store_moves(state, pit)
    moves += fill_moves(state, pit, tokens)
    if frame["steps"] >= state["components"]["substitute_cubes"] \
            and len(tokens) >= state["components"]["substitute_cubes"]:
        moves += substitute_moves(state, pit)
    return moves


def cage_moves(state, pit):
    """One step moves the cage to any other level, however far (the Chinese rules)."""
    return [{"action": "cage", "level": lv} for lv in range(len(state["components"]["colours"]) + 1)
            if lv != pit["cage"]["level"]]


def load_moves(state, pit):
    cage = pit["cage"]
    if cage["level"] == SURFACE or len(cage["cubes"]) >= state["components"]["cage_capacity"]:
        return []
    loadable = {c for t in pit["tunnels"] if tile_level(state, t["tile"]) == cage["level"]
                for c in t["carts"] if c is not None}
    return [{"action": "load", "colour": c} for c in sort_cubes(state, loadable)]


def store_moves(state, pit):
    if pit["cage"]["level"] != SURFACE:
        return []
    return [{"action": "store", "colour": c} for c in sort_cubes(state, set(pit["cage"]["cubes"]))]


def orders_open_for(state, pit, colour):
    """The outstanding orders with an open spot of that colour, in the order they were taken."""
    return [o["id"] for o in pit["orders"]
            if any(c == colour and not spot
                   for c, spot in zip(state["components"]["orders"][o["id"]]["cubes"], o["spots"]))]


def fill_moves(state, pit, tokens):
    """A cube onto an open spot of its colour: one entry per cube (from the cage or storage), any one of the orders
    with such a spot."""
    moves = []
    for token in dict.fromkeys(tokens):
        orders = orders_open_for(state, pit, colour_of(token))
        if orders:
            moves.append({"action": "fill", "cube": token, "order": {"from": orders, "min": 1, "max": 1}})
    return moves


def substitute_moves(state, pit):
    """The French rules: two cubes of any colours fill one spot, for two steps; one entry per open spot colour, any
    one of the orders with such a spot. The cubes are chosen next (`choose_substitutes`)."""
    moves = []
    for colour in state["components"]["colours"]:
        orders = orders_open_for(state, pit, colour)
        if orders:
            moves.append({"action": "substitute", "spot": colour, "order": {"from": orders, "min": 1, "max": 1}})
    return moves


def legal_substitutes(state, frame):
    """Any two of the cubes at hand (each token at most twice in the list: only two are taken), cheapest first."""
    count = state["components"]["substitute_cubes"]
    tokens = cube_sources(state, state["pits"][frame["player"]])
    offered = [token for i, token in enumerate(tokens) if tokens[:i].count(token) < count]
    return [{"action": "cubes", "cubes": {"from": offered, "min": count, "max": count}}]


def spend_steps(state, frame, steps):
    """Unspent steps stay in the frame; at 0 the mining turn is over."""
    if frame["steps"] > steps:
        push(state, "mine", frame["player"], steps=frame["steps"] - steps)


def move_cage(state, frame, move):
    state["pits"][frame["player"]]["cage"]["level"] = move["level"]
    spend_steps(state, frame, 1)


def load_cube(state, frame, move):
    pit = state["pits"][frame["player"]]
    level = pit["cage"]["level"]
    for tunnel in pit["tunnels"]:
        if tile_level(state, tunnel["tile"]) == level and move["colour"] in tunnel["carts"]:
            tunnel["carts"][tunnel["carts"].index(move["colour"])] = None
            break
    pit["cage"]["cubes"] = sort_cubes(state, pit["cage"]["cubes"] + [move["colour"]])
    spend_steps(state, frame, 1)


def store_cube(state, frame, move):
    pit = state["pits"][frame["player"]]
    pit["cage"]["cubes"].remove(move["colour"])
    pit["storage"] = sort_cubes(state, pit["storage"] + [move["colour"]])
    spend_steps(state, frame, 1)


def take_cube(pit, token):
    colour = colour_of(token)
    if token.startswith("stored-"):
        pit["storage"].remove(colour)
    else:
        pit["cage"]["cubes"].remove(colour)
    return colour


def open_spot(state, pit, order_id, colour):
    order = next(o for o in pit["orders"] if o["id"] == order_id)
    card = state["components"]["orders"][order_id]
    i = next(i for i, (c, spot) in enumerate(zip(card["cubes"], order["spots"])) if c == colour and not spot)
    return order["spots"], i


def fill_order(state, frame, move):
    pit = state["pits"][frame["player"]]
    colour = take_cube(pit, move["cube"])
    spots, i = open_spot(state, pit, move["order"][0], colour)
    spots[i] = [colour]
    spend_steps(state, frame, 1)


def substitute_spot(state, frame, move):
    """The French rules: two cubes of any colour fill one spot, at the price of two steps; the steps are spent now
    and the cubes chosen next, so the mining turn goes on (if steps are left) once they are on the spot."""
    spend_steps(state, frame, state["components"]["substitute_cubes"])
    push(state, "choose_substitutes", frame["player"], order=move["order"][0], spot=move["spot"])


def substitute_cubes(state, frame, move):
    pit = state["pits"][frame["player"]]
    cubes = [take_cube(pit, token) for token in move["cubes"]]
    spots, i = open_spot(state, pit, frame["order"], frame["spot"])
    spots[i] = cubes


def end_mining(state, frame, move):
    pass  # unspent steps are lost (the Chinese rules)


# ----------------------------------------------------------------------------------------------------------------
# Scoring


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
    lines = {"deliveries": pit["delivery_vp"]}
    for shift in range(1, state["components"]["shifts"] + 1):
        lines[f"shift {shift}"] = sum(a["vp"] for a in state["awards"] if a["shift"] == shift and a["player"] == player)
    lit, dark = tile_balance(state, pit)
    cubes = cubes_owned(pit)
    money_vp = pit["money"] // rules["money_per_vp"]
    cubes_vp = cubes // rules["cubes_per_vp"]
    orders_vp = len(pit["orders"]) * rules["vp_per_outstanding_order"]
    imbalance_vp = abs(lit - dark) * rules["vp_per_imbalanced_tile"]
    total = sum(lines.values()) + money_vp + cubes_vp + orders_vp + imbalance_vp
    lines["money"] = f"{pit['money']} -> {money_vp:+d}"
    lines["cubes"] = f"{cubes} -> {cubes_vp:+d}"
    lines["outstanding orders"] = f"{len(pit['orders'])} -> {orders_vp:+d}"
    lines["lit/dark tiles"] = f"{lit}/{dark} -> {imbalance_vp:+d}"
    lines["total"] = total
    lines["tie-break: money left over"] = pit["money"] % rules["money_per_vp"]
    return lines


def result(state):
    """Most VP wins; tie: the most money left (the Chinese rules), after converting it (money mod 5, as the
    BoardGameArena implementation); still tied: shared (the Chinese rules)."""
    rows = []
    for p in state["players"]:
        details = final_lines(state, p)
        rows.append({"player": p, "score": details["total"], "details": details})
    key = {r["player"]: (r["score"], r["details"]["tie-break: money left over"]) for r in rows}
    for r in rows:
        r["rank"] = 1 + sum(1 for other in rows if key[other["player"]] > key[r["player"]])
    rows.sort(key=lambda r: (r["rank"], state["players"].index(r["player"])))
    return [{"player": r["player"], "score": r["score"], "rank": r["rank"], "details": r["details"]} for r in rows]


# ----------------------------------------------------------------------------------------------------------------
# Views


def tile_view(state, tile_id):
    t = state["components"]["tiles"][tile_id]
    return {"id": tile_id, "colour": t["colour"], "level": level_of(state, t["colour"]), "side": t["side"],
            "carts": t["carts"], "cost": t["cost"]}


def order_view(state, order_id):
    o = state["components"]["orders"][order_id]
    return {"id": order_id, "transport": o["transport"], "vp": o["vp"], "cubes": list(o["cubes"])}


def pit_view(state, player):
    pit = state["pits"][player]
    tiles = state["components"]["tiles"]
    lit, dark = tile_balance(state, pit)
    return {
        "player": player,
        "tunnels": [dict(tile_view(state, t["tile"]), printed=bool(tiles[t["tile"]].get("printed")),
                         loads=list(t["carts"])) for t in pit["tunnels"]],
        "cage": {"level": pit["cage"]["level"], "cubes": list(pit["cage"]["cubes"])},
        "storage": list(pit["storage"]),
        "orders": [dict(order_view(state, o["id"]), spots=[list(s) for s in o["spots"]],
                        complete=order_complete(state, o)) for o in pit["orders"]],
        "delivered": len(pit["delivered"]),
        "shown": shown_orders(state, pit),
        "lit": lit,
        "dark": dark,
    }


def shown_orders(state, pit):
    """Delivered orders lie face down; each shift scoring turns them all up, then down again. The public sees those
    the scorings showed, each with the shift whose scoring first showed it."""
    shown, start = [], 0
    for shift, count in enumerate(pit["shown_at_scorings"], start=1):
        shown += [dict(order_view(state, o), shift=shift) for o in pit["delivered"][start:count]]
        start = count
    return shown


def view(state, player):
    """The public view, plus for a player their `private` part: their money, their delivered orders, the cards they
    drew, and what they would pay for each tile on offer when a phase card makes it cheaper for them."""
    public = public_view(state)
    if player is not None:
        pit = state["pits"][player]
        drawn = drawn_view(state, player)
        public["private"] = {"player": player, "money": pit["money"],
                             "delivered": [order_view(state, o) for o in pit["delivered"]],
                             "drawn": drawn, "tile_prices": tile_prices(state, player, drawn)}
    return public


def tile_prices(state, player, drawn):
    """The price `player` pays for each tile on offer to them (face up, or drawn for them), where it is not the
    printed cost (the factory phase card, in a round whose domain is the factory or not chosen yet)."""
    if state["phase"] and state["phase"]["domain"] not in (None, "factory"):
        return []  # no tile can be bought in this round
    offered = [card for space, card in state["display"].items()
               if card and state["components"]["spaces"][space]["kind"] == "factory"]
    if drawn and drawn["kind"] == "tiles":
        offered += [tile["id"] for tile in drawn["cards"]]
    return [{"tile": t, "pays": tile_cost(state, player, t)} for t in offered
            if tile_cost(state, player, t) != state["components"]["tiles"][t]["cost"]]


def public_view(state):
    top = state["stack"][-1] if state["stack"] else None
    return {
        "game": GAME,
        "rules_version": state["rules_version"],
        "options": dict(state["options"]),
        "shift": state["shift"],
        "shifts": state["components"]["shifts"],
        "start_player": state["start_player"],
        "over": state["over"],
        "to_act": None if top is None or state["over"] else {
            "player": top["player"], "decision": top["decision"],
            "steps_left": top.get("steps"), "drawn": len(top["drawn"]) if "drawn" in top else None},
        "players": [{"name": p, "vp": state["pits"][p]["vp"], "workers": state["pits"][p]["workers"],
                     "canteen": state["canteen"][p], "orders": len(state["pits"][p]["orders"]),
                     "delivered": len(state["pits"][p]["delivered"])} for p in state["players"]],
        "board": [space_view(state, s) for s in state["components"]["spaces"]],
        "decks": {"tiles": len(state["tile_deck"]), "orders": len(state["order_deck"])},  # sizes only
        "supply": dict(state["supply"]),
        "draft": None if state["draft"] is None else {
            "revealed": [order_view(state, o) for o in state["draft"]["revealed"]]},
        "phase": phase_view(state),
        "pits": [pit_view(state, p) for p in state["players"]],
        "awards": [dict(a) for a in state["awards"]],
    }


def space_view(state, space):
    spec = state["components"]["spaces"][space]
    card = state["display"].get(space)
    printed = {key: spec[key] for key in ("amount", "steps", "transport") if key in spec}  # what the space gives
    return {"space": space, "domain": spec["domain"], "kind": spec["kind"], **printed,
            "workers": list(state["board"][space]), "needs": workers_needed(state, space),
            "tile": tile_view(state, card) if card and spec["kind"] == "factory" else None,
            "order": order_view(state, card) if card and spec["kind"] == "order" else None}


def phase_view(state):
    phase = state["phase"]
    if phase is None:
        return None
    return {"leader": phase["leader"], "domain": phase["domain"], "passed": list(phase["passed"]),
            "cards": [{"player": p, "card": phase["cards"][p]} for p in state["players"] if p in phase["cards"]],
            "bonuses": [{"card": c, "domain": spec["domain"], "amount": spec["amount"]}
                        for c, spec in state["components"]["phase_cards"].items()]}


def drawn_view(state, player):
    """Draw-5 cards, for the mover alone, from the draw until the rest are back in the deck."""
    top = state["stack"][-1] if state["stack"] else None
    if top is None or top["player"] != player or top["decision"] not in DRAW_DECISIONS:
        return None
    cards = top.get("drawn", top.get("cards"))
    if top["decision"] in ("keep_tile", "return_tiles"):
        return {"kind": "tiles", "cards": [tile_view(state, c) for c in cards]}
    return {"kind": "orders", "cards": [order_view(state, c) for c in cards]}


DRAW_DECISIONS = ("keep_tile", "return_tiles", "keep_order", "return_orders")

LEGAL = {
    "draft_orders": legal_draft,
    "pick_phase_card": legal_pick,
    "place_workers": legal_place,
    "place_or_pass": legal_place,
    "mine": legal_mine,
    "keep_tile": legal_keep,
    "keep_order": legal_keep,
    "return_tiles": legal_return,
    "return_orders": legal_return,
    "choose_cube": legal_cube,
    "choose_substitutes": legal_substitutes,
}

APPLY = {
    "draft": draft_orders,
    "pick": pick_phase_card,
    "place": place_workers,
    "overplace": place_workers,
    "pass": pass_round,
    "cage": move_cage,
    "load": load_cube,
    "store": store_cube,
    "fill": fill_order,
    "substitute": substitute_spot,
    "cubes": substitute_cubes,
    "end": end_mining,
    "keep": keep_card,
    "return_top": return_cards,
    "return_bottom": return_cards,
    "cube": choose_cube,
}
