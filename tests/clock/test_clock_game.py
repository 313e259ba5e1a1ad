"""Deadlines on real game directories, through the CLI with an injected clock (--now): due times in the state and
the reports, reminders mailed once, each timeout policy, idempotent ticks, vacations, the organiser's changes,
seats handed on, and refusals that change nothing."""
from __future__ import annotations

import copy

import pytest

from pbem.engine import engine
from pbem.play import movefile
from pbem.store import yamlio
from pbem.text import times
from support import snapshot

T0 = "2025-12-01T12:00:00Z"

DEADLINE = ("--deadline", "72h", "--reminder", "24h")


def test_new_with_a_deadline_records_the_due_time_and_status_and_moves_show_it(clock_game):
    game = clock_game(*DEADLINE, "--on-timeout", "first-legal")
    status = game.pbem("status", game.dir, "--format", "json").json()
    assert status["clock"]["due"] == "2025-12-04T12:00:00Z" and status["clock"]["on_timeout"] == "first-legal"
    assert game.env()["clock"]["started"] == "2025-12-01T12:00:00Z"
    player = status["to_act"]
    assert f"{player} must move by Thu 4 Dec 2025 12:00 UTC (in 2 days)" in game.pbem("moves", game.dir, "--now",
                                                                                   game.at(24)).out
    assert f"{player} must move by Thu 4 Dec 2025 12:00 UTC (in 3 days)" in game.pbem("status", game.dir, "--as",
                                                                                   "bob", "--now", T0).out


def test_a_game_without_a_deadline_has_no_clock_and_a_tick_leaves_it_alone(clock_game):
    game = clock_game()
    assert "clock" not in game.public() and "clock" not in game.env()
    before = snapshot(game.dir)
    assert game.tick(10_000)["games"][0]["changed"] is False
    assert snapshot(game.dir) == before and game.new_mails() == []


def test_an_accepted_move_starts_the_next_decisions_deadline_at_its_now(clock_game):
    game = clock_game(*DEADLINE)
    player, move = game.first_legal()
    assert game.pbem("move", game.dir, "--as", player, "--text", move, "--now", game.at(5)).code == 0
    assert game.public()["clock"]["due"] == game.at(5 + 72)


def test_the_reminder_is_mailed_once_when_its_time_comes_and_a_second_tick_changes_nothing(clock_game):
    game = clock_game(*DEADLINE)
    player = game.public()["to_act"]
    assert game.tick(47)["games"][0]["events"] == [] and game.new_mails() == []
    events = game.tick(48)["games"][0]["events"]
    assert [(e["kind"], e["player"]) for e in events] == [("remind", player)]
    (mail,) = game.new_mails()
    assert mail["To"] == f"{player}@club.example" and "reminder" in mail["Subject"]
    assert mail["Auto-Submitted"] == "auto-generated"
    assert "is due by Thu 4 Dec 2025 12:00 UTC (in 1 day)" in game.body(mail)
    after_first = snapshot(game.dir)
    for hours in (48, 49, 71):
        assert game.tick(hours)["games"][0]["changed"] is False
    assert game.new_mails() == [] and snapshot(game.dir) == after_first


def test_timeout_first_legal_plays_the_first_legal_move_logged_by_the_referee_and_tells_the_players(clock_game):
    game = clock_game(*DEADLINE, "--on-timeout", "first-legal")
    player, move = game.first_legal()
    game.tick(72)
    (entry,) = engine.read_log(game.gd, full=True)["entries"]
    assert entry == {"number": 1, "player": player, "by": "referee", "moves": [move], "chance": entry["chance"],
                     "reason": "timeout (first-legal)"}
    mails = {m["To"]: m for m in game.new_mails()}
    notice = mails.pop(f"{player}@club.example")
    assert "timeout" in notice["Subject"] and f"the referee played {move} for {player}" in game.body(notice)
    assert all("Move 1: the referee played" in game.body(m) for m in mails.values())
    assert game.public()["clock"]["strikes"] == {player: 1}
    assert game.public()["clock"]["due"] == game.at(144)  # the next decision started when the last timed out
    assert game.pbem("verify", game.dir).code == 0
    before = snapshot(game.dir)
    game.tick(72)
    assert snapshot(game.dir) == before and game.new_mails() == []


