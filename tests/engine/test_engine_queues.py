"""Queued moves, ranked choices and standing orders through the referee and its files (pbem.play.queues): privacy
until played, replay, signatures, bad input, `pbem queue`, and the declarations each game makes."""
from __future__ import annotations

import ast
import inspect
import json

import pytest

from pbem.engine import engine
from pbem.games.gold_fever.phases import common
from pbem.games.gold_fever.phases import turn as turn_course
from pbem.play import movefile, plans
from pbem.store import registry
from support import NAMES, QueueTable, ScriptedRng, legal_turn, playable_games, snapshot

SECRET_WORDS = "new-london-9 offered"  # a condition no report, view or log shows unless it is sent


def gold_fever(pbem, tmp_path, name="g"):
    """A 3-player game of La Fièvre de l'Or: (its directory, the secrets, the seats from the first bidder on)."""
    directory = tmp_path / name
    args = ["new", "gold-fever", directory, "--seed", "queues", "--format", "json"]
    for player in NAMES[:3]:
        args += ["--player", player]
    result = pbem(*args)
    assert result.code == 0, result.err
    first = engine.status(engine.open_game(directory))["to_act"]
    seats = NAMES[NAMES.index(first):3] + NAMES[:NAMES.index(first)]
    return directory, {p["name"]: p["secret"] for p in result.json()["players"]}, seats


def move(pbem, directory, player, text):
    result = pbem("move", directory, "--as", player, "--text", text, "--format", "json")
    assert result.code == 0, result.err
    return result.json()


def files_but(directory, *private) -> dict[str, str]:
    """Every file of the game directory a player other than the owner may hold: all but the referee's folder, the
    transaction folder and the named views."""
    return {path: data.decode() for path, data in snapshot(directory).items()
            if not path.startswith(("referee/", ".txn/")) and path not in private}


def at_choice(winner="ann", offer=("new-london-2", "new-london-4", "new-london-5")):
    """La Fièvre de l'Or in memory, ann, bob and cid: the auction won by `winner` at 0, who chooses first."""
    game = registry.get("gold-fever")
    state = game.rules.setup(["ann", "bob", "cid"], game.resolve_options({}), game.default_components(),
                             ScriptedRng())
    turn = state["turn"]
    turn.update(offer=list(offer), high=None, winner=winner, price=0,
                choosers=common.clockwise_from(state, winner))
    state["deck"] = [card for card in state["deck"] if card not in offer]
    state["phase"], state["stack"] = "choosing", []
    turn_course.advance(state, ScriptedRng())
    return state


# ---------------------------------------------------------------------------------------------- the referee

def test_steps_beyond_the_turn_wait_for_their_decision_and_are_logged_as_the_players(pbem, tmp_path):
    directory, _, (first, second, third) = gold_fever(pbem, tmp_path)
    answer = move(pbem, directory, first, "bid 1; take best")
    assert answer["moves"] == ["bid 1"] and answer["queue"]["turns"] == [["take best"]]
    move(pbem, directory, second, "pass")
    answer = move(pbem, directory, third, "pass")
    assert answer["referee_moves"] == [{"number": 4, "player": first, "by": "player", "moves": ["take 1"],
                                        "chance": [], "reason": "queued"}]
    assert engine.status(engine.open_game(directory), first).get("queue") is None
    entry = engine.read_log(engine.open_game(directory))["entries"][-1]
    assert (entry["player"], entry["by"], entry["reason"]) == (first, "player", "queued")


def test_a_step_not_legal_when_its_decision_comes_stops_the_queue_and_its_player_is_told(pbem, tmp_path):
    directory, _, (first, second, third) = gold_fever(pbem, tmp_path)
    move(pbem, directory, first, "bid 1")
    move(pbem, directory, second, "bid 2; take 2")
    move(pbem, directory, third, "pass; take 2; next; take 3")
    answer = move(pbem, directory, first, "pass")  # second won and takes card 2: third's card 2 is gone
    assert [entry["moves"] for entry in answer["referee_moves"]] == [["take 2"]]
    queue = engine.status(engine.open_game(directory), third)["queue"]
    assert queue["turns"] == [] and "your queue stopped at 'take 2', not legal now (take one of the cards on offer " \
        "(a concession is placed, an event acts); legal: take 1, take 3); dropped: take 2; take 3" \
        in queue["notices"][0]
    assert engine.status(engine.open_game(directory))["to_act"] == third


