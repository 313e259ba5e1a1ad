"""A game directory players can write to (play by git): planted transactions, symbolic links, huge integers,
corrupt files, readers during recovery, a verify that checks every public file. Whatever is in the directory,
every command exits 0, 1 or 2 with a message naming the file, writes only the files it chose inside the game
directory, and never through a link."""
from __future__ import annotations

import json
import os
import re
import shutil
import stat
import tempfile
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from support import NAMES, Pbem, default_game, legal_turn, run_pbem
from pbem.cli.commands import cli
from pbem.clock import correspondence
from pbem.contract import PbemError
from pbem.engine import engine
from pbem.play import movefile
from pbem.store import locks, registry, transactions, yamlio

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
FINISHED = EXAMPLES / "gold-fever" / "gf-3p"  # a finished game: its seed and full log are public


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    """A small game three moves in, with each player's secret (of the first game, or of PBEM_HOSTILE_GAME)."""
    game = registry.get(os.environ.get("PBEM_HOSTILE_GAME", default_game().id))
    directory = tmp_path_factory.mktemp("template") / "hostile"
    created = correspondence.create(game.id, directory, [(n, None) for n in NAMES[:game.min_players]], seed="hostile")
    for _ in range(3):
        player, text, _ = legal_turn(directory)
        engine.submit(engine.open_game(directory), player, [text], by="referee")
    return directory, {p["name"]: p["secret"] for p in created["players"]}


def lsnapshot(root: Path) -> dict[str, tuple]:
    """Everything below root without following a link: each file's bytes and mode, each link's target."""
    found = {}
    for folder, folders, files in os.walk(root):
        for name in folders + files:
            path = Path(folder) / name
            info = os.lstat(path)
            if stat.S_ISLNK(info.st_mode):
                found[str(path.relative_to(root))] = ("link", os.readlink(path))
            elif stat.S_ISDIR(info.st_mode):
                found[str(path.relative_to(root))] = ("folder", info.st_mode & 0o7777)
            else:
                found[str(path.relative_to(root))] = ("file", path.read_bytes(), info.st_mode & 0o7777)
    return found


class Arena:
    """A copy of the template game in games/<id>, beside an `outside` folder holding a secret file: whatever the
    game directory holds, nothing but that game directory may change."""

    def __init__(self, root: Path, template: Path):
        self.root = root
        self.game = root / "games" / template.name
        shutil.copytree(template, self.game, symlinks=True)
        self.outside = root / "outside"
        self.outside.mkdir()
        (self.outside / "target.txt").write_text("not the referee's\n")
        self.before = self.outside_snapshot()

    def outside_snapshot(self):
        mine = str(self.game.relative_to(self.root))
        return {k: v for k, v in lsnapshot(self.root).items() if k != mine and not k.startswith(mine + "/")}

    def untouched_outside(self) -> bool:
        return self.outside_snapshot() == self.before


@pytest.fixture
def arena(tmp_path, template):
    return Arena(tmp_path, template[0])


def commands(player: str, move: str) -> list[tuple[str, ...]]:
    return [("status",), ("status", "--as", player), ("log",), ("log", "--full"), ("moves",), ("verify",),
            ("move", "--as", player, "--text", move)]


def every_command_refuses(arena: Arena, player: str, move: str, expected: str, pbem=None) -> None:
    """Each command exits 2 naming what is wrong, and neither the game directory nor anything outside changes."""
    pbem = pbem or Pbem()
    before = lsnapshot(arena.game)
    for command in commands(player, move):
        with pytest.raises(PbemError, match=expected):
            run_in_process(pbem, arena.game, command)
    assert lsnapshot(arena.game) == before
    assert arena.untouched_outside()


def run_in_process(pbem, directory, command):
    """Run one command; raise its PbemError (so a test can match the message), return its output otherwise."""
    result = pbem.runner.invoke(cli, [command[0], str(directory), *map(str, command[1:])], standalone_mode=False,
                                catch_exceptions=True)
    if result.exception is not None:
        raise result.exception
    return result.stdout


