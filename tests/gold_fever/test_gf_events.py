"""Every event card (the French rules: an event acts at once, a lasting one is placed, a kept one is used later;
effects from the English rules; the French Saloon takes a Saloon card). Targets are chosen as moves."""

from pbem.games.gold_fever import scoring

FILLER = ["new-london-2", "new-london-4", "new-london-5", "new-london-6"]


def offer(gf, state, winner, card, players=3):
    """`card` in slot 1, filler concessions after it; `winner` chooses first."""
    return gf.at_choice(state, winner, [card] + FILLER[:players - 1])


def saloon(state, sid, owner, girls=None):
    state["saloons"][sid] = {"owner": owner, "event": "saloon-1", "girls": girls}
    state["saloon_supply"].remove(sid)
    state["deck"] = [c for c in state["deck"] if c not in ("saloon-1", girls)]
    return state


# ------------------------------------------------------------------------------------------------ saloons

def test_saloon_event_builds_a_saloon_card_of_the_chosen_town(gf):
    state = gf.play(offer(gf, gf.new(), "ann", "saloon-1"), "take 1", "ann")
    assert gf.decision(state) == ("ann", "build_saloon")
    assert [m["town"] for m in gf.legal(state, "ann")] == [
        "new-london", "cold-mountain", "takamawok", "whiskey-river", "san-narciso"]
    state = gf.play(state, "saloon takamawok", "ann")
    assert state["saloons"] == {"takamawok-saloon-1": {"owner": "ann", "event": "saloon-1", "girls": None}}
    assert len(state["saloon_supply"]) == 9


def test_saloon_only_in_a_town_with_a_saloon_card_left(gf):
    state = saloon(saloon(gf.new(), "takamawok-saloon-1", "bob"), "takamawok-saloon-2", "cid")
    state = gf.play(offer(gf, state, "ann", "saloon-2"), "take 1", "ann")
    assert "takamawok" not in [m["town"] for m in gf.legal(state, "ann")]


def test_saloon_collects_2_per_producing_concession_of_its_town(gf):
    state = saloon(gf.own(gf.new(), "bob", "cold-mountain-7", "takamawok-7"), "cold-mountain-saloon-1", "ann")
    state = gf.take_remaining(gf.at_choice(state, "cid", FILLER[:3]), [(3, 4)])
    # bob gets 5 + 3 from the bank, and pays 2 at ann's saloon for the Cold Mountain concession only
    assert state["gold"]["bob"] == 10 + 8 - 2 and state["gold"]["ann"] == 12
    assert gf.money_total(state) == 30


def test_saloon_owner_pays_nothing_at_his_own_saloon(gf):
    state = saloon(gf.own(gf.new(), "ann", "cold-mountain-7"), "cold-mountain-saloon-1", "ann")
    state = gf.take_remaining(gf.at_choice(state, "cid", FILLER[:3]), [(3, 4)])
    assert state["gold"]["ann"] == 15


def test_saloon_girls_raise_the_saloon_fee_to_4(gf):
    state = saloon(gf.own(gf.new(), "bob", "cold-mountain-7"), "cold-mountain-saloon-1", "ann")
    state = gf.play(offer(gf, state, "ann", "saloon-girls-1"), "take 1", "ann")
    assert gf.decision(state) == ("ann", "place_saloon_girls")
    state = gf.play(state, "girls cold-mountain-saloon-1", "ann")
    state = gf.take_remaining(state, [(3, 4)])
    assert state["gold"]["bob"] == 10 + 5 - 4 and state["gold"]["ann"] == 14


def test_saloon_fee_is_what_the_mine_owner_can_pay(gf):
    state = saloon(gf.own(gf.new(), "bob", "cold-mountain-8"), "cold-mountain-saloon-1", "ann",
                   girls="saloon-girls-1")
    state["gold"]["bob"] = 0
    state = gf.take_remaining(gf.at_choice(state, "cid", FILLER[:3]), [(4, 4)])
    # cold-mountain-8 produces 1; bob can pay 1 of the 4
    assert state["gold"]["bob"] == 0 and state["gold"]["ann"] == 11


