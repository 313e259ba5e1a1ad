"""The Sheet a game draws its picture on: plain shapes and lines of text at absolute coordinates, in points, kept
as a list of marks (a display list) that a back-end turns into SVG (pbem.text.svgout) or draws into a PNG
(pbem.text.raster). One description of each picture, two ways to write it; neither back-end is imported here.

Colour is never the only way to tell things apart: every seat has its colour from Okabe and Ito's palette (told
apart under the common colour blindnesses) *and* its own shape and letter; goods carry their letter.

A mark is a tuple, its kind first:
  ("rect", x, y, w, h, fill, stroke, width, dash, rx)
  ("line", x1, y1, x2, y2, stroke, width, dash)
  ("shape", shape, x, y, r, fill, stroke, width)      shape: circle, square, triangle, diamond, ... cross
  ("text", x, y, words, size, anchor, bold, fill)     (x, y): the baseline's start, middle or end, by anchor
"""
from __future__ import annotations

import functools
import math
import unicodedata

from ..store import packaged, yamlio

INK = "#1a1a1a"
FAINT = "#767676"
PAPER = "#ffffff"
MIN_TYPE = 10  # points (pixels at 1×): no word in a picture is smaller, so every label reads at 1×
CHAR = 0.62  # DejaVu Sans' average advance per unit of font size, a little generous for lower case
WIDE = 1.0  # the advance of a wide character (CJK ideographs, kana, hangul, full-width forms): a whole em
# A picture bounds its own cost, whatever names a club's components give it (their schemas bound them too): a line
# of text is cut at MAX_LABEL characters (the longest a picture draws is some 130), a text wrapped into lines at
# MAX_TEXT (the longest wrapped is some 170, a status line)
MAX_LABEL = 160
MAX_TEXT = 640

SEAT_COLOURS = ["#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#999999"]
SEAT_SHAPES = ["circle", "square", "triangle", "diamond", "pentagon", "hexagon", "star", "cross"]


GENERIC_FONTS = "Verdana, Arial, sans-serif"  # after pbem's own, in an SVG, for a reader without them


@functools.lru_cache(maxsize=None)
def font_table() -> tuple[list[dict], dict[str, list[tuple[int, int]]]]:
    """pbem/text/fonts.yaml: the fonts the words are drawn in, in the order characters try them, and each
    script's blocks of code points."""
    data = yamlio.loads(packaged.read_bytes("pbem.text", "fonts.yaml"), "pbem/text/fonts.yaml")
    scripts = {name: [tuple(int(end, 16) for end in block.split("-")) for block in blocks]
               for name, blocks in data["scripts"].items()}
    return data["fonts"], scripts


def font_family() -> str:
    """The fonts pbem names, as a CSS font-family list: the one for every script first (it draws most words),
    then the others, then common ones for a reader without them."""
    fonts = font_table()[0]
    names = [e["family"] for e in fonts if "script" not in e] + [e["family"] for e in fonts if "script" in e]
    return ", ".join([*names, GENERIC_FONTS])


@functools.lru_cache(maxsize=None)
def advances() -> dict[bool, dict[str, float]]:
    """pbem/text/advances.yaml: each character's advance in DejaVu Sans, regular (False) and bold (True), in ems."""
    data = yamlio.loads(packaged.read_bytes("pbem.text", "advances.yaml"), "pbem/text/advances.yaml")
    em = data["units_per_em"]
    return {bold: {chr(int(first, 16) + i): int(units) / em for first, row in data[weight].items()
                   for i, units in enumerate(row.split()) if units != "0"}
            for bold, weight in ((False, "regular"), (True, "bold"))}


def estimate(text: str) -> float:
    """How many ems `text` takes by the estimate: CHAR a character, WIDE a wide one (East Asian Wide or
    Full-width)."""
    if text.isascii():
        return len(text) * CHAR
    return sum(WIDE if unicodedata.east_asian_width(c) in "WF" else CHAR for c in text)


@functools.lru_cache(maxsize=8192)
def bold_ems(text: str) -> float:
    """How many ems `text` takes in bold: its advances in DejaVu Sans Bold (a character it does not hold,
    estimated), or the estimate where that is wider."""
    known = advances()[True]
    return max(estimate(text), sum(known.get(c) or estimate(c) for c in text))


