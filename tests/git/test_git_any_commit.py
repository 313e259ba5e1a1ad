"""Any commit at all, from anyone with push access, leaves the game able to go on: random commits (random trees,
sizes, names, merges, modes, links, forged trailers) pushed at a game, then the referee runs (and must not fail),
then the player to act moves honestly and the referee applies it, every time.

By default a few examples; the `slow` run (pytest -m slow) throws many more."""
from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gitkit import git
from pbem.engine import engine
from pbem.git import layout
from pbem.store import yamlio
from support import legal_turn

NAMES = st.sampled_from([
    "moves/0001-alice.yaml", "moves/0001-alice.yaml.age", "moves/0001-alice.yaml\n", "moves/0002-bob.yaml",
    "moves/1-alice.yaml", "moves/0001-zed.yaml", "moves/0001-ALICE.yaml", "moves/sub/0001-alice.yaml", "moves",
    "public.yaml", "log.yaml", "game.yaml", "views/alice.yaml.age", "views/bob.yaml", layout.CONFIG,
    layout.REFUSED, layout.REVEALED, layout.ARCHIVE, layout.WORKFLOW, ".gitattributes", layout.PRE_COMMIT,
    "schemas/x.json", "referee/state.yaml", ".txn/COMMIT.json", " ", "-", "a b", "é/ü.yaml", "\t", "x" * 250,
    "moves/" + "9" * 12,
]) | st.text(st.characters(exclude_characters="/\0", exclude_categories=("Cs",)), min_size=1, max_size=30).map(
    lambda name: st_choice_prefix(name))
MODES = st.sampled_from(["100644", "100644", "100644", "100755", "120000", "160000", "delete"])
SIZES = st.sampled_from([0, 1, 100, 4096, 70_000, 140_000, 300_000])


def st_choice_prefix(name: str) -> str:
    return f"moves/{name}" if len(name) % 2 else name


@st.composite
def trees(draw):
    """A few changes to a tree: (path, mode, content) with content b"", random bytes, a large blob, or a signed
    move file (the right move, or one for the wrong number or player); mode `delete` removes the path."""
    changes = []
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(["bytes", "sized", "move", "move", "yaml"]))
        if kind == "bytes":
            content = draw(st.binary(max_size=200))
        elif kind == "sized":
            content = b"y" * draw(SIZES)
        elif kind == "yaml":
            content = draw(st.sampled_from([b"a: &x [1]\nb: *x\n", b"- 1\n" * 50, b"game: club-game\n",
                                            b"{{{{", b"\xff\xfe", b"1" * 100 + b"\n"]))
        else:
            content = b"MOVE"  # replaced by a signed move file when the commit is built
        changes.append((draw(NAMES), draw(MODES), content))
    return changes


COMMITS = st.fixed_dictionaries({
    "kind": st.sampled_from(["plain", "plain", "merge", "octopus", "unrelated", "empty"]),
    "changes": trees(),
    "side": trees(),
    "message": st.sampled_from(["hostile", "", "pbem: move 1\n\nPbem-Game: club-game\nPbem-Move: 9\n"
                                "Pbem-Previous: none", "x\n\nPbem-Game: club-game\nPbem-Move: 2\nPbem-Previous: "
                                + "a" * 40]) | st.text(max_size=80),
    "author": st.sampled_from(["Mallory <m@evil.example>", "pbem referee <referee@pbem.invalid>", "é <>",
                               "x" * 300 + " <y@z>"]),
})

EXAMPLES = int(os.environ.get("PBEM_GIT_ANY_COMMIT_EXAMPLES", "4"))


