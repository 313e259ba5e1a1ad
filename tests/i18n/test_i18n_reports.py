"""What a player reads in their language: `pbem status/moves/move` in French and Chinese, each line of a report
within 78 display columns, every legal move's description whole, golden French and Chinese reports; an English
move imports neither Babel nor a catalogue; a damaged catalogue never costs a move."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.engine import engine
from pbem.play import playout
from pbem.store import registry
from pbem.tables import DESCRIBED, WIDTH, width
from pbem.text import language, report
from support import NAMES, legal_turn, playable_games

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
GOLDEN = Path(__file__).resolve().parents[1] / "engine" / "golden"
COAL_BARON = registry.get("coal-baron")
# The golden reports in another language: <example>-<its first player>.<language>.txt, of examples/<game>/<example>
# (a new one: create the file, then PBEM_UPDATE_GOLDEN=1 writes it)
TRANSLATED = sorted(path.name for path in GOLDEN.glob("*.*.txt"))


def test_the_golden_reports_in_other_languages_are_of_examples_in_french_and_chinese():
    pairs = {(name.rsplit(".", 2)[0].rsplit("-", 1)[0], name.rsplit(".", 2)[1]) for name in TRANSLATED}
    examples = {example for example, _ in pairs}
    assert {"cb-3p", "cb-phase-3p-in-progress", "ch-2p", "ch-5p-in-progress", "gf-3p", "gf-4p-in-progress", "hh-2p",
            "hh-3p-in-progress"} <= examples
    assert pairs == {(example, code) for example in examples for code in ("fr", "zh-Hant")}
    assert all(len(list(EXAMPLES.glob(f"*/{example}"))) == 1 for example in examples)


@pytest.mark.parametrize("name", TRANSLATED)
def test_a_report_in_french_and_chinese_matches_its_golden_copy(name):
    stem, code, _ = name.rsplit(".", 2)
    example, player = stem.rsplit("-", 1)
    gd = engine.open_game(next(EXAMPLES.glob(f"*/{example}")))
    with language.reading(code):
        text = report.status_text(engine.status(gd, player))
    golden = GOLDEN / name
    if os.environ.get("PBEM_UPDATE_GOLDEN"):
        golden.write_text(text)
    assert text == golden.read_text()


@pytest.mark.parametrize("code", ["fr", "zh-Hant", "zh-Hans"])
@pytest.mark.parametrize("players,options", [(2, {}), (3, {"phase-cards": "on"}),
                                             (4, {"phase-cards": "on", "overplace": "on"})])
def test_every_line_of_a_coal_baron_report_fits_78_columns_in_every_language(code, players, options):
    state = playout.start(COAL_BARON, NAMES[:players], options, seed=f"width-{players}")
    for index, (_, _, state) in enumerate(playout.steps(COAL_BARON, state, seed="w", bot_seed="w")):
        if index % 37:
            continue
        doc = {"game": COAL_BARON.id, "id": "width", "title": COAL_BARON.title, "move_number": index,
               "player": NAMES[0], "view": COAL_BARON.rules.view(state, NAMES[0]), "finished": False,
               "decision": {"player": NAMES[0], "description": "place workers on a board space"}, "recent": []}
        with language.reading(code):
            text = report.status_text(doc)
        wide = [line for line in text.splitlines() if width(line) > WIDTH]
        assert not wide, (code, index, wide[0], width(wide[0]))


def pbem_cli(*args, env=None) -> subprocess.CompletedProcess:
    """The installed command in a subprocess, its output as text."""
    exe = Path(sys.executable).with_name("pbem")
    return subprocess.run([str(exe), *map(str, args)], capture_output=True, text=True, timeout=120,
                          env={**os.environ, **(env or {})})


def new_coal_baron(tmp_path, *extra) -> Path:
    directory = tmp_path / "g"
    result = pbem_cli("new", "coal-baron", directory, "--player", "ann", "--player", "ben", "--seed", "lang", *extra)
    assert result.returncode == 0, result.stderr
    return directory


def test_status_moves_and_move_answer_in_each_players_language(tmp_path):
    directory = new_coal_baron(tmp_path, "--language", "fr", "--player-language", "ben=zh-Hant")
    player, move, number = legal_turn(directory)
    other = "ben" if player == "ann" else "ann"
    status = {name: pbem_cli("status", directory, "--as", name).stdout for name in ("ann", "ben")}
    assert "Coal Baron — partie g — coup 1 — vue d'ann" in status["ann"] and "Plateau :" in status["ann"]
    assert "煤炭大亨 — 遊戲 g — 第 1 步 — ben 的視角" in status["ben"] and "主圖板：" in status["ben"]
    assert "choisir o" in pbem_cli("moves", directory, "--as", "ann").stdout or player != "ann"
    refused = pbem_cli("move", directory, "--as", other, "--text", move, "--move-number", number)
    said = "c'est le tour de" if other == "ann" else "現在輪到"
    assert refused.returncode == 2 and said in refused.stderr
    french = language.Translator("fr").words("coal_baron", move)
    accepted = pbem_cli("move", directory, "--as", player, "--text", french, "--move-number", number)
    assert accepted.returncode == 0, accepted.stderr
    assert ("accepté" if player == "ann" else "已接受") in accepted.stdout
    assert json.loads(pbem_cli("log", directory, "--format", "json").stdout)["entries"][-1]["moves"] == [move]
    english = pbem_cli("status", directory, "--as", "ben", "--language", "en").stdout
    assert "Coal Baron — game g — move 2 — view of ben" in english


IMPORTS = """import sys
from pbem.cli.commands import main
code = main(sys.argv[1:])
loaded = sorted(name for name in sys.modules if name.split('.')[0] in ('babel', 'wcwidth', 'opencc', 'yaml')
                or name in ('pbem.text.language', 'pbem.text.glossary', 'pbem.text.catalogues'))
