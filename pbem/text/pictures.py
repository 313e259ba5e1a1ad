"""Pictures of a position, drawn from a status document (the public one or one player's view, never the state).

Each game draws its board on a `Sheet` (`games/<package>/draw.py`: `draw(view, viewer, sheet)`); this module frames
it — the title, the move number, who is to act, a legend of every mark used — and writes it as SVG (drawsvg builds
the markup), PNG (resvg renders it) or a small HTML page. A picture shows nothing the view does not hold: it is
drawn from the view alone.

Colour is never the only way to tell things apart: every seat has its colour from Okabe and Ito's palette (told
apart under the common colour blindnesses) *and* its own shape and letter; goods carry their letter.

drawsvg and resvg are imported here only, and this module only by the commands that draw (`pbem board`, the
mail's picture, the git referee's board.svg, `pbem site`), so `pbem move` never pays for them.
"""
from __future__ import annotations

import math

import drawsvg as draw

from ..contract import UsageError
from ..store import registry

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
INK = "#1a1a1a"
FAINT = "#767676"
PAPER = "#ffffff"
PANEL = "#f4f1ea"  # the board's background
FRAME = "#3b2f5c"  # the title band: the browser test looks for this colour
MARGIN = 16
CHAR = 0.62  # DejaVu Sans' average advance per unit of font size, a little generous: text never overflows its box
# A picture bounds its own size, whatever names a club's components give it (their schemas bound them too): a line
# of text is cut to MAX_LABEL characters (a game's longest line is some 110), the drawing to MAX_WIDTH x
# MAX_HEIGHT points (the games draw within about 1,000 x 1,400)
MAX_LABEL = 160
MAX_WIDTH, MAX_HEIGHT = 2400, 3600

SEAT_COLOURS = ["#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#999999"]
SEAT_SHAPES = ["circle", "square", "triangle", "diamond", "pentagon", "hexagon", "star", "cross"]


def text_width(text: str, size: float) -> float:
    return len(text) * size * CHAR


def label(words, most: int = MAX_LABEL) -> str:
    """A line of text as drawn: at most `most` characters, the cut marked with an ellipsis."""
    words = str(words)
    return words if len(words) <= most else words[:max(most - 1, 0)] + "…"


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
    corners = {"triangle": 3, "diamond": 4, "pentagon": 5, "hexagon": 6, "star": 10}[shape]
    points = []
    for i in range(corners):
        radius = r * (0.5 if shape == "star" and i % 2 else 1.0)
        angle = -math.pi / 2 + 2 * math.pi * i / corners
        points += [round(x + radius * math.cos(angle), 2), round(y + radius * math.sin(angle) + (r * 0.15 if shape == "triangle" else 0), 2)]
    return points