def test_saloon_girls_wait_until_their_holder_has_a_saloon(gf):
    state = gf.play(offer(gf, gf.new(), "ann", "saloon-girls-1"), "take 1", "ann")
    assert state["kept"]["ann"] == ["saloon-girls-1"]
    assert gf.view(state, None)["players"][0]["kept"][0]["waiting"] is True
    state = gf.take_remaining(state, [(1, 1)])
    state = gf.play(offer(gf, state, "ann", "saloon-1"), "take 1", "ann")
    state = gf.play(state, "saloon san-narciso", "ann")
    assert gf.decision(state) == ("ann", "place_saloon_girls")
    state = gf.play(state, "girls san-narciso-saloon-1", "ann")
    assert state["saloons"]["san-narciso-saloon-1"]["girls"] == "saloon-girls-1" and state["kept"]["ann"] == []


# ----------------------------------------------------------------------------------------------- dynamite

def test_dynamite_targets_only_opponents_concessions_and_saloons(gf):
    state = saloon(gf.own(gf.new(), "bob", "cold-mountain-5"), "takamawok-saloon-1", "cid")
    gf.own(state, "ann", "cold-mountain-7")
    state = gf.play(offer(gf, state, "ann", "dynamite-1"), "take 1", "ann")
    assert gf.decision(state) == ("ann", "light_dynamite")
    assert gf.legal(state, "ann") == [{"action": "dynamite", "target": ["cold-mountain-5"]},
                                      {"action": "dynamite", "target": ["takamawok-saloon-1"]}]


def test_dynamite_targets_are_one_entry_per_town(gf):
    # however many concessions are on the table, one line per town: `pbem moves` stays short
    state = gf.own(gf.new(), "bob", *(f"cold-mountain-{n}" for n in (3, 4, 5, 6, 7)))
    gf.own(state, "cid", "cold-mountain-8", "cold-mountain-9", "takamawok-5")
    saloon(state, "cold-mountain-saloon-1", "cid")
    state = gf.play(offer(gf, state, "ann", "dynamite-1"), "take 1", "ann")
    assert gf.legal_texts(state, "ann") == [
        "dynamite (any 1 of cold-mountain-3 cold-mountain-4 cold-mountain-5 cold-mountain-6 cold-mountain-7 "
        "cold-mountain-8 cold-mountain-9 cold-mountain-saloon-1)", "dynamite takamawok-5"]
    assert gf.is_legal(state, "dynamite cold-mountain-saloon-1", "ann")
    assert not gf.is_legal(state, "dynamite cold-mountain-3 cold-mountain-4", "ann")


def test_dynamite_removes_a_concession_from_the_game_and_shifts_the_mayor(gf):
    state = gf.own(gf.new(), "bob", "cold-mountain-5", "cold-mountain-7")
    gf.own(state, "cid", "cold-mountain-8", "cold-mountain-9")
    assert state["mayors"]["cold-mountain"] == "bob"
    state = gf.play(offer(gf, state, "ann", "dynamite-1"), "take 1", "ann")
    state = gf.play(state, "dynamite cold-mountain-5", "ann")
    assert "cold-mountain-5" not in state["owners"] and "cold-mountain-5" in state["discard"]
    assert "dynamite-1" in state["discard"]
    assert state["mayors"]["cold-mountain"] == "cid"


def test_dynamite_on_a_saloon_removes_it_with_its_girls(gf):
    state = saloon(gf.new(), "takamawok-saloon-1", "cid", girls="saloon-girls-1")
    state = gf.play(offer(gf, state, "ann", "dynamite-2"), "take 1", "ann")
    state = gf.play(state, "dynamite takamawok-saloon-1", "ann")
    assert state["saloons"] == {}
    assert {"saloon-1", "saloon-girls-1", "takamawok-saloon-1"} <= set(state["discard"])
    assert "takamawok-saloon-1" not in state["saloon_supply"]