from pbem.text import language
print(code, loaded, sorted(language._translators) if 'pbem.text.language' in sys.modules else [])
"""


def modules_loaded(*args) -> str:
    result = subprocess.run([sys.executable, "-c", IMPORTS, *map(str, args)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().splitlines()[-1]  # (after the command's own answer)


def test_an_english_move_imports_neither_babel_nor_a_catalogue(tmp_path):
    directory = new_coal_baron(tmp_path)
    player, move, number = legal_turn(directory)
    loaded = modules_loaded("move", directory, "--as", player, "--text", move, "--move-number", number)
    # the language module, for its English: no translator, no catalogue opened (gettext itself is click's)
    assert loaded == "0 ['pbem.text.language'] []"


def test_a_french_move_opens_the_catalogues_and_neither_babel_nor_pyyaml(tmp_path):
    """The move shown in French words takes its names from the catalogue, not from the glossary's YAML."""
    directory = new_coal_baron(tmp_path, "--language", "fr")
    player, move, number = legal_turn(directory)
    loaded = modules_loaded("move", directory, "--as", player, "--text", move, "--move-number", number)
    assert loaded.startswith("0 ") and loaded.endswith("['fr']") and "babel" not in loaded
    assert "'yaml" not in loaded and "pbem.text.glossary" in loaded


def test_a_damaged_catalogue_answers_in_english_and_the_move_is_played(tmp_path):
    directory = new_coal_baron(tmp_path, "--language", "zh-Hant")
    player, move, number = legal_turn(directory)
    broken = tmp_path / "site" / "sitecustomize.py"
    broken.parent.mkdir()
    broken.write_text("from pbem.text import language\n"
                      "language.catalogue_bytes = lambda domain, folder: b'\\x95\\x04\\x12\\xde broken'\n")
    result = pbem_cli("move", directory, "--as", player, "--text", move, "--move-number", number,
                      env={"PYTHONPATH": str(broken.parent)})
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"Accepted move {number} by {player}")
    assert engine.read_log(engine.open_game(directory))["entries"][-1]["moves"] == [move]


@pytest.mark.parametrize("game", playable_games(), ids=lambda g: g.id)
def test_every_legal_moves_description_is_whole_in_every_language(game):
    """Over a whole game at the largest table, greedy at every seat: no description is cut short ("…" after
    pbem.tables.DESCRIBED columns) in English, French or Chinese: French runs longest (to 111 columns)."""
    players = NAMES[:game.max_players]
    state = playout.start(game, players, seed="whole-words")
    for _, _, state in playout.steps(game, state, seed="whole-words", seats=dict.fromkeys(players, "greedy")):
        pending = game.rules.pending(state)
        if pending is None:
            break
        view, legal = game.rules.view(state, pending["player"]), game.rules.legal_moves(state, pending["player"])
        for code in ("en", "fr", "zh-Hant"):
            with language.reading(code):
                for entry in legal:
                    text = game.report.describe(view, entry)
                    assert width(text) <= DESCRIBED and not text.endswith(("…", "...")), \
                        (code, game.format_move(entry), text)