class Sheet:
    """Where a game draws: plain shapes at absolute coordinates, in points. It keeps the extent of what was drawn
    and the legend's entries (each mark the picture uses, said in words)."""

    def __init__(self, players: list[str], viewer: str | None = None):
        self.players, self.viewer = list(players), viewer
        self.letters = seat_letters(self.players)
        self.group = draw.Group()
        self.width = self.height = 0.0
        self.legend: list[tuple[tuple, str]] = []

    # -- bookkeeping
    def grow(self, x: float, y: float) -> None:
        self.width, self.height = max(self.width, x), max(self.height, y)

    def key(self, sample: tuple, words: str) -> None:
        """A legend entry: a sample mark (("piece", fill, letter), ("swatch", fill, stroke, dash), ("seat",
        player), ("glyph", text)) and what it means. Each is listed once."""
        if (sample, words) not in self.legend:
            self.legend.append((sample, words))

    # -- shapes
    def rect(self, x, y, w, h, fill=PAPER, stroke=INK, width=1.0, dash=None, rx=0):
        self.group.append(draw.Rectangle(x, y, w, h, fill=fill, stroke=stroke, stroke_width=width, rx=rx,
                                         stroke_dasharray=dash))
        self.grow(x + w, y + h)

    def line(self, x1, y1, x2, y2, stroke=INK, width=1.0, dash=None):
        self.group.append(draw.Line(x1, y1, x2, y2, stroke=stroke, stroke_width=width, stroke_dasharray=dash))
        self.grow(max(x1, x2), max(y1, y2))

    def circle(self, x, y, r, fill=PAPER, stroke=INK, width=1.0):
        self.group.append(draw.Circle(x, y, r, fill=fill, stroke=stroke, stroke_width=width))
        self.grow(x + r, y + r)

    def text(self, x, y, words, size=11, anchor="start", bold=False, fill=INK):
        """One line of text; (x, y) is its baseline's start (or middle or end, by `anchor`). A longer line than
        MAX_LABEL characters is cut."""
        words = label(words)
        self.group.append(draw.Text(words, size, x, y, fill=fill, text_anchor=anchor, font_family=FONT,
                                    font_weight="bold" if bold else None))
        left = {"start": 0, "middle": 0.5, "end": 1}[anchor] * text_width(words, size)
        self.grow(x - left + text_width(words, size), y + size * 0.3)

    def shape(self, shape, x, y, r, fill, stroke=INK, width=1.0):
        if shape == "circle":
            element = draw.Circle(x, y, r, fill=fill, stroke=stroke, stroke_width=width)
        elif shape == "square":
            element = draw.Rectangle(x - r * 0.88, y - r * 0.88, r * 1.76, r * 1.76, fill=fill, stroke=stroke,
                                     stroke_width=width)
        elif shape == "cross":
            arm = r * 0.4
            element = draw.Lines(x - arm, y - r, x + arm, y - r, x + arm, y - arm, x + r, y - arm, x + r, y + arm,
                                 x + arm, y + arm, x + arm, y + r, x - arm, y + r, x - arm, y + arm, x - r, y + arm,
                                 x - r, y - arm, x - arm, y - arm, close=True, fill=fill, stroke=stroke,
                                 stroke_width=width)
        else:
            element = draw.Lines(*polygon_points(shape, x, y, r), close=True, fill=fill, stroke=stroke,
                                 stroke_width=width)
        self.group.append(element)
        self.grow(x + r, y + r)

    def token(self, player: str, x: float, y: float, r: float = 8, count: int | None = None):
        """A player's piece: their shape in their colour with their letter (and a count beside it)."""
        seat = self.players.index(player) if player in self.players else len(SEAT_COLOURS) - 1
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        self.shape(SEAT_SHAPES[seat % len(SEAT_SHAPES)], x, y, r, colour)
        self.text(x, y + r * 0.4, self.letters.get(player, "?"), size=r * 1.1, anchor="middle", bold=True,
                  fill=readable_on(colour))
        if count is not None and count != 1:
            self.text(x + r + 2, y + r * 0.4, f"×{count}", size=r * 1.2)

    def piece(self, x, y, fill, letter, size=12, shape="square"):
        """A good, a cube, a nugget: a coloured mark with the letter that names it (x, y: its centre)."""
        self.shape(shape, x, y, size / 2, fill, stroke=INK, width=0.8)
        self.text(x, y + size * 0.3, letter, size=size * 0.75, anchor="middle", bold=True, fill=readable_on(fill))

    def seat_colour(self, player: str) -> str:
        return SEAT_COLOURS[self.players.index(player) % len(SEAT_COLOURS)] if player in self.players else FAINT

    def sample(self, spec: tuple, x: float, y: float) -> float:
        """Draw a legend sample centred on y from x; its width."""
        kind = spec[0]
        if kind == "seat":
            self.token(spec[1], x + 8, y, 8)
            return 16
        if kind == "piece":
            self.piece(x + 7, y, spec[1], spec[2], size=14, shape=spec[3] if len(spec) > 3 else "square")
            return 14
        if kind == "swatch":
            self.rect(x, y - 7, 22, 14, fill=spec[1], stroke=spec[2], width=2 if spec[3] else 1, dash=spec[3])
            return 22
        words = spec[1]
        self.text(x, y + 4, words, size=11, bold=True)
        return text_width(words, 11)


