"""Verify compares every public file byte for byte with what the referee writes, names each file that differs
and any field of game.yaml (kept in each log since the game was made), and names the file whose edit breaks the
replay; a damaged referee file is refused naming it (exit 2), never an internal error."""
from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
import yaml

from pbem.engine import engine
from pbem.play import movefile
from pbem.store import yamlio
from support import NAMES, Pbem, default_game, legal_turn

FINISHED = Path(__file__).resolve().parents[2] / "examples" / "gold-fever" / "gf-3p"


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    game = default_game()
    directory = tmp_path_factory.mktemp("verify") / "g1"
    made = engine.create(engine.NewGame(game.id, directory, NAMES[:game.min_players], seed="verify"))
    for _ in range(3):
        player, text, _ = legal_turn(directory)
        engine.submit(engine.open_game(directory), player, [text], by="referee")
    return directory, {p["name"]: p["secret"] for p in made["players"]}


@pytest.fixture
def game(tmp_path, template):
    copy = tmp_path / "g1"
    shutil.copytree(template[0], copy)
    return copy


@pytest.fixture
def public_copy(tmp_path):
    """A finished game's public files as this pbem writes them: its logs record game.yaml."""
    copy = tmp_path / "gf-3p"
    shutil.copytree(FINISHED, copy, ignore=shutil.ignore_patterns("referee", "moves"))
    log = yamlio.load_file(copy / "log.yaml")
    meta = yamlio.load_file(copy / "game.yaml")
    header = {key: log[key] for key in ("format", "id", "game", "rules_version", "visibility")}
    log = {**header, "game_file": meta, "setup_chance": log["setup_chance"], "entries": log["entries"]}
    (copy / "log.yaml").write_text(yamlio.dumps(log, "schemas/log.schema.json"))
    assert Pbem()("verify", copy).code == 0
    return copy


def verify_says(directory, *args) -> str:
    result = Pbem()("verify", directory, *args)
    assert result.code == 2, result.out
    return result.err


def edit_yaml(path: Path, change) -> None:
    data = yaml.safe_load(path.read_text())
    change(data)
    path.write_text(yamlio.dumps(data, "schemas/game.schema.json"))


FIELDS = {"title": "Coal Baron (the deluxe edition)", "created": "2020-01-01T00:00:00+00:00",
          "pbem_version": "9.9.9", "components_sha256": "0" * 64, "seed_commitment": "1" * 64}


@pytest.mark.parametrize("field", sorted(FIELDS))
def test_verify_names_any_changed_field_of_game_yaml(game, field):
    edit_yaml(game / "game.yaml", lambda d: d.update({field: FIELDS[field]}))
    said = verify_says(game)
    assert f"game.yaml $.{field}: stored" in said, said


@pytest.mark.parametrize("field", sorted(FIELDS))
def test_verify_of_a_public_copy_names_any_changed_field_of_game_yaml(public_copy, field):
    player = engine.open_game(public_copy).players[0]
    edit_yaml(public_copy / "game.yaml", lambda d: d.update({field: FIELDS[field]}))
    for args in ((), ("--as", player)):
        said = verify_says(public_copy, *args)
        assert f"game.yaml $.{field}: stored" in said, said


def test_a_public_copy_whose_players_were_changed_is_named_not_a_broken_replay(public_copy):
    edit_yaml(public_copy / "game.yaml", lambda d: d["players"].reverse())
    said = verify_says(public_copy)
    assert "game.yaml $.players[0]: stored" in said and "shuffles" not in said, said


@pytest.mark.parametrize("relative", ["game.yaml", "public.yaml", "log.yaml", "views/{player}.yaml"])
@pytest.mark.parametrize("edit", ["a comment", "a hidden line"])
def test_verify_compares_public_files_byte_for_byte(game, relative, edit):
    """Data that reads the same but is not the text the referee wrote is named: a comment line (which may hide
    a line end of YAML's from a reader that drops comment lines whole)."""
    player = engine.open_game(game).players[0]
    path = game / relative.format(player=player)
    added = {"a comment": "# edited by hand\n", "a hidden line": "# note\rmove_number: 999\n"}[edit]
    path.write_bytes(path.read_bytes() + added.encode())
    said = verify_says(game)
    assert relative.format(player=player) in said, said


def test_verify_of_a_public_copy_names_the_log_whose_edit_breaks_the_replay(tmp_path):
    """The issue's case, on a game made before logs recorded game.yaml (an example)."""
    copy = tmp_path / "gf-3p"
    shutil.copytree(FINISHED, copy, ignore=shutil.ignore_patterns("referee", "moves"))
    log = copy / "log.yaml"
    log.write_text(re.sub(r"(?m)^- number: 5$", "- number: 4", log.read_text(), count=1))
    player = engine.open_game(copy).players[0]
    for args in ((), ("--as", player)):
        said = verify_says(copy, *args)
        assert f"{copy / 'log.yaml'}" in said and "entry 5 is numbered 4" in said, said


