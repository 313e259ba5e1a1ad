"""The referee: creates games, checks and applies submitted turns, writes every file, replays logs.

It knows no game by name; everything game-specific comes through the registry and the contract (pbem.contract).

A game directory (DIR's name is the game id):

    game.yaml            what the game is: type, players, options, seed commitment        (public)
    components.yaml      the card and board data the game was set up with                 (public)
    public.yaml          the position every player may see, who must act, recent moves    (public)
    log.yaml             every turn, hidden choices masked; the full log once the game ends (public)
    views/<player>.yaml  what that player may see (their hand, their money)               (that player)
    schemas/             the JSON Schemas of all these files (editors validate against them)
    referee/             the complete state with the seed, the full log, the secrets      (referee only)

Everything in it but the referee's folder may have been written by a player (play by git): files are read
without following links (pbem.store), every file is checked against its schema, game.yaml against the referee's
state, and the logs the referee appends to against the digests its state holds.
"""
from __future__ import annotations

import contextlib
import json
import os
import re
from functools import cached_property

from . import __version__, bots, digests, notation, registry, store, trust, validation, yamlio
from .contract import PbemError, UsageError
from .rng import Rng, commitment

ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
NAME_PATTERN = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")
# Words no player may be called: moves every game has, and words of the log (`by: referee`).
RESERVED_NAMES = ("pass", "referee", "resign")
# An address that can stand in a mail header as it is: no space, control character, quote or list separator.
EMAIL_PATTERN = re.compile(r'[^@\s\x00-\x1f\x7f<>,;"]{1,64}@[^@\s\x00-\x1f\x7f<>,;"]{1,189}')
MAX_SEED = 200
RECENT = 8
MAX_LEGAL_SHOWN = 40
AUTOPILOT_LIMIT = 5000  # moves the referee plays in a row (resigned players, forced moves) before it gives up
MAX_PROBLEMS = 40
RESIGN = "resign"  # the one move every game has: reserved, no game may use it as an action
REPLACE = "replace"  # the log entry of a seat handed to a new player (pbem replace): not a move of the game
ADMIN_WORDS = (RESIGN, REPLACE)
# the reasons of the log entries the clock makes (pbem.correspondence): verify recomputes these moves
TIMEOUT_REASONS = {"first-legal": "timeout (first-legal)", "bot": "timeout (bot)"}

GAME, COMPONENTS, PUBLIC, LOG = "game.yaml", "components.yaml", "public.yaml", "log.yaml"
STATE, FULL_LOG, SECRETS = "referee/state.yaml", "referee/log.yaml", "referee/secrets.yaml"
STATE_DIGEST = "referee/state.sha256"
STATUS_DIGESTS = "referee/status.sha256"  # the SHA-256 of public.yaml and each view as the referee wrote them
# The state as JSON, written with it: parsing 20 KB of YAML takes milliseconds, JSON a tenth of one. It is used
# only when writing it back as YAML gives exactly the text of referee/state.yaml (so a stale or edited copy is
# never believed), and is otherwise ignored: state.yaml stays the state.
STATE_CACHE = "referee/state.json"
TXN_KEY = "referee/txn.key"  # authenticates the transaction bundle (pbem.store); never leaves the referee's folder
PRIVATE = 0o600
PUBLIC_MODE = 0o644
FOLDERS = {"referee": 0o700, "views": 0o755, "schemas": 0o755}


def is_resign(text: str) -> bool:
    """Is this move text `resign` (however spaced or cased)?"""
    return " ".join(notation.tokens_of(text)) == RESIGN


def view_file(player: str) -> str:
    return f"views/{player}.yaml"


def _schema_line(relative: str, schema_name: str) -> str:
    depth = relative.count("/")
    return "../" * depth + "schemas/" + schema_name


def layout(meta: dict) -> store.Layout:
    """Exactly the files a transaction of this game may write, with their modes (a bundle naming any other path
    is refused): the referee's own, the public ones, each player's view and the known schemas."""
    files = {GAME: PUBLIC_MODE, COMPONENTS: PUBLIC_MODE, PUBLIC: PUBLIC_MODE, LOG: PUBLIC_MODE,
             STATE: PRIVATE, STATE_DIGEST: PRIVATE, STATE_CACHE: PRIVATE, STATUS_DIGESTS: PRIVATE, FULL_LOG: PRIVATE,
             SECRETS: PRIVATE}
    files.update({view_file(player): PRIVATE for player in meta["players"]})
    schemas = {f"schemas/{name}": PUBLIC_MODE for name in validation.schema_files(meta["game"])}
    files.update(schemas)
    return store.Layout(files, FOLDERS, TXN_KEY, frozenset({GAME, COMPONENTS, *schemas}))


class GameDir:
    """An opened game directory: its static description (game.yaml) and its game type. (A plain class, as every
    class on the way of a command: a dataclass costs a millisecond to define, at every start.)"""

    def __init__(self, path, meta: dict, overlay: dict | None = None):
        # the directory as text (as str(Path(path)) writes it): a command's way does not import pathlib, whose
        # import costs milliseconds at every start; `path` gives the Path to those who want one (the transports)
        self.dir, self.meta = store.path_text(path), meta
        self.overlay = {} if overlay is None else overlay  # a committed bundle's files not yet applied (read through)
        # what this process has read or written, checked: {relative: (the file's bytes, its data as JSON)}, so a
        # file read again while its bytes are the same is neither parsed nor validated again (a mail's reports)
        self.known: dict[str, tuple[bytes, str]] = {}
        self.rereads = False  # will this process read again what it writes (a mail's reports)? then keep it known

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
    def layout(self) -> store.Layout:
        return layout(self.meta)

    def where(self, relative: str) -> str:
        """How a file is named in messages: under the directory the user gave."""
        return os.path.join(self.dir, relative)

    def read_bytes(self, relative: str) -> bytes:
        return store.read(self.dir, relative, yamlio.MAX_BYTES, self.overlay)

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
        return store.exists(self.dir, relative, self.overlay)

    def has_referee(self) -> bool:
        return self.has(STATE)


