"""Correspondence life by mail, with an injected clock: reminders and timeout notices through a real SMTP server
(aiosmtpd), sent exactly once; a move by mail starts the next deadline at its --now; players' commands
`vacation` and `notify`; each preference (every move, only my turn with what happened since, a daily digest sent
by the tick); a seat handed on by mail (the old password refused, the new one accepted)."""
from __future__ import annotations

import datetime
import json
import re

from pbem.engine import engine
from pbem.text import times
from pbem.text.phrases import plural
from mailkit import MailGame, body_of, create_game, move_mail, run_cli, write_mail
from support import legal_turn

T0 = "2025-12-01T12:00:00Z"


def at(hours: float) -> str:
    return times.iso(times.parse_time(T0) + datetime.timedelta(hours=hours))


def start(games_root, *options, players=2) -> MailGame:
    """A game of alice, bob (and carol) made at T0 with these options of `pbem new`."""
    return create_game(games_root, "coal-baron", players, seed="mail-clock", options=("--now", T0, *options))


def tick(games_root, smtp, hours):
    result = run_cli("tick", games_root, "--now", at(hours), "--smtp", smtp.address)
    assert result.code == 0, result.output
    return result.stdout


def receive(games_root, smtp, raw, hours):
    result = run_cli("mail", "receive", "--games", games_root, "--smtp", smtp.address, "--now", at(hours),
                     input=raw)
    assert result.code == 0, result.output
    return result.stdout


def test_reminders_and_timeout_notices_go_through_smtp_exactly_once(games_root, smtp):
    start(games_root, "--deadline", "48h", "--reminder", "12h", "--on-timeout", "first-legal")
    smtp.take()
    player, move, _ = legal_turn(games_root / "g1")
    assert tick(games_root, smtp, 35) and smtp.take() == []
    tick(games_root, smtp, 36)
    tick(games_root, smtp, 36)
    tick(games_root, smtp, 40)
    (reminder,) = smtp.take()
    assert reminder["To"] == f"{player}@players.example" and "reminder" in reminder["Subject"]
    assert reminder["Auto-Submitted"] == "auto-generated" and reminder["X-Pbem-Game"] == "g1"
    assert "Password:" not in body_of(reminder).split("How to move")[0]
    tick(games_root, smtp, 48)
    mails = {m["To"]: m for m in smtp.take()}
    assert set(mails) == {"alice@players.example", "bob@players.example"}
    assert "timeout" in mails[f"{player}@players.example"]["Subject"]
    assert f"the referee played {move} for {player}" in body_of(mails[f"{player}@players.example"])
    tick(games_root, smtp, 48)
    assert smtp.take() == []


def test_a_move_by_mail_starts_the_next_deadline_at_its_now(games_root, smtp):
    game = start(games_root, "--deadline", "48h")
    player, move, number = legal_turn(game.dir)
    assert receive(games_root, smtp, move_mail(game, player, [move], move_number=number), 5).startswith("accepted")
    assert engine.status(game.gd)["clock"]["due"] == at(53)


def test_players_take_a_vacation_and_choose_how_often_they_hear_by_mail(games_root, smtp):
    game = start(games_root, "--deadline", "48h")
    smtp.take()
    raw = write_mail(game.address("bob"), f"Password: {game.secret('bob')}\nvacation 2025-12-02 2025-12-04\n",
                     "Re: [g1] away")
    assert "command: g1/bob: vacation" in receive(games_root, smtp, raw, 1)
    (answer,) = smtp.take()
    assert "Your vacation from Tue 2 Dec 2025 00:00 UTC to Fri 5 Dec 2025 00:00 UTC is recorded" in " ".join(
        body_of(answer).split())  # (mail is wrapped at 78 columns)
    assert engine.status(game.gd)["clock"]["vacations"][0]["player"] == "bob"
    refused = write_mail(game.address("bob"), f"Password: {game.secret('bob')}\nvacation 2025-12-10 2026-01-30\n",
                         "Re: [g1] away")
    assert "rejected" in receive(games_root, smtp, refused, 2)
    assert "days of vacation a year" in body_of(smtp.take()[0])
    raw = write_mail(game.address("alice"), f"Password: {game.secret('alice')}\nnotify daily\n", "Re: [g1] less")
    assert "command: g1/alice: notify" in receive(games_root, smtp, raw, 2)
    smtp.take()
    assert next(p for p in engine.roster(game.gd) if p["name"] == "alice")["notify"] == "daily"


