"""A picture's PNG, drawn directly with Pillow (the `pictures` extra) from the marks of its Sheets: the raster back-end
beside the SVG one (pbem.text.svgout). A picture in every mail must cost about what its text costs, so:

- the image is a palette of the colours the marks name, drawn into as such (no conversion afterwards; a PNG of a
  byte a pixel, half a byte when they are 16 or fewer);
- rectangles and lines are filled straight into it (crisp at 1×, no smoothing to pay for);
- each glyph is rasterised once a process (bilevel, as the font's hinting fits it to the pixels), each line of
  words set from its glyphs once (the label cache, keyed by its text, size and weight, so it serves every script;
  a script whose letters change shape with their neighbours is laid out whole) and stamped through its mask in
  its colour;
- each round mark (a seat's token, a cube, a nugget) is drawn once at four times its size and reduced (the sprite
  cache: smooth edges), laid on its ground in the palette's nearest colours, and stamped.

The words' fonts are named in pbem/text/fonts.yaml: each character is drawn in the first installed font whose
script holds it (DejaVu Sans for Latin, Greek and Cyrillic, a CJK font for Chinese ...), so a label in any language
is drawn whole, never as empty boxes where the font has a CJK one. No font found at all: Pillow's own.
"""
from __future__ import annotations

import functools
import math
import struct
import unicodedata
import zlib

from PIL import Image, ImageDraw, ImageFont

try:  # zlib-ng (the pictures extra) deflates a picture 2.3 times faster than zlib, and a little smaller
    from zlib_ng import zlib_ng as deflater
except ImportError:  # Pillow installed without the extra: the standard library's zlib writes the same stream
    deflater = zlib

from .sheet import PAPER, font_table, polygon_points

OVERSAMPLE = 4  # a round mark is drawn this many times larger, then reduced: its edges anti-aliased
LABELS, GLYPHS, SPRITES = 8192, 4096, 2048  # the caches' bounds: a few MiB at most, whatever a long batch draws


# ---------------------------------------------------------------------------------------------- fonts

@functools.lru_cache(maxsize=None)
def face(family: str, bold: bool) -> tuple[str, int] | None:
    """Where a family's regular or bold face is installed: (file, index in the collection), or None."""
    entry = next(e for e in font_table()[0] if e["family"] == family)
    name = entry["bold" if bold else "regular"]
    for index in range(16 if name.endswith(".ttc") else 1):
        try:
            found = ImageFont.truetype(name, 10, index=index)
        except OSError:
            return None
        if found.getname()[0] == family or not name.endswith(".ttc"):
            return found.path, index
    return None


@functools.lru_cache(maxsize=256)
def font(family: str | None, bold: bool, size: float) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    where = face(family, bold) if family else None
    if where is None:
        return ImageFont.load_default(size)
    return ImageFont.truetype(where[0], size, index=where[1])


@functools.lru_cache(maxsize=4096)
def family_of(character: str, bold: bool) -> str | None:
    """The family that draws `character`: the first installed one whose script holds it (or that has none)."""
    fonts, scripts = font_table()
    code = ord(character)
    for entry in fonts:
        script = entry.get("script")
        if script and not any(first <= code <= last for first, last in scripts[script]):
            continue
        if face(entry["family"], bold):
            return entry["family"]
    return None


def runs(words: str, bold: bool) -> list[tuple[str | None, str]]:
    """`words` cut where the font changes: (family, characters) in order."""
    if words.isascii():
        return [(family_of("a", bold), words)]
    out: list[tuple[str | None, str]] = []
    for character in words:
        family = family_of(character, bold)
        if out and out[-1][0] == family:
            out[-1] = (family, out[-1][1] + character)
        else:
            out.append((family, character))
    return out


# ---------------------------------------------------------------------------------------------- the caches

def needs_shaping(characters: str) -> bool:
    """Do these characters change shape with their neighbours (a right-to-left script, combining marks), so that
    they must be laid out together (by raqm) rather than glyph after glyph?"""
    return not characters.isascii() and any(
        unicodedata.bidirectional(c) in ("R", "AL", "AN") or unicodedata.category(c) in ("Mn", "Mc", "Me")
        for c in characters)


@functools.lru_cache(maxsize=GLYPHS)
def piece(family: str | None, bold: bool, size: float, characters: str) -> tuple[Image.Image | None, int, int, float]:
    """A glyph (or characters shaped together) rasterised once, bilevel: (its mask or None for a space, the mask's
    offset from the pen on the baseline, the advance)."""
    face_font = font(family, bold, size)
    advance = face_font.getlength(characters)
    left, top, right, bottom = (round(v) for v in face_font.getbbox(characters, anchor="ls"))
    if right <= left or bottom <= top:
        return None, 0, 0, advance
    mask = Image.new("L", (right - left, bottom - top))
    pen = ImageDraw.Draw(mask)
    pen.fontmode = "1"  # bilevel: a pixel is the word's or the ground's, so the palette needs no greys
    pen.text((-left, -top), characters, font=face_font, fill=255, anchor="ls")
    return mask, left, top, advance


