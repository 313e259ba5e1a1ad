"""`pbem takeback DIR --as P`: a player asks to take back their last decision, or (`--agree`, `--decline`) answers
the takeback asked (pbem.clock.takebacks). Entered by the referee on the player's word, as `pbem move --text` is.
Loaded only when it runs."""
from __future__ import annotations

import click

from ..contract import UsageError
from ..messages import Message
from .options import AS_PLAYER, FORMAT, GAME_DIR, LANGUAGE, NOW, emit, opened


@click.command()
@GAME_DIR
@click.option("--as", "player", required=True, help="The player who asks, or who answers.", **AS_PLAYER)
@click.option("--agree", is_flag=True, help="Agree to the takeback another player asked.")
@click.option("--decline", is_flag=True, help="Decline it: the move stands.")
@NOW
@LANGUAGE
@FORMAT
def takeback(directory, player, agree, decline, now, language, fmt):
    """Ask to take back your last decision (every other player must agree before the deadline, and nothing may
    have been revealed by it or since), or answer such a request with --agree or --decline."""
    from ..clock import takebacks
    from ..text.takebacks import told
    if agree and decline:
        raise UsageError("give at most one of --agree and --decline")
    gd = opened(directory, player, language)
    if agree or decline:
        result = takebacks.answer(gd, player, agree, by="referee", now=now)
    else:
        result = takebacks.request(gd, player, by="referee", now=now)
    shown = {key: value.english() if isinstance(value, Message) else value for key, value in result.items()}
    emit(shown, fmt, lambda _: told(result))