def test_dynamite_without_target_waits_then_acts(gf):
    state = gf.play(offer(gf, gf.new(), "ann", "dynamite-1"), "take 1", "ann")
    assert state["kept"]["ann"] == ["dynamite-1"]
    # bob, next to choose, takes a concession: now the dynamite has a target and goes off at once
    assert gf.decision(state) == ("bob", "choose_card")
    state = gf.play(state, "take 2", "bob")
    assert gf.decision(state) == ("ann", "light_dynamite")
    state = gf.play(state, "dynamite new-london-2", "ann")
    assert state["kept"]["ann"] == [] and "new-london-2" in state["discard"]
    assert gf.decision(state) == ("cid", "choose_card")


# ------------------------------------------------------------------------------------------ expropriation

def test_expropriation_only_in_a_town_where_the_taker_has_a_concession(gf):
    state = gf.own(gf.new(), "ann", "cold-mountain-3")
    gf.own(state, "bob", "cold-mountain-5", "takamawok-5")
    state = gf.play(offer(gf, state, "ann", "expropriation-1"), "take 1", "ann")
    assert gf.decision(state) == ("ann", "expropriate_concession")
    assert gf.legal(state, "ann") == [{"action": "expropriate", "concession": ["cold-mountain-5"]}]


def test_expropriation_pays_the_mayor_fee_and_the_new_vein_follows(gf):
    state = gf.own(gf.new(), "ann", "cold-mountain-3")
    gf.own(state, "bob", "cold-mountain-5", "cold-mountain-7")
    state["veins"]["cold-mountain-5"] = "new-vein-1"
    state = gf.play(offer(gf, state, "ann", "expropriation-1"), "take 1", "ann")
    state = gf.play(state, "expropriate cold-mountain-5", "ann")
    assert state["owners"]["cold-mountain-5"] == "ann"
    assert state["veins"]["cold-mountain-5"] == "new-vein-1"
    assert state["gold"]["ann"] == 8 and state["gold"]["bob"] == 12  # bob's fee: his 2 concessions
    assert state["mayors"]["cold-mountain"] == "ann"  # 2 against 1 now


def test_expropriation_without_target_waits(gf):
    state = gf.own(gf.new(), "bob", "takamawok-5")
    state = gf.play(offer(gf, state, "ann", "expropriation-1"), "take 1", "ann")
    assert state["kept"]["ann"] == ["expropriation-1"]
    assert gf.decision(state) == ("bob", "choose_card")


# ----------------------------------------------------------------------------------------------- governor

def test_governor_doubles_the_mayor_fee(gf):
    state = gf.own(gf.new(), "ann", "cold-mountain-3", "cold-mountain-5")
    state = gf.play(gf.at_choice(state, "ann", ["governor-1", "cold-mountain-4", "new-london-2"]), "take 1", "ann")
    assert gf.decision(state) == ("ann", "appoint_governor")
    assert gf.legal(state, "ann") == [{"action": "governor", "town": "cold-mountain"}]
    state = gf.play(state, "governor cold-mountain", "ann")
    state = gf.play(state, "take 2", "bob")
    assert state["gold"]["bob"] == 6 and state["gold"]["ann"] == 14


def test_governor_leaves_with_the_mayorship(gf):
    state = gf.own(gf.new(), "ann", "cold-mountain-3", "cold-mountain-5")
    gf.own(state, "bob", "cold-mountain-7", "cold-mountain-8")
    state["governor"] = {"card": "governor-1", "town": "cold-mountain"}
    state = gf.play(gf.at_choice(state, "bob", ["cold-mountain-4", "new-london-2", "new-london-4"]), "take 1", "bob")
    assert state["mayors"]["cold-mountain"] == "bob"
    assert state["governor"] is None and "governor-1" in state["discard"]
    assert state["gold"]["bob"] == 6  # the fee was paid at the governor's rate before the change