def text_width(text: str, size: float, bold: bool = False) -> float:
    """How wide `text` is at font size `size`, a little generous, for every script: regular, the estimate (a
    little generous for words in lower case); bold, never less than DejaVu Sans Bold draws it (its letters run a
    fifth wider than the estimate)."""
    if bold and bold_ems(text) > estimate(text):
        return bold_ems(text) * size
    if text.isascii():
        return len(text) * size * CHAR
    return size * estimate(text)


def advance(text: str, size: float, bold: bool = False) -> float:
    """How far DejaVu Sans moves the pen over `text` (its own advances; a character it does not hold, estimated):
    what a column must leave a header, or a test checks against."""
    known = advances()[bold]
    return size * sum(known.get(c) or estimate(c) for c in text)


def fits(text: str, size: float, width: float, bold: bool = False) -> bool:
    """Does `text` fit `width` as the font draws it? What a drawing asks before it lays out again (a wider column,
    a second line, a shorter word) only what does not fit."""
    return advance(str(text), size, bold) <= width


def first_fitting(texts: list[str], size: float, width: float, bold: bool = False) -> str:
    """The first of `texts` (a word, then shorter ones) that fits `width`; the last one if none does."""
    return next((text for text in texts if fits(text, size, width, bold)), texts[-1])


def label(words, most: int = MAX_LABEL) -> str:
    """A line of text as drawn: at most `most` characters, the cut marked with an ellipsis."""
    words = str(words)
    return words if len(words) <= most else words[:max(most - 1, 0)] + "…"


def wrap(words: str, size: float, width: float, most: int | None = None, bold: bool = False) -> list[str]:
    """Words in lines that fit `width` at font size `size`; a word wider than a line (a run of CJK text has no
    spaces) is broken between characters. A text longer than MAX_TEXT characters is cut first; with `most`, the
    lines past the most-th are left out, the last one kept ending in an ellipsis. `bold`: measured in bold."""
    lines, line = [], ""
    for word in units(label(words, MAX_TEXT)):
        *whole, word = broken(word, size, width, bold)
        if whole:
            lines += [line, *whole] if line else whole
            line = ""
        if line and text_width(f"{line} {word}", size, bold) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    lines += [line] if line else []
    if most is None or len(lines) <= most:
        return lines
    return lines[:most - 1] + [ellipsed(lines[most - 1], size, width, bold)]


# punctuation that never begins a line: French puts a space before these (`Coup 2 : à alice`), Chinese's
# full-width ones end a clause (the line is broken a character earlier); and « never ends one
CLOSING = frozenset(":;!?»")
CLOSING_WIDE = frozenset("，。、；：！？）」』》")


def units(text: str) -> list[str]:
    """The words of a text as lines are broken between them: a French `;`, `:`, `?`, `!` or `»` after its space
    stays with the word before it, `«` with the word after it."""
    out: list[str] = []
    for word in text.split():
        if out and (word in CLOSING or out[-1] == "«"):
            out[-1] += " " + word
        else:
            out.append(word)
    return out


def broken(word: str, size: float, width: float, bold: bool = False) -> list[str]:
    """A word in pieces that each fit `width` (a character at least each), in one pass over its characters; a piece
    does not begin with closing punctuation (a full-width comma or stop, a French `;` with its space): the
    character before it moves down with it."""
    pieces, start, run = [], 0, 0.0
    for at, character in enumerate(word):
        advance = text_width(character, size, bold)
        if at > start and run + advance > width:
            cut = at
            while cut - 1 > start and (word[cut] in CLOSING_WIDE or word[cut] in CLOSING or word[cut] == " "):
                cut -= 1
            pieces.append(word[start:cut])
            start, run = cut, text_width(word[cut:at], size, bold)
        run += advance
    return [*pieces, word[start:]]


def ellipsed(line: str, size: float, width: float, bold: bool = False) -> str:
    """A line that goes on beyond what is shown: cut so that it fits `width` with an ellipsis at its end."""
    while line and text_width(f"{line} …", size, bold) > width:
        line = line[:-1].rstrip()
    return f"{line} …" if line else "…"


