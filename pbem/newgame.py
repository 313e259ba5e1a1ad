"""`pbem new`: a game directory made, with the moves the referee plays at once (forced moves)."""
from __future__ import annotations

import datetime
import re

from . import __version__, digests, printable, queues, registry, trust, validation, yamlio
from .contract import PbemError, UsageError
from .documents import (RECENT, append_entry, json_text, log_header, log_text, public_entry, state_files,
                        status_files, text_digests, with_status_digests, yaml_text)
from .gamedir import (COMPONENTS, FULL_LOG, GAME, LOG, PRIVATE, PUBLIC_MODE, SECRETS, TXN_KEY, GameDir, commit_files,
                      locked, schema_line)
from .rng import Rng, commitment
from .safefiles import make_folder
from .transactions import LOCK, TXN
from .turns import referee_turns

ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
NAME_PATTERN = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")
# Words no player may be called: moves every game has, words of the log (`by: referee`), and of queues.
RESERVED_NAMES = ("pass", "referee", "resign", *queues.WORDS)
MAX_SEED = 200


def check_name(name: str) -> None:
    """A player's name: a word of the move notation, which is lowercase."""
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):
        raise UsageError(f"player name {name!r}: use lowercase letters, digits, - and _ (at most 32, starting "
                         f"with a letter): names are words of the move notation, which is lowercase")


def _check_names(game: registry.Game, names: list[str]) -> None:
    """A player's name must not read as a word of the moves or of the log: `pass` or `place` as a name would make
    a move like `appoint pass` ambiguous, and `referee` would pass for the referee in the log; nor as a word of
    a queue (`else`, or `at` in the game's conditions)."""
    words = {part.literal for template in game.templates for part in template.parts if part.literal}
    words |= queues.vocabulary(game).literals()
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
    (pbem.printable: players read them, in reports and pictures) and matches the game's components schema, which
    bounds their lengths."""
    data = yamlio.load_file(path) if path else game.default_components()
    source = f"components file {path or '(default)'}"
    unprintable = printable.problems(data)
    if unprintable:
        raise PbemError(f"{source}: every name and text in it is shown to players, so it may hold printable "
                        f"characters only:\n  " + "\n  ".join(unprintable[:validation.MAX_ERRORS]))
    validation.check(game.id, validation.game_name("components"), data, source)
    return data


def create(game_type: str, path, players: list[str], seed: str | None = None, options: dict[str, str] | None = None,
           components_path=None, now: datetime.datetime | None = None, forced_moves: bool = True,
           options_as_stored: bool = False, extend=None) -> dict:
    """A new game in `path` for the named players (in seating order), with the first moves the referee plays
    (forced moves, see referee_turns). `now`: when it is made (default: the system clock).
    `forced_moves=False` makes a game whose players play their forced moves themselves, as games created before
    pbem played them did (to rebuild such a game from its move files); `options_as_stored` takes the options of
    such a game as its game.yaml has them, an option it predates left out (the game then keeps the reading it was
    played with) instead of set to the default a new game gets. `extend(env, secrets_doc)`, if given, adds the
    records of the layer above (pbem.correspondence: the clock, each player's address and mail preference) to the
    state envelope and the secrets before anything is written; it may refuse the game (UsageError)."""
    game = registry.get(game_type)
    if now is None:
        now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    from pathlib import Path  # (`new` only)
    path = Path(path)
    game_id = path.name
    if seed is not None and not 0 < len(seed) <= MAX_SEED:
        raise UsageError(f"--seed: 1 to {MAX_SEED} characters, not {len(seed)}")
    if not ID_PATTERN.fullmatch(game_id):
        raise UsageError(f"{game_id!r} cannot be a game id: the directory name must be lowercase letters, digits,"
                         f" - and _")
    if path.exists() and not _left_by_a_killed_new(path):
        raise UsageError(f"{path} already exists: a game id is used once under its games root")
    names = list(players)
    for name in names:
        check_name(name)
    if len(set(names)) != len(names):
        raise UsageError("two players have the same name")
    _check_names(game, names)
    if not game.min_players <= len(names) <= game.max_players:
        raise UsageError(f"{game.title} is for {game.min_players}-{game.max_players} players, not {len(names)}")
    options = game.resolve_options(options or {}, fill=not options_as_stored)
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
    components_text = yamlio.dumps(components, schema_line(COMPONENTS, validation.game_name("components")))
    gd.meta["components_sha256"] = digests.sha256(components_text.encode()).hexdigest()
    gd.meta["created"] = now.isoformat()
    env = {"format": "pbem-state/1", "id": game_id, "game": game.id, "rules_version": game.rules_version,
           "move_number": 1, "seed": seed, "players": names, "options": options, "resigned": [], "recent": [],
           "state": state}
    if forced_moves:
        env["forced_moves"] = "referee"
    env["state"], entries, records = referee_turns(game, state, env, game_id, 1, [])  # no queue yet: none
    public = [public_entry(game, entry) for entry in entries]
    env.update({"move_number": 1 + len(entries), "recent": public[-RECENT:]})
    roster = [{"name": name, "secret": trust.new_secret()} for name in names]
    secrets_doc = {"format": "pbem-secrets/1", "id": game_id, "game": game.id, "rules_version": game.rules_version,
                   "players": roster}
    if extend is not None:
        extend(env, secrets_doc)
    public_chance = [outcome for outcome in rng.outcomes if outcome["public"]]
    logs = {FULL_LOG: log_text(gd, FULL_LOG, log_header(gd, "referee", rng.outcomes, dict(gd.meta))),
            LOG: log_text(gd, LOG, log_header(gd, "public", public_chance, dict(gd.meta)))}
    for entry, shown in zip(entries, public):
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
    make_folder(path)
    with locked(gd):
        commit_files(gd, files)
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
    return names <= {LOCK, TXN, key_folder}

