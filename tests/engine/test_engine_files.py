"""Never lose a game: hostile input changes nothing, a killed process leaves a valid game, concurrent
submissions apply exactly one move."""
from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from support import default_game, legal_turn, run_pbem, snapshot
from pbem import bots
from pbem.clock import correspondence
from pbem.contract import PbemError
from pbem.engine import engine
from pbem.play import movefile
from pbem.store import locks, safefiles, transactions, yamlio

FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))


def next_move_unchecked(directory, state_text: bytes):
    """A legal move in the untampered state (so a refusal can only come from the tampering)."""
    gd = engine.open_game(directory)
    env = yamlio.loads(state_text)
    player = gd.game.rules.pending(env["state"])["player"]
    return player, gd.game.format_move(bots.first_legal(gd.game.rules.legal_moves(env["state"], player))), 0


@pytest.fixture(scope="module")
def fuzz_game(tmp_path_factory):
    from support import NAMES as names
    game = default_game()
    directory = tmp_path_factory.mktemp("fuzz") / "fuzzed"
    created = correspondence.create(game.id, directory, [(n, None) for n in names[:game.min_players]], seed="fuzz")
    return directory, {p["name"]: p["secret"] for p in created["players"]}


# ------------------------------------------------------------------ hostile YAML

@pytest.mark.parametrize("text,message", [
    ("a: &x [1, 2]\nb: *x\n", "aliases"),
    ("!!python/object:os.system {}\n", "not valid YAML"),
    ("[" * 5000 + "]" * 5000, "nest"),
    ("key: [unclosed\n", "not valid YAML"),
    ("when: 2024-01-01\n", "date"),
    ("? [1, 2]\n: value\n", "unhashable key"),
    ("1: one\n", "keys must be text"),
])
def test_hostile_yaml_is_refused_with_a_clear_message(text, message):
    with pytest.raises(PbemError) as caught:
        yamlio.loads(text, "input.yaml")
    assert message in str(caught.value)


def test_billion_laughs_is_refused_before_it_expands():
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [*a{i-1}, *a{i-1}, *a{i-1}, *a{i-1}, *a{i-1}]" for i in range(1, 30)]
    with pytest.raises(PbemError, match="aliases"):
        yamlio.loads("\n".join(lines) + "\n")


def test_oversized_and_binary_files_are_refused():
    with pytest.raises(PbemError, match="too large"):
        yamlio.loads("a: " + "x" * (yamlio.MAX_BYTES + 1))
    with pytest.raises(PbemError, match="UTF-8"):
        yamlio.loads(b"\xff\xfe\x00binary")
    with pytest.raises(PbemError, match="too large"):
        movefile.parse("moves: [" + "a, " * 40000 + "]")


# ------------------------------------------------------------------ fuzzed move files

valid_keys = ["game", "move_number", "player", "moves", "signature"]
json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=30),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                       max_size=4), max_leaves=12)


def _mutations(draw_doc):
    return st.one_of(
        st.binary(max_size=300).map(lambda b: b),
        st.text(max_size=300).map(lambda t: t.encode("utf-8", "surrogatepass")),
        st.dictionaries(st.sampled_from(valid_keys + ["extra"]), json_values, max_size=6).map(
            lambda d: yaml.safe_dump(d).encode()),
    )


@given(data=st.data())
@FUZZ
def test_fuzzed_move_files_exit_2_and_leave_the_game_byte_identical(fuzz_game, data, tmp_path_factory):
    from support import Pbem
    directory, secrets = fuzz_game
    player, text, number = legal_turn(directory)
    good = movefile.build(directory.name, number, player, [text], secrets[player])
    choice = data.draw(st.sampled_from(["random", "field"]))
    if choice == "random":
        content = data.draw(_mutations(good))
    else:
        key = data.draw(st.sampled_from(valid_keys))
        doc = dict(good)
        doc[key] = data.draw(json_values)
        if doc == good or (key == "moves" and isinstance(doc[key], list) and doc[key] == good["moves"]):
            return
        content = yaml.safe_dump(doc).encode()
    before = snapshot(directory)
    result = Pbem()("move", directory, "--as", player, "-", input=content)
    assert result.code == 2, (content[:200], result.out)
    assert snapshot(directory) == before


@given(value=json_values, where=st.sampled_from(["state", "move_number", "seed", "players", "resigned", "recent",
                                                  "format"]))