def readable_on(fill: str) -> str:
    """Black or white letters, whichever reads better on `fill` (#rrggbb)."""
    r, g, b = (int(fill[i:i + 2], 16) for i in (1, 3, 5))
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 140 else PAPER


def seat_letters(players: list[str]) -> dict[str, str]:
    """Each player's mark: the shortest beginning of the name (1 to 3 letters) that no other player shares."""
    for length in (1, 2, 3):
        marks = {p: p[:length].capitalize() for p in players}
        if len(set(marks.values())) == len(players):
            return marks
    return {p: str(i + 1) for i, p in enumerate(players)}


def polygon_points(shape: str, x: float, y: float, r: float) -> list[float]:
    """The corners of a seat's shape (or a star) around (x, y), flat: x1, y1, x2, y2 ..."""
    if shape == "square":
        side = r * 0.88
        return [x - side, y - side, x + side, y - side, x + side, y + side, x - side, y + side]
    if shape == "cross":
        arm = r * 0.4
        return [x - arm, y - r, x + arm, y - r, x + arm, y - arm, x + r, y - arm, x + r, y + arm, x + arm, y + arm,
                x + arm, y + r, x - arm, y + r, x - arm, y + arm, x - r, y + arm, x - r, y - arm, x - arm, y - arm]
    corners = {"triangle": 3, "diamond": 4, "pentagon": 5, "hexagon": 6, "star": 10}[shape]
    points = []
    for i in range(corners):
        radius = r * (0.5 if shape == "star" and i % 2 else 1.0)
        angle = -math.pi / 2 + 2 * math.pi * i / corners
        points += [round(x + radius * math.cos(angle), 2),
                   round(y + radius * math.sin(angle) + (r * 0.15 if shape == "triangle" else 0), 2)]
    return points


