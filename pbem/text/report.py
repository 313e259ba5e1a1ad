"""Text reports: a header, the game's own part (players, board; built from a view only), who must act, the last
moves, and the final ranking with every line of its calculation; in the language being read (pbem.text.language:
the game's own texts from its catalogue, the moves in the reader's words)."""
from __future__ import annotations

from ..messages import OPTION_HELP, Domain, Words, _, joined, pgettext
from ..store import registry
from ..tables import WIDTH, fit_lines, table, wide, width, wrap
from .botwords import player_cell, reason_text


def game_text(game_type: str, text: str, context: str | None = None) -> str:
    """A text the game's meta.yaml or a stored document holds in English (a title, what a decision is), in the
    language being read: its msgid in the game's catalogue."""
    return Domain(game_type.replace("-", "_")).stored(text, context)


def _moves_line(entry: dict, domain: str) -> str:
    chance = chance_line(domain, entry["chance"])
    moves = "; ".join(Words(domain, move).render() for move in entry["moves"])
    said = reason_text(entry)
    reason = "  " + _("({reason})", reason=said) if said else ""
    return moves + (f"  [{chance}]" if chance else "") + reason


def moves_heading(doc: dict) -> str:
    """What the table of moves holds: the last ones, or (a player's own report) those since their last move."""
    since = doc.get("since")
    if since is None or since["from"] == "recent":
        return _("Last moves:")
    if since["left_out"]:
        return _("The last {shown} of the moves since your last move ({left_out} before them are in the game's "
                 "log):", shown=len(doc["recent"]), left_out=since["left_out"])
    if since["from"] == "own move":
        return _("The moves since your last move:")
    return _("The moves so far (you have not sent one yet):")


def recent_moves(entries: list[dict], game_type: str = "") -> str:
    domain = game_type.replace("-", "_")
    rows = [(entry["number"], player_cell(entry), _moves_line(entry, domain)) for entry in entries]
    return table(rows, headers=["#", _("player"), _("moves")], tablefmt="simple", keep=2)


RESIGNED = "resigned"  # the detail pbem.engine.documents adds to a resigned seat's row ("yes"): pbem's own words


def _detail(key: str, value, game_type: str = ""):
    return pgettext("score", "yes") if key == RESIGNED and value == "yes" else _score_cell(game_type)(key, value)


def ranking(rows: list[dict], game_type: str = "") -> str:
    detail_keys = []
    for row in rows:
        detail_keys += [key for key in row.get("details", {}) if key not in detail_keys]
    cells = [[row["rank"], row["player"], *[_detail(key, row.get("details", {}).get(key, ""), game_type)
                                            for key in detail_keys], row["score"]] for row in rows]
    # a game marks its own keys NP_("score", ...); the resigned column is pbem's
    shown = [pgettext("score", "resigned") if key == RESIGNED else game_text(game_type, key, "score")
             for key in detail_keys]
    return table(cells, headers=[_("rank"), _("player"), *shown, _("score")], tablefmt="simple", keep=2)


def headline(doc: dict) -> str:
    """`Coal Baron — game spring-cup — move 14 — view of alice`, underlined."""
    title = game_text(doc["game"], doc["title"])
    if doc.get("player"):
        text = _("{title} — game {game} — move {number} — view of {player}", title=title, game=doc["id"],
                 number=doc["move_number"], player=doc["player"])
    else:
        text = _("{title} — game {game} — move {number}", title=title, game=doc["id"], number=doc["move_number"])
    text = fit_lines(text)
    return f"{text}\n{'=' * max(map(width, text.split(chr(10))))}"


def status_text(doc: dict, now=None, turn_told: bool = False) -> str:
    """The whole report of a status document; `now` (a datetime) adds how far the due time is ("in 2 days");
    `turn_told`: its reader was told above that it is their turn and what to decide (a turn mail's first lines),
    so the report does not say who acts again."""
    game = registry.get(doc["game"])
    viewer = doc.get("player")
    parts = [headline(doc), game.report.render(doc["view"], viewer).rstrip()]
    if doc["finished"]:
        over = _("Game over: {reason}. Final ranking:", reason=doc["ended"]) if doc.get("ended") \
            else _("Game over. Final ranking:")
        parts += [over, ranking(doc["ranking"], doc["game"]),
                  _("Seed (revealed): {seed}  — commitment {commitment}", seed=doc["seed"],
                    commitment=doc["seed_commitment"])]
    else:
        decision = doc["decision"]
        if not turn_told:
            parts.append(_("To act: {player} — {decision}", player=decision["player"],
                           decision=game_text(doc["game"], decision["description"])))
        if doc.get("clock"):
            from .times import summary_lines
            parts.append("\n".join(summary_lines(doc["clock"], decision["player"], now)) or _("No deadline now."))
        if doc.get("takeback"):
            parts.append(takeback_line(doc["takeback"]))
        if doc.get("queue"):
            from .phrases import queue_lines
            parts.append("\n".join([_("Your queue (played when its decisions come; only you see it):"),
                                    *queue_lines(doc["queue"], game_type=doc["game"])]))
    if doc["recent"]:
        parts += [moves_heading(doc), recent_moves(doc["recent"], doc["game"])]
    return fit_lines("\n\n".join(parts)) + "\n"  # the games' tables fit; their prose is wrapped here


