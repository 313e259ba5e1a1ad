"""What a game repository holds besides the game's public files, and the texts pbem writes there.

    game.yaml components.yaml public.yaml log.yaml schemas/   the game's public files (as `pbem new` makes them)
    pbem-git.yaml            how the game is played by git: players' public keys, how each gets their view
    views/NAME.yaml.age      each player's view, encrypted to that player's key
    moves/NNNN-NAME.yaml     the players' moves (NNNN: the move number they answer); .yaml.age when a move holds
                             a hidden choice (encrypted to the referee)
    refused.yaml             the commits the referee did not apply, and why
    revealed.yaml            the players' secrets, once the game is over (to check every signature)
    referee.age              the referee's own files, encrypted to the referee (only for a referee in CI)
    .gitignore .gitattributes .github/workflows/pbem.yml .gitlab-ci.yml

Everything but moves/ is written by the referee; a commit of a player may add one move file and nothing else.
"""
from __future__ import annotations

import re
from functools import lru_cache

from .. import __version__, schemacheck, validation, yamlio
from ..contract import PbemError

CONFIG, REFUSED, REVEALED, ARCHIVE = "pbem-git.yaml", "refused.yaml", "revealed.yaml", "referee.age"
MOVES = "moves"
MOVE_FILE = re.compile(r"^moves/(?P<number>[0-9]{4,6})-(?P<player>[a-z][a-z0-9_-]{0,31})\.yaml(?P<age>\.age)?$")
GIT_SCHEMAS = ("config", "refused", "revealed", "record")
SCHEMA_COPIES = {"config": "pbem-git.schema.json", "refused": "refused.schema.json",
                 "revealed": "revealed.schema.json"}
WORKFLOW, GITLAB = ".github/workflows/pbem.yml", ".gitlab-ci.yml"
IDENTITY_VARIABLE = "PBEM_REFEREE_IDENTITY"


def view_blob_path(player: str) -> str:
    return f"views/{player}.yaml.age"


def move_path(number: int, player: str, encrypted: bool) -> str:
    return f"{MOVES}/{number:04d}-{player}.yaml" + (".age" if encrypted else "")


@lru_cache(maxsize=None)
def _schemas() -> dict[str, dict]:
    return {f"{name}.schema.json": validation.load_schema(f"git/{name}.schema.json") for name in GIT_SCHEMAS}


@lru_cache(maxsize=None)
def _compiler() -> schemacheck.Compiler:
    return schemacheck.Compiler(_schemas())


def check(kind: str, data, source: str) -> None:
    """Validate one of the git transport's files against its schema; every error with its path."""
    name = f"{kind}.schema.json"
    if _compiler().root(name)(data):
        return
    from jsonschema import Draft202012Validator
    problems = sorted(f"{error.json_path}: {error.message[:300]}"
                      for error in Draft202012Validator(_schemas()[name]).iter_errors(data))
    raise PbemError(f"{source} does not match {name}:\n  " + "\n  ".join(problems[:20] or ["$: invalid"]))


def dump(kind: str, data: dict, source: str) -> str:
    """A file of the git transport: validated, then written as block YAML with its schema line."""
    check(kind, data, source)
    return yamlio.dumps(data, f"schemas/{SCHEMA_COPIES[kind]}" if kind in SCHEMA_COPIES else None)


def schema_copies() -> dict[str, str]:
    """The transport's schemas as they are committed into schemas/ (editors validate pbem-git.yaml with them)."""
    import json
    return {f"schemas/{copy}": json.dumps(_schemas()[f"{kind}.schema.json"], indent=2) + "\n"
            for kind, copy in SCHEMA_COPIES.items()}


def load(kind: str, text: bytes | str, source: str) -> dict:
    data = yamlio.loads(text, source)
    check(kind, data, source)
    return data


def config_doc(game_id: str, game_type: str, recipient: str, files: str, players: list[dict]) -> dict:
    return {"format": "pbem-git/1", "id": game_id, "game": game_type,
            "referee": {"recipient": recipient, "files": files}, "players": players}


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


def github_workflow(branch: str) -> str:
    return f"""\
# pbem: the referee runs on every push (see docs/git.md of pbem). The referee's private key goes in the
# repository's secret {IDENTITY_VARIABLE}; the referee's files are committed encrypted to it (referee.age).
name: pbem referee
on:
  push:
    branches: [{branch}]
concurrency:
  group: pbem-referee
  cancel-in-progress: false
permissions:
  contents: write
jobs:
  referee:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0
      - uses: actions/setup-python@v5
        with:
          python-version: "3.12"
      - name: Install pbem
        run: command -v pbem >/dev/null || python3 -m pip install --quiet 'pbem=={__version__}'
      - name: Referee the new commits and push the position
        env:
          {IDENTITY_VARIABLE}: ${{{{ secrets.{IDENTITY_VARIABLE} }}}}
        run: |
          git config user.name "pbem referee"
          git config user.email "referee@pbem.invalid"
          pbem git referee . --remote origin --branch {branch}
"""


def gitlab_ci(branch: str) -> str:
    return f"""\
# pbem: the referee runs on every push (see docs/git.md of pbem). Set the CI/CD variables {IDENTITY_VARIABLE}
# (the referee's private key, masked) and PBEM_PUSH_TOKEN (a project access token allowed to push).
pbem-referee:
  image: python:3.12
  variables:
    GIT_DEPTH: "0"
  rules:
    - if: '$CI_PIPELINE_SOURCE == "push" && $CI_COMMIT_BRANCH == "{branch}"'
  resource_group: pbem-referee
  script:
    - command -v pbem >/dev/null || python3 -m pip install --quiet 'pbem=={__version__}'
    - git config user.name "pbem referee"
    - git config user.email "referee@pbem.invalid"
    - if [ -n "${{PBEM_PUSH_TOKEN:-}}" ]; then git remote set-url origin "https://oauth2:${{PBEM_PUSH_TOKEN}}@${{CI_SERVER_HOST}}/${{CI_PROJECT_PATH}}.git"; fi
    - pbem git referee . --remote origin --branch {branch}
"""


def github_verify_workflow(branch: str) -> str:
    return f"""\
# pbem: the referee runs on the organiser's machine; every push is checked here (see docs/git.md of pbem):
# the refereed positions form one unbroken chain, and the signed moves and the public files agree.
name: pbem verify
on:
  push:
    branches: [{branch}]
jobs:
  verify:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0
      - uses: actions/setup-python@v5
        with:
          python-version: "3.12"
      - name: Install pbem
        run: command -v pbem >/dev/null || python3 -m pip install --quiet 'pbem=={__version__}'
      - name: Verify the game's history
        run: pbem git verify .
"""


def gitlab_verify_ci(branch: str) -> str:
    return f"""\
# pbem: the referee runs on the organiser's machine; every push is checked here (see docs/git.md of pbem).
pbem-verify:
  image: python:3.12
  variables:
    GIT_DEPTH: "0"
  rules:
    - if: '$CI_PIPELINE_SOURCE == "push" && $CI_COMMIT_BRANCH == "{branch}"'
  script:
    - command -v pbem >/dev/null || python3 -m pip install --quiet 'pbem=={__version__}'
    - pbem git verify .
"""
