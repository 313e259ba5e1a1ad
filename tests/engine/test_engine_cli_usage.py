"""The command line's rough edges: counts, outputs, exit codes, names, help, completion."""
from __future__ import annotations

import os

import pytest

from support import NAMES, Pbem, default_game, legal_turn, playable_games, run_pbem
from pbem.contract import PbemError
from pbem.engine import engine
from pbem.store import registry



def players(count: int) -> list[str]:
    return sum((["--player", name] for name in NAMES[:count]), [])


@pytest.mark.parametrize("count", [0, -1, 9])
def test_demo_refuses_a_player_count_outside_the_games_range(pbem, count):
    game = default_game()
    result = pbem("demo", game.id, "--players", count)
    assert result.code == 1
    assert f"--players {count}: {game.title} is for {game.min_players} to {game.max_players} players" in result.err


def test_sign_writes_to_standard_output_with_o_dash(new_game, pbem, tmp_path, monkeypatch):
    directory, secrets = new_game()
    player, text, number = legal_turn(directory)
    monkeypatch.chdir(tmp_path)
    result = pbem("sign", "--secret", secrets[player], "--game", directory.name, "--move-number", number,
                  "--as", player, "--text", text, "-o", "-")
    assert result.code == 0 and result.out.startswith("# yaml-language-server") and "signature:" in result.out
    assert not (tmp_path / "-").exists()


def test_a_file_named_as_game_directory_is_answered_like_a_missing_one(tmp_path):
    afile = tmp_path / "notes.txt"
    afile.write_text("hello\n")
    for command in ("status", "moves", "log", "verify"):
        as_file, missing = run_pbem(command, afile), run_pbem(command, tmp_path / "nowhere")
        assert as_file.returncode == missing.returncode == 2, command
        assert as_file.stderr.replace(b"notes.txt", b"X") == missing.stderr.replace(b"nowhere", b"X"), command
        assert b"not a pbem game directory" in missing.stderr


def _misfit() -> tuple[registry.Game, str, int] | None:
    """An option value and a player count it does not fit (the game refuses it at setup), if any game has one."""
    from pbem.play import playout
    for game in playable_games():
        for key, spec in game.meta.get("options", {}).items():
            for value in spec["choices"]:
                for count in range(game.min_players, game.max_players + 1):
                    try:
                        playout.start(game, NAMES[:count], {key: value})
                    except PbemError:
                        return game, f"{key}={value}", count
    return None


def test_an_option_that_does_not_fit_the_player_count_is_a_usage_error(tmp_path):
    found = _misfit()
    if found is None:
        pytest.skip("no game has an option for some player counts only")
    game, option, count = found
    result = run_pbem("new", game.id, tmp_path / "g", "--option", option, *players(count))
    assert result.returncode == 1 and b"Traceback" not in result.stderr, result.stderr
    assert not (tmp_path / "g").exists()


def test_an_option_given_twice_is_refused(pbem, tmp_path):
    game = next((g for g in playable_games() if g.meta.get("options")), None)
    if game is None:
        pytest.skip("no game has options")
    key, spec = next(iter(game.meta["options"].items()))
    result = pbem("new", game.id, tmp_path / "g", "--option", f"{key}={spec['choices'][0]}",
                  "--option", f"{key}={spec['choices'][-1]}", *players(game.min_players))
    assert result.code == 1 and f"--option {key} is given twice" in result.err
    assert not (tmp_path / "g").exists()


def test_reserved_words_and_the_games_own_words_are_refused_as_player_names(pbem, tmp_path):
    game = default_game()
    words = sorted({part.literal for template in game.templates for part in template.parts if part.literal})
    for name in ["resign", "pass", "referee", words[0]]:
        result = pbem("new", game.id, tmp_path / "g", "--player", name, *players(game.min_players)[2:],
                      *(["--player", "zed"]))
        assert result.code == 1, name
        assert f"player name {name!r} is a word of" in result.err
    assert not (tmp_path / "g").exists()


