"""`pbem new`: a game directory made, with the moves the referee plays at once (forced moves)."""
from __future__ import annotations

import datetime
from os import PathLike

from .. import __version__, digests
from ..contract import PbemError, UsageError
from ..play import levels, plans, trust
from ..play.turns import MoveAt, referee_turns
from ..rng import Rng, commitment
from ..store import printable, registry, validation, yamlio
from ..store.gamedir import (BOT_HOLDER, COMPONENTS, FULL_LOG, GAME, ID_PATTERN, LOG, NAME_PATTERN, PRIVATE,
                             PUBLIC_MODE, SECRETS, TXN_KEY, GameDir, commit_files, locked, schema_line)
from ..store.safefiles import make_folder
from ..store.locks import LOCK
from ..store.transactions import TXN
from .documents import (RECENT, RULINGS, append_entry, json_text, log_header, log_text, public_entry, state_files,
                        status_files, text_digests, with_status_digests, yaml_text)
from .requests import Request

# Words no player may be called: moves every game has, words of the log (`by: referee`), and of queues.
RESERVED_NAMES = ("pass", "referee", "resign", *plans.WORDS)
MAX_SEED = 200


def check_name(name: str) -> None:
    """A player's name: a word of the move notation, which is lowercase; and never `bot`, which names the referee's
    bots where a player's name could stand (a seat's holder in secrets.yaml, `--bot`, the `bot` timeout policy)."""
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):
        raise UsageError(f"player name {name!r}: use lowercase letters, digits, - and _ (at most 32, starting "
                         f"with a letter): names are words of the move notation, which is lowercase")
    if name == BOT_HOLDER:
        raise UsageError(f"player name {name!r} names the referee's bots (a seat given to a bot, --bot, the "
                         f"{name} timeout policy); choose another")


def _check_names(game: registry.Game, names: list[str]) -> None:
    """A player's name must not read as a word of the moves or of the log: `pass` or `place` as a name would make
    a move like `appoint pass` ambiguous, and `referee` would pass for the referee in the log; nor as a word of
    a queue (`else`, or `at` in the game's conditions)."""
    words = {part.literal for template in game.templates for part in template.parts if part.literal}
    words |= plans.vocabulary(game).literals()
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
    """The components a new game is set up with: a club's file, or the game's own. Every string is printable text
    (pbem.store.printable: players read them, in reports and pictures) and matches the game's components schema, which
    bounds their lengths."""
    data = yamlio.load_file(path) if path else game.default_components()
    source = f"components file {path or '(default)'}"
    unprintable = printable.problems(data)
    if unprintable:
        raise PbemError(f"{source}: every name and text in it is shown to players, so it may hold printable "
                        f"characters only:\n  " + "\n  ".join(unprintable[:validation.MAX_ERRORS]))
    validation.check(game.id, validation.game_name("components"), data, source)
    return data


class NewGame(Request):
    """What `pbem new` is asked for: a game of `game_type` in `path` (its name is the game's id) for the named
    players (in seating order), from `seed` (default: a random one), with `options` and a club's components file
    (`components_path`; default: the game's own), made `now` (default: the system clock).

    `forced_moves=False` makes a game whose players play their forced moves themselves, as games created before
    pbem played them did (to rebuild such a game from its move files); `options_as_stored` takes the options of
    such a game as its game.yaml has them, an option it predates left out (the game then keeps the reading it was
    played with) instead of set to the default a new game gets. `bots`: the seats given to a bot, each with its
    level (pbem.play.levels): the referee plays their every decision.

    `language`: the game's language (game.yaml; what a player who has not chosen their own reads), `languages`:
    the players' own ({name: code}, in secrets.yaml beside their mail preferences); codes as
    pbem.text.language.check gives them."""

    __slots__ = ("game_type", "path", "players", "seed", "options", "components_path", "now", "forced_moves",
                 "options_as_stored", "bots", "language", "languages")
    DEFAULTS = {"seed": None, "options": None, "components_path": None, "now": None, "forced_moves": True,
                "options_as_stored": False, "bots": None, "language": None, "languages": None}
    game_type: str
    path: str | PathLike
    players: list[str]
    seed: str | None
    options: dict[str, str] | None
    components_path: str | PathLike | None
    now: datetime.datetime | None
    forced_moves: bool
    options_as_stored: bool
    bots: dict[str, str] | None
    language: str | None
    languages: dict[str, str] | None

    def __init__(self, game_type: str, path: str | PathLike, players: list[str], **options):
        super().__init__(**options)
        self.game_type, self.path, self.players = game_type, path, players


