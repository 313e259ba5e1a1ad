"""Pictures of a position, drawn from a status document (the public one or one player's view, never the state).

Each game draws its board on a `Sheet` (pbem.text.sheet; `games/<package>/draw.py`: `draw(view, viewer, sheet)`);
this module frames it — the title, the move number, who is to act, a legend of every mark used — into a `Picture`,
and writes it as SVG (pbem.text.svgout, with drawsvg), PNG (pbem.text.raster, with Pillow) or a small HTML page. A
picture shows nothing the view does not hold: it is drawn from the view alone; and it bounds its own size, whatever
it is given (a line of text is cut at sheet.MAX_LABEL characters, the picture at MAX_WIDTH x MAX_HEIGHT).

drawsvg and Pillow are imported only by the back-ends, and this module only by the commands that draw (`pbem
board`, the mail's picture, the git referee's board.svg, `pbem site`), so `pbem move` never pays for them.
"""
from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass, field

from ..contract import UsageError
from ..messages import _, pgettext
from ..store import registry
from .report import game_text
from .sheet import PAPER, Sheet, label, sample_width, text_width, wrap

FRAME = "#3b2f5c"  # the title band: the browser test looks for this colour
MARGIN = 16
RULE = 6  # the title band of a picture whose words are beside it (a mail's): a rule in its colour
# A picture bounds its own size, whatever names a club's components give it (their schemas bound them too): the
# drawing is cut to MAX_WIDTH x MAX_HEIGHT points (the games draw within about 1,000 x 1,400)
MAX_WIDTH, MAX_HEIGHT = 2400, 3600


@dataclass
class Picture:
    """A whole picture: its size in points, its words for a reader who cannot see it, and its sheets, each at
    its place."""

    width: float
    height: float
    title: str
    layers: list[tuple[float, float, Sheet]] = field(default_factory=list)


def headline(doc: dict) -> tuple[str, str]:
    """The title line and the line saying where the game stands, in the language being read."""
    title = game_text(doc["game"], doc["title"])
    if doc.get("player"):
        title = _("{title} — game {game} — view of {player}", title=title, game=doc["id"], player=doc["player"])
    else:
        title = _("{title} — game {game}", title=title, game=doc["id"])
    if doc["finished"]:
        winners = [row["player"] for row in doc.get("ranking") or [] if row["rank"] == 1]
        if winners:
            # TRANSLATORS: {winners} is the list of the players ranked first
            return title, _("Move {number}: the game is over; won by {winners}", number=doc["move_number"],
                            winners=winners)
        return title, _("Move {number}: the game is over", number=doc["move_number"])
    decision = doc["decision"]
    return title, _("Move {number}: {player} to act — {decision}", number=doc["move_number"],
                    player=decision["player"], decision=game_text(doc["game"], decision["description"]))


def players_of(doc: dict) -> list[str]:
    return [p["name"] for p in doc["view"].get("players", [])]


def picture(doc: dict, words: bool = True) -> Picture:
    """The whole picture of a status document (`engine.status`): the game's drawing in its frame. `words`: the
    title and status in the band on top; without them (a mail, whose HTML says them), a thin rule instead."""
    game = registry.get(doc["game"])
    viewer = doc.get("player")
    sheet = Sheet(players_of(doc), viewer)
    game.draw.draw(doc["view"], viewer, sheet)
    if doc["finished"]:
        final_ranking(sheet, doc.get("ranking") or [], sheet.height + 16)
    title, status = headline(doc)
    legend = Sheet(sheet.players, viewer)
    width = min(max(sheet.width + 2 * MARGIN, 560), MAX_WIDTH)
    legend_height = draw_legend(legend, sheet, width - 2 * MARGIN)
    band = Sheet(sheet.players)
    height = title_band(band, title, status, width) if words else RULE
    board_top = height + MARGIN
    legend_top = board_top + sheet.height + MARGIN
    total = min(legend_top + legend_height + MARGIN, MAX_HEIGHT)
    background = Sheet([])
    background.rect(0, 0, width, total, fill=PAPER, stroke="none", width=0)
    background.rect(0, 0, width, height, fill=FRAME, stroke="none", width=0)
    # TRANSLATORS: the picture's title for a reader who cannot see it (an SVG's <title>): its title and status lines
    return Picture(width, total, pgettext("picture", "{title}. {status}", title=title, status=status),
                   [(0, 0, background), (0, 0, band), (MARGIN, board_top, sheet), (MARGIN, legend_top, legend)])