def test_timeout_bot_plays_the_bots_move_which_verify_recomputes(clock_game):
    game = clock_game(*DEADLINE, "--on-timeout", "bot")
    game.tick(72)
    log = engine.read_log(game.gd, full=True)
    (entry,) = log["entries"]
    assert entry["by"] == "referee" and entry["reason"] == "timeout (bot)"
    budget = game.gd.game.meta["search"]["budget"]
    assert entry["bot"] == f"search:{budget}"  # a new game's timeouts: the search, with the budget named
    assert game.pbem("verify", game.dir).code == 0
    # the same move again, from the seed and the move number alone (never the clock)
    gd, env = game.gd, game.env()
    setup = engine.replay(gd, env["seed"], yamlio.load_file(game.dir / "components.yaml"),
                          {**log, "entries": None})[0]
    again = engine.timeout_choice(gd.game, setup, entry["player"], "bot", engine.MoveAt(env["seed"], gd.id, 1),
                                  entry["bot"])
    assert gd.game.format_move(again) == entry["moves"][0]
    # a log whose timeout move is not the bot's fails verification
    legal = [gd.game.format_move(m) for m in gd.game.rules.legal_moves(setup, entry["player"])]
    other = next(text for text in legal if text != entry["moves"][0] and "{" not in text and ".." not in text)
    forged = copy.deepcopy(log)
    forged["entries"][0]["moves"] = [other]
    with pytest.raises(engine.PbemError, match="bot move"):
        engine.replay(gd, env["seed"], yamlio.load_file(game.dir / "components.yaml"), forged)


def test_timeout_wait_only_reminds_again_and_after_the_limit_the_seat_counts_as_resigned(clock_game):
    game = clock_game(*DEADLINE, "--on-timeout", "wait", "--timeouts", "2")
    player = game.public()["to_act"]
    game.tick(48)
    game.new_mails()
    game.tick(72)
    assert engine.read_log(game.gd)["entries"] is None
    assert game.public()["clock"]["strikes"] == {player: 1} and game.public()["clock"]["due"] == game.at(144)
    (late,) = game.new_mails()
    assert "overdue" in late["Subject"] and "After 2 in a row you count as resigned" in game.body(late)
    game.tick(120)  # reminded again before the new due time
    assert [m["Subject"] for m in game.new_mails()] == [f"[g1] Coal Baron: move 1, reminder, due "
                                                        f"{times.readable(game.at(144))}"]
    game.tick(144)
    entries = engine.read_log(game.gd, full=True)["entries"]
    assert entries[0] == {"number": 1, "player": player, "by": "referee", "moves": ["resign"], "chance": [],
                          "reason": "2 consecutive timeouts"}
    assert player in game.env()["resigned"]
    assert any("you count as resigned" in m["Subject"] for m in game.new_mails())
    assert game.pbem("verify", game.dir).code == 0


def test_a_move_ends_a_run_of_timeouts(clock_game):
    game = clock_game(*DEADLINE, "--on-timeout", "wait", "--timeouts", "2")
    player = game.public()["to_act"]
    game.tick(72)
    _, move = game.first_legal()
    assert game.pbem("move", game.dir, "--as", player, "--text", move, "--now", game.at(73)).code == 0
    assert game.public()["clock"]["strikes"] == {}


def test_a_late_tick_settles_every_overdue_decision_as_ticks_on_time_would(clock_game):
    on_time = clock_game("--deadline", "12h", "--on-timeout", "first-legal", where="on-time")
    late = clock_game("--deadline", "12h", "--on-timeout", "first-legal", where="late")
    for hours in range(6, 61, 6):
        on_time.tick(hours)
    late.tick(60)
    assert [len(engine.read_log(g.gd)["entries"]) for g in (on_time, late)] == [5, 5]
    assert engine.read_log(on_time.gd, full=True)["entries"] == engine.read_log(late.gd, full=True)["entries"]
    assert on_time.env()["state"] == late.env()["state"] and on_time.env()["clock"] == late.env()["clock"]


