"""A picture as SVG, built with drawsvg from the marks of its Sheets: the vector back-end beside the raster one
(pbem.text.raster), for `pbem board --format svg`, the HTML pages and a game repository's board.svg."""
from __future__ import annotations

import drawsvg as draw

from .sheet import font_family, polygon_points


def rect(x, y, w, h, fill, stroke, width, dash, rx):
    return draw.Rectangle(x, y, w, h, fill=fill, stroke=stroke, stroke_width=width, rx=rx, stroke_dasharray=dash)


def line(x1, y1, x2, y2, stroke, width, dash):
    return draw.Line(x1, y1, x2, y2, stroke=stroke, stroke_width=width, stroke_dasharray=dash)


def shape(kind, x, y, r, fill, stroke, width):
    if kind == "circle":
        return draw.Circle(x, y, r, fill=fill, stroke=stroke, stroke_width=width)
    return draw.Lines(*polygon_points(kind, x, y, r), close=True, fill=fill, stroke=stroke, stroke_width=width)


def text_element(family: str):
    def text(x, y, words, size, anchor, bold, fill):
        return draw.Text(words, size, x, y, fill=fill, text_anchor=anchor, font_family=family,
                         font_weight="bold" if bold else None)
    return text


def drawing(picture) -> draw.Drawing:
    """The picture (pbem.text.pictures.Picture) as a drawsvg Drawing: each sheet a group, moved to its place."""
    makers = {"rect": rect, "line": line, "shape": shape, "text": text_element(font_family())}
    d = draw.Drawing(picture.width, picture.height, id_prefix="pbem")
    d.append_title(picture.title)
    for dx, dy, sheet in picture.layers:
        group = draw.Group(transform=f"translate({dx},{dy})") if dx or dy else draw.Group()
        for mark in sheet.marks:
            group.append(makers[mark[0]](*mark[1:]))
        d.append(group)
    return d
