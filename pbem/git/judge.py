"""What one new commit did, decided from git's objects alone (never the working tree).

A commit is a move when, against its parent, it adds exactly one regular file `moves/NNNN-NAME.yaml` (or
`.yaml.age`, encrypted to the referee) and changes nothing else; the file names this game, move number NNNN and
player NAME, and is signed with NAME's secret, or the commit carries a good SSH signature of NAME's registered
key. The engine then checks turn, move number and legality. A merge that only joins the game's own history (every
file as in one of its parents, no other first commit brought in) is neutral. Anything else is refused, with a
reason that is safe to publish.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .. import notation
from ..clock import correspondence, takebacks
from ..contract import PbemError
from ..engine import engine
from ..play import movefile, plans
from ..text.phrases import plural
from . import layout
from .desk import Desk
from .repo import Change, Commit, Repo

REGULAR = "100644"
MAX_MOVE_BLOB = movefile.MAX_BYTES * 2  # an encrypted move file is larger than its text (armour, age's header)
MAX_REASON = 500
MAX_AUTHOR = 200


@dataclass
class Verdict:
    commit: str
    kind: str  # accepted | refused | neutral
    path: str | None = None
    blob: str | None = None
    reason: str | None = None
    result: dict | None = None
    at: int | None = None  # the game's move number when it was judged
    author: str = ""  # of a refused commit: "Name <email>", as the commit says (anyone can write any)
    player: str | None = None  # whom a refusal concerns (pbem.git.mails.refused_player), when that can be told


class Refusal(Exception):
    def __init__(self, reason: str, path: str | None = None):
        super().__init__(reason)
        self.reason, self.path = reason, path


def judge(repo: Repo, desk: Desk, commit: Commit, changes: list[Change] | None, tree: dict[str, str],
          signatures: dict[str, tuple[str, str]]) -> Verdict:
    """Judge one commit; `changes`: what it changed against its parent (None for a merge or a first commit);
    `tree` is {path: blob} of the referee's tree so far; `signatures` the SSH signatures of the commits judged
    (ssh_signatures)."""
    try:
        return _judge(repo, desk, commit, changes, tree, signatures)
    except Refusal as refusal:
        return Verdict(commit.id, "refused", path=refusal.path, reason=desk.scrub(refusal.reason)[:MAX_REASON],
                       author=commit.author[:MAX_AUTHOR])


def _judge(repo: Repo, desk: Desk, commit: Commit, changes: list[Change] | None, tree: dict[str, str],
           signatures: dict[str, tuple[str, str]]) -> Verdict:
    found = shape(repo, commit, changes)
    if found is None:
        brought = other_histories(repo, commit.id, desk.last)
        if brought:
            raise Refusal(f"a merge that brings in another history (its first commit {brought[0][:10]}): a game "
                          f"repository has one history")
        return Verdict(commit.id, "neutral")
    change, named, data = found
    path = change.path
    if path in tree:
        raise Refusal(f"{path} was played already", path)
    encrypted = bool(named.group("age"))
    if encrypted:
        try:
            data = desk.identity.decrypt(data, path)
        except PbemError:  # the error names the referee's key file: not for publishing
            raise Refusal(f"{path}: cannot be decrypted with the referee's key (a move with a hidden choice is "
                          f"encrypted to the referee's key of {layout.CONFIG}: `pbem git move` does that)",
                          path) from None
    try:
        doc = movefile.parse(data, path)
    except PbemError as exc:
        raise Refusal(_public_reason(str(exc), encrypted), path) from None
    number, player = int(named.group("number")), named.group("player")
    if doc["game"] != desk.gd.id:
        raise Refusal(f"{path}: the move is for game {doc['game']!r}, this is {desk.gd.id!r}", path)
    if doc["player"] != player or doc["move_number"] != number:
        raise Refusal(f"{path}: the file says move {doc['move_number']} of {doc['player']}; its name must say "
                      f"the same", path)
    if player not in desk.gd.players:
        raise Refusal(f"{path}: {player!r} does not play in {desk.gd.id}", path)
    if not encrypted and hidden_choice(desk.gd, doc["moves"]):
        raise Refusal(f"{path}: this move holds a hidden choice or a queue and was committed in the clear; `pbem git "
                      f"move` encrypts such a move to the referee (moves/NNNN-NAME.yaml.age)", path)
    # a signed file is checked by the engine (a bad signature is refused even on a signed commit); an unsigned
    # one needs the commit signed with the player's registered SSH key
    signed_commit = not doc.get("signature") and _signed_by(desk, commit.id, player, signatures)
    if not doc.get("signature") and not signed_commit:
        raise Refusal(f"{path}: not signed: sign the file with your secret (`pbem git move` does) or sign the "
                      f"commit with your registered SSH key", path)
    if doc["moves"] in ([engine.TAKEBACK_REQUEST], [engine.TAKEBACK_AGREE], [engine.TAKEBACK_DECLINE]):
        return _takeback(desk, commit, change, doc, signed_commit)
    try:
        result = correspondence.submit(desk.gd, player, doc["moves"], by="player", move_number=number,
                                       signature=doc.get("signature"), authenticated=signed_commit, now=desk.now,
                                       may_queue=encrypted)  # steps left for later would be public in the clear
    except PbemError as exc:
        applied = _already_applied(desk, doc)
        if applied is not None:  # a run killed after the engine applied it and before its commit: not twice
            return Verdict(commit.id, "accepted", path, change.blob, result=applied)
        raise Refusal(_public_reason(f"{path}: {exc}", encrypted), path) from None
    return Verdict(commit.id, "accepted", path, change.blob, result=result)


def _takeback(desk: Desk, commit: Commit, change: Change, doc: dict, signed_commit: bool) -> Verdict:
    """A committed takeback file (moves: [takeback-request], [takeback-agree] or [takeback-decline]) applied as the
    mail and the command line apply theirs (pbem.clock.takebacks), with its signature or signed commit; the
    verdict's result in the shape of a turn's: the file's entry, then what the referee wrote after it."""
    word, player = doc["moves"][0], doc["player"]
    how = {"by": "player", "move_number": doc["move_number"], "signature": doc.get("signature"),
           "authenticated": signed_commit, "now": desk.now}
    try:
        if word == engine.TAKEBACK_REQUEST:
            result = takebacks.request(desk.gd, player, **how)
        else:
            result = takebacks.answer(desk.gd, player, word == engine.TAKEBACK_AGREE, **how)
    except PbemError as exc:
        raise Refusal(f"{change.path}: {exc}", change.path) from None
    first, *after = result["entries"]
    result = {key: value for key, value in result.items() if key != "why"}
    return Verdict(commit.id, "accepted", change.path, change.blob,
                   result={**result, "number": first["number"], "player": first["player"],
                           "public_moves": first["moves"], "chance": [], "referee_moves": after})


