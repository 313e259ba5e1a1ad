"""Deadlines in play by git, through a bare remote: the generated CI files run the clock on a schedule; a referee in
CI (`pbem git referee --tick`) commits a timeout move like any refereed move, once; a local referee publishes
what `pbem tick` and `pbem replace` did in its game directory; `pbem git verify` accepts the history."""
from __future__ import annotations

import support
import yaml

from gitkit import git, plan, ssh_key
from pbem.engine import engine
from pbem.git import layout
from pbem.store import yamlio

T0 = "2025-12-01T12:00:00Z"
DEADLINE = ("--deadline", "48h", "--reminder", "12h")


def test_the_ci_referee_files_run_the_clock_on_a_schedule(club):
    game = club("coal-baron", 3, ci=True)
    workflow = yaml.safe_load((game.dir / layout.WORKFLOW).read_text())
    triggers = workflow[True] if True in workflow else workflow["on"]  # YAML 1.1 reads `on:` as true
    assert triggers["schedule"] == [{"cron": "17 * * * *"}]
    (job,) = workflow["jobs"].values()
    assert any("pbem git referee" in step.get("run", "") and "--tick" in step["run"] for step in job["steps"])
    (gitlab,) = yaml.safe_load((game.dir / layout.GITLAB).read_text()).values()
    assert any("schedule" in rule["if"] for rule in gitlab["rules"])
    assert any("--tick" in line for line in gitlab["script"])


def test_a_ci_referee_commits_a_timeout_move_once_and_the_history_verifies(club, tmp_path):
    game = club("coal-baron", 3, ci=True, seed="clock-ci", deadline=DEADLINE + ("--on-timeout", "first-legal"))
    public = yamlio.load_file(game.dir / "public.yaml")
    assert public["clock"]["due"] == "2025-12-03T12:00:00Z"
    late = public["to_act"]
    before = git(game.remote, "rev-parse", "main").strip()
    quiet = game.referee("--tick", "--now", "2025-12-03T11:00:00Z")
    assert quiet["commit"] is not None  # the reminder is recorded (referee.age): it must not be sent again
    again = game.referee("--tick", "--now", "2025-12-03T11:00:00Z")
    assert again["commit"] is None
    run = game.referee("--tick", "--now", "2025-12-03T12:00:00Z")
    assert run["commit"] and run["move_number"] == 2 and run["clock"]["events"][0]["kind"] == "timeout"
    assert game.referee("--tick", "--now", "2025-12-03T12:00:00Z")["commit"] is None
    clone = tmp_path / "fresh"
    git(tmp_path, "clone", "--quiet", game.remote, clone)
    log = yamlio.load_file(clone / "log.yaml")
    assert log["entries"][0]["player"] == late and log["entries"][0]["reason"] == "timeout (first-legal)"
    assert git(clone, "rev-list", "--count", f"{before}..HEAD").strip() == "2"
    assert game.pbem("git", "verify", clone).code == 0


def test_a_local_referee_publishes_a_tick_and_a_seat_handed_on_and_the_new_holder_moves(club, tmp_path):
    game = club("coal-baron", 3, seed="clock-local", deadline=DEADLINE + ("--on-timeout", "bot"))
    game_dir = game.game_dir()
    result = game.pbem("tick", game.referee_dir, "--now", "2025-12-03T12:00:00Z", "--no-mail")
    assert result.code == 0, result.err
    run = game.referee()
    assert run["commit"] and run["move_number"] == 2
    seat = engine.status(engine.open_game(game_dir))["to_act"]
    result = game.pbem("replace", game_dir, "--seat", seat, "--by", "zoe", "--now", "2025-12-03T13:00:00Z",
                       "--format", "json")
    secret = result.json()["secret"]
    assert game.referee()["move_number"] == 3
    game.pull(seat)
    assert yamlio.load_file(game.clones[seat] / "log.yaml")["entries"][-1]["reason"] == "seat handed to zoe"
    game.secret_files[seat].write_text(secret + "\n")
    player, move, _ = __import__("support").legal_turn(game_dir)
    assert player == seat
    assert game.move(seat, move).code == 0
    run = game.referee()
    assert [c["verdict"] for c in run["commits"]] == ["accepted"]
    assert game.pbem("git", "verify", game.dir, "--referee-dir", game.referee_dir).code == 0


def test_a_seat_handed_to_a_bot_plays_in_the_referees_commits_logged_as_the_bots_and_the_history_verifies(club):
    """By git: the organiser gives a seat to a bot on the referee's files (`pbem replace --bot`); from then on the
    referee plays its moves as it referees the others', each logged as the bot's, and `pbem git verify` remakes
    them."""
    game = club("coal-baron", 3, seed="bot-seat")
    seat = game.names[1]
    result = game.pbem("replace", game.game_dir(), "--seat", seat, "--bot", "greedy", "--format", "json")
    assert result.code == 0, result.err
    assert game.referee()["commit"]
    for _ in range(4):
        player, move, _ = support.legal_turn(game.game_dir())
        assert player != seat  # the bot's decisions never wait for a commit
        assert game.move(player, move).code == 0
        assert [c["verdict"] for c in game.referee()["commits"]] == ["accepted"]
    game.pull(game.names[0])
    entries = yamlio.load_file(game.clones[game.names[0]] / "log.yaml")["entries"]
    played = [e for e in entries if e["player"] == seat and e["moves"] != ["replace"]]
    assert played and all(e["by"] == "bot" and e["reason"] == "greedy bot" for e in played)
    assert game.pbem("git", "verify", game.dir, "--referee-dir", game.referee_dir).code == 0


