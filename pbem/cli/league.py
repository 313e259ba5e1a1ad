"""`pbem league ROOT`: the standings and ratings of a club's finished games (pbem.clock.league), as text, JSON or
CSV; loaded only when it runs."""
from __future__ import annotations

import json

import click

from .options import FILE, FOLDER


@click.command()
@click.argument("root", metavar="ROOT", type=FOLDER)
@click.option("--file", "league_file", type=FILE, metavar="LEAGUE.yaml", help="Count only the games this league "
              "file lists (game directories under ROOT, by name), and show its name.")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "csv"]), default="text", show_default=True,
              help="Standings for people (text) or for other tools (json, csv).")
@click.option("--language", "language", metavar="CODE", help="The language of the text (en, fr, zh-Hant, zh-Hans; "
              "default: English).")
def league(root, league_file, fmt, language):
    """Standings of the finished games under ROOT, per title and overall: games, wins, shared first places,
    resignations and an OpenSkill rating per player (a player is known by their address or git key across
    games). A game not finished or not readable is left out with a note."""
    from ..clock import league as computing, leaguegames
    from ..text import language as languages, league as shown
    languages.use(languages.check(language) if language else None)
    listed = leaguegames.league_file(league_file) if league_file else None
    records, notes = leaguegames.read_games(root, listed["games"] if listed else None)
    result = computing.league(records)
    name = listed.get("name") if listed else None
    if fmt == "json":
        click.echo(json.dumps(shown.json_data(result, notes, name), indent=2, ensure_ascii=False))
    elif fmt == "csv":
        click.echo(shown.csv_text(result), nl=False)
        for line in shown.skipped_lines(notes, result["skipped"]):
            click.echo(line, err=True)
    else:
        click.echo(shown.text(result, notes, name), nl=False)
