"""A game directory: its files and their names, opening it, and reading what is in it, checked.

A game directory (DIR's name is the game id):

    game.yaml            what the game is: type, players, options, seed commitment        (public)
    components.yaml      the card and board data the game was set up with                 (public)
    public.yaml          the position every player may see, who must act, recent moves    (public)
    log.yaml             every turn, hidden choices masked; the full log once the game ends (public)
    talk.yaml            the players' messages to the table, outside the move record        (public)
    views/<player>.yaml  what that player may see (their hand, their money)               (that player)
    schemas/             the JSON Schemas of all these files (editors validate against them)
    referee/             the complete state with the seed, the full log, the secrets      (referee only)

Everything in it but the referee's folder may have been written by a player (play by git): files are read
without following links (pbem.store.safefiles), every file is checked against its schema, game.yaml against the
referee's state. What this process has read and checked is kept (`GameDir.known`), so a file read again while
its bytes are the same is neither parsed nor validated again.
"""
from __future__ import annotations

import contextlib
import json
import os
import re
from functools import cached_property

from .. import digests
from ..contract import PbemError
from ..messages import lazy
from ..rng import commitment
from . import locks, registry, transactions, validation, yamlio
from .safefiles import Missing, exists, not_utf8, path_text, read

GAME, COMPONENTS, PUBLIC, LOG = "game.yaml", "components.yaml", "public.yaml", "log.yaml"
STATE, FULL_LOG, SECRETS = "referee/state.yaml", "referee/log.yaml", "referee/secrets.yaml"
BOT_HOLDER = "bot"  # the holder secrets.yaml names for a seat the referee's bot plays (with no address)
STATE_DIGEST = "referee/state.sha256"
STATUS_DIGESTS = "referee/status.sha256"  # the SHA-256 of public.yaml and each view as the referee wrote them
# The state as JSON, written with it: parsing 20 KB of YAML takes milliseconds, JSON a tenth of one. It is used
# only when writing it back as YAML gives exactly the text of referee/state.yaml (so a stale or edited copy is
# never believed), and is otherwise ignored: state.yaml stays the state.
STATE_CACHE = "referee/state.json"
NOTICES = "referee/notices.yaml"  # what a change owes the players and has not told them yet (pbem.clock.notices)
TALK, ALL_TALK = "talk.yaml", "referee/talk.yaml"  # the table's talk (public); all of it, private too (pbem.clock.talk)
# authenticates the transaction bundle (pbem.store.transactions); never leaves the referee's folder
TXN_KEY = "referee/txn.key"
PRIVATE = 0o600
PUBLIC_MODE = 0o644
FOLDERS = {"referee": 0o700, "views": 0o755, "schemas": 0o755}
# A game's id (its directory's name) and a player's name; here, where the games' files are, so that what only
# looks a game up (the mail referee) does not import what makes one
ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
NAME_PATTERN = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")


def view_file(player: str) -> str:
    return f"views/{player}.yaml"


def schema_line(relative: str, schema_name: str) -> str:
    """Where a file's `$schema` line points: the schemas/ folder, from the file's own folder."""
    depth = relative.count("/")
    return "../" * depth + "schemas/" + schema_name


def layout(meta: dict) -> transactions.Layout:
    """Exactly the files a transaction of this game may write, with their modes (a bundle naming any other path
    is refused): the referee's own, the public ones, each player's view and the known schemas."""
    files = {GAME: PUBLIC_MODE, COMPONENTS: PUBLIC_MODE, PUBLIC: PUBLIC_MODE, LOG: PUBLIC_MODE,
             STATE: PRIVATE, STATE_DIGEST: PRIVATE, STATE_CACHE: PRIVATE, STATUS_DIGESTS: PRIVATE, FULL_LOG: PRIVATE,
             SECRETS: PRIVATE, NOTICES: PRIVATE, TALK: PUBLIC_MODE, ALL_TALK: PRIVATE}
    files.update({view_file(player): PRIVATE for player in meta["players"]})
    schemas = {f"schemas/{name}": PUBLIC_MODE for name in validation.schema_files(meta["game"])}
    files.update(schemas)
    return transactions.Layout(files, FOLDERS, TXN_KEY, frozenset({GAME, COMPONENTS, *schemas}))


