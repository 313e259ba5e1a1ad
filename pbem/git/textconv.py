"""Diffs in game terms: git's textconv turns a state file into the game's own report of it, so `git diff` and
`git log -p` show who moved and what changed in money, cards and board, not only YAML lines.

General for every game: a status file is rendered by that game's report from the view it holds (the same text
`pbem status` prints), a log one line a move. An encrypted view is shown decrypted when the user's key is at hand
(PBEM_IDENTITY or `git config pbem.identity`), else by its size and digest so a change still shows.
"""
from __future__ import annotations

import hashlib
import os
import shlex
import sys
import tempfile
from pathlib import Path

from ..contract import PbemError
from ..messages import N_, _, ngettext
from ..store import validation, yamlio
from ..store.safefiles import read_bounded
from ..text import report
from ..text.botwords import player_cell
from ..text.language import check, reading
from . import keys
from .refereed import last_refereed, previous_of, vouched_blobs
from .layout import GITATTRIBUTES
from .repo import NO_SUBMODULE_LOOKUP, Repo, blob_id

STATE_PATHS = ("public.yaml", "log.yaml", "refused.yaml", "views/")


def convert(path) -> str:
    """The text git diffs for one state file; never fails (a textconv error would break `git diff`). A file no
    refereed commit holds (a commit pushed since, by anyone) is marked so, and a view of it is not decrypted."""
    with reading(_game_language()):  # git runs it at the top of a clone: the game's language
        try:
            data = read_bounded(path, yamlio.MAX_BYTES)
        except PbemError as exc:  # (never fails: git would stop the diff)
            return _("({reason})", reason=exc.render()) + "\n"
        vouched = _vouched(data)
        head = "" if vouched is not False else _(NOT_REFEREED) + "\n"
        try:
            if data.lstrip().startswith(keys.ARMOR_BEGIN.encode()):
                return head + (_encrypted(data) if vouched is not False else _digest(data))
            return head + _rendered(yamlio.loads(data, str(path)))
        except PbemError:
            return head + data.decode("utf-8", "replace")


NOT_REFEREED = N_("(not written by the referee: no refereed commit holds this version)")


def _vouched(data: bytes) -> bool | None:
    """Does a refereed commit of the repository git runs in hold this very content as a state file? None when
    that cannot be told (not in a game's repository)."""
    try:
        repo = Repo(".")
        refereed = last_refereed(repo, repo.head())
        return blob_id(data) in vouched_blobs(repo, refereed, STATE_PATHS)
    except PbemError:
        return None


def _game_language() -> str | None:
    """The language of the game whose repository git runs in (its game.yaml), None when there is none."""
    try:
        meta = yamlio.load_file(Path("game.yaml"))
    except (PbemError, OSError):
        return None
    code = meta.get("language") if isinstance(meta, dict) else None
    try:
        return check(code) if code else None
    except PbemError:
        return None


def _rendered(doc) -> str:
    kind = doc.get("format") if isinstance(doc, dict) else None
    if kind in ("pbem-public/1", "pbem-player/1"):
        validation.check(doc.get("game"), "player.schema.json" if kind == "pbem-player/1" else "public.schema.json",
                         doc, "status")
        return report.status_text(doc)
    if kind == "pbem-log/1":
        validation.check(doc.get("game"), "log.schema.json", doc, "log")
        return log_lines(doc)
    raise PbemError("not a status or log file")


def log_lines(doc: dict) -> str:
    """One line a move (no table: a table's column widths would change every line of the diff)."""
    # TRANSLATORS: the first line of a log in `git diff`; {game}: the game's id, {kind}: its kind (coal-baron)
    lines = [_("Log of {game} ({kind}, public)", game=doc["id"], kind=doc["game"]) if doc["visibility"] == "public"
             else _("Log of {game} ({kind}, the referee's)", game=doc["id"], kind=doc["game"])]
    domain = doc["game"].replace("-", "_")
    for entry in doc["entries"] or []:
        # a roll as the game says it in the reader's language (`lancer de production, tour 4 : 5`)
        chance = report.chance_line(domain, entry["chance"])
        moves = "; ".join(entry["moves"])
        # TRANSLATORS: a move of the log, in the notation; {number}: its number
        line = _("#{number} {player} (referee): {moves}", number=entry["number"], player=entry["player"],
                 moves=moves) if entry["by"] == "referee" else \
            _("#{number} {player}: {moves}", number=entry["number"], player=player_cell(entry), moves=moves)
        lines.append(line + (f"  [{chance}]" if chance else ""))
    return "\n".join(lines) + "\n"


def _encrypted(data: bytes) -> str:
    source = os.environ.get("PBEM_IDENTITY") or _configured_identity()
    if source:
        try:
            return _rendered(yamlio.loads(keys.Identity.from_file(source).decrypt(data, "view"), "view"))
        except PbemError:
            pass
    return _digest(data)


def _digest(data: bytes) -> str:
    # TRANSLATORS: an encrypted view in `git diff`; {digest}: the start of its SHA-256; `pbem git view`: a command.
    return ngettext("(encrypted, {count} byte, sha256 {digest}; `pbem git view` shows your own)",
                    "(encrypted, {count} bytes, sha256 {digest}; `pbem git view` shows your own)", len(data),
                    count=len(data), digest=hashlib.sha256(data).hexdigest()[:16]) + "\n"


def _configured_identity() -> str | None:
    try:
        return Repo(".").run("config", "pbem.identity", check=False).strip() or None
    except PbemError:
        return None


def game_diff(directory, revisions: list[str], paths: list[str] | None = None) -> str:
    """`git diff` of the state files through the textconv above (default: what the last commit changed).

    The diff drivers come from the referee's own attributes (layout.GITATTRIBUTES), never from a `.gitattributes`
    of the working tree, which a pull of a commit the referee has not judged yet may have brought (naming a driver
    of the user's configuration for any file): git is given an empty working tree and index, and ours as the
    attributes file. No external diff runs either."""
    repo = Repo(directory)
    if not revisions:  # what the last refereed commit changed against the refereed commit before it
        refereed = last_refereed(repo, repo.head())
        previous = previous_of(repo.commit(refereed.commit))
        revisions = [previous, refereed.commit] if previous not in (None, "none") else [refereed.commit]
    command = f"{shlex.quote(sys.executable)} -m pbem.cli git textconv"
    git_dir = repo.git_dir()
    with tempfile.TemporaryDirectory(prefix="pbem-diff-") as tmp:
        attributes, empty = Path(tmp) / "attributes", Path(tmp) / "tree"
        attributes.write_text(GITATTRIBUTES, encoding="utf-8")
        empty.mkdir()
        return repo.run("-c", f"core.attributesFile={attributes}", "-c", f"diff.pbem.textconv={command}",
                        "--work-tree", str(empty), "diff", NO_SUBMODULE_LOOKUP, "--no-ext-diff", *revisions, "--",
                        *(paths or STATE_PATHS),
                        env={"GIT_INDEX_FILE": str(Path(tmp) / "index"), "GIT_DIR": git_dir})
