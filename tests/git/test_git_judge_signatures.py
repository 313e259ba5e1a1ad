"""The referee checks the SSH signatures of a whole push in one `git log` (counted, not timed), with the verdicts
a commit judged alone gets: a move in a commit signed with its player's key accepted, one unsigned, signed with
another player's key or altered after signing refused as not signed."""
from __future__ import annotations

import subprocess

from gitkit import git, plan
from pbem.git.player import commit_move, move_file, published
from pbem.git.repo import Repo
from pbem.play import movefile

SEED = "batch-seed"


def is_signature_log(args) -> bool:
    """A `git log` checking commits' SSH signatures against an allowed-signers file (pbem.git.repo.signatures)."""
    return bool(args) and args[0] == "git" and "log" in args and \
        any(str(arg).startswith("gpg.ssh.allowedSignersFile=") for arg in args)


def test_a_push_of_several_ssh_signed_commits_is_judged_with_one_signature_git_log(club, monkeypatch):
    game = club("coal-baron", 3, seed=SEED, ssh_signing=("alice", "bob", "carol"))
    submissions, _ = plan("coal-baron", game.names, SEED, game.dir.name, limit=5)
    gd, _, config = published(Repo(game.dir), "HEAD")
    first_player = submissions[0][1]
    impostor = next(name for name in game.names if name != first_player)
    # a move file of the first player committed unsigned, one in a commit signed with another player's key
    game.pull(first_player)
    unsigned = game.commit_file(first_player, f"moves/0098-{first_player}.yaml",
                                movefile.dumps(movefile.build(game.dir.name, 98, first_player, ["resign"])))
    game.pull(impostor)
    commit_move(Repo(game.clones[impostor]), f"moves/0099-{first_player}.yaml",
                movefile.dumps(movefile.build(game.dir.name, 99, first_player, ["resign"])), "forged", signing=True)
    git(game.clones[impostor], "push", "--quiet")
    wrong_key = git(game.clones[impostor], "rev-parse", "HEAD").strip()
    # and one signed with the player's key, then altered (its signature no longer matches it)
    game.pull(first_player)
    clone = game.clones[first_player]
    commit_move(Repo(clone), f"moves/0097-{first_player}.yaml",
                movefile.dumps(movefile.build(game.dir.name, 97, first_player, ["resign"])), "as signed", signing=True)
    signed = git(clone, "cat-file", "commit", "HEAD").encode()
    assert b"\ngpgsig " in signed
    altered = git(clone, "hash-object", "-t", "commit", "-w", "--stdin",
                  input=signed.replace(b"as signed", b"altered after signing")).strip()
    git(clone, "reset", "--quiet", "--hard", altered)
    git(clone, "push", "--quiet")
    for number, player, moves in submissions:  # each move in a commit signed with its player's key
        game.pull(player)
        relative, data, _ = move_file(gd, config, number, player, moves, None)
        commit_move(Repo(game.clones[player]), relative, data, f"move {number} by {player}", signing=True)
        git(game.clones[player], "push", "--quiet")
    started = []
    popen = subprocess.Popen

    class Counted(popen):
        def __init__(self, args, *more, **options):
            started.append(list(args) if isinstance(args, (list, tuple)) else [args])
            super().__init__(args, *more, **options)

    with monkeypatch.context() as patched:
        patched.setattr(subprocess, "Popen", Counted)
        run = game.referee()
    verdicts = [(c["commit"], c["verdict"], c["reason"]) for c in run["commits"]]
    assert [v[:2] for v in verdicts[:3]] == [(unsigned, "refused"), (wrong_key, "refused"), (altered, "refused")]
    assert all("not signed" in reason for _, _, reason in verdicts[:3])
    assert [verdict for _, verdict, _ in verdicts[3:]] == ["accepted"] * len(submissions)
    assert sum(map(is_signature_log, started)) == 1  # not one a commit (8 before)
