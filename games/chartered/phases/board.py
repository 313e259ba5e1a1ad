"""The board's geometry: which companies a plot touches, how far the nearest company is, where one may be founded.

Plots are named by their number written as a string ("17"), the word the notation and the cards use. The board is
kept once, as the text map every view shows (`map`, with `links` for plots that touch without being side by side
on it); the rules read their adjacency from it. Each company lists its own plots with their floors
(`companies[c]["plots"]`: {"17": 2}). Every function here reads only those, so a club's board of any shape works.
"""
from __future__ import annotations

from collections import deque
from functools import lru_cache

from pbem.memo import Bounded


def draw_map(plots: list[dict]) -> tuple[list[str], list[str]]:
    """The board as text lines, from the components' plots (number, row, col, neighbours).

    Even lines are the board's rows: at each column a plot number or `~` (no plot), and between two columns `-`
    when those plots touch or `.` when they do not (a canal). Odd lines lie between two rows: at each column `|`
    when the plot above touches the plot below, else `.`. Plots that touch without being side by side on the
    map (a club's board may have such bridges) are listed apart as links, "a b"."""
    at = {(plot["row"], plot["col"]): plot["number"] for plot in plots}
    touching = {plot["number"]: set(plot["neighbours"]) for plot in plots}
    rows = range(max(row for row, _ in at) + 1)
    cols = range(max(col for _, col in at) + 1)
    drawn = set()

    def joint(a, b, mark):
        if a is not None and b is not None and b in touching[a]:
            drawn.add(frozenset((a, b)))
            return mark
        return "."

    lines = []
    for row in rows:
        cells = [at.get((row, col)) for col in cols]
        words = [str(cells[0]) if cells[0] is not None else "~"]
        for left, right in zip(cells, cells[1:]):
            words += [joint(left, right, "-"), str(right) if right is not None else "~"]
        lines.append(" ".join(words))
        if row + 1 in rows:
            lines.append(" ".join(joint(at.get((row, col)), at.get((row + 1, col)), "|") for col in cols))
    links = sorted({tuple(sorted((a, b))) for a, others in touching.items() for b in others
                    if frozenset((a, b)) not in drawn})
    return lines, [f"{a} {b}" for a, b in links]


def adjacency(state: dict) -> dict[str, tuple[str, ...]]:
    """Every plot with the plots it touches, read from the map and its links."""
    return read_map(tuple(state["map"]), tuple(state["links"]))


