"""Golden images: a few fixed positions of each game (status documents kept in positions/) rendered to PNG and
compared with the committed images in golden/, within a tolerance (fonts are rasterised a little differently from
one FreeType to the next), so that a change to a picture is a change someone reviewed.

A position may also be drawn in other languages (IN_LANGUAGES): its golden image is `<position>.<code>.png`, and a
Chinese one shows that the picture draws Chinese glyphs with the renderer's CJK font (compared only where that font
is the one the golden images were drawn with, GOLDEN_CJK_FONT: another CJK font draws other glyphs).

After a deliberate change to a picture: `PBEM_UPDATE_GOLDEN=1 pytest tests/pictures/test_golden_images.py`, look
at the new images, and commit them."""
from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from pbem.store import yamlio
from pbem.text import language, pictures, raster

HERE = Path(__file__).parent
# The positions drawn in other languages too, each game's in French and Chinese
IN_LANGUAGES = {"chartered-5p-alice": ("fr", "zh-Hant"), "coal-baron-phase-3p-alice": ("fr", "zh-Hant"),
                "gold-fever-4p": ("fr", "zh-Hant"), "heartland-hauling-3p-alice": ("fr", "zh-Hant")}
POSITIONS = sorted(p.stem for p in (HERE / "positions").glob("*.yaml"))
PICTURES = POSITIONS + sorted(f"{name}.{code}" for name, codes in IN_LANGUAGES.items() for code in codes)
PIXEL_TOLERANCE = 48      # a channel may differ this much (anti-aliasing) without the pixel counting as changed
CHANGED_AT_MOST = 0.005   # the share of pixels that may change beyond that
GOLDEN_CJK_FONT = "WenQuanYi Micro Hei"  # the font the Chinese golden images were drawn with (CI installs it)


def rendered(name: str) -> bytes:
    """The PNG of a picture: a position (`gold-fever-4p`), in a language (`gold-fever-4p.zh-Hant`) or in English."""
    position, _, code = name.partition(".")
    doc = yamlio.loads((HERE / "positions" / f"{position}.yaml").read_bytes())
    with language.reading(code or None):
        return pictures.png(doc)


def changed_share(expected: Image.Image, actual: Image.Image) -> float:
    difference = ImageChops.difference(expected.convert("RGB"), actual.convert("RGB")).convert("L")
    histogram = difference.histogram()
    return sum(histogram[PIXEL_TOLERANCE + 1:]) / (expected.width * expected.height)


def test_every_game_has_golden_positions():
    games = {name.split("-")[0] for name in POSITIONS}
    assert games >= {"coal", "gold", "chartered", "heartland"}
    assert {p.stem for p in (HERE / "golden").glob("*.png")} == set(PICTURES)


@pytest.mark.parametrize("name", PICTURES)
def test_the_picture_matches_its_golden_image(name, tmp_path):
    if name.endswith(".zh-Hant") and raster.family_of("中", False) != GOLDEN_CJK_FONT:
        pytest.skip(f"the Chinese golden images are drawn with {GOLDEN_CJK_FONT}, not installed here")
    actual_png = rendered(name)
    golden = HERE / "golden" / f"{name}.png"
    if os.environ.get("PBEM_UPDATE_GOLDEN"):
        golden.write_bytes(actual_png)
    expected, actual = Image.open(golden), Image.open(io.BytesIO(actual_png))
    kept = tmp_path / f"{name}.png"
    kept.write_bytes(actual_png)
    assert expected.size == actual.size, f"the picture changed size: {expected.size} -> {actual.size}; see {kept}"
    share = changed_share(expected, actual)
    assert share <= CHANGED_AT_MOST, f"{share:.2%} of the pixels changed; the new picture is {kept}"


def test_the_comparison_sees_a_changed_picture():
    """The tolerance lets anti-aliasing through, not a moved token: one seat's colour changed is caught."""
    doc = yamlio.loads((HERE / "positions" / "gold-fever-4p.yaml").read_bytes())
    original = Image.open(io.BytesIO(pictures.png(doc)))
    doc["view"]["players"][0]["gold"] += 1000
    doc["view"]["towns"][0]["mayor"] = doc["view"]["players"][1]["name"]
    changed = Image.open(io.BytesIO(pictures.png(doc)))
    assert changed_share(original, changed) > 0.0001