def test_the_answer_to_a_vacation_names_the_one_just_recorded_not_the_latest(games_root, smtp):
    game = start(games_root, "--deadline", "48h")
    smtp.take()
    for span in ("2025-12-20 2025-12-21", "2025-12-05 2025-12-06"):
        raw = write_mail(game.address("bob"), f"Password: {game.secret('bob')}\nvacation {span}\n", "Re: [g1] away")
        assert "command: g1/bob: vacation" in receive(games_root, smtp, raw, 1)
    answer = body_of(smtp.take()[-1])
    assert "Your vacation from Fri 5 Dec 2025 00:00 UTC to Sun 7 Dec 2025 00:00 UTC is recorded" in " ".join(
        answer.split())


def test_a_turn_player_hears_only_of_their_turn_with_what_happened_since(games_root, smtp):
    game = start(games_root, "--notify", "carol=turn", players=3)
    smtp.take()
    told = []
    for hours in range(1, 30):
        player, move, number = legal_turn(game.dir)
        if player == "carol":
            break
        receive(games_root, smtp, move_mail(game, player, [move], move_number=number), hours)
        told += [m for m in smtp.take() if m["To"] == "carol@players.example"]
    assert player == "carol" and len(told) == 1 and "your turn" in told[0]["Subject"]
    text = body_of(told[0])
    assert text.startswith(f"Your turn (move {number})")  # what to do first, then what happened
    since = text.split("Since your last mail:\n")[1].split("\n\n")[0]
    assert since.count("Move ") == number - 1


def test_a_daily_player_gets_one_digest_a_day_from_the_tick(games_root, smtp):
    game = start(games_root, "--notify", "bob=daily")
    smtp.take()
    heard, player = [], None
    for step in range(30):  # three moves at least, the last one not bob's
        if step >= 3 and player != "bob":
            break
        player, move, number = legal_turn(game.dir)
        receive(games_root, smtp, move_mail(game, player, [move], move_number=number), 1 + step / 10)
        bob_mails = [m for m in smtp.take() if m["To"] == "bob@players.example"]
        assert all(player == "bob" for _ in bob_mails)  # only answers to his own mail
        heard += told(bob_mails, "bob")
    tick(games_root, smtp, 5)
    (digest,) = [m for m in smtp.take() if m["To"] == "bob@players.example"]
    fresh = [n for n in range(1, number + 1) if n not in heard]  # what the answers to his mail did not tell
    assert f"daily digest, {plural(len(fresh), 'move')}" in digest["Subject"]
    assert told([digest], "bob") == fresh
    tick(games_root, smtp, 6)
    assert smtp.take() == []  # one a day
    first, heard = number, []
    player, move, number = legal_turn(game.dir)
    while player == "bob":
        receive(games_root, smtp, move_mail(game, player, [move], move_number=number), 7)
        heard += told(smtp.take(), "bob")
        player, move, number = legal_turn(game.dir)
    receive(games_root, smtp, move_mail(game, player, [move], move_number=number), 10)  # not his
    heard += told(smtp.take(), "bob")
    tick(games_root, smtp, 11)  # still the same day (UTC)
    assert smtp.take() == []
    tick(games_root, smtp, 36)
    (digest,) = [m for m in smtp.take() if m["To"] == "bob@players.example"]
    fresh = [n for n in range(first + 1, number + 1) if n not in heard]
    assert f"daily digest, {plural(len(fresh), 'move')}" in digest["Subject"] and f"Move {number}:" in body_of(digest)
    assert told([digest], "bob") == fresh


def told(mails, name: str) -> list[int]:
    """The move numbers the mails to `name` tell ("Move N: ..." lines)."""
    return [int(n) for m in mails if m["To"] == f"{name}@players.example"
            for n in re.findall(r"^Move (\d+):", body_of(m), re.MULTILINE)]


def test_a_seat_handed_on_refuses_the_old_password_and_takes_the_new_one_by_mail(games_root, smtp):
    game = start(games_root, "--deadline", "48h")
    smtp.take()
    player, move, number = legal_turn(game.dir)
    result = run_cli("replace", game.dir, "--seat", player, "--by", "zoe:zoe@players.example", "--now", at(1),
                     "--smtp", smtp.address, "--format", "json")
    assert result.code == 0, result.output
    secret = json.loads(result.stdout)["secret"]
    (welcome,) = smtp.take()
    assert welcome["To"] == "zoe@players.example" and f"Password: {secret}" in body_of(welcome)
    number += 1  # the hand-over is a log entry
    old = move_mail(game, player, [move], move_number=number)
    assert receive(games_root, smtp, old, 2).startswith("rejected")
    smtp.take()
    zoe = write_mail("zoe@players.example", f"Password: {secret}\nMove-Number: {number}\n{move}\n", "Re: [g1] move")
    assert receive(games_root, smtp, zoe, 3).startswith("accepted")
