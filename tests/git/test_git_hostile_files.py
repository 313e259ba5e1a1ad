"""Files that tell git to do things: a pushed `.gitmodules` (with a gitlink) and `.gitattributes` (filters, diff
and merge drivers, `ident`, `eol`, `working-tree-encoding`). The referee refuses the commit like any that is not
a move, and no git command pbem issues, the referee's or a player's tools', fails on them or runs anything: the
commands each would run are planted where git would look for them, and each would leave a marker file."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gitkit import git, plan
from pbem.engine import engine
from pbem.store import yamlio
from pbem.git import layout

SEED = "hostile-files-seed"


def gitmodules(marker: Path) -> str:
    """A submodule `lib` whose update and URL would each run a command (git refuses the first, and allows the
    ext:: transport only when told to)."""
    touch = f"touch {marker}"
    return (f'[submodule "lib"]\n\tpath = lib\n\turl = ext::sh -c {touch.replace(" ", "% ")}\n'
            f"\tupdate = !{touch}\n\tfetchRecurseSubmodules = true\n\tignore = none\n")


def gitattributes() -> str:
    """Every file through the `marker` drivers; the YAML files also re-encoded and with CRLF line ends."""
    return ("* filter=marker diff=marker merge=marker ident export-subst\n"
            "*.yaml text eol=crlf working-tree-encoding=UTF-16LE\n"
            "*.age text eol=crlf\n")


def plant_drivers(home: Path, marker: Path) -> None:
    """The `marker` filter, diff and merge drivers in the user's own configuration (as git-lfs installs its filter
    for every repository): each would leave the marker (and pass the content on)."""
    touch = f"touch {marker}"
    with open(home / ".gitconfig", "a", encoding="utf-8") as config:
        config.write(f'[filter "marker"]\n\tclean = "sh -c \'{touch}; cat\'"\n\tsmudge = "sh -c \'{touch}; cat\'"\n'
                     f'[diff "marker"]\n\ttextconv = "sh -c \'{touch}; cat \\"$0\\"\'"\n'
                     f'\tcommand = "sh -c \'{touch}\'"\n[merge "marker"]\n\tdriver = "sh -c \'{touch}\'"\n')


def push_hostile_commit(game, attacker: str, marker: Path, attributes: bool = True) -> str:
    """The attacker's commit: the `.gitmodules`, a gitlink `lib` (to the commit before) and, with `attributes`, a
    `.gitattributes` in place of the referee's."""
    clone = game.clones[attacker]
    game.pull(attacker)
    (clone / ".gitmodules").write_text(gitmodules(marker))
    files = [".gitmodules"]
    if attributes:
        (clone / ".gitattributes").write_text(gitattributes())
        files.append(".gitattributes")
    for commit in (git(clone, "rev-parse", "HEAD").strip(), git(clone, "rev-list", "--max-parents=0", "HEAD").strip()):
        (clone / commit).write_text("a file named like a commit pbem names to git\n")
        files.append(commit)
    git(clone, "add", *files)
    git(clone, "update-index", "--add", "--cacheinfo", f"160000,{git(clone, 'rev-parse', 'HEAD').strip()},lib")
    git(clone, "commit", "--quiet", "-m", "a library")
    git(clone, "push", "--quiet")
    return git(clone, "rev-parse", "HEAD").strip()


def pull_without_recursion(clone: Path) -> None:
    """A player's `git pull` of it (their own git, told not to recurse: the first pull works without being told,
    every later fetch stops on the invalid update)."""
    git(clone, "-c", "fetch.recurseSubmodules=false", "-c", "submodule.recurse=false", "pull", "--quiet",
        "--rebase")


def first_turn(game):
    (turn,), _ = plan("coal-baron", game.names, SEED, game.dir.name, limit=1)
    return turn