def test_a_queued_turn_under_way_ends_with_its_players_run(tmp_path):
    """`place bank-6 else place mining-6; cage 1; ...`: when the placement falls back to a bank, the mining steps
    after it are dropped, never played at a later mining turn."""
    q = QueueTable("coal-baron")
    t_state = q.game.rules.setup(["ann", "bob"], q.game.resolve_options({}), q.game.default_components(),
                                 __import__("pbem.rng", fromlist=["Rng"]).Rng("s", "t", 0))
    env = q.env(t_state)
    while q.to_act(env)[1] == "draft_orders":
        env, _ = q.send(env, q.to_act(env)[0], "draft best")
    player, other = q.to_act(env)[0], [p for p in ("ann", "bob") if p != q.to_act(env)[0]][0]
    env, _ = q.send(env, player, "place bank-1; next; place mining-4 else place bank-6; cage 1; end")
    env, entries = q.send(env, other, "place bank-1")  # mining-4 is not a space of a 2-player game: bank-6
    assert q.played(entries)[-1] == (player, ["place bank-6"], "queued")
    assert q.shown(env, player) == {"turns": [], "standing": [], "notices": [
        "not played, the turn you wrote it for ended before it (a step for a later turn goes after `next`): cage "
        "1; end"]}


def test_a_forced_decision_uses_up_the_queued_step_meant_for_it():
    q = QueueTable("gold-fever")
    env = q.env(at_choice())
    env, _ = q.queue(env, "cid", "take 3; next; take best")
    env, _ = q.send(env, "ann", "take 3")
    env, entries = q.send(env, "bob", "take 1")  # cid's choice: only slot 2 is left, played by the referee
    assert q.played(entries)[1] == ("cid", ["take 2"], "only legal move")
    assert q.record(env, "cid")["turns"] == [["take best"]]


def test_a_resigned_players_queue_is_dropped(pbem, tmp_path):
    directory, _, (first, second, third) = gold_fever(pbem, tmp_path)
    move(pbem, directory, first, "bid 1; take best; standing auction: bid up to 5 else pass")
    assert pbem("move", directory, "--as", first, "--text", "resign").code == 0
    assert engine.status(engine.open_game(directory), first).get("queue") is None
    assert first not in (engine.load_state(engine.open_game(directory)).get("queues") or {})


# ---------------------------------------------------------------------------------------------- privacy

def test_a_queue_is_seen_by_its_player_alone_until_it_is_played(pbem, tmp_path):
    directory, _, (first, second, third) = gold_fever(pbem, tmp_path)
    move(pbem, directory, first, f"bid 1; take 3 if {SECRET_WORDS} else take 2; standing auction: bid up to 7 "
                                 f"else pass")
    mine = (tmp_path / "g" / engine.view_file(first)).read_text()
    assert SECRET_WORDS in mine and "bid up to 7" in mine
    for path, text in files_but(directory, engine.view_file(first)).items():
        assert SECRET_WORDS not in text and "up to 7" not in text, path
    assert SECRET_WORDS in (directory / "referee/state.yaml").read_text()
    assert "queue" not in json.dumps(engine.status(engine.open_game(directory)))
    move(pbem, directory, second, "pass")
    move(pbem, directory, third, "pass")  # first won: the queue plays take 2, as if sent now
    assert engine.read_log(engine.open_game(directory))["entries"][-1]["moves"] == ["take 2"]
    for path, text in files_but(directory, engine.view_file(first)).items():
        assert SECRET_WORDS not in text and "up to 7" not in text, path


def test_the_public_status_schema_has_no_place_for_a_queue():
    from pbem.store import validation
    doc_schema = validation.schemas_for("gold-fever")["public.schema.json"]
    assert "queue" not in doc_schema["properties"] and doc_schema["additionalProperties"] is False


