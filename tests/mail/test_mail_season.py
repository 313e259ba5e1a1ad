"""A season by mail, round two: what a club's season found, each a test.

A hand-over keeps the move number of the decision it interrupts; a switch of mail preference tells what the
player has not heard yet (their turn included); every player hears of each move once (the referee's follow-up
moves, a daily digest after the answers to the player's own mail, a timeout notice and a digest of the same tick,
a seat handed on); the example of the `a..b` note is a move the game accepts; a mail that asks for a move says by
when, in its first lines, before the legal moves and the position."""
from __future__ import annotations

import datetime
import json
import re

import pytest

from pbem import notation
from pbem.clock import clock
from pbem.engine import engine
from pbem.mail import compose
from pbem.play import playout
from pbem.store import registry
from pbem.text import times
from mailkit import MailGame, body_of, create_game, move_mail, run_cli, write_mail
from support import legal_turn

T0 = "2025-12-01T12:00:00Z"


def at(hours: float) -> str:
    return times.iso(times.parse_time(T0) + datetime.timedelta(hours=hours))


def start(games_root, *options, players=2, seed="mail-season") -> MailGame:
    return create_game(games_root, "coal-baron", players, seed=seed, options=("--now", T0, *options))


def receive(games_root, smtp, raw, hours) -> str:
    result = run_cli("mail", "receive", "--games", games_root, "--smtp", smtp.address, "--now", at(hours),
                     input=raw)
    assert result.code == 0, result.output
    return result.stdout


def tick(games_root, smtp, hours) -> None:
    result = run_cli("tick", games_root, "--now", at(hours), "--smtp", smtp.address)
    assert result.code == 0, result.output


def command(game: MailGame, player: str, text: str) -> bytes:
    return write_mail(game.address(player), f"Password: {game.secret(player)}\n{text}\n", f"Re: [{game.id}] {text}")


def play_first_legal(game: MailGame, games_root, smtp, hours, until=lambda player: False) -> tuple[str, int]:
    """Moves by mail (each the first legal move of the player to act) until `until(player to act)`; returns the
    player to act and the move number."""
    for step in range(200):
        player, move, number = legal_turn(game.dir)
        if until(player):
            return player, number
        assert receive(games_root, smtp, move_mail(game, player, [move], move_number=number),
                       hours + step / 100).startswith("accepted")
    raise AssertionError("the condition never came")


def told(mails) -> list[int]:
    """The move numbers the mails tell as news ("Move N: ..." lines; the position's table of moves aside)."""
    return [int(n) for mail in mails for n in re.findall(r"^Move (\d+): ", body_of(mail), re.MULTILINE)]


def to(mails, name: str) -> list:
    return [m for m in mails if m["To"] == f"{name}@players.example"]


# ---------------------------------------------------------------- 1. a hand-over uses up no one's move number

def test_a_hand_over_does_not_make_the_waiting_players_move_stale(games_root, smtp):
    game = start(games_root, "--deadline", "48h", players=3)
    player, move, number = legal_turn(game.dir)
    other = next(name for name in game.players if name != player)
    result = run_cli("replace", game.dir, "--seat", other, "--by", "zoe:zoe@players.example", "--now", at(1),
                     "--smtp", smtp.address)
    assert result.code == 0, result.output
    smtp.take()
    answer = receive(games_root, smtp, move_mail(game, player, [move], move_number=number), 2)
    assert answer.startswith("accepted"), answer
    assert engine.read_log(game.gd)["entries"][-1]["moves"] == [move]


def test_a_move_that_answers_a_decision_already_taken_is_still_stale_after_a_hand_over(games_root, smtp):
    game = start(games_root, players=3)
    player, move, number = legal_turn(game.dir)
    receive(games_root, smtp, move_mail(game, player, [move], move_number=number), 1)
    other = next(name for name in game.players if name != legal_turn(game.dir)[0])
    assert run_cli("replace", game.dir, "--seat", other, "--by", "zoe").code == 0
    smtp.take()
    now_player, now_move, _ = legal_turn(game.dir)
    assert receive(games_root, smtp, move_mail(game, now_player, [now_move], move_number=number), 2) \
        .startswith("rejected")
    assert "stale move" in body_of(smtp.take()[0])


# ---------------------------------------------------------------- 2. a switch of preference loses nothing

