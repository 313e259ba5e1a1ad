"""A move file typed by hand that YAML would read other than as typed is refused with its line and how to write it,
before anything is signed: a step with ': ' read as a key and its value (a standing order written as a list item
needs quotes), a line folded into the step above it (mis-indented), and a file that is not YAML at all (its line
and column, and the layout of a move file)."""
from __future__ import annotations

import pytest

from pbem.contract import PbemError
from pbem.play import movefile

HEAD = "game: g1\nmove_number: 3\nplayer: alice\nmoves:\n"
SIGNED = "signature: hmac-sha256:" + "0" * 64 + "\n"


def refusal(text: str) -> str:
    with pytest.raises(PbemError) as refused:
        movefile.parse(text, "turn.yaml")
    return str(refused.value)


def test_a_standing_order_written_as_a_list_item_is_told_to_go_in_quotes():
    said = refusal(HEAD + "  - place mining-10\n  - standing bid: pass\n" + SIGNED)
    assert said == ("turn.yaml: line 6: `- standing bid: pass` reads as a key and its value, not a step: a step "
                    "with ': ' in it goes in quotes: - 'standing bid: pass'")
    assert movefile.parse(HEAD + "  - place mining-10\n  - 'standing bid: pass'\n" + SIGNED, "turn.yaml")["moves"] \
        == ["place mining-10", "standing bid: pass"]


def test_a_line_folded_into_the_step_above_is_caught_not_signed(tmp_path, pbem):
    text = HEAD + "  - place mining-10\n    end\n" + SIGNED
    assert "line 6 (`end`) is folded into the step on line 5" in refusal(text)
    typed = tmp_path / "turn.yaml"
    typed.write_text(text)
    signed = pbem("sign", typed, "--secret", "s3cret")
    assert signed.code == 2 and "folded into the step on line 5" in signed.err and "hmac" not in signed.out
    # steps at the key's own indentation, with comments between them, read as typed
    plain = HEAD + "- place mining-10  # my plan\n# and then\n- end\n" + SIGNED
    assert movefile.parse(plain, "turn.yaml")["moves"] == ["place mining-10", "end"]


def test_a_file_that_is_not_yaml_names_line_and_column_and_the_layout():
    said = refusal(HEAD + "  - place mining-10\n - end\n" + SIGNED)
    assert "line 6, column 2" in said and "lines `  - STEP` under `moves:`" in said