@pytest.mark.parametrize("game", playable_games(), ids=lambda g: g.id)
def test_a_games_queue_words_read_views_only(game):
    """The conditions module imports nothing (it cannot reach the state or the rules), and every function it
    has gets a view: the referee calls it with the public view or the player's own, as its declaration says."""
    module = game.conditions
    tree = ast.parse(inspect.getsource(module))
    imported = [node for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))]
    assert all(isinstance(node, ast.ImportFrom) and node.module == "__future__" for node in imported)
    vocab = plans.vocabulary(game)
    for key, spec in [*vocab.choices.items(), *vocab.conditions.items(), *vocab.disarm.items()]:
        assert spec["reads"] in plans.READS, key
        assert list(inspect.signature(getattr(module, key)).parameters)[0] == "view", key


def test_conditions_are_evaluated_on_views_never_the_state(monkeypatch):
    q = QueueTable("gold-fever")
    state = at_choice()
    state["stack"], state["phase"] = [], "auction"  # the auction of turn 1 again, ann first
    state["turn"].update(winner=None, choosers=[])
    state["stack"].append({"decision": "bid_for_lot", "player": "ann", "fresh_info": True})
    made, seen = [], []
    real_view = q.game.rules.view

    def view(position, player):
        made.append(real_view(position, player))
        return made[-1]
    monkeypatch.setattr(q.game.rules, "view", view)
    for key in ("offered", "gold", "bid_up_to", "take_best", "new_offer"):
        real = getattr(q.game.conditions, key)
        monkeypatch.setattr(q.game.conditions, key, lambda v, *a, _real=real, **k: (seen.append(v), _real(v, *a, **k))[1])
    env, _ = q.send(q.env(state), "ann", "bid 1; take 2 if new-london-4 offered and bob gold at least 1 else take best;"
                                         " standing auction: bid up to 4 else pass")
    env, _ = q.send(env, "bob", "bid 2")
    env, _ = q.send(env, "cid", "pass")
    env, _ = q.send(env, "bob", "pass") if q.to_act(env)[0] == "bob" else (env, [])
    assert seen and all(any(v is view for view in made) for v in seen)
    assert all(v.get("viewer") in (None, "ann") for v in seen)


# ---------------------------------------------------------------------------------------------- bad input

@pytest.mark.parametrize("text, message", [
    ("bid 1; take 2 if sunny", "step 2 of your turn ('take 2 if sunny'): 'sunny' is not a condition of La Fièvre de "
                               "l'Or; its conditions are: <card> offered"),
    ("bid 1; {other} pass", "step 2 of your turn ('{other} pass'): a queue holds your own steps only, not {other}'s"),
    ("bid 1; {other}: pass", "a queue holds your own steps only, not {other}'s"),
    ("bid 1; standing dance: pass", "step 2 of your turn ('standing dance: pass'): 'dance' is no standing order"),
    ("bid 1; take 2 if {other} gold at least 1 and sunny", "'sunny' is not a condition"),
    ("bid 1" + "; take 1" * 61, "step 61 of your turn ('take 1'): at most 60 steps may be sent at once"),
    ("bid 1; take 1 else", "step 2 of your turn ('take 1 else'): `else` stands between two moves"),
])
def test_a_bad_queue_is_refused_naming_its_step_and_nothing_is_queued(pbem, tmp_path, text, message):
    directory, _, (first, second, _) = gold_fever(pbem, tmp_path)
    before = snapshot(directory)
    result = pbem("move", directory, "--as", first, "--text", text.format(other=second))
    assert result.code == 2 and message.format(other=second) in result.err, result.err
    assert snapshot(directory) == before
    result = pbem("queue", directory, "--as", first, "--text", text.format(other=second).split("; ", 1)[1])
    assert result.code == 2 and snapshot(directory) == before, result.err