class GameDir:
    """An opened game directory: its static description (game.yaml) and its game type. (A plain class, as every
    class on the way of a command: a dataclass costs a millisecond to define, at every start.)"""

    def __init__(self, path, meta: dict, overlay: dict | None = None):
        # the directory as text (as str(Path(path)) writes it): a command's way does not import pathlib, whose
        # import costs milliseconds at every start; `path` gives the Path to those who want one (the transports)
        self.dir, self.meta = path_text(path), meta
        self.overlay = {} if overlay is None else overlay  # a committed bundle's files not yet applied (read through)
        # the directory's descriptor while this process holds its lock (or reads under it): files are opened from
        # it (see `locked`, `reading`)
        self.root: int | None = None
        # what this process has read or written, checked: {relative: (the file's bytes, its data as JSON)}, so a
        # file read again while its bytes are the same is neither parsed nor validated again (a mail's reports)
        self.known: dict[str, tuple[bytes, str]] = {}
        self.rereads = False  # will this process read again what it writes (a mail's reports)? then keep it known
        self.lock_wait: float | None = None  # seconds to wait for the game's lock (None: locks.lock_wait)

    def __repr__(self) -> str:
        return f"GameDir({self.dir!r})"

    @cached_property
    def path(self):
        from pathlib import Path
        return Path(self.dir)

    @property
    def id(self) -> str:
        return self.meta["id"]

    @cached_property
    def game(self) -> registry.Game:
        return registry.get(self.meta["game"])

    @property
    def players(self) -> list[str]:
        return self.meta["players"]

    @cached_property
    def layout(self) -> transactions.Layout:
        return layout(self.meta)

    def where(self, relative: str) -> str:
        """How a file is named in messages: under the directory the user gave."""
        return os.path.join(self.dir, relative)

    def read_bytes(self, relative: str) -> bytes:
        return read(self.dir, relative, yamlio.MAX_BYTES, self.overlay, self.root)

    def read_text(self, relative: str) -> str:
        return _decoded(self.read_bytes(relative), self.where(relative))

    def read(self, relative: str, schema: str, data: bytes | None = None):
        """Read and validate one of the game's files (`data`: its bytes, when the caller has read them)."""
        data = self.read_bytes(relative) if data is None else data
        known = self.known.get(relative)
        if known is not None and known[0] == data:
            return json.loads(known[1])
        doc = yamlio.loads(data, self.where(relative))
        validation.check(self.meta["game"], schema, doc, self.where(relative))
        self.known[relative] = (data, json.dumps(doc, ensure_ascii=False))
        return doc

    def remember(self, files: dict[str, tuple[str, int]], docs: dict[str, dict]) -> None:
        """The files just written, whose data (`docs`, each checked against its schema) is known: read again in
        this process (when it says it will: `rereads`), they are not parsed again."""
        if not self.rereads:
            return
        for relative, doc in docs.items():
            self.known[relative] = (files[relative][0].encode("utf-8"), json.dumps(doc, ensure_ascii=False))

    def has(self, relative: str) -> bool:
        return exists(self.dir, relative, self.overlay, self.root)

    def has_referee(self) -> bool:
        return self.has(STATE)


class StoredFiles:
    """A game directory's files as stored, each read once and parsed once (verify reads a status file whose bytes
    are not the replay's text for its decision's words, then compares it field by field): each value, or the
    PbemError reading it raised, again."""

    def __init__(self, gd: GameDir):
        self.gd, self.found = gd, {}

    def data(self, relative: str) -> bytes:
        return self._once(relative, self.gd.read_bytes)

    def doc(self, relative: str):
        return self._once((relative,), lambda key: yamlio.loads(self.data(key[0]), self.gd.where(key[0])))

    def _once(self, key, read):
        if key not in self.found:
            try:
                self.found[key] = read(key)
            except PbemError as exc:
                self.found[key] = exc
        if isinstance(self.found[key], PbemError):
            raise self.found[key]
        return self.found[key]