# ------------------------------------------------------------------ 1. planted transaction bundles

def test_a_planted_bundle_naming_paths_outside_the_game_writes_nothing_and_is_refused(arena, template):
    planted = {"../../outside/x.txt": ["pwned", 0o666], str(arena.root / "absolute.txt"): ["pwned", 0o666]}
    (arena.game / transactions.TXN / transactions.COMMIT).write_text(json.dumps(planted))
    player, move, _ = legal_turn(template[0])
    every_command_refuses(arena, player, move, r"\.txn/COMMIT\.json: not a transaction written by this game's "
                                               r"referee")
    assert not (arena.root / "x.txt").exists() and not (arena.root / "absolute.txt").exists()


@pytest.mark.parametrize("kind", ["folder", "link"])
def test_a_folder_or_a_link_where_the_next_bundle_goes_is_refused_or_replaced(arena, template, kind):
    spare = arena.game / transactions.TXN / transactions.BUNDLE_TMP
    if spare.exists():
        spare.unlink()
    if kind == "folder":
        spare.mkdir()
    else:
        spare.symlink_to("../../../outside/target.txt")
    player, move, _ = legal_turn(template[0])
    result = Pbem()("move", arena.game, "--as", player, "--text", move)
    if kind == "folder":
        assert result.code == 2 and "bundle.tmp: a folder where pbem keeps its transaction files" in result.err
    else:
        assert result.code == 0 and not spare.is_symlink()
    assert arena.untouched_outside()


@pytest.mark.skipif(transactions._boot() is None, reason="the system gives no boot id")
def test_a_planted_bundle_of_another_boot_is_refused_by_every_command(arena, template):
    other = "APPLIED.00000000-0000-4000-8000-000000000000.json"
    (arena.game / transactions.TXN / other).write_bytes(b'pbem-txn/1 hmac-sha256:' + b"0" * 64 + b'\n{"public.yaml": "x"}')
    player, move, _ = legal_turn(template[0])
    every_command_refuses(arena, player, move, rf"hostile/\.txn/{re.escape(other)}: not a transaction")


@pytest.mark.parametrize("content", [b"", b'pbem-txn/1 hmac-sha256:' + b"0" * 64 + b'\n{"public.yaml": "x"}',
                                     b'{"public.yaml": ["x", 420', b"[1, 2]", b"\xff\xfe\x00"],
                         ids=["empty", "forged-mac", "truncated", "not-an-object", "not-utf8"])
def test_a_corrupt_or_forged_bundle_is_refused_by_every_command(arena, template, content):
    (arena.game / transactions.TXN / transactions.COMMIT).write_bytes(content)
    player, move, _ = legal_turn(template[0])
    every_command_refuses(arena, player, move, r"hostile/\.txn/COMMIT\.json: not a transaction")


@pytest.mark.parametrize("path", ["../outside/x.txt", "/tmp/pbem-absolute.txt", "views/mallory.yaml",
                                  "referee/txn.key", "moves/0001.yaml"])
def test_even_an_authentic_bundle_may_write_only_the_files_of_a_move(arena, template, path):
    """A bundle with the right key (the referee's own, say from a bug) still writes only the layout's paths."""
    gd = engine.open_game(arena.game)
    key = (arena.game / engine.TXN_KEY).read_bytes().strip()
    (arena.game / transactions.TXN / transactions.COMMIT).write_bytes(transactions._bundle_bytes(key, {path: "x", "public.yaml": "y"}))
    player, move, _ = legal_turn(template[0])
    every_command_refuses(arena, player, move, "names paths a move never writes")
    assert not Path("/tmp/pbem-absolute.txt").exists() and gd.layout.files.get(path) is None


# ------------------------------------------------------------------ 2. symbolic links

