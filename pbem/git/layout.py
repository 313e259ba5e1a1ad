"""What a game repository holds besides the game's public files, and the texts pbem writes there.

    game.yaml components.yaml public.yaml log.yaml schemas/   the game's public files (as `pbem new` makes them)
    pbem-git.yaml            how the game is played by git: players' public keys, how each gets their view
    views/NAME.yaml.age      each player's view, encrypted to that player's key
    views/NAME.moves.yaml.age   the legal moves of the player to act, with what each does, encrypted to them
    moves/NNNN-NAME.yaml     the players' moves (NNNN: the move number they answer); .yaml.age when a move holds
                             a hidden choice (encrypted to the referee)
    moves/NNNN-NAME.language.yaml   a player's choice of the language they read (`language CODE`, signed)
    moves/NNNN-NAME.talk-K.yaml     a player's message to the table (signed); .yaml.age: to one player, encrypted
                                    to the two players' keys and the referee's (pbem.git.talk)
    talk.yaml                the messages to the table, as the referee kept them (public)
    refused.yaml             the commits the referee did not apply, and why
    revealed.yaml            the players' secrets, once the game is over (to check every signature)
    board.svg README.md      the public picture of the position and a page of it (the hosting shows the README)
    referee.age              the referee's own files, encrypted to the referee (only for a referee in CI)
    .gitignore .gitattributes .github/workflows/pbem.yml .gitlab-ci.yml
    .pre-commit-config.yaml  the players' pre-commit hooks: a move file checked before it is committed

Everything but moves/ is written by the referee; a commit of a player may add one move file and nothing else.
"""
from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

from ..contract import UsageError
from ..messages import N_, _, lazy
from ..store import validation, yamlio
from . import keys

CONFIG, REFUSED, REVEALED, ARCHIVE = "pbem-git.yaml", "refused.yaml", "revealed.yaml", "referee.age"
MOVES = "moves"
# matched whole (fullmatch): `$` would let a name end in a line break, which git accepts in a path
# (`.language`: a player's choice of the language they read, signed like a move: pbem.git.judge.language_choice)
# (`.talk-K`: a player's message, the K-th of that player at that move number: pbem.git.talk)
MOVE_FILE = re.compile(r"moves/(?P<number>[0-9]{4,6})-(?P<player>[a-z][a-z0-9_-]{0,31})"
                       r"(?:(?P<setting>\.language)|\.talk-(?P<talk>[1-9][0-9]{0,3}))?\.yaml(?P<age>\.age)?")
LANGUAGE_STEP = "language"  # the one step of a language file: `language CODE`
GIT_SCHEMAS = ("config", "refused", "revealed", "record", "moves", "talk")
SCHEMA_COPIES = {"config": "pbem-git.schema.json", "refused": "refused.schema.json",
                 "revealed": "revealed.schema.json"}
WORKFLOW, GITLAB = ".github/workflows/pbem.yml", ".gitlab-ci.yml"
PRE_COMMIT = ".pre-commit-config.yaml"
IDENTITY_VARIABLE = "PBEM_REFEREE_IDENTITY"


def move_name(path: str) -> re.Match | None:
    """The parts of a move file's name (number, player, age), or None when `path` is not exactly one."""
    return MOVE_FILE.fullmatch(path)


def view_blob_path(player: str) -> str:
    return f"views/{player}.yaml.age"


def legal_blob_path(player: str) -> str:
    """The legal moves of the player to act, encrypted to them (no such file for the others)."""
    return f"views/{player}.moves.yaml.age"


def is_legal_blob(path: str) -> bool:
    return path.startswith("views/") and path.endswith(".moves.yaml.age")


def move_path(number: int, player: str, encrypted: bool) -> str:
    return f"{MOVES}/{number:04d}-{player}.yaml" + (".age" if encrypted else "")


def talk_path(number: int, player: str, sequence: int, private: bool) -> str:
    """The file of a player's `sequence`-th message at move `number`: encrypted when it goes to one player."""
    return f"{MOVES}/{number:04d}-{player}.talk-{sequence}.yaml" + (".age" if private else "")


def language_path(number: int, player: str) -> str:
    """The file of a player's choice of language, made at move `number` (one a move number: it is signed for it)."""
    return f"{MOVES}/{number:04d}-{player}.language.yaml"


@lru_cache(maxsize=None)
def schemas() -> dict[str, dict]:
    return {f"{name}.schema.json": validation.load_schema(f"git/{name}.schema.json") for name in GIT_SCHEMAS}


@lru_cache(maxsize=None)
def _checks() -> dict:
    return validation.kept_checks("git", {f"{name}.schema.json": f"git/{name}.schema.json" for name in GIT_SCHEMAS})


def check(kind: str, data, source: str) -> None:
    """Validate one of the git transport's files against its schema; every error with its path."""
    name = f"{kind}.schema.json"
    if not _checks()[name](data):
        validation.refuse(schemas()[name], name, data, source)


def dump(kind: str, data: dict, source: str) -> str:
    """A file of the git transport: validated, then written as block YAML with its schema line."""
    check(kind, data, source)
    return yamlio.dumps(data, f"schemas/{SCHEMA_COPIES[kind]}" if kind in SCHEMA_COPIES else None)


def schema_copies() -> dict[str, str]:
    """The transport's schemas as they are committed into schemas/ (editors validate pbem-git.yaml with them)."""
    import json
    return {f"schemas/{copy}": json.dumps(schemas()[f"{kind}.schema.json"], indent=2) + "\n"
            for kind, copy in SCHEMA_COPIES.items()}


