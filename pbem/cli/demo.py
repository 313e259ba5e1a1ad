"""`pbem demo`: a whole game played by seeded random bots through the real referee.

Each bot move goes the way a player's does: a move file is built, signed with the player's secret, parsed and
checked, and submitted; the files are written as in any game. The same seed gives the same game as
`pbem.play.playout.play(..., seed=S, bot_seed=S, game_id=ID)`.

Nobody waits for a demo's files between its reports, so its turns are played in a Session (pbem.engine.session):
each is checked as any submission, and the files are written when a report is printed (--every N) and at the
end, each time as one transaction holding every turn since the last, which gives the files a turn-by-turn game
writes.
"""
from __future__ import annotations

import random
import shutil
import tempfile
from pathlib import Path

from .. import bots
from ..clock import correspondence
from ..contract import UsageError
from ..engine import verify
from ..engine.session import Session, session
from ..messages import _, ngettext
from ..play import levels, movefile
from ..store import gamedir, registry
from ..text import language as languages, phrases, report
from ..text.botwords import reason_text
from .options import note_greedy_instead

NAMES = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"]
MAX_MOVES = 20000


def bot_turn(table: Session, secrets: dict[str, str], rnd: random.Random, save_to: Path | None = None,
             bot: str | dict[str, str] = "random") -> dict:
    """One decision of whoever must act, made by a bot of level `bot` (or the player's level, {player: level})
    from that player's view and submitted as a signed move file (kept in `save_to` if given)."""
    game, state = table.gd.game, table.state
    player = game.rules.pending(state)["player"]
    level = bot if isinstance(bot, str) else bot[player]
    kind = bots.all_random_kind(game, rnd) if level == "random" else level
    view = game.rules.view(state, player) if kind != "random" else None  # the random bot looks at the moves only
    move = levels.decide(game, kind, view, game.rules.legal_moves(state, player), rnd,
                         gamedir.components_reader(table.gd))
    doc = movefile.build(table.gd.id, table.move_number, player, [game.format_move(move)], secrets[player])
    text = movefile.dumps(doc, "../schemas/move.schema.json")
    if save_to is not None:
        save_to.mkdir(exist_ok=True)
        (save_to / f"{doc['move_number']:04d}-{player}.yaml").write_text(text)
    doc = movefile.parse(text, f"{player}'s move file")
    return table.submit(player, doc["moves"], by="player", move_number=doc["move_number"],
                        signature=doc["signature"])


def seat_levels(game, bot: str | list[str], names: list[str]) -> str | dict[str, str]:
    """The demo's levels: one for every seat, or one a seat in seat order (as many as there are seats); each
    checked (an unknown level or a budget below 1: PbemError, exit 2)."""
    if isinstance(bot, str):
        levels.parse_level(bot)
        return bot
    if len(bot) != len(names):
        raise UsageError(f"--bots gives {len(bot)} levels for {len(names)} players: one a seat, in seat order")
    for level in bot:
        levels.parse_level(level)
    return dict(zip(names, bot))


def _line(entry: dict, game_type: str) -> str:
    """`#12 bob: take 2  [dice: 5]`, or `#13 carol (the referee: only legal move): pass`, in the reader's words."""
    number, player, reason = entry["number"], entry["player"], reason_text(entry)
    moves = phrases.moves_text(entry["moves"], game_type)
    if entry["chance"]:
        chance = report.chance_line(game_type.replace("-", "_"), entry["chance"])
        if reason:
            return _("#{number} {player} (the referee: {reason}): {moves}  [{chance}]", number=number,
                     player=player, reason=reason, moves=moves, chance=chance)
        return _("#{number} {player}: {moves}  [{chance}]", number=number, player=player, moves=moves,
                 chance=chance)
    if reason:
        return _("#{number} {player} (the referee: {reason}): {moves}", number=number, player=player,
                 reason=reason, moves=moves)
    return _("#{number} {player}: {moves}", number=number, player=player, moves=moves)


def run(game_type: str, players: int | None, seed: str, options: dict, directory, every: int, echo,
        stop_after: int | None = None, save_moves: bool = False, bot: str | list[str] = "random",
        language: str | None = None) -> dict:
    """Play a game by bots of level `bot` (or one level a seat, in seat order); `stop_after` leaves it in progress
    after that many moves; `save_moves` keeps each signed move file in DIR/moves/; `language`: the game's (the
    reports and the move lines in it)."""
    with languages.reading(language):
        return _run(game_type, players, seed, options, directory, every, echo, stop_after, save_moves, bot,
                    language)


def _run(game_type, players, seed, options, directory, every, echo, stop_after, save_moves, bot, language) -> dict:
    game = registry.get(game_type)
    count = game.min_players if players is None else players
    if not isinstance(bot, str) and players is None:
        count = len(bot)
    if not game.min_players <= count <= game.max_players:
        raise UsageError(f"--players {count}: {game.title} is for {game.min_players} to {game.max_players} players")
    if count > len(NAMES):
        raise UsageError(f"--players {count}: the demo has names for {len(NAMES)} players")
    bot = seat_levels(game, bot, NAMES[:count])
    note_greedy_instead(game, [bot] if isinstance(bot, str) else [*bot.values()])
    temporary = directory is None
    root = Path(tempfile.mkdtemp(prefix="pbem-demo-")) if temporary else None
    path = root / f"demo-{game.id}" if temporary else Path(directory)
    try:
        # made as `pbem new` makes a game (players without addresses): the example games are demos
        created = correspondence.create(game.id, path, [(name, None) for name in NAMES[:count]], seed=seed,
                                        options=options, language=language)
        gd = gamedir.open_game(path)
        secrets = {p["name"]: p["secret"] for p in created["players"]}
        with session(gd) as table:
            echo(report.status_text(table.status()))
            for entry in created["referee_moves"]:
                echo(_line(entry, game.id))
            rnd = random.Random(seed)
            for _turn in range(stop_after if stop_after is not None else MAX_MOVES):
                result = bot_turn(table, secrets, rnd, path / "moves" if save_moves else None, bot)
                echo(_line({**result, "moves": result["public_moves"]}, game.id))
                for entry in result["referee_moves"]:
                    echo(_line(entry, game.id))
                if result["finished"]:
                    break
                if every and result["number"] % every == 0:
                    table.write()
                    echo("\n" + report.status_text(table.status()))
            else:
                if stop_after is None:
                    raise RuntimeError(f"the demo game did not end within {MAX_MOVES} moves")
            table.write()
            final = table.status()
        echo("\n" + report.status_text(final))
        checked = verify.verify(gd)
        count = checked["moves"]
        if checked["finished"]:
            echo(ngettext("Verified: {count} move replayed from the revealed seed; files identical.",
                          "Verified: {count} moves replayed from the revealed seed; files identical.", count,
                          count=count))
        else:
            echo(ngettext("Verified: {count} move replayed from the seed; files identical.",
                          "Verified: {count} moves replayed from the seed; files identical.", count, count=count))
        if not temporary:
            echo(_("The game is in {path}.", path=path))
        return final
    finally:
        if temporary:
            shutil.rmtree(root, ignore_errors=True)