@FUZZ
def test_fuzzed_state_files_exit_2_and_are_left_as_they_are(fuzz_game, value, where):
    from support import Pbem
    directory, _ = fuzz_game
    path = directory / "referee" / "state.yaml"
    original = path.read_bytes()
    data = yaml.safe_load(original)
    if data.get(where) == value:
        return
    data[where] = value
    tampered = yaml.safe_dump(data).encode()
    path.write_bytes(tampered)
    try:
        player, text, _ = next_move_unchecked(directory, original)
        pbem = Pbem()
        before = snapshot(directory)
        # Whatever the edit, every command that reads the state refuses it.
        assert pbem("verify", directory).code == 2
        assert pbem("move", directory, "--as", player, "--text", text).code == 2
        assert pbem("moves", directory).code == 2
        assert pbem("status", directory, "--as", player).code == 0  # the player's view file is untouched
        assert snapshot(directory) == before
    finally:
        path.write_bytes(original)


# ------------------------------------------------------------------ crashes and races

def test_an_uncommitted_transaction_is_thrown_away(fuzz_game):
    directory, _ = fuzz_game
    before = snapshot(directory)
    (directory / transactions.TXN).mkdir(exist_ok=True)
    (directory / transactions.TXN / "bundle.tmp").write_text('{"referee/state.yaml": ["half wri')
    with locks.locked(directory, engine.open_game(directory).layout):
        pass
    game_files = lambda files: {k: v for k, v in files.items() if not k.startswith(transactions.TXN)}  # noqa: E731
    assert game_files(snapshot(directory)) == game_files(before)  # never applied (its inode is the next bundle's)


class Killed(Exception):
    """Stands for SIGKILL in the middle of applying a committed bundle."""


def test_a_committed_transaction_is_finished_by_the_next_command(tmp_path, monkeypatch):
    layout = transactions.Layout({"a.yaml": 0o644, "b.yaml": 0o644, "views/c.yaml": 0o600}, {"views": 0o755},
                                 "referee/txn.key")
    (tmp_path / "a.yaml").write_text("old a")
    real_apply = transactions._apply

    def killed_after_b(root, directory, files, layout, sync):
        real_apply(root, directory, {"b.yaml": files["b.yaml"]}, layout, sync)  # b was written before the crash, a and c not
        raise Killed
    monkeypatch.setattr(transactions, "_apply", killed_after_b)
    with pytest.raises(Killed), locks.locked(tmp_path, layout):
        transactions.commit(tmp_path, {"a.yaml": ("new a", 0o644), "b.yaml": ("new b", 0o644),
                                       "views/c.yaml": ("new c", 0o600)}, layout)
    monkeypatch.setattr(transactions, "_apply", real_apply)
    assert (tmp_path / "a.yaml").read_text() == "old a" and (tmp_path / transactions.TXN / transactions.COMMIT).exists()
    with locks.locked(tmp_path, layout):
        pass
    assert (tmp_path / "a.yaml").read_text() == "new a" and (tmp_path / "b.yaml").read_text() == "new b"
    assert (tmp_path / "views" / "c.yaml").read_text() == "new c"
    assert (tmp_path / "views" / "c.yaml").stat().st_mode & 0o777 == 0o600
    assert not (tmp_path / transactions.TXN / transactions.COMMIT).exists()
    (tmp_path / "a.yaml").write_text("later a")
    with locks.locked(tmp_path, layout):  # an applied bundle is not applied again
        pass
    assert (tmp_path / "a.yaml").read_text() == "later a"


def small_game(tmp_path, moves: int = 1):
    from support import NAMES
    game = default_game()
    directory = tmp_path / "g"
    correspondence.create(game.id, directory, [(n, None) for n in NAMES[:game.min_players]], seed="boot")
    for _ in range(moves):
        player, text, _ = legal_turn(directory)
        engine.submit(engine.open_game(directory), player, [text], by="referee")
    return directory


needs_boot_id = pytest.mark.skipif(transactions._boot() is None, reason="the system gives no boot id")