def test_a_condition_on_hidden_information_is_refused_naming_its_step(pbem, new_game):
    directory, _ = new_game("coal-baron", 2)
    player = engine.status(engine.open_game(directory))["to_act"]
    other = [name for name in NAMES[:2] if name != player][0]
    before = snapshot(directory)
    result = pbem("queue", directory, "--as", player, "--text", f"draft best if {other} money at least 5")
    assert result.code == 2 and f"'draft best if {other} money at least 5': {other}'s money is hidden from you: " \
                                f"a condition reads only what you may see" in result.err
    assert snapshot(directory) == before


def test_a_queue_alone_is_not_a_turn(pbem, tmp_path):
    directory, _, (first, _, _) = gold_fever(pbem, tmp_path)
    result = pbem("move", directory, "--as", first, "--text", "next; take best")
    assert result.code == 2 and "no step for this turn" in result.err


# ---------------------------------------------------------------------------------------------- replay

def test_a_game_played_with_queues_verifies_and_leaves_its_unused_queue_to_the_referee(pbem, tmp_path):
    directory, _, seats = gold_fever(pbem, tmp_path)
    for seat in seats:
        assert pbem("queue", directory, "--as", seat, "--text",
                    "standing auction: pass; standing mustang: pass; standing telegraph: pass").code == 0
    gd = engine.open_game(directory)
    unused = f"take 9 if {SECRET_WORDS}"  # a turn that never comes: card 9 is never on offer
    rounds = 0
    while not engine.status(gd)["finished"]:
        player, text, _ = legal_turn(directory)
        move(pbem, directory, player, f"{text}; next; {unused}")
        if rounds % 15 == 0:
            assert pbem("verify", directory).code == 0
        rounds += 1
    assert pbem("verify", directory).code == 0
    log = engine.read_log(gd)["entries"]
    assert any(entry.get("reason") == "standing order" for entry in log)
    assert SECRET_WORDS in (directory / "referee/state.yaml").read_text()
    for path, text in files_but(directory).items():
        assert SECRET_WORDS not in text and "standing auction" not in text, path
    for seat in seats:
        assert pbem("verify", directory, "--as", seat).code == 0


def signed(directory, secrets, player, texts, queue=False):
    gd = engine.open_game(directory)
    number = engine.status(gd)["move_number"]
    return movefile.dumps(movefile.build(gd.id, number, player, texts, secrets[player], queue=queue))


def test_a_signed_move_file_covers_its_queue(pbem, tmp_path):
    directory, secrets, (first, _, _) = gold_fever(pbem, tmp_path)
    text = signed(directory, secrets, first, ["bid 1", "take best"])
    forged = text.replace("take best", "take 1")
    (tmp_path / "forged.yaml").write_text(forged)
    before = snapshot(directory)
    result = pbem("move", directory, "--as", first, tmp_path / "forged.yaml")
    assert result.code == 2 and "bad signature" in result.err and snapshot(directory) == before
    (tmp_path / "m.yaml").write_text(text)
    assert pbem("move", directory, "--as", first, tmp_path / "m.yaml").code == 0
    entry = engine.read_log(engine.open_game(directory), full=True)["entries"][-1]
    assert entry["moves"] == ["bid 1"] and entry["sealed"] is True and "take best" not in json.dumps(entry)


def test_a_signed_queue_file_is_taken_once_and_never_as_a_move(pbem, tmp_path):
    directory, secrets, (first, second, _) = gold_fever(pbem, tmp_path)
    (tmp_path / "q.yaml").write_text(signed(directory, secrets, second, ["take best"], queue=True))
    (tmp_path / "m.yaml").write_text(signed(directory, secrets, second, ["take best"]))
    before = snapshot(directory)
    result = pbem("queue", directory, "--as", second, tmp_path / "m.yaml")
    assert result.code == 2 and "bad signature" in result.err and snapshot(directory) == before
    assert pbem("queue", directory, "--as", second, tmp_path / "q.yaml").code == 0
    assert engine.status(engine.open_game(directory), second)["queue"]["turns"] == [["take best"]]
    again = pbem("queue", directory, "--as", second, tmp_path / "q.yaml")
    assert again.code == 2 and "taken already" in again.err


# ---------------------------------------------------------------------------------------------- pbem queue

