"""Which commits the referee made: what players' tools and `pbem git verify` trust, and nothing else.

Anyone who may push can commit anything, trailers included: a view encrypted to a victim's public key, a
pbem-git.yaml naming their own key as the referee's, a commit whose message copies the referee's. So a refereed
commit is one the referee signed: `pbem git init` makes the referee an SSH key, names its public half in the first
commit's pbem-git.yaml (`referee.signer`, never changed after), and signs every refereed commit with it (git's
SSH signatures). The newest commit of a history that carries the trailers and a good signature of that key is the
last refereed one; the commits it names as previous (Pbem-Previous) are refereed too, since the referee only ever
names its own. Whatever came after it is not refereed yet, and tools say so.

A game started by a pbem that did not sign (no `signer`) is read by its trailers alone, with a note.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..contract import PbemError
from ..messages import _, lazy, ngettext
from . import layout
from .repo import NO_SUBMODULE_LOOKUP, Repo
from .signers import AllowedSigners

SIGNER = "pbem-referee"  # the principal of the referee's key in git's allowed-signers file
HASH_LENGTHS = (40, 64)


class NotRefereed(PbemError):
    """No commit of the history is one the referee made."""


@dataclass
class Refereed:
    commit: str  # the newest refereed commit in the history of `tip`
    root: str  # the game's first commit
    config: dict  # pbem-git.yaml of the first commit: the referee's keys come from there, never from later files
    tip: str
    unrefereed: int  # commits in tip's history after `commit`: pushed, not judged yet
    signed: bool  # the referee signs its commits (games started before it did: False)
    others: list[str] = field(default_factory=list)  # first commits of other games a merge brought in

    @property
    def game_id(self) -> str:
        return self.config["id"]

    @property
    def referee_recipient(self) -> str:
        """The key a hidden choice is encrypted to: the one the referee recorded in the first commit."""
        return self.config["referee"]["recipient"]

    def notes(self) -> list[str]:
        """What a reader should know about what is shown, in the language being read."""
        notes = []
        if self.unrefereed:
            notes.append(ngettext("{count} commit after the last refereed commit {commit} is not refereed yet (moves "
                                  "pushed since, or anything else anyone pushed): shown is the position of {commit}",
                                  "{count} commits after the last refereed commit {commit} are not refereed yet "
                                  "(moves pushed since, or anything else anyone pushed): shown is the position of "
                                  "{commit}", self.unrefereed, count=self.unrefereed, commit=self.commit[:10]))
        if self.others:
            # TRANSLATORS: {others}: commit ids; the git command is typed as it is (FIRST-COMMIT: a commit id).
            notes.append(_("this history also holds the first commit of another game ({others}: someone merged its "
                           "history in): shown is the game the newest signed refereed commit leads back to, whose "
                           "first commit is {root}. If that is not your game, name yours: git config pbem.root "
                           "FIRST-COMMIT", others=[commit[:10] for commit in self.others], root=self.root[:10]))
        if not self.signed:
            notes.append(_("this game's referee does not sign its commits (it was started by an earlier pbem): a "
                           "refereed commit is known by its trailers only"))
        return notes


def game_roots(repo: Repo, tip: str) -> list[tuple[str, dict]]:
    """The first commits of tip's history that hold a game, each with its pbem-git.yaml: one, unless a merge
    brought in another game's history (the referee refuses such a merge; it stays in the history all the same).
    `git config pbem.root COMMIT` keeps only the one it names."""
    pinned = repo.run("config", "pbem.root", check=False).strip()
    roots = repo.roots(tip)
    if pinned:
        roots = [commit for commit in roots if commit.startswith(pinned)]
        if len(roots) != 1:
            # TRANSLATORS: {root}, {tip}: commit ids; pbem.root is git's setting, typed as it is
            raise PbemError(lazy("pbem.root {root} (git config) is not a first commit of {tip}", root=pinned[:10],
                                 tip=tip[:10]))
    games = []
    for commit in roots:
        try:
            games.append((commit, layout.load("config", repo.show(commit, layout.CONFIG) or b"",
                                              f"{layout.CONFIG} of the first commit {commit[:10]}")))
        except PbemError:
            continue
    if not games:
        # TRANSLATORS: {path}: a folder; {tip}: a commit id; {file}: pbem-git.yaml
        raise PbemError(lazy("{path}: not a game played by git (no first commit of {tip} holds a valid {file})",
                             path=str(repo.path), tip=tip[:10], file=layout.CONFIG))
    return games


def game_root(repo: Repo, tip: str) -> tuple[str, dict]:
    """The game's first commit and its pbem-git.yaml: the one first commit holding a game, or, when a merge brought
    in another, the one the referee's signed chain leads back to (last_refereed)."""
    games = game_roots(repo, tip)
    if len(games) == 1:
        return games[0]
    refereed = last_refereed(repo, tip)
    return refereed.root, refereed.config


