"""Compiled schema checks kept between commands (pbem.checkercache): loaded instead of compiled, kept beside the
schemas or in the user's cache, never believed when someone else could have written them, never used for schemas
they were not compiled from; and the compiler (pbem.schemacheck) answers as jsonschema does, keyword by keyword."""
from __future__ import annotations

import json
import marshal
import os

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from jsonschema import Draft202012Validator

from pbem import checkercache, registry, schemacheck, validation

MOVE = {"name": "alice", "moves": ["bid 3"]}
SCHEMAS = {"move.schema.json": json.dumps({
    "$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "required": ["name", "moves"],
    "additionalProperties": False,
    "properties": {"name": {"type": "string", "pattern": "^[a-z]+$"},
                   "moves": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/move"}}},
    "$defs": {"move": {"type": "string", "maxLength": 20}}}).encode()}


@pytest.fixture
def places(tmp_path, monkeypatch):
    """A package folder to keep files beside and a user cache, both empty and both this test's own."""
    beside = tmp_path / "package"
    beside.mkdir()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return beside, tmp_path / "package" / "__pycache__", tmp_path / "cache" / "pbem"


def kept(folder):
    return sorted(p.name for p in folder.glob(f"*{checkercache.SUFFIX}")) if folder.is_dir() else []


def no_compiling(monkeypatch):
    def refuse(documents):
        raise AssertionError("compiled again: the kept file was not used")
    monkeypatch.setattr(schemacheck, "compile_checks", refuse)


def test_the_first_use_compiles_and_keeps_the_checks_beside_the_schemas_the_next_loads_them(places, monkeypatch):
    beside, pycache, cache = places
    first = checkercache.checks("move", SCHEMAS, str(beside))
    assert first["move.schema.json"](MOVE) and not first["move.schema.json"]({**MOVE, "name": "Alice"})
    assert len(kept(pycache)) == 1 and kept(cache) == []
    no_compiling(monkeypatch)
    again = checkercache.checks("move", SCHEMAS, str(beside))
    assert again["move.schema.json"](MOVE) and not again["move.schema.json"]({**MOVE, "moves": []})


def test_where_the_package_cannot_be_written_the_checks_are_kept_in_the_users_cache(places, monkeypatch):
    beside, pycache, cache = places
    pycache.write_text("a file where the folder would go: nothing can be written there")  # as a read-only install
    checkercache.checks("move", SCHEMAS, str(beside))
    assert len(kept(cache)) == 1
    no_compiling(monkeypatch)
    assert checkercache.checks("move", SCHEMAS, str(beside))["move.schema.json"](MOVE)


def test_where_nothing_can_be_written_every_command_compiles_and_still_checks(places, monkeypatch):
    beside, pycache, cache = places
    pycache.write_text("in the way")
    cache.parent.write_text("in the way too")
    assert not checkercache.checks("move", SCHEMAS, str(beside))["move.schema.json"]({**MOVE, "extra": 1})


def test_a_changed_schema_is_compiled_again_and_the_old_file_beside_it_removed(places):
    beside, pycache, _ = places
    checkercache.checks("move", SCHEMAS, str(beside))
    old = kept(pycache)
    longer = {"move.schema.json": SCHEMAS["move.schema.json"].replace(b'"maxLength": 20', b'"maxLength": 40')}
    checks = checkercache.checks("move", longer, str(beside))
    assert checks["move.schema.json"]({**MOVE, "moves": ["x" * 30]})
    assert len(kept(pycache)) == 1 and kept(pycache) != old


def planted(places, payload_checks_everything=True) -> tuple:
    """A kept file that says yes to everything, under the very name the real checks would have."""
    beside, pycache, _ = places
    key = checkercache.digest(SCHEMAS)
    code = compile("ROOTS = {'move.schema.json': lambda x: True}", "<planted>", "exec")
    payload = marshal.dumps(code)
    pycache.mkdir(exist_ok=True)
    path = pycache / checkercache.file_name("move", key)
    path.write_bytes(checkercache.MAGIC + key + len(payload).to_bytes(8, "big") + payload)
    path.chmod(0o644)
    return beside, path


def says_no_to_a_bad_move(beside) -> bool:
    return not checkercache.checks("move", SCHEMAS, str(beside))["move.schema.json"]({"anything": "goes"})


def test_a_kept_file_of_the_right_form_is_believed_when_its_owner_could_change_pbem_anyway(places):
    beside, _ = planted(places)
    assert not says_no_to_a_bad_move(beside)  # the test's own file: it is what pbem runs (shows the plant works)


def test_a_kept_file_others_may_write_is_not_believed(places):
    beside, path = planted(places)
    path.chmod(0o666)
    assert says_no_to_a_bad_move(beside)


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another user needs root")
def test_a_kept_file_another_user_owns_is_not_believed(places):
    beside, path = planted(places)
    uid = max(checkercache.trusted_owners()) + 4321
    os.chown(path, uid, uid)
    assert says_no_to_a_bad_move(beside)
    assert path.stat().st_uid != uid  # written again by whoever runs pbem


def test_a_symbolic_link_in_place_of_a_kept_file_is_not_followed(places, tmp_path):
    beside, path = planted(places)
    target = tmp_path / "elsewhere.checks"
    path.rename(target)
    path.symlink_to(target)
    assert says_no_to_a_bad_move(beside)


@pytest.mark.parametrize("damage", ["truncated", "other digest", "not marshal"])
def test_a_damaged_kept_file_is_compiled_again(places, damage):
    beside, pycache, _ = places
    checkercache.checks("move", SCHEMAS, str(beside))
    path = pycache / kept(pycache)[0]
    data = path.read_bytes()
    if damage == "truncated":
        data = data[:len(data) // 2]
    elif damage == "other digest":
        data = data[:len(checkercache.MAGIC)] + bytes(checkercache.DIGEST) + data[len(checkercache.MAGIC)
                                                                                  + checkercache.DIGEST:]
    else:
        data = data[:checkercache.HEADER] + b"\xff" * (len(data) - checkercache.HEADER)
    path.write_bytes(data)
    assert says_no_to_a_bad_move(beside)


def test_every_games_schemas_are_compiled_once_then_loaded(monkeypatch):
    for game_type in [None, *registry.GAMES]:
        validation._checks(game_type)  # compiled, or loaded if an earlier command kept them
    validation._checks.cache_clear()
    no_compiling(monkeypatch)
    for game_type in [None, *registry.GAMES]:
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