def test_a_vacation_pushes_the_deadline_past_it_and_every_player_sees_it(clock_game):
    game = clock_game(*DEADLINE)
    player = game.public()["to_act"]
    other = next(name for name in game.names if name != player)
    result = game.pbem("vacation", game.dir, "--as", player, "2025-12-02", "2025-12-03", "--now", game.at(1))
    assert result.code == 0, result.err
    assert game.public()["clock"]["due"] == "2025-12-06T12:00:00Z"  # two whole days on vacation inside it
    assert game.public()["clock"]["vacations"] == [{"player": player, "from": "2025-12-02T00:00:00Z",
                                                   "to": "2025-12-04T00:00:00Z"}]
    seen_by_other = game.pbem("status", game.dir, "--as", other, "--now", game.at(2)).out
    assert f"{player} will be on vacation from Tue 2 Dec 2025 00:00 UTC to Thu 4 Dec 2025 00:00 UTC" in " ".join(
        seen_by_other.split())  # (the report wraps its prose at 78 columns)
    assert game.tick(72)["games"][0]["events"] == []  # no timeout at the old due time
    assert game.tick(96)["games"][0]["events"] == [{"kind": "remind", "player": player,
                                                    "due": "2025-12-06T12:00:00Z", "move_number": 1}]
    assert game.public()["clock"]["vacations"] == []  # over: forgotten
    assert game.pbem("verify", game.dir).code == 0


def test_a_cancelled_vacation_gives_back_the_time_not_taken(clock_game):
    game = clock_game(*DEADLINE)
    player = game.public()["to_act"]
    game.pbem("vacation", game.dir, "--as", player, "2025-12-02", "2025-12-03", "--now", game.at(1))
    assert game.pbem("vacation", game.dir, "--as", player, "--cancel", "--now", game.at(24)).code == 0
    assert game.public()["clock"]["due"] == "2025-12-05T00:00:00Z"  # the 12 hours taken still count
    assert game.env()["clock"]["vacation_used"] == {player: {"2025": 12 * 3600}}
    assert game.pbem("vacation", game.dir, "--as", player, "--cancel", "--now", game.at(25)).code == 1


def test_a_vacation_beyond_the_yearly_allowance_is_refused_and_changes_nothing(clock_game):
    game = clock_game(*DEADLINE, "--vacation-days", "5")
    before = snapshot(game.dir)
    result = game.pbem("vacation", game.dir, "--as", "alice", "2025-12-10", "2025-12-15", "--now", game.at(1))
    assert result.code == 1 and "5 days of vacation a year" in result.err
    assert snapshot(game.dir) == before


def test_the_organiser_extends_pauses_and_resumes_the_clock(clock_game):
    game = clock_game(*DEADLINE)
    player = game.public()["to_act"]
    other = next(name for name in game.names if name != player)
    data = game.pbem("deadline", game.dir, "--extend", f"{player}:1d", "--extend", f"{other}:12h", "--now",
                     game.at(1), "--format", "json").json()
    assert data["clock"]["due"] == "2025-12-05T12:00:00Z" and game.env()["clock"]["credit"] == {other: 43200}
    game.pbem("deadline", game.dir, "--pause", "--now", game.at(10))
    assert game.public()["clock"]["due"] is None and game.tick(1000)["games"][0]["events"] == []
    game.pbem("deadline", game.dir, "--resume", "--now", game.at(34))
    assert game.public()["clock"]["due"] == "2025-12-06T12:00:00Z"
    assert "paused" not in game.pbem("deadline", game.dir).out.lower()


def test_deadlines_may_be_added_to_a_game_that_had_none(clock_game):
    game = clock_game()
    assert game.pbem("deadline", game.dir).code == 1
    data = game.pbem("deadline", game.dir, "--set", "48h", "--on-timeout", "bot", "--now", game.at(3),
                     "--format", "json").json()
    assert data["clock"]["due"] == game.at(51) and data["clock"]["on_timeout"] == "bot"


