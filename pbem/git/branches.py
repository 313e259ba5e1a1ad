"""The branch the game is on: which one HEAD names, and the referee's fetch, join and push of it.
"""
from __future__ import annotations

from ..contract import PbemError, UsageError
from .repo import GitError, Repo


def current_branch(repo: Repo) -> str | None:
    """The branch HEAD names (born or not yet), or None when HEAD is detached."""
    ref = repo.run("symbolic-ref", "--quiet", "HEAD", check=False).strip()
    return ref.removeprefix("refs/heads/") if ref.startswith("refs/heads/") else None


def sync(repo: Repo, remote: str, branch: str | None, pushed: str | None) -> str:
    """Fetch the remote branch and join it to HEAD without taking any of its files (a merge keeping HEAD's tree):
    the referee judges the fetched commits one by one and never needs their merged content. A remote that lost a
    refereed commit the referee had pushed (`pushed`) was force-pushed: refused."""
    if not branch:
        raise UsageError("HEAD is detached: say which branch the game is on (--branch NAME)")
    repo.run("fetch", "--quiet", remote, f"refs/heads/{branch}")
    fetched = repo.resolve("FETCH_HEAD")
    if pushed and not repo.is_ancestor(pushed, fetched):
        raise PbemError(f"the history of {remote}/{branch} was rewritten (a force-push): the refereed commit "
                        f"{pushed[:10]} is no longer in it. Nothing was done. Restore it "
                        f"(git push --force {remote} {pushed[:10]}:{branch}, after checking what was lost)")
    ours = repo.resolve("HEAD")
    if ours is None:  # a CI checkout that checked nothing out (GitLab's GIT_CHECKOUT false): HEAD is born here
        repo.run("update-ref", "HEAD", fetched)
    else:
        join(repo, ours, fetched)
    return fetched


def join(repo: Repo, ours: str, theirs: str) -> str:
    """Make HEAD hold both commits without taking any file of `theirs` (a merge keeping our tree, or a
    fast-forward): the referee judges their commits one by one and never needs their merged content."""
    if repo.is_ancestor(ours, theirs):
        joined = theirs
    elif repo.is_ancestor(theirs, ours):
        joined = ours
    else:
        tree = repo.run("rev-parse", f"{ours}^{{tree}}").strip()
        joined = repo.commit_tree(tree, [ours, theirs], "pbem: join the pushed commits\n")
    # HEAD only: a pushed tree is never checked out (a name the file system refuses would stop every run; a link
    # would point anywhere). The working tree follows the referee's own commits.
    repo.run("reset", "--soft", "--quiet", joined)
    return joined


def push(repo: Repo, remote: str, branch: str) -> bool:
    try:
        repo.run("push", "--quiet", remote, f"HEAD:refs/heads/{branch}")
    except GitError as exc:
        if "rejected" in str(exc) or "fetch first" in str(exc) or "non-fast-forward" in str(exc):
            return False
        raise
    return True