def test_switching_from_daily_to_turn_during_ones_turn_tells_the_turn_and_the_moves_since(games_root, smtp):
    game = start(games_root, "--deadline", "48h", "--notify", "bob=daily")
    seen = {"alice": False}

    def bobs_turn_after_alice(player):
        seen["alice"] |= player == "alice"
        return player == "bob" and seen["alice"]
    play_first_legal(game, games_root, smtp, 1, bobs_turn_after_alice)
    entries = engine.read_log(game.gd)["entries"]
    last_own = max((e["number"] for e in entries if e["player"] == "bob"), default=0)
    missed = [e["number"] for e in entries if e["number"] > last_own]  # since the answer to his last move
    assert missed
    smtp.take()
    assert "notify" in receive(games_root, smtp, command(game, "bob", "notify turn"), 3)
    (answer,) = smtp.take()
    text = body_of(answer)
    assert "your turn" in answer["Subject"] and "Your legal moves now" in text and "due by" in text
    assert set(missed) <= set(told([answer]))


# ---------------------------------------------------------------- 3. the first digest after a switch

def test_the_first_digest_after_every_to_daily_tells_only_the_moves_not_heard_of(games_root, smtp):
    game = start(games_root, "--notify", "every")
    play_first_legal(game, games_root, smtp, 1, lambda player: len(engine.read_log(game.gd)["entries"] or []) >= 4)
    smtp.take()
    assert "notify" in receive(games_root, smtp, command(game, "bob", "notify daily"), 2)
    smtp.take()
    before = len(engine.read_log(game.gd)["entries"])
    play_first_legal(game, games_root, smtp, 3, lambda player: len(engine.read_log(game.gd)["entries"]) > before + 2)
    bob = to(smtp.take(), "bob")  # the answers to his own moves
    tick(games_root, smtp, 24)
    bob += to(smtp.take(), "bob")
    assert any("daily digest" in m["Subject"] for m in bob)
    fresh = list(range(before + 1, len(engine.read_log(game.gd)["entries"]) + 1))
    assert sorted(told(bob)) == fresh  # nothing he had heard of before he switched, nothing twice


# ---------------------------------------------------------------- 5. no repeated news

def test_a_turn_player_hears_of_the_referees_follow_up_moves_once(games_root, smtp):
    game = start(games_root, "--notify", "carol=turn", players=3)
    assert receive(games_root, smtp, command(game, "alice", "resign"), 1).startswith("accepted")
    smtp.take()
    carol = []
    for step in range(40):  # alice's seat is played by the referee after carol's moves: follow-up moves
        player, move, number = legal_turn(game.dir)
        receive(games_root, smtp, move_mail(game, player, [move], move_number=number), 2 + step / 100)
        carol += to(smtp.take(), "carol")
    numbers = told(carol)
    assert numbers and len(numbers) == len(set(numbers)), numbers
    assert any(e["player"] == "alice" and e["number"] in numbers for e in engine.read_log(game.gd)["entries"])


def test_a_daily_digest_does_not_repeat_what_the_answers_to_the_players_mail_told(games_root, smtp):
    game = start(games_root, "--notify", "bob=daily")
    play_first_legal(game, games_root, smtp, 1, lambda player: len(engine.read_log(game.gd)["entries"] or []) >= 6)
    bob = to(smtp.take(), "bob")  # the answers to his own moves that asked for his next one
    tick(games_root, smtp, 24)
    bob += to(smtp.take(), "bob")
    numbers = told(bob)
    assert sorted(numbers) == list(range(1, len(engine.read_log(game.gd)["entries"]) + 1)), numbers


def test_a_timeout_notice_and_a_digest_of_the_same_tick_tell_a_move_once(games_root, smtp):
    game = start(games_root, "--deadline", "24h", "--on-timeout", "first-legal", "--notify", "daily")
    smtp.take()
    late, _ = play_first_legal(game, games_root, smtp, 1, lambda player: True)
    tick(games_root, smtp, 25)
    mails = to(smtp.take(), late)
    assert any("timeout" in m["Subject"] for m in mails)
    numbers = told(mails)
    assert numbers and len(numbers) == len(set(numbers)), numbers


def test_every_player_hears_of_a_seat_handed_on(games_root, smtp):
    game = start(games_root, "--notify", "every", players=3)
    player, move, number = legal_turn(game.dir)
    handed = next(name for name in game.players if name != player)
    assert run_cli("replace", game.dir, "--seat", handed, "--by", "zoe").code == 0
    smtp.take()
    receive(games_root, smtp, move_mail(game, player, [move], move_number=number + 1), 1)
    mails = smtp.take()
    for name in game.players:
        if name != handed:
            (mail,) = to(mails, name)
            assert f"seat handed to zoe (seat {handed})" in body_of(mail), name


# ---------------------------------------------------------------- news once, mail once, across a killed run

