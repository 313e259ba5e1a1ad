"""The CLI contract on real game directories: names, flags, JSON fields, exit codes, trust and verify."""
from __future__ import annotations

import shutil

import pytest
import yaml

from support import NAMES, default_game, legal_turn, snapshot
from pbem.contract import PbemError
from pbem.engine import engine
from pbem.play import movefile, trust
from pbem.store import registry



def signed_file(tmp_path, directory, secrets, tamper=None, **overrides):
    player, text, number = legal_turn(directory)
    doc = movefile.build(directory.name, number, player, [text], secrets[player])
    doc.update(overrides)
    if tamper:
        tamper(doc)
    path = tmp_path / "move.yaml"
    path.write_text(movefile.dumps(doc))
    return path, player


def test_games_lists_every_registered_game_with_counts_and_options(pbem):
    result = pbem("games", "--format", "json")
    assert result.code == 0
    listed = {g["id"]: g for g in result.json()}
    assert set(listed) == set(registry.installed())
    for game in registry.all_games():
        assert listed[game.id]["players"] == {"min": game.min_players, "max": game.max_players}
        assert listed[game.id]["options"] == game.meta.get("options", {})
    text = pbem("games").out
    assert all(g.id in text for g in registry.all_games())


def test_new_prints_game_dir_and_players_with_secrets(pbem, tmp_path):
    game = default_game()
    args = ["new", game.id, tmp_path / "club-1", "--seed", "x", "--format", "json"]
    for name in NAMES[:game.min_players]:
        args += ["--player", f"{name}:{name}@example.org"]
    data = pbem(*args).json()
    assert data["game"] == "club-1" and data["dir"] == str(tmp_path / "club-1")
    assert [p["name"] for p in data["players"]] == NAMES[:game.min_players]
    assert all(p["email"] == f"{p['name']}@example.org" and len(p["secret"]) >= 16 for p in data["players"])


def test_status_and_moves_json_carry_the_contract_fields(new_game, pbem):
    directory, _ = new_game()
    status = pbem("status", directory, "--format", "json").json()
    assert {"game", "move_number", "to_act", "finished"} <= set(status)
    assert status["game"] == directory.name and status["move_number"] == 1 and status["finished"] is False
    moves = pbem("moves", directory, "--format", "json").json()
    assert {"game", "move_number", "to_act", "moves"} <= set(moves)
    assert moves["to_act"] == status["to_act"] and moves["moves"]


def test_every_yaml_file_written_starts_with_its_schema_line(new_game):
    directory, _ = new_game()
    for path in directory.rglob("*.yaml"):
        first = path.read_text().splitlines()[0]
        assert first.startswith("# yaml-language-server: $schema="), path
        schema = (path.parent / first.split("=", 1)[1]).resolve()
        assert schema.is_file(), f"{path}: {schema} missing"


def test_referee_files_are_private_and_public_files_hold_no_seed(new_game):
    directory, _ = new_game(seed="very-secret-seed")
    assert (directory / "referee").stat().st_mode & 0o077 == 0
    for path in (directory / "referee").iterdir():
        assert path.stat().st_mode & 0o077 == 0, path
    for path in directory.rglob("*.yaml"):
        if "referee" not in path.parts:
            assert "very-secret-seed" not in path.read_text(), path


def test_referee_text_move_is_applied_and_logged_as_referee(new_game, pbem):
    directory, _ = new_game()
    player, text, _ = legal_turn(directory)
    result = pbem("move", directory, "--as", player, "--text", text, "--format", "json")
    assert result.code == 0, result.err
    log = pbem("log", directory, "--format", "json").json()
    assert log["entries"][0]["by"] == "referee" and log["entries"][0]["player"] == player
    assert pbem("status", directory, "--format", "json").json()["move_number"] == 2


def test_signed_move_file_is_accepted(new_game, pbem, tmp_path):
    directory, secrets = new_game()
    path, player = signed_file(tmp_path, directory, secrets)
    result = pbem("move", directory, "--as", player, path)
    assert result.code == 0, result.err
    assert engine.read_log(engine.open_game(directory), full=True)["entries"][0]["signature"].startswith("hmac")


def test_signed_move_from_standard_input(new_game, pbem, tmp_path):
    directory, secrets = new_game()
    path, player = signed_file(tmp_path, directory, secrets)
    assert pbem("move", directory, "--as", player, "-", input=path.read_text()).code == 0


