"""A merge that brings another game's history into the game's repository: a seated player starts a game of their
own with `pbem git init` (same id, same players, their public keys) and pushes a merge of it whose tree is the
game's own. The referee refuses it; the players' tools follow the referee's signed chain back to the game's own
first commit, and `git config pbem.root` names it where a clone holds such a merge before the referee's answer."""
from __future__ import annotations

from pathlib import Path

from gitkit import git, plan
from pbem.store import yamlio
from pbem.git import layout

SEED = "other-histories-seed"


def first_turn(game):
    (turn,), _ = plan("coal-baron", game.names, SEED, game.dir.name, limit=1)
    return turn


def game_of_their_own(game, tmp_path: Path) -> tuple[Path, str]:
    """The attacker's own game: the same id and players, each seat's view encrypted to its real player's key;
    (its repository, its first commit)."""
    own = tmp_path / "own" / game.dir.name
    args = ["git", "init", "coal-baron", own, "--seed", "the attacker's", "--referee-dir", tmp_path / "own-referee"]
    for name in game.names:
        args += ["--player", name, "--key", f"{name}={game.keys[name]}.pub"]
    assert game.pbem(*args).code == 0
    return own, git(own, "rev-parse", "HEAD").strip()


def push_merge(game, attacker: str, own: Path, ours_first: bool = True) -> str:
    """A merge of the attacker's game into the game's branch, with the game's own tree: as `git merge -s ours
    --allow-unrelated-histories` makes it (the game's line first), or with the other game's line first."""
    clone = game.clones[attacker]
    game.pull(attacker)
    git(clone, "fetch", "--quiet", own, "main:other")
    parents = ["HEAD", "other"] if ours_first else ["other", "HEAD"]
    tree = git(clone, "rev-parse", "HEAD^{tree}").strip()
    merge = git(clone, "commit-tree", tree, "-p", parents[0], "-p", parents[1], "-m", "join our histories").strip()
    git(clone, "merge", "--quiet", "--ff-only", merge)
    git(clone, "push", "--quiet")
    return merge


def view(game, clone: Path, player: str):
    return game.pbem("git", "view", clone, "--as", player, "--identity", game.keys[player], "--format", "json")


def test_a_merge_of_another_games_history_is_refused_and_the_game_goes_on(club, tmp_path):
    game = club("coal-baron", 3, seed=SEED)
    number, player, moves = first_turn(game)
    attacker = next(name for name in game.names if name != player)
    genuine = view(game, game.dir, player).json()
    own, other_root = game_of_their_own(game, tmp_path)
    merge = push_merge(game, attacker, own)
    game.pull(player)  # the victim pulls the merge before the referee has judged it
    shown = view(game, game.clones[player], player)
    assert shown.code == 0, shown.err
    assert shown.json() == genuine and "another game" in shown.err and other_root[:10] in shown.err
    run = game.referee()
    verdicts = {c["commit"]: c for c in run["commits"]}
    assert verdicts[merge]["verdict"] == "refused" and "another history" in verdicts[merge]["reason"]
    assert verdicts[other_root]["verdict"] == "refused" and "first commit" in verdicts[other_root]["reason"]
    assert "accepted" not in [c["verdict"] for c in run["commits"]]
    assert git(game.dir, "rev-parse", "HEAD").strip() == run["commit"]
    assert yamlio.load_file(game.dir / layout.CONFIG) == yamlio.load_file(game.clones[player] / layout.CONFIG)
    # the victim, who pulled in between, moves; the referee applies it; a fresh clone verifies
    result = game.move(player, "; ".join(moves))
    assert result.code == 0, result.err
    assert [c["verdict"] for c in game.referee()["commits"]] == ["accepted"]
    assert yamlio.load_file(game.dir / "public.yaml")["move_number"] > number
    fresh = tmp_path / "fresh"
    git(tmp_path, "clone", "--quiet", game.remote, fresh)
    verified = game.pbem("git", "verify", fresh, "--format", "json")
    assert verified.code == 0, verified.err
    assert any("another game" in line and other_root[:10] in line for line in verified.json()["checks"])
    next_player = yamlio.load_file(fresh / "public.yaml")["to_act"]
    legal = game.pbem("git", "moves", fresh, "--as", next_player, "--identity", game.keys[next_player], "--format",
                      "json")
    assert legal.code == 0 and legal.json()["moves"], legal.err


def test_a_clone_holding_such_a_merge_with_the_other_game_first_is_told_and_pbem_root_names_its_game(club, tmp_path):
    game = club("coal-baron", 3, seed=SEED)
    _, player, _ = first_turn(game)
    attacker = next(name for name in game.names if name != player)
    genuine = view(game, game.dir, player).json()
    root = git(game.dir, "rev-list", "--max-parents=0", "HEAD").strip()
    own, other_root = game_of_their_own(game, tmp_path)
    push_merge(game, attacker, own, ours_first=False)
    victim = game.clones[player]
    game.pull(player)
    # before the referee's answer nothing in the history tells the two games apart: the clone is told so
    shown = view(game, victim, player)
    assert shown.code == 0 and "another game" in shown.err and "pbem.root" in shown.err
    git(victim, "config", "pbem.root", root)
    pinned = view(game, victim, player)
    assert pinned.code == 0 and pinned.json() == genuine and "another game" not in pinned.err
    # once the referee has refused the merge, its signed commit is the newest: pinned or not, the game is its own
    game.referee()
    game.pull(player)
    git(victim, "config", "--unset", "pbem.root")
    assert view(game, victim, player).json() == genuine
