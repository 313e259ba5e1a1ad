"""What `pbem git verify` says, in its reader's language (the game's, or --language): each check's line, and the
refusals its checks share."""
from __future__ import annotations

from ..contract import PbemError
from ..messages import lazy, ngettext
from .signatures import VerifyFailed


def failed(check, *args):
    """`check(*args)`, its refusal said as a failed verification."""
    try:
        return check(*args)
    except VerifyFailed:
        raise
    except PbemError as exc:
        # TRANSLATORS: {error}: why the history is not the referee's (a sentence of its own)
        raise VerifyFailed(lazy("verify failed: {error}", error=exc.message or str(exc))) from None


def chain_line(chain: list[dict], signed: bool) -> str:
    """The refereed commits found, and whether the referee signs them."""
    first, last = chain[0]["commit"][:10], chain[-1]["commit"][:10]
    # TRANSLATORS: {first}, {last}: commit ids, the oldest and the newest refereed commit
    if signed:
        return ngettext("chain: {count} refereed commit, {first} to {last}, each naming the one before, the newest "
                        "signed with the referee's key of the first commit",
                        "chain: {count} refereed commits, {first} to {last}, each naming the one before, the newest "
                        "signed with the referee's key of the first commit", len(chain), count=len(chain),
                        first=first, last=last)
    return ngettext("chain: {count} refereed commit, {first} to {last}, each naming the one before, not signed (a "
                    "game started by an earlier pbem)",
                    "chain: {count} refereed commits, {first} to {last}, each naming the one before, not signed (a "
                    "game started by an earlier pbem)", len(chain), count=len(chain), first=first, last=last)


def unrefereed_line(refereed, forged: int) -> str:
    """The commits after the last refereed one, and those among them that copy the referee's trailers."""
    count, commit = refereed.unrefereed, refereed.commit[:10]
    if forged and refereed.signed:
        # TRANSLATORS: {commit}: the last refereed commit's id; {forged}: how many of the {count} commits after it
        return ngettext("not refereed yet: {count} commit after {commit} ({forged} of them with the referee's "
                        "trailers but not its signature: not the referee's)",
                        "not refereed yet: {count} commits after {commit} ({forged} of them with the referee's "
                        "trailers but not its signature: not the referee's)", count, count=count, commit=commit,
                        forged=forged)
    return ngettext("not refereed yet: {count} commit after {commit}", "not refereed yet: {count} commits after "
                    "{commit}", count, count=count, commit=commit)


def rewritten(commit: str, previous: str | None):
    """The refusal of a commit that copies the referee's trailers onto a history rewritten below them."""
    if not previous:
        # TRANSLATORS: {commit}: a commit id
        return lazy("verify failed: the history was rewritten: {commit} carries the referee's trailers and names no "
                    "refereed commit before it that is in its history", commit=commit[:10])
    # TRANSLATORS: {commit}, {previous}: commit ids
    return lazy("verify failed: the history was rewritten: {commit} carries the referee's trailers and names "
                "{previous} as the refereed commit before it, which is not in its history", commit=commit[:10],
                previous=previous[:10])


def not_replayed(path: str, link: dict) -> VerifyFailed:
    """A refereed commit's state file that the replay from the revealed seed does not give."""
    # TRANSLATORS: {path}: a file's path; {commit}: a commit id; {move}: its move number
    return VerifyFailed(lazy("verify failed: {path} of the refereed commit {commit} (move {move}) is not what the "
                             "replay gives", path=path, commit=link["commit"][:10], move=link["move"]))