@pytest.mark.parametrize("case", ["forged", "unsigned", "other-secret", "stale", "future", "wrong-game",
                                  "wrong-player", "unknown-field", "not-a-move"])
def test_bad_move_files_are_refused_with_exit_2_and_nothing_changes(new_game, pbem, tmp_path, case):
    directory, secrets = new_game()
    before = snapshot(directory)
    tampers = {
        "forged": lambda d: d.update(signature="hmac-sha256:" + "0" * 64),
        "unsigned": lambda d: d.pop("signature"),
        "other-secret": lambda d: d.update(signature=trust.sign(
            secrets[next(n for n in secrets if n != d["player"])], d["game"], d["move_number"], d["player"],
            d["moves"])),
        "stale": lambda d: d.update(move_number=0),
        "future": lambda d: d.update(move_number=5),
        "wrong-game": lambda d: d.update(game="another-game"),
        "unknown-field": lambda d: d.update(comment="hi"),
        "not-a-move": lambda d: d.update(moves=["fly to the moon"]),
        "wrong-player": lambda d: None,
    }
    path, player = signed_file(tmp_path, directory, secrets, tamper=tampers[case])
    as_player = next(n for n in secrets if n != player) if case == "wrong-player" else player
    result = pbem("move", directory, "--as", as_player, path)
    assert result.code == 2, (case, result.out)
    assert snapshot(directory) == before


def test_a_repeated_move_file_is_refused_as_stale(new_game, pbem, tmp_path):
    directory, secrets = new_game()
    path, player = signed_file(tmp_path, directory, secrets)
    assert pbem("move", directory, "--as", player, path).code == 0
    before = snapshot(directory)
    again = pbem("move", directory, "--as", player, path)
    assert again.code == 2 and snapshot(directory) == before


def test_sign_writes_a_valid_signature_into_a_move_file(new_game, pbem, tmp_path):
    directory, secrets = new_game()
    player, text, number = legal_turn(directory)
    path = tmp_path / "mine.yaml"
    path.write_text(yaml.safe_dump({"game": directory.name, "move_number": number, "player": player,
                                    "moves": [text]}))
    assert pbem("sign", path, "--secret", secrets[player]).code == 0
    assert pbem("move", directory, "--as", player, path).code == 0


def test_sign_with_text_prints_a_complete_signed_move_file(new_game, pbem):
    directory, secrets = new_game()
    player, text, number = legal_turn(directory)
    out = pbem("sign", "--secret", secrets[player], "--game", directory.name, "--move-number", number,
               "--as", player, "--text", text).out
    assert out.startswith("# yaml-language-server: $schema=")
    assert pbem("move", directory, "--as", player, "-", input=out).code == 0


def test_illegal_move_says_what_is_legal(new_game, pbem):
    directory, _ = new_game()
    player, _, _ = legal_turn(directory)
    before = snapshot(directory)
    result = pbem("move", directory, "--as", player, "--text", "resign resign")
    assert result.code == 2 and snapshot(directory) == before


def test_move_by_a_player_not_to_act_is_refused(new_game, pbem):
    directory, _ = new_game()
    player, text, _ = legal_turn(directory)
    other = next(n for n in engine.open_game(directory).players if n != player)
    before = snapshot(directory)
    assert pbem("move", directory, "--as", other, "--text", text).code == 2
    assert snapshot(directory) == before


def test_verify_replays_a_game_in_progress(new_game, pbem):
    directory, _ = new_game()
    for _ in range(5):
        player, text, _ = legal_turn(directory)
        assert pbem("move", directory, "--as", player, "--text", text).code == 0
    result = pbem("verify", directory, "--format", "json")
    assert result.code == 0, result.err
    assert result.json()["moves"] == 5


def _edit_yaml(path, change):
    lines = path.read_text().splitlines(keepends=True)
    data = yaml.safe_load("".join(lines))
    change(data)
    path.write_text(lines[0] + yaml.safe_dump(data, sort_keys=False))


def _first_int_path(data, path=()):
    """The path of some integer inside the game state (a count, money, a score) to tamper with."""
    if isinstance(data, dict):
        items = data.items()
    elif isinstance(data, list):
        items = enumerate(data)
    else:
        return path if type(data) is int else None
    for key, value in items:
        found = _first_int_path(value, path + (key,))
        if found is not None:
            return found
    return None


