"""A player's commits put on top of what others pushed meanwhile (what `git rebase` does), with git's plumbing.

`git rebase` reads the working tree through its attributes and first diffs the upstream's commits, which looks
their gitlinks up in a `.gitmodules`: a pushed `.gitattributes` (`working-tree-encoding`, a filter) makes the move
file just written look changed and stops it, a pushed `.gitmodules` with an invalid entry stops it at once. Here
each commit's files are set in the upstream's tree from git's objects, and the working tree then follows with
`git read-tree --reset -u`, which writes only the files that differ between the two trees, with the attributes of
the new tree, and reads none of them first (a check of a file against the index may run a clean filter). Those
files are the ones the upstream changed: the referee's files and other players' moves, none of them a player's
to edit, so what was pushed wins there, as it does in `git pull`.
"""
from __future__ import annotations

from ..contract import PbemError
from .repo import NO_SUBMODULE_LOOKUP, GitError, Repo

REGULAR = ("100644", "000000")  # a file written, or one deleted


class CannotReplay(PbemError):
    """A commit that is not a plain file change, or one the upstream changed too: the player rebases by hand."""


def replay_onto(repo: Repo, upstream: str, signing: bool) -> str:
    """Put HEAD's commits that `upstream` lacks on top of it, each with its message, signed as configured when
    `signing`; move HEAD (and the working tree) there. Returns the new HEAD."""
    head = repo.head()
    if not repo.ok("diff-index", "--cached", "--quiet", NO_SUBMODULE_LOOKUP, head, "--"):
        raise CannotReplay("you have staged changes (git status): commit or unstage them, then git push")
    base = upstream
    for commit_id in repo.new_commits(head, upstream):
        base = _replayed(repo, commit_id, base, signing)
    try:
        repo.run("read-tree", "--reset", "-u", head, base)
    except GitError as exc:
        raise CannotReplay(f"{exc}; git pull --rebase, then git push") from None
    repo.run("update-ref", "-m", "pbem git move: put on top of the upstream", "HEAD", base, head)
    return base


def _replayed(repo: Repo, commit_id: str, base: str, signing: bool) -> str:
    """The commit `commit_id` made again on top of `base`: the files it changed set to its versions."""
    commit = repo.commit(commit_id)
    if len(commit.parents) != 1:
        raise CannotReplay(f"{commit_id[:10]} is a merge: git pull --rebase, then git push")
    changes = repo.changes(commit.parents[0], commit_id)
    before, theirs = repo.tree(commit.parents[0]), repo.tree(base)
    if all(theirs.get(c.path) == ((c.new_mode, c.blob) if c.status != "D" else None) for c in changes):
        return base  # pushed already (as rebase, it is dropped)
    for change in changes:
        if change.new_mode not in REGULAR:
            raise CannotReplay(f"{commit_id[:10]} changes {change.path} (mode {change.new_mode}): git pull --rebase, "
                               f"then git push")
        if theirs.get(change.path) != before.get(change.path):
            raise CannotReplay(f"{change.path} was changed by your commit {commit_id[:10]} and by what was pushed "
                               f"meanwhile: git pull --rebase, then git push")
    written = {c.path: c.blob for c in changes if c.status != "D"}
    tree = repo.build_tree(base, written, removed=[c.path for c in changes if c.status == "D"])
    return repo.commit_tree(tree, [base], commit.message, sign_as_configured=signing)
