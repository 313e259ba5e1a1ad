"""A picture's PNG, drawn directly with Pillow (the `pictures` extra) from the marks of its Sheets: the raster
back-end beside the SVG one (pbem.svgout). A picture in every mail must cost about what its text costs, so:

- rectangles and lines are filled straight into the image (crisp at 1×, no anti-aliasing to pay for);
- each word is laid out and rasterised once a process (the label cache, keyed by its text, size and weight, so it
  serves every script) and stamped through its mask in its colour;
- each round mark (a seat's token, a cube, a nugget) is drawn once at four times its size, reduced (smooth edges)
  and kept (the sprite cache), then stamped;
- the image is mapped onto a palette of the colours the picture uses (a PNG of a byte, or half a byte, a pixel).

The words' fonts are named in pbem/fonts.yaml: each character is drawn in the first installed font whose script
holds it (DejaVu Sans for Latin, Greek and Cyrillic, a CJK font for Chinese ...), so a label in any language is
drawn whole, never as empty boxes where the font has a CJK one. No font found at all: Pillow's own.
"""
from __future__ import annotations

import functools
import io
import math

from PIL import Image, ImageDraw, ImageFont

from .sheet import PAPER, font_table, polygon_points

OVERSAMPLE = 4  # a round mark is drawn this many times larger, then reduced: its edges anti-aliased
GREYS = ["#3c3c3c", "#5a5a5a", "#8c8c8c", "#b4b4b4", "#d2d2d2", "#e6e6e6"]  # the words' smoothed edges
LABELS, SPRITES = 8192, 2048  # the caches' bounds: a few MiB at most, whatever a long batch draws


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


@functools.lru_cache(maxsize=None)
def crisp(family: str | None) -> bool:
    """Is the family drawn without grey edges (pbem/fonts.yaml)? Pillow's own font is smoothed."""
    return any(e["family"] == family and e.get("crisp") for e in font_table()[0])


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

@functools.lru_cache(maxsize=LABELS)
def label(words: str, size: float, bold: bool) -> tuple[Image.Image, int, int, float]:
    """A line of words rasterised once: (its mask, the mask's offset from the baseline's start, its advance)."""
    parts, advance = [], 0.0
    for family, chunk in runs(words, bold):
        face_font = font(family, bold, size)
        parts.append((face_font, chunk, advance, crisp(family)))
        advance += face_font.getlength(chunk)
    boxes = [(x + b[0], b[1], x + b[2], b[3]) for f, chunk, x, _ in parts for b in [f.getbbox(chunk, anchor="ls")]]
    left, top = math.floor(min(b[0] for b in boxes)), min(b[1] for b in boxes)
    right, bottom = math.ceil(max(b[2] for b in boxes)), max(b[3] for b in boxes)
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)))
    pen = ImageDraw.Draw(mask)
    for face_font, chunk, x, sharp in parts:
        pen.fontmode = "1" if sharp else "L"
        pen.text((x - left, -top), chunk, font=face_font, fill=255, anchor="ls")
    return mask, left, top, advance


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

class Canvas:
    """An RGB image the marks are drawn into, at `scale` pixels a point."""

    def __init__(self, width: float, height: float, scale: float = 1.0):
        self.scale = scale
        self.image = Image.new("RGB", (math.ceil(width * scale), math.ceil(height * scale)), PAPER)
        self.pen = ImageDraw.Draw(self.image)
        self.colours: set[str] = {PAPER}

    def draw(self, marks: list[tuple], dx: float = 0.0, dy: float = 0.0) -> None:
        for mark in marks:
            getattr(self, mark[0])(dx, dy, *mark[1:])

    def rect(self, dx, dy, x, y, w, h, fill, stroke, width, dash, rx):
        s = self.scale
        box = (round((dx + x) * s), round((dy + y) * s), round((dx + x + w) * s), round((dy + y + h) * s))
        outline = None if dash or stroke in (None, "none") else stroke
        line = max(1, round(width * s))
        if rx:
            self.pen.rounded_rectangle(box, radius=round(rx * s), fill=fill, outline=outline, width=line)
        else:
            self.pen.rectangle(box, fill=fill, outline=outline, width=line)
        if dash and stroke not in (None, "none"):
            x0, y0, x1, y1 = box
            for edge in ((x0, y0, x1, y0), (x1, y0, x1, y1), (x0, y1, x1, y1), (x0, y0, x0, y1)):
                self.dashed(edge, stroke, line, dash)
        self.colours.update(c for c in (fill, stroke) if c and c != "none")

    def line(self, dx, dy, x1, y1, x2, y2, stroke, width, dash):
        s = self.scale
        ends = (round((dx + x1) * s), round((dy + y1) * s), round((dx + x2) * s), round((dy + y2) * s))
        line = max(1, round(width * s))
        if dash:
            self.dashed(ends, stroke, line, dash)
        else:
            self.pen.line(ends, fill=stroke, width=line)
        self.colours.add(stroke)

    def dashed(self, ends: tuple[int, int, int, int], colour: str, width: int, dash: str) -> None:
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
                           round(y1 + uy * end) - round(uy)), fill=colour, width=width)
            start = end + off

    def shape(self, dx, dy, shape, x, y, r, fill, stroke, width):
        s = self.scale
        px, py = (dx + x) * s, (dy + y) * s
        ix, iy = math.floor(px), math.floor(py)
        image, half = sprite(shape, r * s, fill, stroke, width * s, round((px - ix) * 4) / 4, round((py - iy) * 4) / 4)
        self.image.paste(image, (ix - half, iy - half), image)
        self.colours.update((fill, stroke))

    def text(self, dx, dy, x, y, words, size, anchor, bold, fill):
        s = self.scale
        mask, left, top, advance = label(words, size * s, bold)
        shift = 0.0 if anchor == "start" else advance / 2 if anchor == "middle" else advance
        px, py = round((dx + x) * s - shift) + left, round((dy + y) * s) + top
        self.image.paste(fill, (px, py, px + mask.width, py + mask.height), mask)
        self.colours.add(fill)


def paletted(image: Image.Image, colours: set[str]) -> Image.Image:
    """The image mapped onto the colours it was drawn in and a few greys for the words' smoothed edges, without
    dithering: every pixel takes its nearest colour (a flat fill stays flat, so the PNG stays small)."""
    chosen = sorted({colour.lower() for colour in colours} | set(GREYS))[:256]
    palette = Image.new("P", (1, 1))
    palette.putpalette([value for colour in chosen for value in _rgb(colour)])
    return image.quantize(palette=palette, dither=Image.Dither.NONE)


def png(picture, scale: float = 1.0, compress: int = 6) -> bytes:
    """The picture (pbem.pictures.Picture) as a palette PNG, `scale` pixels a point."""
    canvas = Canvas(picture.width, picture.height, scale)
    for dx, dy, sheet in picture.layers:
        canvas.draw(sheet.marks, dx, dy)
    out = io.BytesIO()
    image = paletted(canvas.image, canvas.colours)
    colours = len(image.getpalette()) // 3
    image.save(out, "PNG", compress_level=compress, **({"bits": 4} if colours <= 16 else {}))
    return out.getvalue()
