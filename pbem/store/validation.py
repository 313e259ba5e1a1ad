"""JSON Schema (2020-12) validation of every file pbem reads or writes, every error reported with its path.

Schemas ship as package data, read through pbem.store.packaged: the common envelopes in `pbem.schemas`, each game's own
in its package's `schemas/` (a game installed from a package of its own brings them). The common envelopes refer
to the game's own schemas by fixed relative names (`game-state.schema.json`, ...), which resolve to the schemas of
the game at hand; the same names are used for the copies written into each game directory, so editors resolve
them too.

The yes/no check runs on schemas compiled by pbem.store.schemacheck (fast enough for every move) and kept compiled
between commands by pbem.store.checkercache; only a document that fails is handed to jsonschema, which lists every error
with its JSON path.
"""
from __future__ import annotations

import json
from functools import lru_cache
from ..contract import PbemError
from ..messages import Message, lazy
from . import checkercache, packaged, registry

COMMON = ("game", "public", "player", "referee-state", "log", "secrets", "move", "notices", "talk", "base")
GAME_PARTS = ("state", "public-view", "player-view", "components")
MAX_ERRORS = 20


def common_name(kind: str) -> str:
    return f"{kind}.schema.json"


def game_name(part: str) -> str:
    return f"game-{part}.schema.json"


@lru_cache(maxsize=None)
def schema_text(relative: str, package: str = "pbem.schemas") -> bytes:
    return packaged.read_bytes(package, relative)


@lru_cache(maxsize=None)
def load_schema(relative: str, package: str = "pbem.schemas") -> dict:
    return json.loads(schema_text(relative, package))


def schema_files(game_type: str | None) -> dict[str, tuple[str, str]]:
    """Every schema a game directory of this game type uses: {its file name there: (where it is kept: the
    relative path, the package)}."""
    named = {common_name(kind): (f"common/{kind}.schema.json", "pbem.schemas") for kind in COMMON}
    if game_type:
        module = registry.get(game_type).module
        for part in GAME_PARTS:
            named[game_name(part)] = (f"schemas/{part}.schema.json", module)
    return named


@lru_cache(maxsize=None)
def schemas_for(game_type: str | None) -> dict[str, dict]:
    """Every schema a game directory of this game type uses, by the file name it has there (None: common only)."""
    return {name: load_schema(*where) for name, where in schema_files(game_type).items()}


def kept_checks(label: str, files: dict) -> dict:
    """The compiled checks of a set of schemas ({the name their $refs use: where pbem keeps it, a path in
    pbem.schemas or (a path, the package holding it)}), by name, kept between commands under `label`
    (pbem.store.checkercache)."""
    texts = {name: schema_text(*((where,) if isinstance(where, str) else where)) for name, where in files.items()}
    return checkercache.checks(label, texts)


@lru_cache(maxsize=None)
def _checks(game_type: str | None) -> dict:
    """The compiled check of every schema of a game type, by the file name it has in a game directory."""
    return kept_checks(game_type or "common", schema_files(game_type))


def is_valid(game_type: str | None, name: str, data) -> bool:
    return _checks(game_type)[name](data)


@lru_cache(maxsize=None)
def validator(game_type: str | None, name: str):
    """jsonschema's validator for the full error report (imported only when a document is invalid)."""
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012
    registry = Registry().with_resources(
        (uri, Resource.from_contents(schema, default_specification=DRAFT202012))
        for uri, schema in schemas_for(game_type).items())
    return Draft202012Validator(schemas_for(game_type)[name], registry=registry)


def errors(game_type: str | None, name: str, data, waived: tuple[str, ...] = ()) -> list[str]:
    """Every violation with its JSON path, by jsonschema (the reference implementation); none of the keywords
    `waived`."""
    found = []
    for error in validator(game_type, name).iter_errors(data):
        if error.validator in waived:
            continue
        found.append(f"{error.json_path}: {error.message[:300]}")
        if len(found) >= MAX_ERRORS:
            found.append("... (more errors not shown)")
            break
    return sorted(found)


def check(game_type: str | None, name: str, data, source: str, waived: tuple[str, ...] = ()) -> None:
    """Raise one PbemError listing every schema violation with its JSON path (but those of the keywords `waived`:
    a file written before the schema said so)."""
    if is_valid(game_type, name, data):
        return
    problems = errors(game_type, name, data, waived)
    if waived and not problems:
        return
    problems = problems or ["$: rejected by pbem's schema check (jsonschema disagrees: a bug)"]
    raise PbemError(mismatch(source, name, problems))


def check_kept(label: str, relative: str, data, source: str) -> None:
    """Validate a document against one self-contained schema of pbem.schemas (`relative`), its compiled check kept
    under `label` (pbem.store.checkercache)."""
    name = relative.rsplit("/", 1)[-1]
    if not kept_checks(label, {name: relative})[name](data):
        refuse(load_schema(relative), name, data, source)


def refuse(schema: dict, name: str, data, source: str):
    """The refusal of a document its compiled check found invalid: jsonschema's violations, each with its path."""
    from jsonschema import Draft202012Validator
    problems = sorted(f"{error.json_path}: {error.message[:300]}"
                      for error in Draft202012Validator(schema).iter_errors(data))
    raise PbemError(mismatch(source, name, problems[:MAX_ERRORS] or ["$: invalid"]))


def mismatch(source: str, name: str, problems: list[str]) -> Message:
    """The refusal of a document its schema does not match: each violation on its own line, with its JSON path
    (jsonschema's words, in English)."""
    # TRANSLATORS: {name}: a schema's file name; {problems}: one a line, in English (jsonschema's).
    return lazy("{source} does not match {name}:\n  {problems}", source=source, name=name,
                problems="\n  ".join(problems))
