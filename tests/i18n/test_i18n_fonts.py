"""The pictures draw every character a Chinese reader can get: each character of the Chinese catalogues
(pbem's, each game's, the plug-in game's) and of the glossaries' Chinese names is held by the font the raster
back-end draws it with (pbem/text/fonts.yaml), and the CJK font CI installs (WenQuanYi Micro Hei, Debian's
fonts-wqy-microhei: .ci/system-setup.sh) holds every CJK character of them by itself.

A developer's machine without a CJK font skips these with the reason; CI never does (.ci/run sets
PBEM_REQUIRE_FONTS=1: a missing font fails there)."""
from __future__ import annotations

import functools
import os
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from fontTools.ttLib import TTFont

from pbem.store import yamlio
from pbem.text import raster
from pbem.text.sheet import font_table

ROOT = Path(__file__).resolve().parents[2]
CHINESE = ("zh_Hant", "zh_Hans")
CI_FONT = "WenQuanYi Micro Hei"


def catalogue_files() -> list[Path]:
    found = []
    for locale in (ROOT / "pbem" / "text" / "locale", *ROOT.glob("games/*/locale"),
                   *ROOT.glob("examples/plugin-game/*/locale")):
        found += [locale / code / "LC_MESSAGES" for code in CHINESE if (locale / code).is_dir()]
    return sorted(po for folder in found for po in folder.glob("*.po"))


def glossary_files() -> list[Path]:
    return sorted([ROOT / "pbem" / "text" / "glossary.yaml", *ROOT.glob("games/*/glossary.yaml"),
                   *ROOT.glob("examples/plugin-game/*/glossary.yaml")])


def chinese_texts() -> list[str]:
    """Every translation of the Chinese catalogues, and every Chinese name (and other word) of the glossaries."""
    texts = []
    for path in catalogue_files():
        with path.open("rb") as handle:
            for message in read_po(handle):
                texts += [s for s in (message.string if isinstance(message.string, tuple) else [message.string]) if s]
    for path in glossary_files():
        for term in yamlio.loads(path.read_bytes(), str(path)).get("terms", []):
            for code in ("zh-Hant", "zh-Hans"):
                entry = term.get(code) or {}
                texts += [entry["name"], *entry.get("also", [])] if "name" in entry else []
    return texts


@functools.lru_cache(maxsize=None)
def characters() -> frozenset[str]:
    return frozenset(char for text in chinese_texts() for char in text if not char.isspace())


def cjk(char: str) -> bool:
    """Is the character one fonts.yaml sends to a CJK font?"""
    return any(first <= ord(char) <= last for first, last in font_table()[1]["cjk"])


@functools.lru_cache(maxsize=None)
def held(family: str, bold: bool) -> set[int]:
    path, index = raster.face(family, bold)
    return set(TTFont(path, fontNumber=index, lazy=True).getBestCmap())


def absent(reason: str) -> None:
    if os.environ.get("PBEM_REQUIRE_FONTS"):
        pytest.fail(f"{reason}: CI must have it (.ci/system-setup.sh)")
    pytest.skip(f"{reason} (Debian: apt-get install fonts-wqy-microhei fonts-dejavu-core)")


def test_the_chinese_texts_are_gathered_from_every_catalogue_and_glossary():
    assert any(path.parts[-5] == "coal_baron" for path in catalogue_files())
    assert ROOT / "games" / "coal_baron" / "glossary.yaml" in glossary_files()
    found = characters()
    assert {"煤", "炭", "棄", "權", "："} <= found  # Coal Baron's title, pbem's `resign`, a full-width colon


@pytest.mark.parametrize("bold", [False, True], ids=["regular", "bold"])
def test_every_chinese_character_is_drawn_by_a_font_that_holds_it(bold):
    if raster.face(CI_FONT, bold) is None and raster.face("Noto Sans CJK TC", bold) is None:
        absent("no CJK font is installed")
    missing = {}
    for char in sorted(characters()):
        family = raster.family_of(char, bold)
        if family is None or ord(char) not in held(family, bold):
            missing.setdefault(family, []).append(char)
    assert not missing, f"characters no installed font of fonts.yaml draws: {missing}"


def test_the_cjk_font_ci_installs_holds_every_cjk_character_of_the_chinese_texts():
    if raster.face(CI_FONT, False) is None:
        absent(f"{CI_FONT} is not installed")
    needed = {char for char in characters() if cjk(char)}
    assert len(needed) > 100
    missing = sorted(char for char in needed if ord(char) not in held(CI_FONT, False))
    assert not missing, f"{CI_FONT} lacks {''.join(missing)}"
