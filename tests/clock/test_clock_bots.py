"""Seats the referee's bots play, at the level the organiser chooses: a seat given
to a bot at `pbem new` or later by `pbem replace`, logged as the bot's and never timed; the `bot` timeout policy's
level, per seat; every level refused when it is none. The search plays at tiny budgets here (search:2)."""
from __future__ import annotations

import copy

import pytest

from pbem.engine import engine
from pbem.store import yamlio

DEADLINE = ("--deadline", "72h", "--reminder", "24h")


def bot_entries(game, player: str) -> list[dict]:
    return [e for e in engine.read_log(game.gd, full=True)["entries"] or [] if e["player"] == player
            and e["by"] == "bot"]


def play_alice(game, turns: int) -> None:
    """Alice plays her first legal move whenever she is to act, `turns` times (the bot answers in between)."""
    for _ in range(turns):
        player, text = game.first_legal()
        if player != "alice":
            return
        result = game.pbem("move", game.dir, "--as", "alice", "--text", text, "--now", game.at(1))
        assert result.code == 0, result.err


def test_a_seat_given_to_a_bot_at_new_plays_every_move_logged_as_the_bots_and_verify_remakes_them(clock_game):
    game = clock_game(*DEADLINE, "--bot", "bob=search:2", game="chartered")
    play_alice(game, 4)
    entries = bot_entries(game, "bob")
    assert entries, "bob's seat played no move"
    for entry in entries:  # a bot's entry: not a timeout, the level as it played, the bots' versions
        assert entry["reason"] == "search:2 bot" and entry["bot"] == "search:2"
        assert entry["bot_version"] == game.gd.game.bot_version and entry["search_version"] >= 1
    assert game.env()["bots"] == {"bob": "search:2"}
    assert game.pbem("verify", game.dir).code == 0
    # a bot move the bot did not make fails verification: verify makes every bot move again
    log = engine.read_log(game.gd, full=True)
    forged = copy.deepcopy(log)
    index = log["entries"].index(entries[0])
    legal = game.gd.game.rules.legal_moves(
        engine.replay(game.gd, game.env()["seed"], yamlio.load_file(game.dir / "components.yaml"),
                      {**log, "entries": log["entries"][:index]})[0], "bob")
    other = next(text for text in (game.gd.game.format_move(m) for m in legal)
                 if text != entries[0]["moves"][0] and "(" not in text and ".." not in text)
    forged["entries"][index]["moves"] = [other]
    with pytest.raises(engine.PbemError, match="search:2 seat"):
        engine.replay(game.gd, game.env()["seed"], yamlio.load_file(game.dir / "components.yaml"), forged)


def test_no_deadline_reminder_or_missed_deadline_is_counted_against_a_bot_seat(clock_game):
    """The bot answers at once, so its decisions never wait: days of ticks remind and time out only alice."""
    game = clock_game(*DEADLINE, "--on-timeout", "first-legal", "--timeouts", "50", "--bot", "bob=greedy",
                      game="chartered")
    for hours in (24, 48, 72, 100, 150, 200, 250):
        for event in game.tick(hours)["games"][0]["events"]:
            assert event["player"] == "alice", event
    record = game.env()["clock"]
    assert "bob" not in record["strikes"] and bot_entries(game, "bob")
    assert all(msg["To"].startswith("alice") for msg in game.new_mails() if "reminder" in msg["Subject"].lower())


def test_a_bot_seat_of_a_game_made_before_seats_had_a_holder_is_still_the_bots_in_ticks_and_verify(clock_game):
    """An earlier pbem's `pbem new --bot` wrote no `holder: bot` for the seat in secrets.yaml: the referee's state
    says which seats its bots play, so days of ticks remind and time out only the player, the bot plays its moves,
    verify makes them again, and secrets.yaml stays as that pbem wrote it."""
    game = clock_game(*DEADLINE, "--on-timeout", "first-legal", "--timeouts", "50", "--bot", "bob=greedy",
                      game="chartered")
    path = game.dir / "referee" / "secrets.yaml"
    secrets = yamlio.load_file(path)
    assert [entry.pop("holder") for entry in secrets["players"] if "holder" in entry] == ["bot"]
    path.write_text(yamlio.dumps(secrets))
    older = path.read_bytes()
    for hours in (24, 48, 72, 100, 150):
        for event in game.tick(hours)["games"][0]["events"]:
            assert event["player"] == "alice", event
    assert "bob" not in game.env()["clock"]["strikes"] and bot_entries(game, "bob")
    assert game.pbem("verify", game.dir).code == 0
    assert path.read_bytes() == older


def test_the_organiser_hands_a_seat_to_a_bot_and_back_to_a_player_by_replace(clock_game):
    game = clock_game(*DEADLINE, game="chartered")
    player, _ = game.first_legal()
    result = game.pbem("replace", game.dir, "--seat", player, "--bot", "greedy", "--now", game.at(1), "--format",
                       "json")
    assert result.code == 0, result.err
    answer = result.json()
    assert answer["bot"] == "greedy" and answer["referee_moves"], answer  # it was to act: it played at once
    assert game.env()["bots"] == {player: "greedy"}
    replaced = engine.read_log(game.gd, full=True)["entries"][answer["number"] - 1]
    assert replaced["moves"] == ["replace"] and replaced["reason"] == "seat handed to the greedy bot"
    assert game.first_legal()[0] != player  # whoever must act now, it is not the bot
    result = game.pbem("replace", game.dir, "--seat", player, "--by", "zoe", "--now", game.at(2))
    assert result.code == 0, result.err
    assert not game.env().get("bots")  # zoe plays the seat: the bot is gone
    assert game.pbem("verify", game.dir).code == 0


