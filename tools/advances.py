"""Write pbem/text/advances.yaml: how far each character of DejaVu Sans (regular and bold) moves the pen, from the
font's own metrics, so that pbem.text.sheet.text_width measures a line of words as the PNG draws it without the
font or a renderer at run time (an SVG is laid out by the same measure):

    python tools/advances.py [FOLDER]     # FOLDER: where DejaVuSans.ttf and DejaVuSans-Bold.ttf are

Needs fontTools (the i18n extra). Run it again only if pbem/text/fonts.yaml draws the narrow scripts in another
font (tests/pictures/test_pictures_in_languages.py checks the table against the installed fonts).
"""
from __future__ import annotations

import sys
import unicodedata
from pathlib import Path

from fontTools.ttLib import TTFont

ROOT = Path(__file__).resolve().parents[1]
FOLDER = Path("/usr/share/fonts/truetype/dejavu")
FACES = {"regular": "DejaVuSans.ttf", "bold": "DejaVuSans-Bold.ttf"}
# the blocks measured (first, last code point): Latin with its supplements and extensions A and B, spacing
# modifiers, Greek, Cyrillic, general punctuation, arrows, the box and geometric shapes and the symbols a picture
# draws (★); any other character is estimated (pbem.text.sheet.CHAR, WIDE)
BLOCKS = [(0x20, 0x24F), (0x2B0, 0x2FF), (0x370, 0x3FF), (0x400, 0x4FF), (0x2000, 0x206F), (0x2190, 0x21FF),
          (0x2500, 0x25FF), (0x2600, 0x26FF)]
ROW = 16  # code points a row of the file
SET_WITH_NEIGHBOURS = ("Mn", "Me", "Cf")  # combining and enclosing marks, format characters (a soft hyphen)


def advances(font: TTFont, first: int, last: int) -> list[int]:
    """Each code point's advance in font units (0: not in the font, or a mark or a format character, which the
    renderer sets with its neighbours rather than by its own advance: estimated)."""
    metrics, cmap = font["hmtx"], font.getBestCmap()
    return [metrics[cmap[code]][0] if code in cmap and unicodedata.category(chr(code)) not in SET_WITH_NEIGHBOURS
            else 0 for code in range(first, last + 1)]


def document(folder: Path) -> str:
    fonts = {weight: TTFont(folder / name) for weight, name in FACES.items()}
    units = {font["head"].unitsPerEm for font in fonts.values()}
    assert len(units) == 1, units
    lines = ["# DejaVu Sans' advance of each character, regular and bold, in font units (units_per_em to an em), as",
             "# tools/advances.py read them from the fonts: pbem.text.sheet.text_width measures words with them.",
             "# Each row: its first code point (hexadecimal) and the advances of the code points from it on (0: not",
             "# in the font, estimated), in a string: the file is then read as pbem writes YAML, in a third of a",
             "# millisecond (pbem.store.yamlio), not by PyYAML.",
             f'font: "{fonts["regular"]["name"].getDebugName(4)}, {fonts["regular"]["name"].getDebugName(5)}"',
             f"units_per_em: {units.pop()}"]
    for weight, font in fonts.items():
        lines.append(f"{weight}:")
        for first, last in BLOCKS:
            for start in range(first, last + 1, ROW):
                row = advances(font, start, min(start + ROW - 1, last))
                if any(row):
                    lines.append(f'  "{start:04X}": "{" ".join(map(str, row))}"')
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    folder = Path(argv[0]) if argv else FOLDER
    (ROOT / "pbem" / "text" / "advances.yaml").write_text(document(folder), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