def load(kind: str, text: bytes | str, source: str) -> dict:
    data = yamlio.loads(text, source)
    check(kind, data, source)
    return data


def config_doc(game_id: str, game_type: str, recipient: str, files: str, players: list[dict],
               signer: str | None = None) -> dict:
    referee = {"recipient": recipient, "files": files, **({"signer": signer} if signer else {})}
    return {"format": "pbem-git/1", "id": game_id, "game": game_type, "referee": referee, "players": players}


def ssh_keys(config: dict) -> dict[str, str]:
    """{player: SSH public key} of the players of pbem-git.yaml who registered one: the keys that may sign commits."""
    return {p["name"]: p["key"] for p in config["players"] if p["key"] and keys.is_ssh(p["key"])}


def bot_seat(player: str):
    """Why a bot's seat has no view nor legal moves in the repository (config_doc's `view: bot`)."""
    return lazy("{player}'s seat is played by the referee's bot: its view is never published", player=player)


def refused_doc(game_id: str, entries: list[dict]) -> dict:
    return {"format": "pbem-refused/1", "id": game_id, "refused": entries}


# ---------------------------------------------------------------- fixed texts

GITIGNORE = """\
# pbem: what must never be committed (the referee's files, plain views, pbem's lock and transaction files)
referee/
/views/*.yaml
.txn/
.lock
*.tmp
"""

GITATTRIBUTES = """\
# pbem: `git diff` and `git log -p` show the state files in game terms once each clone has run
#   git config diff.pbem.textconv "pbem git textconv"
public.yaml diff=pbem
log.yaml diff=pbem
views/*.yaml.age diff=pbem
*.age -text
"""

# Local hooks that run the pbem installed on the player's machine (`language: system`): nothing is fetched, and
# the file is the referee's like every file but moves/, so no player can point the others' hooks elsewhere.
PRE_COMMIT_CONFIG = """\
# pbem: checks made before a commit, once a clone has run `pre-commit install` (pip install pre-commit): a move
# file misnamed, malformed, for another game or holding a hidden choice in the clear is stopped on your machine
# instead of refused by the referee. Written by the referee: a commit that changes this file is refused.
repos:
- repo: local
  hooks:
  - id: pbem-check-move
    name: pbem move files
    entry: pbem git check-move
    language: system
    files: ^moves/
  - id: pbem-only-moves
    name: pbem players commit move files only
    entry: "a player commits one move file (moves/NNNN-NAME.yaml) and nothing else; the referee refuses these:"
    language: fail
    exclude: ^moves/
"""


# what pre-commit shows a player of the hooks above (their names; a file refused with the words of `entry`)
HOOK_WORDS = (N_("pbem move files"), N_("pbem players commit move files only"),
              N_("a player commits one move file (moves/NNNN-NAME.yaml) and nothing else; the referee refuses these:"))


def pre_commit_config() -> str:
    """The players' pre-commit hooks with the words pre-commit shows in the language being read (the game's: who
    commits is not known); in English, PRE_COMMIT_CONFIG itself."""
    import json
    text = PRE_COMMIT_CONFIG
    for english in HOOK_WORDS:
        said = _(english)
        if said != english:  # a YAML string in double quotes is a JSON string
            text = text.replace(f": {english}\n", f": {json.dumps(said, ensure_ascii=False)}\n") \
                .replace(f": {json.dumps(english)}\n", f": {json.dumps(said, ensure_ascii=False)}\n")
    return text


SOURCE = re.compile(r"[A-Za-z0-9._+=<>!~:/@%#?&,\[\]-]{1,500}")


def check_source(source: str) -> str:
    """A source of pbem for the CI files: a pip requirement (`git+https://host/pbem.git@v0.2.0`, a wheel's URL,
    `pbem==0.2.0` once published), one word a shell takes as it is inside single quotes."""
    if not SOURCE.fullmatch(source):
        raise UsageError(f"--pbem-source {source[:80]!r}: give what pip installs pbem from, in one word (a git "
                         f"URL with a tag: git+https://your.club/pbem.git@v0.2.0, a wheel's URL, pbem==0.2.0)")
    return source


def install_step(source: str | None) -> str:
    """The CI's shell line that installs pbem: from the source named at `pbem git init`, into the runner's own
    Python (whatever pbem another environment on PATH holds: the named source is the pbem the game runs), or,
    when none was named, a failure that says so before anything else runs unless the runner has a pbem."""
    if source:
        return f"python3 -m pip install --quiet '{check_source(source)}'"
    return ("command -v pbem >/dev/null || { echo 'pbem is not installed and no source of it was named: run pbem "
            "git init with --pbem-source (or pbem git referee --pbem-source), or edit this step to pip install it "
            "from where your club keeps it' >&2; exit 1; }")


def ci_file(host: str, committed: bool, branch: str, source: str | None = None) -> str:
    """A CI file (`host`: github or gitlab): the referee itself when its files are committed encrypted, else a
    check of every push; pbem installed from `source`. The texts are package data (pbem/git/ci/), so they read as
    the YAML they are."""
    import json
    name = f"{host}-{'referee' if committed else 'verify'}.yml"
    text = resources.files("pbem.git").joinpath("ci", name).read_text(encoding="utf-8")
    return text.replace("@BRANCH@", branch).replace("@INSTALL@", json.dumps(install_step(source)))
