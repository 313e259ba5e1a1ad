"""Mail texts that finish the job: an answer on the reader's turn is a turn mail (the legal moves, how to move, the
position), a reminder says the due time and what happens then once, and a move the reader's own earlier mail
already made is named as theirs."""
from __future__ import annotations

import datetime
import importlib.util

from pbem.text import times
from mailkit import body_of, create_game, move_mail, run_cli, write_mail
from support import legal_turn

T0 = "2025-12-01T12:00:00Z"


def at(hours: float) -> str:
    return times.iso(times.parse_time(T0) + datetime.timedelta(hours=hours))


def start(games_root, *options):
    return create_game(games_root, "coal-baron", 2, seed="mail-texts", options=("--now", T0, *options))


def receive(games_root, smtp, raw, hours) -> str:
    result = run_cli("mail", "receive", "--games", games_root, "--smtp", smtp.address, "--now", at(hours),
                     input=raw)
    assert result.code == 0, result.output
    return result.stdout


def command(game, player: str, text: str) -> bytes:
    return write_mail(game.address(player), f"Password: {game.secret(player)}\n{text}\n", f"Re: [{game.id}] {text}")


def test_the_answer_to_vacation_cancel_on_the_readers_turn_is_a_whole_turn_mail(games_root, smtp, monkeypatch):
    monkeypatch.setenv("PBEM_MAIL_PICTURES", "1")
    game = start(games_root, "--deadline", "48h")
    player = legal_turn(game.dir)[0]
    receive(games_root, smtp, command(game, player, "vacation 2025-12-05 2025-12-06"), 1)
    smtp.take()
    receive(games_root, smtp, command(game, player, "vacation cancel"), 2)
    (answer,) = smtp.take()
    text = body_of(answer)
    assert "vacation cancelled" in answer["Subject"] and "your turn" in answer["Subject"]
    assert text.startswith("Your turn (move 1)") and "Your vacation is cancelled" in text
    assert text.index("Your legal moves now") < text.index("How to move") < text.index("=====")
    assert "draft o" in text.split("How to move")[0]  # the moves themselves
    if importlib.util.find_spec("PIL") is not None:
        assert answer.get_body(preferencelist=("html",)) is not None, "a turn mail carries the picture"


def test_a_reminder_says_the_due_time_and_what_happens_then_once_in_its_first_six_lines(games_root, smtp):
    game = start(games_root, "--deadline", "48h", "--reminder", "12h", "--on-timeout", "first-legal")
    player = legal_turn(game.dir)[0]
    result = run_cli("tick", games_root, "--now", at(37), "--smtp", smtp.address)
    assert result.code == 0, result.output
    (reminder,) = smtp.take()
    head = " ".join(" ".join(body_of(reminder).splitlines()[:6]).split())
    assert reminder["To"] == f"{player}@players.example" and head.startswith("Reminder:")
    assert head.count("Wed 3 Dec 2025 12:00 UTC") == 1 and head.count("If it has not arrived by then") == 1, head
    assert "the referee plays your first legal move" in head
    subject = str(reminder["Subject"])
    assert "reminder" in subject and subject.count("due") == 1 and "your move is due" not in subject
    assert " ".join(body_of(reminder).split()).count("If it has not arrived by then") == 1


def test_a_move_the_readers_own_earlier_mail_made_is_named_as_theirs(games_root, smtp):
    game = start(games_root)
    player, move, number = legal_turn(game.dir)
    receive(games_root, smtp, move_mail(game, player, [move], move_number=number), 1)
    smtp.take()
    receive(games_root, smtp, move_mail(game, player, [move], move_number=number), 3)  # sent again, later
    (answer,) = smtp.take()
    said = " ".join(body_of(answer).split())
    assert "not applied" in answer["Subject"]
    assert f"your mail of Mon 1 Dec 2025 13:00 UTC was already played as move {number}" in said
    assert f"the game is at move {number + 1} now" in said


def test_a_stale_move_answering_someone_elses_move_is_not_said_to_be_the_readers(games_root, smtp):
    game = start(games_root)
    player, move, number = legal_turn(game.dir)
    receive(games_root, smtp, move_mail(game, player, [move], move_number=number), 1)
    other = legal_turn(game.dir)[0]
    assert other != player
    smtp.take()
    receive(games_root, smtp, move_mail(game, other, [move], move_number=number), 2)
    (answer,) = smtp.take()
    said = " ".join(body_of(answer).split())
    assert "not applied" in answer["Subject"] and "your mail of" not in said and "stale" in said
