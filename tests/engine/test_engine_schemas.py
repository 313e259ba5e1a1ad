"""The schemas themselves: valid against the 2020-12 metaschema, compiled checks that agree with jsonschema, and
positive/negative example files."""
from __future__ import annotations

import copy
import json
import random
from importlib import resources
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from support import NAMES, playable_games
from pbem.clock import correspondence
from pbem.play import playout
from pbem.store import registry, schemacheck, validation, yamlio

EXAMPLES = Path(__file__).parent / "examples"


def all_schema_files():
    """(relative path, package) of pbem's schemas and of every installed game's."""
    root = resources.files("pbem.schemas")
    found = sorted((f"{folder.name}/{f.name}", "pbem.schemas") for folder in root.iterdir() if folder.is_dir()
                   for f in folder.iterdir() if f.name.endswith(".schema.json"))
    for game in registry.all_games():
        found += sorted((f"schemas/{f.name}", game.module) for f in resources.files(game.module).joinpath(
            "schemas").iterdir() if f.name.endswith(".schema.json"))
    return found


@pytest.mark.parametrize("relative,package", all_schema_files())
def test_every_schema_is_valid_against_the_2020_12_metaschema(relative, package):
    schema = validation.load_schema(relative, package)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize("game_id", list(registry.installed()))
def test_every_schema_of_a_game_compiles_for_the_fast_check(game_id):
    compiler = schemacheck.Compiler(validation.schemas_for(game_id))
    for name in validation.schemas_for(game_id):
        assert callable(compiler.root(name))


def test_an_unknown_keyword_is_refused_at_compile_time():
    with pytest.raises(schemacheck.SchemaError):
        schemacheck.Compiler({"s": {"type": "array", "unevaluatedItems": False}}).root("s")([])
    nested = {"type": "object", "properties": {"clock": {"type": "array", "unevaluatedItems": False}}}
    with pytest.raises(schemacheck.SchemaError):  # in a member no document holds: found when all is compiled
        schemacheck.Compiler({"s": nested}).root("s")


# A schema that extends another (a game's over pbem's base, a player's view over the public one), each document
# checked by both: the fast check must refuse exactly what jsonschema refuses.
EXTENDED = {
    "base": {"$defs": {"view": {"type": "object", "properties": {"game": {"type": "string"}}, "required": ["game"]},
                       "seat": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}}},
    "public": {"$ref": "#/$defs/public", "unevaluatedProperties": False, "$defs": {"public": {
        "$ref": "base#/$defs/view", "properties": {"seats": {"type": "array", "items": {
            "$ref": "base#/$defs/seat", "properties": {"cards": {"type": "integer"}}, "unevaluatedProperties": False}}},
        "patternProperties": {"^note-": {"type": "string"}}}}},
    "player": {"$ref": "public#/$defs/public", "properties": {"hand": {"type": "array"}}, "required": ["hand"],
               "unevaluatedProperties": {"type": "boolean"}},
}


@pytest.mark.parametrize("name,document,valid", [
    ("public", {"game": "g", "seats": [{"name": "ann", "cards": 3}], "note-1": "x"}, True),
    ("public", {"game": "g", "hand": [4]}, False),                      # the player's field in the public view
    ("public", {"game": "g", "seats": [{"name": "ann", "hand": [4]}]}, False),   # ... in a seat
    ("public", {"game": "g", "note-1": 5}, False),
    ("public", {"seats": []}, False),                                   # the base's required field
    ("player", {"game": "g", "hand": [4], "seats": [{"name": "ann"}]}, True),
    ("player", {"game": "g", "hand": [4], "extra": True}, True),        # unevaluated, and a boolean
    ("player", {"game": "g", "hand": [4], "extra": 1}, False),
    ("player", {"game": "g"}, False),
])
def test_a_schema_that_extends_another_stays_closed_and_both_checks_agree(name, document, valid):
    assert schemacheck.Compiler(EXTENDED).root(name)(document) is valid
    registry_ = Registry().with_resources((uri, Resource.from_contents(schema, default_specification=DRAFT202012))
                                          for uri, schema in EXTENDED.items())
    assert Draft202012Validator(EXTENDED[name], registry=registry_).is_valid(document) is valid


def test_unevaluated_properties_over_a_branch_decided_by_the_document_is_refused_at_compile_time():
    branching = {"type": "object", "anyOf": [{"properties": {"a": {}}}, {"properties": {"b": {}}}],
                 "unevaluatedProperties": False}
    with pytest.raises(schemacheck.SchemaError, match="anyOf"):
        schemacheck.Compiler({"s": branching}).root("s")