def test_verify_catches_a_hand_edited_state_file(new_game, pbem):
    directory, _ = new_game()
    player, text, _ = legal_turn(directory)
    pbem("move", directory, "--as", player, "--text", text)

    def bump(data):
        where = _first_int_path(data["state"])
        target = data["state"]
        for key in where[:-1]:
            target = target[key]
        target[where[-1]] += 1
    _edit_yaml(directory / "referee" / "state.yaml", bump)
    result = pbem("verify", directory)
    assert result.code == 2


def test_a_hand_edited_state_is_refused_by_every_command_that_reads_it(new_game, pbem):
    directory, _ = new_game()
    player, text, _ = legal_turn(directory)
    _edit_yaml(directory / "referee" / "state.yaml", lambda d: d.update(recent=[]))  # harmless-looking, still an edit
    before = snapshot(directory)
    assert pbem("move", directory, "--as", player, "--text", text).code == 2
    assert pbem("moves", directory).code == 2
    with pytest.raises(PbemError, match="changed outside pbem"):
        engine.submit(engine.open_game(directory), player, [text], by="referee")
    assert snapshot(directory) == before


def test_verify_catches_a_hand_edited_public_file(new_game, pbem):
    directory, _ = new_game()
    _edit_yaml(directory / "public.yaml", lambda d: d.update(move_number=d["move_number"] + 3))
    assert pbem("verify", directory).code == 2


def test_verify_catches_a_changed_seed(new_game, pbem):
    directory, _ = new_game()
    _edit_yaml(directory / "referee" / "state.yaml", lambda d: d.update(seed="another"))
    assert pbem("verify", directory).code == 2


def test_unknown_option_and_missing_arguments_are_usage_errors(pbem, tmp_path):
    game = default_game()
    assert pbem("new", game.id, tmp_path / "x", "--player", "a", "--player", "b", "--option", "nope=1").code == 1
    assert pbem("new", "no-such-game", tmp_path / "y", "--player", "a").code == 1
    assert pbem("move").code == 1
    assert not (tmp_path / "x").exists()


def test_wrong_player_count_is_refused(pbem, tmp_path):
    game = default_game()
    result = pbem("new", game.id, tmp_path / "x", *sum((["--player", n] for n in NAMES[:game.max_players + 1]), []))
    assert result.code == 1 and not (tmp_path / "x").exists()


def test_a_club_components_file_is_validated(pbem, tmp_path):
    game = default_game()
    bad = tmp_path / "cards.yaml"
    bad.write_text("just: [a, list]\n")
    args = ["new", game.id, tmp_path / "x", "--components", bad]
    for name in NAMES[:game.min_players]:
        args += ["--player", name]
    assert pbem(*args).code == 2 and not (tmp_path / "x").exists()
    good = tmp_path / "own.yaml"
    good.write_text(game.data_file("components.yaml").read_text())
    args[args.index(bad)] = good
    assert pbem(*args).code == 0


def test_status_of_a_non_game_directory_is_a_clear_error(pbem, tmp_path):
    result = pbem("status", tmp_path)
    assert result.code == 2


def test_a_game_made_by_another_rules_version_is_refused(new_game, pbem):
    directory, _ = new_game()
    _edit_yaml(directory / "game.yaml", lambda d: d.update(rules_version=d["rules_version"] + 1))
    assert pbem("status", directory).code == 2


def test_resign_lets_the_referee_play_that_player_and_ranks_them_last(new_game, pbem):
    game = default_game()
    directory, _ = new_game(players=game.min_players)
    quitter = engine.open_game(directory).players[-1]
    assert pbem("move", directory, "--as", quitter, "--text", "resign").code == 0
    for _ in range(5000):
        status = pbem("status", directory, "--format", "json").json()
        if status["finished"]:
            break
        player, text, _ = legal_turn(directory)
        assert player != quitter
        assert pbem("move", directory, "--as", player, "--text", text).code == 0
    assert status["finished"]
    assert status["ranking"][-1]["player"] == quitter
    assert pbem("verify", directory).code == 0


def test_a_finished_game_verifies_from_its_public_files_alone(tmp_path, pbem):
    game = default_game()
    directory = tmp_path / "done"
    from pbem.cli import demo
    demo.run(game.id, None, "public-verify", {}, directory, 0, lambda *_: None)
    public = tmp_path / "public-copy"
    shutil.copytree(directory, public, ignore=shutil.ignore_patterns("referee"))
    result = pbem("verify", public, "--format", "json")
    assert result.code == 0, result.err
    assert result.json()["finished"] and result.json()["seed_checked"]


