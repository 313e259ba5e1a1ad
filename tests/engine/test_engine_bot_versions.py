"""Each game's greedy bot declares its version (meta.yaml `bot_version`), which every `timeout (bot)` log entry records:
verify recomputes only an entry of this pbem's version (pbem.engine.verify). So a change to a bot must raise its
version. This test holds a fingerprint of each bot's choices — every move it makes in a few seeded games — next to
the version it belongs to: a bot that chooses otherwise fails here until its version is raised and the fingerprint
recorded again (a rule change that moves the games' positions does too: raising the version then costs nothing but a
note in the verification of games in progress)."""
from __future__ import annotations

import hashlib

import pytest

from pbem.play import playout
from pbem.store import registry
from support import NAMES, playable_games

FINGERPRINTS = {  # game: (bot_version, SHA-256 of the greedy seats' moves in the games below), first 16 digits
    "coal-baron": (2, "16cf0e307a10e404"),
    "gold-fever": (2, "cf957d86b004e1ae"),
    "chartered": (2, "f9270cadd167e559"),
    "heartland-hauling": (2, "08b0441fd290b83b"),
    "summit-race": (1, "c503c529203c6ddd"),  # the plug-in example (examples/plugin-game), when it is installed
}


def fingerprint(game: registry.Game) -> str:
    """The greedy bot's moves at the smallest table with the default options (every seat greedy) and at the largest
    with every option at its last choice (one greedy seat among random ones)."""
    digest = hashlib.sha256()
    last = {key: spec["choices"][-1] for key, spec in game.meta.get("options", {}).items()}
    tables = [(NAMES[:game.min_players], {}, None), (NAMES[:game.max_players], last, {NAMES[0]: "greedy"})]
    for players, options, seats in tables:
        try:
            playout.start(game, players, options, seed="bot-version")
        except Exception:  # an option this table may not take (Heartland's 3-player readings): the defaults
            options = {}
        seats = seats or {player: "greedy" for player in players}
        state = playout.start(game, players, options, seed="bot-version", game_id="bot-version")
        for player, move, _ in playout.steps(game, state, seed="bot-version", bot_seed=1, game_id="bot-version",
                                             seats=seats):
            if seats.get(player) == "greedy":
                digest.update(f"{player}: {game.format_move(move)}\n".encode())
    return digest.hexdigest()[:16]


@pytest.mark.parametrize("game", playable_games(), ids=lambda game: game.id)
def test_a_change_to_a_greedy_bot_raises_its_version(game):
    found = fingerprint(game)
    assert game.id in FINGERPRINTS, f"record {game.id}'s greedy bot here: ({game.bot_version}, {found!r})"
    version, recorded = FINGERPRINTS[game.id]
    assert (game.bot_version, found) == (version, recorded), (
        f"{game.id}'s greedy bot now chooses otherwise, or its version changed: raise bot_version in its meta.yaml "
        f"(verify then names the timeout moves of the earlier bot instead of recomputing them) and record "
        f"({game.bot_version}, {found!r}) here")