def create(request: NewGame, extend=None) -> dict:
    """A new game as `request` asks, with the first moves the referee plays (forced moves, see referee_turns).
    `extend(env, secrets_doc)`, if given, adds the records of the layer above (pbem.clock.correspondence: the
    clock, each player's address and mail preference) to the state envelope and the secrets before anything is
    written; it may refuse the game (UsageError)."""
    from pathlib import Path  # (`new` only)
    game, path = registry.get(request.game_type), Path(request.path)
    names = list(request.players)
    _check_request(game, request, path, names)
    options = game.resolve_options(request.options or {}, fill=not request.options_as_stored)
    seed = request.seed
    if seed is None:
        import secrets  # here only: what `new` needs, the other commands need not import
        seed = secrets.token_hex(16)
    rng = Rng(seed, path.name, 0)
    state, components, components_text = _set_up(game, request, names, options, rng)
    gd = GameDir(path, _game_file(game, path.name, names, options, seed, components_text, request))
    env, entries, public = _first_moves(gd, state, seed, request, components)
    roster = [{"name": name, "secret": trust.new_secret()} for name in names]
    for entry in roster:
        if (request.languages or {}).get(entry["name"]):
            entry["language"] = request.languages[entry["name"]]
        if entry["name"] in (env.get("bots") or {}):
            entry["holder"] = BOT_HOLDER  # (as `pbem replace --bot` records it: the league knows the seat by it)
    secrets_doc = {"format": "pbem-secrets/1", "id": gd.id, "game": game.id, "rules_version": game.rules_version,
                   "players": roster}
    if extend is not None:
        extend(env, secrets_doc)
    files = _files(gd, env, list(zip(entries, public)), rng.outcomes, components_text, secrets_doc)
    make_folder(path)
    with locked(gd):
        commit_files(gd, files)
    return {"game": gd.id, "game_type": game.id, "dir": str(path), "players": roster,
            "referee_moves": public, "move_number": env["move_number"], "bots": env.get("bots", {})}


def bot_seats(game: registry.Game, chosen: dict[str, str], names: list[str]) -> dict[str, str]:
    """The seats given to a bot, each with its level as it plays in this game (the search with its budget named);
    a seat that is not a player's, or every seat a bot's (nobody would play), is refused."""
    unknown = sorted(set(chosen) - set(names))
    if unknown:
        raise UsageError(f"--bot for {', '.join(unknown)}, who does not play (players: {', '.join(names)})")
    if set(names) <= set(chosen):
        raise UsageError("every seat is a bot's: a game needs a player (`pbem demo` plays a game of bots)")
    return {seat: str(levels.parse_level(chosen[seat]).played(game)) for seat in names if seat in chosen}


def _check_request(game: registry.Game, request: NewGame, path, names: list[str]) -> None:
    """The seed, the game's id (its folder's name, not taken), the players' names and their count."""
    if request.seed is not None and not 0 < len(request.seed) <= MAX_SEED:
        raise UsageError(f"--seed: 1 to {MAX_SEED} characters, not {len(request.seed)}")
    if not ID_PATTERN.fullmatch(path.name):
        raise UsageError(f"{path.name!r} cannot be a game id: the directory name must be lowercase letters, digits,"
                         f" - and _")
    if path.exists() and not _left_by_a_killed_new(path):
        raise UsageError(f"{path} already exists: a game id is used once under its games root")
    for name in names:
        check_name(name)
    if len(set(names)) != len(names):
        raise UsageError("two players have the same name")
    unknown = sorted(set(request.languages or {}) - set(names))
    if unknown:
        raise UsageError(f"--player-language for {', '.join(unknown)}, who does not play")
    _check_names(game, names)
    if not game.min_players <= len(names) <= game.max_players:
        raise UsageError(f"{game.title} is for {game.min_players}-{game.max_players} players, not {len(names)}")


