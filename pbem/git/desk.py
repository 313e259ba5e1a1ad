"""The referee's side of a game played by git: the engine's game directory, the record of refereed commits, and
the referee's key.

Two set-ups (docs/git.md):

- local: the game directory is `ROOT/<id>` on the referee's machine (`--referee-dir ROOT`), never in the
  repository; the record `ROOT/<id>.git.yaml` (mode 0600) lists the refereed commits and holds the age identity
  that hidden moves are encrypted to.
- committed (a referee in CI): the referee's files travel in the repository as `referee.age`, encrypted to the
  referee's key, whose private half sits in the CI's secret store. Each run rebuilds the game directory in a
  temporary folder from the newest refereed commit whose archive is authentic: it decrypts with the referee's
  key, carries a MAC made with that key (anyone can encrypt to a public key, nobody else can make the MAC), names
  the commit it was made on top of, and lists every other file of its commit exactly.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..contract import PbemError
from ..engine import engine
from ..store.gamedir import TALK
from ..text import language
from . import cimail, keys, layout
from .repo import Repo

PUBLIC_FILES = (engine.GAME, engine.COMPONENTS, engine.PUBLIC, engine.LOG)
PRIVATE_DIRS = ("referee", "views")
ARCHIVE_FORMAT = "pbem-git-archive/1"
MAX_ARCHIVE = 64 * 1024 * 1024


def published(gd: engine.GameDir) -> tuple[str, ...]:
    """The game's public files the referee commits: the engine's, and the table's talk once there is any."""
    return PUBLIC_FILES + ((TALK,) if gd.has(TALK) else ())


def default_root() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "pbem" / "git"


@dataclass
class Desk:
    gd: engine.GameDir
    config: dict
    record: dict
    identity: keys.Identity
    committed: bool
    scratch: Path | None = None  # the temporary game directory of a referee in CI
    now: object = None  # the time this run accepts moves at (deadlines count from it); None: the system clock
    mailbook: cimail.Book | None = None  # a referee in CI: the mail ledger its archive carries (pbem.git.cimail)

    @property
    def signing_key(self) -> str | None:
        """The OpenSSH private key the referee signs its commits with (None in a game started before it did)."""
        if not self.config["referee"].get("signer"):
            return None
        return self.identity.ssh_private_key if self.committed else self.record.get("signing_key")

    @property
    def last(self) -> str:
        return self.record["chain"][-1]

    def scrub(self, text: str) -> str:
        """`text` without the paths of the referee's files (a reason is published; where the organiser keeps the
        referee's files is nobody's business)."""
        return scrubbed(text, [self.gd.path, self.gd.path.parent, self.identity.source])

    def close(self) -> None:
        if self.scratch is not None:
            shutil.rmtree(self.scratch, ignore_errors=True)

    # ------------------------------------------------------------ the files the referee commits

    def public_files(self, views: bool = True) -> dict[str, bytes]:
        """The game's public files as the engine wrote them, and (`views`) each player's view encrypted to their
        key. Views are left as they were when no move was applied: age encrypts anew each time, and an unchanged
        view should not show as changed."""
        path = self.gd.path
        files = {name: (path / name).read_bytes() for name in published(self.gd)}
        for schema in sorted((path / "schemas").iterdir()):
            files[f"schemas/{schema.name}"] = schema.read_bytes()
        for player in self.config["players"] if views else []:
            if player["view"] == "encrypted":
                text = (path / engine.view_file(player["name"])).read_text(encoding="utf-8")
                files[layout.view_blob_path(player["name"])] = keys.encrypt(text, [player["key"]], True).encode()
                # what each legal move does, in the language of the one player who reads the file
                with language.reading(engine.language_of(self.gd, player["name"])):
                    legal = self.legal_moves(player["name"])
                if legal is not None:
                    files[layout.legal_blob_path(player["name"])] = keys.encrypt(
                        layout.dump("moves", legal, layout.legal_blob_path(player["name"])), [player["key"]],
                        True).encode()
        return files

    def legal_moves(self, player: str) -> dict | None:
        """The legal moves of `player` with what each does (as `pbem moves --as` gives them) and the game's
        entries for them, when `player` is to act; None otherwise (only the player to act has moves)."""
        legal = engine.legal(self.gd, player)
        if legal["to_act"] != player:
            return None
        entries = self.gd.game.rules.legal_moves(engine.load_state(self.gd)["state"], player)
        return {"format": "pbem-git-moves/1", **{key: legal[key] for key in (
            "game", "game_type", "move_number", "to_act", "player", "decision", "due", "moves", "choices")},
            "entries": entries}

    def private_files(self) -> dict[str, str]:
        found = {}
        for folder in PRIVATE_DIRS:
            for item in sorted((self.gd.path / folder).iterdir()):
                if item.is_file() and not item.name.startswith("."):
                    found[f"{folder}/{item.name}"] = item.read_text(encoding="utf-8")
        return found

    def archive(self, judged: str | None, others: dict[str, str]) -> bytes:
        """referee.age: the referee's private files and what it knows, encrypted and authenticated to itself.
        `others`: {path: blob} of every other file of the commit it goes into; `judged`: that commit's parent."""
        body = {"format": ARCHIVE_FORMAT, "id": self.gd.id, "judged": judged, "chain": self.record["chain"],
                "tree": others, "files": self.private_files()}
        if self.mailbook is not None:
            body["mails"] = self.mailbook.carried(self.gd.path.parent, self.record["chain"])
        return seal(body, self.identity, self.config["referee"]["recipient"])

    def save(self, commit: str) -> None:
        """The commit is made: it is now the last refereed one (a local referee writes its record)."""
        self.record["chain"].append(commit)
        if not self.committed:
            write_record(record_path(self.gd.path), self.record)


