"""The deluxe edition's phase cards as the French rules describe them; the missing details are designed (rules.md)."""
from __future__ import annotations

import json
from importlib import resources

from jsonschema import Draft202012Validator

from pbem.rng import Rng

PHASE = {"phase-cards": "on"}


def picked(t, players=3, cards=None, seed="test"):
    """A phase game past the draft and the phase-card picks (cards given in pick order, else the first left)."""
    state = t.started(players, PHASE, seed=seed)
    cards = list(cards or [])
    while t.rules.pending(state)["decision"] == "pick_phase_card":
        state = t.play(state, f"pick {cards.pop(0)}" if cards else t.rules.legal_moves(state, t.to_act(state))[0])
    return state


def test_phase_cards_are_picked_in_turn_from_the_leader(t):
    state = t.started(3, PHASE)
    leader = state["start_player"]
    assert t.rules.pending(state)["decision"] == "pick_phase_card" and t.to_act(state) == leader
    assert t.legal_texts(state) == ["pick factory", "pick mining", "pick delivery", "pick money", "pick orders"]
    order = []
    for card in ("mining", "money", "factory"):
        order.append(t.to_act(state))
        state = t.play(state, f"pick {card}")
        if len(order) < 3:
            assert f"pick {card}" not in t.legal_texts(state)  # each card once per round
    i = state["players"].index(leader)
    assert order == [state["players"][(i + k) % 3] for k in range(3)]
    assert t.to_act(state) == leader and t.rules.pending(state)["decision"] == "place_workers"


def test_leader_may_open_any_domain_and_may_not_pass(t):
    state = picked(t)
    legal = t.legal_texts(state)
    assert "pass" not in legal
    assert {"place bank-6", "place mining-10", "place order-2", "place factory-draw"} <= set(legal)


def test_leaders_action_sets_the_domain_for_everyone(t):
    state = picked(t)
    state = t.play(state, "place mining-6")
    assert state["phase"]["domain"] == "mining"
    state = t.play(state, "end")
    legal = t.legal_texts(state)
    assert set(legal) == {"place mining-6", "place mining-8", "place mining-10", "pass"}


def test_player_with_nothing_to_do_in_the_domain_must_pass(t):
    state = picked(t)
    leader = t.to_act(state)
    state["pits"][leader]["orders"] = [{"id": "o01", "spots": [["yellow"]]}]
    state = t.play(state, "place delivery-wheelbarrow")
    assert t.legal_texts(state) == ["pass"]


def test_domain_round_ends_when_all_players_have_passed(t):
    state = picked(t, seed="round")
    leader = t.to_act(state)
    state = t.play(state, "place bank-6")
    seen = []
    while t.rules.pending(state)["decision"] == "place_or_pass":
        seen.append(t.to_act(state))
        state = t.play(state, "pass")
    i = state["players"].index(leader)
    assert seen == [state["players"][(i + k) % 3] for k in (1, 2, 0)]
    assert t.rules.pending(state)["decision"] == "pick_phase_card"
    assert state["phase"]["leader"] == state["players"][(i + 1) % 3]  # the lead moves clockwise
    assert state["phase"]["domain"] is None and state["phase"]["cards"] == {}


def test_players_act_again_in_the_domain_until_they_pass(t):
    state = picked(t, seed="again")
    leader = t.to_act(state)
    state = t.play(state, "place bank-6")
    second = t.to_act(state)
    state = t.play(state, "pass")
    third = t.to_act(state)
    state = t.play(state, "place bank-4")
    assert t.to_act(state) == leader  # the leader plays again in the domain
    state = t.play(state, "place bank-1")
    assert t.to_act(state) == third  # the player who passed stays out of this round
    assert second in state["phase"]["passed"]


def test_players_without_workers_pick_no_card_and_are_skipped(t):
    state = t.new(3, PHASE)
    leader = state["start_player"]
    out = next(p for p in state["players"] if p != leader)
    state["pits"][out]["workers"] = 0
    state = t.draft(state)
    pickers = []
    while t.rules.pending(state)["decision"] == "pick_phase_card":
        pickers.append(t.to_act(state))
        state = t.play(state, t.rules.legal_moves(state, t.to_act(state))[0])
    assert out not in pickers and len(pickers) == 2