def title_band(band: Sheet, title: str, status: str, width: float) -> float:
    """The title (bold) and the status, in white, wrapped to the picture's width, three lines each at most; the
    band's height."""
    inner = width - 2 * MARGIN
    title_lines, status_lines = wrap(title, 16, inner, most=3, bold=True), wrap(status, 12, inner, most=3)
    y = 8
    for line in title_lines:
        y += 20
        band.text(MARGIN, y - 4, line, size=16, bold=True, fill=PAPER)
    for line in status_lines:
        y += 16
        band.text(MARGIN, y - 4, line, size=12, fill=PAPER)
    return 12 + 20 * len(title_lines) + 16 * len(status_lines)


def final_ranking(sheet: Sheet, rows: list[dict], y: float) -> None:
    """The final ranking under the board: rank, player, score (the text report has every line of it)."""
    sheet.text(0, y + 14, pgettext("picture", "Final ranking"), size=13, bold=True)
    for i, row in enumerate(rows):
        line = y + 38 + i * 22
        sheet.text(0, line, f"{row['rank']}.", bold=True)
        sheet.token(row["player"], 34, line - 4)
        # TRANSLATORS: a line of the final ranking drawn under the board: a player and their score (a number)
        sheet.text(48, line, pgettext("picture", "{player}: {score}", player=row["player"], score=row["score"]))


def draw_legend(legend: Sheet, sheet: Sheet, width: float) -> float:
    """The seats, then every mark the game used, flowing in lines across `width`; the height taken."""
    # TRANSLATORS: in a picture's legend, beside the mark of the seat of the player whose view it is
    entries = [(("seat", p), _("{player} (you)", player=p) if p == sheet.viewer else p) for p in sheet.players]
    entries += list(sheet.legend)
    legend.text(0, 12, pgettext("picture", "Legend"), size=12, bold=True)
    x, y = 0.0, 32.0
    for spec, words in ((spec, label(words)) for spec, words in entries):
        needed = sample_width(spec) + 6 + text_width(words, 11) + 18
        if x and x + needed > width:
            x, y = 0.0, y + 22
        x += legend.sample(spec, x, y) + 6
        legend.text(x, y + 4, words, size=11)
        x += text_width(words, 11) + 18
    return y + 12


def svg(doc: dict) -> str:
    from . import svgout
    return svgout.drawing(picture(doc)).as_svg()


def svg_inline(doc: dict) -> str:
    """The SVG element alone, to put inside an HTML page."""
    from . import svgout
    return svgout.drawing(picture(doc)).as_svg(header="")


def png(doc: dict, scale: float = 1.0, words: bool = True) -> bytes:
    """The picture drawn by Pillow (the `pictures` extra: pip install 'pbem[pictures]'), as a palette PNG."""
    try:
        from . import raster
    except ImportError:
        raise UsageError("a PNG needs Pillow: pip install 'pbem[pictures]' (SVG and HTML need nothing more)") from None
    return raster.png(picture(doc, words), scale)


def mail_picture(doc: dict) -> tuple[bytes, int]:
    """The picture a mail carries, and its width in pixels: the PNG at 1×, its title and status left to the
    mail's HTML (a thin rule in the title band's colour instead), so the words read at any zoom and the image is
    smaller."""
    from . import raster
    drawn = picture(doc, words=False)
    return raster.png(drawn), math.ceil(drawn.width)


# ----------------------------------------------------------------------------------------------------------------
# HTML pages (jinja2 templates in pbem/text/templates, every value escaped; the pages extend page.html, the mail part
# stands alone with inline styles, as mail clients want)


@functools.lru_cache(maxsize=None)
def templates():
    """The pages' templates, loaded once a process (a mail batch renders one page a mail)."""
    import jinja2
    import markupsafe

    from ..store import packaged
    from . import htmltext

    def load(name):
        return packaged.read_bytes("pbem.text", f"templates/{name}").decode("utf-8")
    env = jinja2.Environment(loader=jinja2.FunctionLoader(load), autoescape=True, keep_trailing_newline=True)
    env.globals["report_css"] = markupsafe.Markup(htmltext.CSS)  # pbem's own: in <style>, &#39; would not read as '
    return env


def page(doc: dict, now=None, back: str | None = None, links: list[dict] | None = None) -> str:
    """A page with the picture (inline SVG) and the whole report under it (its tables as HTML tables, its prose
    reflowing: pbem.text.htmltext); no script, no remote resource. The picture fills the page's width but is never
    drawn smaller than its own size, at which its words read: on a narrower screen it scrolls sideways in its box."""
    import markupsafe

    from . import htmltext, report, svgout
    title, status = headline(doc)
    drawn = picture(doc)
    return rendered_page("board.html", title=title, status=status,
                         picture=markupsafe.Markup(svgout.drawing(drawn).as_svg(header="")),
                         legible=math.ceil(drawn.width),
                         report=markupsafe.Markup(htmltext.body(report.status_text(doc, now))), back=back,
                         links=links or [], words={"back": _("← all games"),
                                                   "in_words": _("The position in words")})