class Killed(BaseException):
    """The process dies here (nothing below it runs, nothing catches it)."""


def _killed_before_the_bookmarks(monkeypatch, games_root, smtp, hours) -> list:
    """`pbem tick` killed once its mails are sent, before it writes what they told (pbem.mail.news): its mails."""
    from pbem.mail import news
    monkeypatch.setattr(news, "save", lambda books: (_ for _ in ()).throw(Killed()))
    with pytest.raises(Killed):
        run_cli("tick", games_root, "--now", at(hours), "--smtp", smtp.address)
    monkeypatch.undo()
    return smtp.take()


def test_a_tick_killed_after_its_notices_before_its_bookmarks_tells_each_move_once(games_root, smtp, monkeypatch):
    game = start(games_root, "--deadline", "24h", "--on-timeout", "first-legal", "--notify", "daily")
    smtp.take()
    first = _killed_before_the_bookmarks(monkeypatch, games_root, smtp, 25)
    assert any("timeout" in m["Subject"] for m in first)
    tick(games_root, smtp, 25.5)  # the same owed mails again: sent already, so only what is new goes
    again = smtp.take()
    ids = [m["Message-ID"] for m in first + again]
    assert len(ids) == len(set(ids))
    play_first_legal(game, games_root, smtp, 26, lambda player: len(engine.read_log(game.gd)["entries"]) >= 5)
    tick(games_root, smtp, 49)
    mails = first + again + smtp.take()
    entries = len(engine.read_log(game.gd)["entries"])
    for name in game.players:
        assert sorted(told(to(mails, name))) == list(range(1, entries + 1)), name


def test_a_digest_sent_by_a_killed_tick_is_not_sent_again_and_the_next_one_follows_it(games_root, smtp,
                                                                                      monkeypatch):
    game = start(games_root, "--notify", "bob=daily")
    play_first_legal(game, games_root, smtp, 1, lambda player: len(engine.read_log(game.gd)["entries"] or []) >= 6)
    bob = to(smtp.take(), "bob")
    digest = to(_killed_before_the_bookmarks(monkeypatch, games_root, smtp, 24), "bob")
    assert [m for m in digest if "daily digest" in m["Subject"]]
    tick(games_root, smtp, 24.5)
    assert not to(smtp.take(), "bob")  # the digest went: the bookmark is where it left it
    play_first_legal(game, games_root, smtp, 25, lambda player: len(engine.read_log(game.gd)["entries"]) >= 10)
    bob += digest + to(smtp.take(), "bob")
    tick(games_root, smtp, 48)
    bob += to(smtp.take(), "bob")
    assert sorted(told(bob)) == list(range(1, len(engine.read_log(game.gd)["entries"]) + 1))


# ---------------------------------------------------------------- 4. the a..b note's example is a move

FORMS_OPTIONS = {"chartered": {"trades": "wide"}}  # the wide trades are offered as choices of shares


def _positions_with_forms(game, players: int, seeds: int):
    """(state, player, legal moves) of random games' decisions whose legal moves hold a form."""
    names = ["alice", "bob", "carol", "dave"][:players]
    for seed in range(seeds):
        state = playout.start(game, names, FORMS_OPTIONS.get(game.id), seed=f"forms-{seed}")
        for player, _, after in playout.steps(game, state, seed=f"forms-{seed}", bot_seed=seed):
            pending = game.rules.pending(after)
            if pending is None:
                break
            legal = game.rules.legal_moves(after, pending["player"])
            if any(".." in game.format_move(entry) or " in any order)" in game.format_move(entry) for entry in legal):
                yield after, pending["player"], legal  # a move shown as a form: a range, a choice, an ordering


def _declares_forms(game) -> bool:
    """Does the game's notation have a field of several values (a list or a set: shown as a range or a choice)?"""
    return any(":list}" in str(template) or ":set}" in str(template) for template in game.meta["notation"].values())


@pytest.mark.parametrize("game_id", [g.id for g in registry.all_games() if _declares_forms(g)])
def test_the_example_of_a_form_is_a_move_the_game_accepts(game_id):
    game = registry.get(game_id)
    checked = set()
    for state, player, legal in _positions_with_forms(game, min(3, game.max_players), 2):
        choices = [{"move": game.format_move(entry), "description": ""} for entry in legal]
        block = compose.legal_block({"moves": [c["move"] for c in choices], "choices": choices,
                                     "decision": {"description": "a decision"}})
        found = re.search(r"for example `([^`]+)` is written `([^`]+)`", block)
        assert found, block
        shown, example = found.groups()
        if shown in checked:
            continue
        checked.add(shown)
        move = game.parse_move(example)
        assert notation.is_legal(move, legal), f"{example!r} (for {shown!r}) is not a legal move"
    assert checked, f"{game_id}: no position with a form was found"