def test_a_seat_handed_on_gets_a_new_secret_the_old_one_stops_working_and_the_log_says_so(clock_game, tmp_path):
    game = clock_game(*DEADLINE, "--on-timeout", "wait", "--timeouts", "1")
    seat = game.public()["to_act"]
    game.tick(72)  # the seat times out once: it counts as resigned, the referee plays it
    assert seat in game.env()["resigned"]
    game.new_mails()
    result = game.pbem("replace", game.dir, "--seat", seat, "--by", "zoe:zoe@club.example", "--now", game.at(80),
                       "--outbox", game.outbox, "--format", "json")
    assert result.code == 0, result.err
    secret = result.json()["secret"]
    assert secret != game.secrets[seat] and seat not in game.env()["resigned"]
    entry = engine.read_log(game.gd)["entries"][-1]
    assert entry["moves"] == ["replace"] and entry["reason"] == "seat handed to zoe" and entry["player"] == seat
    (welcome,) = game.new_mails()
    assert welcome["To"] == "zoe@club.example" and secret in game.body(welcome)
    assert game.secrets[seat] not in game.body(welcome)
    roster = {p["name"]: p for p in engine.roster(game.gd)}
    assert roster[seat]["holder"] == "zoe" and roster[seat]["former"][0]["secret"] == game.secrets[seat]
    # play on until it is the seat's turn: the old secret is refused, the new one accepted
    while game.public()["to_act"] != seat:
        player, move = game.first_legal()
        assert game.pbem("move", game.dir, "--as", player, "--text", move, "--now", game.at(81)).code == 0
    _, move = game.first_legal()
    number = game.public()["move_number"]
    for key, code in ((game.secrets[seat], 2), (secret, 0)):
        path = tmp_path / "move.yaml"
        path.write_text(movefile.dumps(movefile.build("g1", number, seat, [move], key)))
        assert game.pbem("move", game.dir, path, "--as", seat, "--now", game.at(82)).code == code
    assert game.pbem("verify", game.dir).code == 0


def test_a_signed_move_file_for_the_decision_waiting_is_accepted_after_another_seat_is_handed_on(clock_game,
                                                                                                   tmp_path):
    """A hand-over takes a log entry, not anyone's decision: the move signed for the number the waiting decision
    had is accepted (its entry says which number it answered, the one its signature names), the game still
    verifies, and the same file sent again is stale."""
    game = clock_game(players=3)
    player, move = game.first_legal()
    number = game.public()["move_number"]
    path = tmp_path / "move.yaml"
    path.write_text(movefile.dumps(movefile.build("g1", number, player, [move], game.secrets[player])))
    other = next(name for name in game.names if name != player)
    assert game.pbem("replace", game.dir, "--seat", other, "--by", "zoe").code == 0
    assert game.public()["move_number"] == number + 1
    result = game.pbem("move", game.dir, path, "--as", player, "--format", "json")
    assert result.code == 0, result.err
    entry = next(e for e in engine.read_log(game.gd, full=True)["entries"] if e["player"] == player)
    assert (entry["number"], entry["answers"], entry["moves"]) == (number + 1, number, [move])
    assert "signature" in entry and game.pbem("verify", game.dir).code == 0
    again = game.pbem("move", game.dir, path, "--as", player)
    assert again.code == 2 and "stale move" in again.err


@pytest.mark.parametrize("args,code", [
    (("tick", "{root}", "--now", "2025-12-05T00:00:00Z"), 1),                       # how to mail?
    (("tick", "{root}", "--now", "next tuesday", "--no-mail"), 1),
    (("tick", "{root}/nowhere", "--no-mail"), 2),                                     # not a game, not a root
    (("vacation", "{dir}", "--as", "alice", "2025-12-03"), 1),
    (("vacation", "{dir}", "--as", "nobody", "2025-12-03", "2025-12-04"), 2),
    (("deadline", "{dir}", "--set", "3 days"), 1),
    (("deadline", "{dir}", "--extend", "alice"), 1),
    (("deadline", "{dir}", "--reminder", "80h"), 1),
    (("deadline", "{dir}", "--pause", "--resume"), 1),
    (("replace", "{dir}", "--seat", "alice", "--by", "Zoe"), 1),
    (("replace", "{dir}", "--seat", "nobody", "--by", "zoe"), 2),
    (("notify", "{dir}", "hourly", "--as", "alice"), 1),
    (("pictures", "{dir}", "maybe", "--as", "alice"), 1),
    (("pictures", "{dir}", "off", "--as", "nobody"), 2),
    (("new", "coal-baron", "{root}/g2", "--player", "alice", "--player", "bob", "--reminder", "2h"), 1),
    (("new", "coal-baron", "{root}/g2", "--player", "alice", "--player", "bob", "--notify", "carol=daily"), 1),
])
def test_bad_input_is_refused_with_a_message_and_changes_nothing(clock_game, args, code):
    game = clock_game(*DEADLINE)
    before = snapshot(game.dir)
    result = game.pbem(*[a.format(root=game.root, dir=game.dir) for a in args])
    assert result.code == code, (args, result.out, result.err)
    assert snapshot(game.dir) == before and not (game.root / "g2").exists()