LINKED = {  # what is replaced by a link, and where the link points (relative to the game directory)
    ".txn": "../../outside", "referee": "../../outside", "views": "../../outside", "schemas": "../../outside",
    "public.yaml": "../../outside/target.txt", "log.yaml": "../../outside/target.txt",
    "referee/state.yaml": "../../../outside/target.txt", "views/{player}.yaml": "../referee/state.yaml",
    ".lock": "../../outside/target.txt", "game.yaml": "../../outside/target.txt",
}


@pytest.mark.parametrize("name", sorted(LINKED))
def test_a_symlinked_game_file_or_folder_is_refused_and_nothing_is_written_through_it(arena, template, name):
    player, move, _ = legal_turn(template[0])
    relative = name.format(player=player)
    victim = arena.game / relative
    if victim.is_dir():
        for child in victim.iterdir():  # the link's target gets the same names, so a followed link would write there
            if child.is_file():
                shutil.copy(child, arena.outside / child.name)
        shutil.rmtree(victim)
    elif victim.exists():
        victim.unlink()
    victim.symlink_to(LINKED[name])
    arena.before = arena.outside_snapshot()
    before = lsnapshot(arena.game)
    pbem = Pbem()
    refusing = ("verify",) if name == "schemas" else ("move", "--as", player, "--text", move)
    with pytest.raises(PbemError, match=f"{relative.rpartition('/')[2]}: is a symbolic link"):
        run_in_process(pbem, arena.game, refusing)
    for command in commands(player, move):
        try:
            run_in_process(pbem, arena.game, command)
        except PbemError as exc:
            assert exc.exit_code in (1, 2)
    if name != "schemas":  # a move (which writes no schema) was played there
        assert lsnapshot(arena.game) == before
    assert arena.untouched_outside()


@pytest.mark.parametrize("temp", ["views/.{player}.yaml.tmp", ".public.yaml.tmp", "referee/.state.yaml.tmp",
                                  "referee/.log.yaml.tmp"])
def test_a_link_at_a_temp_file_name_is_replaced_not_written_through(arena, template, temp):
    player, move, _ = legal_turn(template[0])
    link = arena.game / temp.format(player=player)
    link.symlink_to(Path("../" * temp.count("/")) / "../../outside/target.txt")
    real = link.with_name(link.name[1:].removesuffix(".tmp"))
    os.link(real, arena.game / "second-name")  # linked twice: replaced by a new file, written at the temp name
    assert Pbem()("move", arena.game, "--as", player, "--text", move).code == 0
    assert arena.untouched_outside()
    assert not link.is_symlink()
    assert real.read_bytes() != (arena.game / "second-name").read_bytes() and real.stat().st_nlink == 1


@pytest.mark.parametrize("relative", ["views/{player}.yaml", "public.yaml", "referee/state.yaml"])
def test_a_hard_link_at_a_file_name_is_replaced_not_written_through(arena, template, relative):
    player, move, _ = legal_turn(template[0])
    victim = arena.game / relative.format(player=player)
    victim.unlink()
    os.link(arena.outside / "target.txt", victim)  # a second name of a file outside the game
    assert Pbem()("move", arena.game, "--as", player, "--text", move).code in (0, 2)
    assert arena.untouched_outside()
    assert victim.stat().st_nlink == 1 or victim.read_text() == "not the referee's\n"


def test_a_move_rewrites_the_files_in_place_and_makes_no_new_file(arena, template):
    player, move, _ = legal_turn(template[0])
    Pbem()("move", arena.game, "--as", player, "--text", legal_turn(arena.game)[1])  # the bundle's file exists
    before = {path: path.stat().st_ino for path in arena.game.rglob("*") if path.is_file()}
    player, move, _ = legal_turn(arena.game)
    assert Pbem()("move", arena.game, "--as", player, "--text", move).code == 0
    after = {path: path.stat().st_ino for path in arena.game.rglob("*") if path.is_file()}
    moved = {path.name for path in set(after) - set(before)} | {path.name for path in set(before) - set(after)}
    assert moved <= {transactions.COMMIT, transactions.APPLIED, transactions.BUNDLE_TMP}
    assert sorted(after.values()) == sorted(before.values())