def bonus_state(t, card):
    """The leader holds `card`."""
    state = t.started(2, PHASE, seed="bonus")
    others = [c for c in ("factory", "mining", "delivery", "money", "orders") if c != card]
    state = t.play(state, f"pick {card}")
    state = t.play(state, f"pick {others[0]}")
    return state


def test_factory_card_takes_one_money_off_the_tile(t):
    state = bonus_state(t, "factory")
    leader = t.to_act(state)
    tile = state["display"]["factory-1"]
    cost = state["components"]["tiles"][tile]["cost"]
    state["pits"][leader]["money"] = cost - 1
    state = t.play(state, "place factory-1")  # affordable only with the discount
    assert state["pits"][leader]["money"] == 0


def test_mining_card_gives_one_more_step(t):
    state = t.play(bonus_state(t, "mining"), "place mining-6")
    assert state["stack"][-1]["steps"] == 7


def test_a_phase_cards_domain_decides_its_bonus_and_the_components_its_amount(t):
    # ruling 31: the cards carry no bonus kind of their own; a club's file sets how much
    components = t.game.default_components()
    next(c for c in components["phase_cards"] if c["id"] == "mining")["amount"] = 3
    state = t.rules.setup(["alice", "bob"], t.game.resolve_options(PHASE), components, Rng("bonus", "t", 0))
    state = t.draft(state)
    state = t.play(t.play(state, "pick mining"), "pick money")
    state = t.play(state, "place mining-6")
    assert state["stack"][-1]["steps"] == 6 + 3
    components["phase_cards"][0]["bonus"] = "vp"  # a kind the rules would not read: the file is refused
    schema = json.loads(resources.files("pbem.games.coal_baron").joinpath("schemas/components.schema.json").read_text())
    assert [e.message for e in Draft202012Validator(schema).iter_errors(components)] == [
        "Additional properties are not allowed ('bonus' was unexpected)"]


def test_delivery_card_gives_one_more_vp(t):
    state = bonus_state(t, "delivery")
    leader = t.to_act(state)
    state["pits"][leader]["orders"] = [{"id": "o01", "spots": [["yellow"]]}, {"id": "o03", "spots": [["yellow"],
                                                                                                      ["yellow"]]}]
    state = t.play(state, "place delivery-wheelbarrow")
    assert state["pits"][leader]["vp"] == 2 + 3 + 1  # one bonus VP for the delivery action


def test_money_card_gives_one_more_money(t):
    state = bonus_state(t, "money")
    leader = t.to_act(state)
    state = t.play(state, "place bank-4")
    assert state["pits"][leader]["money"] == 10 + 4 + 1


def test_orders_card_gives_nothing(t):
    state = bonus_state(t, "orders")
    leader = t.to_act(state)
    before = {k: state["pits"][leader][k] for k in ("money", "vp", "workers")}
    state = t.play(state, "place order-2")
    assert state["pits"][leader]["money"] == before["money"] and state["pits"][leader]["vp"] == before["vp"]
    assert len(state["pits"][leader]["orders"]) == 4


def test_bonus_only_for_the_holder_of_the_domains_card(t):
    state = bonus_state(t, "orders")  # the leader holds orders, the other player the factory card
    leader = t.to_act(state)
    state = t.play(state, "place bank-4")
    assert state["pits"][leader]["money"] == 14
    other = next(p for p in state["players"] if p != leader)
    state = t.play(state, "place bank-6")
    assert state["pits"][other]["money"] == 16  # holds the factory card: no money bonus


def test_factory_discount_never_makes_a_tile_pay_the_buyer(t):
    state = bonus_state(t, "factory")
    leader = t.to_act(state)
    state["display"]["factory-1"] = "t01"  # yellow, cost 1
    state["pits"][leader]["money"] = 0
    state = t.play(state, "place factory-1")
    assert state["pits"][leader]["money"] == 0


