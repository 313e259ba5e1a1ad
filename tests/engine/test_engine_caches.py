"""What the referee keeps to go faster never changes what it reads: the state's JSON copy is believed only when it
gives the state's very text, a file read again is parsed again once its bytes change, and a demo's session writes
the files a turn-by-turn game writes."""
from __future__ import annotations

import hashlib
import json

import pytest

from support import NAMES, default_game, snapshot
from pbem import bots
from pbem.clock import correspondence
from pbem.engine import engine
from pbem.store import yamlio

NOW = "2026-01-05T10:00:00Z"


def new_game(directory, seed="caches"):
    game = default_game()
    correspondence.create(game.id, directory, [(name, None) for name in NAMES[:game.min_players]], seed=seed, now=NOW)
    return engine.open_game(directory)


def first_legal_turn(gd) -> tuple[str, str]:
    env = engine.load_state(engine.open_game(gd.path))
    player = gd.game.rules.pending(env["state"])["player"]
    return player, gd.game.format_move(bots.first_legal(gd.game.rules.legal_moves(env["state"], player)))


def play(gd, turns: int) -> None:
    for _ in range(turns):
        player, move = first_legal_turn(gd)
        correspondence.submit(gd, player, [move], by="referee", now=NOW)


def test_the_state_is_read_from_its_json_copy_only_when_that_copy_gives_its_very_text(tmp_path):
    gd = new_game(tmp_path / "g1")
    play(gd, 2)
    cache = tmp_path / "g1" / engine.STATE_CACHE
    env = json.loads(cache.read_text())
    assert env == yamlio.loads((tmp_path / "g1" / engine.STATE).read_bytes())
    env["move_number"] += 1  # an edited copy: believed, the game would jump a move
    cache.write_text(json.dumps(env))
    assert engine.load_state(engine.open_game(gd.path))["move_number"] == env["move_number"] - 1


def test_a_stale_copy_is_not_read_and_an_edit_of_the_state_with_its_checksum_is(tmp_path):
    gd = new_game(tmp_path / "g2")
    play(gd, 1)
    stale = (tmp_path / "g2" / engine.STATE_CACHE).read_bytes()
    play(gd, 1)
    (tmp_path / "g2" / engine.STATE_CACHE).write_bytes(stale)
    assert engine.load_state(engine.open_game(gd.path))["move_number"] == 3
    # the referee edits state.yaml and writes its checksum again: the copy, now stale, gives way
    state_path = tmp_path / "g2" / engine.STATE
    edited = yamlio.loads(state_path.read_bytes())
    edited["recent"] = []
    text = yamlio.dumps(edited, "../schemas/referee-state.schema.json")
    state_path.write_text(text)
    (tmp_path / "g2" / engine.STATE_DIGEST).write_text(hashlib.sha256(text.encode()).hexdigest() + "\n")
    assert engine.load_state(engine.open_game(gd.path))["recent"] == []


@pytest.mark.parametrize("copy", [b"", b"not json", b'{"move_number": 1}', b"[" * 10000, b'{"a": 1e999}'])
def test_a_broken_copy_is_ignored(tmp_path, copy):
    gd = new_game(tmp_path / "g3")
    play(gd, 1)
    (tmp_path / "g3" / engine.STATE_CACHE).write_bytes(copy)
    assert engine.load_state(engine.open_game(gd.path))["move_number"] == 2


def test_a_file_changed_since_it_was_read_is_read_again(tmp_path):
    gd = new_game(tmp_path / "g4")
    first = engine.status(gd)
    play(engine.open_game(gd.path), 1)  # another process's move: the same GameDir reads the new files
    assert engine.status(gd)["move_number"] == first["move_number"] + 1
    assert engine.load_state(gd)["move_number"] == first["move_number"] + 1


def test_a_session_writes_the_files_a_game_played_turn_by_turn_writes(tmp_path):
    by_turn, together = new_game(tmp_path / "a" / "g"), new_game(tmp_path / "b" / "g")
    turns = []
    for _ in range(12):
        turns.append(first_legal_turn(by_turn))
        correspondence.submit(by_turn, *turns[-1][:1], [turns[-1][1]], by="referee", now=NOW)
    with engine.session(together) as table:
        for player, move in turns:
            table.submit(player, [move], by="referee")
        table.write()
    different = {relative for relative in set(snapshot(by_turn.path)) | set(snapshot(together.path))
                 if snapshot(by_turn.path).get(relative) != snapshot(together.path).get(relative)}
    # what differs is what is random in any two games: the players' secrets, the transaction key and its bundle
    assert {r for r in different if not r.startswith(".txn/")} <= {engine.SECRETS, engine.TXN_KEY}