@pytest.mark.parametrize("umask", [0o000, 0o077])
def test_modes_are_set_whatever_the_umask(tmp_path, umask):
    game = default_game()
    directory = tmp_path / "club" / "g"
    old = os.umask(umask)
    try:
        correspondence.create(game.id, directory, [(n, None) for n in NAMES[:game.min_players]], seed="umask")
        player, move, _ = legal_turn(directory)
        engine.submit(engine.open_game(directory), player, [move], by="referee")
    finally:
        os.umask(old)
    modes = {k: v[-1] for k, v in lsnapshot(tmp_path).items() if v[0] != "link"}
    assert modes["club"] == modes["club/g"] == modes["club/g/views"] == modes["club/g/schemas"] == 0o755
    assert modes["club/g/referee"] == modes["club/g/.txn"] == 0o700
    for relative, mode in modes.items():
        inside = relative.removeprefix("club/g/")
        if inside.startswith(("referee/", "views/", ".txn/")):
            assert mode == 0o600, relative
        elif relative.endswith((".yaml", ".json")):
            assert mode == 0o644, relative


# ------------------------------------------------------------------ 3. integers

@pytest.mark.parametrize("text", ["n: " + "9" * 5000, "n: 1:" + "59:" * 2000 + "1", "n: 0x" + "f" * 5000,
                                  "n: " + "9" * 21])
def test_an_integer_longer_than_any_count_is_refused_before_python_converts_it(text):
    with pytest.raises(PbemError, match=r"f\.yaml: not valid YAML at line 1, column 4: an integer of \d+ characters"):
        yamlio.loads(text, "f.yaml")


def test_a_giant_move_number_is_refused_in_a_move_file_on_the_command_line_and_in_public_yaml(arena, template):
    directory, secrets = template
    player, move, _ = legal_turn(directory)
    giant = "9" * 5000
    moved = run_pbem("move", arena.game, "--as", player, "-",
                     input=f"game: hostile\nmove_number: {giant}\nplayer: {player}\nmoves:\n- {move}\n".encode())
    assert moved.returncode == 2 and b"an integer of 5000 characters" in moved.stderr
    option = Pbem()("move", arena.game, "--as", player, "--text", move, "--move-number", giant)
    assert option.code == 1
    public = arena.game / "public.yaml"
    text = public.read_text()
    number = yaml.safe_load(text)["move_number"]
    public.write_text(text.replace(f"\nmove_number: {number}\n", f"\nmove_number: {giant}\n", 1))
    # status reports the referee's state and names the broken file
    shown = run_pbem("status", arena.game)
    assert shown.returncode == 0 and b"public.yaml: not valid YAML" in shown.stderr
    public.write_text(text.replace(f"\nmove_number: {number}\n", "\nmove_number: 99999999999\n", 1))  # 11 digits
    bounded = Pbem()("status", arena.game)
    assert bounded.code == 0 and "public.yaml" in bounded.err and "$.move_number" in bounded.err
    shutil.rmtree(arena.game / "referee")  # a public copy has only its files: refused
    assert Pbem()("status", arena.game).code == 2


# ------------------------------------------------------------------ 4. readers during recovery

class Killed(Exception):
    """Stands for SIGKILL after the commit point, in the middle of putting the files in place."""