def test_factory_card_holder_sees_the_price_they_will_pay(t):
    state = bonus_state(t, "factory")
    holder = t.to_act(state)
    other = next(p for p in state["players"] if p != holder)
    tiles = {state["display"][s] for s in state["display"] if s.startswith("factory-")} - {None}
    printed = {tile: state["components"]["tiles"][tile]["cost"] for tile in tiles}
    prices = {p["tile"]: p["pays"] for p in t.view(state, holder)["private"]["tile_prices"]}
    assert prices == {tile: cost - 1 for tile, cost in printed.items() if cost > 0}
    assert t.view(state, other)["private"]["tile_prices"] == []  # the others pay the printed cost
    tile = state["display"]["factory-1"]
    assert f"cost {printed[tile]} (you pay {printed[tile] - 1})" in " ".join(t.game.report.render(
        t.view(state, holder), holder).split())  # (the offer's cell may wrap to fit 78 columns)
    # the tiles drawn for the holder too
    state = t.play(state, "place factory-draw")
    drawn = state["stack"][-1]["drawn"]
    prices = {p["tile"]: p["pays"] for p in t.view(state, holder)["private"]["tile_prices"]}
    assert {tile: prices[tile] for tile in drawn} == {
        tile: state["components"]["tiles"][tile]["cost"] - 1 for tile in drawn}


def test_factory_card_holder_sees_no_price_in_a_round_without_tiles(t):
    state = bonus_state(t, "factory")
    holder = t.to_act(state)
    state = t.play(state, "place bank-4")  # the round's domain is money: no tile can be bought
    assert state["phase"]["domain"] == "money"
    assert t.view(state, holder)["private"]["tile_prices"] == []


def test_a_resigned_seat_picks_the_orders_card_and_leads_a_round_on_a_free_mining_space():
    from pbem import bots
    from pbem.store import registry
    from support import reach_decision
    game = registry.get("coal-baron")
    players = ["alice", "bob", "carol"]
    _, _, legal, view = reach_decision(game, {"phase-cards": "on"}, players, "pick_phase_card")
    assert bots.resigned_move(game, view, legal) == {"action": "pick", "card": next(
        b["card"] for b in view["phase"]["bonuses"] if b["domain"] == "orders")}
    _, _, legal, view = reach_decision(game, {"phase-cards": "on"}, players, "place_workers")
    move = bots.resigned_move(game, view, legal)
    assert bots.first_legal(legal) == {"action": "place", "space": "bank-1"}  # what opened money rounds before
    space = next(s for s in view["board"] if s["space"] == move["space"])
    assert space["kind"] == "mining" and space["needs"] == 1


def test_a_resigned_seat_passes_in_a_round_another_player_opened():
    from pbem import bots
    from pbem.store import registry
    from support import reach_decision
    game = registry.get("coal-baron")
    _, _, legal, view = reach_decision(game, {"phase-cards": "on"}, ["alice", "bob", "carol"],
                                               "place_or_pass")
    assert bots.resigned_move(game, view, legal) == {"action": "pass"}


def test_a_resigned_seat_never_opens_a_money_round_while_anything_else_is_legal():
    """The seeded game where the fault was seen (`resign-phase`: 3 players, phase cards, carol resigned from the start, the others
    greedy): every round carol leads goes to a domain other than money whenever a placement there is legal, also
    when every mining space already holds workers (where the first legal move, `bank-1`, used to be played)."""
    import random
    from pbem import bots
    from pbem.play import playout
    from pbem.rng import Rng
    from pbem.store import registry
    game = registry.get("coal-baron")
    players = ["alice", "bob", "carol"]
    state = playout.start(game, players, {"phase-cards": "on"}, seed="resign-phase", game_id="resign-phase")
    rnd, leads, crowded = random.Random(0), 0, 0
    for number in range(1, 5000):
        pending = game.rules.pending(state)
        if pending is None:
            break
        player, legal = pending["player"], game.rules.legal_moves(state, pending["player"])
        view = game.rules.view(state, player)
        if player != "carol":
            move = bots.decide(game, "greedy", view, legal, rnd)
        else:
            move = game.normalise(bots.resigned_move(game, view, legal))
            if pending["decision"] == "place_workers" and state["phase"]["domain"] is None:
                board = {space["space"]: space for space in view["board"]}
                elsewhere = [m for m in legal if m["action"] == "place" and board[m["space"]]["domain"] != "money"]
                free_mining = [m for m in elsewhere if board[m["space"]]["kind"] == "mining"
                               and not board[m["space"]]["workers"]]
                leads += 1
                crowded += not free_mining
                assert not elsewhere or board[move["space"]]["domain"] != "money", (number, move)
        state = game.rules.apply(state, player, move, Rng("resign-phase", "resign-phase", number))
    assert game.rules.pending(state) is None and leads >= 5 and crowded >= 1, (leads, crowded)
