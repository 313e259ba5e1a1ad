"""Text tables for the reports: tabulate's "simple" and "plain" formats, without importing tabulate.

Importing tabulate (0.10) costs about as much as a whole `pbem status` should: it reads every installed
distribution's metadata to learn its own version. The reports' tables hold words and whole numbers, and for
those `tabulate` here gives exactly tabulate's text (a property test compares the two on random tables): a column of
whole numbers (or of text that reads as one) is right-aligned, any other column left-aligned and its cells
stripped, each column as wide as its widest cell and at least two wider than its header, two spaces between
columns, no space at the end of a line; "simple" draws a line of dashes under the header (above and below the
rows when there is no header). Any other cell (a number with a point or a thousands separator, true or false,
several lines, a colour code, a character that may be wide) goes to tabulate itself, so the text is always
tabulate's.
"""
from __future__ import annotations

FORMATS = ("simple", "plain")
MIN_PADDING = 2  # a header's column is at least this much wider than the header


class _Unsure(Exception):
    """A cell whose text only tabulate itself can say."""


def _narrow(text: str) -> bool:
    """One column per character, in tabulate's count and on a terminal (Latin letters, no control character)."""
    return text.isascii() and text.isprintable() or all(ord(c) < 0x250 and c.isprintable() for c in text)


def _is_whole_number(cell) -> bool:
    """Is the cell a number to tabulate, and a whole one (else: not a number, or _Unsure)?"""
    if type(cell) is int:
        return True
    if type(cell) is not str or not _narrow(cell) or cell in ("True", "False"):
        raise _Unsure
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
    width = max([least, *map(len, texts)])
    return [text.rjust(width) if numeric else text.ljust(width) for text in texts]


def _line(cells) -> str:
    return "  ".join(cells).rstrip()


def tabulate(rows, headers=(), tablefmt: str = "simple") -> str:
    """The text of tabulate.tabulate(rows, headers=headers, tablefmt=tablefmt), for the two formats."""
    rows, headers = [list(row) for row in rows], list(headers)
    try:
        if tablefmt not in FORMATS or not all(type(h) is str and _narrow(h) for h in headers):
            raise _Unsure
        columns = [list(column) for column in zip(*rows)] if rows else []
        if rows and (len({len(row) for row in rows}) != 1 or not columns or (headers and len(headers) != len(columns))):
            raise _Unsure  # ragged or empty rows, headers not one a column: tabulate pads them its own way
        numeric = [_column_is_numeric(column) for column in columns]
    except _Unsure:
        import tabulate as reference
        return reference.tabulate(rows, headers=headers, tablefmt=tablefmt)
    least = [len(h) + MIN_PADDING for h in headers] if headers else [0] * len(columns)
    if headers and not rows:
        columns, numeric = [[""] for _ in headers], [False] * len(headers)
    cells = [_aligned(column, right, minimum) for column, right, minimum in zip(columns, numeric, least)]
    widths = [len(column[0]) for column in cells]
    lines = []
    if headers:
        lines.append(_line(h.rjust(w) if right else h.ljust(w) for h, w, right in zip(headers, widths, numeric)))
    dashes = _line("-" * width for width in widths) if tablefmt == "simple" else None
    if dashes is not None:
        lines.append(dashes)
    lines += [_line(row) for row in zip(*cells)] if rows else []
    if dashes is not None and not headers:
        lines.append(dashes)
    return "\n".join(lines) if headers or rows else ""