def test_readers_never_see_a_mix_after_a_writer_was_killed_past_its_commit_point(arena, monkeypatch):
    pbem = Pbem()
    player, move, number = legal_turn(arena.game)
    real_apply = transactions._apply

    def killed_halfway(root, directory, files, layout, sync):
        real_apply(root, directory, {k: v for k, v in files.items() if k.startswith("views/")}, layout, sync)
        raise Killed
    monkeypatch.setattr(transactions, "_apply", killed_halfway)
    with pytest.raises(Killed):
        engine.submit(engine.open_game(arena.game), player, [move], by="referee")
    monkeypatch.setattr(transactions, "_apply", real_apply)
    assert (arena.game / transactions.TXN / transactions.COMMIT).exists()
    assert yaml.safe_load((arena.game / "public.yaml").read_text())["move_number"] == number  # on disk: a mix
    (arena.game / locks.LOCK).unlink()
    before = lsnapshot(arena.game)
    assert pbem("status", arena.game, "--format", "json").json()["move_number"] == number + 1
    for viewer in engine.open_game(arena.game).players:
        assert pbem("status", arena.game, "--as", viewer, "--format", "json").json()["move_number"] == number + 1
    assert len(pbem("log", arena.game, "--format", "json").json()["entries"]) == number
    assert pbem("moves", arena.game, "--format", "json").json()["move_number"] == number + 1
    assert pbem("verify", arena.game).code == 0
    assert lsnapshot(arena.game) == before  # readers wrote nothing, not even a lock file
    engine.settle(engine.open_game(arena.game))  # what a transport publishing the files calls first
    assert not (arena.game / transactions.TXN / transactions.COMMIT).exists()
    assert yaml.safe_load((arena.game / "public.yaml").read_text())["move_number"] == number + 1
    nxt, nxt_move, _ = next_turn_through_the_bundle(arena.game)
    assert pbem("move", arena.game, "--as", nxt, "--text", nxt_move, "--move-number", number + 1).code == 0
    assert pbem("verify", arena.game).code == 0


def next_turn_through_the_bundle(directory):
    """Who acts next and a legal move, as `pbem moves` shows them."""
    data = Pbem()("moves", directory, "--format", "json").json()
    return data["to_act"], data["moves"][0], data["move_number"]


def test_read_only_commands_leave_no_file_behind(arena, template):
    (arena.game / locks.LOCK).unlink()
    before = lsnapshot(arena.game)
    player, _, _ = legal_turn(template[0])
    pbem = Pbem()
    for command in (("status",), ("status", "--as", player), ("log",), ("log", "--full"), ("moves",),
                    ("verify",)):
        assert pbem(command[0], arena.game, *command[1:]).code == 0, command
    assert lsnapshot(arena.game) == before


# ------------------------------------------------------------------ 5. mail

def test_an_encoded_cr_lf_in_the_from_name_is_answered_without_adding_a_header(tmp_path):
    from pbem.mail import parse
    game = default_game()
    root = tmp_path / "games"
    correspondence.create(game.id, root / "g1", [(n, f"{n}@club.example") for n in NAMES[:game.min_players]], seed="m",
                          organiser="referee@club.example")
    raw = (b"From: =?utf-8?q?Mal=0D=0ABcc=3A_x=40y?= <m@evil.example>\r\nTo: referee@club.example\r\n"
           b"Subject: [g1] status\r\nMessage-ID: <crlf@evil.example>\r\n\r\nstatus\r\n")
    incoming = parse.parse_message(raw)
    assert incoming.sender == "m@evil.example" and incoming.refusal is None
    outbox = tmp_path / "out"
    for folder in ("new", "cur", "tmp"):
        (outbox / folder).mkdir(parents=True)
    result = run_pbem("mail", "receive", "--games", root, "--outbox", outbox, input=raw)
    assert result.returncode == 0, result.stderr
    sent = [p.read_bytes() for p in (outbox / "new").iterdir()]
    assert len(sent) == 1 and b"\nBcc:" not in sent[0] and b"m@evil.example" in sent[0]


@pytest.mark.parametrize("args,message", [
    (["--organiser", "ref@club.example\nBcc: all@example.org"], "--organiser .* is not an email address"),
    (["--player", "dave:dave@example.org>, eve@example.org"], "player dave: .* is not an email address"),
    (["--seed", "s" * 5000], "--seed: 1 to 200 characters, not 5000"),
])
def test_command_line_values_that_cannot_be_stored_are_usage_errors(tmp_path, args, message):
    game = default_game()
    players = sum((["--player", name] for name in NAMES[1:game.min_players]), [])
    result = Pbem().runner.invoke(cli, ["new", game.id, str(tmp_path / "g"), "--player", "alice", *players, *args],
                                  standalone_mode=False)
    assert isinstance(result.exception, PbemError) and result.exception.exit_code == 1
    assert re.search(message, str(result.exception)) and not (tmp_path / "g").exists()