def test_verify_of_an_old_public_copy_names_game_yaml_when_its_players_break_the_replay(tmp_path):
    copy = tmp_path / "gf-3p"
    shutil.copytree(FINISHED, copy, ignore=shutil.ignore_patterns("referee", "moves"))
    edit_yaml(copy / "game.yaml", lambda d: d["players"].reverse())
    said = verify_says(copy)
    assert f"with the players and options of {copy / 'game.yaml'}" in said, said


def test_an_alias_in_game_yaml_is_refused_naming_the_file(game):
    with open(game / "game.yaml", "a") as handle:
        handle.write("zz: &x [1]\nzy: *x\n")
    result = Pbem()("status", game)
    assert result.code == 2 and f"{game / 'game.yaml'}: $.zy: YAML anchors and aliases" in result.err


def test_a_secrets_file_without_the_mover_is_refused_naming_it(game, template, tmp_path):
    player, text, number = legal_turn(game)
    signed = tmp_path / "move.yaml"
    signed.write_text(yamlio.dumps(movefile.sign({"game": "g1", "move_number": number, "player": player,
                                                  "moves": [text]}, template[1][player])))
    secrets = game / "referee" / "secrets.yaml"
    doc = yaml.safe_load(secrets.read_text())
    doc["players"] = [p for p in doc["players"] if p["name"] != player]
    os.chmod(secrets, 0o600)
    secrets.write_text(yamlio.dumps(doc))
    result = Pbem()("move", game, "--as", player, signed)
    assert result.code == 2, result.err
    assert f"{secrets}: holds the secrets of g1 for" in result.err


def test_verify_names_both_files_when_game_yaml_names_another_game(game):
    edit_yaml(game / "game.yaml", lambda d: d.update(id="other"))
    said = verify_says(game)
    assert "referee/state.yaml" in said and "game.yaml" in said, said


def written_as_an_earlier_pbem(game: Path, change) -> None:
    """Each status file changed by `change(doc)` and written as the referee writes it, its digest recorded as the
    referee records it: the files of a pbem that wrote them so."""
    from pbem.engine.documents import with_status_digests
    from pbem.store.gamedir import schema_line
    status = {}
    for relative in ["public.yaml"] + [f"views/{p}" for p in sorted(os.listdir(game / "views"))]:
        doc = yamlio.load_file(game / relative)
        change(doc)
        schema = "public.schema.json" if relative == "public.yaml" else "player.schema.json"
        status[relative] = (yamlio.dumps(doc, schema_line(relative, schema)), 0o644)
        (game / relative).write_text(status[relative][0])
    (game / "referee" / "status.sha256").write_text(with_status_digests(status)["referee/status.sha256"][0])


def reworded(doc: dict) -> None:
    doc["decision"]["description"] = "what an earlier pbem said of this decision"


def test_status_files_an_earlier_pbem_worded_otherwise_verify_with_a_note(game):
    """The decision's description is words for readers, not the record: taken as stored."""
    written_as_an_earlier_pbem(game, reworded)
    result = Pbem()("verify", game)
    assert result.code == 0, result.err
    assert "the decision's description is worded as another pbem worded it" in " ".join(result.out.split())


def test_verify_reads_each_status_file_an_earlier_pbem_worded_once(game, monkeypatch):
    """A status file whose bytes are not the replay's is read and parsed once: its decision's words taken as
    stored, its fields compared with the replay, from the one reading."""
    from pbem.store.gamedir import GameDir
    written_as_an_earlier_pbem(game, reworded)
    reads, parses, read_bytes, loads = [], [], GameDir.read_bytes, yamlio.loads
    monkeypatch.setattr(GameDir, "read_bytes", lambda gd, relative: reads.append(relative) or read_bytes(gd, relative))
    monkeypatch.setattr(yamlio, "loads", lambda data, where="input": parses.append(where) or loads(data, where))
    result = engine.verify(engine.open_game(game))
    assert result["result"] == "ok" and result["notes"], result
    status = ["public.yaml"] + [f"views/{name}" for name in sorted(os.listdir(game / "views"))]
    assert {relative: reads.count(relative) for relative in status} == {relative: 1 for relative in status}
    assert {relative: sum(1 for where in parses if where and where.endswith(relative)) for relative in status} == \
        {relative: 1 for relative in status}


def forged_to_act(doc: dict) -> None:
    reworded(doc)
    other = next(name for name in NAMES if name != doc["to_act"])
    doc["to_act"] = doc["decision"]["player"] = other


@pytest.mark.parametrize("forge", [forged_to_act, lambda doc: doc["decision"].update(decision="forged"),
                                   lambda doc: doc.update(move_number=doc["move_number"] + 1),
                                   lambda doc: doc.update(title=doc["title"] + " (edited)")],
                         ids=["who must act", "which decision", "the move number", "the title"])
def test_status_files_worded_otherwise_and_forged_besides_fail_verify(game, forge):
    written_as_an_earlier_pbem(game, lambda doc: (reworded(doc), forge(doc)))
    said = verify_says(game)
    assert "public.yaml $." in said, said