@functools.lru_cache(maxsize=LABELS)
def label(words: str, size: float, bold: bool) -> tuple[Image.Image, int, int, float]:
    """A line of words rasterised once: (its mask, the mask's offset from the baseline's start, its advance). Made
    of glyphs each rasterised once a process (a run that must be shaped, whole), set one after the other."""
    placed, pen = [], 0.0
    for family, chunk in runs(words, bold):
        for characters in ([chunk] if needs_shaping(chunk) else chunk):
            mask, left, top, advance = piece(family, bold, size, characters)
            if mask is not None:
                placed.append((mask, round(pen) + left, top))
            pen += advance
    if not placed:
        return Image.new("L", (1, 1)), 0, 0, pen
    left, top = min(x for _, x, _ in placed), min(y for _, _, y in placed)
    right = max(x + mask.width for mask, x, _ in placed)
    bottom = max(y + mask.height for mask, _, y in placed)
    composed = Image.new("L", (right - left, bottom - top))
    for mask, x, y in placed:
        composed.paste(255, (x - left, y - top, x - left + mask.width, y - top + mask.height), mask)
    return composed, left, top, pen


@functools.lru_cache(maxsize=SPRITES)
def sprite(shape: str, r: float, fill: str, stroke: str, width: float, fx: float, fy: float
           ) -> tuple[Image.Image, int]:
    """A round or pointed mark with smooth edges, its centre at (half + fx, half + fy): (the image, half)."""
    half = math.ceil(r + width / 2 + 1)
    big = half * 2 * OVERSAMPLE
    # transparent in the stroke's colour: reducing blends the edge towards it, not towards black
    canvas = Image.new("RGBA", (big, big), (*_rgb(stroke), 0))
    pen = ImageDraw.Draw(canvas)
    cx, cy = (half + fx) * OVERSAMPLE, (half + fy) * OVERSAMPLE
    line = max(1, round(width * OVERSAMPLE))
    if shape == "circle":
        outer = (r + width / 2) * OVERSAMPLE
        pen.ellipse((cx - outer, cy - outer, cx + outer, cy + outer), fill=fill, outline=stroke, width=line)
    else:
        points = polygon_points(shape, cx, cy, r * OVERSAMPLE)
        pen.polygon(list(zip(points[0::2], points[1::2])), fill=fill, outline=stroke, width=line)
    return canvas.reduce(OVERSAMPLE), half


@functools.lru_cache(maxsize=256)
def _rgb(colour: str) -> tuple[int, int, int]:
    colour = colour.lstrip("#")
    return int(colour[0:2], 16), int(colour[2:4], 16), int(colour[4:6], 16)


# ---------------------------------------------------------------------------------------------- drawing

def colours_of(picture) -> list[str]:
    """Every colour the picture's marks are drawn in, paper first, each once (#rrggbb, lower case): its palette."""
    named = {PAPER: None}
    for _, _, sheet in picture.layers:
        for mark in sheet.marks:
            kind = mark[0]
            if kind == "rect" or kind == "shape":
                named[mark[5]] = named[mark[6]] = None
            elif kind == "line":
                named[mark[5]] = None
            else:
                named[mark[7]] = None
    named.pop("none", None)
    return list(dict.fromkeys(colour.lower() for colour in named))[:256]