# ---------------------------------------------------------------- local referee

PRIVATE = "(the referee's files)"


def scrubbed(text: str, paths: list) -> str:
    """`text` with each of `paths` (as given and made absolute) replaced where it stands as a path: a whole name,
    not the start of a word (a referee folder named `ref` leaves "referee" as it is)."""
    forms = {form for path in paths for form in (str(path), os.path.abspath(path)) if len(form) > 1}
    for form in sorted(forms, key=len, reverse=True):
        text = re.sub(rf"(?<![\w.~/-]){re.escape(form)}(?![\w-]|\.\w)", lambda _: PRIVATE, text)
    return text


def record_path(game_dir: Path) -> Path:
    return game_dir.with_name(game_dir.name + ".git.yaml")


def refereed_by_git(game_dir: Path) -> bool:
    """Is this game directory a local git referee's (its record beside it, `ROOT/<id>.git.yaml`)?"""
    return record_path(Path(os.path.abspath(game_dir))).is_file()


def write_record(path: Path, record: dict) -> None:
    """Atomically, and private from the first byte (it holds the referee's key): never through a symlink."""
    text = layout.dump("record", record, str(path))
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def read_record(path: Path) -> dict:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise PbemError(f"{path}: cannot read the referee's record ({exc.strerror})") from None
    return layout.load("record", data, str(path))


def local_record(root: Path, repo: Repo, tip: str) -> tuple[Path, dict]:
    """The local referee's game directory for the repository whose history ends at `tip`, and its record: the
    game whose first commit is the one the record names (a merge may have brought in other first commits)."""
    games = [(commit, game_id) for commit in repo.roots(tip) if (game_id := _game_id_at(repo, commit))]
    if not games:
        raise PbemError(f"{repo.path}: the first commit holds no game (no valid {engine.GAME})")
    for commit, game_id in games:
        game_dir = Path(root) / game_id
        path = record_path(game_dir)
        if path.is_file():
            record = read_record(path)
            if record["root"] == commit:
                return game_dir, record
    game_dir = Path(root) / games[0][1]
    if record_path(game_dir).is_file():
        raise PbemError(f"{repo.path} is not the repository of the game refereed from {game_dir} (its first "
                        f"commit differs)")
    raise PbemError(f"{record_path(game_dir)}: no referee record of game {game_dir.name} here (the referee's "
                    f"files are where `pbem git init` put them: give that --referee-dir)")


def open_local(root: Path, repo: Repo, tip: str) -> Desk:
    game_dir, record = local_record(root, repo, tip)
    gd = engine.open_game(game_dir)
    identity = keys.Identity(record["identity"], str(record_path(game_dir)))
    config = layout.load("config", repo.show(record["chain"][-1], layout.CONFIG) or b"", layout.CONFIG)
    return Desk(gd, config, record, identity, committed=False)


