"""A hostile table: commits that must never stop the referee, overlapping referee runs, and players' tools that
trust only what the referee vouched for. Each commit here is refused with a reason (or ignored) and the next
honest move is applied."""
from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest

from gitkit import git, plan
from pbem.engine import engine
from pbem.git import keys, layout, textconv
from pbem.store import yamlio

SEED = "hostile-seed"


@pytest.fixture
def game(club):
    return club("coal-baron", 3, seed=SEED)


def submissions(game, limit=None):
    return plan("coal-baron", game.names, SEED, game.dir.name, limit=limit)[0]


def refused(game) -> list[dict]:
    return yamlio.load_file(game.dir / layout.REFUSED)["refused"]


def move_number(game) -> int:
    return engine.status(engine.open_game(game.game_dir()))["move_number"]


def honest_move_goes_through(game, index: int = 0) -> None:
    """The next submission of the planned game, by `pbem git move`, is accepted by the next referee run."""
    number, player, moves = submissions(game, index + 1)[index]
    assert move_number(game) == number
    result = game.move(player, "; ".join(moves))
    assert result.code == 0, result.err
    run = game.referee()
    assert [c["verdict"] for c in run["commits"]][-1] == "accepted", run
    assert move_number(game) > number


def commit_path(clone: Path, path: str, data: bytes, message: str = "hostile") -> str:
    """Commit a file under any path at all (a line break in it, say) through git's plumbing, and push it."""
    git(clone, "pull", "--quiet", "--rebase")
    blob = git(clone, "hash-object", "-w", "--stdin", input=data).strip()
    git(clone, "update-index", "-z", "--index-info", input=f"100644 {blob}\t{path}\0".encode())
    git(clone, "commit", "--quiet", "-m", message)
    git(clone, "reset", "--quiet", "--hard")
    git(clone, "push", "--quiet")
    return git(clone, "rev-parse", "HEAD").strip()


def test_an_oversized_move_file_is_refused_and_the_next_move_applied(game):
    commit = game.commit_file("alice", "moves/0001-eve.yaml.age", b"x" * 300_000)
    big = game.commit_file("bob", "moves/0001-bob.yaml", b"# " + b"y" * 200_000 + b"\n")
    run = game.referee()
    assert [c["verdict"] for c in run["commits"]] == ["refused", "refused"]
    assert "too large" in run["commits"][0]["reason"] and "too large" in run["commits"][1]["reason"]
    assert [e["commit"] for e in refused(game)] == [commit, big]
    honest_move_goes_through(game)


def test_a_merge_of_an_unrelated_history_is_refused_and_the_game_goes_on(game):
    clone = game.clones["alice"]
    game.pull("alice")
    git(clone, "checkout", "--quiet", "--orphan", "other")
    git(clone, "rm", "-r", "--quiet", "--cached", ".")
    (clone / "junk.txt").write_text("another history\n")
    git(clone, "add", "junk.txt")
    git(clone, "commit", "--quiet", "-m", "an orphan")
    git(clone, "checkout", "--quiet", "-f", "main")
    git(clone, "merge", "--quiet", "--allow-unrelated-histories", "-m", "join", "other")
    git(clone, "push", "--quiet")
    run = game.referee()
    verdicts = [c["verdict"] for c in run["commits"]]
    assert "refused" in verdicts and "accepted" not in verdicts
    assert any("first commit" in (c["reason"] or "") for c in run["commits"])
    honest_move_goes_through(game)
    result = game.pbem("git", "verify", game.dir)
    assert result.code == 0, result.err


def test_a_move_path_with_a_line_break_is_refused_before_the_engine_applies_it(game):
    number, player, moves = submissions(game, 1)[0]
    text = game.signed_move_text(player, number, moves)
    commit = commit_path(game.clones[player], f"moves/{number:04d}-{player}.yaml\n", text.encode())
    run = game.referee()
    assert [c["verdict"] for c in run["commits"]] == ["refused"]
    assert refused(game)[-1]["commit"] == commit
    assert move_number(game) == number  # the referee's directory did not run ahead of the repository
    honest_move_goes_through(game)
    assert game.pbem("git", "verify", game.dir, "--referee-dir", game.referee_dir).code == 0


def test_an_undecryptable_move_is_refused_without_the_organisers_paths(game):
    number, player, moves = submissions(game, 1)[0]
    stranger = keys.encrypt(game.signed_move_text(player, number, moves), [keys.new_identity()[1]])
    game.commit_file(player, f"moves/{number:04d}-{player}.yaml.age", stranger)
    run = game.referee()
    reason = run["commits"][0]["reason"]
    assert run["commits"][0]["verdict"] == "refused" and "decrypt" in reason
    published = (game.dir / layout.REFUSED).read_text() + git(game.dir, "log", "-1", "--format=%B")
    for private in (str(game.referee_dir), str(game.root), ".git.yaml"):
        assert private not in published
    honest_move_goes_through(game)


