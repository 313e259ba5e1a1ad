"""The reports' tables (pbem.tables): exactly tabulate's text, without importing tabulate for words and numbers."""
from __future__ import annotations

import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st
from tabulate import tabulate

from pbem import tables

WORDS = ["bank-6", "alice", "3 (2)", "-", "1st", "coffee", "free to found", "Fièvre", "mining-10", "black brown",
         " padded ", "a  b", "12", " 7", "-3", "+4", "1_000", "007", "1,000", "-1,000.5", "1,00", "alice x1, bob x2", ",", "1.5", "1e3", ".5", "nan", "inf",
         "True", "False", "²", "½", "x\ny", "\x1b[31mred\x1b[0m", "宽", ""]
cells = (st.none() | st.integers(min_value=-10**7, max_value=10**7) | st.sampled_from(WORDS)
         | st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=0x24f), max_size=12)
         | st.booleans() | st.floats(allow_nan=False, width=16))
headers = st.lists(st.sampled_from(["player", "#", "VP", "money", "a b", "", "rank", "dark (right)"])
                   | st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=0x24f), max_size=8), max_size=5)


@st.composite
def table_args(draw):
    width = draw(st.integers(min_value=1, max_value=5))
    rows = draw(st.lists(st.lists(cells, min_size=width, max_size=width), max_size=6))
    head = draw(headers)
    if draw(st.booleans()):  # most reports give one header a column
        head = (head + ["h"] * width)[:width]
    return rows, head, draw(st.sampled_from(["simple", "plain"]))


@given(table_args())
@settings(max_examples=1500, deadline=None)
def test_every_table_is_tabulates_text(args):
    rows, head, fmt = args
    assert tables.tabulate(rows, head, fmt) == tabulate(rows, headers=head, tablefmt=fmt)


@given(st.lists(st.lists(cells, min_size=1, max_size=4), max_size=4), st.sampled_from(["simple", "plain"]))
@settings(max_examples=300, deadline=None)
def test_ragged_rows_and_missing_headers_are_tabulates_text(rows, fmt):
    assert tables.tabulate(rows, (), fmt) == tabulate(rows, tablefmt=fmt)


def test_numbers_are_aligned_right_and_words_left_under_a_line_of_dashes():
    text = tables.tabulate([["alice", 12, "3 (2)"], ["bob", 7, "-"]], ["player", "VP", "money"])
    assert text == ("player      VP  money\n"
                    "--------  ----  -------\n"
                    "alice       12  3 (2)\n"
                    "bob          7  -")


def test_a_report_of_words_and_whole_numbers_does_not_import_tabulate(tmp_path):
    code = ("import sys; from pbem import tables; "
            "tables.tabulate([['alice', 12, 'place bank-6'], ['bob', -3, None]], ['player', 'VP', 'moves']); "
            "tables.tabulate([['a', 'b']], tablefmt='plain'); "
            "print('tabulate' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          cwd=tmp_path).stdout.strip() == "False"  # outside the checkout: the installed pbem


def test_the_punctuation_counted_without_wcwidth_is_one_column_in_wcwidths_count_too():
    import wcwidth
    for low, high in tables.NARROW_PUNCTUATION:
        for code in range(low, high):
            assert tables.width(chr(code)) == wcwidth.wcswidth(chr(code)) == 1, hex(code)
    assert tables.width("a\u200bb") == wcwidth.wcswidth("a\u200bb") == 2  # a zero-width space is no column


def test_an_english_line_of_dashes_and_arrows_is_measured_and_wrapped_without_wcwidth(tmp_path):
    code = ("import sys; from pbem import tables; "
            "assert tables.width('Move 3 — alice → bob “yes” …') == 28; "
            "tables.wrap('Move 3 — alice to act: take one of the revealed orders ' * 3, 40); "
            "print('wcwidth' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          cwd=tmp_path).stdout.strip() == "False"
