"""Each game's greedy bot declares its version (meta.yaml `bot_version`), which every `timeout (bot)` log entry
records: verify recomputes only an entry of this pbem's version (pbem.engine.verify). So a change to a bot must raise its
version. Each game keeps beside its version a fingerprint of its bot's choices (meta.yaml `bot_fingerprint`: every
move it makes in a few seeded games), which this test recomputes: a bot that chooses otherwise fails here until
its version is raised and the fingerprint recorded again (a rule change that moves the games' positions does too:
raising the version then costs nothing but a note in the verification of games in progress). The fingerprint is
the game's own record, so a game installed from a package of its own passes without editing pbem."""
from __future__ import annotations

import hashlib

import pytest

from pbem.play import playout
from pbem.store import registry, yamlio
from support import NAMES, playable_games


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
    line = yamlio.dumps({"bot_fingerprint": found}).strip()  # as pbem writes YAML (meta.yaml is read so)
    recorded = game.meta.get("bot_fingerprint")
    assert recorded is not None, (f"{game.id}'s meta.yaml has no bot_fingerprint: record its greedy bot's, "
                                  f"`{line}` beside `bot_version: {game.bot_version}`")
    assert found == recorded, (
        f"{game.id}'s greedy bot now chooses otherwise: raise bot_version in its meta.yaml (verify then names the "
        f"timeout moves of the earlier bot instead of recomputing them) and record `{line}`")