def test_pbem_queue_shows_replaces_and_cancels(pbem, tmp_path):
    directory, _, (first, second, _) = gold_fever(pbem, tmp_path)
    assert pbem("queue", directory, "--as", second).out == f"{second} has nothing queued.\n"
    assert pbem("queue", directory, "--as", second, "--text", "take best; next; bid up to 3 else pass; standing "
                                                              "telegraph: pass").code == 0
    shown = pbem("queue", directory, "--as", second)
    assert shown.out == (f"{second}'s queue:\n  take best\n  next\n  bid up to 3 else pass\n  standing telegraph: "
                         f"pass\n")
    assert pbem("queue", directory, "--as", second, "--format", "json").json()["queue"]["standing"] == [
        "standing telegraph: pass"]
    status = pbem("status", directory, "--as", second).out
    assert "Your queue" in status and "bid up to 3 else pass" in status
    assert pbem("queue", directory, "--as", second, "--cancel").code == 0
    assert pbem("queue", directory, "--as", second).out == f"{second} has nothing queued.\n"


def test_a_queue_set_while_its_players_decision_waits_answers_it_at_once(pbem, tmp_path):
    directory, _, (first, second, _) = gold_fever(pbem, tmp_path)
    result = pbem("queue", directory, "--as", first, "--text", "standing auction: bid up to 2 else pass",
                  "--format", "json")
    assert result.code == 0 and result.json()["moves_played"][0]["moves"] == ["bid 1"]
    assert engine.status(engine.open_game(directory))["to_act"] == second


# ---------------------------------------------------------------------------------------------- declarations

@pytest.mark.parametrize("game", playable_games(), ids=lambda g: g.id)
def test_every_decision_and_move_of_a_game_is_declared_for_queues(game):
    vocab = plans.vocabulary(game)
    assert set(vocab.decisions) == set(game.meta["decisions"])
    assert set().union(*vocab.decisions.values()) == set(game.meta["notation"])
    for key in [*vocab.choices, *vocab.conditions, *vocab.disarm]:
        assert callable(getattr(game.conditions, key)), key
    for word, spec in vocab.standing.items():
        assert spec["decision"] in vocab.decisions and set(spec["disarm"]) <= set(vocab.disarm), word
    for key, spec in vocab.choices.items():
        assert spec["decision"] in vocab.decisions, key


@pytest.mark.parametrize("game", playable_games(), ids=lambda g: g.id)
def test_the_queue_words_are_no_players_name(game, pbem, tmp_path):
    players = ["else", *NAMES[:game.min_players - 1]]
    result = pbem("new", game.id, tmp_path / "g", *[arg for name in players for arg in ("--player", name)])
    assert result.code == 1 and "'else'" in result.err


def test_canonical_queue_text_reads_back_as_itself():
    game = registry.get("coal-baron")
    plan = plans.parse_plan(game, ["DRAFT o25 ELSE draft best if  alice money at least 3 and not domain money",
                                    "next", "standing round:  pass if domain money"], "alice", ["alice", "bob"])
    texts = [plan.now[0].text, "next", plans.standing_text("round", plan.standing["round"].text)]
    assert texts == ["draft o25 else draft best if alice money at least 3 and not domain money", "next",
                     "standing round: pass if domain money"]
    again = plans.parse_plan(game, texts, "alice", ["alice", "bob"])
    assert again.now[0].text == texts[0] and again.standing["round"].text == "pass if domain money"


@pytest.mark.slow
def test_the_round_trips_benchmark_plays_every_title_with_queues_the_referee_accepts():
    """benchmarks/roundtrips.py: the plans of its players are accepted by the referee and save answers."""
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "roundtrips.py"
    spec = importlib.util.spec_from_file_location("roundtrips", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    measured = [game for game in playable_games() if game.id in module.PLANS]  # (a plug-in game has no plan)
    assert {game.id for game in measured} == set(module.PLANS)
    for game in measured:
        queued, _, played, _ = module.play(game, "test-roundtrips", True)
        alone, _, _, _ = module.play(game, "test-roundtrips", False)
        assert played > 0 and sum(queued.values()) < sum(alone.values()), game.id
