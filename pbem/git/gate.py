"""`pbem git pre-receive`: the gate of a game's repository on the club's own server (a pre-receive hook).

What the referee would refuse for its shape never lands, so it is in nobody's clone: a push is turned away, with
the reason, when it deletes or rewrites the game's branch (a force-push), pushes another branch, brings more than
MAX_PUSH_COMMITS commits, or holds a commit that is neither the referee's (its trailers and its signature, by the
key of the game's first commit) nor the shape of a player's move (one added move file of at most 128 KB, or a
merge that only joins histories: pbem.git.judge.shape). Whether a move is signed, in turn and legal is the
referee's to judge, after the push: this gate reads no secret and no state.

git runs the hook in the bare repository with the pushed objects in quarantine: a push turned away leaves
nothing behind.
"""
from __future__ import annotations

from ..contract import PbemError
from ..text.phrases import plural
from . import judge
from .refereed import SIGNER, game_root, move_of
from .repo import Repo
from .signers import AllowedSigners

MAX_PUSH_COMMITS = 50


def check_push(repo: Repo, updates: list[tuple[str, str, str]], branch: str) -> list[str]:
    """The reasons to turn the push away (none: let it in). `updates`: git's (old, new, ref) lines."""
    problems = []
    game_ref = f"refs/heads/{branch}"
    for old, new, ref in updates:
        if ref != game_ref:
            problems.append(f"{ref}: this repository plays one game, on {game_ref}; push your move there")
        elif set(new) == {"0"}:
            problems.append(f"{ref}: the game's branch cannot be deleted")
        elif set(old) == {"0"}:
            if repo.run("for-each-ref", "--count=1", "refs/heads/").strip():
                problems.append(f"{ref}: the game's branch is made by the organiser's first push, not again")
        elif not repo.is_ancestor(old, new):
            problems.append(f"{ref}: the push rewrites the game's history (a force-push): pull, then push your "
                            f"move on top")
        else:
            problems += _check_commits(repo, old, new)
    return problems


def _check_commits(repo: Repo, old: str, new: str) -> list[str]:
    commits = repo.run("rev-list", "--reverse", "--topo-order", new, "--not", "--all", "--").split()
    if len(commits) > MAX_PUSH_COMMITS:
        return [f"{plural(len(commits), 'new commit')} in one push; a game takes at most {MAX_PUSH_COMMITS} (a "
                f"move is one commit)"]
    root, config = game_root(repo, old)
    signer = config["referee"].get("signer")
    problems = []
    with AllowedSigners() as allowed:
        signers = allowed.file({SIGNER: signer}) if signer else None
        for commit_id in commits:
            commit = repo.commit(commit_id)
            if move_of(commit, config["id"]) is not None and (
                    signer is None or commit.signed and repo.signature(commit_id, signers) == ("G", SIGNER)):
                continue  # the referee's (a game whose referee does not sign: anything with its trailers)
            try:
                judge.shape(repo, commit, None)
            except judge.Refusal as refusal:
                problems.append(f"{commit_id[:10]}: {refusal.reason}")
    return problems


def pre_receive(directory, lines: list[str], branch: str) -> None:
    """Read git's pre-receive input; PbemError (exit 2: git turns the push away) with every reason."""
    updates = []
    for line in lines:
        parts = line.split()
        if len(parts) != 3:
            raise PbemError(f"pbem git pre-receive: not a line of git's pre-receive input: {line[:80]!r}")
        updates.append((parts[0], parts[1], parts[2]))
    problems = check_push(Repo(directory), updates, branch)
    if problems:
        raise PbemError("push refused (pbem):\n  " + "\n  ".join(problems[:20])
                        + ("\n  ..." if len(problems) > 20 else ""))