@needs_boot_id
def test_a_move_applied_before_the_machine_stopped_is_applied_again_in_the_next_boot(tmp_path):
    directory = small_game(tmp_path)
    gd = engine.open_game(directory)
    shown = engine.status(gd, gd.players[0])
    good = snapshot(directory)
    applied = directory / transactions.TXN / f"APPLIED.{transactions._boot()}.json"
    assert applied.exists()
    # the machine stopped: the files were not fsynced, the bundle was (and it names an earlier boot now)
    applied.rename(directory / transactions.TXN / "APPLIED.00000000-0000-4000-8000-000000000000.json")
    for relative in ("referee/state.yaml", "referee/state.json", f"views/{gd.players[0]}.yaml", "public.yaml",
                     "referee/secrets.yaml"):  # the last one written before that move, and carried in its bundle
        (directory / relative).write_bytes(good[relative][:len(good[relative]) // 2])
    # readers read through the bundle
    assert engine.status(engine.open_game(directory), gd.players[0]) == shown
    assert run_pbem("verify", directory).returncode == 0
    # the next writer puts its files back
    engine.settle(engine.open_game(directory))
    restored = snapshot(directory)
    assert {k: v for k, v in restored.items() if not k.startswith(".txn")} == \
        {k: v for k, v in good.items() if not k.startswith(".txn")}
    assert applied.name in os.listdir(directory / transactions.TXN)
    assert set(os.listdir(directory / transactions.TXN)) <= {applied.name, transactions.BUNDLE_TMP}


def fsynced_by_a_move(directory, monkeypatch) -> list[str]:
    """The paths fsynced, in order, while one legal move is played in `directory`."""
    synced = []
    real_fsync = os.fsync

    def recording(fd):
        synced.append(os.readlink(f"/proc/self/fd/{fd}"))
        real_fsync(fd)
    monkeypatch.setattr(os, "fsync", recording)
    player, text, _ = legal_turn(directory)
    engine.submit(engine.open_game(directory), player, [text], by="referee")
    monkeypatch.setattr(os, "fsync", real_fsync)
    return synced


@needs_boot_id
def test_a_move_fsyncs_only_its_bundle_which_carries_every_file_not_yet_on_disk(tmp_path, monkeypatch):
    directory = small_game(tmp_path)
    synced = fsynced_by_a_move(directory, monkeypatch)
    assert synced == [str(directory / transactions.TXN / transactions.BUNDLE_TMP), str(directory / transactions.TXN)]
    gd = engine.open_game(directory)
    bundle = (directory / transactions.TXN / f"APPLIED.{transactions._boot()}.json").read_bytes().partition(b"\n")[2]
    present = {relative for relative in gd.layout.files if (directory / relative).exists()}
    assert set(json.loads(bundle)) == present - gd.layout.fixed  # the secrets too, which no move writes
    assert gd.layout.fixed and all((directory / relative).exists() for relative in gd.layout.fixed)


@needs_boot_id
def test_a_new_games_first_move_writes_its_bundle_over_the_spare_its_creation_left(tmp_path, monkeypatch):
    directory = small_game(tmp_path, moves=0)
    txn = directory / transactions.TXN
    applied, spare = txn / f"APPLIED.{transactions._boot()}.json", txn / transactions.BUNDLE_TMP
    made = spare.stat()
    assert made.st_size == applied.stat().st_size  # as large as the creation's bundle, schemas and all
    synced = fsynced_by_a_move(directory, monkeypatch)
    assert synced == [str(spare), str(txn)]
    assert applied.stat().st_ino == made.st_ino  # the first move's bundle is the spare's inode: no new file
    assert applied.stat().st_size < made.st_size and sorted(os.listdir(txn)) == [applied.name, spare.name]


def test_a_file_rewritten_in_place_is_cut_only_when_it_was_longer(tmp_path, monkeypatch):
    cut = []
    real_ftruncate = os.ftruncate
    monkeypatch.setattr(os, "ftruncate", lambda fd, size: (cut.append(size), real_ftruncate(fd, size)))
    folder = safefiles.open_root(tmp_path)
    try:
        for old, new in ((b"a longer old text\n", b"short\n"), (b"short\n", b"a longer new text\n"),
                         (b"same size\n", b"equal len\n")):
            (tmp_path / "f.txt").write_bytes(old)
            os.close(safefiles.rewrite(folder, "f.txt", new, 0o644))
            assert (tmp_path / "f.txt").read_bytes() == new
    finally:
        os.close(folder)
    assert cut == [len(b"short\n")]  # never to the size the file has already


def test_without_a_boot_id_each_file_is_fsynced_before_the_bundle_is_marked_applied(tmp_path, monkeypatch):
    monkeypatch.setattr(transactions, "_BOOT", "")  # as where the system gives none
    directory = small_game(tmp_path)
    synced = fsynced_by_a_move(directory, monkeypatch)
    assert {str(directory / "referee" / "state.yaml"), str(directory / "public.yaml")} <= set(synced)
    assert sorted(os.listdir(directory / transactions.TXN)) == [transactions.APPLIED, transactions.BUNDLE_TMP]


def test_before_write_is_told_the_move_number_of_an_accepted_turn_and_can_stop_it(tmp_path):
    directory = small_game(tmp_path, moves=0)
    gd = engine.open_game(directory)
    player, text, number = legal_turn(directory)
    told = []
    with pytest.raises(PbemError):
        engine.submit(gd, player, ["not a move at all"], by="referee", before_write=told.append)
    assert told == []  # a refused turn is never announced

    def refuses(move_number):
        told.append(move_number)
        raise PbemError("the transport cannot record it")
    before = snapshot(directory)
    with pytest.raises(PbemError, match="cannot record"):
        engine.submit(gd, player, [text], by="referee", before_write=refuses)
    assert told == [number] and snapshot(directory) == before  # nothing written
    engine.submit(gd, player, [text], by="referee", before_write=told.append)
    assert told == [number, number] and engine.load_state(gd)["move_number"] > number


PLAYER_LOOP = """
import sys
from pbem import bots
from pbem.engine import engine
gd = engine.open_game(sys.argv[1])
engine.settle(gd)  # the move a killed writer committed is put in place before this writer reads the state
while True:
    env = engine.load_state(gd)
    pending = gd.game.rules.pending(env["state"])
    if pending is None:
        break
    move = bots.first_legal(gd.game.rules.legal_moves(env["state"], pending["player"]))
    engine.submit(gd, pending["player"], [gd.game.format_move(move)], by="referee")
    print(env["move_number"], flush=True)
"""


def test_a_process_killed_with_sigkill_mid_write_leaves_a_valid_game(tmp_path):
    from support import NAMES
    game = default_game()
    directory = tmp_path / "killed"
    correspondence.create(game.id, directory, [(n, None) for n in NAMES[:game.min_players]], seed="kill")
    rnd = random.Random(7)
    for _ in range(12):
        # started outside the checkout: `python -c` puts its folder first on sys.path, and the checkout's pbem/ is
        # not the installed package
        process = subprocess.Popen([sys.executable, "-c", PLAYER_LOOP, str(directory)], stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, cwd=tmp_path)
        started = process.stdout.readline()  # wait until it is really moving
        assert started, process.communicate()[1].decode()
        time.sleep(rnd.uniform(0.0, 0.15))
        process.send_signal(signal.SIGKILL)
        process.wait()
        process.stdout.close()
        process.stderr.close()
        result = run_pbem("verify", directory)
        assert result.returncode == 0, result.stderr.decode()
        # read as a reader does (through a bundle the killed writer committed but did not put in place)
        if engine.status(engine.open_game(directory))["finished"]:
            break


def test_two_processes_submitting_at_once_apply_exactly_one_move(tmp_path):
    from support import NAMES
    game = default_game()
    for attempt in range(3):
        directory = tmp_path / f"race-{attempt}"
        created = correspondence.create(game.id, directory, [(n, None) for n in NAMES[:game.min_players]], seed=f"r{attempt}")
        secrets = {p["name"]: p["secret"] for p in created["players"]}
        player, text, number = legal_turn(directory)
        path = tmp_path / f"move-{attempt}.yaml"
        path.write_text(movefile.dumps(movefile.build(directory.name, number, player, [text], secrets[player])))
        exe = os.path.join(os.path.dirname(sys.executable), "pbem")
        racers = [subprocess.Popen([exe, "move", str(directory), "--as", player, str(path)],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(2)]
        codes = sorted(p.wait() for p in racers)
        for p in racers:
            p.stdout.close()
            p.stderr.close()
        assert codes == [0, 2]
        log = engine.read_log(engine.open_game(directory), full=True)
        assert len(log["entries"]) == 1
        assert run_pbem("verify", directory).returncode == 0
