"""Shell completion (Click's `shell_complete`): game directories, the players of the game on the command line, the
game types. Enabled as the README says (`_PBEM_COMPLETE=bash_source pbem`)."""
from __future__ import annotations

import os
from pathlib import Path

from ..contract import PbemError
from ..engine import engine
from ..store import registry


def complete_game_dir(ctx, param, incomplete: str):
    """Game directories (those holding a game.yaml) and the folders that hold some (a games root, completed with a
    trailing /); the shell's own directory completion where there is neither."""
    from click.shell_completion import CompletionItem
    typed = Path(incomplete) if incomplete else Path(".")
    folder, prefix = (typed, "") if not incomplete or incomplete.endswith("/") else (typed.parent, typed.name)
    found = []
    try:
        children = sorted(folder.iterdir()) if folder.is_dir() else []
        for child in children:
            if not child.name.startswith(prefix) or (child.name.startswith(".") and not prefix.startswith(".")):
                continue
            if (child / engine.GAME).is_file():
                found.append(CompletionItem(str(child)))
            elif child.is_dir() and any((grand / engine.GAME).is_file() for grand in child.iterdir()):
                found.append(CompletionItem(f"{child}/"))
    except OSError:
        pass
    return found or [CompletionItem(incomplete, type="dir")]


def complete_player(ctx, param, incomplete: str):
    """The players of the game whose DIR is already on the command line. While an option's value is being
    completed Click has not parsed the words before it, so DIR is looked for among the words the shell passed."""
    from click.shell_completion import split_arg_string
    typed = split_arg_string(os.environ.get("COMP_WORDS", ""))[2:]
    directory = ctx.params.get("directory") or next(
        (word for word in typed if not word.startswith("-") and os.path.isfile(os.path.join(word, engine.GAME))), None)
    if not directory:
        return []
    try:
        players = engine.open_game(directory).players
    except (PbemError, OSError):
        return []
    return [name for name in players if name.startswith(incomplete)]


def complete_game_type(ctx, param, incomplete: str):
    return [game_id for game_id in registry.installed() if game_id.startswith(incomplete)]
