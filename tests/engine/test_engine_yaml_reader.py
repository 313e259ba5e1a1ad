"""pbem's YAML reader against PyYAML's (libyaml's C safe loader): on any text, they read the same data, or pbem
refuses it. Never a different reading: verify and the moves would otherwise see what no other tool sees."""
from __future__ import annotations

import json
import os

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.contract import PbemError
from pbem.store import yamlio

FUZZ = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "300"))  # benchmarks/reliability.py runs many more
# what YAML reads as a line end, as a control character or as syntax, and what it does not
TRICKY = ["\r", "\n", "\r\n", "\x85", "\u2028", "\u2029", "\t", "\x00", "\x07", "\x1b", "\x7f", "\ufeff", "\ufffe",
          "\xa0", " ", "#", ": ", "- ", "-", ":", '"', "'", "\\", "&a ", "*a", "!!str ", "!x ", "|", ">", "%", "@",
          "`", "{", "}", "[", "]", ",", "?", "~", "null", "yes", "on", "0x1f", "012", "1_0", "1e3", ".5", "12:30",
          "2024-01-01", "<<: ", "é", "\U0001f600", "move_number: 999", "  ", "...", "---"]
scalars = st.none() | st.booleans() | st.integers(-2**63, 2**63) | st.floats(allow_nan=False, allow_infinity=False) | st.text(
    st.characters(blacklist_categories=("Cs",)), max_size=12) | st.sampled_from(TRICKY)
data = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
    st.text(max_size=6) | st.sampled_from(TRICKY), inner, max_size=4), max_leaves=20)
PIECE = st.sampled_from(TRICKY) | st.text(st.characters(blacklist_categories=("Cs",)), max_size=6)


@st.composite
def documents(draw) -> str:
    """A text as pbem writes it (with its schema line or not), then changed the way a hand, a tool or an attacker
    changes one: comment lines holding anything, characters put in, taken out or replaced, lines doubled."""
    text = yamlio.dumps(draw(data), draw(st.sampled_from([None, "x.schema.json"])))
    lines = text.split("\n")
    for _ in range(draw(st.integers(0, 4))):
        where = draw(st.integers(0, len(lines)))
        kind = draw(st.sampled_from(["comment", "insert", "delete", "replace", "double", "schema"]))
        line = lines[min(where, len(lines) - 1)]
        column = draw(st.integers(0, len(line)))
        piece = "".join(draw(st.lists(PIECE, min_size=1, max_size=3)))
        if kind == "comment":
            lines.insert(where, "#" + piece)
        elif kind == "schema":
            lines.insert(0, "# yaml-language-server: $schema=" + piece)
        elif kind == "insert":
            lines[min(where, len(lines) - 1)] = line[:column] + piece + line[column:]
        elif kind == "delete":
            lines[min(where, len(lines) - 1)] = line[:column] + line[column + len(piece):]
        elif kind == "replace":
            lines[min(where, len(lines) - 1)] = line[:column] + piece + line[column + 1:]
        else:
            lines.insert(where, line)
    return "\n".join(lines)


def strict(value) -> str:
    """Data as text that tells apart what == does not (True and 1, 1 and 1.0), NaN equal to itself."""
    return json.dumps(value, sort_keys=False, default=repr, allow_nan=True)


def libyaml(text: str):
    try:
        return True, yaml.load(text, Loader=yaml.CSafeLoader)
    except Exception as exc:  # noqa: BLE001 — any refusal of libyaml's (or a value it cannot build)
        return False, exc


def assert_same_reading_or_refused(text: str) -> None:
    try:
        mine = yamlio.loads(text)
    except PbemError:
        return  # refused: allowed whatever PyYAML makes of it
    read, theirs = libyaml(text)
    assert read, f"pbem read {text!r} as {mine!r}, libyaml refuses it: {theirs}"
    assert strict(mine) == strict(theirs), f"{text!r}: pbem reads {mine!r}, libyaml {theirs!r}"


@settings(max_examples=FUZZ, deadline=None, suppress_health_check=list(HealthCheck))
@given(documents())
def test_pbems_reader_agrees_with_libyaml_or_refuses(text):
    assert_same_reading_or_refused(text)
    assert_same_reading_or_refused(text.encode("utf-8", "surrogatepass").decode("utf-8", "replace"))


@pytest.mark.parametrize("hidden", ["\r", "\x85", "\u2028", "\u2029"])
@pytest.mark.parametrize("where", ["comment", "schema line"])
def test_a_line_end_hidden_in_a_comment_is_read_as_libyaml_reads_it(hidden, where):
    """A comment that holds a line end of YAML's is no comment to the rest of its line: `move_number: 999`
    after it is data to every other YAML reader."""
    head = "# yaml-language-server: $schema=public.schema.json" if where == "schema line" else "# a note"
    text = f"{head}{hidden}move_number: 999\nmove_number: 3\n" if where == "schema line" else \
        f"move_number: 3\n{head}{hidden}player: mallory\n"
    assert_same_reading_or_refused(text)
    try:
        data = yamlio.loads(text)
    except PbemError:
        return
    assert data != {"move_number": 3}


@pytest.mark.parametrize("control", ["\x00", "\x07", "\x1b", "\x7f", "\ufffe"])
def test_a_comment_holding_a_control_character_is_refused_as_libyaml_refuses_it(control):
    with pytest.raises(PbemError, match="not valid YAML"):
        yamlio.loads(f"game: g1\n# note{control}\nmove_number: 3\n")


def test_reading_what_pbem_wrote_leaves_nothing_for_the_garbage_collector():
    """The reader's three nested functions refer to one another: left as they were, every read of a file pbem wrote
    left a cycle holding all its lines, which only the collector frees (a long `git verify` grew by 27 MiB)."""
    import gc
    text = yamlio.dumps({"players": [{"name": "ann", "cards": ["a", "b"]}, {"name": "bob", "cards": []}],
                         "board": {"row": [[1, 2], [3, 4]]}})
    gc.collect()
    gc.disable()
    try:
        for _ in range(10):
            assert yamlio.loads(text)["players"][0]["cards"] == ["a", "b"]
        assert gc.collect() == 0
    finally:
        gc.enable()