def test_a_players_mail_preference_is_set_at_new_and_changed_later(clock_game):
    game = clock_game(*DEADLINE, "--notify", "turn", "--notify", "bob=daily")
    assert {p["name"]: p.get("notify", "every") for p in engine.roster(game.gd)} == {"alice": "turn", "bob": "daily"}
    assert game.pbem("notify", game.dir, "every", "--as", "bob").code == 0
    assert next(p for p in engine.roster(game.gd) if p["name"] == "bob")["notify"] == "every"


def test_when_every_seat_has_timed_out_the_referee_plays_them_to_its_cap_and_ends_the_game(clock_game, monkeypatch):
    from pbem.play import turns
    monkeypatch.setattr(turns, "ALL_RESIGNED_CAP", 5)
    game = clock_game(*DEADLINE, "--on-timeout", "wait", "--timeouts", "1")
    game.tick(72)
    assert not game.public()["finished"]
    game.tick(144)
    status = game.public()
    assert status["finished"] and status["ended"].startswith("every seat resigned and 5 moves by the referee")
    assert engine.read_log(game.gd, full=True)["entries"][-1]["moves"] == ["end of game"]
    mails = game.new_mails()
    assert mails and all("the referee ended the game: every seat resigned" in " ".join(game.body(m).split())
                         for m in mails[-2:])
    assert game.pbem("verify", game.dir).code == 0
    before = snapshot(game.dir)
    game.tick(300)
    assert snapshot(game.dir) == before and game.new_mails() == []


def other_bot(game):
    """A bot that never makes the move this pbem's greedy bot makes: an earlier bot, for a game in progress."""
    from pbem import bots
    greedy = game.bot.choose

    def choose(view, legal, rnd):
        mine = game.normalise(greedy(view, legal, copy.deepcopy(rnd)))
        return next(m for m in (bots.first_legal([e]) for e in legal) if game.normalise(m) != mine)
    return choose


@pytest.mark.parametrize("recorded", [1, None])
def test_a_timeout_move_of_an_earlier_bot_is_checked_as_legal_and_named_not_failed(clock_game, monkeypatch, recorded):
    """Bots change between pbem versions; a game in progress keeps the entries its bot made. Each records its bot's
    version (or none: made before they did), and verify recomputes only those of this pbem's version."""
    game = clock_game(*DEADLINE, "--on-timeout", "bot")
    with monkeypatch.context() as earlier:
        earlier.setattr(game.gd.game.bot, "choose", other_bot(game.gd.game))
        earlier.setitem(game.gd.game.meta, "bot_version", 1)
        if recorded is None:  # the pbem before entries named their bot
            timeout_move = engine.timeout_move

            def unnamed(*args):
                state, entry = timeout_move(*args)
                return state, {k: v for k, v in entry.items() if k != "bot_version"}
            earlier.setattr(engine, "timeout_move", unnamed)
        game.tick(72)
    (entry,) = engine.read_log(game.gd, full=True)["entries"]
    assert entry["reason"] == "timeout (bot)" and entry.get("bot_version") == recorded
    result = game.pbem("verify", game.dir, "--format", "json")
    assert result.code == 0, result.err
    by = "version 1" if recorded else "an earlier version"
    assert result.json()["notes"][0] == (f"move 1: {entry['player']}'s timeout move was chosen by {by} of the Coal "
                                         f"Baron bot (this pbem has version 2): checked as legal, not recomputed")
    # the same entry claimed by this pbem's bot version is recomputed, and fails
    log = engine.read_log(game.gd, full=True)
    forged = copy.deepcopy(log)
    forged["entries"][0]["bot_version"] = game.gd.game.bot_version
    with pytest.raises(engine.PbemError, match="bot move"):
        engine.replay(game.gd, game.env()["seed"], yamlio.load_file(game.dir / "components.yaml"), forged)


def test_a_new_games_players_hear_only_of_their_turn_unless_they_choose_otherwise(clock_game):
    game = clock_game(*DEADLINE, "--notify", "bob=every")
    assert {p["name"]: p["notify"] for p in engine.roster(game.gd)} == {"alice": "turn", "bob": "every"}