def test_governor_waits_until_the_holder_is_mayor(gf):
    state = gf.own(gf.new(), "ann", "cold-mountain-3")
    state = gf.play(gf.at_choice(state, "ann", ["governor-1", "new-london-2", "new-london-4"]), "take 1", "ann")
    assert state["kept"]["ann"] == ["governor-1"]
    state = gf.take_remaining(state, [(1, 1)])
    state = gf.play(gf.at_choice(state, "ann", ["cold-mountain-4", "new-london-5", "new-london-6"]), "take 1",
                    "ann")
    assert gf.decision(state) == ("ann", "appoint_governor")


# ------------------------------------------------------------------------------------------------ hold-up

def test_holdup_succeeds_when_the_dice_reach_the_sum(gf):
    state = gf.play(offer(gf, gf.new(), "ann", "holdup-1"), "take 1", "ann")
    assert gf.decision(state) == ("ann", "aim_holdup")
    assert gf.legal(state, "ann") == [{"action": "holdup", "victim": "bob", "amount": {"min": 2, "max": 12}},
                                      {"action": "holdup", "victim": "cid", "amount": {"min": 2, "max": 12}}]
    state = gf.play(state, "holdup bob 7", "ann", dice=[(3, 4)])
    assert state["gold"]["ann"] == 17 and state["gold"]["bob"] == 3
    assert gf.last_rng.outcomes[0]["public"] is True and gf.last_rng.outcomes[0]["result"] == [3, 4]
    assert "holdup-1" in state["discard"]


def test_holdup_fails_below_the_sum(gf):
    state = gf.play(offer(gf, gf.new(), "ann", "holdup-1"), "take 1", "ann")
    state = gf.play(state, "holdup bob 7", "ann", dice=[(3, 3)])
    assert state["gold"]["ann"] == 10 and state["gold"]["bob"] == 10
    assert state["turn"]["holdups"][0]["stolen"] == 0


def test_holdup_takes_no_more_than_the_victim_has(gf):
    state = gf.new(("ann", "Bob", "cid"))
    state["gold"]["Bob"] = 4
    state = gf.play(offer(gf, state, "ann", "holdup-2"), "take 1", "ann")
    state = gf.play(state, "holdup bob 9", "ann", dice=[(6, 5)])
    assert state["gold"]["Bob"] == 0 and state["gold"]["ann"] == 14


# ---------------------------------------------------------------------------------- bank: robbery and shark

def test_stagecoach_robbery_takes_10_from_the_bank(gf):
    state = gf.play(offer(gf, gf.new(), "ann", "stagecoach-robbery-1"), "take 1", "ann")
    assert state["gold"]["ann"] == 20 and state["bank"]["paid_out"] == 10
    assert gf.money_total(state) == 30 and gf.decision(state) == ("bob", "choose_card")


def test_card_shark_makes_every_other_player_pay_4_to_the_bank(gf):
    state = gf.new()
    state["gold"]["cid"] = 3
    state = gf.play(offer(gf, state, "ann", "card-shark-1"), "take 1", "ann")
    assert state["gold"] == {"ann": 10, "bob": 6, "cid": 0}
    assert state["bank"]["taken_in"] == 7 and gf.money_total(state) == 10 + 10 + 3  # nothing lost


# ---------------------------------------------------------------------------------------------- new vein

def test_new_vein_adds_3_to_production_and_score(gf):
    state = gf.own(gf.new(), "ann", "cold-mountain-8")
    state = gf.play(offer(gf, state, "ann", "new-vein-1"), "take 1", "ann")
    assert gf.decision(state) == ("ann", "stake_new_vein")
    state = gf.play(state, "vein cold-mountain-8", "ann")
    assert scoring.score_lines(state, "ann")["nuggets"] == 4
    state = gf.take_remaining(state, [(4, 4)])
    assert state["gold"]["ann"] == 14


def test_new_vein_waits_without_a_concession(gf):
    state = gf.play(offer(gf, gf.new(), "ann", "new-vein-1"), "take 1", "ann")
    assert state["kept"]["ann"] == ["new-vein-1"]