def move_of(commit, game_id: str) -> int | None:
    """The move number a commit's trailers name, if they name this game (None otherwise)."""
    trailers = commit.trailers()
    if trailers.get("Pbem-Game") != game_id:
        return None
    text = trailers.get("Pbem-Move", "")
    return int(text) if text.isdigit() and len(text) < 10 else None


def previous_of(commit) -> str | None:
    """The refereed commit a refereed commit names as the one before it; "none" for the first."""
    text = commit.trailers().get("Pbem-Previous", "")
    if text == "none":
        return "none"
    return text if len(text) in HASH_LENGTHS and all(c in "0123456789abcdef" for c in text) else None


def last_refereed(repo: Repo, tip: str) -> Refereed:
    """The newest commit of tip's history that the referee made (see the module's docstring). When the history
    holds the first commits of several games (a merge brought another in), each commit is asked whether the
    referee of one of them made it, and the newest that one did is followed back (Pbem-Previous) to its game's
    first commit: a game is the one its referee's signed chain leads to. The referee's commit after such a merge
    is the newest of all; before it (a clone that pulled the merge itself), the game is the one whose referee
    made the newest commit of the line the merge continues (`git merge` keeps ours first), and `git config
    pbem.root` settles the rest."""
    games = every_game = game_roots(repo, tip)
    several = len(games) > 1
    with AllowedSigners() as allowed:
        if several:
            found = _newest(repo, repo.history(tip, grep="^Pbem-Game: ", first_parent=True), games, several, allowed)
            games = [(found[1], found[2])] if found else games
        found = _newest(repo, repo.history(tip, grep="^Pbem-Game: "), games, several, allowed)
    if found is None:
        ids = sorted({config["id"] for _, config in games})
        signing = any(config["referee"].get("signer") for _, config in games)
        # TRANSLATORS: {tip}: a commit id; {games}: the games' ids
        raise NotRefereed(lazy("no commit of the history of {tip} was made by the referee of {games} (none carries "
                               "its signature)", tip=tip[:10], games=ids) if signing else
                          lazy("no commit of the history of {tip} was made by the referee of {games}", tip=tip[:10],
                               games=ids))
    candidate, root, config = found
    unrefereed = int(repo.run("rev-list", "--count", tip, f"^{candidate}", "--").strip())
    return Refereed(candidate, root, config, tip, unrefereed, signed=bool(config["referee"].get("signer")),
                    others=[other for other, _ in every_game if other != root])


def _newest(repo: Repo, candidates: list[str], games: list[tuple[str, dict]], several: bool,
            allowed: AllowedSigners) -> tuple[str, str, dict] | None:
    """(the first of `candidates` the referee of one of `games` made, that game's first commit, its
    pbem-git.yaml), or None."""
    for candidate in candidates:
        commit = repo.commit(candidate)
        for root, config in games:
            if _made_by_referee_of(repo, commit, root, config, allowed, several):
                return candidate, root, config
    return None


