"""The git transport's own schemas: valid 2020-12 schemas, and the fast check agrees with jsonschema on the files
the transport writes and on broken copies of them."""
from __future__ import annotations

import copy

import pytest
from jsonschema import Draft202012Validator

from pbem.contract import PbemError
from pbem.git import layout
from pbem.git.talk import talk_doc

GOOD = {
    "config": layout.config_doc("g1", "coal-baron", "age1" + "q" * 58, "local",
                                [{"name": "alice", "key": "ssh-ed25519 AAAAC3Nza", "view": "encrypted"},
                                 {"name": "bob", "key": None, "view": "mail"}]),
    "refused": layout.refused_doc("g1", [{"commit": "a" * 40, "author": "Bob <b@x>", "move_number": 3,
                                          "reason": "stale", "move_file": "moves/0003-bob.yaml"}]),
    "revealed": {"format": "pbem-revealed/1", "id": "g1", "secrets": {"alice": "s3cret"}},
    "record": {"format": "pbem-git-record/1", "id": "g1", "root": "b" * 40, "chain": ["b" * 40], "pushed": None,
               "identity": None},
    "moves": {"format": "pbem-git-moves/1", "game": "g1", "game_type": "coal-baron", "move_number": 4,
              "to_act": "bob", "player": "bob", "decision": {"player": "bob", "description": "bid"}, "due": None,
              "moves": ["bid 1..10"], "choices": [{"move": "bid 1..10", "description": "a bid"}],
              "entries": [{"action": "bid", "amount": {"min": 1, "max": 10}}]},
    "talk": talk_doc("g1", 4, "alice", 2, "bob", "shall we share the coast?", "s3cret"),
}
BROKEN = {
    "config": [("players", 0, "view", "printed"), ("referee", "files", "cloud"), ("extra", None, None, None)],
    "refused": [("refused", 0, "commit", "HEAD"), ("refused", 0, "move_number", 0)],
    "revealed": [("secrets", "Alice", None, "x")],
    "record": [("chain", 0, None, "not-a-hash"), ("identity", None, None, "AGE-SECRET-KEY-1short")],
    "moves": [("choices", 0, "move", 7), ("entries", 0, None, "bid 3"), ("player", None, None, "Bob")],
    "talk": [("to", None, None, "Bob"), ("text", None, None, ""), ("signature", None, None, "hmac-md5:00")],
}


@pytest.mark.parametrize("kind", layout.GIT_SCHEMAS)
def test_each_schema_is_a_valid_2020_12_schema_and_accepts_what_pbem_writes(kind):
    schema = layout.schemas()[f"{kind}.schema.json"]
    Draft202012Validator.check_schema(schema)
    layout.check(kind, GOOD[kind], kind)
    assert not list(Draft202012Validator(schema).iter_errors(GOOD[kind]))


@pytest.mark.parametrize("kind,path", [(k, p) for k, paths in BROKEN.items() for p in paths])
def test_broken_files_are_refused_by_both_checks(kind, path):
    doc = copy.deepcopy(GOOD[kind])
    target, keys = doc, [k for k in path[:-1] if k is not None]
    for key in keys[:-1]:
        target = target[key]
    target[keys[-1]] = path[-1]
    schema = layout.schemas()[f"{kind}.schema.json"]
    assert list(Draft202012Validator(schema).iter_errors(doc))
    with pytest.raises(PbemError):
        layout.check(kind, doc, kind)
