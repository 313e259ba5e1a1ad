"""The HTML of a report is read from its text (one source): its tables become HTML tables with every cell (a
wrapped cell joined back), its lists of moves keep each move whole beside a description that reflows, what is
drawn in characters (a map) stays as drawn in a box that scrolls sideways, and prose becomes paragraphs."""
from __future__ import annotations

import html
import re

from pbem.tables import table
from pbem.text import htmltext, phrases


def test_a_wrapped_table_becomes_one_html_table_with_its_cells_whole():
    rows = [["livestock-trailer", "Livestock Trailer", "$5", "load cattle or pigs at 1 freight bill a crate, "
             "whatever the native good of the location", "c3", "alice"]]
    text = "Truck-stop upgrades:\n" + table(rows, headers=["upgrade", "name", "cost", "once a turn", "cell", "owner"])
    assert len(text.split("\n")) > 3  # wrapped onto continuation rows
    page = htmltext.body(text)
    assert page.count("<table>") == 1 and "<pre>" not in page and "<p>Truck-stop upgrades:\n" in page
    cells = re.findall(r"<td[^>]*>([^<]*)", page)
    assert cells == [*rows[0][:3], rows[0][3], "c3", "alice"]


def test_a_list_of_moves_keeps_each_move_whole_and_a_map_stays_as_drawn():
    choices = [{"move": "place mining-10", "description": "3 workers to mine 10 work steps " * 3},
               {"move": "pass", "description": "end your turn"}]
    text = "Your legal moves now (place workers):\n" + "\n".join(phrases.legal_lines(choices))
    drawing = "Map (north up):\n    c             d\n 3  |STOP $4      |\n    +-------------+"
    page = htmltext.body(text + "\n\n" + drawing)
    moves = re.findall(r"<td><code>([^<]*)</code><td>([^<\n]*)", page)
    assert moves[:2] == [(c["move"], " ".join(c["description"].split())) for c in choices]
    assert moves[2][0] == "resign"
    assert '<div style=overflow-x:auto><pre>    c             d\n 3  |STOP $4      |' in page
    assert "<p>Map (north up):<div" in page


def test_a_title_underlined_with_equals_signs_is_a_heading_not_a_line_of_them():
    page = htmltext.body("Coal Baron — game g1 — move 3\n" + "=" * 30 + "\n\nTo act: alice")
    assert page == "<h3>Coal Baron — game g1 — move 3</h3>\n<p>To act: alice"


def test_text_is_escaped_as_html_escape_does():
    for text in ['<b>"Tom" & Jerry\'s</b>', "plain", "é 金 &amp; <>", ""]:
        assert htmltext.escape(text) == html.escape(text, quote=False)


def test_a_chinese_table_is_cut_at_its_columns_a_chinese_character_two_wide():
    """pbem.tables lays a table out in display columns (a Chinese character takes two): its cells are cut there."""
    text = table([["alice", "16", "隱藏"], ["bob", "18", "0"]], headers=["玩家", "分數", "資金"])
    page = htmltext.body("玩家：\n" + text)
    assert re.findall(r"<t[hd][^>]*>([^<\n]*)", page) == ["玩家", "分數", "資金", "alice", "16", "隱藏", "bob", "18",
                                                         "0"]
    assert "<pre>" not in page
    assert htmltext.between("玩家  alice", 4, 6) == "  " and htmltext.between("玩家  a", 2) == "家  a"


def test_a_chinese_list_of_moves_is_a_list_and_its_wrapped_heading_reads_whole():
    """A Chinese heading ends in a full-width colon, and pbem.tables wraps Chinese between any two characters: the
    heading is joined back without a space there, and the moves under it are a list, not a drawing."""
    text = ("你現在的合法走法（出價高於目前最高出價（不得超過你的黃金）或跳過；跳過的玩家退\n  出本次拍賣）：\n"
            "  跳過        退出本次拍賣\n  出價 1..10  開始拍賣（你有 10）：得標者先選牌並擲骰")
    page = htmltext.body(text)
    assert "<p>你現在的合法走法（出價高於目前最高出價（不得超過你的黃金）或跳過；跳過的玩家退出本次拍賣）：" in page
    assert re.findall(r"<td><code>([^<]*)</code><td>([^<\n]*)", page) == [
        ("跳過", "退出本次拍賣"), ("出價 1..10", "開始拍賣（你有 10）：得標者先選牌並擲骰")]
    assert "<pre>" not in page
    assert htmltext.body("Move 3: bob played\n  end.") == "<p>Move 3: bob played end."  # (Latin: a space)