def takeback_line(asked: dict) -> str:
    """A takeback asked and not answered yet: by whom, of which move, who must still answer (and by when)."""
    from . import language, times
    waiting = ", ".join(asked["waiting"])
    if asked.get("until"):
        # TRANSLATORS: {waiting}: the players who have not answered; {until}: a date and time.
        return _("{player} asks to take back move {number}: waiting for the answer of {waiting}, until {until}.",
                 player=asked["by"], number=asked["of"], waiting=waiting,
                 until=language.when(times.parse_time(asked["until"])))
    return _("{player} asks to take back move {number}: waiting for the answer of {waiting}.", player=asked["by"],
             number=asked["of"], waiting=waiting)


def games_table(games: list[registry.Game]) -> str:
    """The games in a table (options by name; its text columns wrap at their words to keep within 78 columns),
    then each game's options with what they do, one a line, in the language being read (the options' names and
    values are what `--option` takes: they stay as they are)."""
    rows = [(game.id, game_text(game.id, game.title), f"{game.min_players}-{game.max_players}",
             ", ".join(game.meta.get("options", {})) or "-") for game in games]
    headers = [pgettext("table heading", "id"), pgettext("table heading", "title"),
               pgettext("table heading", "players"), pgettext("table heading", "options")]
    parts = [table(rows, headers=headers, tablefmt="simple")]
    for game in games:
        options = game.meta.get("options", {})
        if options:
            # TRANSLATORS: {game}: a game's id; `--option KEY=VALUE` is typed as it is.
            parts.append(_("{game} options (--option KEY=VALUE):", game=game.id) + "\n" + "\n".join(
                option_lines(game.id, key, spec) for key, spec in options.items()))
    return "\n\n".join(parts) + "\n"


def option_lines(game_type: str, key: str, spec: dict, columns: int = WIDTH) -> str:
    """`  phase-cards=off|on (default off)` and what the option does below it, wrapped and indented."""
    # TRANSLATORS: an option of `pbem games`; {option}={choices} is typed as it is (phase-cards=off|on).
    head = "  " + _("{option}={choices} (default {default})", option=key, choices="|".join(spec["choices"]),
                    default=spec["default"])
    said = game_text(game_type, spec["help"], OPTION_HELP) if spec.get("help") else ""
    help_text = "\n".join(wrap(said, columns, initial_indent=" " * 6, subsequent_indent=" " * 6,
                                break_long_words=wide(said)))
    return head + ("\n" + help_text if help_text else "")


def _score_cell(game_type: str):
    """How the game shows a cell of its final score, stored in English, in the language being read
    (`report.score_cell(key, value)`, optional: a cell of numbers needs none)."""
    shown = getattr(registry.get(game_type).report, "score_cell", None) if game_type else None
    return shown or (lambda key, value: value)


def chance_line(domain: str, chance: list[dict]) -> str:
    """A log entry's chance outcomes (`production roll, turn 4: 1, 5`), `; ` between them, in the reader's words."""
    return "; ".join(_("{what}: {result}", what=chance_text(domain, c["what"]) if domain else c["what"],
                       result=chance_result(domain, c["result"])) for c in chance)


def chance_result(domain: str, result) -> str:
    """What a chance outcome drew, in the reader's words: a card or a space by its name, a list (dice, a deck
    reshuffled) as the language lists things (`1, 5`; `玉米、豬隻`), never as the log's YAML holds it."""
    if isinstance(result, list):
        return joined(chance_result(domain, item) for item in result)
    if isinstance(result, str):
        return Words(domain, result).render() if domain else result
    return str(result)


def chance_text(domain: str, what: str) -> str:
    """What a chance outcome of the log was, in the language being read: its msgid in the game's catalogue, or,
    for a description that holds values (`production roll, turn 4`), the game report's `chance_text(what)`."""
    said = getattr(registry.get(domain.replace("_", "-")).report, "chance_text", None) if domain else None
    return said(what) if said else Domain(domain).stored(what, "chance")