def shape(repo: Repo, commit: Commit, changes: list[Change] | None) -> tuple[Change, re.Match, bytes] | None:
    """What a commit must look like before anything in it is read as a move: a merge that only joins histories
    (None: neutral), or one parent and exactly one added regular file named moves/NNNN-NAME.yaml(.age), of at most
    MAX_MOVE_BLOB bytes: (that change, its name's parts, its bytes). Refusal otherwise. The server's gate
    (pbem.git.gate) checks the same before a push lands."""
    parents = commit.parents
    if not parents:
        raise Refusal("a second first commit: a game repository has one history")
    if len(parents) > 1:
        own = _merge_changes(repo, commit.id, list(parents))
        if own:
            raise Refusal(f"a merge that changes files of its own ({', '.join(own[:5])}): moves come in plain "
                          f"commits")
        return None
    changes = changes if changes is not None else repo.changes(parents[0], commit.id)
    if len(changes) != 1:
        listed = ", ".join(c.path for c in changes[:5]) + (" ..." if len(changes) > 5 else "")
        raise Refusal(f"a move commit adds exactly one file, moves/NNNN-NAME.yaml; this one changes "
                      f"{plural(len(changes), 'file')} ({listed or 'none'})")
    change = changes[0]
    named = layout.move_name(change.path)
    if change.status != "A" or not named:
        what = {"A": "adds", "D": "deletes"}.get(change.status, "changes")
        raise Refusal(f"it {what} {change.path}: a player's commit may only add one move file "
                      f"moves/NNNN-NAME.yaml; everything else is written by the referee")
    if change.new_mode != REGULAR:
        raise Refusal(f"{change.path} is not a plain file (mode {change.new_mode})", change.path)
    try:
        data = repo.blob(change.blob, change.path, MAX_MOVE_BLOB)
    except PbemError as exc:  # too large: skipped unread (a pushed blob may be any size)
        raise Refusal(str(exc), change.path) from None
    return change, named, data