def test_new_vein_is_removed_with_its_dynamited_concession(gf):
    state = gf.own(gf.new(), "bob", "cold-mountain-8")
    state["veins"]["cold-mountain-8"] = "new-vein-1"
    state = gf.play(offer(gf, state, "ann", "dynamite-1"), "take 1", "ann")
    state = gf.play(state, "dynamite cold-mountain-8", "ann")
    assert state["veins"] == {} and "new-vein-1" in state["discard"]


# ------------------------------------------------------------------------------------- mustang, telegraph

def test_mustang_lets_its_holder_choose_right_after_the_winner(gf):
    state = gf.hold(gf.new(("ann", "bob", "cid", "dee")), "dee", "mustang-1")
    state = gf.play(offer(gf, state, "ann", "new-london-7", players=4), "take 1", "ann")
    assert gf.decision(state) == ("dee", "ride_mustang")
    state = gf.play(state, "mustang", "dee")
    order = []
    while gf.decision(state)[1] == "choose_card":
        order.append(gf.decision(state)[0])
        slot = next(n for n, card in enumerate(state["turn"]["offer"], 1) if card)
        state = gf.play(state, f"take {slot}", order[-1], dice=[(1, 1)] if len(order) == 3 else ())
    assert order == ["dee", "bob", "cid"]
    assert "mustang-1" in state["discard"]


def test_mustang_kept_when_its_holder_passes(gf):
    state = gf.hold(gf.new(("ann", "bob", "cid", "dee")), "dee", "mustang-1")
    state = gf.play(offer(gf, state, "ann", "new-london-7", players=4), "take 1", "ann")
    state = gf.play(state, "pass", "dee")
    assert gf.decision(state) == ("bob", "choose_card") and state["kept"]["dee"] == ["mustang-1"]


def test_mustang_not_offered_to_the_player_who_chooses_next_anyway(gf):
    state = gf.hold(gf.new(), "bob", "mustang-1")
    state = gf.play(offer(gf, state, "ann", "new-london-7"), "take 1", "ann")
    assert gf.decision(state) == ("bob", "choose_card")


def test_mustang_taken_is_kept_for_later(gf):
    state = gf.play(offer(gf, gf.new(), "ann", "mustang-1"), "take 1", "ann")
    assert state["kept"]["ann"] == ["mustang-1"]
    assert gf.view(state, None)["players"][0]["kept"][0]["waiting"] is False


def test_telegraph_changes_one_die_of_the_production_roll(gf):
    state = gf.own(gf.hold(gf.new(), "cid", "telegraph-1"), "bob", "cold-mountain-7")
    state = gf.take_remaining(gf.at_choice(state, "ann", FILLER[:3]), [(3, 3)])
    assert gf.decision(state) == ("cid", "send_telegraph")
    assert gf.rules.pending(state)["fresh_info"] is True
    assert {"action": "telegraph", "die": 1, "value": {"min": 4, "max": 6}} in gf.legal(state, "cid")
    assert not gf.is_legal(state, "telegraph 1 3", "cid") and not gf.is_legal(state, "telegraph 3 1", "cid")
    state = gf.play(state, "telegraph 1 4", "cid")
    assert state["gold"]["bob"] == 15  # 4 + 3 = 7: bob's cold-mountain-7 produced
    assert state["previous_turn"]["roll"] == [4, 3] and "telegraph-1" in state["discard"]


def test_telegraph_kept_when_its_holder_passes(gf):
    state = gf.own(gf.hold(gf.new(), "cid", "telegraph-1"), "bob", "cold-mountain-6")
    state = gf.take_remaining(gf.at_choice(state, "ann", FILLER[:3]), [(3, 3)])
    state = gf.play(state, "pass", "cid")
    assert state["kept"]["cid"] == ["telegraph-1"] and state["gold"]["bob"] == 19


def test_telegraph_is_not_offered_after_a_holdup_roll(gf):
    state = gf.hold(gf.new(), "cid", "telegraph-1")
    state = gf.play(offer(gf, state, "ann", "holdup-1"), "take 1", "ann")
    state = gf.play(state, "holdup bob 12", "ann", dice=[(1, 1)])
    assert gf.decision(state) == ("bob", "choose_card")