def pbem_exe() -> str:
    return str(Path(sys.executable).with_name("pbem"))


def test_overlapping_referee_runs_referee_each_move_once(game):
    """Referee runs started while another runs (a hook per push, a cron job) wait for it: every move is applied
    once, no commit of the referee is judged as a player's, nothing is refused."""
    plan_ = submissions(game, 6)
    for number, player, moves in plan_:
        game.pull(player)
        text = game.signed_move_text(player, number, moves)
        game.commit_file(player, f"moves/{number:04d}-{player}.yaml", text)
        runs = [subprocess.Popen([pbem_exe(), "git", "referee", str(game.dir), "--referee-dir",
                                  str(game.referee_dir), "--remote", "origin"], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE) for _ in range(2)]
        for run in runs:
            out, err = run.communicate(timeout=120)
            assert run.returncode == 0, err.decode()
    game.referee()
    assert refused(game) == []
    log = yamlio.load_file(game.dir / "log.yaml")["entries"]
    players = [e for e in log if e["by"] == "player"]
    assert [e["number"] for e in players] == [n for n, _, _ in plan_]
    messages = git(game.dir, "log", "--format=%s", "--grep=^Pbem-Game:").splitlines()
    moves = [m for m in messages if m.startswith("pbem: move")]
    assert sum(m.count("move ") for m in moves) == len(log)  # each move named by exactly one refereed commit


def test_the_hooks_of_pushes_that_overlap_referee_every_push_and_fail_none(game, monkeypatch):
    """The guide's post-receive hook, on a remote where pushes come while the hook runs: every push lands, every
    move is applied once."""
    guide = (Path(__file__).resolve().parents[2] / "docs" / "git.md").read_text()
    blocks = [piece.split("```")[0] for piece in guide.split("```sh\n")[1:]]
    hook = next(block for block in blocks if block.startswith("#!/bin/sh") and "post-receive" in block)
    hook = hook.replace("/srv/pbem/clones/spring-cup", str(game.dir)).replace("/srv/pbem/games",
                                                                              str(game.referee_dir))
    path = game.remote / "hooks" / "post-receive"
    path.write_text(hook)
    path.chmod(0o755)
    for line in (block for block in blocks if "git -C" in block and "config" in block):
        for command in line.splitlines():
            if command.startswith("git -C /srv/git/spring-cup.git config"):
                git(game.remote, *command.split()[3:])
    monkeypatch.setenv("PATH", str(Path(sys.executable).parent) + ":" + __import__("os").environ["PATH"])
    plan_ = submissions(game, 4)
    # each move written ahead in its player's clone (as a player may), then all pushed at once
    for number, player, moves in plan_:
        game.commit_file(player, f"moves/{number:04d}-{player}.yaml", game.signed_move_text(player, number, moves),
                         push=False, pull=False)
    failures = []

    def push(name):
        for _ in range(20):  # a push that is behind is rebased and pushed again, as a player does
            done = subprocess.run(["git", "-C", str(game.clones[name]), "push", "--quiet"], capture_output=True)
            if done.returncode == 0:
                return
            if b"Unable to create" in done.stderr:  # a ref lock held by another push: never waited for
                failures.append(done.stderr.decode())
            subprocess.run(["git", "-C", str(game.clones[name]), "pull", "--quiet", "--rebase"], capture_output=True)
        failures.append(f"{name} could not push")
    threads = [threading.Thread(target=push, args=(name,)) for name in {p for _, p, _ in plan_}]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert failures == []
    game.referee()
    log = yamlio.load_file(game.dir / "log.yaml")["entries"] or []
    refusals = refused(game)
    accepted = [e["number"] for e in log if e["by"] == "player"]
    # the moves written ahead answer numbers in order; whatever came out of order is refused as stale, never twice
    assert len(accepted) == len(set(accepted))
    assert not [r for r in refusals if "pbem" in r["reason"] and "referee" in r["author"]]
    own = set(git(game.dir, "log", "--format=%H", "--grep=^Pbem-Game:").split())
    assert not [r for r in refusals if r["commit"] in own]  # no referee commit judged as a player's


FORGED = "98765432"  # a forged amount of money: digits no commit id shown beside it holds by chance (999 did)