# ----------------------------------------------------------------------------------------------------------------
# The frame around a game's drawing


def headline(doc: dict) -> tuple[str, str]:
    """The title line and the line saying where the game stands."""
    title = f"{doc['title']} — game {doc['id']}"
    if doc.get("player"):
        title += f" — view of {doc['player']}"
    if doc["finished"]:
        winners = [row["player"] for row in doc.get("ranking") or [] if row["rank"] == 1]
        status = f"Move {doc['move_number']}: the game is over" + (f"; won by {', '.join(winners)}" if winners else "")
    else:
        decision = doc["decision"]
        status = f"Move {doc['move_number']}: {decision['player']} to act — {decision['description']}"
    return title, status


def wrap(words: str, size: float, width: float, most: int = 3) -> list[str]:
    """Words in lines that fit `width` at font size `size`, at most `most` lines (a word longer than a line is cut
    to fit, and so is the last line)."""
    fits = min(max(int(width / (size * CHAR)), 1), MAX_LABEL)
    lines, line = [], ""
    for word in (label(word, fits) for word in words.split()):
        if line and len(f"{line} {word}") > fits:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    lines += [line] if line else []
    return lines if len(lines) <= most else lines[:most - 1] + [label(lines[most - 1] + " …", fits)]


def players_of(doc: dict) -> list[str]:
    return [p["name"] for p in doc["view"].get("players", [])]


def picture(doc: dict) -> draw.Drawing:
    """The whole picture of a status document (`engine.status`): the game's drawing in its frame."""
    game = registry.get(doc["game"])
    viewer = doc.get("player")
    sheet = Sheet(players_of(doc), viewer)
    game.draw.draw(doc["view"], viewer, sheet)
    if doc["finished"]:
        final_ranking(sheet, doc.get("ranking") or [], sheet.height + 16)
    title, status = headline(doc)
    width = min(max(sheet.width + 2 * MARGIN, 560), MAX_WIDTH)
    inner = width - 2 * MARGIN
    title_lines = wrap(title, 16, inner)
    status_lines = wrap(status, 12, inner)
    band = 12 + 20 * len(title_lines) + 16 * len(status_lines)
    legend = Sheet(sheet.players, viewer)
    legend_height = draw_legend(legend, sheet, inner)
    height = min(band + MARGIN + sheet.height + MARGIN + legend_height + MARGIN, MAX_HEIGHT)

    d = draw.Drawing(width, height, id_prefix="pbem")
    d.append_title(f"{title}. {status}")
    d.append(draw.Rectangle(0, 0, width, height, fill=PAPER))
    d.append(draw.Rectangle(0, 0, width, band, fill=FRAME))
    y = 8
    for line in title_lines:
        y += 20
        d.append(draw.Text(line, 16, MARGIN, y - 4, fill=PAPER, font_family=FONT, font_weight="bold"))
    for line in status_lines:
        y += 16
        d.append(draw.Text(line, 12, MARGIN, y - 4, fill=PAPER, font_family=FONT))
    d.append(draw.Group([sheet.group], transform=f"translate({MARGIN},{band + MARGIN})"))
    d.append(draw.Group([legend.group], transform=f"translate({MARGIN},{band + MARGIN + sheet.height + MARGIN})"))
    return d


def final_ranking(sheet: Sheet, rows: list[dict], y: float) -> None:
    """The final ranking under the board: rank, player, score (the text report has every line of it)."""
    sheet.text(0, y + 14, "Final ranking", size=13, bold=True)
    for i, row in enumerate(rows):
        line = y + 38 + i * 22
        sheet.text(0, line, f"{row['rank']}.", bold=True)
        sheet.token(row["player"], 34, line - 4)
        sheet.text(48, line, f"{row['player']}: {row['score']}")