def _decoded(data: bytes, where: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise PbemError(not_utf8(where, exc)) from None



def open_game(path) -> GameDir:
    path = path_text(path)
    where = os.path.join(path, GAME)
    missing = PbemError(lazy("{path}: not a pbem game directory (no {file}); create one with `pbem new`", path=path,
                             file=GAME))
    if os.path.exists(path) and not os.path.isdir(path):  # a file named as DIR: the same answer as a missing one
        raise missing
    try:
        text = read(path, GAME, yamlio.MAX_BYTES)
    except Missing:
        raise missing from None
    meta = yamlio.loads(text, where)
    kind = meta.get("game") if isinstance(meta, dict) else None
    if not isinstance(meta, dict):
        raise PbemError(lazy("{where}: not a game description (a mapping with game, players, options, ...)",
                             where=where))
    if not isinstance(kind, str) or kind not in registry.installed():
        known = ", ".join(sorted(registry.installed()))
        # TRANSLATORS: {kind}: a game's id as game.yaml names it ('coal-baron'); {known}: the installed games' ids.
        raise PbemError(lazy("{where}: the game {kind} is not installed here (the games installed: {known}); install "
                             "its package to play it", where=where, kind=repr(kind), known=known)
                        if isinstance(kind, str) else lazy("{where}: unknown game type {kind}", where=where,
                                                           kind=repr(kind)))
    validation.check(kind, "game.schema.json", meta, where)
    gd = GameDir(path, meta)
    if not gd.game.plays(meta["rules_version"]):
        raise PbemError(lazy("{path}: {game} was created under {kind} rules version {made}, this pbem has version "
                             "{version}: finish it with the pbem that started it", path=path, game=gd.id,
                             kind=meta["game"], made=meta["rules_version"], version=gd.game.rules_version))
    return gd



@contextlib.contextmanager
def reading(gd: GameDir):
    """What a read-only command reads under: no file created, a running writer waited for, and the files of a
    committed bundle a killed writer left read through (so a reader never sees half a move)."""
    with locks.reading(gd.dir, gd.layout, gd.lock_wait) as held:
        outer = gd.overlay, gd.root
        gd.overlay, gd.root = held.overlay, held.root
        try:
            yield
        finally:
            gd.overlay, gd.root = outer


@contextlib.contextmanager
def locked(gd: GameDir):
    """The game's lock held (a committed bundle a killed writer left applied first): its files are read from the
    directory locked, and `commit` writes there."""
    with locks.locked(gd.dir, gd.layout, gd.lock_wait) as held:
        outer = gd.overlay, gd.root
        gd.overlay, gd.root = {}, held.root
        try:
            yield
        finally:
            gd.overlay, gd.root = outer


def commit_files(gd: GameDir, files: dict[str, tuple[str, int]]) -> None:
    """Write the files as one transaction, under the lock (`locked`)."""
    transactions.commit(gd.dir, files, gd.layout, gd.root)


def settle(gd: GameDir) -> None:
    """Finish a move that a killed writer committed but did not put in place (takes the lock). Readers do not
    need it; a transport that publishes the files themselves (a git commit) calls it first."""
    with locked(gd):
        pass


def state_edited(gd: GameDir, text: bytes | None = None) -> bool:
    """Was referee/state.yaml changed outside pbem (its text no longer has the digest written with it)?"""
    try:
        recorded = gd.read_bytes(STATE_DIGEST).strip()
    except Missing:
        return True
    text = gd.read_bytes(STATE) if text is None else text
    return digests.sha256(text).hexdigest().encode() != recorded


def load_state(gd: GameDir, trust_edits: bool = False) -> dict:
    """The referee's state, refused if it was edited by hand or if game.yaml does not describe it (verify reads
    it anyway, to show what differs)."""
    if not gd.has_referee():
        raise PbemError(lazy("{path}: the referee's files are not here (no {file}: this is a public copy of the "
                             "game)", path=str(gd.dir), file=STATE))
    text = gd.read_bytes(STATE)
    if not trust_edits and state_edited(gd, text):
        # TRANSLATORS: {file}: the checksum's file name; `pbem verify` is a command: keep it.
        raise PbemError(lazy("{where} was changed outside pbem (it does not match the checksum written with it, "
                             "{file}); nothing was done. `pbem verify` shows what differs from the replay of the log",
                             where=gd.where(STATE), file=STATE_DIGEST))
    cached_state(gd, text)
    env = gd.read(STATE, "referee-state.schema.json", text)
    if env["id"] != gd.id or env["game"] != gd.meta["game"]:
        raise PbemError(lazy("{where} belongs to another game ({other}, {other_kind}) than {game_file} describes "
                             "({game}, {kind})", where=gd.where(STATE), other=env["id"], other_kind=env["game"],
                             game_file=gd.where(GAME), game=gd.id, kind=gd.meta["game"]))
    differing = game_file_differences(gd, env)
    if differing and not trust_edits:
        # TRANSLATORS: {fields}: the names of game.yaml's fields that differ (players, options), listed.
        raise PbemError(lazy("{where} does not describe the referee's state ({fields} differ): it was changed "
                             "outside pbem; nothing was done. `pbem verify` shows what differs", where=gd.where(GAME),
                             fields=differing))
    return env


def game_file_differences(gd: GameDir, env: dict) -> list[str]:
    """The fields of game.yaml that the referee's state contradicts."""
    facts = {"rules_version": env["rules_version"], "players": env["players"], "options": env["options"],
             "seed_commitment": commitment(env["seed"]), "rulings": env.get("rulings", 1)}
    written = {"rulings": 1, **gd.meta}  # (a game made before the referee's rulings were numbered: 1)
    return [key for key, value in facts.items() if written[key] != value]


def load_secrets(gd: GameDir) -> dict:
    """The players' secrets and addresses, refused unless they are this game's, one entry a player (a file
    edited by hand would otherwise fail deep inside a command)."""
    doc = gd.read(SECRETS, "secrets.schema.json")
    names = [entry["name"] for entry in doc["players"]]
    if doc["id"] != gd.id or sorted(names) != sorted(gd.players):
        raise PbemError(lazy("{where}: holds the secrets of {other} for {names}, but {game_file} describes {game} "
                             "played by {players}: one of them was changed outside pbem; nothing was done",
                             where=gd.where(SECRETS), other=doc["id"], names=names or [lazy("no one")],
                             game_file=gd.where(GAME), game=gd.id, players=list(gd.players)))
    return doc


def roster(gd: GameDir) -> list[dict]:
    return load_secrets(gd)["players"]


def cached_state(gd: GameDir, text: bytes) -> None:
    """Take the state from its JSON copy (into gd.known) if that copy, written as YAML, is exactly `text`: then it
    is the data the YAML holds (what pbem writes reads back identical, a tested property), however the copy came
    to be. Otherwise nothing: the YAML is parsed."""
    known = gd.known.get(STATE)
    if known is not None and known[0] == text:
        return
    try:
        cached = gd.read_text(STATE_CACHE)
        env = json.loads(cached)
        same = yamlio.dumps(env, schema_line(STATE, "referee-state.schema.json")).encode() == text
    except (PbemError, ValueError, TypeError, RecursionError):  # missing, unreadable, not JSON, not plain data
        return
    if same:
        validation.check(gd.meta["game"], "referee-state.schema.json", env, gd.where(STATE))
        gd.known[STATE] = (text, cached)



def read_status(gd: GameDir, viewer: str | None, data: bytes | None = None) -> dict:
    if viewer is not None:
        return gd.read(view_file(viewer), "player.schema.json", data)
    return gd.read(PUBLIC, "public.schema.json", data)


def check_player(gd: GameDir, player: str) -> None:
    if player not in gd.players:
        raise PbemError(lazy("{player} does not play in {game} (players: {players})", player=repr(player),
                             game=gd.id, players=list(gd.players)))


def read_components(gd: GameDir, sha256: str) -> dict:
    """components.yaml, which must be the file the game was set up with (its SHA-256 is `sha256`: game.yaml's),
    checked against the game's components schema."""
    try:
        text = gd.read_bytes(COMPONENTS)
    except Missing:
        text = b""
    if digests.sha256(text).hexdigest() != sha256:
        raise PbemError(lazy("{where} is not the file the game was set up with (its SHA-256 is not the one in "
                             "{game_file})", where=gd.where(COMPONENTS), game_file=GAME))
    components = yamlio.loads(text, gd.where(COMPONENTS))
    # a game made before the components schemas bounded their strings' lengths keeps its names (its file is the
    # one it was set up with: the SHA-256 above)
    validation.check(gd.meta["game"], validation.game_name("components"), components, gd.where(COMPONENTS),
                     waived=("maxLength",))
    return components


def components_reader(gd: GameDir):
    """A function that reads the game's components once, when first called: for a bot that searches (most moves
    never read them)."""
    read = []

    def components() -> dict:
        if not read:
            read.append(read_components(gd, gd.meta["components_sha256"]))
        return read[0]
    return components