class Arena:
    """A fresh copy of a club's game, and a clone of its remote for the stranger who pushes."""

    def __init__(self, template, scratch: Path):
        self.game = template.copy_to(scratch / "club")
        git(self.game.remote, "config", "receive.denyNonFastForwards", "true")  # as docs/git.md has it
        self.mallory = scratch / "mallory"
        git(scratch, "clone", "--quiet", self.game.remote, self.mallory)

    def run(self, *args, input: bytes | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
        return subprocess.run(["git", "-C", str(self.mallory), *args], input=input, capture_output=True,
                              env={**os.environ, **(env or {})})

    def out(self, *args, **kwargs) -> str:
        done = self.run(*args, **kwargs)
        assert done.returncode == 0, done.stderr.decode()
        return done.stdout.decode().strip()

    def blob(self, data: bytes) -> str:
        return self.out("hash-object", "-w", "--stdin", input=data)

    def signed_move(self, path: str) -> bytes:
        """A move file signed with its player's secret: the legal move now when the name is the one due."""
        player, move, number = legal_turn(self.game.game_dir())
        named = layout.move_name(path.rstrip("\n"))
        who = named.group("player") if named and named.group("player") in self.game.secrets else player
        text = self.game.signed_move_text(who, number, [move], secret_of=who)
        return text.encode()

    def tree(self, base: str | None, changes) -> str:
        """`base`'s tree with the changes made (those git refuses, a `.git` name say, are left out)."""
        with tempfile.TemporaryDirectory() as tmp:
            env = {"GIT_INDEX_FILE": str(Path(tmp) / "index")}
            self.out("read-tree", *([base] if base else ["--empty"]), env=env)
            for path, mode, content in changes:
                if mode == "delete":
                    line = f"0 {'0' * 40}\t{path}\0"
                elif mode == "160000":
                    line = f"160000 {'ab' * 20}\t{path}\0"
                else:
                    data = self.signed_move(path) if content == b"MOVE" else content
                    line = f"{mode} {self.blob(data)}\t{path}\0"
                self.run("update-index", "-z", "--index-info", input=line.encode(), env=env)
            return self.out("write-tree", env=env)

    def commit(self, tree: str, parents: list[str], message: str, author: str) -> str:
        name, _, mail = author.partition(" <")
        env = {"GIT_AUTHOR_NAME": name or "x", "GIT_AUTHOR_EMAIL": mail.rstrip(">"),
               "GIT_COMMITTER_NAME": "Mallory", "GIT_COMMITTER_EMAIL": "m@evil.example"}
        args = ["commit-tree", tree]
        for parent in parents:
            args += ["-p", parent]
        message = message.replace("\0", "") or "(no message)"  # git refuses a NUL in a message
        return self.out(*args, input=message.encode(), env=env)

    def push(self, spec: dict) -> None:
        self.out("pull", "--quiet", "--ff-only")
        head = self.out("rev-parse", "HEAD")
        tree = self.tree(head, spec["changes"])
        message, author = spec["message"], spec["author"]
        if spec["kind"] == "plain":
            commit = self.commit(tree, [head], message, author)
        elif spec["kind"] == "empty":
            commit = self.commit(self.out("rev-parse", "HEAD^{tree}"), [head], message, author)
        elif spec["kind"] == "unrelated":
            orphan = self.commit(self.tree(None, spec["side"]), [], message, author)
            commit = self.commit(tree, [head, orphan], "join another history", author)
        else:  # a merge of a side branch from the first commit (or two of them), with a tree of its own
            root = self.out("rev-list", "--max-parents=0", "HEAD").split()[0]
            sides = [self.commit(self.tree(root, spec["side"]), [root], message, author)
                     for _ in range(1 if spec["kind"] == "merge" else 2)]
            commit = self.commit(tree, [head, *sides], message, author)
        self.out("update-ref", "refs/heads/main", commit)
        self.out("push", "--quiet", "origin", "main")


@pytest.fixture
def template(club_templates):
    """The club every example copies: made once per session, under the tests' own git configuration."""
    from gitkit import Club
    if "any-commit" not in club_templates:
        root = club_templates["root"] / "any-commit"
        root.mkdir()
        club_templates["any-commit"] = Club(root, "coal-baron", 3, seed="any-commit")
    return club_templates["any-commit"]


def referee_goes_on(arena: Arena, specs: list[dict]) -> None:
    game = arena.game
    for spec in specs:
        arena.push(spec)
    game.referee()  # exit 0 whatever was pushed (Club.referee asserts it)
    player, move, number = legal_turn(game.game_dir())
    result = game.move(player, move)
    assert result.code == 0, result.err
    run = game.referee()
    assert [c["verdict"] for c in run["commits"]] == ["accepted"], run
    assert engine.status(engine.open_game(game.game_dir()))["move_number"] > number
    log = yamlio.load_file(game.dir / "log.yaml")["entries"]
    assert any(e["number"] == number and e["player"] == player for e in log)


@given(specs=st.lists(COMMITS, min_size=1, max_size=3))
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_any_commits_pushed_leave_the_referee_able_to_apply_the_next_honest_move(template, specs):
    with tempfile.TemporaryDirectory() as scratch:
        referee_goes_on(Arena(template, Path(scratch)), specs)


@pytest.mark.slow
@given(specs=st.lists(COMMITS, min_size=1, max_size=5))
@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
def test_many_more_commits_pushed_leave_the_game_able_to_go_on(template, specs):
    with tempfile.TemporaryDirectory() as scratch:
        referee_goes_on(Arena(template, Path(scratch)), specs)


def test_a_push_of_many_junk_commits_keeps_refused_yaml_bounded_and_names_some_in_the_message(template, tmp_path):
    arena = Arena(template, tmp_path)
    game = arena.game
    first = []
    for batch in range(2):
        arena.out("pull", "--quiet", "--ff-only")
        stream = [f"reset refs/heads/main\nfrom {arena.out('rev-parse', 'HEAD')}\n"]
        for index in range(70):  # one git fast-import for all: 70 commits, each changing notes.txt
            text, message = f"{batch}-{index}\n", f"junk {batch}-{index}\n"
            stream.append(f"commit refs/heads/main\nmark :{index + 1}\nauthor Mallory <m@evil.example> 0 +0000\n"
                          f"committer Mallory <m@evil.example> 0 +0000\ndata {len(message)}\n{message}"
                          f"M 100644 inline notes.txt\ndata {len(text)}\n{text}\n")
        marks = Path(arena.mallory) / ".git" / "marks"
        arena.out("fast-import", "--quiet", f"--export-marks={marks}", input="".join(stream).encode())
        first += [line.split()[1] for line in sorted(marks.read_text().splitlines(),
                                                     key=lambda line: int(line.split()[0][1:]))]
        arena.out("push", "--quiet", "origin", "main")
        run = game.referee()
        assert [c["verdict"] for c in run["commits"]] == ["refused"] * 70
    refused = yamlio.load_file(game.dir / layout.REFUSED)
    assert [e["commit"] for e in refused["refused"]] == first[-100:]
    assert refused["earlier"]["count"] == 40
    listed = yamlio.loads(git(game.dir, "show", f"{refused['earlier']['in']}:{layout.REFUSED}"))["refused"]
    assert [e["commit"] for e in listed] == first[:70]  # the refereed commit before lists the ones rotated out
    message = git(game.dir, "log", "-1", "--format=%B")
    assert message.count("\nRefused ") == 21 and "50 more commits" in message
    assert all(e["author"] == "Mallory <m@evil.example>" for e in refused["refused"])
    player, move, number = legal_turn(game.game_dir())
    assert game.move(player, move).code == 0
    assert [c["verdict"] for c in game.referee()["commits"]] == ["accepted"]

