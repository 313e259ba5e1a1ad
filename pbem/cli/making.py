"""`pbem new`, `pbem demo` and `pbem sign`: the commands that make a game, a game played by bots, or a signed move
file. They are loaded when one of them is run (pbem.cli.commands.LazyGroup): a move, the command run most, does
not build their options.
"""
from __future__ import annotations

import click

from ..contract import PbemError, UsageError
from ..engine import engine
from ..messages import _
from ..play import movefile
from ..store import registry
from ..text import phrases
from .options import (FILE, FOLDER, FORMAT, MOVE_NUMBER, NOW, bot_seats, club_options, complete_game_type,
                      deadline_options, deadlines_from, emit, note_greedy_instead, parse_languages, parse_options,
                      read_input, secret_from, sending, speak)


@click.command()
@click.argument("game_type", metavar="GAME", shell_complete=complete_game_type)
@click.argument("directory", metavar="DIR")
@click.option("--player", "players", multiple=True, required=True, metavar="NAME[:EMAIL]",
              help="A player, in seating order (clockwise); repeat for each.")
@click.option("--seed", help="The secret seed of decks and dice (default: random). Revealed when the game ends.")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="A variant or option; see `pbem games`.")
@click.option("--components", type=FILE, help="A club's own card and board data (YAML).")
@click.option("--organiser", metavar="EMAIL", help="The organiser's address: the referee's mail comes from it.")
@sending
@deadline_options
@click.option("--notify", "notify", multiple=True, metavar="[PLAYER=]every|turn|daily", help="How often players "
              "get mail: only when it is their turn (default; with what happened since), every move, or a daily "
              "digest (sent by `pbem tick`). Without PLAYER= for everyone; repeat for each player.")
@click.option("--language", "language", metavar="CODE", help="The game's language: what its players read unless "
              "they choose their own (en, the default; fr; zh-Hant; zh-Hans).")
@click.option("--player-language", "player_languages", multiple=True, metavar="PLAYER=CODE", help="A player's own "
              "language (they may change it later); repeat for each player.")
@click.option("--bot", "bots", multiple=True, metavar="PLAYER=LEVEL", help="Seat a bot, played at LEVEL (random, "
              "greedy, search, search:N for N simulations a decision), its moves logged as the bot's. Repeatable.")
@club_options
@NOW
@FORMAT
def new(game_type, directory, players, seed, options, components, organiser, smtp, outbox, smtp_user, starttls,
        deadline, reminder, on_timeout, timeout_bots, timeouts, vacation_days, notify, language, player_languages, bots,
        watchers, talk, now, fmt):
    """Start a game of GAME in DIR (DIR's name is the game's id) and print each player's secret.

    With --smtp or --outbox (and --organiser), each player with an address is also mailed a welcome: their
    password, how to move, and the position."""
    from ..clock import correspondence
    welcome = None
    if smtp or outbox:
        from ..mail import welcome as welcoming
        welcome = welcoming.prepare(organiser, smtp, outbox, smtp_user, starttls)
    seats = [correspondence.parse_player(p) for p in players]
    note_greedy_instead(registry.get(game_type), [*bots, *timeout_bots])
    language, languages = parse_languages(language, player_languages, [name for name, _ in seats])
    result = correspondence.create(game_type, directory, seats, seed=seed, options=parse_options(options),
                                   language=language, languages=languages,
                                   components_path=components, organiser=organiser,
                                   deadlines=deadlines_from(deadline, reminder, on_timeout, timeouts, vacation_days,
                                                            timeout_bots),
                                   notify=correspondence.parse_notify(notify, [name for name, _ in seats]),
                                   bots=bot_seats(bots), club_settings=(watchers, talk), now=now)
    failure = None
    if welcome is not None:
        result["welcomed"], failure = welcoming.send(engine.open_game(directory), welcome)

    emit(result, fmt, phrases.created)
    if failure is not None:  # the game exists and its passwords are printed above: say what is left to do
        raise PbemError(f"the game was created (the passwords are above), but the welcome mails were not sent: "
                        f"{failure}")


