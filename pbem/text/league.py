"""A league's standings as people and tools read them (the league itself is pbem.clock.league's): a text report
within 78 columns in the reader's language, JSON and CSV for others' tools (English keys, numbers unrounded), and
the site's page with each player's rating over time as a small chart drawn by drawsvg."""
from __future__ import annotations

import csv
import io

from ..messages import Message, _, ngettext, pgettext
from ..tables import fit_lines, table
from .botwords import bot_name
from .report import game_text

CSV_FIELDS = ("scope", "player", "games", "wins", "shared", "resigned", "rating", "mu", "sigma")
CHART_WIDTH, CHART_HEIGHT, CHART_MARGIN = 240, 64, 4


def headline(name: str | None, games: int) -> str:
    if name:
        return ngettext("{league}: {count} game", "{league}: {count} games", games, league=name, count=games)
    return ngettext("League of {count} game", "League of {count} games", games, count=games)


def labels() -> list[str]:
    return [_("player"), pgettext("league", "games"), pgettext("league", "wins"), pgettext("league", "shared"),
            pgettext("league", "resigned"), pgettext("league", "rating")]


def entrant(row: dict) -> str:
    """Whom a row of standings is: the player, or the referee's bot at its level in the reader's words."""
    return bot_name(row["bot"]) if row.get("bot") else row["player"]


def shown_rows(rows: list[dict]) -> list[dict]:
    return [{**row, "player": entrant(row)} for row in rows]


def standings_table(rows: list[dict]) -> str:
    """One table of standings: each player's games, wins, shared first places, resignations and rating."""
    cells = [[entrant(row), row["games"], row["wins"], row["shared"], row["resigned"], f"{row['rating']:.1f}"]
             for row in rows]
    return table(cells, headers=labels(), tablefmt="simple", keep=1)


def rating_note() -> str:
    return _("Rating: OpenSkill (Plackett-Luce), shown as mu - 3 sigma; it starts at 0.")


def heading(title: str, games: int) -> str:
    return ngettext("{title}: {count} game", "{title}: {count} games", games, title=title, count=games)


def section(title: str, games: int, rows: list[dict]) -> str:
    return fit_lines(heading(title, games)) + "\n" + standings_table(rows)


def skipped_lines(notes: list[tuple], twice: list[tuple[str, list[str]]]) -> list[str]:
    """One note a game left out, beginning with the game (a long one wrapped onto indented lines): why it was not
    read, or why it was read and not rated."""
    lines = [_("{game} skipped: {reason}", game=name, reason=reason) for name, reason in notes]
    lines += [_("{game} not rated: one person holds the seats {seats}", game=name, seats=", ".join(seats))
              for name, seats in twice]
    return [fit_lines(line) for line in lines]


def text(result: dict, notes: list[tuple], name: str | None = None) -> str:
    """The league as a text report: each title's standings, then all titles together, then what was left out."""
    parts = [fit_lines(headline(name, result["games"]))]
    for title in result["titles"]:
        parts.append(section(game_text(title["game"], title["title"]), title["games"], title["standings"]))
    if result["titles"]:
        parts.append(section(_("All titles"), result["overall"]["games"], result["overall"]["standings"]))
    else:
        parts.append(_("No finished game to rate."))
    parts.append(fit_lines(rating_note()))
    skipped = skipped_lines(notes, result["skipped"])
    if skipped:
        parts.append("\n".join(skipped))
    return "\n\n".join(parts) + "\n"


def json_data(result: dict, notes: list[tuple], name: str | None = None) -> dict:
    """The league for tools: the standings with μ, σ and the rating (μ − 3σ), each player's history."""
    return {"league": name, "games": result["games"], "titles": result["titles"], "overall": result["overall"],
            "history": {player: [{"game": game, "ended": ended, "rating": rating} for game, ended, rating in steps]
                        for player, steps in result["history"].items()},
            "skipped": [{"game": game, "reason": english(reason)} for game, reason in notes]
            + [{"game": game, "reason": "one person holds the seats " + ", ".join(seats)}
               for game, seats in result["skipped"]]}


def english(reason) -> str:
    """A note's reason for tools: English, whatever the reader's language."""
    return reason.english() if isinstance(reason, Message) else str(reason)


def csv_text(result: dict) -> str:
    """One row a player a scope (a game type's id, or `overall`)."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_FIELDS, lineterminator="\n", extrasaction="ignore")
    writer.writeheader()
    scopes = [(title["game"], title["standings"]) for title in result["titles"]]
    for scope, rows in scopes + [("overall", result["overall"]["standings"])]:
        for row in rows:
            writer.writerow({"scope": scope, **row})  # (a seat name starts with a letter: never a formula)
    return out.getvalue()


def chart(points: list[float], title: str) -> str:
    """A player's rating after each of their games as a small line chart (inline SVG, drawn by drawsvg)."""
    import drawsvg as draw
    d = draw.Drawing(CHART_WIDTH, CHART_HEIGHT, id_prefix="rating")
    d.append_title(title)
    d.append(draw.Rectangle(0, 0, CHART_WIDTH, CHART_HEIGHT, fill="#f7f7f7", stroke="#ccc"))
    low, high = min([0.0, *points]), max([0.0, *points])
    span = (high - low) or 1.0

    def y(value: float) -> float:
        return round(CHART_MARGIN + (high - value) / span * (CHART_HEIGHT - 2 * CHART_MARGIN), 1)

    step = (CHART_WIDTH - 2 * CHART_MARGIN) / max(len(points) - 1, 1)
    d.append(draw.Line(CHART_MARGIN, y(0.0), CHART_WIDTH - CHART_MARGIN, y(0.0), stroke="#bbb",
                       stroke_dasharray="3,3"))
    coordinates = [c for i, value in enumerate(points) for c in (round(CHART_MARGIN + i * step, 1), y(value))]
    if len(points) == 1:
        d.append(draw.Circle(coordinates[0], coordinates[1], 2.5, fill="#1f5fa8"))
    else:
        d.append(draw.Lines(*coordinates, close=False, fill="none", stroke="#1f5fa8", stroke_width=1.5))
    return d.as_svg(header="")


def page(result: dict, notes: list[tuple], name: str | None, back: str = "index.html") -> str:
    """The site's league page: the overall standings with each player's chart, then each title's standings."""
    import markupsafe

    from .pictures import rendered_page
    shown = {row["player"]: entrant(row) for row in result["overall"]["standings"]}
    charts = {shown.get(player, player): markupsafe.Markup(chart(
        [rating for _, _, rating in steps], _("Rating of {player} after each game", player=shown.get(player, player))))
        for player, steps in result["history"].items()}
    titles = [{"heading": heading(game_text(t["game"], t["title"]), t["games"]), "rows": shown_rows(t["standings"])}
              for t in result["titles"]]
    return rendered_page(
        "league.html", title=headline(name, result["games"]), overall=shown_rows(result["overall"]["standings"]),
        charts=charts,
        overall_heading=heading(_("All titles"), result["overall"]["games"]), titles=titles, labels=labels(),
        chart_label=_("rating after each game"), rating_note=rating_note(), nothing=_("No finished game to rate."),
        skipped=skipped_lines(notes, result["skipped"]), skipped_heading=_("Games left out"), back=back,
        back_label=_("all games"))