# ------------------------------------------------------------------ 6. corrupt files

CORRUPT = {
    "referee/state.sha256": (b"\xff\xfe", "changed outside pbem"),
    "referee/log.yaml": (b"\xff\xfe", r"referee/log\.yaml: not UTF-8"),
    "game.yaml": (None, r"game\.yaml: unknown game type \['a', 'b'\]"),
    "referee/txn.key": (b"not a key\n", r"txn\.key: damaged"),
}


@pytest.mark.parametrize("relative", sorted(CORRUPT))
def test_a_corrupt_referee_or_game_file_is_a_clear_refusal(arena, template, relative):
    content, message = CORRUPT[relative]
    path = arena.game / relative
    if content is None:
        content = path.read_bytes().replace(b"\ngame: ", b"\ngame: [a, b]\nwas: ")
    path.write_bytes(content)
    player, move, _ = legal_turn(template[0])
    before = lsnapshot(arena.game)
    with pytest.raises(PbemError, match=message):
        run_in_process(Pbem(), arena.game, ("move", "--as", player, "--text", move))
    assert lsnapshot(arena.game) == before


def test_a_public_log_that_is_not_utf8_is_refused_by_readers_and_rewritten_by_the_next_move(arena, template):
    (arena.game / "log.yaml").write_bytes(b"\xff\xfe garbage")
    pbem = Pbem()
    with pytest.raises(PbemError, match=r"hostile/log\.yaml: not UTF-8"):
        run_in_process(pbem, arena.game, ("log",))
    assert pbem("verify", arena.game).code == 2
    player, move, _ = legal_turn(template[0])
    assert pbem("move", arena.game, "--as", player, "--text", move).code == 0
    assert pbem("verify", arena.game).code == 0  # the referee wrote the public log again from its own


# ------------------------------------------------------------------ 7. verify checks every public file

def _edit(path: Path, change) -> None:
    lines = path.read_text().splitlines(keepends=True)
    data = yaml.safe_load("".join(lines))
    change(data)
    path.write_text(lines[0] + yaml.safe_dump(data, sort_keys=False))


def _first_chance(log: dict) -> dict:
    for entry in log["entries"] or []:
        if entry["chance"]:
            return entry["chance"][0]
    return log["setup_chance"][0]


PUBLIC_EDITS = {
    "a move": ("log.yaml", lambda d: d["entries"][0].update(moves=["resign"]), r"log\.yaml \$\.entries\[0\]\.moves"),
    "a chance outcome": ("log.yaml", lambda d: _first_chance(d).update(result="loaded"), r"log\.yaml \$\."),
    "an entry dropped": ("log.yaml", lambda d: d["entries"].pop(), r"log\.yaml \$\.entries"),
    "game.yaml options": ("game.yaml", lambda d: d["options"].update(extra="on"),
                          r"game\.yaml \$\.options\.extra: not in referee/log\.yaml's record"),
    "game.yaml players": ("game.yaml", lambda d: d["players"].reverse(), r"game\.yaml \$\.players\[0\]: stored"),
    "game.yaml id": ("game.yaml", lambda d: d.update(id="other"), "belongs to another game"),
    "a view": ("views/{player}.yaml", lambda d: d.update(move_number=99), r"views/\w+\.yaml \$\.move_number"),
}


@pytest.mark.parametrize("edit", sorted(PUBLIC_EDITS))
def test_verify_names_an_edit_of_any_public_file(arena, template, edit):
    relative, change, message = PUBLIC_EDITS[edit]
    player, _, _ = legal_turn(template[0])
    _edit(arena.game / relative.format(player=player), change)
    with pytest.raises(PbemError, match=message):
        run_in_process(Pbem(), arena.game, ("verify",))


