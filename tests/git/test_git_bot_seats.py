"""A seat given to a bot at `pbem git init --bot SEAT=LEVEL`: it needs no key, its view is never committed, the
referee plays it after the push that made it its turn, `pbem git verify` makes its moves again, and the
repository's page names it."""
from __future__ import annotations

import random

import yaml

import support
from gitkit import git, ssh_key
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
    readme = git(game.dir, "show", "HEAD:README.md")
    assert f"| {entries[-1]['number']} | bob (bot) |" in readme  # the page's table of moves marks the bot's
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


def _opens_with(repo_dir, commit: str, identity) -> list[str]:
    """The encrypted files of `commit`'s tree that `identity` opens."""
    from pbem.contract import PbemError
    opened = []
    for path in git(repo_dir, "ls-tree", "-r", "--name-only", commit).split():
        if not path.endswith(".age") or path == "referee.age":
            continue
        try:
            identity.decrypt(git(repo_dir, "show", f"{commit}:{path}"), path)
        except PbemError:
            continue
        opened.append(path)
    return opened


def test_a_seat_handed_to_a_bot_is_published_to_no_one_from_then_on(club):
    """`pbem replace --bot` on a git game's seat: from the referee's next commit the seat is `view: bot` with no
    key in pbem-git.yaml, as a seat seated at `pbem git init --bot`; no later commit holds a file the former
    player's key opens (their views from before stay in the history: they were theirs while they played), the bot
    plays on in the referee's commits and `pbem git verify` passes."""
    from pbem.git.keys import Identity
    game = club("coal-baron", 3, seed="bot-seat")
    seat = game.names[1]
    former = Identity.from_file(game.keys[seat])
    before = git(game.dir, "rev-parse", "HEAD").strip()
    assert layout_view(game, before, seat) == "encrypted" and _opens_with(game.dir, before, former)
    result = Pbem()("replace", game.game_dir(), "--seat", seat, "--bot", "greedy", "--format", "json")
    assert result.code == 0, result.err
    run = game.referee()
    handed = run["commit"]
    assert handed and run["botted"] == [seat]
    config = yaml.safe_load(git(game.dir, "show", f"{handed}:pbem-git.yaml"))
    assert next(p for p in config["players"] if p["name"] == seat) == {"name": seat, "key": None, "view": "bot"}
    for _ in range(4):
        player, move, _ = support.legal_turn(game.game_dir())
        assert player != seat
        assert game.move(player, move).code == 0
        assert [c["verdict"] for c in game.referee()["commits"]] == ["accepted"]
    later = git(game.dir, "rev-list", f"{before}..HEAD").split()
    assert handed in later and len(later) >= 5
    assert not [(c[:10], path) for c in later for path in _opens_with(game.dir, c, former)]
    assert _opens_with(game.dir, before, former)  # what was committed before stays the former player's
    assert [e for e in _log(game) if e["player"] == seat and e["by"] == "bot"]
    refused = Pbem()("git", "view", game.clones[game.names[0]], "--as", seat)
    assert refused.code == 2 and "played by the referee's bot" in refused.err
    assert Pbem()("git", "verify", game.dir, "--referee-dir", game.referee_dir).code == 0


def layout_view(game, commit: str, seat: str) -> str:
    config = yaml.safe_load(git(game.dir, "show", f"{commit}:pbem-git.yaml"))
    return next(p["view"] for p in config["players"] if p["name"] == seat)


def test_a_bot_seat_handed_back_to_a_player_gets_its_view_by_mail_then_by_their_key(club):
    """A seat a bot played, given to a player again (`pbem replace --by`): no longer `view: bot`; until the referee
    registers the new holder's key their view goes by mail, then it is encrypted to that key; a key for a seat the
    bot still plays is refused and commits nothing."""
    from pbem.git.keys import Identity
    game = club("chartered", 2, bots=("bob=greedy",))
    zoe = ssh_key(game.keys_dir, "zoe")
    before = git(game.dir, "rev-parse", "HEAD").strip()
    refused = Pbem()("git", "referee", game.dir, *game.referee_args(), "--key", f"bob={zoe}.pub")
    assert refused.code == 1 and "the referee's bot plays this seat, it takes no key" in refused.err
    assert git(game.dir, "rev-parse", "HEAD").strip() == before
    result = Pbem()("replace", game.game_dir(), "--seat", "bob", "--by", "zoe:zoe@club.example")
    assert result.code == 0, result.err
    run = game.referee()
    assert run["unbotted"] == ["bob"] and run["commit"]
    assert layout_view(game, run["commit"], "bob") == "mail"
    assert "bob's seat is a player's again" in git(game.dir, "log", "-1", "--format=%B")
    run = game.referee("--key", f"bob={zoe}.pub")
    assert run["rekeyed"] == ["bob"] and layout_view(game, run["commit"], "bob") == "encrypted"
    assert "views/bob.yaml.age" in _opens_with(game.dir, run["commit"], Identity.from_file(zoe))
