"""The PNG back-end (pbem.text.raster): words in any script from the fonts pbem names, each laid out once a process;
a palette PNG that is the drawing pixel for pixel; the mail's picture leaves its words to the HTML part."""
from __future__ import annotations

import io

import pytest
from PIL import Image

from support import NAMES
from pbem.play import playout
from pbem.store import registry
from pbem.text import pictures, raster, sheet
from picturekit import status_doc

CJK_FONT = raster.face("WenQuanYi Micro Hei", False) or raster.face("Noto Sans CJK TC", False)
needs_cjk = pytest.mark.skipif(CJK_FONT is None, reason="no CJK font installed (Debian: fonts-wqy-microhei, which "
                                                        ".ci/system-setup.sh installs)")


def glyph(character: str) -> bytes:
    return raster.label(character, 16, False)[0].tobytes()


@needs_cjk
def test_a_label_in_traditional_chinese_is_drawn_in_the_cjk_font_and_its_latin_in_dejavu():
    words = "金礦 new-london-12（第12號）"
    families = raster.runs(words, False)
    assert "".join(chunk for _, chunk in families) == words
    assert {family for family, chunk in families if "金" in chunk or "號" in chunk} <= {"WenQuanYi Micro Hei",
                                                                                      "Noto Sans CJK TC"}
    assert next(family for family, chunk in families if "new" in chunk) == "DejaVu Sans"
    # each ideograph its own glyph: not the empty box a font without it draws for every one alike
    assert len({glyph(c) for c in "金礦號倫"}) == 4
    mask, _, _, advance = raster.label(words, 12, False)
    assert advance >= sheet.text_width("金礦", 12) * 0.9 and mask.getbbox() is not None


def test_a_character_no_installed_font_claims_falls_to_the_font_for_every_script(monkeypatch):
    monkeypatch.setattr(raster, "face", lambda family, bold: None if "CJK" in family or "Hei" in family
                        else ("DejaVuSans.ttf", 0))
    raster.family_of.cache_clear()
    try:
        assert raster.runs("Fièvre 金", False) == [("DejaVu Sans", "Fièvre 金")]
    finally:
        raster.family_of.cache_clear()


def test_a_french_label_is_drawn_whole_in_dejavu_sans():
    assert raster.runs("La Fièvre de l'Or — tour 5, à vous", True) == [("DejaVu Sans", "La Fièvre de l'Or — tour 5, "
                                                                                        "à vous")]
    assert glyph("é") != glyph("e")


def test_each_label_is_laid_out_once_a_process_whatever_its_script():
    raster.label.cache_clear()
    for _ in range(3):
        for words in ("needs 1", "金礦", "Fièvre"):
            raster.label(words, 11, False)
    info = raster.label.cache_info()
    assert info.misses == 3 and info.hits == 6


def drawn_picture(game_id: str, viewer: str | None = "alice", words: bool = True):
    game = registry.get(game_id)
    state = playout.start(game, NAMES[:game.max_players], {}, seed="raster")
    return pictures.picture(status_doc(game, state, 1, viewer), words)


@pytest.mark.parametrize("deflater", ["zlib-ng", "zlib"])
@pytest.mark.parametrize("game_id", ["coal-baron", "chartered"])
def test_the_png_is_the_drawing_pixel_for_pixel_in_the_colours_it_names(game_id, deflater, monkeypatch):
    """Whether the pictures extra's zlib-ng or the standard library's zlib deflates it (Pillow installed alone)."""
    import zlib

    from zlib_ng import zlib_ng
    monkeypatch.setattr(raster, "deflater", zlib_ng if deflater == "zlib-ng" else zlib)
    picture = drawn_picture(game_id)
    colours = raster.colours_of(picture)
    canvas = raster.Canvas(picture.width, picture.height, colours)
    for dx, dy, layer in picture.layers:
        canvas.draw(layer.marks, dx, dy)
    png = Image.open(io.BytesIO(raster.png(picture)))
    assert png.mode == "P" and png.size == canvas.image.size
    assert png.convert("RGB").tobytes() == canvas.image.convert("RGB").tobytes()
    used = {"#%02x%02x%02x" % rgb for _, rgb in png.convert("RGB").getcolors(1 << 16)}
    assert used <= set(colours)  # no colour the marks did not name: no blend, no dither
    assert raster.png(picture)[24] == (4 if len(colours) <= 16 else 8)  # IHDR's bit depth: half a byte a pixel


def test_a_mails_picture_leaves_its_title_to_the_html_and_keeps_a_rule_in_the_bands_colour():
    game = registry.get("gold-fever")
    doc = status_doc(game, playout.start(game, NAMES[:3], {}, seed="raster"), 1, "alice")
    png, width = pictures.mail_picture(doc)
    shown = Image.open(io.BytesIO(png)).convert("RGB")
    framed = Image.open(io.BytesIO(pictures.png(doc))).convert("RGB")
    assert width == shown.width == framed.width and shown.height < framed.height
    assert shown.getpixel((width // 2, 2)) == framed.getpixel((width // 2, 2)) == (0x3b, 0x2f, 0x5c)
    assert shown.getpixel((width // 2, pictures.RULE + 2)) == (255, 255, 255)
    title, status = pictures.headline(doc)
    words = " ".join(mark[3] for _, _, layer in pictures.picture(doc, words=False).layers
                     for mark in layer.marks if mark[0] == "text")
    assert title not in words and status not in words