def _game_id_at(repo: Repo, commit: str) -> str | None:
    """The game id a first commit's game.yaml names, or None (a first commit of another history)."""
    from ..store import yamlio
    try:
        data = yamlio.loads(repo.show(commit, engine.GAME) or b"", f"{engine.GAME} of the first commit")
    except PbemError:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("id"), str) or not engine.ID_PATTERN.fullmatch(
            data["id"]):
        return None
    return data["id"]


# ---------------------------------------------------------------- the referee in CI

def seal(body: dict, identity: keys.Identity, recipient: str) -> bytes:
    payload = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    mac = hmac.new(identity.mac_key(), payload.encode(), hashlib.sha256).hexdigest()
    return keys.encrypt(json.dumps({"mac": mac, "body": payload}), [recipient], compress=True).encode()


def unseal(data: bytes, identity: keys.Identity, what: str) -> dict:
    """The archive's body, or PbemError if it is not one this identity made."""
    try:
        packed = json.loads(identity.decrypt(data, what))
        payload, mac = packed["body"].encode(), packed["mac"]
    except (ValueError, KeyError, TypeError, AttributeError):
        raise PbemError(f"{what}: not a referee archive") from None
    expected = hmac.new(identity.mac_key(), payload, hashlib.sha256).hexdigest()
    if not isinstance(mac, str) or not hmac.compare_digest(mac, expected):
        raise PbemError(f"{what}: not made by this referee (its MAC does not match this key)")
    body = json.loads(payload)
    if body.get("format") != ARCHIVE_FORMAT:
        raise PbemError(f"{what}: an archive of another format")
    return body


def find_last_refereed(repo: Repo, tip: str, identity: keys.Identity) -> tuple[str, dict]:
    """The newest commit in tip's history carrying an authentic archive that belongs exactly to it."""
    for commit in repo.history(tip, grep="^Pbem-Game: "):
        data = repo.show(commit, layout.ARCHIVE, MAX_ARCHIVE)
        if data is None:
            continue
        try:
            body = unseal(data, identity, f"{layout.ARCHIVE} of {commit[:10]}")
        except PbemError:
            continue
        parents = repo.parents(commit)
        others = {path: blob for path, (_, blob) in repo.tree(commit).items() if path != layout.ARCHIVE}
        if body["judged"] == (parents[0] if parents else None) and body["tree"] == others:
            return commit, body
    raise PbemError(f"{repo.path}: no commit of the referee (with a {layout.ARCHIVE} this key made) in the history "
                    f"of {tip[:10]}: wrong key, or the history was rewritten")


def open_committed(repo: Repo, tip: str, identity: keys.Identity) -> Desk:
    last, body = find_last_refereed(repo, tip, identity)
    scratch = Path(tempfile.mkdtemp(prefix="pbem-referee-"))
    try:
        game_dir = scratch / body["id"]
        game_dir.mkdir(mode=0o700)
        listing = repo.tree(last)
        for path, (_, blob) in listing.items():
            if path in PUBLIC_FILES or path == TALK or path.startswith("schemas/"):
                _write(game_dir, path, repo.blob(blob, path), 0o644)
        for path, text in body["files"].items():
            if path.split("/")[0] not in PRIVATE_DIRS or ".." in path.split("/"):
                raise PbemError(f"{layout.ARCHIVE}: unexpected file {path!r}")
            _write(game_dir, path, text.encode("utf-8"), 0o600)
        (game_dir / "referee").chmod(0o700)
        gd = engine.open_game(game_dir)
        config = layout.load("config", repo.show(last, layout.CONFIG) or b"", layout.CONFIG)
        record = {"format": "pbem-git-record/1", "id": body["id"], "root": (body["chain"] or [last])[0],
                  "chain": body["chain"] + [last], "pushed": None, "identity": None}
        book = cimail.read(body.get("mails"), f"{layout.ARCHIVE} of {last[:10]}")
        cimail.restore(book, scratch)
        return Desk(gd, config, record, identity, committed=True, scratch=scratch, mailbook=book)
    except BaseException:
        shutil.rmtree(scratch, ignore_errors=True)
        raise


def _write(game_dir: Path, relative: str, data: bytes, mode: int) -> None:
    target = game_dir / relative
    target.parent.mkdir(parents=True, exist_ok=True, mode=0o700 if mode == 0o600 else 0o755)
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
