"""The server's gate (docs/git.md's pre-receive hook): what the referee would refuse for its shape never lands on
the server, so it is in nobody's clone; players' moves and the referee's own pushes go through."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gitkit import git, plan
from pbem.git import layout

SEED = "gate-seed"
GUIDE = Path(__file__).resolve().parents[2] / "docs" / "git.md"


@pytest.fixture
def gated(club, monkeypatch):
    """A club whose bare remote has the guide's pre-receive hook and settings."""
    game = club("coal-baron", 3, seed=SEED)
    blocks = [piece.split("```")[0] for piece in GUIDE.read_text().split("```sh\n")[1:]]
    hook = next(block for block in blocks if block.startswith("#!/bin/sh") and "pre-receive" in block)
    path = game.remote / "hooks" / "pre-receive"
    path.write_text(hook)
    path.chmod(0o755)
    monkeypatch.setenv("PATH", str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"])
    return game


def push(clone: Path, *args) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-C", str(clone), "push", "--quiet", *args], capture_output=True, text=True)


def commit(game, name: str, relative: str, data: bytes) -> str:
    return game.commit_file(name, relative, data, push=False)


def test_the_gate_turns_away_what_the_referee_would_refuse_and_keeps_it_out_of_clones(gated, tmp_path):
    game = gated
    alice = game.clones["alice"]
    big = commit(game, "alice", "moves/0001-alice.yaml.age", b"x" * 300_000)
    blob = git(alice, "rev-parse", f"{big}:moves/0001-alice.yaml.age").strip()
    refused = push(alice)
    assert refused.returncode != 0 and "push refused" in refused.stderr and "too large" in refused.stderr
    git(alice, "reset", "--quiet", "--hard", "origin/main")
    assert subprocess.run(["git", "-C", str(game.remote), "cat-file", "-e", blob]).returncode != 0
    commit(game, "alice", "public.yaml", b"move_number: 99\n")
    assert "only add one move file" in push(alice).stderr
    git(alice, "reset", "--quiet", "--hard", "origin/main")
    git(alice, "checkout", "--quiet", "--orphan", "other")
    git(alice, "commit", "--quiet", "-m", "another history")
    git(alice, "checkout", "--quiet", "main")
    git(alice, "merge", "--quiet", "--allow-unrelated-histories", "-m", "join", "other")
    assert "first commit" in push(alice).stderr
    git(alice, "reset", "--quiet", "--hard", "origin/main")
    assert "one game" in push(alice, "origin", "other").stderr
    for index in range(51):
        git(alice, "commit", "--quiet", "--allow-empty", "-m", f"spam {index}")
    assert "51 new commits" in push(alice).stderr
    git(alice, "reset", "--quiet", "--hard", "origin/main")
    assert "cannot be deleted" in push(alice, "origin", ":main").stderr
    # honest moves, and the referee's pushes (its signed commits, its joins), go through
    submissions, _ = plan("coal-baron", game.names, SEED, game.dir.name, limit=3)
    game.play(submissions, referee_every=2)
    clone = tmp_path / "fresh"
    git(tmp_path, "clone", "--quiet", game.remote, clone)
    assert game.pbem("git", "verify", clone).code == 0
    assert "notes" not in git(clone, "log", "--all", "--format=%s") and "spam" not in git(clone, "log", "--all")
    assert (clone / layout.REFUSED).read_text().count("commit:") == 0
    # a force-push is turned away too
    git(alice, "pull", "--quiet", "--rebase")
    git(alice, "reset", "--quiet", "--hard", "HEAD~1")
    git(alice, "commit", "--quiet", "--allow-empty", "-m", "rewrite")
    assert "force-push" in push(alice, "--force").stderr
