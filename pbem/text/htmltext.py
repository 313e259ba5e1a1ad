"""A text report (or a whole mail) as HTML that reads on a phone: its tables as HTML tables, its prose as paragraphs
that reflow, its lists of moves as two columns whose descriptions reflow, and what is drawn with characters (a
map, a table without a header line) kept as drawn in a box of its own that scrolls sideways on a narrow screen.

One source: the HTML is read from the text the report (or the mail) already is, so the two never disagree. The
text's shapes are pbem's own: a table has a header line over a line of dashes whose runs mark its columns, in
display columns (pbem.tables, tabulate's "simple" format: a Chinese character takes two), a wrapped line goes on
indented two more (pbem.tables.fit_lines), a list of moves is a heading ending in a colon over lines indented two,
each a move, two spaces and what it does (pbem.text.phrases.legal_lines). The look is a small style sheet (CSS) in
the page's head, which most mail programs read; the one style a narrow screen needs (a box that scrolls rather
than widen the page) is inline."""
from __future__ import annotations

import bisect
import functools
import itertools
import re

from .. import tables

DASHES = re.compile(r"^-+(?:  +-+)*$")
DRAWN = re.compile(r"\S {3,}\S|[|+]-|-[|+]|^\s*[|+]")  # columns of characters: a map, a table without dashes
NUMBER = re.compile(r"^-?\d+$")
HEADING_ENDS = (":", "：")  # a list's heading ends in a colon, Chinese's full-width one too
RIGHT = " class=n"  # a column of whole numbers, aligned right (an attribute value of one word needs no quotes)

# inline: without it a map would widen the page (a value without spaces needs no quotes)
SCROLL = "style=overflow-x:auto"
# The rest of the look, for a page's <style> (mail programs that drop it still show tables, paragraphs, a map),
# written without the spaces a browser skips: it goes in every turn mail. (A move, in <code>, is never broken.)
CSS = """
p{margin:0 0 6px}
table{margin:0 0 12px;border-collapse:collapse;font-size:15px}
th,td{text-align:left;vertical-align:top;padding:2px 10px 2px 0;border-bottom:1px solid #ddd}
.n{text-align:right}
pre,code{font-family:'DejaVu Sans Mono',Menlo,Consolas,monospace;font-size:13px;line-height:1.3}
pre{margin:0}
code{white-space:nowrap}
"""


