"""Text tables for the reports: tabulate's "simple" and "plain" formats, without importing tabulate; and the
helpers that fit a report to 78 columns, counting display columns (wcwidth), so that Chinese, which takes two
columns a character, aligns and wraps as well as English.

Importing tabulate (0.10) costs about as much as a whole `pbem status` should: it reads every installed
distribution's metadata to learn its own version. The reports' tables hold words and whole numbers, and for
those `tabulate` here gives exactly tabulate's text (a property test compares the two on random tables): a column of
whole numbers (or of text that reads as one) is right-aligned, any other column left-aligned and its cells
stripped, each column as wide as its widest cell (in display columns) and at least two wider than its header, two
spaces between columns, no space at the end of a line; "simple" draws a line of dashes under the header (above and
below the rows when there is no header). Any other cell (a number with a point or a thousands separator, true or
false, several lines, a control character or a colour code) goes to tabulate itself, so the text is always
tabulate's. wcwidth (what tabulate itself counts with) is imported only for a text that is not all Latin letters.
"""
from __future__ import annotations

FORMATS = ("simple", "plain")
MIN_PADDING = 2  # a header's column is at least this much wider than the header


class _Unsure(Exception):
    """A cell whose text only tabulate itself can say."""


# Characters one column wide on every terminal and in wcwidth's count, besides Latin letters: dashes, quotes,
# bullets and the ellipsis (U+2010-U+2027), the rest of the general punctuation but its invisible marks
# (U+2030-U+205E), arrows (U+2190-U+21FF). An English report is full of them ("—", "→"), and knowing them here
# spares a command the import of wcwidth's tables (a sixth of a move's time).
NARROW_PUNCTUATION = ((0x2010, 0x2028), (0x2030, 0x205F), (0x2190, 0x2200))


def _narrow_char(c: str) -> bool:
    code = ord(c)
    return c.isprintable() and (code < 0x250 or any(low <= code < high for low, high in NARROW_PUNCTUATION))


def _narrow(text: str) -> bool:
    """One column per character, in tabulate's count and on a terminal (Latin letters, common punctuation, no
    control character)."""
    return text.isascii() and text.isprintable() or all(map(_narrow_char, text))


_WIDTHS: dict[str, int] = {}  # each text's columns: a report's cells and words recur (a mail batch writes thousands)
_WIDTHS_MAX = 20000


def width(text: str) -> int:
    """The columns a text takes on a terminal (wcwidth's count: two for a Chinese character, none for a combining
    accent). A text with a control character counts one a character."""
    columns = _WIDTHS.get(text)
    if columns is None:
        columns = len(text) if _narrow(text) else _wide_width(text)
        if len(_WIDTHS) >= _WIDTHS_MAX:
            _WIDTHS.clear()
        _WIDTHS[text] = columns
    return columns


def _wide_width(text: str) -> int:
    from wcwidth import wcswidth
    columns = wcswidth(text)
    return columns if columns >= 0 else len(text)


def _printable_line(text: str) -> bool:
    """Printable text on one line, whose width wcwidth can tell (no control character, no escape)."""
    return text.isprintable()


def ljust(text: str, columns: int) -> str:
    return text + " " * (columns - width(text))


def rjust(text: str, columns: int) -> str:
    return " " * (columns - width(text)) + text


def _is_whole_number(cell) -> bool:
    """Is the cell a number to tabulate, and a whole one (else: not a number, or _Unsure)?"""
    if type(cell) is int:
        return True
    if type(cell) is not str or not _printable_line(cell) or cell in ("True", "False"):
        raise _Unsure
    if not _narrow(cell):
        if cell.strip().isascii():
            raise _Unsure  # spaces of other widths around a number: tabulate's own reading
        _not_a_number(cell)
        return False
    try:
        int(cell)
        return True
    except ValueError:
        pass
    try:
        float(cell)
    except ValueError:
        if "," in cell and not cell.strip("+-0123456789,."):
            raise _Unsure from None  # maybe a number with thousands separators (1,000)
        return False
    raise _Unsure  # a number with a point, an exponent, inf or nan


def _not_a_number(cell: str) -> None:
    """A wide text is text, unless Python reads it as a number (full-width digits): then tabulate decides."""
    for read in (int, float):
        try:
            read(cell)
        except ValueError:
            continue
        raise _Unsure


