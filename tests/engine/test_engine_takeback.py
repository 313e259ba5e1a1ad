"""Takeback by consent, for every title: a player's last decision is taken back when every other player agrees
before the deadline and nothing was revealed by it or since (the game goes on and verifies); one player's decline
or the deadline refuses it; a decision that drew a card or showed hidden information cannot be taken back, and the
refusal says why; a finished game with takebacks verifies from its public files alone."""
from __future__ import annotations

import shutil

import pytest

from pbem import bots
from pbem.clock import correspondence, takebacks
from pbem.contract import PbemError
from pbem.engine import engine
from pbem.store.gamedir import read_components
from support import snapshot

TITLES = [("coal-baron", 2), ("gold-fever", 3), ("chartered", 2), ("heartland-hauling", 2)]
NOW = "2026-03-01T12:00:00Z"
LATER = "2026-03-01T13:00:00Z"
MAX_MOVES = 80


def new_game(tmp_path, game_id: str, count: int, deadline: int | None = None):
    names = ["ann", "bob", "cat", "dan"][:count]
    directory = tmp_path / game_id
    deadlines = None if deadline is None else {"deadline": deadline, "reminder": None, "on_timeout": "wait",
                                               "timeouts": None, "vacation_days": 14, "started": None,
                                               "extension": 0, "due": None, "reminded": False, "paused": None,
                                               "credit": {}, "strikes": {}, "vacations": [], "vacation_used": {}}
    correspondence.create(game_id, directory, [(name, None) for name in names], seed="takeback",
                          deadlines=deadlines, now=NOW)
    return directory


def to_act(directory) -> str:
    return engine.status(engine.open_game(directory))["to_act"]


def play_first_legal(directory) -> str:
    """The player to act plays their first legal move (entered by the referee on their word); returns who."""
    gd = engine.open_game(directory)
    env = engine.load_state(gd)
    player = gd.game.rules.pending(env["state"])["player"]
    move = gd.game.normalise(bots.first_legal(gd.game.rules.legal_moves(env["state"], player)))
    correspondence.submit(gd, player, [gd.game.format_move(move)], by="referee", now=NOW)
    return player


def ask(directory, player, now=NOW):
    return takebacks.request(engine.open_game(directory), player, by="referee", now=now)


def reply(directory, player, agree, now=NOW):
    return takebacks.answer(engine.open_game(directory), player, agree, by="referee", now=now)


def find(directory, allowed: bool):
    """Play first legal moves until the mover's takeback is allowed (asked: the request's answer) or forbidden (the
    refusal's message); nothing else is written on the way."""
    for _ in range(MAX_MOVES):
        mover = play_first_legal(directory)
        try:
            result = ask(directory, mover)
        except PbemError as exc:
            if not allowed:
                return mover, str(exc)
            continue
        if allowed:
            return mover, result
        for other in result["asked"]["waiting"][:1]:
            reply(directory, other, False)
    pytest.fail(f"no {'allowed' if allowed else 'forbidden'} takeback in {MAX_MOVES} moves")


def state_of(directory) -> dict:
    return engine.load_state(engine.open_game(directory))["state"]


@pytest.mark.parametrize("game_id,count", TITLES)
def test_a_takeback_every_other_player_agrees_to_puts_back_the_position_and_the_game_goes_on(tmp_path, game_id,
                                                                                           count):
    directory = new_game(tmp_path, game_id, count)
    mover, asked = None, None
    for _ in range(MAX_MOVES):
        before = state_of(directory)
        mover = play_first_legal(directory)
        try:
            asked = ask(directory, mover)
            break
        except PbemError:
            continue
    assert asked is not None and asked["outcome"] is None and mover not in asked["asked"]["waiting"]
    for other in asked["asked"]["waiting"]:
        result = reply(directory, other, True)
    assert result["outcome"] == "granted" and result["to_act"] == mover
    assert state_of(directory) == before
    assert [entry["moves"] for entry in result["entries"]][-1] == [engine.TAKEBACK_GRANTED]
    play_first_legal(directory)  # the game goes on from the position before the decision
    assert engine.verify(engine.open_game(directory))["result"] == "ok"