def test_a_resigned_seat_handed_to_a_bot_plays_at_the_bots_level(clock_game):
    """A resigned seat plays the move that changes the game least (rules.md of each game); the organiser who wants
    it played well gives it to a bot: from then on its moves are the bot's."""
    game = clock_game(*DEADLINE, game="chartered", players=3)
    engine.resign(game.gd, "carol", by="referee")
    assert game.pbem("replace", game.dir, "--seat", "carol", "--bot", "search:2", "--now", game.at(2)).code == 0
    assert "carol" not in game.env()["resigned"]
    for _ in range(6):
        player, text = game.first_legal()
        assert game.pbem("move", game.dir, "--as", player, "--text", text, "--now", game.at(3)).code == 0
    later = bot_entries(game, "carol")
    assert later and all(entry["bot"] == "search:2" for entry in later)


def test_the_bot_timeout_policy_plays_each_seat_at_its_own_level(clock_game):
    game = clock_game(*DEADLINE, "--on-timeout", "bot", "--timeout-bot", "random", "--timeout-bot", "bob=greedy",
                      game="chartered")
    assert game.env()["clock"]["timeout_bots"] == {"alice": "random", "bob": "greedy"}
    assert game.pbem("deadline", game.dir, "--timeout-bot", "alice=search:2", "--now", game.at(1)).code == 0
    assert game.env()["clock"]["timeout_bots"] == {"alice": "search:2", "bob": "greedy"}
    game.tick(80)
    game.tick(160)
    timeouts = [e for e in engine.read_log(game.gd, full=True)["entries"] if e.get("reason") == "timeout (bot)"]
    assert {e["player"]: e["bot"] for e in timeouts} == {"alice": "search:2", "bob": "greedy"}
    assert game.pbem("verify", game.dir).code == 0


def test_a_new_games_bot_timeouts_are_the_search_by_default(clock_game):
    game = clock_game(*DEADLINE, "--on-timeout", "bot", game="chartered")
    budget = game.gd.game.meta["search"]["budget"]
    assert game.env()["clock"]["timeout_bots"] == {"alice": f"search:{budget}", "bob": f"search:{budget}"}


@pytest.mark.parametrize("args,code", [
    (("new", "chartered", "{root}/x1", "--player", "a", "--player", "b", "--bot", "b=clever"), 2),
    (("new", "chartered", "{root}/x2", "--player", "a", "--player", "b", "--bot", "b=search:0"), 2),
    (("new", "chartered", "{root}/x3", "--player", "a", "--player", "b", "--bot", "c=greedy"), 1),
    (("new", "chartered", "{root}/x4", "--player", "a", "--player", "b", "--bot", "b"), 1),
    (("new", "chartered", "{root}/x5", "--player", "a", "--player", "b", "--bot", "a=greedy", "--bot", "b=greedy"), 1),
    (("new", "chartered", "{root}/x6", "--player", "a", "--player", "b", "--deadline", "72h", "--timeout-bot",
      "a=search:-1"), 2),
    (("replace", "{dir}", "--seat", "alice", "--bot", "search:x"), 2),
    (("replace", "{dir}", "--seat", "alice", "--bot", "greedy", "--by", "zoe"), 1),
    (("replace", "{dir}", "--seat", "alice"), 1),
    (("deadline", "{dir}", "--timeout-bot", "nobody=greedy"), 2),
    (("deadline", "{dir}", "--timeout-bot", "greedy:3"), 2),
    (("demo", "chartered", "--bot", "clever"), 2),
    (("demo", "chartered", "--bots", "search:0,greedy"), 2),
    (("demo", "chartered", "--bots", "greedy,greedy,greedy", "--players", "2"), 1),
])
def test_an_unknown_bot_level_a_budget_below_1_or_a_seat_that_is_not_there_is_refused(clock_game, args, code):
    game = clock_game(*DEADLINE, game="chartered")
    before = sorted(p.name for p in game.root.iterdir())
    result = game.pbem(*[a.format(root=game.root, dir=game.dir) for a in args])
    assert result.code == code, (result.code, result.err)
    assert "Traceback" not in result.err and result.err.strip()
    assert sorted(p.name for p in game.root.iterdir()) == before  # nothing made


@pytest.mark.parametrize("code, by_bot, reason, handed", [
    ("en", "bob (bot)", "(greedy bot)", "seat handed to the referee's greedy bot"),
    ("fr", "bob (robot)", "(robot glouton)", "place confiée au robot glouton de l'arbitre"),
    ("zh-Hant", "bob（電腦）", "（貪婪電腦）", "座位交給裁判的貪婪電腦"),
])
def test_a_bot_seats_moves_are_marked_as_the_bots_in_the_players_language(clock_game, code, by_bot, reason, handed):
    """The report's last moves mark a bot seat's moves as the bot's (a whole message: `bob (bot)`), its reason
    names the bot in the reader's language, and the hand-over reads in it too: no English `greedy bot` in a French
    or a Chinese report."""
    game = clock_game(*DEADLINE, game="chartered")
    result = game.pbem("replace", game.dir, "--seat", "bob", "--bot", "greedy")
    assert result.code == 0, result.err
    play_alice(game, 2)
    assert bot_entries(game, "bob")
    text = game.pbem("status", game.dir, "--language", code).out
    assert by_bot in text and reason in text, text
    assert handed in text, text
    if code != "en":
        assert "greedy bot" not in text and "(bot)" not in text and "seat handed" not in text