def draw_legend(legend: Sheet, sheet: Sheet, width: float) -> float:
    """The seats, then every mark the game used, flowing in lines across `width`; the height taken."""
    entries = [(("seat", p), p + (" (you)" if p == sheet.viewer else "")) for p in sheet.players] + sheet.legend
    legend.text(0, 12, "Legend", size=12, bold=True)
    x, y = 0.0, 32.0
    for spec, words in ((spec, label(words)) for spec, words in entries):
        probe = Sheet(sheet.players)
        needed = probe.sample(spec, 0, 0) + 6 + text_width(words, 11) + 18
        if x and x + needed > width:
            x, y = 0.0, y + 22
        x += legend.sample(spec, x, y) + 6
        legend.text(x, y + 4, words, size=11)
        x += text_width(words, 11) + 18
    return y + 12


def svg(doc: dict) -> str:
    return picture(doc).as_svg()


def svg_inline(doc: dict) -> str:
    """The SVG element alone, to put inside an HTML page."""
    return picture(doc).as_svg(header="")


def png(svg_text: str, scale: float = 1.0) -> bytes:
    """The SVG rendered by resvg (the `pictures` extra: pip install 'pbem[pictures]')."""
    try:
        import resvg_py
    except ImportError:
        raise UsageError("a PNG needs resvg: pip install 'pbem[pictures]' (SVG and HTML need nothing more)") from None
    return bytes(resvg_py.svg_to_bytes(svg_string=svg_text, zoom=scale if scale != 1.0 else None,
                                       sans_serif_family="DejaVu Sans"))


# ----------------------------------------------------------------------------------------------------------------
# HTML pages (jinja2 templates in pbem/templates, every value escaped; the pages extend page.html, the mail part
# stands alone with inline styles, as mail clients want)


def templates():
    import jinja2
    from ..store import packaged

    def load(name):
        return packaged.read_bytes("pbem.text", f"templates/{name}").decode("utf-8")
    return jinja2.Environment(loader=jinja2.FunctionLoader(load), autoescape=True, keep_trailing_newline=True)


def page(doc: dict, now=None, back: str | None = None, links: list[dict] | None = None) -> str:
    """A page with the picture (inline SVG) and the whole text report under it; no script, no remote resource."""
    import markupsafe

    from . import report
    title, status = headline(doc)
    return templates().get_template("board.html").render(
        title=title, status=status, picture=markupsafe.Markup(svg_inline(doc)),
        report=report.status_text(doc, now), back=back, links=links or [])


def markdown_cell(text) -> str:
    """A value in a Markdown table cell: its pipes escaped, on one line."""
    return " ".join(str(text).split()).replace("|", "\\|")


def repository_files(doc: dict, now=None) -> dict[str, bytes]:
    """`board.svg` and `README.md` for a game's repository (the hosting's page of the repository shows the README):
    the public picture, and the position as Markdown: who is to act and until when, the last moves and the final
    ranking as tables, the whole text report. `doc` is the public status document."""
    import jinja2

    from ..store import packaged
    from . import report
    title, status = headline(doc)
    clock_lines = []
    if doc.get("clock") and not doc["finished"]:
        from .times import summary_lines
        clock_lines = summary_lines(doc["clock"], doc["decision"]["player"], None)
    recent = [{"number": e["number"], "player": markdown_cell(e["player"] + (" (referee)" if e["by"] == "referee"
                                                                              else "")),
               "moves": markdown_cell("; ".join(e["moves"]))} for e in doc.get("recent") or []]
    ranking = [{"rank": r["rank"], "player": markdown_cell(r["player"]), "score": r["score"]}
               for r in doc.get("ranking") or []] if doc["finished"] else []
    template = jinja2.Environment(autoescape=False, keep_trailing_newline=True).from_string(
        packaged.read_bytes("pbem.text", "templates/README.md").decode("utf-8"))
    readme = template.render(title=markdown_cell(title), status=markdown_cell(status), clock=clock_lines,
                             recent=recent, ranking=ranking, report=report.status_text(doc, now).replace("```", "'''"))
    return {"board.svg": svg(doc).encode("utf-8"), "README.md": readme.encode("utf-8")}