def _column_is_numeric(cells: list) -> bool:
    """A column of whole numbers (empty cells aside) is aligned right; one with any text left."""
    numeric = True
    for cell in cells:
        if cell is None or cell == "":
            continue
        numeric = _is_whole_number(cell) and numeric
    return numeric and any(cell is not None and cell != "" for cell in cells)


def _aligned(cells: list, numeric: bool, least: int) -> list[str]:
    texts = ["" if cell is None else str(cell) for cell in cells]
    if not numeric:
        texts = [text.strip() for text in texts]
    columns = max([least, *map(width, texts)])
    return [rjust(text, columns) if numeric else ljust(text, columns) for text in texts]


def _line(cells) -> str:
    return "  ".join(cells).rstrip()


def tabulate(rows, headers=(), tablefmt: str = "simple") -> str:
    """The text of tabulate.tabulate(rows, headers=headers, tablefmt=tablefmt), for the two formats."""
    rows, headers = [list(row) for row in rows], list(headers)
    try:
        if tablefmt not in FORMATS or not all(type(h) is str and _printable_line(h) for h in headers):
            raise _Unsure
        columns = [list(column) for column in zip(*rows)] if rows else []
        if rows and (len({len(row) for row in rows}) != 1 or not columns or (headers and len(headers) != len(columns))):
            raise _Unsure  # ragged or empty rows, headers not one a column: tabulate pads them its own way
        numeric = [_column_is_numeric(column) for column in columns]
    except _Unsure:
        import tabulate as reference
        return reference.tabulate(rows, headers=headers, tablefmt=tablefmt)
    least = [width(h) + MIN_PADDING for h in headers] if headers else [0] * len(columns)
    if headers and not rows:
        columns, numeric = [[""] for _ in headers], [False] * len(headers)
    cells = [_aligned(column, right, minimum) for column, right, minimum in zip(columns, numeric, least)]
    widths = [width(column[0]) for column in cells]
    lines = []
    if headers:
        lines.append(_line(rjust(h, w) if right else ljust(h, w) for h, w, right in zip(headers, widths, numeric)))
    dashes = _line("-" * columns for columns in widths) if tablefmt == "simple" else None
    if dashes is not None:
        lines.append(dashes)
    lines += [_line(row) for row in zip(*cells)] if rows else []
    if dashes is not None and not headers:
        lines.append(dashes)
    return "\n".join(lines) if headers or rows else ""


# ----------------------------------------------------------------------------------------------------------------
# Tables that fit a width: every report is read in 80-column mail programs and terminals

WIDTH = 78  # RFC 5322's advice for a line of mail; every text report keeps to it
NARROWEST = 10  # a wrapped text column keeps at least this many characters (or its header's width)


def widest(text: str) -> int:
    return max((width(line) for line in text.split("\n")), default=0)


def wrap(text: str, columns: int, **how) -> list[str]:
    """textwrap.wrap counting display columns (wcwidth's wrap, for a text that is not all Latin letters); `how`:
    textwrap's keywords. A word is never broken at a hyphen."""
    if _narrow(text):
        import textwrap
        return textwrap.wrap(text, columns, break_on_hyphens=False, **how)
    import wcwidth
    return wcwidth.wrap(text, columns, break_on_hyphens=False, **how)


def _wrapped(cell, columns: int) -> list[str]:
    """A cell's lines, broken between words only: a word may be one a player types (a space's or a card's name).
    Chinese, written without spaces, breaks between any two characters."""
    text = "" if cell is None else str(cell)
    if width(text) <= columns:
        return [text]
    return wrap(text, columns, break_long_words=wide(text)) or [""]


def _longest_word(column) -> int:
    """The widest word of a column's Latin text (the narrowest the column may be, its words kept whole)."""
    return max((width(word) for cell in column for word in ("" if cell is None else str(cell)).split()
                if not wide(word)), default=0)


def wide(text: str) -> bool:
    """Does the text hold a character two columns wide (Chinese)?"""
    return not _narrow(text) and any(width(c) > 1 for c in text)


def _column_widths(rows: list[list], headers: list) -> list[int]:
    columns = list(zip(*rows)) if rows else [[] for _ in headers]
    return [max([width(str(h)) + MIN_PADDING if headers else 0, *(width("" if c is None else str(c)) for c in column)])
            for h, column in zip(headers or [""] * len(columns), columns)]


