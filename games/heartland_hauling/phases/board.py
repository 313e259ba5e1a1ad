"""The map: cells named like a chess board (column letter, row number; north is row 1), the cards on them, the
truck stops beside them, and the edges between neighbours with their road features (the alternate-route side).

The frame is fixed at setup, with room around the layout for every card that may still be placed next to it (the
removed locations of a 3-player game, the truck stops), so a cell's name never changes during a game.
"""
from __future__ import annotations

import string
from functools import lru_cache

from .common import CENTRE

DIRECTIONS = {"n": (-1, 0), "e": (0, 1), "s": (1, 0), "w": (0, -1)}
OPPOSITE = {"n": "s", "s": "n", "e": "w", "w": "e"}


def cell_name(row: int, col: int) -> str:
    return f"{string.ascii_lowercase[col]}{row + 1}"


def cell_coords(cell: str) -> tuple[int, int]:
    return int(cell[1:]) - 1, string.ascii_lowercase.index(cell[0])


def neighbour(state: dict, cell: str, direction: str) -> str | None:
    """The cell next to `cell` in that direction, None at the frame's border."""
    frame = state["map"]["frame"]
    return step(cell, direction, frame["rows"], frame["cols"])


@lru_cache(maxsize=4096)
def step(cell: str, direction: str, rows: int, cols: int) -> str | None:
    """neighbour() in a frame of that size (a few hundred cells: the search's rollouts ask millions of times)."""
    row, col = cell_coords(cell)
    dr, dc = DIRECTIONS[direction]
    row, col = row + dr, col + dc
    if 0 <= row < rows and 0 <= col < cols:
        return cell_name(row, col)
    return None


def neighbours(state: dict, cell: str) -> list[tuple[str, str]]:
    """(direction, cell) for each orthogonal neighbour inside the frame."""
    found = []
    for direction in DIRECTIONS:
        other = neighbour(state, cell, direction)
        if other is not None:
            found.append((direction, other))
    return found


def all_cells(state: dict) -> list[str]:
    frame = state["map"]["frame"]
    return [cell_name(r, c) for r in range(frame["rows"]) for c in range(frame["cols"])]


def card_at(state: dict, cell: str) -> str | None:
    """The location id, CENTRE, or None for a cell without a card (a truck stop is not a card of the map)."""
    return state["map"]["cells"].get(cell)


def location_cell(state: dict, location: str) -> str | None:
    return next((c for c, card in state["map"]["cells"].items() if card == location), None)


def centre_cell(state: dict) -> str:
    return location_cell(state, CENTRE)


def stop_at(state: dict, cell: str) -> dict | None:
    return next((s for s in state["truck_stops"] if s["cell"] == cell), None)


def is_space(state: dict, cell: str) -> bool:
    """A space a truck may drive through: a card of the map or a truck stop still on the table."""
    return card_at(state, cell) is not None or stop_at(state, cell) is not None


def is_location(state: dict, cell: str) -> bool:
    card = card_at(state, cell)
    return card is not None and card != CENTRE


def edge_feature(state: dict, cell: str, direction: str) -> str | None:
    """The road feature on the edge leaving `cell` that way: printed on this card's alternate side, or on the
    neighbour's facing edge (two alternate sides are never adjacent, so at most one of them has one)."""
    for card_cell, edge in ((cell, direction), (neighbour(state, cell, direction), OPPOSITE[direction])):
        card = card_at(state, card_cell) if card_cell else None
        if card in state["map"]["alternate"]:
            feature = state["components"]["locations"][card]["alternate"].get(edge)
            if feature:
                return feature
    return None


def empty_cells_next_to(state: dict, cells: list[str]) -> list[str]:
    """Cells without a card or a truck stop that touch one of `cells` orthogonally, in frame order."""
    near = {other for cell in cells for _, other in neighbours(state, cell)}
    return [c for c in all_cells(state) if c in near and not is_space(state, c)]


def connected(state: dict, cells: list[str], closed_edges: bool = True) -> bool:
    """Can a truck get from any of these cells to any other (through cards of the map, closed roads respected)?"""
    if not cells:
        return True
    wanted, seen, todo = set(cells), {cells[0]}, [cells[0]]
    while todo:
        cell = todo.pop()
        for direction, other in neighbours(state, cell):
            if other in seen or other not in wanted:
                continue
            if closed_edges and edge_feature(state, cell, direction) == "closed":
                continue
            seen.add(other)
            todo.append(other)
    return seen == wanted


def parse_layout(rows: list[str]) -> tuple[list[tuple[int, int]], tuple[int, int] | None]:
    """The location slots and the centre's slot of a layout drawing (`#`, `W`)."""
    slots, centre = [], None
    for r, line in enumerate(rows):
        for c, mark in enumerate(line):
            if mark == "#":
                slots.append((r, c))
            elif mark == "W":
                centre = (r, c)
    return slots, centre


def layout_connected(rows: list[str]) -> bool:
    """Every card of a layout drawing reachable from every other, orthogonally."""
    cards = {(r, c) for r, line in enumerate(rows) for c, mark in enumerate(line) if mark in "#W"}
    if not cards:
        return False
    start = next(iter(cards))
    seen, todo = {start}, [start]
    while todo:
        r, c = todo.pop()
        for dr, dc in DIRECTIONS.values():
            other = (r + dr, c + dc)
            if other in cards and other not in seen:
                seen.add(other)
                todo.append(other)
    return seen == cards


def route_end(cell: str, route: list[str]) -> str:
    """The cell a route leads to (no check: the route comes from a legal move)."""
    row, col = cell_coords(cell)
    for direction in route:
        dr, dc = DIRECTIONS[direction]
        row, col = row + dr, col + dc
    return cell_name(row, col)
