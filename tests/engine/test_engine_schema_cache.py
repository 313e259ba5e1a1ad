"""Compiled schema checks kept between commands (pbem.store.checkercache): loaded instead of compiled, kept beside the
schemas or in the user's cache, never believed when someone else could have written them, never used for schemas
they were not compiled from; and the compiler (pbem.store.schemacheck) answers as jsonschema does, keyword by
keyword."""
from __future__ import annotations

import importlib
import json
import marshal
import os
import stat
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from jsonschema import Draft202012Validator

from pbem.store import checkercache, registry, schemacheck, validation

MOVE = {"name": "alice", "moves": ["bid 3"]}
SCHEMAS = {"move.schema.json": json.dumps({
    "$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "required": ["name", "moves"],
    "additionalProperties": False,
    "properties": {"name": {"type": "string", "pattern": "^[a-z]+$"},
                   "moves": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/move"}}},
    "$defs": {"move": {"type": "string", "maxLength": 20}}}).encode()}


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """This test's own user cache, empty."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "pbem"


def kept(folder):
    return sorted(p.name for p in folder.glob(f"*{checkercache.SUFFIX}")) if folder.is_dir() else []


def no_compiling(monkeypatch):
    def refuse(documents):
        raise AssertionError("compiled again: the kept file was not used")
    monkeypatch.setattr(schemacheck, "compile_checks", refuse)


def test_the_first_use_compiles_and_keeps_the_checks_in_the_users_cache_the_next_loads_them(cache, monkeypatch):
    first = checkercache.checks("move", SCHEMAS)
    assert first["move.schema.json"](MOVE) and not first["move.schema.json"]({**MOVE, "name": "Alice"})
    assert len(kept(cache)) == 1
    assert stat.S_IMODE(cache.stat().st_mode) == 0o700 and not (cache / kept(cache)[0]).stat().st_mode & 0o077
    no_compiling(monkeypatch)
    again = checkercache.checks("move", SCHEMAS)
    assert again["move.schema.json"](MOVE) and not again["move.schema.json"]({**MOVE, "moves": []})


def installed_files() -> set[Path]:
    """pbem's installed files and its schemas' (their own folder in a source checkout), bytecode aside."""
    folders = [Path(folder) for name in ("pbem", "pbem.schemas") for folder in importlib.import_module(name).__path__]
    return {p for folder in folders for p in folder.rglob("*") if p.suffix != ".pyc"}


def test_nothing_is_written_into_pbems_installed_folder(cache):
    before = installed_files()
    validation._checks.cache_clear()
    validation._checks("coal-baron")
    validation._checks.cache_clear()
    assert installed_files() == before and kept(cache)


def test_where_the_cache_cannot_be_written_every_command_compiles_and_still_checks(cache, monkeypatch):
    cache.parent.write_text("a file where the folder would go")
    assert not checkercache.checks("move", SCHEMAS)["move.schema.json"]({**MOVE, "extra": 1})
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", "relative/home")  # no home to speak of: nowhere to keep anything
    assert checkercache.folder() is None
    assert not checkercache.checks("move", SCHEMAS)["move.schema.json"]({**MOVE, "extra": 1})


def longer(length: int) -> dict[str, bytes]:
    return {"move.schema.json": SCHEMAS["move.schema.json"].replace(b'"maxLength": 20', b'"maxLength": %d' % length)}


def test_a_changed_schema_is_compiled_again_and_only_the_newest_files_of_a_set_are_kept(cache):
    checks = checkercache.checks("move", longer(40))
    assert checks["move.schema.json"]({**MOVE, "moves": ["x" * 30]})
    assert not checkercache.checks("move", SCHEMAS)["move.schema.json"]({**MOVE, "moves": ["x" * 30]})
    checkercache.checks("other", SCHEMAS)
    for length in range(50, 50 + checkercache.KEEP):
        checkercache.checks("move", longer(length))
    names = kept(cache)
    assert len([n for n in names if n.startswith("move-")]) == checkercache.KEEP
    assert checkercache.file_name("move", checkercache.digest(longer(50 + checkercache.KEEP - 1))) in names
    assert checkercache.file_name("move", checkercache.digest(longer(40))) not in names  # the oldest went
    assert len([n for n in names if n.startswith("other-")]) == 1  # another set is left alone


def planted(cache) -> Path:
    """A kept file that says yes to everything, under the very name the real checks would have."""
    key = checkercache.digest(SCHEMAS)
    payload = marshal.dumps(compile("ROOTS = {'move.schema.json': lambda x: True}", "<planted>", "exec"))
    cache.mkdir(parents=True, exist_ok=True)
    path = cache / checkercache.file_name("move", key)
    path.write_bytes(checkercache.MAGIC + key + len(payload).to_bytes(8, "big") + payload)
    path.chmod(0o644)
    return path


def says_no_to_a_bad_move() -> bool:
    return not checkercache.checks("move", SCHEMAS)["move.schema.json"]({"anything": "goes"})


def test_a_kept_file_of_the_right_form_is_believed_when_the_user_running_pbem_wrote_it(cache):
    planted(cache)
    assert not says_no_to_a_bad_move()  # the user's own file: it is what pbem runs (shows the plant works)


def test_a_kept_file_others_may_write_is_not_believed(cache):
    planted(cache).chmod(0o666)
    assert says_no_to_a_bad_move()


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another user needs root")
def test_a_kept_file_another_user_owns_is_not_believed(cache):
    path = planted(cache)
    uid = os.geteuid() + 4321
    os.chown(path, uid, uid)
    assert says_no_to_a_bad_move()
    assert path.stat().st_uid == os.geteuid()  # written again by the user running pbem


def test_a_symbolic_link_in_place_of_a_kept_file_is_not_followed(cache, tmp_path):
    path = planted(cache)
    target = tmp_path / "elsewhere.checks"
    path.rename(target)
    path.symlink_to(target)
    assert says_no_to_a_bad_move()


@pytest.mark.parametrize("damage", ["truncated", "other digest", "not marshal"])
def test_a_damaged_kept_file_is_compiled_again(cache, damage):
    checkercache.checks("move", SCHEMAS)
    path = cache / kept(cache)[0]
    data = path.read_bytes()
    head = len(checkercache.MAGIC)
    if damage == "truncated":
        data = data[:len(data) // 2]
    elif damage == "other digest":
        data = data[:head] + bytes(checkercache.DIGEST) + data[head + checkercache.DIGEST:]
    else:
        data = data[:checkercache.HEADER] + b"\xff" * (len(data) - checkercache.HEADER)
    path.write_bytes(data)
    assert says_no_to_a_bad_move()


def test_every_games_schemas_are_compiled_once_then_loaded(cache, monkeypatch):
    for game_type in [None, *registry.installed()]:
        validation._checks.cache_clear()
        validation._checks(game_type)
    validation._checks.cache_clear()
    no_compiling(monkeypatch)
    for game_type in [None, *registry.installed()]:
        checks = validation._checks(game_type)
        assert checks["move.schema.json"]({"game": "g", "move_number": 1, "player": "ann", "moves": ["pass"]})
    validation._checks.cache_clear()


# ---------------------------------------------------------------- the compiler against jsonschema, keyword by keyword

KEYWORDS = [
    {"type": "integer", "minimum": 0, "maximum": 5},
    {"type": ["integer", "null"], "exclusiveMinimum": 0, "exclusiveMaximum": 3},
    {"type": "number", "multipleOf": 0.5},
    {"minimum": 2},  # no type: says nothing of what is not a number
    {"type": "string", "minLength": 1, "maxLength": 3, "pattern": "^[ab]+$"},
    {"type": ["string", "array"], "minLength": 2, "maxItems": 1},
    {"enum": ["a", "b"]},
    {"enum": [1, "a", None, [1], {"k": True}]},
    {"const": "a"},
    {"const": 1},
    {"const": [1, {"k": None}]},
    {"type": "boolean"},
    {"type": "object", "required": ["k"], "properties": {"k": {"type": "integer"}}, "additionalProperties": False},
    {"type": "object", "properties": {"k": {"type": "integer"}}, "additionalProperties": {"type": "string"}},
    {"patternProperties": {"^a": {"type": "integer"}}, "additionalProperties": False},
    {"type": "object", "properties": {"ab": {"const": 1}}, "patternProperties": {"^a": {"type": "integer"}},
     "additionalProperties": {"type": "null"}},
    {"propertyNames": {"maxLength": 1}, "minProperties": 1, "maxProperties": 2},
    {"dependentRequired": {"a": ["b"]}},
    {"type": "array", "items": {"type": "integer"}, "minItems": 1, "uniqueItems": True},
    {"prefixItems": [{"type": "integer"}, {"type": "string"}], "items": False},
    {"prefixItems": [{"type": "integer"}], "items": {"type": "string"}},
    {"prefixItems": [{"type": "integer"}]},
    {"contains": {"type": "integer"}, "minContains": 2, "maxContains": 3},
    {"contains": {"const": "a"}},
    {"anyOf": [{"type": "integer"}, {"type": "string", "maxLength": 1}]},
    {"allOf": [{"minimum": 1}, {"maximum": 2}]},
    {"oneOf": [{"type": "integer"}, {"minimum": 2}]},
    {"not": {"type": "object"}},
    {"if": {"type": "integer"}, "then": {"minimum": 3}, "else": {"type": "string"}},
    {"if": {"required": ["a"]}, "then": {"required": ["b"]}},
    {"$ref": "#/$defs/tree", "$defs": {"tree": {"type": "object", "properties": {
        "leaf": {"type": "integer"}, "kids": {"type": "array", "items": {"$ref": "#/$defs/tree"}}},
        "additionalProperties": False}}},
    True,
    False,
]
COMPILED = {}


def compiled(index: int):
    if index not in COMPILED:
        COMPILED[index] = schemacheck.Compiler({"s": KEYWORDS[index]}).root("s")
    return COMPILED[index]


scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 7), st.sampled_from([0.5, 1.0, 2.5, -1.5, 3.0]),
                    st.text(alphabet="abk", max_size=4))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(["a", "b", "k", "ab", "leaf", "kids"]), inner,
                                                 max_size=3)), max_leaves=8)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(index=st.integers(0, len(KEYWORDS) - 1), value=values)
def test_the_compiled_check_says_what_jsonschema_says(index, value):
    assert compiled(index)(value) is Draft202012Validator(KEYWORDS[index]).is_valid(value)



def test_a_signed_move_loads_its_games_checks_alone(new_game, pbem, tmp_path):
    """A move file is checked with its game's compiled checks, which hold the move schema too (it stands alone):
    a `pbem move` loads one set of checks, not the game's and the common ones besides."""
    from pbem.play import movefile
    from support import legal_turn
    directory, secrets = new_game("coal-baron", 2)
    player, text, number = legal_turn(directory)
    signed = tmp_path / "move.yaml"
    signed.write_text(movefile.dumps(movefile.build("g1", number, player, [text], secrets[player])))
    validation._checks.cache_clear()
    result = pbem("move", directory, "--as", player, signed)
    assert result.code == 0, result.err
    loaded = validation._checks.cache_info().currsize
    validation._checks.cache_clear()
    assert loaded == 1