def test_a_pushed_gitmodules_is_refused_and_the_player_who_pulled_it_still_moves(club, tmp_path):
    game = club("coal-baron", 3, seed=SEED)
    marker = tmp_path / "ran"
    number, player, moves = first_turn(game)
    attacker = next(name for name in game.names if name != player)
    hostile = push_hostile_commit(game, attacker, marker, attributes=False)
    victim = game.clones[player]
    bystander = game.clones[next(name for name in game.names if name not in (player, attacker))]
    for clone in (victim, bystander):
        git(clone, "pull", "--quiet", check=False)  # plain: it updates the clone, then stops on the submodule
        assert (clone / ".gitmodules").exists() and git(clone, "rev-parse", "HEAD").strip() == hostile
    run = game.referee()
    assert [(c["commit"], c["verdict"]) for c in run["commits"]] == [(hostile, "refused")]
    assert ".gitmodules" in run["commits"][0]["reason"]
    # the referee's clone holds its own commit, without the file or the gitlink, and runs again
    assert git(game.dir, "ls-tree", "HEAD", ".gitmodules", "lib") == ""
    assert git(game.dir, "rev-parse", "HEAD").strip() == run["commit"]
    assert game.referee()["commits"] == []
    # the victim moves with pbem alone: its push is behind the referee's commit, so it fetches and rebases
    result = game.pbem("git", "move", victim, "--as", player, "--text", "; ".join(moves), "--secret-file",
                       game.secret_files[player], "--push")
    assert result.code == 0, result.err
    run = game.referee()
    assert [c["verdict"] for c in run["commits"]] == ["accepted"]
    assert engine.status(engine.open_game(game.game_dir()))["move_number"] > number
    assert not (victim / ".gitmodules").exists()  # the rebase took the victim's clone to the referee's tree
    git(victim, "pull", "--quiet")  # and the victim's own git works again
    # a player who pulled it too gets back with the guide's pull (docs/git.md), then pulls as ever
    stopped = subprocess.run(["git", "-C", str(bystander), "fetch", "--quiet"], capture_output=True, text=True)
    assert stopped.returncode != 0 and "submodule.lib.update" in stopped.stderr
    pull_without_recursion(bystander)
    assert not (bystander / ".gitmodules").exists()
    git(bystander, "pull", "--quiet")
    fresh = tmp_path / "fresh"
    git(tmp_path, "clone", "--quiet", game.remote, fresh)
    verified = game.pbem("git", "verify", fresh)
    assert verified.code == 0, verified.err
    assert not marker.exists()


def test_a_pushed_gitmodules_does_not_stop_a_referee_in_ci_whose_checkout_is_the_pushed_commit(club, tmp_path):
    game = club("coal-baron", 3, seed=SEED, ci=True)
    marker = tmp_path / "ran"
    number, player, moves = first_turn(game)
    hostile = push_hostile_commit(game, next(name for name in game.names if name != player), marker)
    for run in range(2):  # each run in a fresh checkout of the pushed commit, as the runner makes it
        checkout = tmp_path / f"runner-{run}"
        git(tmp_path, "clone", "--quiet", "--no-checkout", game.remote, checkout)
        result = game.pbem("git", "referee", checkout, "--identity", game.ci_identity, "--remote", "origin",
                           "--format", "json")
        assert result.code == 0, result.err
        assert [c["commit"] for c in result.json()["commits"]] == ([hostile] if run == 0 else [])
    assert game.move(player, "; ".join(moves)).code == 0
    checkout = tmp_path / "runner-move"
    git(tmp_path, "clone", "--quiet", "--no-checkout", game.remote, checkout)
    result = game.pbem("git", "referee", checkout, "--identity", game.ci_identity, "--remote", "origin", "--format",
                       "json")
    assert [c["verdict"] for c in result.json()["commits"]] == ["accepted"]
    assert not marker.exists()


def pbem_ran_nothing(game, marker: Path, *args, code: int = 0):
    """Run a pbem command; it exits with `code` and leaves no marker."""
    marker.unlink(missing_ok=True)
    result = game.pbem(*args)
    assert result.code == code, (args, result.out, result.err)
    assert not marker.exists(), f"pbem {' '.join(map(str, args))} ran a planted command"
    return result