MAIL_PAGE = "mail.html"
FIELD = re.compile(r"\{\{ (\w+) \}\}")  # a field of a template that holds nothing else (mail.html)


@functools.lru_cache(maxsize=None)
def _fields_only(name: str) -> str:
    from ..store import packaged
    return packaged.read_bytes("pbem.text", f"templates/{name}").decode("utf-8")


def mail_page(**values) -> str:
    """The HTML part of a turn mail (templates/mail.html, which holds fields and nothing else), each field escaped
    as the pages' jinja2 environment escapes it (markupsafe's escape; Markup is left as it is). A mail batch need
    not import jinja2 for it, a sixth of what a process's first mail costs; a test checks the page is jinja2's."""
    import markupsafe

    from . import htmltext
    values = {"report_css": markupsafe.Markup(htmltext.CSS), **values}  # (as the pages' environment has it)
    return FIELD.sub(lambda field: str(markupsafe.escape(values[field.group(1)])), _fields_only(MAIL_PAGE))


def rendered_page(name: str, **values) -> str:
    """A page of the templates in the language being read, which its `<html lang>` names."""
    from .language import current_code
    return templates().get_template(name).render(lang=current_code(), **values)


def markdown_cell(text) -> str:
    """A value in a Markdown table cell: its pipes escaped, on one line."""
    return " ".join(str(text).split()).replace("|", "\\|")


def readme_words(status: str) -> dict[str, str]:
    """The words of a game repository's README (templates/README.md), in the language being read."""
    from ..messages import _, pgettext
    return {"picture": _("The position: {status}", status=status),
            "ranking": _("Final ranking"), "recent": _("Last moves"), "position": _("The position in words"),
            "rank": pgettext("table heading", "rank"), "player": pgettext("table heading", "player"),
            "score": pgettext("table heading", "score"), "moves": pgettext("table heading", "moves"),
            # TRANSLATORS: the last paragraph of a game repository's page; the command is typed as it is.
            "footer": _("This page and `board.svg` are written by the referee with every refereed commit, from the "
                        "public files (a player's own view, with their hand, is in `views/`, encrypted to them: "
                        "`pbem git view --as NAME --format html`).")}


def bot_seat_line(player: str, level: str) -> str:
    """A seat the referee's bot plays, at its level as it plays (`greedy`, `search:16`), in the language being
    read (the level's word is the one `--bot` takes, so it is said in words too)."""
    from ..messages import _, ngettext
    kind, _colon, budget = level.partition(":")
    if kind == "search" and budget.isdigit():
        # TRANSLATORS: a line of a game repository's page; "search" is the level as the organiser wrote it.
        return ngettext("{player} is played by the referee's bot, at the level search ({count} simulation a "
                        "decision).", "{player} is played by the referee's bot, at the level search ({count} "
                        "simulations a decision).", int(budget), player=player, count=int(budget))
    if kind == "random":
        return _("{player} is played by the referee's bot, at the level random (a legal move drawn at random).",
                 player=player)
    return _("{player} is played by the referee's bot, at the level greedy (the game's own player, one move "
             "ahead).", player=player)


def repository_files(doc: dict, now=None, bots: dict[str, str] | None = None) -> dict[str, bytes]:
    """`board.svg` and `README.md` for a game's repository (the hosting's page of the repository shows the README):
    the public picture, and the position as Markdown: who is to act and until when, the seats the referee's bots
    play (`bots`: {seat: level}), the last moves and the final ranking as tables, the whole text report. `doc` is
    the public status document."""
    import jinja2

    from ..messages import _
    from ..store import packaged
    from . import report
    from .botwords import player_cell
    from .phrases import moves_text
    title, status = headline(doc)
    clock_lines = []
    if doc.get("clock") and not doc["finished"]:
        from .times import summary_lines
        clock_lines = summary_lines(doc["clock"], doc["decision"]["player"], None)
    recent = [{"number": e["number"],
               "player": markdown_cell(player_cell(e)),
               "moves": markdown_cell(moves_text(e["moves"], doc["game"]))} for e in doc.get("recent") or []]
    ranking = [{"rank": r["rank"], "player": markdown_cell(r["player"]), "score": r["score"]}
               for r in doc.get("ranking") or []] if doc["finished"] else []
    template = jinja2.Environment(autoescape=False, keep_trailing_newline=True).from_string(
        packaged.read_bytes("pbem.text", "templates/README.md").decode("utf-8"))
    readme = template.render(title=markdown_cell(title), status=markdown_cell(status), clock=clock_lines,
                             bots=[bot_seat_line(seat, level) for seat, level in (bots or {}).items()],
                             recent=recent, ranking=ranking, words=readme_words(markdown_cell(status)),
                             report=report.status_text(doc, now).replace("```", "'''"))
    return {"board.svg": svg(doc).encode("utf-8"), "README.md": readme.encode("utf-8")}
