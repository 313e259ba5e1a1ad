"""Every archived complete game (tests/<game>/archive_*.yaml), replayed move by move from its seed with each move
checked against legal_moves, reaches its stored final result (and its recorded public rolls, where the archive
keeps them). A rule change that alters an archived game fails here: raise the game's rules_version and say why in
its rules.md. Tests of a game's own about one archive (a game checked by hand) are in the game's folder."""
from __future__ import annotations

from pathlib import Path

import pytest

from pbem.store import registry, yamlio
from support import replay_archive

ARCHIVES = sorted(Path(__file__).resolve().parents[1].glob("*/archive_*.yaml"))


def game_of(path: Path) -> registry.Game:
    return registry.get(yamlio.loads(path.read_bytes(), path.name)["game"])


@pytest.mark.parametrize("path", ARCHIVES, ids=lambda p: p.stem)
def test_an_archived_game_replays_to_its_stored_result(path):
    game = game_of(path)
    archive, state, rolls = replay_archive(game, path)
    assert game.rules.pending(state) is None
    assert game.rules.result(state) == archive["result"]
    if "rolls" in archive:
        assert rolls == archive["rolls"]


def test_every_game_of_pbem_has_at_least_two_archived_games():
    archived = [game_of(path).id for path in ARCHIVES]
    for folder in sorted((Path(__file__).resolve().parents[2] / "games").iterdir()):
        if (folder / "meta.yaml").is_file():
            assert archived.count(folder.name.replace("_", "-")) >= 2, folder.name