def _made_by_referee_of(repo: Repo, commit, root: str, config: dict, allowed: AllowedSigners,
                        several: bool) -> bool:
    """Did the referee of the game whose first commit is `root` make this commit: its trailers name that game, its
    signature is that referee's (a game whose referee signs), and, among several games, the refereed commits it
    names lead back to `root`?"""
    signer = config["referee"].get("signer")
    if move_of(commit, config["id"]) is None or previous_of(commit) is None:
        return False
    if signer and not (commit.signed and repo.signature(commit.id, allowed.file({SIGNER: signer})) == ("G", SIGNER)):
        return False
    if previous_of(commit) == "none":
        return commit.id == root
    if several:
        try:
            chain(repo, commit.id, config["id"], root)
        except PbemError:
            return False
    return True


def chain(repo: Repo, newest: str, game_id: str, root: str) -> list:
    """The refereed commits (pbem.git.repo.Commit), oldest first: from `newest`, each names the one before it
    (Pbem-Previous) back to the first commit. Each named commit must come later in `git rev-list --topo-order`
    of the newest (where every commit comes before its ancestors): a history rewritten below the referee's commits
    no longer holds the commits they name."""
    order = {commit: index for index, commit in enumerate(repo.history(newest))}
    links, current = [], repo.commit(newest)
    while True:
        move = move_of(current, game_id)
        if move is None:
            # TRANSLATORS: {commit}: a commit id; {game}: the game's id; Pbem-Game and Pbem-Move are typed as they are
            raise PbemError(lazy("{commit} is named as a refereed commit of {game} and has no valid Pbem-Game and "
                                 "Pbem-Move trailers", commit=current.id[:10], game=game_id))
        links.append(current)
        previous = previous_of(current)
        if previous == "none":
            break
        if previous not in order or order[previous] <= order[current.id]:
            raise PbemError(_history_rewritten(current.id, previous))
        current = repo.commit(previous)
    links.reverse()
    if links[0].id != root:
        raise PbemError(lazy("the chain of refereed commits starts at {commit}, not at the first commit {root}",
                             commit=links[0].id[:10], root=root[:10]))
    for before, after in zip(links, links[1:]):
        if move_of(after, game_id) < move_of(before, game_id):
            raise PbemError(lazy("{commit} goes back from move {before} to move {after}", commit=after.id[:10],
                                 before=move_of(before, game_id), after=move_of(after, game_id)))
    return links


def _history_rewritten(commit: str, previous: str | None):
    """The refusal of a refereed commit whose Pbem-Previous names a commit its history does not hold."""
    if not previous:
        # TRANSLATORS: {commit}: a commit id
        return lazy("the history was rewritten: the refereed commit {commit} names no commit before it that is in "
                    "its history", commit=commit[:10])
    # TRANSLATORS: {commit}, {previous}: commit ids
    return lazy("the history was rewritten: the refereed commit {commit} names {previous} as the one before it, and "
                "that commit is not in its history", commit=commit[:10], previous=previous[:10])


def vouched_blobs(repo: Repo, refereed: Refereed, paths: tuple[str, ...]) -> set[str]:
    """The object names of every version of `paths` (files or folders) that a refereed commit holds: what each
    refereed commit wrote (its change against its first parent) and what the first commit holds. A refereed commit
    is built from the one before it, so a file it did not write is one an earlier refereed commit held."""
    links = chain(repo, refereed.commit, refereed.game_id, refereed.root)
    found = {blob for path, (_, blob) in repo.tree(refereed.root).items()
             if any(path == p or path.startswith(p) for p in paths)}
    if len(links) == 1:
        return found - {"0" * 40}
    # (never without commits: `git log` would then show HEAD's)
    out = repo.run_bytes("log", NO_SUBMODULE_LOOKUP, "--no-walk=unsorted", "--no-renames", "--raw", "-z",
                         "--no-abbrev", "--format=", "--stdin", "--", *paths,
                         input="".join(f"{c.id}\n" for c in links[1:]).encode())
    for field in out.split(b"\0"):
        if field.startswith(b":"):
            parts = field.decode("ascii", "replace").split()
            if len(parts) >= 4:
                found.add(parts[3])
    found.discard("0" * 40)
    return found