def escape(text: str) -> str:
    """`text` safe in HTML between tags, as html.escape(text, quote=False) writes it (quotes are safe there: the
    HTML written here puts no text in an attribute): without importing the html module, whose table of 2,231
    named characters a mail never reads (a part of a mail batch's start: docs/performance.md, round eight)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def body(text: str) -> str:
    """The HTML of `text`: its blocks (split at blank lines) in order."""
    return "\n".join(block_html(block) for block in re.split(r"\n\s*\n", text.strip("\n")) if block.strip())


def block_html(block: str) -> str:
    """One block: its tables as tables, and what lies between them by its shape."""
    lines, out, start = block.split("\n"), [], 0
    i = 0
    while i < len(lines):
        if i + 1 < len(lines) and lines[i].strip() and DASHES.match(lines[i + 1]):
            end = table_end(lines, i + 1)
            out += [run_html(lines[start:i]), table_html(lines[i], lines[i + 1], lines[i + 2:end])]
            i = start = end
        else:
            i += 1
    out.append(run_html(lines[start:]))
    return "\n".join(part for part in out if part)


def spans(dashes: str) -> list[tuple[int, int]]:
    return [match.span() for match in re.finditer(r"-+", dashes)]


def between(line: str, start: int, end: int | None = None) -> str:
    """The characters of `line` from display column `start` to `end`: a Chinese character is two columns wide, as
    pbem.tables lays a table out (each character taken by the column it starts at)."""
    if tables.width(line) == len(line):
        return line[start:end]
    starts = character_columns(line)
    return line[bisect.bisect_left(starts, start):None if end is None else bisect.bisect_left(starts, end)]


@functools.lru_cache(maxsize=1024)
def character_columns(line: str) -> tuple[int, ...]:
    """The display column each character of `line` starts at (a table's row is cut at several)."""
    return tuple(itertools.accumulate((tables.width(character) for character in line[:-1]), initial=0))


def table_end(lines: list[str], dash_line: int) -> int:
    """The index after a table's last row: its rows have spaces wherever its dashes have gaps."""
    gaps = [(a, b) for (_, a), (b, _) in zip(spans(lines[dash_line]), spans(lines[dash_line])[1:])]
    end = dash_line + 1
    while end < len(lines) and lines[end].strip() and all(not between(lines[end], a, b).strip() for a, b in gaps):
        end += 1
    return end


def cells(line: str, columns: list[tuple[int, int]]) -> list[str]:
    """A row's cells: each column's characters (the last one to the end of the line)."""
    bounds = [(a, columns[i + 1][0] if i + 1 < len(columns) else None) for i, (a, _) in enumerate(columns)]
    return [between(line, a, b).strip() for a, b in bounds]


def table_html(header: str, dashes: str, rows: list[str]) -> str:
    """A table; a row whose first cell is empty goes on the row above (pbem.tables wraps a long cell so)."""
    columns = spans(dashes)
    merged: list[list[str]] = []
    for row in (cells(line, columns) for line in rows):
        if merged and not row[0]:
            merged[-1] = [f"{a} {b}".strip() for a, b in zip(merged[-1], row)]
        else:
            merged.append(row)
    numeric = [bool(column) and all(NUMBER.match(c) for c in column if c) and any(column)
               for column in zip(*merged)] if merged else [False] * len(columns)

    def cell(tag: str, text: str, right: bool) -> str:
        return f'<{tag}{RIGHT if right else ""}>{escape(text)}'  # (HTML closes a cell at the next)
    head = "".join(cell("th", text, right) for text, right in zip(cells(header, columns), numeric))
    body_rows = "".join("\n<tr>" + "".join(cell("td", text, right) for text, right in zip(row, numeric))
                        for row in merged)  # a line a row: the mail's HTML part stays in short lines (7bit)
    return f'<div {SCROLL}><table><tr>{head}{body_rows}</table></div>'


def logical_lines(lines: list[str]) -> list[str]:
    """Lines with their wrapped continuations (indented more than the line they go on) joined back: with a space,
    unless the line was broken between two Chinese characters (pbem.tables breaks Chinese anywhere, with no space
    to break at)."""
    out: list[str] = []
    for line in lines:
        indent = len(line) - len(line.lstrip())
        if out and indent > len(out[-1]) - len(out[-1].lstrip()):
            more = line.strip()
            out[-1] += ("" if tables.width(out[-1][-1:]) == 2 == tables.width(more[:1]) else " ") + more
        else:
            out.append(line.rstrip())
    return out


def run_html(lines: list[str]) -> str:
    """Lines between tables: prose first, then a list of moves or a drawing, whichever they are."""
    if not any(line.strip() for line in lines):
        return ""
    drawn = next((i for i, line in enumerate(lines) if DRAWN.search(line)), None)
    listed = next((i for i, line in enumerate(lines) if i and line.startswith("  ") and not line[2:3].isspace()
                   and lines[i - 1].rstrip().endswith(HEADING_ENDS)), None)  # the first item, under its heading
    if listed is not None and (drawn is None or drawn >= listed) and all(line.startswith("  ")
                                                                         for line in lines[listed:]):
        return prose_html(lines[:listed]) + list_html(lines[listed:])
    if drawn is None:
        return prose_html(lines)
    return prose_html(lines[:drawn]) + (f'<div {SCROLL}><pre>'
                                        f"{escape(chr(10).join(lines[drawn:]))}</pre></div>")


def prose_html(lines: list[str]) -> str:
    """Paragraphs, a line each; a line underlined with `=` (a report's title) a heading. A paragraph's end tag is
    left out: HTML ends it at the next paragraph, heading, table or box, or at the end of the page."""
    out = []
    for line in logical_lines(lines):
        if set(line.strip()) == {"="} and out:
            out[-1] = f"<h3>{out[-1].removeprefix('<p>')}</h3>"
        elif line.strip():
            out.append(f"<p>{escape(line.strip())}")
    return "\n".join(out)


def list_html(lines: list[str]) -> str:
    """Items indented two: the words before the first gap of two spaces (a move, as the player writes it, never
    broken: its <code> does not wrap) and what follows (its description, which reflows); a line each, cells
    closed by the next."""
    items = []
    for line in logical_lines(lines):
        term, _, what = line.strip().partition("  ")
        items.append(f"<tr><td><code>{escape(term)}</code><td>{escape(what.strip())}")
    return f'<div {SCROLL}><table>{chr(10).join(items)}</table></div>'