@lru_cache(maxsize=16)
def read_map(lines: tuple[str, ...], links: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    rows = [line.split() for line in lines[0::2]]
    joints = [line.split() for line in lines[1::2]]
    touching: dict[str, set[str]] = {}

    def join(a, b):
        touching[a].add(b)
        touching[b].add(a)
    for row in rows:
        touching.update({plot: set() for plot in row[0::2] if plot != "~"})
    for r, row in enumerate(rows):
        cells = row[0::2]
        for c, plot in enumerate(cells):
            if c + 1 < len(cells) and row[2 * c + 1] == "-":
                join(plot, cells[c + 1])
            if r + 1 < len(rows) and joints[r][c] == "|":
                join(plot, rows[r + 1][2 * c])
    for link in links:
        join(*link.split())
    return {plot: tuple(sorted(others, key=int)) for plot, others in sorted(touching.items(), key=lambda i: int(i[0]))}


def neighbours_of(state: dict, plot: str) -> tuple[str, ...]:
    return adjacency(state)[plot]


def owners(state: dict) -> dict[str, str]:
    """Every occupied plot with the company whose warehouse stands on it."""
    return {plot: company for company, data in state["companies"].items() for plot in data["plots"]}


def company_at(state: dict, plot: str) -> str | None:
    return next((company for company, data in state["companies"].items() if plot in data["plots"]), None)


def floors_at(state: dict, plot: str) -> int:
    company = company_at(state, plot)
    return state["companies"][company]["plots"][plot] if company else 0


def touching_companies(state: dict, plot: str) -> list[str]:
    """The companies with a warehouse on a plot next to this one, in the components' order of companies."""
    return list(placing(state).near(plot))


def companies_touching(companies: tuple[str, ...], occupied: dict[str, str], neighbours: tuple[str, ...]
                       ) -> list[str]:
    """Of `companies` (in their order), those with a warehouse (`occupied`: owners) on one of `neighbours`."""
    near = {occupied[n] for n in neighbours if n in occupied}
    return [company for company in companies if company in near]


def distances_from_companies(state: dict) -> dict[str, int]:
    """Steps from each plot to the nearest warehouse of a company (a breadth-first search from all of them)."""
    touching = adjacency(state)
    distance = {plot: 0 for plot in owners(state)}
    queue = deque(distance)
    while queue:
        plot = queue.popleft()
        for neighbour in touching[plot]:
            if neighbour not in distance:
                distance[neighbour] = distance[plot] + 1
                queue.append(neighbour)
    return distance


def clear_of_companies(state: dict, distance: dict[str, int], plot: str) -> bool:
    """French rules: at least `buffer` empty plots between a new company and every other one, so the nearest
    warehouse of a company is at least buffer + 1 steps away. A plot no company can reach is clear."""
    return plot not in distance or distance[plot] > state["values"]["buffer"]


def free_warehouse_plots(state: dict, plot: str, distance: dict[str, int] | None = None) -> list[str]:
    """The empty plots beside `plot` where a founder may put the company's free warehouses (each one clear of
    every company too, as the publisher's FAQ says of the whole new company). A clear plot is empty."""
    distance = distances_from_companies(state) if distance is None else distance
    return [n for n in neighbours_of(state, plot) if clear_of_companies(state, distance, n)]


def foundable_plots(state: dict) -> list[str]:
    """The empty plots where a company could be founded now: clear of every company, with enough empty clear
    plots beside them for the free warehouses, a company free to found and warehouses enough in the supply."""
    values = state["values"]
    if state["supply"] < 1 + values["free_warehouses"] or not free_companies(state):
        return []
    return list(placing(state).clear_plots(values["buffer"], values["free_warehouses"]))


def near_companies(touching: dict[str, tuple[str, ...]], occupied: dict[str, str], steps: int) -> set[str]:
    """The plots at most `steps` steps from a warehouse of a company (`occupied`: owners; those with
    distances_from_companies at most `steps`)."""
    near = set(occupied)
    edge = set(near)
    for _ in range(steps):
        edge = {n for plot in edge for n in touching[plot]} - near
        near |= edge
    return near


def free_companies(state: dict) -> list[str]:
    """Companies not on the board (never founded, or absorbed in a merger): any of them may be founded."""
    return [company for company, data in state["companies"].items() if data["hq"] is None]


# ------------------------------------------------------------------------------- one placing of the companies

class Placing:
    """What the rules and the views ask of one placing of the companies on one board (which plots each company
    holds, floors aside): the plots' owners, the companies touching a plot, a company's frontier and the plots
    clear for a founding, each found when first asked and kept. Every state with that placing shares it (the
    search's rollouts ask at every decision, and the board changes only when a warehouse is built). Its answers
    are read, never changed: touching_companies copies what it hands on."""

    def __init__(self, state: dict):
        self.touching = adjacency(state)
        self.companies = tuple(state["companies"])
        self.owners = owners(state)
        self._plots = {company: tuple(data["plots"]) for company, data in state["companies"].items()}
        self._near: dict[str, tuple[str, ...]] = {}
        self._frontiers: dict[str, str] = {}
        self._clear: dict[tuple[int, int], tuple[str, ...]] = {}

    def near(self, plot: str) -> tuple[str, ...]:
        """The companies touching the plot (touching_companies)."""
        if plot not in self._near:
            self._near[plot] = tuple(companies_touching(self.companies, self.owners, self.touching[plot]))
        return self._near[plot]

    def frontier(self, company: str) -> str:
        """The company's frontier: the empty plots next to it, where a warehouse expands it (or merges it with
        another), as the view writes them: in one string of numbers ("11 16 18")."""
        if company not in self._frontiers:
            edge = {n for plot in self._plots[company] for n in self.touching[plot] if n not in self.owners}
            self._frontiers[company] = " ".join(sorted(edge, key=plot_order))
        return self._frontiers[company]

    def clear_plots(self, buffer: int, free_warehouses: int) -> tuple[str, ...]:
        """The plots clear of every company with enough clear plots beside them (foundable_plots' geometry)."""
        key = (buffer, free_warehouses)
        if key not in self._clear:
            near = near_companies(self.touching, self.owners, buffer)
            self._clear[key] = tuple(plot for plot in self.touching if plot not in near
                                     and sum(n not in near for n in self.touching[plot]) >= free_warehouses)
        return self._clear[key]


# a board and its companies' plots -> its Placing (a search decision's rollouts make a few hundred)
PLACINGS = Bounded(4096)


def placing(state: dict) -> Placing:
    """The Placing of the state's companies on its board, made once for every state that has it."""
    key = (tuple(state["map"]), tuple(state["links"]),
           tuple((company, tuple(data["plots"])) for company, data in state["companies"].items()))
    return PLACINGS.get(key, lambda: Placing(state))


# Plots are listed by number (a plot is named by its number): `int` itself, without a function of ours around it (a
# rollout sorts plots at every decision).
plot_order = int


def plot_card_effect(floors: int, company: str | None, touching: list[str] | tuple[str, ...], can_found: bool,
                     max_floors: int) -> dict | None:
    """What playing a plot card does on that plot, or None when it cannot be played there now:
    stack a floor on a warehouse, found a company on an empty plot touching none, expand the one it touches,
    or merge the two or three it touches. Shared by the rules (from the state) and the report (from a view)."""
    if floors:
        return {"kind": "stack", "company": company} if floors < max_floors else None
    if not touching:
        return {"kind": "found"} if can_found else None
    if len(touching) == 1:
        return {"kind": "expand", "company": touching[0]}
    return {"kind": "merge", "companies": list(touching)}
