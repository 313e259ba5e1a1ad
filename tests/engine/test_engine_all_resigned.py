"""A game whose seats are all the referee's ends: every game played out by its resigned seats ends by its rules, and
past the cap (turns.ALL_RESIGNED_CAP moves once every seat has resigned) the referee ends it itself, with an `end of
game` entry whose reason status, the log, the answer to the move and the reports show; verify replays the ending
and refuses one the cap does not allow."""
from __future__ import annotations

import copy

import pytest

from pbem.engine import engine
from pbem.play import turns
from pbem.store import registry, yamlio
from support import NAMES, playable_games

GAMES = [game.id for game in playable_games()]
CAP = 2  # fewer moves than any game lasts once every seat has resigned, however short it is


def new(pbem, directory, game_id):
    game = registry.get(game_id)
    args = ["new", game_id, directory, "--seed", "alone", "--format", "json"]
    for name in NAMES[:game.min_players]:
        args += ["--player", name]
    assert pbem(*args).code == 0
    return NAMES[:game.min_players]


def resign_all(pbem, directory, names) -> dict:
    for name in names:
        result = pbem("move", directory, "--as", name, "--text", "resign", "--format", "json")
        assert result.code == 0, result.err
    return result.json()


def full_log(directory) -> dict:
    return yamlio.load_file(directory / "referee" / "log.yaml")


@pytest.mark.parametrize("game_id", GAMES)
def test_a_game_whose_every_seat_resigned_is_played_to_its_end_by_the_referee(pbem, tmp_path, game_id):
    directory = tmp_path / "g"
    answer = resign_all(pbem, directory, new(pbem, directory, game_id))
    status = engine.status(engine.open_game(directory))
    assert answer["finished"] and status["finished"] and "ended" not in status  # by its rules, far below the cap
    entries = full_log(directory)["entries"]
    assert 0 < len(entries) < turns.ALL_RESIGNED_CAP and all(entry["by"] == "referee" for entry in entries[2:])
    assert pbem("verify", directory).code == 0


@pytest.mark.parametrize("game_id", GAMES)
def test_past_the_cap_the_referee_ends_the_game_and_everyone_sees_why(pbem, tmp_path, game_id, monkeypatch):
    monkeypatch.setattr(turns, "ALL_RESIGNED_CAP", CAP)
    directory = tmp_path / "g"
    names = new(pbem, directory, game_id)
    answer = resign_all(pbem, directory, names)
    why = f"every seat resigned and {CAP} moves by the referee did not end the game: it ends here, ranked as it stands"
    assert answer["finished"] and answer["to_act"] is None and answer["ended"] == why
    entries = full_log(directory)["entries"]
    last_resignation = max(index for index, entry in enumerate(entries) if entry["moves"] == ["resign"])
    played = entries[last_resignation + 1:-1]
    assert sum(len(entry["moves"]) for entry in played) == CAP and all(e["reason"] == "resigned" for e in played)
    assert entries[-1] == {"number": len(entries), "player": entries[-1]["player"], "by": "referee",
                           "moves": ["end of game"], "chance": [], "reason": why}
    gd = engine.open_game(directory)
    for viewer in (None, *names):
        status = engine.status(gd, viewer)
        assert status["finished"] and status["ended"] == why and status["seed"] == "alone"
        assert [row["player"] for row in status["ranking"]] == names[::-1]  # the last to resign first
    assert yamlio.load_file(directory / "log.yaml")["entries"] == entries  # the whole log revealed, as at any end
    shown = " ".join(pbem("status", directory).out.split())  # read across the report's wrapped lines
    assert f"Game over: {why}. Final ranking:" in shown and "end of game" in shown
    assert pbem("status", directory, "--format", "json").json()["ended"] == why
    refused = pbem("move", directory, "--as", names[0], "--text", "resign")
    assert refused.code == 2 and "is over" in refused.err
    assert pbem("verify", directory).code == 0


def test_the_answer_to_the_last_resignation_says_the_game_ended_and_why(pbem, tmp_path, monkeypatch):
    monkeypatch.setattr(turns, "ALL_RESIGNED_CAP", CAP)
    directory = tmp_path / "g"
    names = new(pbem, directory, GAMES[0])
    pbem("move", directory, "--as", names[0], "--text", "resign")
    out = " ".join(pbem("move", directory, "--as", names[1], "--text", "resign").out.split())
    assert f"The game is over: every seat resigned and {CAP} moves by the referee did not end the game" in out


@pytest.fixture
def ended(pbem, tmp_path, monkeypatch):
    """A game the referee ended (cap CAP), its replay's inputs and its full log."""
    monkeypatch.setattr(turns, "ALL_RESIGNED_CAP", CAP)
    directory = tmp_path / "g"
    resign_all(pbem, directory, new(pbem, directory, GAMES[0]))
    gd = engine.open_game(directory)
    return gd, engine.load_state(gd)["seed"], yamlio.load_file(directory / "components.yaml"), full_log(directory)


def test_verify_refuses_an_ending_after_another_number_of_moves(ended, monkeypatch):
    gd, seed, components, log = ended
    monkeypatch.setattr(turns, "ALL_RESIGNED_CAP", CAP + 1)
    with pytest.raises(engine.PbemError, match=f"had played {CAP} moves since every seat resigned, not {CAP + 1}"):
        engine.replay(gd, seed, components, log)


def test_verify_refuses_an_ending_while_a_player_is_in(ended):
    gd, seed, components, log = ended
    forged = copy.deepcopy(log)
    first = forged["entries"].index(next(e for e in forged["entries"] if e["moves"] == ["resign"]))
    forged["entries"] = forged["entries"][:first + 1] + [dict(log["entries"][-1], number=first + 2)]
    with pytest.raises(engine.PbemError, match="the referee ended the game, but not every seat had resigned"):
        engine.replay(gd, seed, components, forged)


def test_verify_refuses_a_log_that_goes_on_after_the_ending(ended):
    gd, seed, components, log = ended
    forged = copy.deepcopy(log)
    forged["entries"].append({"number": len(log["entries"]) + 1, "player": log["entries"][-1]["player"],
                              "by": "referee", "moves": ["resign"], "chance": []})
    with pytest.raises(engine.PbemError, match="the log goes on after it"):
        engine.replay(gd, seed, components, forged)


def test_no_game_reads_the_referees_own_entries_as_a_move():
    """`resign`, `replace` and `end of game` are the engine's: a game whose notation read one would be replayed
    as the engine's entry."""
    for game_id in GAMES:
        game = registry.get(game_id)
        for word in turns.ADMIN_WORDS:
            with pytest.raises(Exception):
                game.parse_move(word)