def test_verify_names_every_difference_not_only_the_first(arena):
    _edit(arena.game / "public.yaml", lambda d: d.update(move_number=77))
    _edit(arena.game / "log.yaml", lambda d: d.update(visibility="referee"))
    with pytest.raises(PbemError) as caught:
        run_in_process(Pbem(), arena.game, ("verify",))
    assert "public.yaml $.move_number" in str(caught.value) and "log.yaml $.visibility" in str(caught.value)


def test_verify_names_an_edited_schema_without_failing(arena):
    schema = arena.game / "schemas" / "move.schema.json"
    schema.write_text(schema.read_text().replace('"minItems": 1', '"minItems": 0'))
    result = Pbem()("verify", arena.game, "--format", "json")
    assert result.code == 0
    assert result.json()["notes"] == ["schemas/move.schema.json: differs from this pbem's schema (another pbem "
                                      "version wrote it, or it was edited)"]


def test_after_the_end_a_player_verifies_from_their_own_files(tmp_path):
    full = tmp_path / "full"
    shutil.copytree(FINISHED, full)
    player = engine.open_game(full).players[1]
    pbem = Pbem()
    result = pbem("verify", full, "--as", player, "--format", "json")
    assert result.code == 0, result.err
    assert result.json()["checked"] == ["game.yaml", "components.yaml", "public.yaml", f"views/{player}.yaml",
                                        "log.yaml"]
    held = tmp_path / "held"  # only the public files and this player's view
    shutil.copytree(FINISHED, held, ignore=shutil.ignore_patterns("referee", "moves"))
    for view in (held / "views").iterdir():
        if view.name != f"{player}.yaml":
            view.unlink()
    assert pbem("verify", held).code == 0
    assert pbem("verify", held, "--as", player).code == 0
    (held / "views" / f"{player}.yaml").unlink()
    with pytest.raises(PbemError, match=rf"views/{player}\.yaml: missing"):
        run_in_process(pbem, held, ("verify", "--as", player))


def test_a_player_cannot_verify_before_the_seed_is_revealed(arena, template):
    player, _, _ = legal_turn(template[0])
    with pytest.raises(PbemError, match="not over"):
        run_in_process(Pbem(), arena.game, ("verify", "--as", player))


# ------------------------------------------------------------------ 8. smaller

def test_a_key_given_twice_is_refused_not_last_wins(arena, template):
    directory, secrets = template
    player, move, number = legal_turn(directory)
    doc = movefile.build("hostile", number, player, [move], secrets[player])
    text = movefile.dumps(doc) + "moves:\n- resign\n"
    result = run_pbem("move", arena.game, "--as", player, "-", input=text.encode())
    assert result.returncode == 2 and b"the key 'moves' is given twice" in result.stderr


def test_a_referee_text_move_carries_its_move_number_and_a_stale_one_is_refused(arena, template):
    player, move, number = legal_turn(template[0])
    pbem = Pbem()
    before = lsnapshot(arena.game)
    with pytest.raises(PbemError, match=f"stale move: it answers move {number - 1}"):
        run_in_process(pbem, arena.game, ("move", "--as", player, "--text", move, "--move-number", number - 1))
    assert lsnapshot(arena.game) == before
    assert pbem("move", arena.game, "--as", player, "--text", move, "--move-number", number).code == 0


def test_error_messages_name_the_directory_given_not_the_game_id(tmp_path, template):
    renamed = tmp_path / "games" / "v8"
    shutil.copytree(template[0], renamed)
    player, _, _ = legal_turn(template[0])
    (renamed / "views" / f"{player}.yaml").write_text("format: [broken\n")
    noted = Pbem()("status", renamed, "--as", player)  # reported from the referee's state, the file named
    assert noted.code == 0 and f"{renamed}/views/{player}.yaml: not valid YAML" in noted.err
    shutil.rmtree(renamed / "referee")
    with pytest.raises(PbemError, match=f"{renamed}/views/{player}.yaml: not valid YAML"):
        run_in_process(Pbem(), renamed, ("status", "--as", player))


# ------------------------------------------------------------------ the mutation test

