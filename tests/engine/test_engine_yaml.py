"""pbem's YAML writer: every value reads back identical (YAML 1.1, PyYAML's loader), block style, no anchors."""
from __future__ import annotations

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.store import yamlio

scalars = st.none() | st.booleans() | st.integers(min_value=-2**63, max_value=2**63) | st.floats(
    allow_nan=False, allow_infinity=False) | st.text(
    alphabet=st.characters(blacklist_categories=("Cs",)), max_size=20) | st.sampled_from(
    ["yes", "No", "on", "OFF", "y", "n", "null", "~", "true", "1e3", "0x1f", "1_000", "12:30", "2024-01-01", "-",
     "- a", "a: b", "#c", "a #b", "'q'", '"d"', "&a", "*a", "!tag", "%x", "@x", "`x", "|", ">", "", " lead",
     "trail ", ".inf", ".nan", "=", "<<", "place mining-10", "über", "tab\there", "A\n", "a b\n", "x\r"])
plain_data = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
    st.text(max_size=8) | st.sampled_from(["on", "3", "y", "a b", "k:v"]), inner, max_size=4), max_leaves=25)


@given(plain_data)
@settings(max_examples=1500, deadline=None)
def test_everything_written_reads_back_identical(data):
    text = yamlio.dumps(data, "x.schema.json")
    assert text.startswith("# yaml-language-server: $schema=x.schema.json\n")
    assert yaml.safe_load(text) == data
    assert "&" not in "".join(line.split('"')[0] for line in text.splitlines()[1:] if ": &" in line)


def test_mappings_and_sequences_are_written_in_block_style_one_fact_a_line():
    text = yamlio.dumps({"players": ["alice", "bob"], "money": {"alice": 3}})
    assert text == "players:\n- alice\n- bob\nmoney:\n  alice: 3\n"


def test_a_repeated_object_is_written_out_in_full_without_anchors():
    shared = {"cubes": ["black"]}
    text = yamlio.dumps({"a": shared, "b": shared})
    assert "&" not in text and "*" not in text
    assert yaml.safe_load(text) == {"a": shared, "b": shared}


@given(plain_data)
@settings(max_examples=1500, deadline=None)
def test_what_pbem_writes_is_read_back_without_pyyaml(data):
    text = yamlio.dumps(data, "x.schema.json")
    if "\\U" not in text:  # the one escape JSON has not (non-printable characters beyond U+FFFF): read by PyYAML
        assert yamlio._read_own(text) == data


@given(st.text(alphabet="- :ab1\"\n{}[]#\\u", max_size=60) | plain_data.map(yamlio.dumps).map(
    lambda text: text.replace("  ", " ", 1)))
@settings(max_examples=1500, deadline=None)
def test_any_other_text_is_read_as_pyyaml_reads_it_or_left_to_pyyaml(text):
    try:
        own = yamlio._read_own(text)
    except (yamlio._NotOwn, IndexError, ValueError):
        return
    assert own == yaml.safe_load(text)


def test_whole_line_comments_are_read_without_pyyaml_as_pyyaml_reads_them():
    text = "# why the order matters\nnotation:\n  buy: \"buy {card}\"\n# and this\nplayouts:\n  greedy: 1.0\n"
    assert yamlio._read_own(text) == yaml.safe_load(text) == {"notation": {"buy": "buy {card}"},
                                                              "playouts": {"greedy": 1.0}}


def test_every_games_metadata_is_read_without_pyyaml():
    """meta.yaml is read by every command: written as pbem writes YAML, it does not need PyYAML's import."""
    from pbem.store import packaged, registry
    for game_id, module in registry.installed().items():
        text = packaged.read_bytes(module, "meta.yaml").decode()
        assert yamlio._read_own(text) == yaml.safe_load(text), game_id