class Sheet:
    """Where a game draws: plain shapes at absolute coordinates, in points. It keeps the marks drawn (`marks`),
    the extent of what was drawn and the legend's entries (each mark the picture uses, said in words)."""

    def __init__(self, players: list[str], viewer: str | None = None):
        self.players, self.viewer = list(players), viewer
        self.letters = seat_letters(self.players)
        self.marks: list[tuple] = []
        self.width = self.height = 0.0
        self.legend: dict[tuple[tuple, str], None] = {}  # an ordered set

    # -- bookkeeping
    def grow(self, x: float, y: float) -> None:
        self.width, self.height = max(self.width, x), max(self.height, y)

    def key(self, sample: tuple, words: str) -> None:
        """A legend entry: a sample mark (("piece", fill, letter[, shape]), ("swatch", fill, stroke, dash),
        ("seat", player), ("ring",), ("glyph", text)) and what it means. Each is listed once, in the order first
        keyed: key a mark where it is drawn, so that the legend names only what the picture shows."""
        self.legend[(sample, words)] = None

    # -- shapes
    def rect(self, x, y, w, h, fill=PAPER, stroke=INK, width=1.0, dash=None, rx=0):
        self.marks.append(("rect", x, y, w, h, fill, stroke, width, dash, rx))
        self.grow(x + w, y + h)

    def line(self, x1, y1, x2, y2, stroke=INK, width=1.0, dash=None):
        self.marks.append(("line", x1, y1, x2, y2, stroke, width, dash))
        self.grow(max(x1, x2), max(y1, y2))

    def circle(self, x, y, r, fill=PAPER, stroke=INK, width=1.0):
        self.shape("circle", x, y, r, fill, stroke, width)

    def shape(self, shape, x, y, r, fill, stroke=INK, width=1.0):
        self.marks.append(("shape", shape, x, y, r, fill, stroke, width))
        self.grow(x + r, y + r)

    def text(self, x, y, words, size=11, anchor="start", bold=False, fill=INK):
        """One line of text; (x, y) is its baseline's start (or middle or end, by `anchor`). Its size is at least
        MIN_TYPE; a line longer than MAX_LABEL characters is cut."""
        words, size = label(words), max(size, MIN_TYPE)
        self.marks.append(("text", x, y, words, size, anchor, bold, fill))
        width = text_width(words, size)  # the estimate: the margin takes what a bold line runs past it
        left = {"start": 0, "middle": 0.5, "end": 1}[anchor] * width
        self.grow(x - left + width, y + size * 0.3)

    def lines(self, x, y, words, width, size=11, leading=None, **style) -> int:
        """`words` wrapped to `width`, whole (never cut short, up to MAX_TEXT characters), the first baseline at y;
        how many lines."""
        leading = leading or round(max(size, MIN_TYPE) * 1.3)
        wrapped = wrap(str(words), max(size, MIN_TYPE), width, bold=style.get("bold", False)) or [""]
        for i, line in enumerate(wrapped):
            self.text(x, y + i * leading, line, size=size, **style)
        return len(wrapped)

    def cells(self, y, cells: list[tuple[float, float, object]], size=11, leading=None, **style) -> int:
        """A table's row from the baseline y: each cell (x, width, value) wrapped to its width; the most lines a
        cell took."""
        return max([self.lines(x, y, value, width, size=size, leading=leading, **style)
                    for x, width, value in cells] or [1])

    def token(self, player: str, x: float, y: float, r: float = 8, count: int | None = None):
        """A player's piece: their shape in their colour with their letter (and a count beside it)."""
        seat = self.players.index(player) if player in self.players else len(SEAT_COLOURS) - 1
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        self.shape(SEAT_SHAPES[seat % len(SEAT_SHAPES)], x, y, r, colour)
        self.text(x, y + r * 0.4, self.letters.get(player, "?"), size=r * 1.1, anchor="middle", bold=True,
                  fill=readable_on(colour))
        if count is not None and count != 1:
            self.text(x + r + 2, y + r * 0.4, f"×{count}", size=r * 1.2)

    def piece(self, x, y, fill, letter, size=12, shape="square") -> float:
        """A good, a cube, a nugget: a coloured mark with the letter that names it (x, y: its centre); its size
        (piece_size: larger than asked only for letters that could not fit it)."""
        size, type_size = piece_size(letter, size)
        self.shape(shape, x, y, size / 2, fill, stroke=INK, width=0.8)
        self.text(x, y + size * 0.3, letter, size=type_size, anchor="middle", bold=True, fill=readable_on(fill))
        return size

    def seat_colour(self, player: str) -> str:
        return SEAT_COLOURS[self.players.index(player) % len(SEAT_COLOURS)] if player in self.players else FAINT

    def sample(self, spec: tuple, x: float, y: float) -> float:
        """Draw a legend sample centred on y from x; its width."""
        kind = spec[0]
        if kind == "seat":
            self.token(spec[1], x + 8, y, 8)
            return 16
        if kind == "piece":
            size = piece_size(spec[2], 14)[0]
            return self.piece(x + size / 2, y, spec[1], spec[2], size=14, shape=spec[3] if len(spec) > 3 else "square")
        if kind == "swatch":
            self.rect(x, y - 7, 22, 14, fill=spec[1], stroke=spec[2], width=2 if spec[3] else 1, dash=spec[3])
            return 22
        if kind == "ring":
            self.circle(x + 8, y, 7, fill=PAPER, stroke=INK, width=1.2)
            return 16
        self.text(x, y + 4, spec[1], size=11, bold=True)
        return sample_width(spec)


def sample_width(spec: tuple) -> float:
    """The width a legend sample takes (a glyph's: its text, bold, at 11)."""
    if spec[0] == "piece":
        return piece_size(spec[2], 14)[0]
    return {"seat": 16, "swatch": 22, "ring": 16}.get(spec[0]) or text_width(label(spec[1]), 11)


def piece_size(letter: str, size: float) -> tuple[float, float]:
    """A piece's size and its letter's: the letter three quarters of the mark; letters that run past the mark on
    both sides (two wide ones: `Ma`) set smaller, to fit it, and never under MIN_TYPE: there the mark grows."""
    type_size = size * 0.75
    if fits(letter, type_size, size + 2, bold=True):
        return size, type_size
    type_size = max(MIN_TYPE, type_size * size / advance(letter, type_size, bold=True))
    return max(size, advance(letter, type_size, bold=True) + 1), type_size
