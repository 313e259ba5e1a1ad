"""Through the command line: a club's components refused with clear errors (nothing written), a game created
with its setup decisions pending, a submitted turn stopped at a freshly drawn card, `pbem moves` within 40 lines,
and `pbem demo` with options (a whole game with `pytest -m slow`)."""
from __future__ import annotations


import pytest

from pbem.clock import correspondence
from pbem.contract import PbemError
from pbem.engine import engine
from pbem.play import turns
from pbem.store import registry, yamlio

GAME = registry.get("heartland-hauling")


def new(pbem, directory, *extra, players=("alice", "bob", "carol")):
    args = ["new", GAME.id, directory, "--seed", "cli", "--format", "json", *extra]
    for name in players:
        args += ["--player", name]
    return pbem(*args)


def test_a_club_components_file_that_breaks_the_schema_is_refused_with_its_path(pbem, tmp_path):
    data = GAME.default_components()
    data["locations"][2]["demands"][0]["price"] = "five"
    (tmp_path / "ours.yaml").write_text(yamlio.dumps(data))
    result = new(pbem, tmp_path / "g", "--components", tmp_path / "ours.yaml")
    assert result.code == 2 and not (tmp_path / "g").exists()


def test_a_club_components_file_with_inconsistent_data_is_refused_with_every_problem(pbem, tmp_path):
    data = GAME.default_components()
    data["locations"][0]["native"] = "wheat"
    data["layouts"][4]["rows"] = ["#.#", "...", "#W#"]
    (tmp_path / "ours.yaml").write_text(yamlio.dumps(data))
    with pytest.raises(PbemError) as error:
        correspondence.create(GAME.id, tmp_path / "g", [("alice", None), ("bob", None), ("carol", None)],
                              components_path=tmp_path / "ours.yaml")
    assert "native good 'wheat' is not a good" in str(error.value)
    assert "layout standard for 3 players: the cards do not all connect" in str(error.value)
    assert new(pbem, tmp_path / "g", "--components", tmp_path / "ours.yaml").code == 2
    assert not (tmp_path / "g").exists()


def test_a_club_may_play_with_its_own_components(pbem, tmp_path):
    data = GAME.default_components()
    data["locations"][0]["name"] = "Eureka Springs"
    data["player_counts"][1]["money_goal"] = 35
    (tmp_path / "ours.yaml").write_text(yamlio.dumps(data))
    assert new(pbem, tmp_path / "g", "--components", tmp_path / "ours.yaml").code == 0
    status = pbem("status", tmp_path / "g", "--format", "json").json()
    assert status["view"]["money_goal"] == 35


def test_after_new_the_referee_asks_player_three_then_player_two_to_place_a_location(pbem, tmp_path):
    assert new(pbem, tmp_path / "g").code == 0
    moves = pbem("moves", tmp_path / "g", "--format", "json").json()
    assert moves["decision"]["decision"] == "place_location" and 0 < len(moves["moves"]) <= 40
    player = moves["to_act"]
    text = moves["moves"][0].replace("(any 1 of ", "").split()[:4]
    result = pbem("move", tmp_path / "g", "--as", player, "--text", " ".join(text))
    assert result.code == 0, result.err
    assert pbem("moves", tmp_path / "g", "--format", "json").json()["to_act"] != player
    assert engine.verify(engine.open_game(tmp_path / "g"))["result"] == "ok"


@pytest.mark.parametrize("slow", [False, pytest.param(True, marks=pytest.mark.slow)], ids=["40 moves", "whole"])
def test_pbem_demo_with_options_plays_and_verifies(pbem, tmp_path, slow):
    args = ["demo", GAME.id, "--players", "2", "--seed", "cli-demo", "--dir", tmp_path / "d",
            "--option", "truck-stops=on", "--option", "alternate-routes=on", "--option", "layout=alt-1"]
    result = pbem(*(args if slow else args + ["--moves", "40"]))
    assert result.code == 0, result.err
    assert "Verified:" in result.out
    assert engine.status(engine.open_game(tmp_path / "d"))["finished"] is bool(slow)


def test_when_every_player_has_resigned_the_referee_plays_the_game_out_with_the_greedy_bot(pbem, tmp_path):
    """The money goal is reached only by hauling: first legal moves would never end a table of resigned seats."""
    assert new(pbem, tmp_path / "g", players=("ann", "bob")).code == 0
    assert pbem("move", tmp_path / "g", "--as", "ann", "--text", "resign").code == 0
    assert not engine.status(engine.open_game(tmp_path / "g"))["finished"]
    assert pbem("move", tmp_path / "g", "--as", "bob", "--text", "resign").code == 0
    gd = engine.open_game(tmp_path / "g")
    assert engine.status(gd)["finished"] and engine.verify(gd)["result"] == "ok"


def test_a_greedy_play_out_that_does_not_reach_the_money_goal_within_the_cap_is_ended_by_the_referee(pbem, tmp_path,
                                                                                                     monkeypatch):
    monkeypatch.setattr(turns, "ALL_RESIGNED_CAP", 20)
    assert new(pbem, tmp_path / "g", players=("ann", "bob")).code == 0
    assert pbem("move", tmp_path / "g", "--as", "ann", "--text", "resign").code == 0
    assert pbem("move", tmp_path / "g", "--as", "bob", "--text", "resign").code == 0
    gd = engine.open_game(tmp_path / "g")
    status = engine.status(gd)
    assert status["finished"] and status["ended"].startswith("every seat resigned and 20 moves by the referee")
    assert engine.verify(gd)["result"] == "ok"