def test_no_git_command_pbem_issues_fails_or_runs_anything_in_a_repository_holding_hostile_files(
        club, git_home, tmp_path, monkeypatch):
    game = club("coal-baron", 3, seed=SEED)
    marker = tmp_path / "ran"
    number, player, moves = first_turn(game)
    attacker = next(name for name in game.names if name != player)
    hostile = push_hostile_commit(game, attacker, marker)
    plant_drivers(git_home, marker)
    victim = game.clones[player]
    pull_without_recursion(victim)
    assert (victim / ".gitattributes").read_text() == gitattributes()
    # the planted commands do run where git is not told otherwise: the victim's own pull ran the smudge filter,
    # the victim's own diff runs the textconv
    assert marker.exists()
    marker.unlink()
    git(victim, "diff", "--ignore-submodules=none", f"{hostile}~1", hostile)
    assert marker.exists()
    key = ["--identity", game.keys[player]]
    # the players' tools in a clone that holds the hostile files, checked out
    for args in (["git", "view", victim, "--as", player, *key], ["git", "moves", victim, "--as", player, *key],
                 ["git", "verify", victim], ["git", "diff", victim], ["git", "diff", victim, f"{hostile}~1", hostile],
                 ["git", "textconv", victim / "public.yaml"]):
        pbem_ran_nothing(game, marker, *args)
    # a server's gate (pre-receive) turns the push away, before it lands; the referee refuses it
    gated = tmp_path / "gated.git"
    git(tmp_path, "clone", "--quiet", "--bare", game.remote, gated)
    git(gated, "update-ref", "refs/heads/main", f"{hostile}~1")
    hook = gated / "hooks" / "pre-receive"
    hook.write_text(f"#!/bin/sh\nexec {Path(sys.executable).with_name('pbem')} git pre-receive --branch main\n")
    hook.chmod(0o755)
    marker.unlink(missing_ok=True)
    pushed = subprocess.run(["git", "-C", str(game.clones[attacker]), "push", str(gated), "HEAD:main"],
                            capture_output=True, text=True)
    assert pushed.returncode != 0 and "push refused" in pushed.stderr and ".gitmodules" in pushed.stderr
    assert not marker.exists()
    run = pbem_ran_nothing(game, marker, "git", "referee", game.dir, *game.referee_args(), "--remote", "origin",
                           "--tick", "--format", "json").json()
    assert [(c["commit"], c["verdict"]) for c in run["commits"]] == [(hostile, "refused")]
    # the victim's move: committed from its blob (no filter, no re-encoding), pushed after a rebase on the
    # referee's commit
    result = pbem_ran_nothing(game, marker, "git", "move", victim, "--as", player, "--text", "; ".join(moves),
                              "--secret-file", game.secret_files[player], "--push", *key, "--format", "json")
    file = result.json()["file"]
    assert git(victim, "cat-file", "blob", f"HEAD:{file}").encode() == (victim / file).read_bytes()
    monkeypatch.chdir(victim)  # as the pre-commit hook runs it
    pbem_ran_nothing(game, marker, "git", "check-move", file)
    run = pbem_ran_nothing(game, marker, "git", "referee", game.dir, *game.referee_args(), "--remote", "origin",
                           "--format", "json").json()
    assert [c["verdict"] for c in run["commits"]] == ["accepted"]
    assert yamlio.load_file(game.dir / "public.yaml")["move_number"] > number
    fresh = tmp_path / "fresh"
    git(tmp_path, "clone", "--quiet", game.remote, fresh)
    pbem_ran_nothing(game, marker, "git", "verify", fresh)
    assert (game.dir / ".gitattributes").read_text() == layout.GITATTRIBUTES


def server_settings() -> list[list[str]]:
    """The `git config` lines of docs/git.md's bare repository, as arguments after `git -C REPO`."""
    guide = (Path(__file__).resolve().parents[2] / "docs" / "git.md").read_text()
    prefix = "git -C /srv/git/spring-cup.git config "
    return [["config", *line[len(prefix):].split()] for line in guide.splitlines() if line.startswith(prefix)]


def test_the_guides_server_settings_turn_away_a_tree_entry_named_git_and_an_invalid_gitmodules(club, tmp_path):
    game = club("coal-baron", 3, seed=SEED)
    settings = server_settings()
    assert ["config", "receive.fsckObjects", "true"] in settings
    for args in settings:
        git(game.remote, *args)
    clone = game.clones["alice"]
    game.pull("alice")
    head = git(clone, "rev-parse", "HEAD").strip()
    blob = git(clone, "hash-object", "-w", "--stdin", input=b"[core]\n\tfsmonitor = touch ran\n").strip()
    inner = git(clone, "mktree", input=f"100644 blob {blob}\tconfig\n".encode()).strip()
    tree = git(clone, "mktree", input=(git(clone, "ls-tree", "HEAD") + f"040000 tree {inner}\t.git\n").encode()).strip()
    dotgit = git(clone, "commit-tree", tree, "-p", head, "-m", "a nested repository").strip()
    pushed = subprocess.run(["git", "-C", str(clone), "push", "origin", f"{dotgit}:refs/heads/main"],
                            capture_output=True, text=True)
    assert pushed.returncode != 0 and "hasDotgit" in pushed.stderr
    with pytest.raises(AssertionError, match="gitmodulesUpdate"):  # the push fails: nothing of it lands
        push_hostile_commit(game, "alice", tmp_path / "ran", attributes=False)
    assert git(game.remote, "rev-parse", "main").strip() == head