def test_a_view_forged_in_an_unrefereed_commit_is_not_shown(game, monkeypatch):
    victim = "bob"
    genuine = game.pbem("git", "view", game.dir, "--as", victim, "--identity", game.keys[victim], "--format", "json")
    forged_view = (game.referee_dir / game.dir.name / engine.view_file(victim)).read_text()
    forged_view = forged_view.replace("money: ", f"money: {FORGED}").replace("move_number: 1", "move_number: 1")
    config = yamlio.load_file(game.dir / layout.CONFIG)
    key = next(p["key"] for p in config["players"] if p["name"] == victim)
    game.commit_file("alice", layout.view_blob_path(victim), keys.encrypt(forged_view, [key], True), "new view")
    game.pull(victim)
    shown = game.pbem("git", "view", game.clones[victim], "--as", victim, "--identity", game.keys[victim],
                      "--format", "json")
    assert shown.code == 0, shown.err
    assert shown.json() == genuine.json()
    text = game.pbem("git", "view", game.clones[victim], "--as", victim, "--identity", game.keys[victim])
    assert "not refereed yet" in text.err
    # git log -p and git diff through the textconv: the forged view is marked and not decrypted
    monkeypatch.chdir(game.clones[victim])
    monkeypatch.setenv("PBEM_IDENTITY", str(game.keys[victim]))
    shown = textconv.convert(game.clones[victim] / layout.view_blob_path(victim))
    assert shown.startswith(textconv.NOT_REFEREED) and FORGED not in shown
    git(game.clones[victim], "checkout", "--quiet", "HEAD~1", "--", layout.view_blob_path(victim))
    shown = textconv.convert(game.clones[victim] / layout.view_blob_path(victim))
    assert f"view of {victim}" in shown, shown
    # pbem git diff, by default, shows what the last refereed commit changed, not the forgery
    assert FORGED not in game.pbem("git", "diff", game.clones[victim]).out


def test_a_forged_commit_with_the_referees_trailers_is_not_taken_for_a_refereed_one(game):
    victim = "bob"
    genuine = game.pbem("git", "view", game.dir, "--as", victim, "--identity", game.keys[victim], "--format", "json")
    view = (game.referee_dir / game.dir.name / engine.view_file(victim)).read_text() + "# forged\n"
    config = yamlio.load_file(game.dir / layout.CONFIG)
    key = next(p["key"] for p in config["players"] if p["name"] == victim)
    last = git(game.dir, "rev-parse", "HEAD").strip()
    game.commit_file("alice", layout.view_blob_path(victim), keys.encrypt(view, [key], True),
                     f"pbem: move 1\n\nPbem-Game: {game.dir.name}\nPbem-Move: 1\nPbem-Previous: {last}")
    game.pull(victim)
    shown = game.pbem("git", "view", game.clones[victim], "--as", victim, "--identity", game.keys[victim],
                      "--format", "json")
    assert shown.json() == genuine.json()
    result = game.pbem("git", "verify", game.clones[victim], "--format", "json")
    assert result.code == 0, result.err
    assert result.json()["refereed"] == 1


def test_a_hidden_choice_is_encrypted_to_the_referees_recorded_key_only(club):
    game = club("coal-baron", 2, seed="hidden-hostile")
    plan_, _ = plan("coal-baron", game.names, "hidden-hostile", game.dir.name)
    hidden_at = next(i for i, (_, _, moves) in enumerate(plan_) if any(m.startswith("return") for m in moves))
    game.play(plan_[:hidden_at])
    number, player, moves = plan_[hidden_at]
    thief = next(name for name in game.names if name != player)
    secret, recipient = keys.new_identity()
    config = (game.dir / layout.CONFIG).read_text()
    real = yamlio.loads(config)["referee"]["recipient"]
    game.commit_file(thief, layout.CONFIG, config.replace(real, recipient), "a new referee key")
    result = game.move(player, "; ".join(moves))
    assert result.code == 0, result.err
    data = (game.clones[player] / result.json()["file"]).read_text()
    with pytest.raises(Exception):
        keys.Identity(secret, "the thief's key").decrypt(data, "the move")
    run = game.referee()
    assert [c["verdict"] for c in run["commits"]] == ["refused", "accepted"]


def test_a_pushed_tag_named_like_the_branch_stops_no_pbem_push_and_the_guide_removes_it(game):
    """A tag `main` makes a player's own `git push origin main` ambiguous; pbem pushes the branch by its full name,
    and the guide's commands (docs/git.md) take the tag away on the server and in the clone."""
    number, player, moves = submissions(game, 1)[0]
    vandal = next(name for name in game.names if name != player)
    game.pull(vandal)
    git(game.clones[vandal], "tag", "main")
    git(game.clones[vandal], "push", "--quiet", "origin", "refs/tags/main")
    game.pull(player)
    clone = game.clones[player]
    assert git(clone, "tag").split() == ["main"]
    result = game.pbem("git", "move", clone, "--as", player, "--text", "; ".join(moves), "--secret-file",
                       game.secret_files[player], "--push")
    assert result.code == 0, result.err
    assert [c["verdict"] for c in game.referee()["commits"]] == ["accepted"]
    assert move_number(game) > number
    ambiguous = subprocess.run(["git", "-C", str(clone), "push", "origin", "main"], capture_output=True, text=True)
    assert ambiguous.returncode != 0 and "matches more than one" in ambiguous.stderr
    git(game.remote, "tag", "-d", "main")  # the organiser, on the server
    git(clone, "tag", "-d", "main")  # each player who fetched it
    game.pull(player)
    git(clone, "push", "--quiet", "origin", "main")
    assert "main" not in git(game.remote, "tag").split()