def test_a_seat_handed_on_mid_game_leaves_every_signature_checkable_in_a_fresh_clone_at_the_end(club, tmp_path):
    """The old holder's moves stay signed with the old secret: once the game is over, `pbem git verify` in a fresh
    clone checks each move against the secret of whoever held the seat at that move (the revealed secrets carry
    the former ones with the move they ended at)."""
    game = club("coal-baron", 3, seed="handed-on")
    submissions, _ = plan("coal-baron", game.names, "handed-on", game.dir.name)
    game.play(submissions[:6])
    seat = submissions[0][1]
    result = game.pbem("replace", game.game_dir(), "--seat", seat, "--by", "zoe", "--format", "json")
    assert result.code == 0, result.err
    assert game.referee()["commit"]
    game.secret_files[seat].write_text(result.json()["secret"] + "\n")
    for name in [seat] + [name for name in game.names if name != seat]:
        assert game.move(name, "resign").code == 0
        assert [c["verdict"] for c in game.referee()["commits"]] == ["accepted"]
    assert engine.status(engine.open_game(game.game_dir()))["finished"]
    fresh = tmp_path / "fresh"
    git(tmp_path, "clone", "--quiet", game.remote, fresh)
    result = game.pbem("git", "verify", fresh, "--format", "json")
    assert result.code == 0, result.err
    signatures = next(line for line in result.json()["checks"] if line.startswith("signatures"))
    assert signatures.startswith("signatures: 0 SSH-signed commits and 9 HMAC-signed moves good"), signatures


def test_a_seat_handed_on_with_a_new_key_opens_and_signs_only_with_it_and_the_whole_history_verifies(club, tmp_path):
    """`pbem git referee --key SEAT=FILE` after `pbem replace`: the seat's view is encrypted to the new holder's key
    (the old holder can no longer read it), only the new key signs the seat's commits, and a fresh clone verifies
    the old holder's SSH-signed moves against the key registered when each was judged."""
    game = club("coal-baron", 3, seed="new-key", ssh_signing=("alice", "bob", "carol"))
    submissions, _ = plan("coal-baron", game.names, "new-key", game.dir.name)
    game.play(submissions[:4])
    seat = submissions[0][1]
    assert game.pbem("replace", game.game_dir(), "--seat", seat, "--by", "zoe").code == 0
    zoe = ssh_key(game.keys_dir, "zoe")
    run = game.referee("--key", f"{seat}={zoe}.pub")
    assert run["rekeyed"] == [seat] and run["commit"]
    game.pull(seat)
    clone = game.clones[seat]
    assert game.pbem("git", "view", clone, "--as", seat, "--identity", zoe).code == 0
    old = game.pbem("git", "view", clone, "--as", seat, "--identity", game.keys[seat])
    assert old.code == 2 and "cannot decrypt" in old.err
    assert game.referee("--key", f"{seat}={zoe}.pub")["commit"] is None  # the same key again changes nothing
    for _ in range(12):  # the others play until the seat is to act
        player, move, _ = support.legal_turn(game.game_dir())
        if player == seat:
            break
        assert game.move(player, move).code == 0
        assert [c["verdict"] for c in game.referee()["commits"]] == ["accepted"]
    assert player == seat
    assert game.move(seat, move).code == 0  # still signed with the old holder's key: refused
    refused = game.referee()["commits"]
    assert [c["verdict"] for c in refused] == ["refused"] and "not signed" in refused[0]["reason"]
    game.keys[seat] = zoe
    game.sign_commits(seat)
    assert game.move(seat, move).code == 0
    assert [c["verdict"] for c in game.referee()["commits"]] == ["accepted"]
    for name in game.names:
        assert game.move(name, "resign").code == 0
        assert [c["verdict"] for c in game.referee()["commits"]] == ["accepted"]
    fresh = tmp_path / "fresh"
    git(tmp_path, "clone", "--quiet", game.remote, fresh)
    result = game.pbem("git", "verify", fresh, "--format", "json")
    assert result.code == 0, result.err
    signatures = next(line for line in result.json()["checks"] if line.startswith("signatures"))
    assert not signatures.startswith("signatures: 0 SSH"), signatures


def test_a_new_key_for_a_seat_that_does_not_play_is_refused_and_commits_nothing(club):
    game = club("coal-baron", 3, seed="new-key")
    before = git(game.dir, "rev-parse", "HEAD")
    result = game.pbem("git", "referee", game.dir, *game.referee_args(), "--key", f"zed={game.keys['alice']}.pub")
    assert result.code == 1 and "no such seat" in result.err
    assert git(game.dir, "rev-parse", "HEAD") == before


def test_a_move_committed_for_the_decision_waiting_is_accepted_after_another_seat_is_handed_on(club):
    """The player committed their move for the number the report gave; before it was pushed the organiser handed
    another seat on and the referee published it (a log entry, a move number). Rebased and pushed, the move is
    accepted (a hand-over takes no one's decision), and the whole history verifies."""
    game = club("coal-baron", 3, seed="hand-over")
    player, move, number = support.legal_turn(game.game_dir())
    assert game.move(player, move, push=False).code == 0
    other = next(name for name in game.names if name != player)
    assert game.pbem("replace", game.game_dir(), "--seat", other, "--by", "zoe").code == 0
    assert game.referee()["move_number"] == number + 1
    game.pull(player)
    git(game.clones[player], "push", "--quiet")
    assert [c["verdict"] for c in game.referee()["commits"]] == ["accepted"]
    entry = engine.read_log(engine.open_game(game.game_dir()))["entries"][-1]
    assert (entry["player"], entry["number"], entry["answers"], entry["moves"]) == (player, number + 1, number, [move])
    assert game.pbem("git", "verify", game.dir, "--referee-dir", game.referee_dir).code == 0