# Default: a few seconds. An attack run sets PBEM_MUTATION_EXAMPLES (thousands) and skips shrinking, which can
# take longer than the run itself on these examples.
MUTATION_EXAMPLES = int(os.environ.get("PBEM_MUTATION_EXAMPLES", "25"))
MUTATION_PHASES = tuple(Phase) if "PBEM_MUTATION_EXAMPLES" not in os.environ else tuple(
    phase for phase in Phase if phase is not Phase.shrink)


def _game_files(directory: Path) -> list[str]:
    """The regular files, in real folders (a link made by an earlier mutation is not written through)."""
    return sorted(relative for relative, entry in lsnapshot(directory).items() if entry[0] == "file")


VALUES = (st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12)
          | st.lists(st.integers() | st.text(max_size=5), max_size=3) | st.dictionaries(st.text(max_size=5),
                                                                                   st.integers(), max_size=2))
KINDS = ["value", "value", "value", "bytes", "truncate", "link-file", "link-folder", "folder", "delete"]


def _replace_a_value(data, draw):
    """Replace one value of the document by an arbitrary one: the document itself, a top-level field (the
    envelope the engine reads) or something deeper."""
    depth = draw(st.sampled_from([0, 1, 1, 1, 2, 3]))
    path, node = [], data
    while len(path) < depth and isinstance(node, (dict, list)) and node:
        key = draw(st.sampled_from(sorted(node) if isinstance(node, dict) else list(range(len(node)))))
        path.append(key)
        node = node[key]
    if not path:
        return draw(VALUES)
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = draw(VALUES)
    return data


def _mutate(directory: Path, outside: Path, draw) -> None:
    """One file of the game (each kind of file as likely as any other) changed in one way."""
    files = _game_files(directory)
    roles = sorted({f if "/" not in f or f.startswith("referee/") else f.split("/")[0] for f in files}
                   | {".txn/COMMIT.json"})
    role = draw(st.sampled_from(roles))
    relative = draw(st.sampled_from([f for f in files if f.startswith(role + "/")] or [role]))
    path = directory / relative
    kind = draw(st.sampled_from(KINDS))
    if path.is_symlink():  # made by the mutation before: never written through by the test itself
        path.unlink()
    elif path.is_dir():
        shutil.rmtree(path)
    if kind == "value" and path.suffix == ".yaml" and path.exists():
        try:
            data = yaml.safe_load(path.read_text())
        except (yaml.YAMLError, UnicodeDecodeError):
            data = None
        path.write_text(yaml.safe_dump(_replace_a_value(data, draw)))
    elif kind in ("bytes", "value"):
        path.write_bytes(draw(st.binary(max_size=200)))
    elif kind == "truncate" and path.exists():
        content = path.read_bytes()
        path.write_bytes(content[:draw(st.integers(0, max(0, len(content) - 1)))])
    elif kind in ("link-file", "link-folder", "folder"):
        if path.exists():
            path.unlink()
        if kind == "folder":
            path.mkdir()
        else:
            path.symlink_to(outside / "target.txt" if kind == "link-file" else outside)
    elif path.exists():
        path.unlink()


@given(data=st.data())
@settings(max_examples=MUTATION_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck),
          phases=MUTATION_PHASES)
def test_any_mutation_of_any_game_file_gives_exit_0_1_or_2_and_writes_nothing_outside(template, data):
    directory, secrets = template
    player, move, number = legal_turn(directory)
    signed = movefile.dumps(movefile.build("hostile", number, player, [move], secrets[player])).encode()
    with tempfile.TemporaryDirectory() as scratch:
        arena = Arena(Path(scratch), directory)
        for _ in range(data.draw(st.integers(1, 2))):
            _mutate(arena.game, arena.outside, data.draw)
        pbem = Pbem()  # any exception that is not a refusal (exit 1 or 2) fails the test with its traceback
        for command in commands(player, move) + [("move", "--as", player, "-")]:
            result = pbem(command[0], arena.game, *command[1:], input=signed)
            assert result.code in (0, 1, 2), command
        assert arena.untouched_outside()
