"""Text reports: a header, the game's own part (players, board; built from a view only), who must act, the last
moves, and the final ranking with every line of its calculation."""
from __future__ import annotations

import textwrap

from ..store import registry
from ..tables import WIDTH, fit_lines, table


def _moves_line(entry: dict) -> str:
    chance = "; ".join(f"{c['what']}: {c['result']}" for c in entry["chance"])
    reason = f"  ({entry['reason']})" if entry.get("reason") else ""
    return "; ".join(entry["moves"]) + (f"  [{chance}]" if chance else "") + reason


def recent_moves(entries: list[dict]) -> str:
    rows = [(entry["number"], entry["player"] + (" (referee)" if entry["by"] == "referee" else ""),
             _moves_line(entry)) for entry in entries]
    return table(rows, headers=["#", "player", "moves"], tablefmt="simple", keep=2)


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
        parts += ["Last moves:", recent_moves(doc["recent"])]
    return fit_lines("\n\n".join(parts)) + "\n"  # the games' tables fit; their prose is wrapped here


def games_table(games: list[registry.Game]) -> str:
    """The games in a table (options by name; its text columns wrap at their words to keep within 78 columns),
    then each game's options with what they do, one a line."""
    rows = [(game.id, game.title, f"{game.min_players}-{game.max_players}",
             ", ".join(game.meta.get("options", {})) or "-") for game in games]
    parts = [table(rows, headers=["id", "title", "players", "options"], tablefmt="simple")]
    for game in games:
        options = game.meta.get("options", {})
        if options:
            parts.append(f"{game.id} options (--option KEY=VALUE):\n" + "\n".join(
                option_lines(key, spec) for key, spec in options.items()))
    return "\n\n".join(parts) + "\n"


def option_lines(key: str, spec: dict, width: int = WIDTH) -> str:
    """`  phase-cards=off|on (default off)` and its help below it, wrapped and indented."""
    head = f"  {key}={'|'.join(spec['choices'])} (default {spec['default']})"
    help_text = textwrap.fill(spec.get("help", ""), width, initial_indent=" " * 6, subsequent_indent=" " * 6)
    return head + ("\n" + help_text if help_text else "")
