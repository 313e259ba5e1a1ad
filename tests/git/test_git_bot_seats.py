"""A seat given to a bot at `pbem git init --bot SEAT=LEVEL`: it needs no key, its view is never committed, the
referee plays it after the push that made it its turn, `pbem git verify` makes its moves again, and the
repository's page names it."""
from __future__ import annotations

import random

import yaml

from gitkit import git
from pbem import bots
from pbem.store import registry
from support import Pbem

CHARTERED = registry.get("chartered")


def _push_greedy_moves(game, player: str, turns: int) -> None:
    """`player` pushes `turns` moves (the greedy bot's choice, from the referee's state), the referee judging each."""
    for number in range(turns):
        env = game.state()
        assert CHARTERED.rules.pending(env["state"])["player"] == player
        legal = CHARTERED.rules.legal_moves(env["state"], player)
        move = bots.decide(CHARTERED, "greedy", CHARTERED.rules.view(env["state"], player), legal,
                           random.Random(number))
        result = game.move(player, CHARTERED.format_move(move))
        assert result.code == 0, result.err
        run = game.referee()
        assert [c["verdict"] for c in run["commits"]] == ["accepted"], run


def _log(game) -> list[dict]:
    return yaml.safe_load(git(game.dir, "show", "HEAD:log.yaml"))["entries"] or []


def test_a_bot_seat_takes_no_key_and_its_view_is_never_committed(club):
    game = club("chartered", 2, bots=("bob=random",))
    config = yaml.safe_load((game.dir / "pbem-git.yaml").read_text())
    assert config["players"][1] == {"name": "bob", "key": None, "view": "bot"}
    files = git(game.dir, "ls-tree", "-r", "--name-only", "HEAD").split()
    assert "views/alice.yaml.age" in files
    assert not [f for f in files if f.startswith("views/bob")]
    assert game.created["bots"] == {"bob": "random"}
    assert "bob is played by the referee's bot, at the level random" in (game.dir / "README.md").read_text()
    # with the club's seed bob moves first: the bot played move 1 at once, and the first commit says so
    first = git(game.dir, "log", "-1", "--format=%B", "HEAD")
    number = game.created["move_number"]
    assert number > 1 and f"Players: alice, bob. Move {number} is next." in first and f"Pbem-Move: {number}" in first
    assert "Move 1 (bob, the referee's random bot): " in first


def test_the_referee_plays_the_bot_seat_after_the_players_push(club):
    game = club("chartered", 2, bots=("bob=greedy",))
    _push_greedy_moves(game, "alice", 1)
    state = game.state()
    entries = _log(game)
    assert [e["by"] for e in entries if e["player"] == "alice"] == ["player"]
    assert entries[-1]["player"] == "bob" and entries[-1]["by"] == "bot"
    assert entries[-1]["reason"] == "greedy bot"
    assert CHARTERED.rules.pending(state["state"])["player"] == "alice"  # bob's turn was played at once
    message = git(game.dir, "log", "-1", "--format=%B")
    assert f"Move {entries[-1]['number']} (bob, the referee's greedy bot): " in message
    files = git(game.dir, "ls-tree", "-r", "--name-only", "HEAD").split()
    assert not [f for f in files if f.startswith("views/bob")]


def test_git_verify_makes_the_bot_seats_moves_again(club):
    game = club("chartered", 2, bots=("bob=search:2",))
    _push_greedy_moves(game, "alice", 2)
    assert game.move("alice", "resign").code == 0
    game.referee()
    git(game.clones["alice"], "pull", "--quiet")
    entries = _log(game)
    assert len([e for e in entries if e["by"] == "bot" and e["bot"] == "search:2"]) >= 2
    result = Pbem()("git", "verify", game.clones["alice"], "--format", "json")
    assert result.code == 0, result.err
    report = result.json()
    assert report["finished"] and report["result"] == "ok"
    assert any(check.startswith("replay:") and "equal" in check for check in report["checks"]), report["checks"]


def test_a_bot_seats_view_is_refused_by_name(club):
    game = club("chartered", 2, bots=("bob=random",))
    result = Pbem()("git", "view", game.clones["alice"], "--as", "bob")
    assert result.code == 2
    assert "bob's seat is played by the referee's bot: its view is never published" in result.err


def test_git_init_refuses_bots_as_pbem_new_does(tmp_path):
    """An all-bot table and a seat that does not play are usage errors (exit 1), an unknown level exit 2, as at
    `pbem new`; a key for a bot's seat is refused too; nothing is left on disk."""
    pbem = Pbem()
    key = tmp_path / "alice.pub"
    key.write_text("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAILAGblFA9tSGIzlbh3NmuqTMW6b7cwhDxmsL4COkP/pm a@b\n")
    base = ["git", "init", "chartered", tmp_path / "game", "--referee-dir", tmp_path / "ref", "--player", "alice",
            "--player", "bob"]
    cases = [(["--bot", "alice=greedy", "--bot", "bob=greedy"], 1, "every seat is a bot's"),
             (["--key", f"alice={key}", "--bot", "bob=smart"], 2, "there is no bot level 'smart'"),
             (["--key", f"alice={key}", "--key", f"bob={key}", "--bot", "carol=greedy"], 1, "who does not play"),
             (["--key", f"alice={key}", "--key", f"bob={key}", "--bot", "bob=greedy"], 1, "it takes no key")]
    for args, code, words in cases:
        result = pbem(*base, *args)
        assert result.code == code, (args, result.err)
        assert words in result.err
        assert not (tmp_path / "game").exists() and not (tmp_path / "ref" / "game").exists()