def _decoded(data: bytes, where: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise PbemError(f"{where}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def open_game(path) -> GameDir:
    path = store.path_text(path)
    where = os.path.join(path, GAME)
    missing = PbemError(f"{path}: not a pbem game directory (no {GAME}); create one with `pbem new`")
    if os.path.exists(path) and not os.path.isdir(path):  # a file named as DIR: the same answer as a missing one
        raise missing
    try:
        text = store.read(path, GAME, yamlio.MAX_BYTES)
    except store.Missing:
        raise missing from None
    meta = yamlio.loads(text, where)
    kind = meta.get("game") if isinstance(meta, dict) else None
    if not isinstance(kind, str) or kind not in registry.GAMES:
        raise PbemError(f"{where}: unknown game type {kind!r}" if isinstance(meta, dict) else
                        f"{where}: not a game description (a mapping with game, players, options, ...)")
    validation.check(kind, "game.schema.json", meta, where)
    gd = GameDir(path, meta)
    installed = gd.game.rules_version
    if meta["rules_version"] != installed:
        raise PbemError(f"{path}: {gd.id} was created under {meta['game']} rules version {meta['rules_version']}, "
                        f"this pbem has version {installed}: finish it with the pbem that started it")
    return gd


# ---------------------------------------------------------------- documents written for a state

def public_entry(game: registry.Game, entry: dict) -> dict:
    """The log entry every player may read: hidden choices masked, private chance outcomes left out."""
    public = {"number": entry["number"], "player": entry["player"], "by": entry["by"],
              "moves": [text if text in ADMIN_WORDS else notation.public_text(game.templates, game.parse_move(text))
                        for text in entry["moves"]],
              "chance": [outcome for outcome in entry["chance"] if outcome["public"]]}
    if "reason" in entry:
        public["reason"] = entry["reason"]
    return public


def _decision(game: registry.Game, state: dict) -> dict | None:
    pending = game.rules.pending(state)
    if pending is None:
        return None
    return {"player": pending["player"], "decision": pending["decision"],
            "description": game.meta.get("decisions", {}).get(pending["decision"], pending["decision"])}


def _status_doc(gd: GameDir, env: dict, viewer: str | None, recent: list[dict], decision: dict | None,
                ranking: list[dict] | None) -> dict:
    game, state = gd.game, env["state"]
    doc = {"format": "pbem-player/1" if viewer else "pbem-public/1", "id": gd.id, "game": game.id,
           "rules_version": game.rules_version, "title": game.title}
    if viewer:
        doc["player"] = viewer
    doc.update({"move_number": env["move_number"], "to_act": decision["player"] if decision else None,
                "decision": decision})
    if decision is not None and env.get("clock"):
        from . import clock  # (pbem.clock is imported only by a game with deadlines)
        doc["clock"] = clock.public(env["clock"])
    doc.update({"finished": decision is None, "seed_commitment": gd.meta["seed_commitment"]})
    if decision is None:
        doc["ranking"] = ranking
        doc["seed"] = env["seed"]
    doc["recent"] = recent
    doc["view"] = game.rules.view(state, viewer)
    return doc


def final_ranking(result: list[dict], resigned: list[str]) -> list[dict]:
    """The game's ranking, with players who resigned moved below everyone who played on (in resignation order).
    Ranks are renumbered over those who played on (their order and their ties as the game ranked them), then the
    resigned players take the ranks after them, one each."""
    played_on = [row for row in result if row["player"] not in resigned]
    stayed = sorted((dict(row, rank=1 + sum(1 for other in played_on if other["rank"] < row["rank"]))
                     for row in played_on), key=lambda r: r["rank"])
    left = sorted((dict(row) for row in result if row["player"] in resigned), key=lambda r: resigned.index(r["player"]))
    for row in left:
        row["rank"] = len(stayed) + 1 + resigned.index(row["player"])
        row["details"] = {**row.get("details", {}), "resigned": "yes"}
    return stayed + left


def _yaml(relative: str, schema: str, data: dict, game_type: str, source: str) -> str:
    """Validate before writing: a file pbem writes always matches its schema."""
    validation.check(game_type, schema, data, source)
    return yamlio.dumps(data, _schema_line(relative, schema))


def _log_header(gd: GameDir, visibility: str, setup_chance: list) -> dict:
    return {"format": "pbem-log/1", "id": gd.id, "game": gd.meta["game"], "rules_version": gd.meta["rules_version"],
            "visibility": visibility, "setup_chance": setup_chance, "entries": None}


def _log_text(gd: GameDir, relative: str, header: dict) -> str:
    return _yaml(relative, "log.schema.json", header, gd.meta["game"], f"{gd.id} {relative}")


def _append_entry(gd: GameDir, old_text: str, entry: dict) -> str:
    """Logs are appended as text (the old entries are not parsed again), so a move costs the same at move 300.
    The new entry is validated on its own, inside a log holding only it."""
    validation.check(gd.meta["game"], "log.schema.json", {**_log_header(gd, "referee", []), "entries": [entry]},
                     f"{gd.id} log entry {entry['number']}")
    if old_text.endswith("entries: null\n"):
        old_text = old_text[: -len("null\n")].rstrip(" ") + "\n"
    return old_text + yamlio.dumps([entry])


def _status_docs(gd: GameDir, env: dict, recent: list[dict]) -> dict[str, dict]:
    """The public status and each player's view of a state envelope, by the file each goes into."""
    decision = _decision(gd.game, env["state"])  # the same for every document: computed once
    ranking = None if decision else final_ranking(gd.game.rules.result(env["state"]), env.get("resigned", []))
    docs = {PUBLIC: _status_doc(gd, env, None, recent, decision, ranking)}
    for player in gd.players:
        docs[view_file(player)] = _status_doc(gd, env, player, recent, decision, ranking)
    return docs


def _status_files(gd: GameDir, env: dict, recent: list[dict], docs: dict[str, dict] | None = None
                  ) -> dict[str, tuple[str, int]]:
    """The status files' texts (of `docs`, from _status_docs), each checked against its schema."""
    docs = _status_docs(gd, env, recent) if docs is None else docs
    files = {PUBLIC: (_yaml(PUBLIC, "public.schema.json", docs[PUBLIC], gd.meta["game"], f"{gd.id} public status"),
                      PUBLIC_MODE)}
    for player in gd.players:
        relative = view_file(player)
        files[relative] = (_yaml(relative, "player.schema.json", docs[relative], gd.meta["game"],
                                 f"{gd.id} view of {player}"), PRIVATE)
    return files


def _with_status_digests(status: dict[str, tuple[str, int]]) -> dict[str, tuple[str, int]]:
    """The status files and, in the referee's folder, their digests (`sha256sum` lines): `status` then shows a
    stored file only when it is the one the referee wrote, without reading the state."""
    lines = "".join(f"{digests.sha256(text.encode()).hexdigest()}  {relative}\n"
                    for relative, (text, _) in status.items())
    return {**status, STATUS_DIGESTS: (lines, PRIVATE)}


def _state_files(gd: GameDir, env: dict) -> dict[str, tuple[str, int]]:
    """The state, the SHA-256 of its text (an edit by hand is then caught on every read) and its JSON copy (read
    instead of the YAML when it gives exactly that text), written together."""
    text = _yaml(STATE, "referee-state.schema.json", env, gd.meta["game"], f"{gd.id} state")
    return {STATE: (text, PRIVATE), STATE_DIGEST: (digests.sha256(text.encode()).hexdigest() + "\n", PRIVATE),
            STATE_CACHE: (json.dumps(env, ensure_ascii=False, separators=(",", ":")) + "\n", PRIVATE)}


def _cached_state(gd: GameDir, text: bytes) -> None:
    """Take the state from its JSON copy (into gd.known) if that copy, written as YAML, is exactly `text`: then it
    is the data the YAML holds (what pbem writes reads back identical, a tested property), however the copy came
    to be. Otherwise nothing: the YAML is parsed."""
    known = gd.known.get(STATE)
    if known is not None and known[0] == text:
        return
    try:
        cached = gd.read_text(STATE_CACHE)
        env = json.loads(cached)
        same = yamlio.dumps(env, _schema_line(STATE, "referee-state.schema.json")).encode() == text
    except (PbemError, ValueError, TypeError, RecursionError):  # missing, unreadable, not JSON, not plain data
        return
    if same:
        validation.check(gd.meta["game"], "referee-state.schema.json", env, gd.where(STATE))
        gd.known[STATE] = (text, cached)


# ---------------------------------------------------------------- new

def parse_player(spec: str) -> tuple[str, str | None]:
    name, _, email = spec.partition(":")
    if not NAME_PATTERN.fullmatch(name):
        raise UsageError(f"player name {name!r}: use lowercase letters, digits, - and _ (at most 32, starting "
                         f"with a letter): names are words of the move notation, which is lowercase")
    if email and not EMAIL_PATTERN.fullmatch(email):
        raise UsageError(f"player {name}: {email[:80]!r} is not an email address")
    return name, email or None


def _check_names(game: registry.Game, names: list[str]) -> None:
    """A player's name must not read as a word of the moves or of the log: `pass` or `place` as a name would make
    a move like `appoint pass` ambiguous, and `referee` would pass for the referee in the log."""
    words = {part.literal for template in game.templates for part in template.parts if part.literal}
    taken = [name for name in names if name in RESERVED_NAMES or name in words]
    if taken:
        raise UsageError(f"player name {taken[0]!r} is a word of {game.title}'s moves or of the log; choose another "
                         f"(reserved: {', '.join(sorted(set(RESERVED_NAMES) | words))})")


def _options_fit(game: registry.Game, names: list[str], options: dict[str, str]) -> bool:
    try:
        game.rules.setup(names, options, game.default_components(), Rng("options", "check", 0))
    except PbemError:
        return False
    return True


def load_components(game: registry.Game, path) -> dict:
    data = yamlio.load_file(path) if path else game.default_components()
    validation.check(game.id, validation.game_name("components"), data, f"components file {path or '(default)'}")
    return data


def create(game_type: str, path, players: list[tuple[str, str | None]], seed: str | None = None,
           options: dict[str, str] | None = None, components_path=None, organiser: str | None = None,
           deadlines: dict | None = None, notify: dict[str, str] | None = None, now=None,
           forced_moves: bool = True) -> dict:
    """A new game in `path`, with the first moves the referee plays (forced moves, see referee_turns).
    `deadlines`: a clock record (pbem.clock.new_clock) whose first decision starts `now`; `notify`: each player's
    mail preference (every, turn, daily). `forced_moves=False` makes a game whose players play their forced moves
    themselves, as games created before pbem played them did (to rebuild such a game from its move files)."""
    from . import clock
    game = registry.get(game_type)
    now = clock.moment(now)
    from pathlib import Path  # (`new` only)
    path = Path(path)
    game_id = path.name
    if organiser is not None and not EMAIL_PATTERN.fullmatch(organiser):
        raise UsageError(f"--organiser {organiser[:80]!r} is not an email address")
    if seed is not None and not 0 < len(seed) <= MAX_SEED:
        raise UsageError(f"--seed: 1 to {MAX_SEED} characters, not {len(seed)}")
    if not ID_PATTERN.fullmatch(game_id):
        raise UsageError(f"{game_id!r} cannot be a game id: the directory name must be lowercase letters, digits,"
                         f" - and _")
    if path.exists() and not _left_by_a_killed_new(path):
        raise UsageError(f"{path} already exists: a game id is used once under its games root")
    names = [name for name, _ in players]
    if len(set(names)) != len(names):
        raise UsageError("two players have the same name")
    _check_names(game, names)
    if not game.min_players <= len(names) <= game.max_players:
        raise UsageError(f"{game.title} is for {game.min_players}-{game.max_players} players, not {len(names)}")
    options = game.resolve_options(options or {})
    components = load_components(game, components_path)
    if seed is None:
        import secrets  # here only: what `new` needs, the other commands need not import
        seed = secrets.token_hex(16)
    rng = Rng(seed, game_id, 0)
    try:
        state = game.rules.setup(names, options, components, rng)
    except PbemError as exc:
        # The game refuses the options (one that does not fit this player count: the organiser's command line,
        # exit 1) or a club's components file (a file, exit 2): the shipped components tell which.
        if components_path is not None and _options_fit(game, names, options):
            raise
        raise UsageError(str(exc)) from None
    gd = GameDir(path, {"format": "pbem-game/1", "id": game_id, "game": game.id, "rules_version": game.rules_version,
                        "title": game.title, "players": names, "options": options,
                        "seed_commitment": commitment(seed), "components_sha256": "", "created": "",
                        "pbem_version": __version__})
    components_text = yamlio.dumps(components, _schema_line(COMPONENTS, validation.game_name("components")))
    gd.meta["components_sha256"] = digests.sha256(components_text.encode()).hexdigest()
    gd.meta["created"] = now.isoformat()
    env = {"format": "pbem-state/1", "id": game_id, "game": game.id, "rules_version": game.rules_version,
           "move_number": 1, "seed": seed, "players": names, "options": options, "resigned": [], "recent": [],
           "state": state}
    if forced_moves:
        env["forced_moves"] = "referee"
    env["state"], entries = referee_turns(game, state, env, game_id, 1, [])
    public = [public_entry(game, entry) for entry in entries]
    env.update({"move_number": 1 + len(entries), "recent": public[-RECENT:]})
    if deadlines is not None:
        env["clock"] = clock.begin(deadlines, game.rules.pending(env["state"])["player"], now)
    unknown = sorted(set(notify or {}) - set(names))
    if unknown:
        raise UsageError(f"--notify for {', '.join(unknown)}, who does not play")
    roster = [{"name": name, "secret": trust.new_secret(), "email": email} for name, email in players]
    for entry in roster:
        if (notify or {}).get(entry["name"], "every") != "every":
            entry["notify"] = notify[entry["name"]]
    secrets_doc = {"format": "pbem-secrets/1", "id": game_id, "game": game.id, "rules_version": game.rules_version,
                   "players": roster, "organiser": organiser}
    public_chance = [outcome for outcome in rng.outcomes if outcome["public"]]
    logs = {FULL_LOG: _log_text(gd, FULL_LOG, _log_header(gd, "referee", rng.outcomes)),
            LOG: _log_text(gd, LOG, _log_header(gd, "public", public_chance))}
    for entry, shown in zip(entries, public):
        logs = {FULL_LOG: _append_entry(gd, logs[FULL_LOG], entry), LOG: _append_entry(gd, logs[LOG], shown)}
    env["log_sha256"] = _digests(logs)
    files = {
        GAME: (_yaml(GAME, "game.schema.json", gd.meta, game.id, "game.yaml"), PUBLIC_MODE),
        COMPONENTS: (components_text, PUBLIC_MODE),
        **_state_files(gd, env),
        FULL_LOG: (logs[FULL_LOG], PRIVATE),
        LOG: (logs[LOG], PUBLIC_MODE),
        SECRETS: (_yaml(SECRETS, "secrets.schema.json", secrets_doc, game.id, "secrets"), PRIVATE),
        **_with_status_digests(_status_files(gd, env, env["recent"])),
    }
    for name, schema in validation.schemas_for(game.id).items():
        files[f"schemas/{name}"] = (_json(schema), PUBLIC_MODE)
    store.make_folder(path)
    with store.locked(path, gd.layout):
        store.commit(path, files, gd.layout)
    return {"game": game_id, "game_type": game.id, "dir": str(path), "players": roster, "referee_moves": public,
            "move_number": env["move_number"]}


def _left_by_a_killed_new(path) -> bool:
    """Only what a `new` killed before its commit point leaves (the lock, the transaction folder, the key):
    `new` may run there again."""
    if not path.is_dir():
        return False
    names = {p.name for p in path.iterdir()}
    key_folder, key_name = TXN_KEY.split("/")
    if key_folder in names and ((path / key_folder).is_symlink()
                                or {p.name for p in (path / key_folder).iterdir()} - {key_name}):
        return False
    return names <= {store.LOCK, store.TXN, key_folder}


def _json(data) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _digests(texts: dict[str, str]) -> dict[str, str]:
    return {relative: digests.sha256(text.encode()).hexdigest() for relative, text in texts.items()}


# ---------------------------------------------------------------- reading

@contextlib.contextmanager
def _reading(gd: GameDir):
    """What a read-only command reads under: no file created, a running writer waited for, and the files of a
    committed bundle a killed writer left read through (so a reader never sees half a move)."""
    with store.reading(gd.dir, gd.layout) as overlay:
        gd.overlay = overlay
        try:
            yield
        finally:
            gd.overlay = {}


def settle(gd: GameDir) -> None:
    """Finish a move that a killed writer committed but did not put in place (takes the lock). Readers do not
    need it; a transport that publishes the files themselves (a git commit) calls it first."""
    with store.locked(gd.dir, gd.layout):
        pass


def state_edited(gd: GameDir, text: bytes | None = None) -> bool:
    """Was referee/state.yaml changed outside pbem (its text no longer has the digest written with it)?"""
    try:
        recorded = gd.read_bytes(STATE_DIGEST).strip()
    except store.Missing:
        return True
    text = gd.read_bytes(STATE) if text is None else text
    return digests.sha256(text).hexdigest().encode() != recorded


def load_state(gd: GameDir, trust_edits: bool = False) -> dict:
    """The referee's state, refused if it was edited by hand or if game.yaml does not describe it (verify reads
    it anyway, to show what differs)."""
    if not gd.has_referee():
        raise PbemError(f"{gd.dir}: the referee's files are not here (this is a public copy of the game)")
    text = gd.read_bytes(STATE)
    if not trust_edits and state_edited(gd, text):
        raise PbemError(f"{gd.where(STATE)} was changed outside pbem (it does not match the checksum written with "
                        f"it); nothing was done. `pbem verify` shows what differs from the replay of the log")
    _cached_state(gd, text)
    env = gd.read(STATE, "referee-state.schema.json", text)
    if env["id"] != gd.id or env["game"] != gd.meta["game"]:
        raise PbemError(f"{gd.where(STATE)} belongs to another game ({env['id']}, {env['game']})")
    differing = _game_file_differences(gd, env)
    if differing and not trust_edits:
        raise PbemError(f"{gd.where(GAME)} does not describe the referee's state ({', '.join(differing)} differ): it "
                        f"was changed outside pbem; nothing was done. `pbem verify` shows what differs")
    return env


def _game_file_differences(gd: GameDir, env: dict) -> list[str]:
    """The fields of game.yaml that the referee's state contradicts."""
    facts = {"rules_version": env["rules_version"], "players": env["players"], "options": env["options"],
             "seed_commitment": commitment(env["seed"])}
    return [key for key, value in facts.items() if gd.meta[key] != value]


def load_secrets(gd: GameDir) -> dict:
    return gd.read(SECRETS, "secrets.schema.json")


def roster(gd: GameDir) -> list[dict]:
    return load_secrets(gd)["players"]


def status(gd: GameDir, viewer: str | None = None) -> dict:
    """The status document of the public (or of `viewer`): from the referee's state where it is here."""
    return status_with_notes(gd, viewer)[0]


def status_with_notes(gd: GameDir, viewer: str | None = None) -> tuple[dict, list[str]]:
    """(the status document, notes). With the referee's files the document is built from the referee's state (so
    a hand-edited public.yaml or view is never shown as the position), and a stored file that differs from it is
    named in a note; without them (a player's copy of the game), the stored file is all there is."""
    if viewer is not None:
        check_player(gd, viewer)
    relative = view_file(viewer) if viewer else PUBLIC
    with _reading(gd):
        if not gd.has_referee():
            return _read_status(gd, viewer), []
        written = _as_the_referee_wrote(gd, relative)
        if written is not None:
            return _read_status(gd, viewer, written), []
        env = load_state(gd)
        decision = _decision(gd.game, env["state"])
        ranking = None if decision else final_ranking(gd.game.rules.result(env["state"]), env.get("resigned", []))
        doc = _status_doc(gd, env, viewer, env["recent"], decision, ranking)
        return doc, _stored_status_notes(gd, relative, doc)


def _as_the_referee_wrote(gd: GameDir, relative: str) -> bytes | None:
    """The stored status file's bytes if they are byte for byte the ones the referee wrote (their digest is in the
    referee's folder), else None; None too when either is missing (a game started before the digests were kept:
    the state decides). The bytes are read once, for this check and for reading the file."""
    try:
        recorded = gd.read_text(STATUS_DIGESTS).splitlines()
        data = gd.read_bytes(relative)
    except store.Missing:
        return None
    return data if f"{digests.sha256(data).hexdigest()}  {relative}" in recorded else None


def _stored_status_notes(gd: GameDir, relative: str, doc: dict) -> list[str]:
    """A note when the stored status file is not what the referee wrote for its state (edited, missing, broken)."""
    shown = "this report comes from the referee's state (the next move writes the file again)"
    try:
        stored = yamlio.loads(gd.read_bytes(relative), gd.where(relative))
    except store.Missing:
        return [f"{gd.where(relative)} is missing; {shown}"]
    except PbemError as exc:
        return [f"{exc}; {shown}"]
    differences = _differences(doc, stored, limit=3, against="the referee's state")
    if not differences:
        return []
    return [f"{gd.where(relative)} differs from what the referee wrote ({'; '.join(differences)}); {shown}"]


def _read_status(gd: GameDir, viewer: str | None, data: bytes | None = None) -> dict:
    if viewer is not None:
        return gd.read(view_file(viewer), "player.schema.json", data)
    return gd.read(PUBLIC, "public.schema.json", data)


def check_player(gd: GameDir, player: str) -> None:
    if player not in gd.players:
        raise PbemError(f"{player!r} does not play in {gd.id} (players: {', '.join(gd.players)})")


def legal(gd: GameDir, player: str | None = None) -> dict:
    """Who must act and the legal moves of `player` (or of whoever must act): `moves` in text notation, and
    `choices`, each move with what it does, as the game describes it from that player's view (so a description
    shows nothing that player may not see)."""
    with _reading(gd):
        env = load_state(gd)
    game, state = gd.game, env["state"]
    decision = _decision(game, state)
    who = player or (decision["player"] if decision else None)
    if player is not None:
        check_player(gd, player)
    entries = game.rules.legal_moves(state, who) if who and decision else []
    view = game.rules.view(state, who) if entries else None
    choices = [{"move": game.format_move(entry), "description": game.report.describe(view, entry)}
               for entry in entries]
    return {"game": gd.id, "game_type": game.id, "move_number": env["move_number"],
            "to_act": decision["player"] if decision else None, "decision": decision, "player": who,
            "moves": [choice["move"] for choice in choices], "choices": choices,
            "due": (env.get("clock") or {}).get("due") if decision else None}


def read_log(gd: GameDir, full: bool = False) -> dict:
    with _reading(gd):
        return gd.read(FULL_LOG if full else LOG, "log.schema.json")


# ---------------------------------------------------------------- submit

def _authenticate(gd: GameDir, player: str, move_number: int, texts: list[str], by: str,
                  signature: str | None, password: str | None, authenticated: bool = False) -> None:
    if by == "referee" or authenticated:
        return
    entry = next(p for p in roster(gd) if p["name"] == player)
    if password is not None:
        if not trust.same_secret(entry["secret"], password):
            raise PbemError(f"wrong password for {player}")
        return
    trust.check_signature(entry["secret"], signature, gd.id, move_number, player, texts)


def _step(index: int, count: int, text: str) -> str:
    """How a message names one move of a submitted turn: by its place in the turn (never "move 3", which would
    read as the game's move 3), or by its text alone when the turn is that one move."""
    return repr(text) if count == 1 else f"step {index} of your turn ({text!r})"


def _illegal(game: registry.Game, step: str, decision: str, legal_moves: list[dict]) -> PbemError:
    shown = [game.format_move(m) for m in legal_moves[:MAX_LEGAL_SHOWN]]
    more = f" ... and {len(legal_moves) - MAX_LEGAL_SHOWN} more" if len(legal_moves) > MAX_LEGAL_SHOWN else ""
    error = PbemError(f"{step} is not legal now ({decision}). Legal: {', '.join(shown)}{more}")
    error.legal = [game.format_move(m) for m in legal_moves]  # as data, for transports that list them their way
    return error


def play_turn(game: registry.Game, state: dict, player: str, moves: list[dict], rng: Rng, *,
              handed_over: bool = False) -> dict:
    """Apply one player's consecutive decisions, all or nothing; stop rules as in the design.

    `apply` may change the state it is given (pbem.contract), so it gets a copy, unless the caller hands `state`
    over (`handed_over`: a state just read from the files, a replay's previous position, needed no more): then the
    first decision's apply gets it as it is. A later decision's apply still gets a copy: the state may hold what
    an earlier decision recorded (a drawn card, a shuffled deck), which the log must keep as it was drawn."""
    for index, move in enumerate(moves, 1):
        step = _step(index, len(moves), game.format_move(move))
        pending = game.rules.pending(state)
        if pending is None:
            raise PbemError(f"{step}: the game is already over (nothing was applied)")
        if pending["player"] != player:
            raise PbemError(f"{step}: the turn passed to {pending['player']} after step {index - 1}; a turn stops "
                            f"there (nothing was applied)")
        if index > 1 and pending.get("fresh_info"):
            raise PbemError(f"{step}: {player} has new information to look at first ({pending['decision']}); "
                            f"send the rest as a new turn (nothing was applied)")
        legal_moves = game.rules.legal_moves(state, player)
        if not notation.is_legal(move, legal_moves):
            raise _illegal(game, step, pending["decision"], legal_moves)
        if not (handed_over and index == 1):
            import copy  # here: a turn of one decision on a state read for it copies nothing
            state = copy.deepcopy(state)
        state = game.rules.apply(state, player, move, rng)
    return state


def referee_move(game: registry.Game, state: dict, player: str, move: dict, seed: str, game_id: str, number: int,
                 reason: str | None = None) -> tuple[dict, dict]:
    """One decision the referee plays for `player` (a resigned seat, a timeout): (the new state, its log entry)."""
    rng = Rng(seed, game_id, number)
    state = play_turn(game, state, player, [move], rng)
    entry = {"number": number, "player": player, "by": "referee", "moves": [game.format_move(move)],
             "chance": rng.outcomes}
    if reason is not None:
        entry["reason"] = reason
    return state, entry


def timeout_choice(game: registry.Game, state: dict, player: str, policy: str, seed: str, game_id: str,
                   number: int) -> dict:
    """What the referee plays for a player whose decision timed out: the first legal move (as for a resigned
    seat), or the game's greedy bot deciding from the player's view with a generator seeded from the game's seed
    and the move number (never the clock), so that verify can recompute it."""
    legal_moves = game.rules.legal_moves(state, player)
    if policy == "first-legal":
        return game.normalise(bots.first_legal(legal_moves))
    import random
    digest = digests.sha256(f"pbem-timeout-bot\x00{seed}\x00{game_id}\x00{number}".encode()).digest()
    return bots.decide(game, "greedy", game.rules.view(state, player), legal_moves,
                       random.Random(int.from_bytes(digest, "big")))


def everyone_left(game: registry.Game, env: dict, resigned: list[str]) -> bool:
    """Has every player resigned a game that first legal moves cannot finish (meta.yaml `playouts`: Heartland's
    money goal is reached only by hauling)? Its greedy bot then plays the game out, as for a timeout."""
    return set(env["players"]) <= set(resigned) and bool(game.meta.get("playouts", {}).get("greedy"))


def referee_turns(game: registry.Game, state: dict, env: dict, game_id: str, number: int, resigned: list[str]
                  ) -> tuple[dict, list[dict]]:
    """The moves the referee plays from move `number` on (after a turn, at `new`, after a timeout) until a player
    must choose: the turns of players who resigned (the first legal move, so nothing is random) and, in a game
    created by a pbem that plays them (`forced_moves` in the state), every decision with one legal move that shows
    nothing new to its player (pbem.bots.referee_move). Each is an entry of its own, with its reason. A game that
    only its players' play can end never ends once all of them have left: past AUTOPILOT_LIMIT moves the
    submission is refused instead of looping for ever."""
    entries = []
    play_forced = env.get("forced_moves") == "referee"
    played_out = everyone_left(game, env, resigned)
    while (played := bots.referee_move(game, state, resigned, play_forced)) is not None:
        if len(entries) >= AUTOPILOT_LIMIT:
            raise PbemError(f"the referee played {AUTOPILOT_LIMIT} moves in a row without reaching the end of the "
                            f"game or a player who must choose: {game.title} does not end without its players; "
                            f"nothing was done")
        player, move, reason = played
        if played_out and reason == bots.RESIGNED:
            move = timeout_choice(game, state, player, "bot", env["seed"], game_id, number)
        state, entry = referee_move(game, state, player, move, env["seed"], game_id, number, reason)
        entries.append(entry)
        number += 1
    return state, entries


def next_clock(game: registry.Game, env: dict, state: dict, movers: list[str], now) -> dict | None:
    """The clock record after an accepted turn: the movers answered (their run of timeouts ends), and the next
    decision starts now."""
    if not env.get("clock"):
        return None
    from . import clock
    record = env["clock"]
    for player in movers:
        record = clock.answered(record, player)
    pending = game.rules.pending(state)
    now = clock.moment(now)
    return clock.begin(clock.forget_past(record, now), pending["player"] if pending else None, now)


def commit(gd: GameDir, env: dict, state: dict, entries: list[dict], resigned: list[str],
           clock_record: dict | None = None, secrets_doc: dict | None = None) -> dict:
    """Write the new state and every file that follows from it, with the new log entries (maybe none: a change
    of the clock), the clock record and the secrets when they changed, as one transaction. Returns the new
    state envelope. The caller holds the game's lock."""
    game = gd.game
    public = [public_entry(game, entry) for entry in entries]
    finished = game.rules.pending(state) is None
    new_env = {**env, "state": state, "resigned": resigned}
    if clock_record is not None:
        new_env["clock"] = clock_record
    files = {}
    if entries:
        full_text = _full_log_text(gd, env)
        public_text = _public_log_text(gd, env, full_text)
        for entry, shown in zip(entries, public):
            full_text = _append_entry(gd, full_text, entry)
            public_text = _append_entry(gd, public_text, shown)
        if finished:  # the game is over: the full log and the seed are revealed so anyone can replay it
            public_text = full_text.replace("$schema=../schemas/", "$schema=schemas/", 1).replace(
                "visibility: referee", "visibility: public", 1)
        new_env.update({"move_number": entries[-1]["number"] + 1, "recent": (env["recent"] + public)[-RECENT:],
                        "log_sha256": _digests({FULL_LOG: full_text, LOG: public_text})})
        files.update({FULL_LOG: (full_text, PRIVATE), LOG: (public_text, PUBLIC_MODE)})
    docs = _status_docs(gd, new_env, new_env["recent"])
    if secrets_doc is not None:
        files[SECRETS] = (_yaml(SECRETS, "secrets.schema.json", secrets_doc, game.id, f"{gd.id} secrets"), PRIVATE)
        docs[SECRETS] = secrets_doc
    status = _with_status_digests(_status_files(gd, new_env, new_env["recent"], docs))
    files.update({**_state_files(gd, new_env), **status})
    store.commit(gd.dir, files, gd.layout)
    gd.remember(files, docs)
    gd.known[STATE] = (files[STATE][0].encode("utf-8"), files[STATE_CACHE][0])
    return new_env


def _commit_entries(gd: GameDir, env: dict, state: dict, entries: list[dict], resigned: list[str], now) -> dict:
    """Write an accepted turn (and the moves the referee played after it: resigned seats, forced moves); the next
    decision's deadline starts now."""
    game = gd.game
    movers = [entry["player"] for entry in entries if entry["by"] == "player"] or [entries[0]["player"]]
    new_env = commit(gd, env, state, entries, resigned, next_clock(game, env, state, movers, now))
    return _turn_result(gd, entries, state, new_env["move_number"], (new_env.get("clock") or {}).get("due"))


def _turn_result(gd: GameDir, entries: list[dict], state: dict, move_number: int, due: str | None) -> dict:
    """What `submit` tells of a turn accepted: the player's entry as the public sees it, the referee's after it."""
    public = [public_entry(gd.game, entry) for entry in entries]
    pending = gd.game.rules.pending(state)
    return {"game": gd.id, "number": entries[0]["number"], "player": entries[0]["player"],
            "moves": entries[0]["moves"], "public_moves": public[0]["moves"], "chance": public[0]["chance"],
            "referee_moves": public[1:], "move_number": move_number,
            "to_act": pending["player"] if pending else None, "finished": pending is None, "due": due}


@contextlib.contextmanager
def writing(gd: GameDir):
    """The game's lock held and its referee state read (refused if edited): for a change that is not a turn
    (the clock, a seat handed on). Commit it with `commit`."""
    with store.locked(gd.dir, gd.layout):
        yield load_state(gd)


def _full_log_text(gd: GameDir, env: dict) -> str:
    """The referee's log as it last wrote it (its digest is in the state), to append to."""
    text = gd.read_text(FULL_LOG)
    recorded = env.get("log_sha256")  # absent in games started before logs had digests
    if recorded and _digests({FULL_LOG: text})[FULL_LOG] != recorded[FULL_LOG]:
        raise PbemError(f"{gd.where(FULL_LOG)} was changed outside pbem (it does not match the checksum in the "
                        f"referee's state); nothing was done. `pbem verify` shows what differs")
    return text


def _public_log_text(gd: GameDir, env: dict, full_text: str) -> str:
    """The public log as the referee last wrote it, to append to. Players may be able to write it: when it is
    not what the referee wrote (its digest is in the state), it is written again from the referee's log."""
    recorded = (env.get("log_sha256") or {}).get(LOG)
    try:
        data = gd.read_bytes(LOG)
    except store.Missing:
        data = None
    if data is not None and (recorded is None or digests.sha256(data).hexdigest() == recorded):
        with contextlib.suppress(UnicodeDecodeError):
            return data.decode("utf-8")
    full = yamlio.loads(full_text, gd.where(FULL_LOG))
    return _log_text(gd, LOG, public_log(gd, full, finished=False))


def public_log(gd: GameDir, full: dict, finished: bool) -> dict:
    """The public log that goes with the referee's log: hidden choices masked and private chance outcomes left
    out while the game goes on; the whole log once it is over."""
    setup = full["setup_chance"] if finished else [outcome for outcome in full["setup_chance"] if outcome["public"]]
    entries = full["entries"] if finished else [public_entry(gd.game, entry) for entry in full["entries"] or []]
    return {**_log_header(gd, "public", setup), "entries": entries or None}


def _open_turn(gd: GameDir, move_number: int | None) -> dict:
    env = load_state(gd)
    _check_turn(gd, env, move_number)
    return env


def _check_turn(gd: GameDir, env: dict, move_number: int | None) -> None:
    current = env["move_number"]
    if move_number is not None and move_number < current:
        raise PbemError(f"stale move: it answers move {move_number}, but the game is at move {current} (move "
                        f"{move_number} was already played)")
    if move_number is not None and move_number > current:
        raise PbemError(f"it answers move {move_number}, but the game is only at move {current}: answer the last "
                        f"report's move number")
    if gd.game.rules.pending(env["state"]) is None:
        raise PbemError(f"{gd.id} is over; no more moves")


def submit(gd: GameDir, player: str, texts: list[str], *, by: str = "player", move_number: int | None = None,
           signature: str | None = None, password: str | None = None, authenticated: bool = False,
           now=None, before_write=None) -> dict:
    """Check and apply one turn. On any error nothing on disk changes.

    `authenticated`: the transport has already proved who sent it by its own means (a commit signed with the
    player's SSH key), so neither a signature nor a password is asked for; the entry is still the player's.
    `now` (default: the system clock) starts the next decision's deadline, if the game has deadlines.
    `before_write(number)`, if given, is called with the turn's move number once the turn is accepted and before
    anything is written (a transport records what it is about to apply); if it raises, nothing is written."""
    check_player(gd, player)
    game = gd.game
    if not texts:
        raise PbemError("no move given")
    if len(texts) == 1 and is_resign(texts[0]):
        return resign(gd, player, by=by, move_number=move_number, signature=signature, password=password,
                      authenticated=authenticated, now=now, before_write=before_write)
    with store.locked(gd.dir, gd.layout):
        env = load_state(gd)
        state, entries = _play(gd, env, player, texts, by, move_number, signature, password, authenticated,
                               handed_over=True)  # read for this turn only
        if before_write is not None:
            before_write(env["move_number"])
        return _commit_entries(gd, env, state, entries, env["resigned"], now)


def _play(gd: GameDir, env: dict, player: str, texts: list[str], by: str, move_number: int | None,
          signature: str | None, password: str | None, authenticated: bool, handed_over: bool
          ) -> tuple[dict, list[dict]]:
    """One turn checked and played on the position `env` (`handed_over`: its state is the game's to change): the
    new state and the log entries (the player's, then the moves the referee plays after it). Nothing is written."""
    game = gd.game
    _check_turn(gd, env, move_number)
    current = env["move_number"]
    _authenticate(gd, player, current if move_number is None else move_number, texts, by, signature, password,
                  authenticated)
    state = env["state"]
    pending = game.rules.pending(state)
    if pending["player"] != player:
        raise PbemError(f"it is {pending['player']}'s turn ({pending['decision']}), not {player}'s")
    moves = []
    for index, text in enumerate(texts, 1):
        if is_resign(text):
            raise PbemError(f"{_step(index, len(texts), text)}: `{RESIGN}` is a turn of its own; send it alone "
                            f"(nothing was applied)")
        try:
            moves.append(game.parse_move(text, also=(RESIGN,)))
        except notation.NotationError as exc:
            raise PbemError(f"{_step(index, len(texts), text)}: {exc}" if len(texts) > 1 else str(exc)) from None
    rng = Rng(env["seed"], gd.id, current)
    state = play_turn(game, state, player, moves, rng, handed_over=handed_over)
    entry = {"number": current, "player": player, "by": by, "moves": [game.format_move(m) for m in moves],
             "chance": rng.outcomes}
    if signature:
        entry["signature"] = signature
    state, auto = referee_turns(game, state, env, gd.id, current + 1, env["resigned"])
    return state, [entry, *auto]


class Session:
    """Turns played in memory on a game whose lock is held, written together (`pbem demo`, whose files nobody
    waits for). Each turn is checked and played exactly as `submit` does; `write` commits the turns since the
    last write as one transaction, which writes the very files a turn-by-turn game would have."""

    def __init__(self, gd: GameDir):
        self.gd = gd
        gd.rereads = True
        self.written = load_state(gd)  # the envelope as the files hold it
        self.env = dict(self.written)  # the position now
        self.entries: list[dict] = []  # played since the last write

    @property
    def state(self) -> dict:
        return self.env["state"]

    @property
    def move_number(self) -> int:
        return self.env["move_number"]

    def submit(self, player: str, texts: list[str], *, by: str = "player", move_number: int | None = None,
               signature: str | None = None) -> dict:
        """As `submit` (a player's turn, signed, or entered by the referee), in memory."""
        check_player(self.gd, player)
        # a turn of one decision is refused before the game changes anything, or not at all: its state is handed
        # over; a longer one may be refused after its first decision, and the session's position must survive that
        state, entries = _play(self.gd, self.env, player, texts, by, move_number, signature, None, False,
                               handed_over=len(texts) == 1)
        self.env = {**self.env, "state": state, "move_number": entries[-1]["number"] + 1}
        # kept until written, while the next turns change the state in place, which may hold what these entries
        # record (a shuffled deck): kept as they are now
        self.entries += json.loads(json.dumps(entries))
        return _turn_result(self.gd, entries, state, self.env["move_number"], None)

    def write(self, now=None) -> None:
        if self.entries:
            _commit_entries(self.gd, self.written, self.state, self.entries, self.env["resigned"], now)
            self.written, self.entries = load_state(self.gd), []
            self.env = dict(self.written)

    def status(self, viewer: str | None = None) -> dict:
        """The status document as last written (the lock is this session's: read without it)."""
        return _read_status(self.gd, viewer)


@contextlib.contextmanager
def session(gd: GameDir):
    """A Session on the game, its lock held throughout; turns not written when it ends are dropped."""
    with store.locked(gd.dir, gd.layout):
        yield Session(gd)


def resign(gd: GameDir, player: str, *, by: str = "player", move_number: int | None = None,
           signature: str | None = None, password: str | None = None, authenticated: bool = False,
           now=None, before_write=None) -> dict:
    """A player leaves the game: the referee plays their turns from now on (first legal move) and they rank last.

    Allowed at any time, not only on one's turn; it takes a move number like any turn, so it is in the log.
    `before_write`: as for `submit`.
    """
    check_player(gd, player)
    with store.locked(gd.dir, gd.layout):
        env = _open_turn(gd, move_number)
        current = env["move_number"]
        _authenticate(gd, player, current if move_number is None else move_number, [RESIGN], by, signature, password,
                      authenticated)
        if player in env["resigned"]:
            raise PbemError(f"{player} has already resigned")
        resigned = env["resigned"] + [player]
        entry = {"number": current, "player": player, "by": by, "moves": [RESIGN], "chance": []}
        if signature:
            entry["signature"] = signature
        state, auto = referee_turns(gd.game, env["state"], env, gd.id, current + 1, resigned)
        if before_write is not None:
            before_write(current)
        return _commit_entries(gd, env, state, [entry, *auto], resigned, now)


# ---------------------------------------------------------------- verify

def _differences(a, b, path="$", found=None, limit=10, against="the replay") -> list[str]:
    """Where the stored `b` differs from `a` (what `against` gives), as JSON paths with both values."""
    found = [] if found is None else found
    if len(found) >= limit:
        return found
    if isinstance(a, dict) and isinstance(b, dict):
        for key in list(a) + [k for k in b if k not in a]:
            if key not in a or key not in b:
                found.append(f"{path}.{key}: " + (f"missing ({against} has it)" if key in a else f"not in {against}"))
            else:
                _differences(a[key], b[key], f"{path}.{key}", found, limit, against)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for index, (x, y) in enumerate(zip(a, b)):
            _differences(x, y, f"{path}[{index}]", found, limit, against)
    elif a != b or type(a) is not type(b):
        found.append(f"{path}: stored {b!r:.80} but {against} gives {a!r:.80}")
    return found[:limit]


def replay_steps(gd: GameDir, seed: str, components: dict, log: dict):
    """Replay a full log from the seed: yield (entries replayed, state, resigned) after the setup and after each
    entry, checking every chance outcome against the recorded one. Each state is handed to the next entry's
    `apply`, which may change it: use it before asking for the next step (copy it to keep it)."""
    game = gd.game
    rng = Rng(seed, gd.id, 0)
    state = game.rules.setup(list(gd.players), dict(gd.meta["options"]), components, rng)
    if rng.outcomes != log["setup_chance"]:
        raise PbemError("verify failed: the setup's shuffles differ from the recorded ones")
    resigned = []
    yield 0, state, []
    for expected_number, entry in enumerate(log["entries"] or [], 1):
        if entry["number"] != expected_number:
            raise PbemError(f"verify failed: log entry {expected_number} is numbered {entry['number']}")
        if entry["moves"] == [RESIGN]:
            resigned.append(entry["player"])
            yield expected_number, state, list(resigned)
            continue
        if entry["moves"] == [REPLACE]:  # a seat handed to a new player: it plays on, even if it had resigned
            resigned = [player for player in resigned if player != entry["player"]]
            yield expected_number, state, list(resigned)
            continue
        _check_timeout_move(game, state, seed, gd.id, entry)
        rng = Rng(seed, gd.id, entry["number"])
        try:
            moves = [game.parse_move(text) for text in entry["moves"]]
            state = play_turn(game, state, entry["player"], moves, rng, handed_over=True)
        except (PbemError, notation.NotationError) as exc:
            raise PbemError(f"verify failed at move {entry['number']} by {entry['player']}: {exc}") from None
        if rng.outcomes != entry["chance"]:
            raise PbemError(f"verify failed at move {entry['number']}: the recorded chance outcomes differ from "
                            f"the seed's")
        yield expected_number, state, list(resigned)


def _check_timeout_move(game: registry.Game, state: dict, seed: str, game_id: str, entry: dict) -> None:
    """A move the referee played because a decision timed out must be the one its policy gives."""
    policy = next((name for name, reason in TIMEOUT_REASONS.items() if entry.get("reason") == reason), None)
    if policy is None or entry["by"] != "referee":
        return
    expected = game.format_move(timeout_choice(game, state, entry["player"], policy, seed, game_id, entry["number"]))
    if entry["moves"] != [expected]:
        raise PbemError(f"verify failed at move {entry['number']}: the referee's {policy} move for "
                        f"{entry['player']}'s timeout is {expected!r}, the log says {entry['moves']}")


def replay(gd: GameDir, seed: str, components: dict, log: dict) -> tuple[dict, list[dict]]:
    """The state a log leads to from the seed, checking every chance outcome against the recorded one."""
    for _, state, resigned in replay_steps(gd, seed, components, log):
        pass
    return state, log["entries"] or [], resigned


def published(gd: GameDir, seed: str, log: dict, count: int, state: dict, resigned: list[str]) -> dict[str, dict]:
    """The data of the public files (public.yaml, log.yaml) the referee wrote when the first `count` entries of the
    full `log` had been played (`state`, `resigned`: from replay_steps). For a transport that keeps every published
    position (git), so that each one can be checked against the replay."""
    game = gd.game
    entries = (log["entries"] or [])[:count]
    public = [public_entry(game, entry) for entry in entries]
    decision = _decision(game, state)
    ranking = None if decision else final_ranking(game.rules.result(state), resigned)
    env = {"move_number": count + 1, "seed": seed, "state": state, "resigned": resigned}
    log_doc = public_log(gd, {**log, "entries": entries or None}, finished=decision is None)
    return {PUBLIC: _status_doc(gd, env, None, public[-RECENT:], decision, ranking), LOG: log_doc}


def verify(gd: GameDir, player: str | None = None) -> dict:
    """Replay the game from its seed and log; every file pbem wrote must be exactly what the replay gives.

    With the referee's files (and no `player`) every file is checked. Without them, or `as` a player, once the
    game is over and its seed public: what a player holds, the public files and the views present (with
    `player`, that player's view, which must be there)."""
    if player is not None:
        check_player(gd, player)
    with _reading(gd):
        components = _components(gd)
        referee = player is None and gd.has_referee()
        if referee:
            env = load_state(gd, trust_edits=True)
            seed, log = env["seed"], gd.read(FULL_LOG, "log.schema.json")
        else:
            public = _read_status(gd, None)
            if "seed" not in public:
                raise PbemError(f"{gd.dir}: the game is not over; until its seed is revealed only the referee can "
                                f"verify it")
            env, seed, log = None, public["seed"], gd.read(LOG, "log.schema.json")
        if commitment(seed) != gd.meta["seed_commitment"]:
            raise PbemError(f"verify failed: the seed does not match the commitment published in {gd.where(GAME)}")
        # The referee's state says who plays with which options (game.yaml is compared with it below).
        played = GameDir(gd.dir, {**gd.meta, "players": env["players"], "options": env["options"]}, gd.overlay) \
            if referee else gd
        state, entries, resigned = replay(played, seed, components, log)
        finished = gd.game.rules.pending(state) is None
        recent = [public_entry(gd.game, entry) for entry in entries][-RECENT:]
        replayed = {"move_number": len(entries) + 1, "seed": seed, "state": state, "resigned": resigned,
                    "recent": recent}
        if referee and env.get("clock"):  # the clock is the referee's record, not a replay's: shown as stored
            replayed["clock"] = env["clock"]
        problems = _log_header_problems(gd, log) + (_referee_problems(gd, env, replayed) if referee else [])
        expected = _status_docs(gd, replayed, recent)
        status = _status_files(gd, replayed, recent, expected)
        texts = {relative: text for relative, (text, _) in status.items()}
        expected[LOG] = public_log(gd, log, finished)
        texts[LOG] = yamlio.dumps(expected[LOG], _schema_line(LOG, "log.schema.json"))
        checked = [GAME, COMPONENTS] + ([STATE, FULL_LOG] if referee else [])
        if referee and gd.has(STATUS_DIGESTS):  # absent in games started before status digests were kept
            if gd.read_text(STATUS_DIGESTS) != _with_status_digests(status)[STATUS_DIGESTS][0]:
                problems.append(f"{STATUS_DIGESTS}: not the digests of the status files the replay gives")
            checked.append(STATUS_DIGESTS)
        for relative, data in expected.items():
            if relative.startswith("views/") and not referee and relative != (player and view_file(player)) \
                    and (player is not None or not gd.has(relative)):
                continue  # another player's view: not in this player's hands
            problems += _file_problems(gd, relative, data, texts[relative])
            checked.append(relative)
        notes = _schema_notes(gd, problems)
        if problems:
            shown = problems[:MAX_PROBLEMS] + ([f"... and {len(problems) - MAX_PROBLEMS} more"]
                                               if len(problems) > MAX_PROBLEMS else [])
            raise PbemError("verify failed: the stored files differ from the replay:\n  " + "\n  ".join(shown))
    return {"game": gd.id, "moves": len(entries), "finished": finished, "seed_checked": finished or referee,
            "checked": checked, "notes": notes, "result": "ok"}


def _components(gd: GameDir) -> dict:
    try:
        text = gd.read_bytes(COMPONENTS)
    except store.Missing:
        text = b""
    if digests.sha256(text).hexdigest() != gd.meta["components_sha256"]:
        raise PbemError(f"verify failed: {gd.where(COMPONENTS)} is not the file the game was set up with (its "
                        f"SHA-256 is not the one in {GAME})")
    components = yamlio.loads(text, gd.where(COMPONENTS))
    validation.check(gd.meta["game"], validation.game_name("components"), components, gd.where(COMPONENTS))
    return components


def _log_header_problems(gd: GameDir, log: dict) -> list[str]:
    """The log replayed must be this game's (game.yaml's id, type and rules version)."""
    return [f"{GAME} {key}: {gd.meta[key]!r}, but the log says {log[key]!r}"
            for key in ("id", "game", "rules_version") if log[key] != gd.meta[key]]


def _referee_problems(gd: GameDir, env: dict, replayed: dict) -> list[str]:
    """The referee's files against the replay: the state and its checksum, the log's checksum, game.yaml."""
    problems = [f"{STATE} {p}" for p in _differences(replayed["state"], env["state"], "$.state")]
    if state_edited(gd):
        problems.append(f"{STATE}: changed outside pbem (its checksum does not match)")
    for key in ("resigned", "move_number", "recent"):
        if env[key] != replayed[key]:
            problems.append(f"{STATE} $.{key}: stored {env[key]!r:.80} but the replay gives {replayed[key]!r:.80}")
    recorded = env.get("log_sha256")
    if recorded and digests.sha256(gd.read_bytes(FULL_LOG)).hexdigest() != recorded[FULL_LOG]:
        problems.append(f"{FULL_LOG}: changed outside pbem (its checksum in the state does not match)")
    problems += [f"{GAME} {key}: differs from the referee's state" for key in _game_file_differences(gd, env)]
    return problems


def _file_problems(gd: GameDir, relative: str, expected: dict, text: str) -> list[str]:
    """What differs between a stored file and the replay's data. A file whose bytes are the replay's text as pbem
    writes it (`text`) differs in nothing, and is not parsed."""
    try:
        data = gd.read_bytes(relative)
        if data == text.encode("utf-8"):
            return []
        stored = yamlio.loads(data, gd.where(relative))
    except store.Missing:
        return [f"{relative}: missing"]
    except PbemError as exc:
        return [str(exc)]
    return [f"{relative} {p}" for p in _differences(expected, stored)]


def _schema_notes(gd: GameDir, problems: list[str]) -> list[str]:
    """The schemas are for editors only (pbem validates with its own) and change between pbem versions: a copy
    that differs from this pbem's is named, without failing the verification. A link or a folder where a schema
    should be is a problem (added to `problems`)."""
    notes = []
    for name, schema in validation.schemas_for(gd.meta["game"]).items():
        relative = f"schemas/{name}"
        try:
            same = gd.read_bytes(relative) == _json(schema).encode()
        except store.Missing:
            notes.append(f"{relative}: missing")
            continue
        except PbemError as exc:
            problems.append(str(exc))
            continue
        if not same:
            notes.append(f"{relative}: differs from this pbem's schema (another pbem version wrote it, or it was "
                         f"edited)")
    return notes
