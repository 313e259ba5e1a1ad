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
from ..messages import Message, lazy, nlazy
from ..play import movefile, plans, trust
from . import layout, talk
from .desk import Desk
from .repo import Change, Commit, Repo

REGULAR = "100644"
CHANGED = {  # a commit that changes another file than one new move file, by what it does to it (git's letter)
    "A": lambda path: lazy("it adds {path}: a player's commit may only add one move file moves/NNNN-NAME.yaml; "
                           "everything else is written by the referee", path=path),
    "D": lambda path: lazy("it deletes {path}: a player's commit may only add one move file moves/NNNN-NAME.yaml; "
                           "everything else is written by the referee", path=path),
    "M": lambda path: lazy("it changes {path}: a player's commit may only add one move file moves/NNNN-NAME.yaml; "
                           "everything else is written by the referee", path=path)}
MAX_MOVE_BLOB = movefile.MAX_BYTES * 2  # an encrypted move file is larger than its text (armour, age's header)
MAX_REASON = 500
MAX_AUTHOR = 200


@dataclass
class Verdict:
    commit: str
    kind: str  # accepted | refused | neutral | language (a player's choice: `result` says which) | talk (kept)
    path: str | None = None
    blob: str | None = None
    reason: str | None = None
    result: dict | None = None
    at: int | None = None  # the game's move number when it was judged
    author: str = ""  # of a refused commit: "Name <email>", as the commit says (anyone can write any)
    player: str | None = None  # whom a refusal concerns (pbem.git.mails.refused_player), when that can be told
    message: Message | None = None  # the reason as a message, for each reader in their language (`shown`)
    scrub: object = None  # the desk's scrub: what a published reason must not hold (the referee's paths)

    def shown(self) -> str:
        """Why a commit was refused, in the language being read (`reason`: the English, for the organiser)."""
        if self.message is None:
            return self.reason or ""
        text = self.message.render()
        return (self.scrub(text) if self.scrub else text)[:MAX_REASON]


class Refusal(Exception):
    """Why a commit is refused: a message (each reader gets it in their language) or an English str."""

    def __init__(self, reason: str | Message, path: str | None = None):
        english = reason.english() if isinstance(reason, Message) else reason
        super().__init__(english)
        self.reason, self.path = english, path
        self.message = reason if isinstance(reason, Message) else None


def judge(repo: Repo, desk: Desk, commit: Commit, changes: list[Change] | None, tree: dict[str, str],
          signatures: dict[str, tuple[str, str]]) -> Verdict:
    """Judge one commit; `changes`: what it changed against its parent (None for a merge or a first commit);
    `tree` is {path: blob} of the referee's tree so far; `signatures` the SSH signatures of the commits judged
    (ssh_signatures)."""
    try:
        return _judge(repo, desk, commit, changes, tree, signatures)
    except Refusal as refusal:
        return Verdict(commit.id, "refused", path=refusal.path, reason=desk.scrub(refusal.reason)[:MAX_REASON],
                       author=commit.author[:MAX_AUTHOR], message=refusal.message, scrub=desk.scrub)