def other_histories(repo: Repo, merge: str, last: str) -> list[str]:
    """The first commits a merge brings in: in its history and not in that of the last refereed commit (the
    game's own first commit is in both)."""
    return repo.run("rev-list", "--max-parents=0", merge, f"^{last}", "--").split()


def _merge_changes(repo: Repo, commit: str, parents: list[str]) -> list[str]:
    """Paths whose content in a merge commit is in none of its parents: what the merge itself wrote."""
    mine = repo.tree(commit)
    theirs = [repo.tree(parent) for parent in parents]
    paths = set(mine).union(*theirs)
    return sorted(path for path in paths if all(mine.get(path) != other.get(path) for other in theirs))


def hidden_choice(gd: engine.GameDir, texts: list[str]) -> bool:
    """Does one of these moves hold a choice the public log masks, or a queue (private until played), and so must
    not be committed in the clear?"""
    game = gd.game
    if plans.holds_queue(texts):
        return True
    for text in texts:
        try:
            move = game.parse_move(text)
        except notation.NotationError:
            continue  # the engine refuses it with the notation's own message
        if notation.public_text(game.templates, move) != game.format_move(move):
            return True
    return False


def ssh_signatures(repo: Repo, commits: list[Commit], signers) -> dict[str, tuple[str, str]]:
    """{commit: (git's %G? letter, the signer's principal)} of the commits of a push that carry a signature and
    could be a move (one parent), checked against `signers`, the allowed-signers file of the players' SSH keys (None
    when nobody registered one: {}), in one `git log` for the whole push rather than one a commit."""
    if signers is None:
        return {}
    return repo.signatures([commit.id for commit in commits if commit.signed and len(commit.parents) == 1], signers)


def _signed_by(desk: Desk, commit: str, player: str, signatures: dict[str, tuple[str, str]]) -> bool:
    """Is the commit signed with the player's registered SSH key? One without a signature is not ("N", as git
    says of it)."""
    if player not in layout.ssh_keys(desk.config):
        return False
    letter, signer = signatures.get(commit, ("N", ""))
    return letter == "G" and signer == player


def _already_applied(desk: Desk, doc: dict) -> dict | None:
    """The log entry of this very move if the engine already applied it (same number, player, moves and
    signature): a previous run was stopped between applying it and committing."""
    env = engine.load_state(desk.gd)
    if doc["move_number"] >= env["move_number"]:
        return None
    entries = engine.read_log(desk.gd, full=True)["entries"] or []
    entry = next((e for e in entries if e["by"] == "player" and engine.number_answered(e) == doc["move_number"]),
                 None)
    try:
        moves = canonical_moves(desk.gd, doc["moves"])
    except (notation.NotationError, PbemError):
        return None
    same = (entry is not None and entry["player"] == doc["player"] and entry["by"] == "player"
            and (entry["moves"] == moves or entry.get("sealed")) and entry.get("signature") == doc.get("signature"))
    if not same:
        return None
    public = engine.read_log(desk.gd)["entries"] or []
    shown = next((e for e in public if e["number"] == entry["number"]), entry)
    return {"number": entry["number"], "player": entry["player"], "public_moves": shown["moves"],
            "move_number": env["move_number"], "finished": engine.status(desk.gd)["finished"]}


def canonical_moves(gd: engine.GameDir, texts: list[str]) -> list[str]:
    """The moves in the one text form the log records (`resign` and a takeback's words as they are; a queue's items
    as pbem.play.queues writes them); NotationError if one does not parse."""
    return [engine.RESIGN if engine.is_resign(text) else text if text in engine.TAKEBACK_WORDS else
            plans.canonical_item(gd.game, text, gd.players) for text in texts]


def _public_reason(reason: str, encrypted: bool) -> str:
    """A refusal is published: never the legal moves (they can show a hand), nor the words of an encrypted move."""
    reason = re.sub(r"\. Legal: .*$", ".", reason, flags=re.DOTALL)
    if encrypted:
        reason = re.sub(r"'[^'\n]*'", "(hidden)", reason)
    return reason