def open_members(document, path="$"):
    """Every object of a document with its path: where a field nobody declared could be slipped in."""
    if isinstance(document, dict):
        yield path, document
        for key, value in document.items():
            yield from open_members(value, f"{path}.{key}")
    elif isinstance(document, list):
        for index, value in enumerate(document):
            yield from open_members(value, f"{path}[{index}]")


def jsonschema_accepts(game_id: str, schema: str, document) -> bool:
    """jsonschema's own yes or no on a document (the validator pbem's refusals list the violations with): it stops
    at the first violation, where listing them all (validation.errors) walks the whole broken document."""
    return validation.validator(game_id, schema).is_valid(document)


@pytest.mark.parametrize("game_id", [g.id for g in playable_games()])
def test_a_field_no_schema_declares_fails_in_every_object_of_every_view(game_id):
    """The views extend pbem's base (and a player's view the public one) and are closed all the same: a private
    field slipped into any object of a view (its top, a seat, who acts, the player's private part) fails both
    checks, so it can never be written by accident."""
    game = registry.get(game_id)
    state = playout.start(game, NAMES[:game.min_players], seed="closed")
    for _, (_, _, state) in zip(range(25), playout.steps(game, state, seed="closed")):
        pass
    for viewer, schema in [(None, "game-public-view.schema.json"), (NAMES[0], "game-player-view.schema.json")]:
        view = game.rules.view(state, viewer)
        assert validation.is_valid(game_id, schema, view)
        for path, member in open_members(view):
            member["leaked_hand"] = [1, 2]
            assert not validation.is_valid(game_id, schema, view), f"{schema}: a field slipped into {path} passes"
            assert not jsonschema_accepts(game_id, schema, view), f"{schema}: jsonschema lets {path} take any field"
            del member["leaked_hand"]


@pytest.mark.parametrize("path", sorted((EXAMPLES / "move").glob("*.yaml")), ids=lambda p: p.stem)
def test_move_schema_examples(path):
    data = yamlio.loads(path.read_bytes())
    expected = path.name.startswith("valid")
    assert validation.is_valid(None, "move.schema.json", data) is expected
    assert (validation.errors(None, "move.schema.json", data) == []) is expected


def mutations(data, rnd: random.Random, count: int):
    """Broken copies of a document: a value of another type, a key removed, an unknown key added."""
    paths = []

    def walk(node, path):
        if isinstance(node, dict):
            for key, value in node.items():
                paths.append(path + (key,))
                walk(value, path + (key,))
        elif isinstance(node, list):
            for index, value in enumerate(node):
                paths.append(path + (index,))
                walk(value, path + (index,))
    walk(data, ())
    for _ in range(count):
        broken = copy.deepcopy(data)
        path = rnd.choice(paths)
        parent = broken
        for key in path[:-1]:
            parent = parent[key]
        kind = rnd.choice(["retype", "remove", "extra"])
        if kind == "retype":
            parent[path[-1]] = rnd.choice([None, True, -5, "x", 3.5, [], {}, ["?"], {"?": 1}])
        elif kind == "remove":
            del parent[path[-1]]
        elif isinstance(parent, dict):
            parent["unexpected_field"] = 1
        else:
            parent.append({"unexpected": True})
        yield broken


@pytest.mark.parametrize("game_id", [g.id for g in playable_games()])
def test_the_fast_check_agrees_with_jsonschema_on_valid_and_broken_documents(game_id, tmp_path):
    game = registry.get(game_id)
    rnd = random.Random(5)
    directory = tmp_path / "g"
    correspondence.create(game_id, directory, [(n, None) for n in NAMES[:game.max_players]], seed="diff")
    documents = []
    for relative, schema in [("referee/state.yaml", "referee-state.schema.json"), ("public.yaml", "public.schema.json"),
                             ("views/alice.yaml", "player.schema.json"), ("game.yaml", "game.schema.json"),
                             ("referee/log.yaml", "log.schema.json"), ("referee/secrets.yaml", "secrets.schema.json"),
                             ("components.yaml", "game-components.schema.json")]:
        documents.append((schema, yamlio.load_file(directory / relative)))
    state = playout.start(game, NAMES[:game.max_players], seed="diff")
    for _, (_, _, state) in zip(range(60), playout.steps(game, state, seed="diff")):
        pass
    documents += [("game-state.schema.json", state), ("game-public-view.schema.json", game.rules.view(state, None)),
                  ("game-player-view.schema.json", game.rules.view(state, "alice"))]
    disagreements = []
    for schema, document in documents:
        assert validation.is_valid(game_id, schema, document), schema
        for broken in mutations(document, rnd, 40):
            fast = validation.is_valid(game_id, schema, broken)
            reference = jsonschema_accepts(game_id, schema, broken)
            if fast != reference:
                disagreements.append((schema, json.dumps(broken)[:200]))
    assert disagreements == []