@click.command()
@click.argument("source", metavar="FILE|-", required=False)
@click.option("--secret", help="The player's secret (or PBEM_SECRET).")
@click.option("--secret-file", type=FILE, help="A file holding the secret.")
@click.option("--game", "game_id", help="With --text: the game id.")
@click.option("--move-number", type=MOVE_NUMBER, help="With --text: the move number this turn phrases.")
@click.option("--as", "player", metavar="PLAYER", help="With --text: the player.")
@click.option("--text", "text", metavar="MOVE", help="Write a new signed move file for this turn.")
@click.option("--queue", "for_queue", is_flag=True, help="Sign a queue sent without a move (for `pbem queue`): a "
              "signed move is never taken for a queue, nor the other way round.")
@click.option("--game-type", "game_type", metavar="GAME", shell_complete=complete_game_type, help="The game's "
              "type (its id in `pbem games`): moves written in a language's words are written and signed in its "
              "notation.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True), help="Where to write (default: "
              "FILE in place, or standard output; - for standard output).")
@click.option("--language", "language", metavar="CODE", help="Answer in this language (en, fr, zh-Hant, zh-Hans).")
def sign(source, secret, secret_file, game_id, move_number, player, text, for_queue, game_type, output, language):
    """Sign a move file with a player's secret (or write a new signed one with --text)."""
    from ..store import safefiles
    from ..notation import split_turn
    speak(None, None, language)
    secret = secret_from(secret, secret_file)
    game = registry.get(game_type) if game_type else None
    if text is not None:
        if source or None in (game_id, move_number, player):
            raise UsageError("with --text give --game, --move-number and --as, and no FILE")
        doc = movefile.build(game_id, move_number, player, split_turn(text), secret, queue=for_queue, game=game)
        movefile.parse(movefile.dumps(doc), "the new move file")
    elif source:
        data, size = read_input(source)
        doc = movefile.sign(movefile.parse(data, source, size), secret, queue=for_queue, game=game)
        output = output or (None if source == "-" else source)
    else:
        raise UsageError("give a move FILE (or -), or --text with --game, --move-number and --as")
    text_out = movefile.dumps(doc)
    if output and output != "-":
        safefiles.write_atomic(output, text_out)
        click.echo(_("signed {file}", file=output), err=True)
    else:
        click.echo(text_out, nl=False)


@click.command()
@click.argument("game_type", metavar="GAME", shell_complete=complete_game_type)
@click.option("--players", type=int, help="How many players (default: the game's minimum; `pbem games` lists "
              "each game's range).")
@click.option("--seed", default="demo", show_default=True, help="Seed of the decks, dice and bots.")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="A variant or option, as for "
              "`pbem new`; see `pbem games`.")
@click.option("--dir", "directory", type=FOLDER, help="Keep the game here (default: a "
              "temporary directory, removed afterwards).")
@click.option("--every", type=int, default=0, help="Print the full report every N moves (default: at the start and "
              "the end only; each move is printed on one line).")
@click.option("--moves", "stop_after", type=int, help="Stop after this many moves (a game in progress).")
@click.option("--save-moves", is_flag=True, help="Keep each signed move file in DIR/moves/ (with --dir).")
@click.option("--bot", default="greedy", show_default=True, metavar="LEVEL",
              help="Who plays every seat: the game's heuristic player (greedy), uniformly random legal moves "
                   "(random), or the search (search, or search:N for N simulations a decision).")
@click.option("--bots", metavar="LEVEL,LEVEL,...", help="One level a seat, in seat order (as many as --players; "
              "without --players, the game has that many): e.g. search,greedy,greedy.")
@click.option("--language", "language", metavar="CODE", help="The game's language, as for `pbem new`: the reports "
              "and the moves are printed in it (en, fr, zh-Hant, zh-Hans).")
def demo(game_type, players, seed, options, directory, every, stop_after, save_moves, bot, bots, language):
    """Play a whole game of GAME by bots through the referee, printing the reports and the final ranking."""
    from . import demo as demo_module
    if save_moves and not directory:
        raise UsageError("--save-moves needs --dir")
    levels = [level.strip() for level in bots.split(",")] if bots else bot
    language, _own = parse_languages(language, (), [])
    demo_module.run(game_type, players, seed, parse_options(options), directory, every, click.echo,
                    stop_after=stop_after, save_moves=save_moves, bot=levels, language=language)
