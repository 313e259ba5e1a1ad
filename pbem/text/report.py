"""Text reports: a header, the game's own part (players, board; built from a view only), who must act, the last
moves, and the final ranking with every line of its calculation."""
from __future__ import annotations

import textwrap

from ..store import registry
from ..tables import fit_lines, table, tabulate


def _moves_line(entry: dict) -> str:
    chance = "; ".join(f"{c['what']}: {c['result']}" for c in entry["chance"])
    reason = f"  ({entry['reason']})" if entry.get("reason") else ""
    return "; ".join(entry["moves"]) + (f"  [{chance}]" if chance else "") + reason


def recent_moves(entries: list[dict]) -> str:
    rows = [(entry["number"], entry["player"] + (" (referee)" if entry["by"] == "referee" else ""),
             _moves_line(entry)) for entry in entries]
    return table(rows, headers=["#", "player", "moves"], tablefmt="simple", keep=2)


SINCE_START = "The moves so far (you have not sent one yet):"
SINCE_OWN_MOVE = "The moves since your last move:"
LEFT_OUT = "The last {shown} of the moves since your last move ({left_out} before them are in the game's log):"


def moves_heading(doc: dict) -> str:
    """What the table of moves holds: the last ones, or (a player's own report) those since their last move."""
    since = doc.get("since")
    if since is None or since["from"] == "recent":
        return "Last moves:"
    if since["left_out"]:
        return LEFT_OUT.format(shown=len(doc["recent"]), left_out=since["left_out"])
    return SINCE_OWN_MOVE if since["from"] == "own move" else SINCE_START


def ranking(rows: list[dict]) -> str:
    detail_keys = []
    for row in rows:
        detail_keys += [key for key in row.get("details", {}) if key not in detail_keys]
    cells = [[row["rank"], row["player"], *[row.get("details", {}).get(key, "") for key in detail_keys], row["score"]]
             for row in rows]
    return table(cells, headers=["rank", "player", *detail_keys, "score"], tablefmt="simple", keep=2)


def status_text(doc: dict, now=None) -> str:
    """The whole report of a status document; `now` (a datetime) adds how far the due time is ("in 2 days")."""
    game = registry.get(doc["game"])
    viewer = doc.get("player")
    title = f"{doc['title']} — game {doc['id']} — move {doc['move_number']}"
    if viewer:
        title += f" — view of {viewer}"
    title = fit_lines(title)
    parts = [f"{title}\n{'=' * max(map(len, title.split(chr(10))))}", game.report.render(doc["view"], viewer).rstrip()]
    if doc["finished"]:
        over = f"Game over: {doc['ended']}." if doc.get("ended") else "Game over."
        parts += [f"{over} Final ranking:", ranking(doc["ranking"]),
                  f"Seed (revealed): {doc['seed']}  — commitment {doc['seed_commitment']}"]
    else:
        decision = doc["decision"]
        parts.append(f"To act: {decision['player']} — {decision['description']}")
        if doc.get("clock"):
            from .times import summary_lines
            parts.append("\n".join(summary_lines(doc["clock"], decision["player"], now)) or "No deadline now.")
        if doc.get("queue"):
            from .phrases import queue_lines
            parts.append("\n".join(["Your queue (played when its decisions come; only you see it):",
                                    *queue_lines(doc["queue"])]))
    if doc["recent"]:
        parts += [moves_heading(doc), recent_moves(doc["recent"])]
    return fit_lines("\n\n".join(parts)) + "\n"  # the games' tables fit; their prose is wrapped here


OPTIONS_COLUMN = 36  # the table's last column wraps, so that it stays within 100 characters


def games_table(games: list[registry.Game]) -> str:
    """The games in a table (options by name), then each game's options with what they do, one a line."""
    rows = [(game.id, game.title, f"{game.min_players}-{game.max_players}",
             textwrap.fill(", ".join(game.meta.get("options", {})), OPTIONS_COLUMN, break_on_hyphens=False) or "-")
            for game in games]
    parts = [tabulate(rows, headers=["id", "title", "players", "options"], tablefmt="simple")]
    for game in games:
        options = game.meta.get("options", {})
        if options:
            parts.append(f"{game.id} options (--option KEY=VALUE):\n" + "\n".join(
                option_lines(key, spec) for key, spec in options.items()))
    return "\n\n".join(parts) + "\n"


def option_lines(key: str, spec: dict, width: int = 100) -> str:
    """`  phase-cards=off|on (default off)` and its help below it, wrapped and indented."""
    head = f"  {key}={'|'.join(spec['choices'])} (default {spec['default']})"
    help_text = textwrap.fill(spec.get("help", ""), width, initial_indent=" " * 6, subsequent_indent=" " * 6)
    return head + ("\n" + help_text if help_text else "")
