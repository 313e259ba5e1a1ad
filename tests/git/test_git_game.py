"""Whole games played by git: a bare remote, three players' clones and the referee's clone; then `pbem git verify`
in a fresh clone; and nothing private anywhere in the repository's history before the end.

By default: the first playable title (Coal Baron) played to the end by the bots, every other title played a few
rounds and then ended by resignations (the referee plays the resigned seats to the end). `pytest -m slow`
plays every title to the end.
"""
from __future__ import annotations

import subprocess

import pytest

from gitkit import git, plan
from pbem import notation
from pbem.engine import engine
from pbem.store import yamlio
from support import others_play_long, playable_games

SEED = "seed-5e1f0a9c77d2"
SHORT_ROUNDS = 12


def titles():
    games = playable_games()
    return [pytest.param(game.id, index == 0, id=game.id) for index, game in enumerate(games)] + \
        [pytest.param(game.id, True, id=f"{game.id}-whole", marks=pytest.mark.slow) for game in games[1:]]


class Private:
    """Everything that must not be readable in the repository before the game ends, gathered from the referee's
    files as the game goes: the seed, the secrets, the referee's state and full log, each plain view and each
    player's private part of it, every hidden move."""

    def __init__(self, club):
        self.club, self.texts = club, {}

    def collect(self, club) -> None:
        gd = engine.open_game(club.game_dir())
        env = engine.load_state(gd)
        self.texts[f"the seed {env['seed']}"] = env["seed"]
        for player in engine.roster(gd):
            self.texts[f"{player['name']}'s secret"] = player["secret"]
        for relative in (engine.STATE, engine.FULL_LOG, engine.SECRETS):
            self.texts[f"{relative} at move {env['move_number']}"] = (gd.path / relative).read_text()
        for name in gd.players:
            text = (gd.path / engine.view_file(name)).read_text()
            self.texts[f"{name}'s view at move {env['move_number']}"] = text.split("\n", 1)[1]
            private = yamlio.loads(text)["view"].get("private")
            if private:
                self.texts[f"{name}'s private part at move {env['move_number']}"] = yamlio.dumps(private)
        game = gd.game
        for entry in engine.read_log(gd, full=True)["entries"] or []:
            for text in entry["moves"]:
                if text != engine.RESIGN and notation.public_text(game.templates, game.parse_move(text)) != text:
                    self.texts[f"hidden move {entry['number']} of {entry['player']}"] = text

    def assert_not_in(self, repository) -> None:
        history = git(repository, "log", "-p", "--all", "--no-textconv", "--format=fuller").encode()
        objects = subprocess.run(["git", "-C", str(repository), "cat-file", "--batch-all-objects", "--batch"],
                                 capture_output=True, check=True).stdout
        assert len(self.texts) > 10
        for what, text in self.texts.items():
            needle = text.encode()
            assert needle not in history, f"{what} is in git log -p --all"
            assert needle not in objects, f"{what} is in the repository's objects"


@pytest.mark.parametrize("game_type,to_the_end", titles())
def test_a_3_player_game_played_through_a_bare_remote_verifies_in_a_fresh_clone(club, game_type, to_the_end,
                                                                                 tmp_path):
    players = club(game_type, 3, seed=SEED, ssh_signing=("carol",))
    submissions, final = plan(game_type, players.names, SEED, players.dir.name)
    private = Private(players)
    if to_the_end:
        accepted = players.play(submissions[:-1], after_run=private.collect)
        private.assert_not_in(players.remote)
        accepted += players.play(submissions[-1:])
        assert accepted == len(submissions)
        assert players.state()["state"] == final
    else:  # a few rounds, at most half the game (however short it is: the resignations must not end it), then
        # every seat but one resigns
        players.play(submissions[:min(SHORT_ROUNDS, len(submissions) // 2)], after_run=private.collect)
        for name in players.names[:-1]:
            assert players.move(name, "resign").code == 0
            assert players.referee()["commits"][0]["verdict"] == "accepted"
        private.collect(players)
        private.assert_not_in(players.remote)
        assert players.move(players.names[-1], "resign").code == 0
        players.referee()
    status = engine.status(engine.open_game(players.game_dir()))
    assert status["finished"]
    fresh = tmp_path / "fresh"
    git(tmp_path, "clone", "--quiet", players.remote, fresh)
    result = players.pbem("git", "verify", fresh, "--format", "json")
    assert result.code == 0, result.err
    report = result.json()
    assert report["finished"] and report["refereed"] > 2
    assert any(line.startswith("replay: all") for line in report["checks"])
    signatures = next(line for line in report["checks"] if line.startswith("signatures"))
    assert "checked once the game is over" not in signatures
    if to_the_end:
        assert not signatures.startswith("signatures: 0 SSH"), signatures  # carol signs her commits with SSH
    # the result is public: the seed and the ranking are in the last public.yaml of the fresh clone
    public = yamlio.load_file(fresh / "public.yaml")
    assert public["seed"] == SEED and [row["player"] for row in public["ranking"]]
    # the hosting's page of the repository shows the position: README.md with the picture, both public
    readme = (fresh / "README.md").read_text()
    assert "![The position: Move" in readme and "(board.svg)" in readme and "## Final ranking" in readme
    assert "the game is over" in (fresh / "board.svg").read_text()


def test_a_game_the_referee_ends_once_every_seat_resigned_verifies_in_a_fresh_clone(club, tmp_path, monkeypatch):
    from pbem.play import turns
    monkeypatch.setattr(turns, "ALL_RESIGNED_CAP", 5)
    players = club(playable_games()[0].id, 3, seed=SEED)
    for name in players.names:
        assert players.move(name, "resign").code == 0
        assert players.referee()["commits"][0]["verdict"] == "accepted"
    fresh = tmp_path / "fresh"
    git(tmp_path, "clone", "--quiet", players.remote, fresh)
    result = players.pbem("git", "verify", fresh, "--format", "json")
    assert result.code == 0, result.err
    public = yamlio.load_file(fresh / "public.yaml")
    assert public["finished"] and public["ended"].startswith("every seat resigned and 5 moves by the referee")
    assert yamlio.load_file(fresh / "log.yaml")["entries"][-1]["moves"] == ["end of game"]


def test_git_view_lists_every_move_since_the_players_last_one(club):
    """After the others' long turns (17 moves and more, published by the referee) `pbem git view` shows the player
    every move since their last one, in the text, the JSON and the HTML page, not only the last 8."""
    game = club("coal-baron", 4, seed="since")
    gd = engine.open_game(game.game_dir())
    last = others_play_long(gd, "bob")
    now = engine.status(gd)["move_number"]
    assert game.referee()["move_number"] == now
    game.pull("bob")
    view = ("git", "view", game.clones["bob"], "--as", "bob", "--identity", game.keys["bob"])
    shown = game.pbem(*view, "--format", "json").json()
    assert [entry["number"] for entry in shown["recent"]] == list(range(last, now))
    assert "The moves since your last move:" in game.pbem(*view).out
    page = game.pbem(*view, "--format", "html").out
    assert "The moves since your last move:" in page and f'<td class=n>{last}<td>bob' in page  # (a table)