class Canvas:
    """A palette image the marks are drawn into, at `scale` pixels a point: every pixel one of `colours` (no
    conversion afterwards). Words are drawn bilevel (each glyph's pixels as its hinting fits them to the grid);
    a round mark's smoothed edge takes, pixel by pixel, the palette's colour nearest to its blend with the ground
    it lies on."""

    def __init__(self, width: float, height: float, colours: list[str], scale: float = 1.0):
        self.scale, self.colours = scale, tuple(colours)
        self.index = {colour: i for i, colour in enumerate(colours)}  # and each colour as a mark names it, below
        self.image = Image.new("P", (math.ceil(width * scale), math.ceil(height * scale)), 0)
        self.image.putpalette([value for colour in colours for value in _rgb(colour)])
        self.pen = ImageDraw.Draw(self.image)

    def ink(self, colour: str | None) -> int | None:
        found = self.index.get(colour)
        if found is None and colour not in (None, "none"):
            found = self.index[colour] = self.index[colour.lower()]
        return found

    def draw(self, marks: list[tuple], dx: float = 0.0, dy: float = 0.0) -> None:
        for mark in marks:
            getattr(self, mark[0])(dx, dy, *mark[1:])

    def rect(self, dx, dy, x, y, w, h, fill, stroke, width, dash, rx):
        s = self.scale
        box = (round((dx + x) * s), round((dy + y) * s), round((dx + x + w) * s), round((dy + y + h) * s))
        outline = None if dash else self.ink(stroke)
        line = max(1, round(width * s))
        if rx:
            self.pen.rounded_rectangle(box, radius=round(rx * s), fill=self.ink(fill), outline=outline, width=line)
        else:
            self.pen.rectangle(box, fill=self.ink(fill), outline=outline, width=line)
        if dash and self.ink(stroke) is not None:
            x0, y0, x1, y1 = box
            for edge in ((x0, y0, x1, y0), (x1, y0, x1, y1), (x0, y1, x1, y1), (x0, y0, x0, y1)):
                self.dashed(edge, self.ink(stroke), line, dash)

    def line(self, dx, dy, x1, y1, x2, y2, stroke, width, dash):
        s = self.scale
        ends = (round((dx + x1) * s), round((dy + y1) * s), round((dx + x2) * s), round((dy + y2) * s))
        line = max(1, round(width * s))
        if dash:
            self.dashed(ends, self.ink(stroke), line, dash)
        else:
            self.pen.line(ends, fill=self.ink(stroke), width=line)

    def dashed(self, ends: tuple[int, int, int, int], ink: int, width: int, dash: str) -> None:
        """A straight line in dashes (`dash`: "on off" lengths in points, as SVG writes them)."""
        on, off = (float(n) * self.scale for n in dash.split())
        x1, y1, x2, y2 = ends
        length = math.hypot(x2 - x1, y2 - y1)
        if not length:
            return
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        start = 0.0
        while start < length:
            end = min(start + on, length)
            self.pen.line((round(x1 + ux * start), round(y1 + uy * start), round(x1 + ux * end) - round(ux),
                           round(y1 + uy * end) - round(uy)), fill=ink, width=width)
            start = end + off

    def shape(self, dx, dy, shape, x, y, r, fill, stroke, width):
        s = self.scale
        px, py = (dx + x) * s, (dy + y) * s
        ix, iy = math.floor(px), math.floor(py)
        key = (shape, r * s, fill, stroke, width * s, round((px - ix) * 4) / 4, round((py - iy) * 4) / 4)
        half = math.ceil(key[1] + key[4] / 2 + 1)
        corner = (max(0, ix - half), max(0, iy - half))  # outside every shape: the ground it lies on
        image, mask = stamp(key, self.colours[self.image.getpixel(corner)], self.colours)
        self.image.paste(image, (ix - half, iy - half), mask)

    def text(self, dx, dy, x, y, words, size, anchor, bold, fill):
        s = self.scale
        mask, left, top, advance = label(words, size * s, bold)
        shift = 0.0 if anchor == "start" else advance / 2 if anchor == "middle" else advance
        px, py = round((dx + x) * s - shift) + left, round((dy + y) * s) + top
        self.image.paste(self.ink(fill), (px, py, px + mask.width, py + mask.height), mask)


@functools.lru_cache(maxsize=SPRITES)
def stamp(key: tuple, ground: str, colours: tuple[str, ...]) -> tuple[Image.Image, Image.Image]:
    """A round mark (sprite's key) laid on `ground`, in the palette `colours`: (its palette image, its mask)."""
    sprite_image, _ = sprite(*key)
    laid = Image.new("RGB", sprite_image.size, ground)
    laid.paste(sprite_image, (0, 0), sprite_image)
    palette = Image.new("P", (1, 1))
    palette.putpalette([value for colour in colours for value in _rgb(colour)])
    mask = sprite_image.getchannel("A").point(lambda alpha: 255 if alpha else 0)
    return laid.quantize(palette=palette, dither=Image.Dither.NONE), mask


def png(picture, scale: float = 1.0) -> bytes:
    """The picture (pbem.text.pictures.Picture) as a PNG of the colours it is drawn in, `scale` pixels a point."""
    colours = colours_of(picture)
    canvas = Canvas(picture.width, picture.height, colours, scale)
    for dx, dy, sheet in picture.layers:
        canvas.draw(sheet.marks, dx, dy)
    return palette_png(canvas.image, colours)


def palette_png(image: Image.Image, colours: list[str]) -> bytes:
    """A palette image as a PNG file, half a byte a pixel when it has 16 colours or fewer. Written here rather
    than by Pillow's PNG encoder, which tries each of PNG's row filters on every row: a palette image gains nothing
    from them (the PNG specification advises none for one), and the trials cost two fifths of the encoding.
    Deflated by zlib-ng at zlib's default level: half of a picture's time went to zlib."""
    bits = 4 if len(colours) <= 16 else 8
    raw = image.tobytes("raw", "P;4" if bits == 4 else "P")
    stride = len(raw) // image.height
    rows = b"".join(b"\0" + raw[at:at + stride] for at in range(0, len(raw), stride))  # each row: filter 0, none

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", image.width, image.height, bits, 3, 0, 0, 0)  # colour type 3: a palette
    palette = bytes(value for colour in colours for value in _rgb(colour))
    return b"".join([b"\x89PNG\r\n\x1a\n", chunk(b"IHDR", header), chunk(b"PLTE", palette),
                     chunk(b"IDAT", deflater.compress(rows, 6)), chunk(b"IEND", b"")])