def _judge(repo: Repo, desk: Desk, commit: Commit, changes: list[Change] | None, tree: dict[str, str],
           signatures: dict[str, tuple[str, str]]) -> Verdict:
    found = shape(repo, commit, changes)
    if found is None:
        brought = other_histories(repo, commit.id, desk.last)
        if brought:
            raise Refusal(lazy("a merge that brings in another history (its first commit {commit}): a game "
                               "repository has one history", commit=brought[0][:10]))
        return Verdict(commit.id, "neutral")
    change, named, data = found
    path = change.path
    if path in tree:
        raise Refusal(lazy("{path} was played already", path=path), path)
    encrypted = bool(named.group("age"))
    if encrypted:
        try:
            data = desk.identity.decrypt(data, path)
        except PbemError:  # the error names the referee's key file: not for publishing
            raise Refusal(lazy("{path}: cannot be decrypted with the referee's key (a move with a hidden choice "
                               "is encrypted to the referee's key of {config}: `pbem git move` does that)",
                               path=path, config=layout.CONFIG), path) from None
    if named.group("talk"):
        return _talk(repo, desk, commit, change, named, data, encrypted, signatures)
    try:
        doc = movefile.parse(data, path)
    except PbemError as exc:
        raise Refusal(public_reason(exc, encrypted), path) from None
    number, player = int(named.group("number")), named.group("player")
    if doc["game"] != desk.gd.id:
        raise Refusal(lazy("{path}: the move is for game {other}, this is {game}", path=path,
                           other=repr(doc["game"]), game=repr(desk.gd.id)), path)
    if doc["player"] != player or doc["move_number"] != number:
        raise Refusal(lazy("{path}: the file says move {number} of {player}; its name must say the same",
                           path=path, number=doc["move_number"], player=doc["player"]), path)
    if player not in desk.gd.players:
        raise Refusal(lazy("{path}: {player} does not play in {game}", path=path, player=repr(player),
                           game=desk.gd.id), path)
    if named.group("setting"):
        code = language_choice(desk, commit.id, path, doc, signatures)
        return Verdict(commit.id, "language", path, change.blob, result={"player": player, "language": code})
    if not encrypted and hidden_choice(desk.gd, doc["moves"]):
        # TRANSLATORS: the command and the file name are typed as they are.
        raise Refusal(lazy("{path}: this move holds a hidden choice or a queue and was committed in the clear; "
                           "`pbem git move` encrypts such a move to the referee (moves/NNNN-NAME.yaml.age)",
                           path=path), path)
    # a signed file is checked by the engine (a bad signature is refused even on a signed commit); an unsigned
    # one needs the commit signed with the player's registered SSH key
    signed_commit = not doc.get("signature") and _signed_by(desk, commit.id, player, signatures)
    if not doc.get("signature") and not signed_commit:
        raise Refusal(lazy("{path}: not signed: sign the file with your secret (`pbem git move` does) or sign "
                           "the commit with your registered SSH key", path=path), path)
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
        raise Refusal(lazy("{path}: {reason}", path=path, reason=public_reason(exc, encrypted)), path) from None
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
        raise Refusal(lazy("{path}: {reason}", path=change.path, reason=exc.message or str(exc)), change.path) from None
    first, *after = result["entries"]
    result = {key: value for key, value in result.items() if key != "why"}
    return Verdict(commit.id, "accepted", change.path, change.blob,
                   result={**result, "number": first["number"], "player": first["player"],
                           "public_moves": first["moves"], "chance": [], "referee_moves": after})


def _talk(repo: Repo, desk: Desk, commit: Commit, change: Change, named: re.Match, data: bytes, encrypted: bool,
          signatures: dict) -> Verdict:
    """A player's message (pbem.git.talk), kept as every transport keeps talk; refused, like a move, with a reason
    that never holds the words of a private one."""
    player = named.group("player")
    if player not in desk.gd.players:
        raise Refusal(lazy("{path}: {player} does not play in {game}", path=change.path, player=repr(player),
                           game=desk.gd.id), change.path)
    earlier = talk.used(repo, commit.parents[0], int(named.group("number")), player)
    try:
        kept = talk.judged(desk.gd, change.path, named, data, encrypted,
                           lambda: _signed_by(desk, commit.id, player, signatures), desk.now, earlier)
    except PbemError as exc:
        raise Refusal(lazy("{path}: {reason}", path=change.path, reason=exc.message or str(exc)), change.path) from None
    return Verdict(commit.id, "talk", change.path, change.blob, result=kept)