def _wrap_rows(rows: list[list], headers: list, columns: int) -> list[list]:
    """Long text cells wrapped onto continuation rows (the other cells empty there), narrowing the widest text
    column first until the table fits or no text column can narrow further."""
    caps = _column_widths(rows, headers)
    numeric = [all(isinstance(c, int) or (isinstance(c, str) and c.strip().lstrip("-").isdigit()) or c in ("", None)
                   for c in column) for column in (zip(*rows) if rows else [])]
    cells = list(zip(*rows)) if rows else [[] for _ in caps]
    least = [max(NARROWEST, width(str(h)) + MIN_PADDING if headers else 0, _longest_word(column))
             for h, column in zip(headers or caps, cells)]
    while sum(caps) + 2 * (len(caps) - 1) > columns:
        narrowable = [i for i, cap in enumerate(caps) if not numeric[i] and cap > least[i]]
        if not narrowable:
            break
        widest_column = max(narrowable, key=lambda i: caps[i])
        caps[widest_column] -= 1
    wrapped = []
    for row in rows:
        cells = [_wrapped(cell, cap) if not numeric[i] else [cell] for i, (cell, cap) in enumerate(zip(row, caps))]
        for line in range(max(len(c) for c in cells)):
            wrapped.append([c[line] if line < len(c) else "" for c in cells])
    return wrapped


def _column_groups(rows: list[list], headers: list, columns: int, keep: int) -> list[list[int]]:
    """The columns after the first `keep`, in groups that fit beside those `keep` columns."""
    widths = _column_widths(rows, headers)
    base = sum(widths[:keep]) + 2 * keep
    groups, current, used = [], [], base
    for i in range(keep, len(widths)):
        if current and used + widths[i] > columns:
            groups.append(current)
            current, used = [], base
        current.append(i)
        used += widths[i] + 2
    return groups + ([current] if current else [])


def table(rows, headers=(), tablefmt: str = "simple", columns: int = WIDTH, keep: int = 1) -> str:
    """tabulate's text, fitted to `columns` columns: long text cells wrap onto continuation rows; a table still too
    wide is split into several, each repeating the first `keep` columns (the rows' names)."""
    rows, headers = [list(row) for row in rows], list(headers)
    text = tabulate(rows, headers, tablefmt)
    if widest(text) <= columns or not rows:
        return text
    text = tabulate(_wrap_rows(rows, headers, columns), headers, tablefmt)
    if widest(text) <= columns or len(rows[0]) <= keep + 1:
        return text
    parts = []
    for group in _column_groups(rows, headers, columns, keep):
        chosen = list(range(keep)) + group
        part_rows = [[row[i] for i in chosen] for row in rows]
        part_headers = [headers[i] for i in chosen] if headers else []
        parts.append(tabulate(_wrap_rows(part_rows, part_headers, columns), part_headers, tablefmt))
    return "\n\n".join(parts)


DESCRIBED = 120  # a legal move's description: whole in every language (French, the longest, runs to 111 columns)


def clip(text: str, columns: int = DESCRIBED) -> str:
    """At most `columns` display columns, cut at a word (Chinese, which has none, at a character) and marked "…"
    (a legal move's description beside its move: a bound on a game's text, which no description measured reaches;
    a mail's table wraps it onto three lines at most)."""
    if width(text) <= columns:
        return text
    cut = text[:columns - 2]
    while width(cut) > columns - 2:
        cut = cut[:-1]
    return (cut.rsplit(" ", 1)[0] if " " in cut else cut).rstrip(",;:") + " …"


def fit_lines(text: str, columns: int = WIDTH) -> str:
    """Every line wider than `columns` wrapped at its words (Chinese, which has no spaces, between characters),
    the continuation indented two more than the line (a table fitted with `table` never needs it: this is for
    prose)."""
    lines = []
    for line in text.split("\n"):
        if width(line) <= columns:
            lines.append(line)
            continue
        indent = line[:len(line) - len(line.lstrip())]
        lines += wrap(line.strip(), columns, initial_indent=indent, subsequent_indent=indent + "  ",
                      break_long_words=True) or [""]
    return "\n".join(lines)