@pytest.mark.parametrize("game_id,count", TITLES)
def test_a_takeback_one_player_declines_is_refused_and_the_move_stands(tmp_path, game_id, count):
    directory = new_game(tmp_path, game_id, count)
    _, asked = find(directory, allowed=True)
    after = state_of(directory)
    result = reply(directory, asked["asked"]["waiting"][0], False)
    assert result["outcome"] == "refused" and "declined" in result["why"].english()
    assert state_of(directory) == after
    with pytest.raises(PbemError, match="no takeback is asked"):
        reply(directory, asked["asked"]["waiting"][-1], True)
    assert engine.verify(engine.open_game(directory))["result"] == "ok"


@pytest.mark.parametrize("game_id,count", TITLES)
def test_a_takeback_not_answered_before_the_deadline_is_refused(tmp_path, game_id, count):
    directory = new_game(tmp_path, game_id, count, deadline=3600)
    _, asked = find(directory, allowed=True)
    assert asked["asked"]["until"] == LATER  # the game's move deadline from the request
    after = state_of(directory)
    assert takebacks.expire(engine.open_game(directory), NOW) is None  # not yet
    result = reply(directory, asked["asked"]["waiting"][0], True, now=LATER)
    assert result["outcome"] == "refused" and "deadline passed" in result["why"].english()
    assert state_of(directory) == after
    assert engine.verify(engine.open_game(directory))["result"] == "ok"


@pytest.mark.parametrize("game_id,count", TITLES)
def test_a_decision_that_drew_or_showed_hidden_information_cannot_be_taken_back(tmp_path, game_id, count):
    directory = new_game(tmp_path, game_id, count)
    for _ in range(MAX_MOVES):
        mover = play_first_legal(directory)
        files = snapshot(directory)
        try:
            ask(directory, mover)
        except PbemError as exc:
            assert "cannot be taken back" in str(exc)
            assert any(why in str(exc) for why in ("drew", "shown hidden information", "rolled dice"))
            assert snapshot(directory) == files  # refused: nothing written
            return
        reply(directory, to_act(directory) if to_act(directory) != mover else
              engine.load_state(engine.open_game(directory))["takeback"]["waiting"][0], False)
    pytest.fail("no decision that revealed anything")


def test_the_tick_refuses_a_takeback_whose_deadline_passed(tmp_path):
    directory = new_game(tmp_path, "gold-fever", 3, deadline=3600)
    find(directory, allowed=True)
    result = takebacks.expire(engine.open_game(directory), LATER)
    assert result["outcome"] == "refused" and "takeback" not in engine.load_state(engine.open_game(directory))
    assert engine.read_log(engine.open_game(directory), full=True)["entries"][-1]["moves"] == \
        [engine.TAKEBACK_REFUSED]


def test_a_takeback_is_asked_only_of_ones_own_last_decision_and_once_at_a_time(tmp_path):
    directory = new_game(tmp_path, "gold-fever", 3)
    first = to_act(directory)
    with pytest.raises(PbemError, match="no decision to take back"):
        ask(directory, first)
    mover, asked = find(directory, allowed=True)
    with pytest.raises(PbemError, match="already asked"):
        ask(directory, asked["asked"]["waiting"][0])
    with pytest.raises(PbemError, match="is not asked"):
        reply(directory, mover, True)


def test_the_requesters_queue_is_dropped_and_they_are_told(tmp_path):
    directory = new_game(tmp_path, "gold-fever", 3)
    gd = engine.open_game(directory)
    mover = to_act(directory)
    correspondence.submit(gd, mover, ["bid 1", "take 1"], by="referee", now=NOW)
    assert engine.status(engine.open_game(directory), mover)["queue"]["turns"]
    asked = ask(directory, mover)
    for other in asked["asked"]["waiting"]:
        result = reply(directory, other, True)
    assert result["outcome"] == "granted" and result["dropped"] == [mover]
    queue = engine.status(engine.open_game(directory), mover)["queue"]
    assert not queue["turns"] and "a takeback undid the moves from move 1 on" in queue["notices"][-1]