@pytest.mark.parametrize("content", [b"game: [unclosed\n", b"\x00\xff garbage", b"- just\n- a list\n",
                                     b"a: &x [1]\nb: *x\n"])
def test_the_installed_command_refuses_bad_files_with_exit_2_and_no_traceback(new_game, tmp_path, content):
    from support import run_pbem
    directory, _ = new_game()
    path = tmp_path / "bad.yaml"
    path.write_bytes(content)
    before = snapshot(directory)
    result = run_pbem("move", directory, "--as", "alice", path)
    assert result.returncode == 2
    assert result.stderr.startswith(b"pbem: ") and b"Traceback" not in result.stderr
    assert snapshot(directory) == before


def test_the_installed_command_exits_1_on_usage_errors_and_0_on_help(tmp_path):
    from support import run_pbem
    assert run_pbem("move", tmp_path).returncode == 1
    assert run_pbem("no-such-command").returncode == 1
    helped = run_pbem("--help")
    assert helped.returncode == 0 and b"demo" in helped.stdout


def test_the_console_script_skips_the_teardown_but_flushes_its_output_and_runs_what_waits_for_the_exit(tmp_path):
    """pbem.cli.console.run raises the collector's threshold and leaves by os._exit: a piped output must still arrive
    whole, the exit code be main's, and the functions registered to run at exit (a temporary folder's clean-up)
    still run."""
    import subprocess
    import sys
    script = ("import atexit, gc, sys, tempfile\n"
              "scratch = tempfile.TemporaryDirectory()  # cleaned up at exit by weakref.finalize\n"
              "atexit.register(lambda: sys.stderr.write(f'collector threshold {gc.get_threshold()[0]}\\n'))\n"
              "atexit.register(lambda: sys.stderr.write('exit functions ran ' + scratch.name + '\\n'))\n"
              "from pbem.cli.console import run\n"
              "sys.argv = ['pbem'] + sys.argv[1:]\n"
              "run()\n")
    listed = subprocess.run([sys.executable, "-c", script, "games"], capture_output=True, text=True, cwd=tmp_path,
                            timeout=120)
    assert listed.returncode == 0
    assert all(game.id in listed.stdout for game in registry.all_games())
    scratch = listed.stderr.split("exit functions ran ")[1].splitlines()[0]
    assert "collector threshold 100000" in listed.stderr  # raised for the command's short life (pbem.cli.console)
    assert not (tmp_path / scratch).exists()
    refused = subprocess.run([sys.executable, "-c", script, "status", str(tmp_path / "no-game")],
                             capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert refused.returncode == 2 and refused.stderr.startswith("pbem: ") and "exit functions ran" in refused.stderr


def test_the_console_scripts_move_takes_clicks_option_phrases_as_they_are_and_imports_no_locale(new_game, tmp_path):
    """pbem.cli.console takes Click's option phrases as they are rather than through gettext, whose first look-up
    imports `locale` (pbem ships no catalogue of Click's); `--help` says the same words."""
    import subprocess
    import sys
    directory, _ = new_game("coal-baron", 2)
    player, text, number = legal_turn(directory)
    script = ("import atexit, sys\n"
              "atexit.register(lambda: sys.stderr.write(f'locale imported: {\"locale\" in sys.modules}\\n'))\n"
              "from pbem.cli.console import run\n"
              "sys.argv = ['pbem'] + sys.argv[1:]\n"
              "run()\n")
    moved = subprocess.run([sys.executable, "-c", script, "move", str(directory), "--as", player, "--text", text,
                            "--move-number", str(number)], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert moved.returncode == 0, moved.stderr
    assert "locale imported: False" in moved.stderr
    helped = subprocess.run([sys.executable, "-c", script, "move", "--help"], capture_output=True, text=True,
                            cwd=tmp_path, timeout=120)
    assert helped.returncode == 0 and "Show this message and exit." in helped.stdout


def test_new_may_run_again_where_a_killed_new_left_only_its_lock_and_bundle(pbem, tmp_path):
    game = default_game()
    directory = tmp_path / "again"
    (directory / ".txn").mkdir(parents=True)
    (directory / ".txn" / "bundle.tmp").write_text("{")
    (directory / ".lock").write_text("")
    args = ["new", game.id, directory]
    for name in NAMES[:game.min_players]:
        args += ["--player", name]
    assert pbem(*args).code == 0
    assert pbem("verify", directory).code == 0