def _set_up(game: registry.Game, request: NewGame, names: list[str], options: dict[str, str], rng: Rng
            ) -> tuple[dict, dict, str]:
    """The game's starting state, its components (the game's own, or the club's) and their file's text."""
    rules = game.rules  # a broken game is named as such (exit 2), before its setup
    components = load_components(game, request.components_path)
    try:
        state = rules.setup(names, options, components, rng)
    except PbemError as exc:
        # The game refuses the options (one that does not fit this player count: the organiser's command line,
        # exit 1) or a club's components file (a file, exit 2): the shipped components tell which.
        if request.components_path is not None and _options_fit(game, names, options):
            raise
        raise UsageError(str(exc)) from None
    return state, components, yamlio.dumps(components, schema_line(COMPONENTS, validation.game_name("components")))


def _game_file(game: registry.Game, game_id: str, names: list[str], options: dict[str, str], seed: str,
               components_text: str, request: NewGame) -> dict:
    """game.yaml: what the game is, its language (an English game's says none, as games made before did), the
    seed's commitment, the components' digest, when and by what it was made."""
    now = request.now or datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    language = {"language": request.language} if request.language not in (None, "en") else {}
    return {"format": "pbem-game/1", "id": game_id, "game": game.id, "rules_version": game.rules_version,
            "title": game.title, "players": names, "options": options, **language,
            "seed_commitment": commitment(seed),
            "components_sha256": digests.sha256(components_text.encode()).hexdigest(),
            "created": now.isoformat(), "pbem_version": __version__, "rulings": RULINGS}


def _first_moves(gd: GameDir, state: dict, seed: str, request: NewGame, components: dict
                 ) -> tuple[dict, list[dict], list[dict]]:
    """The state envelope after the moves the referee plays at once (forced moves, the bot seats' moves), their log
    entries and the entries as the public sees them."""
    game = gd.game
    env = {"format": "pbem-state/1", "id": gd.id, "game": game.id, "rules_version": game.rules_version,
           "move_number": 1, "seed": seed, "players": gd.meta["players"], "options": gd.meta["options"],
           "resigned": [], "recent": [], "state": state, "rulings": RULINGS}
    if request.forced_moves:
        env["forced_moves"] = "referee"
    if request.bots:
        env["bots"] = bot_seats(game, request.bots, gd.meta["players"])
    env["state"], entries, _ = referee_turns(game, state, env, MoveAt(seed, gd.id, 1, components), [])  # no queue
    public = [public_entry(game, entry) for entry in entries]
    env.update({"move_number": 1 + len(entries), "recent": public[-RECENT:]})
    return env, entries, public


def _files(gd: GameDir, env: dict, entries: list[tuple[dict, dict]], setup_chance: list[dict], components_text: str,
           secrets_doc: dict) -> dict[str, tuple[str, int]]:
    """Every file of the new game: game.yaml, the components, the state, both logs (the setup's chance in their
    headers, the first moves' entries, each with the public's), the secrets, the status files and the schemas;
    the logs' digests go into the envelope."""
    game = gd.game
    public_chance = [outcome for outcome in setup_chance if outcome["public"]]
    logs = {FULL_LOG: log_text(gd, FULL_LOG, log_header(gd, "referee", setup_chance, dict(gd.meta))),
            LOG: log_text(gd, LOG, log_header(gd, "public", public_chance, dict(gd.meta)))}
    for entry, shown in entries:
        logs = {FULL_LOG: append_entry(gd, logs[FULL_LOG], entry), LOG: append_entry(gd, logs[LOG], shown)}
    env["log_sha256"] = text_digests(logs)
    files = {
        GAME: (yaml_text(GAME, "game.schema.json", gd.meta, game.id, "game.yaml"), PUBLIC_MODE),
        COMPONENTS: (components_text, PUBLIC_MODE),
        **state_files(gd, env),
        FULL_LOG: (logs[FULL_LOG], PRIVATE),
        LOG: (logs[LOG], PUBLIC_MODE),
        SECRETS: (yaml_text(SECRETS, "secrets.schema.json", secrets_doc, game.id, "secrets"), PRIVATE),
        **with_status_digests(status_files(gd, env, env["recent"])),
    }
    for name, schema in validation.schemas_for(game.id).items():
        files[f"schemas/{name}"] = (json_text(schema), PUBLIC_MODE)
    return files


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
    return names <= {LOCK, TXN, key_folder}

