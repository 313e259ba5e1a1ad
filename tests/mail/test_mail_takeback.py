"""A takeback by mail: `takeback` asks to take back the sender's last decision, `agree` and `decline` answer it,
each authenticated as a move is (the registered From and the password); every player is told, and a granted
takeback brings each of them the position again."""
from __future__ import annotations

import pytest

from pbem.engine import engine
from mailkit import move_mail, outbox_mails, receive, seated_game


@pytest.fixture
def table(games_root):
    return seated_game(games_root, "gold-fever", 3, "takeback")


def send(games_root, table, player, lines, out, **kwargs):
    result = receive(games_root, move_mail(table, player, lines, **kwargs), outbox=out)
    assert result.code == 0, result.output
    return result


def test_a_takeback_asked_and_agreed_by_mail_puts_the_position_back_and_tells_everyone(table, games_root, tmp_path):
    first, second, third = table.seats
    out = tmp_path / "out"
    send(games_root, table, first, ["bid 5"], out, move_number=1)
    outbox_mails(out)
    send(games_root, table, first, ["takeback"], out)
    sent = outbox_mails(out)
    assert set(sent) == {table.address(name) for name in table.seats}
    for name in table.seats:
        assert f"{first} asks to take back move 1." in sent[table.address(name)][0]
        assert f"Waiting for {second}, {third} to agree or decline" in sent[table.address(name)][0]
    send(games_root, table, second, ["agree"], out)
    assert f"{second} agrees to take back move 1." in outbox_mails(out)[table.address(third)][0]
    send(games_root, table, third, ["agree"], out)
    sent = outbox_mails(out)
    for name in table.seats:
        assert "Move 1 and every move after it are taken back" in sent[table.address(name)][0]
    assert engine.status(table.gd)["to_act"] == first
    assert engine.verify(table.gd)["result"] == "ok"


def test_a_takeback_declined_by_mail_is_refused_and_the_move_stands(table, games_root, tmp_path):
    first, second, _ = table.seats
    out = tmp_path / "out"
    send(games_root, table, first, ["bid 5"], out, move_number=1)
    send(games_root, table, first, ["takeback"], out)
    outbox_mails(out)
    send(games_root, table, second, ["decline"], out)
    sent = outbox_mails(out)
    assert f"is refused: {second} declined." in sent[table.address(first)][0]
    assert engine.status(table.gd)["to_act"] == second


def test_a_takeback_with_a_wrong_password_is_refused_and_changes_nothing(table, games_root, tmp_path):
    first, second, _ = table.seats
    out = tmp_path / "out"
    send(games_root, table, first, ["bid 5"], out, move_number=1)
    outbox_mails(out)
    before = table.snapshot()
    result = send(games_root, table, first, ["takeback"], out, password="not-the-password")
    assert result.stdout.startswith("rejected"), result.output
    assert table.snapshot() == before
    assert list(outbox_mails(out)) == [table.address(first)]


def test_a_takeback_asked_is_in_the_reports_mailed_until_it_is_answered(table, games_root, tmp_path):
    first, second, third = table.seats
    out = tmp_path / "out"
    send(games_root, table, first, ["bid 5"], out, move_number=1)
    send(games_root, table, first, ["takeback"], out)
    outbox_mails(out)
    send(games_root, table, second, ["pass"], out)  # the game goes on while the others answer
    pending = f"{first} asks to take back move 1: waiting for the answer of {second}, {third}"
    sent = outbox_mails(out)
    for name in table.seats:
        assert any(pending in " ".join(mail.split()) for mail in sent[table.address(name)]), name
    send(games_root, table, second, ["decline"], out)
    send(games_root, table, third, ["pass"], out)
    sent = outbox_mails(out)
    assert sent and all("take back move 1: waiting" not in mail for mails in sent.values() for mail in mails)