def language_choice(desk: Desk, commit: str, path: str, doc: dict, signatures: dict) -> str:
    """A player's choice of the language they read, from their signed language file (`language CODE`, signed like
    a move, for the move number it was made at): recorded as `pbem language` and the mail's `language` record it.
    The language's code; Refusal when the file is not such a choice, or not the player's."""
    from ..text import language
    player, number = doc["player"], doc["move_number"]
    words = doc["moves"][0].split() if len(doc["moves"]) == 1 else []
    if len(words) != 2 or words[0] != layout.LANGUAGE_STEP:
        # TRANSLATORS: `language CODE` is typed as it is.
        raise Refusal(lazy("{path}: a language file holds one step, `language CODE` ({languages})", path=path,
                           languages=list(language.LANGUAGES)), path)
    if number > engine.status(desk.gd)["move_number"]:
        raise Refusal(lazy("{path}: made for move {number}, which the game has not reached", path=path,
                           number=number), path)
    if doc.get("signature"):
        secret = next(p["secret"] for p in engine.roster(desk.gd) if p["name"] == player)
        try:
            trust.check_signature(secret, doc["signature"], desk.gd.id, number, player, doc["moves"])
        except PbemError as exc:
            raise Refusal(lazy("{path}: {reason}", path=path, reason=exc.message or str(exc)), path) from None
    elif not _signed_by(desk, commit, player, signatures):
        raise Refusal(lazy("{path}: not signed: sign the file with your secret (`pbem git move` does) or sign "
                           "the commit with your registered SSH key", path=path), path)
    try:
        return correspondence.set_language(desk.gd, player, words[1])["language"]
    except PbemError as exc:
        raise Refusal(lazy("{path}: {reason}", path=path, reason=exc.message or str(exc)), path) from None


def shape(repo: Repo, commit: Commit, changes: list[Change] | None) -> tuple[Change, re.Match, bytes] | None:
    """What a commit must look like before anything in it is read as a move: a merge that only joins histories
    (None: neutral), or one parent and exactly one added regular file named moves/NNNN-NAME.yaml(.age), of at most
    MAX_MOVE_BLOB bytes: (that change, its name's parts, its bytes). Refusal otherwise. The server's gate
    (pbem.git.gate) checks the same before a push lands."""
    parents = commit.parents
    if not parents:
        raise Refusal(lazy("a second first commit: a game repository has one history"))
    if len(parents) > 1:
        own = _merge_changes(repo, commit.id, list(parents))
        if own:
            raise Refusal(lazy("a merge that changes files of its own ({paths}): moves come in plain commits",
                               paths=own[:5]))
        return None
    changes = changes if changes is not None else repo.changes(parents[0], commit.id)
    if len(changes) != 1:
        listed = [c.path for c in changes[:5]] + (["..."] if len(changes) > 5 else [])
        raise Refusal(nlazy("a move commit adds exactly one file, moves/NNNN-NAME.yaml; this one changes {count} "
                            "file ({paths})", "a move commit adds exactly one file, moves/NNNN-NAME.yaml; this one "
                            "changes {count} files ({paths})", len(changes), count=len(changes),
                            paths=listed or lazy("none")))
    change = changes[0]
    named = layout.move_name(change.path)
    if change.status != "A" or not named:
        raise Refusal(CHANGED.get(change.status, CHANGED["M"])(path=change.path))
    if change.new_mode != REGULAR:
        raise Refusal(lazy("{path} is not a plain file (mode {mode})", path=change.path, mode=change.new_mode),
                      change.path)
    try:
        data = repo.blob(change.blob, change.path, MAX_MOVE_BLOB)
    except PbemError as exc:  # too large: skipped unread (a pushed blob may be any size)
        raise Refusal(exc.message or str(exc), change.path) from None
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


# a refusal's parameters that list legal moves (which can show a hand), and those that hold the words of a move
LEGAL_PARAMS = ("legal", "guesses", "values")
HIDDEN = ("text", "step", "word", "line", "key", "value")
LISTED_ALONE = lazy("(listed to you alone: pbem git moves)")


def public_reason(error: PbemError, encrypted: bool) -> str | Message:
    """A refusal is published: never the legal moves (they can show a hand), nor the words of an encrypted move.
    A message loses them by its parameters (whatever the language it is read in); an English str by its words."""
    if error.message is not None:
        return _published(error.message, encrypted)
    reason = re.sub(r"\. Legal(?: now)?: .*$", ".", str(error), flags=re.DOTALL)
    if encrypted:
        reason = re.sub(r"'[^'\n]*'", "(hidden)", reason)
    return reason


def _published(message: Message, encrypted: bool) -> Message:
    params = {}
    for name, value in message.params.items():
        if name in LEGAL_PARAMS:
            value = LISTED_ALONE
        elif encrypted and name in HIDDEN:
            value = lazy("(hidden)")
        elif isinstance(value, Message):
            value = _published(value, encrypted)
        params[name] = value
    return Message(message.domain, message.singular, params, message.context, message.plural, message.count)
