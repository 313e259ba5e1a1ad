"""The branch the game is on: which one HEAD names, and the referee's fetch, join and push of it.
"""
from __future__ import annotations

from ..contract import PbemError, UsageError
from .repo import GitError, Repo


def current_branch(repo: Repo) -> str | None:
    """The branch HEAD names (born or not yet), or None when HEAD is detached."""
    ref = repo.run("symbolic-ref", "--quiet", "HEAD", check=False).strip()
    return ref.removeprefix("refs/heads/") if ref.startswith("refs/heads/") else None


def sync(repo: Repo, remote: str, branch: str | None, pushed: str | None) -> tuple[str, str]:
    """Fetch the remote branch: (the commit to judge up to, the fetched one). The first is the fetched commit, or,
    when HEAD holds a commit the remote lacks (a refereed commit not pushed yet), a merge of both keeping HEAD's
    tree (join). A remote that lost a refereed commit the referee had pushed (`pushed`) was force-pushed:
    refused."""
    if not branch:
        raise UsageError("HEAD is detached: say which branch the game is on (--branch NAME)")
    repo.run("fetch", "--quiet", "--no-recurse-submodules", remote, f"refs/heads/{branch}")
    fetched = repo.resolve("FETCH_HEAD")
    if pushed and not repo.is_ancestor(pushed, fetched):
        raise PbemError(f"the history of {remote}/{branch} was rewritten (a force-push): the refereed commit "
                        f"{pushed[:10]} is no longer in it. Nothing was done. Restore it "
                        f"(git push --force {remote} {pushed[:10]}:{branch}, after checking what was lost)")
    ours = repo.resolve("HEAD")
    if ours is None:  # a CI checkout that checked nothing out (GitLab's GIT_CHECKOUT false): HEAD is born later
        return fetched, fetched
    return join(repo, ours, fetched), fetched


def join(repo: Repo, ours: str, theirs: str) -> str:
    """A commit holding both without taking any file of `theirs`: `theirs` when it holds `ours` (HEAD does not
    move: nothing pushed is checked out, nor read from HEAD, as a `.gitmodules` there would be), else `ours` or a
    merge keeping our tree, which HEAD then holds (the referee's own tree). The referee judges their commits one
    by one and never needs their merged content."""
    if repo.is_ancestor(ours, theirs):
        return theirs
    joined = ours
    if not repo.is_ancestor(theirs, ours):
        tree = repo.run("rev-parse", f"{ours}^{{tree}}").strip()
        joined = repo.commit_tree(tree, [ours, theirs], "pbem: join the pushed commits\n")
    repo.run("reset", "--hard", "--quiet", "--no-recurse-submodules", joined)
    return joined


def push(repo: Repo, remote: str, branch: str) -> bool:
    try:
        repo.run("push", "--quiet", "--no-recurse-submodules", remote, f"HEAD:refs/heads/{branch}")
    except GitError as exc:
        if "rejected" in str(exc) or "fetch first" in str(exc) or "non-fast-forward" in str(exc):
            return False
        raise
    return True
