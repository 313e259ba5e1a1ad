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
from ..messages import _, ngettext
from ..text.language import reading
from . import judge
from .refereed import SIGNER, game_root, move_of
from .repo import Repo
from .signers import AllowedSigners

MAX_PUSH_COMMITS = 50


def check_push(repo: Repo, updates: list[tuple[str, str, str]], branch: str) -> list[str]:
    """The reasons to turn the push away (none: let it in), in the language being read. `updates`: git's (old,
    new, ref) lines."""
    problems = []
    game_ref = f"refs/heads/{branch}"
    for old, new, ref in updates:
        if ref != game_ref:
            problems.append(_("{ref}: this repository plays one game, on {branch}; push your move there", ref=ref,
                              branch=game_ref))
        elif set(new) == {"0"}:
            problems.append(_("{ref}: the game's branch cannot be deleted", ref=ref))
        elif set(old) == {"0"}:
            if repo.run("for-each-ref", "--count=1", "refs/heads/").strip():
                problems.append(_("{ref}: the game's branch is made by the organiser's first push, not again",
                                  ref=ref))
        elif not repo.is_ancestor(old, new):
            problems.append(_("{ref}: the push rewrites the game's history (a force-push): pull, then push your move "
                              "on top", ref=ref))
        else:
            problems += _check_commits(repo, old, new)
    return problems


def _check_commits(repo: Repo, old: str, new: str) -> list[str]:
    commits = repo.run("rev-list", "--reverse", "--topo-order", new, "--not", "--all", "--").split()
    if len(commits) > MAX_PUSH_COMMITS:
        return [ngettext("{count} new commit in one push; a game takes at most {most} (a move is one commit)",
                         "{count} new commits in one push; a game takes at most {most} (a move is one commit)",
                         len(commits), count=len(commits), most=MAX_PUSH_COMMITS)]
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
                problems.append(_("{commit}: {reason}", commit=commit_id[:10],
                                  reason=refusal.message or refusal.reason))
    return problems


def pre_receive(directory, lines: list[str], branch: str) -> None:
    """Read git's pre-receive input; PbemError (exit 2: git turns the push away) with every reason."""
    updates = []
    for line in lines:
        parts = line.split()
        if len(parts) != 3:
            raise PbemError(f"pbem git pre-receive: not a line of git's pre-receive input: {line[:80]!r}")
        updates.append((parts[0], parts[1], parts[2]))
    repo = Repo(directory)
    with reading(game_language(repo, updates)):  # the pusher is unknown here: the game's language
        problems = check_push(repo, updates, branch)
        if problems:
            raise PbemError(_("push refused (pbem):") + "\n  " + "\n  ".join(problems[:20])
                            + ("\n  ..." if len(problems) > 20 else ""))


def game_language(repo: Repo, updates: list[tuple[str, str, str]]) -> str:
    """The language of the game a push goes to (its first commit's game.yaml); English when that cannot be told."""
    from ..engine import engine
    from ..store import yamlio
    try:
        old = next(old for old, _new, _ref in updates if set(old) != {"0"})
        meta = yamlio.loads(repo.show(game_root(repo, old)[0], engine.GAME) or b"", engine.GAME)
        return meta.get("language", "en") if isinstance(meta, dict) else "en"
    except (StopIteration, PbemError):
        return "en"
