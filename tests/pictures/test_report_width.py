"""Every report mail's text is at most 78 columns (RFC 5322's advice), for every game, player count and option
set: the reports' tables and maps fit by themselves (wide ones re-flow or split), and only prose is wrapped."""
from __future__ import annotations

import re

import pytest

from support import NAMES, game_counts
from pbem.mail import compose
from pbem.play import playout
from pbem.store import registry
from pbem.tables import WIDTH, fit_lines, table
from pbem.text import phrases, report
from picturekit import option_cases, status_doc

EVERY = 23  # every 23rd position of a play-out is reported, and the last
TABLE_LINE = re.compile(r"^\s*[-+|=]|[^.\s] {2,}\S")  # a rule, a map border, or cells two spaces apart (not sentences)


def too_wide(text: str) -> list[str]:
    return [line for line in text.split("\n") if len(line) > WIDTH]


def check_position(game: registry.Game, state: dict, number: int, recent: list[dict]) -> None:
    pending = game.rules.pending(state)
    players = state["players"] if isinstance(state.get("players"), list) and all(
        isinstance(p, str) for p in state["players"]) else [p["name"] for p in game.rules.view(state, None)["players"]]
    for viewer in [None, *players]:
        doc = status_doc(game, state, number, viewer)
        doc.update(id="spring-cup-2026", recent=recent[-8:], seed_commitment="0" * 64, seed="width")
        layout = game.report.render(doc["view"], viewer)
        unfitted = [line for line in too_wide(layout) if TABLE_LINE.search(line)]
        assert not unfitted, f"{game.id}: a table or map line of {len(unfitted[0])} columns:\n{unfitted[0]}"
        text = report.status_text(doc)
        assert not too_wide(text), too_wide(text)[0]
    if pending:
        player = pending["player"]
        view = game.rules.view(state, player)
        choices = [{"move": game.format_move(e), "description": game.report.describe(view, e)}
                   for e in game.rules.legal_moves(state, player)]
        decision = {"description": game.meta["decisions"][pending["decision"]]}
        block = compose.legal_block({"moves": [c["move"] for c in choices], "choices": choices, "decision": decision})
        assert not too_wide(fit_lines(block))
        moves = phrases.legal_text({"move_number": number, "to_act": player, "player": player, "choices": choices,
                                    "decision": decision, "due": "2026-03-01T12:00:00Z"})  # what `pbem moves` prints
        assert not too_wide(moves), too_wide(moves)[0]
        lines = moves.split("\n")
        assert all(any(line.startswith(f"  {choice['move']}") for line in lines) for choice in choices
                   if len(choice["move"]) + 2 <= WIDTH), "a move's text is broken across lines"


def play(game_id: str, count: int, options: dict) -> None:
    game = registry.get(game_id)
    state = playout.start(game, NAMES[:count], options, seed="width")
    recent = []
    for number, (player, move, state) in enumerate(playout.steps(game, state, seed="width", bot_seed=count), 2):
        recent.append({"number": number - 1, "player": player, "by": "player", "chance": [],
                       "moves": [game.format_move(move)]})
        if number % EVERY == 0 or game.rules.pending(state) is None:
            check_position(game, state, number, recent)


@pytest.mark.parametrize("game_id,count", game_counts())
def test_every_report_fits_78_columns_at_every_player_count(game_id, count):
    play(game_id, count, {})


@pytest.mark.parametrize("game_id,count,options", option_cases())
def test_every_report_fits_78_columns_with_every_option_set(game_id, count, options):
    play(game_id, count, options)


def test_a_wide_table_wraps_its_text_cells_and_keeps_every_word():
    rows = [["alice", 1, "a long description of what this row holds " * 2, 12345, "xxxxx " * 5, "yyyyy " * 5]]
    text = table(rows, ["player", "n", "what", "score", "more", "still more"])
    assert max(map(len, text.split("\n"))) <= WIDTH and "\n\n" not in text  # wrapped, not split
    lines = text.split("\n")
    start, end = lines[0].index("what"), lines[0].index("score") - 2
    column = " ".join(line[start:end].strip() for line in lines[2:])
    assert column.split() == ("a long description of what this row holds " * 2).split()
    assert table([["a", 1]], ["x", "y"]) == "x      y\n---  ---\na      1"  # a narrow table stays as it was


def test_a_table_wraps_between_words_and_never_splits_a_word_a_player_types():
    rows = [["livestock-trailer", "Livestock Trailer", "$5", "load cattle or pigs at 1 freight bill a crate, "
             "whatever the native good of the location", "c3", "alice"],
            ["pallet-jack", "Pallet Jack", "$3", "load one crate without a freight bill", "to place", "-"]]
    text = table(rows, headers=["upgrade", "name", "cost", "once a turn", "cell", "owner"])
    assert not too_wide(text)
    words = {word for line in text.split("\n") for word in line.split()}
    assert "livestock-trailer" in words and "pallet-jack" in words
    assert not any(word in ("er", "livestock-trail") for word in words)


def test_pbem_games_keeps_to_78_columns(pbem):
    result = pbem("games")
    assert result.code == 0 and "heartland-hauling" in result.out
    assert not too_wide(result.out), too_wide(result.out)


def test_a_table_of_many_columns_splits_repeating_the_row_names():
    headers = ["rank", "player", *[f"shift {n} points" for n in range(1, 9)], "score"]
    rows = [[1, "alice", *range(10, 18), 120], [2, "bob", *range(20, 28), 90]]
    parts = table(rows, headers, keep=2).split("\n\n")
    assert len(parts) >= 2 and max(len(line) for part in parts for line in part.split("\n")) <= WIDTH
    for part in parts:
        assert part.startswith("  rank  player") and "alice" in part and "bob" in part
    assert "shift 8 points" in parts[-1] and "score" in parts[-1]


def test_a_mail_body_never_has_a_line_over_78_columns():
    long_line = "word " * 40
    msg = compose.message("referee@club.example", "ann@example.org", "[g] test", f"Intro\n{long_line}\n    {long_line}")
    body = msg.get_content()
    assert not too_wide(body)
    assert " ".join(body.split()) == " ".join(f"Intro {long_line} {long_line}".split())
    assert phrases.legal_lines([{"move": "x", "description": ""}])  # the helpers the reports use stay importable
