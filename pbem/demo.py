"""`pbem demo`: a whole game played by seeded random bots through the real referee.

Each bot move goes the way a player's does: a move file is built, signed with the player's secret, parsed and
checked, and submitted; the files are written as in any game. The same seed gives the same game as
`pbem.playout.play(..., seed=S, bot_seed=S, game_id=ID)`.
"""
from __future__ import annotations

import random
import shutil
import tempfile
from pathlib import Path

from . import bots, engine, movefile, registry, report

NAMES = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"]
MAX_MOVES = 20000


def bot_turn(gd: engine.GameDir, secrets: dict[str, str], rnd: random.Random) -> dict:
    """One decision of whoever must act, submitted as a signed move file."""
    env = engine.load_state(gd)
    pending = gd.game.rules.pending(env["state"])
    player = pending["player"]
    move = bots.choose(gd.game.rules.legal_moves(env["state"], player), rnd)
    doc = movefile.build(gd.id, env["move_number"], player, [gd.game.format_move(move)], secrets[player])
    doc = movefile.parse(movefile.dumps(doc), f"{player}'s move file")
    return engine.submit(gd, player, doc["moves"], by="player", move_number=doc["move_number"],
                         signature=doc["signature"])


def run(game_type: str, players: int | None, seed: str, options: dict, directory, every: int, echo) -> dict:
    game = registry.get(game_type)
    count = players or game.min_players
    temporary = directory is None
    root = Path(tempfile.mkdtemp(prefix="pbem-demo-")) if temporary else None
    path = root / f"demo-{game.id}" if temporary else Path(directory)
    try:
        created = engine.create(game.id, path, [(name, None) for name in NAMES[:count]], seed=seed, options=options)
        gd = engine.open_game(path)
        secrets = {p["name"]: p["secret"] for p in created["players"]}
        echo(report.status_text(engine.status(gd)))
        rnd = random.Random(seed)
        for _ in range(MAX_MOVES):
            result = bot_turn(gd, secrets, rnd)
            chance = "".join(f"  [{c['what']}: {c['result']}]" for c in result["chance"])
            echo(f"#{result['number']} {result['player']}: {'; '.join(result['public_moves'])}{chance}")
            if result["finished"]:
                break
            if every and result["number"] % every == 0:
                echo("\n" + report.status_text(engine.status(gd)))
        else:
            raise RuntimeError(f"the demo game did not end within {MAX_MOVES} moves")
        final = engine.status(gd)
        echo("\n" + report.status_text(final))
        checked = engine.verify(gd)
        echo(f"Verified: {checked['moves']} moves replayed from the revealed seed; files identical.")
        if not temporary:
            echo(f"The game is in {path}.")
        return final
    finally:
        if temporary:
            shutil.rmtree(root, ignore_errors=True)
