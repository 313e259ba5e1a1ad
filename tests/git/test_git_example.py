"""The example git-played game (examples/git/club-game.bundle) clones and verifies: a whole 3-player game, its
positions equal the replay from the revealed seed, every move signed (HMAC files and SSH-signed commits)."""
from __future__ import annotations

from pathlib import Path

from gitkit import git
from pbem import yamlio
from support import Pbem

BUNDLE = Path(__file__).resolve().parents[2] / "examples" / "git" / "club-game.bundle"


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
