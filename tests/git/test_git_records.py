"""Honest records in play by git: a refusal reason reads as it was written, a refereed commit names every move it
records (those the organiser's `pbem tick` played in the referee's files too), a player who sends a turn step by
step is told it fits in one commit, and what `pbem git moves` prints keeps to 78 columns."""
from __future__ import annotations

from support import legal_turn
from pbem.engine import engine
from pbem.git import desk, layout
from pbem.store import yamlio
from pbem.tables import WIDTH

from gitkit import git

T0 = "2025-12-01T12:00:00Z"


def test_a_refusal_reason_keeps_its_words_when_the_referee_folder_is_named_like_one_of_them(club, monkeypatch):
    game = club("coal-baron", 3, seed="records")
    (game.root / "ref").symlink_to(game.referee_dir.name)  # the organiser's `--referee-dir ref`, a relative path
    game.commit_file("bob", "notes.txt", "my plans\n")
    monkeypatch.chdir(game.root)
    result = game.pbem("git", "referee", game.dir, "--referee-dir", "ref", "--remote", "origin", "--format", "json")
    assert result.code == 0, result.err
    (reason,) = [entry["reason"] for entry in yamlio.load_file(game.dir / layout.REFUSED)["refused"]]
    assert "everything else is written by the referee" in reason and "files)eree" not in reason
    assert "(the referee's files)" not in git(game.dir, "log", "-1", "--format=%B")


def test_the_referee_files_paths_are_hidden_only_where_they_stand_as_paths():
    paths = ["ref/spring-cup", "ref", "/home/org/keys/referee.key"]
    text = ("ref/spring-cup/referee/state.yaml: unreadable; ref: no folder; /home/org/keys/referee.key: no key; "
            "everything else is written by the referee, as the refs say.")
    assert desk.scrubbed(text, paths) == (
        "(the referee's files)/referee/state.yaml: unreadable; (the referee's files): no folder; (the referee's "
        "files): no key; everything else is written by the referee, as the refs say.")


def test_a_commit_of_moves_the_organiser_made_in_the_referee_files_names_each_move(club):
    game = club("coal-baron", 3, seed="records-tick", deadline=("--deadline", "24h", "--on-timeout", "bot"))
    for day in (2, 3, 4):  # each day the player to act times out and the bot plays for them
        result = game.pbem("tick", game.referee_dir, "--now", f"2025-12-0{day}T13:00:00Z", "--no-mail")
        assert result.code == 0, result.err
    entries = engine.read_log(engine.open_game(game.game_dir()))["entries"]
    assert len(entries) >= 3 and all(entry["by"] == "referee" for entry in entries)
    run = game.referee()
    assert run["commit"] and [entry["number"] for entry in run["recorded"]] == [e["number"] for e in entries]
    title, _, body = git(game.dir, "log", "-1", "--format=%B").partition("\n\n")
    assert "the referee's changes" not in title
    assert title.strip() == "pbem: " + ", ".join(f"move {e['number']} for {e['player']}" for e in entries)
    for entry in entries:
        assert f"Move {entry['number']} ({entry['player']}, by the referee: {entry['reason']}): " \
               f"{'; '.join(entry['moves'])}" in body


def _turn_of_several_steps(game) -> tuple[str, str]:
    """Moves by `pbem git move` until a player is to act right after a move of their own: (that player, their
    move)."""
    for _ in range(60):
        player, move, _ = legal_turn(game.game_dir())
        result = game.move(player, move)
        assert result.code == 0, result.err
        game.referee()
        after = legal_turn(game.game_dir())[0]
        if after == player:
            return player, move
    raise AssertionError("no turn of several decisions came")


def test_a_player_who_sends_a_turn_step_by_step_is_told_the_whole_turn_fits_in_one_commit(club):
    game = club("coal-baron", 3, seed="records-steps")
    player, _ = _turn_of_several_steps(game)
    game.pull(player)
    shown = game.pbem("git", "moves", game.clones[player], "--as", player, "--identity", game.keys[player])
    assert shown.code == 0, shown.err
    said = " ".join(shown.out.split())
    assert "The rest of a turn can go in one commit" in said and f"--as {player} --text 'STEP; STEP;" in said
    assert all(len(line) <= WIDTH for line in shown.out.splitlines()), shown.out
    nxt = legal_turn(game.game_dir())[1]
    committed = game.move(player, nxt, pull=False, push=False)
    assert committed.code == 0 and committed.json()["whole_turn"] is True
    other = next(name for name in game.names if name != player)
    game.pull(other)
    waiting = game.pbem("git", "moves", game.clones[other], "--as", other, "--identity", game.keys[other])
    assert "one commit" not in waiting.out