def test_the_example_of_a_choice_of_words_writes_them_out():
    choices = [{"move": "buy share (any 1..2 of coffee coffee)", "description": ""},
               {"move": "pass", "description": ""}]
    block = compose.legal_block({"moves": [c["move"] for c in choices], "choices": choices,
                                 "decision": {"description": "trade"}})
    assert "`buy share (any 1..2 of coffee coffee)` is written `buy share coffee`" in block
    assert "a..b means one number" not in block  # no number is chosen here


# ---------------------------------------------------------------- 6. what to do and by when, first

def _first_lines(text: str, count: int = 4) -> str:
    return "\n".join(text.splitlines()[:count])


def test_the_turn_mail_starts_with_what_to_do_and_by_when_then_the_legal_moves_then_the_position(games_root, smtp):
    game = start(games_root, "--deadline", "72h", "--on-timeout", "first-legal", "--notify", "every")
    player, move, number = legal_turn(game.dir)
    receive(games_root, smtp, move_mail(game, player, [move], move_number=number), 1)
    nxt = legal_turn(game.dir)[0]
    (mail,) = [m for m in smtp.take() if m["To"] == f"{nxt}@players.example" and "your turn" in m["Subject"]]
    text = body_of(mail)
    head = _first_lines(text)
    assert "Your turn" in head and "due by Thu 4 Dec 2025 13:00 UTC (in 3 days)" in head, head
    assert "the referee plays your first legal move" in head and "then first-legal" not in text
    assert text.index("Your legal moves now") < text.index("How to move") < text.index("=====")
    assert "due" in mail["Subject"]


def test_an_answer_that_refuses_a_move_shows_the_deadline(games_root, smtp):
    game = start(games_root, "--deadline", "72h")
    player, move, number = legal_turn(game.dir)
    receive(games_root, smtp, move_mail(game, player, ["place nowhere"], move_number=number), 1)
    (answer,) = smtp.take()
    text = body_of(answer)
    assert "not applied" in answer["Subject"] and "due by Thu 4 Dec 2025 12:00 UTC" in text
    assert text.index("due by") < text.index("Your legal moves now")


def test_the_moves_command_and_the_status_command_show_the_deadline(games_root, smtp):
    game = start(games_root, "--deadline", "72h")
    player = legal_turn(game.dir)[0]
    for word in ("moves", "status"):
        receive(games_root, smtp, command(game, player, word), 1)
        (answer,) = smtp.take()
        assert "due by Thu 4 Dec 2025 12:00 UTC" in _first_lines(body_of(answer)), word


def test_the_answer_to_vacation_cancel_says_cancelled(games_root, smtp):
    game = start(games_root, "--deadline", "48h")
    receive(games_root, smtp, command(game, "bob", "vacation 2025-12-02 2025-12-04"), 1)
    smtp.take()
    receive(games_root, smtp, command(game, "bob", "vacation cancel"), 2)
    (answer,) = smtp.take()
    assert "vacation cancelled" in answer["Subject"] and "recorded" not in answer["Subject"]


def test_the_clock_line_of_a_report_says_what_happens_in_plain_words():
    shown = times.public(clock.begin(clock.new_clock(72 * 3600, None, "wait"), "ann",
                                     times.parse_time(T0)))
    (line,) = times.summary_lines(shown, "ann", times.parse_time(T0))
    assert "then wait" not in line and "the referee reminds ann and waits" in line and "3 days" in line


def test_the_new_holder_of_a_seat_to_act_gets_a_whole_deadline_and_is_told_it_first(games_root, smtp):
    game = start(games_root, "--deadline", "48h", "--on-timeout", "wait")
    player = legal_turn(game.dir)[0]
    tick(games_root, smtp, 49)  # missed once: the referee waits
    assert engine.status(game.gd)["clock"]["strikes"] == {player: 1}
    smtp.take()
    result = run_cli("replace", game.dir, "--seat", player, "--by", "zoe:zoe@players.example", "--now", at(50),
                     "--smtp", smtp.address, "--format", "json")
    assert result.code == 0, result.output
    assert engine.status(game.gd)["clock"]["due"] == at(98) and engine.status(game.gd)["clock"]["strikes"] == {}
    (welcome,) = smtp.take()
    assert "due by Fri 5 Dec 2025 14:00 UTC (in 2 days)" in _first_lines(body_of(welcome), 6)
    assert json.loads(result.stdout)["seat"] == player