def test_a_player_named_bot_is_refused_wherever_players_are_named_for_bot_names_the_referees_bots(pbem, tmp_path):
    """`bot` is how a seat's holder reads when the referee's bot holds it (secrets.yaml), and the word of `--bot`
    and of the `bot` timeout policy: `pbem new`, `pbem git init` and `pbem replace --by` refuse it as a player's
    name, and nothing is made or changed."""
    game = default_game()
    others = players(game.min_players)[2:]
    for command in (["new", game.id, tmp_path / "g"], ["git", "init", game.id, tmp_path / "g"]):
        result = pbem(*command, "--player", "bot:bot@club.example", *others)
        assert result.code == 1 and "player name 'bot' names the referee's bots" in result.err, result.err
        assert not (tmp_path / "g").exists()
    assert pbem("new", game.id, tmp_path / "h", *players(game.min_players)).code == 0
    before = {path: path.read_bytes() for path in (tmp_path / "h").rglob("*") if path.is_file()}
    result = pbem("replace", tmp_path / "h", "--seat", NAMES[0], "--by", "bot")
    assert result.code == 1 and "player name 'bot' names the referee's bots" in result.err, result.err
    assert {path: path.read_bytes() for path in (tmp_path / "h").rglob("*") if path.is_file()} == before


def test_help_names_the_sending_options_of_new_the_options_of_demo_and_player_metavars(pbem):
    new = pbem("new", "--help").out
    assert "--smtp-user USER" in new and "--starttls" in new and "--outbox" in new and "pbem mail --help" not in new
    demo = pbem("demo", "--help").out
    assert "--option KEY=VALUE" in demo and "A variant or option" in demo
    sign = pbem("sign", "--help").out
    assert "--as PLAYER" in sign and "--as TEXT" not in sign


def test_shell_completion_offers_game_directories_and_the_games_players(new_game, tmp_path, monkeypatch):
    directory, _ = new_game(name="spring-cup")
    (tmp_path / "not-a-game").mkdir()
    exe = os.path.join(os.path.dirname(os.sys.executable), "pbem")
    assert os.path.exists(exe)

    def complete(words: str) -> list[str]:
        env = {"_PBEM_COMPLETE": "bash_complete", "COMP_WORDS": words, "COMP_CWORD": str(len(words.split()) -
                                                                                            (not words.endswith(" ")))}
        result = run_pbem(env=env)
        return [line.split(",", 1)[1] for line in result.stdout.decode().splitlines()]

    monkeypatch.chdir(tmp_path)
    assert complete("pbem status sp") == ["spring-cup"]
    assert complete(f"pbem moves {tmp_path}/") == [str(directory)]
    assert complete("pbem status spring-cup --as ") == engine.open_game(directory).players
    assert complete("pbem status spring-cup --as b") == ["bob"]
    assert complete("pbem new coal") == [g for g in registry.installed() if g.startswith("coal")]


def test_the_readme_documents_completion_and_the_choices_of_moves_json():
    from pathlib import Path
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    assert "_PBEM_COMPLETE=bash_source" in readme and "game directories" in readme
    assert "`choices`" in readme


def test_the_runner_reports_the_message_the_console_script_prints():
    result = Pbem()("status", "/nonexistent/game")
    assert result.code == 2 and result.err.startswith("pbem: /nonexistent/game: not a pbem game directory")


def test_the_ci_script_runs_the_readmes_test_command_in_a_plain_shell_and_in_the_activated_environment():
    """No test may depend on how its runner was started: CI runs exactly the README's test command twice, the
    second time after `. .venv/bin/activate` (PATH and VIRTUAL_ENV set, as a user who activated it has them)."""
    from pathlib import Path
    top = Path(__file__).resolve().parents[2]
    readme = (top / "README.md").read_text()
    command = readme.split("Install and run the tests:\n\n```sh\n", 1)[1].split("\n", 1)[0]
    lines = [line for line in (top / ".ci" / "run").read_text().splitlines() if line and not line.startswith("#")]
    runs = [index for index, line in enumerate(lines) if line == command]
    activated = next(index for index, line in enumerate(lines) if ". .venv/bin/activate" in line)
    assert len(runs) == 2 and runs[0] < activated < runs[1]
