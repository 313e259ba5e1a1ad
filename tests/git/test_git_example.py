"""The example git-played game (examples/git/club-game.bundle) clones and verifies: a whole 3-player game, its
positions equal the replay from the revealed seed, every move signed (HMAC files and SSH-signed commits)."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from gitkit import git
from pbem.store import yamlio
from support import Pbem

REPO = Path(__file__).resolve().parents[2]
BUNDLE = REPO / "examples" / "git" / "club-game.bundle"


def test_the_example_git_game_clones_and_verifies(tmp_path):
    clone = tmp_path / "club-game"
    git(tmp_path, "clone", "--quiet", BUNDLE, clone)
    result = Pbem()("git", "verify", clone, "--format", "json")
    assert result.code == 0, result.err
    report = result.json()
    assert report["finished"] and report["moves"] > 50
    signatures = next(line for line in report["checks"] if line.startswith("signatures"))
    assert "checked once the game is over" not in signatures and not signatures.startswith("signatures: 0 SSH")
    public = yamlio.load_file(clone / "public.yaml")
    assert public["finished"] and len(public["ranking"]) == 3
    assert len(list((clone / "moves").iterdir())) == report["moves"]
    assert not (clone / "referee").exists() and not list(clone.glob("views/*.yaml"))


def test_the_commands_the_examples_readme_gives_run_as_written(tmp_path, git_home):
    # a git that names no default branch (clones then take the one the bundle's HEAD names, or none at all)
    (git_home / ".gitconfig").write_text("[user]\n\tname = Reader\n\temail = reader@example.org\n")
    example = tmp_path / "example"
    example.mkdir()
    for name in ("README.md", "club-game.bundle"):
        shutil.copy(BUNDLE.with_name(name), example / name)
    block = re.search(r"```sh\n(.*?)```", (example / "README.md").read_text(), re.S).group(1)
    assert "git clone club-game.bundle club-game" in block and "pbem git verify ." in block
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(["bash", "-eu", "-c", block], cwd=example, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "remote HEAD refers to nonexistent ref" not in done.stderr
    assert "club-game: verified." in done.stdout
    assert git(example / "club-game", "symbolic-ref", "HEAD").strip() == "refs/heads/main"
    assert "pbem: new game club-game" in git(example / "club-game", "log", "--format=%s")


def test_the_docs_make_bare_repositories_with_main_as_their_branch():
    texts = [*REPO.glob("*.md"), *REPO.glob("docs/*.md"), *REPO.glob("examples/**/*.md"),
             *REPO.glob("examples/**/*.py"), *REPO.glob("examples/**/*.sh")]
    found = [line for path in texts for line in path.read_text().splitlines() if "init" in line and "--bare" in line]
    assert found and all("-b main" in line or '"-b", "main"' in line for line in found), found