@pytest.mark.parametrize("game_id,count", TITLES)
def test_a_finished_game_with_takebacks_verifies_from_its_public_files(tmp_path, game_id, count):
    directory = new_game(tmp_path, game_id, count)
    _, asked = find(directory, allowed=True)
    for other in asked["asked"]["waiting"]:
        reply(directory, other, True)
    for name in engine.open_game(directory).players:
        correspondence.submit(engine.open_game(directory), name, ["resign"], by="referee", now=NOW)
    assert engine.status(engine.open_game(directory))["finished"]
    public = tmp_path / "public"
    shutil.copytree(directory, public, ignore=shutil.ignore_patterns("referee", ".lock", ".txn"))
    checked = engine.verify(engine.open_game(public))
    assert checked["result"] == "ok" and checked["seed_checked"]
    assert engine.TAKEBACK_GRANTED in [entry["moves"][0] for entry in engine.read_log(engine.open_game(public))
                                       ["entries"]]


def test_verify_refuses_a_takeback_granted_after_a_decline(tmp_path):
    directory = new_game(tmp_path, "gold-fever", 3)
    _, asked = find(directory, allowed=True)
    for other in asked["asked"]["waiting"]:
        reply(directory, other, True)
    gd = engine.open_game(directory)
    env = engine.load_state(gd)
    log = engine.read_log(gd, full=True)
    components = read_components(gd, gd.meta["components_sha256"])
    engine.replay(gd, env["seed"], components, log)  # as written: it replays
    declined = {**log, "entries": [dict(entry, moves=[engine.TAKEBACK_DECLINE])
                                   if entry["moves"] == [engine.TAKEBACK_AGREE] else entry
                                   for entry in log["entries"]]}
    with pytest.raises(PbemError, match="a takeback granted that was declined"):
        engine.replay(gd, env["seed"], components, declined)


def test_the_command_line_asks_answers_and_the_tick_refuses_a_takeback_too_late(tmp_path, pbem):
    directory = tmp_path / "g"
    made = pbem("new", "gold-fever", directory, "--player", "ann", "--player", "bob", "--player", "cat",
                "--seed", "takeback", "--deadline", "1h", "--now", NOW)
    assert made.code == 0, made.err
    mover = to_act(directory)
    assert pbem("move", directory, "--as", mover, "--text", "bid 2", "--now", NOW).code == 0
    asked = pbem("takeback", directory, "--as", mover, "--now", NOW)
    assert asked.code == 0 and f"{mover} asks to take back move 1." in asked.out, asked.err
    assert f"by {LATER} at the latest" in asked.out
    both = pbem("takeback", directory, "--as", "ann", "--agree", "--decline")
    assert both.code == 1
    again = pbem("takeback", directory, "--as", mover, "--format", "json")
    assert again.code == 2 and "already asked" in again.err
    ticked = pbem("tick", directory, "--no-mail", "--now", LATER)
    assert ticked.code == 0 and "is refused: the deadline passed" in ticked.out, ticked.out + ticked.err
    assert engine.verify(engine.open_game(directory))["result"] == "ok"


def test_a_pending_takeback_is_shown_in_every_status_until_it_is_answered(tmp_path):
    from support import Pbem
    pbem = Pbem()
    directory = new_game(tmp_path, "gold-fever", 3, deadline=86400)
    mover = play_first_legal(directory)
    asked = ask(directory, mover)
    others = asked["asked"]["waiting"]
    shown = f"{mover} asks to take back move 1: waiting for the answer of {', '.join(others)}, until"
    for reader in (None, mover, *others):
        text = pbem("status", directory, *(["--as", reader] if reader else [])).out
        assert shown in " ".join(text.split()), (reader, text)
    public = pbem("status", directory, "--format", "json").json()["takeback"]
    assert (public["by"], public["waiting"]) == (mover, others) and public["until"]
    reply(directory, others[0], True)
    assert pbem("status", directory, "--format", "json").json()["takeback"]["waiting"] == others[1:]
    reply(directory, others[1], False)
    assert "takeback" not in pbem("status", directory, "--format", "json").json()
    assert "asks to take back" not in pbem("status", directory).out
