"""A takeback by mail: `takeback` asks to take back the sender's last decision, `agree` and `decline` answer it,
each authenticated as a move is (the registered From and the password); every player is told, and a granted
takeback brings each of them the position again."""
from __future__ import annotations

import pytest

from pbem.engine import engine
from mailkit import body_of, move_mail, outbox_mails, receive, seated_game


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


def test_a_takeback_the_tick_refuses_is_told_at_once_to_everyone_and_to_its_asker_in_their_thread(games_root, smtp):
    """Not answered within its two days, the takeback is refused by `pbem tick`, which mails every player at once
    (whatever their preference: `turn` here), the one who asked in answer to her request; once only."""
    import datetime
    from mailkit import create_game, run_cli
    from pbem.text import times

    def at(hours):
        return times.iso(times.parse_time("2026-03-02T12:00:00Z") + datetime.timedelta(hours=hours))

    game = create_game(games_root, "gold-fever", 3, seed="takeback", welcome=smtp.address,
                       options=("--now", at(0), "--notify", "turn"))
    first = engine.status(game.gd)["to_act"]
    for hours, lines, number in ((1, ["bid 5"], 1), (2, ["takeback"], None)):
        raw = move_mail(game, first, lines, move_number=number, message_id=f"<{lines[0]}@players.example>")
        assert run_cli("mail", "receive", "--games", games_root, "--smtp", smtp.address, "--now", at(hours),
                       input=raw).code == 0
    asked = [mail for mail in smtp.take() if mail["To"] == game.address(first)][-1]
    assert "asks to take back move 1" in body_of(asked)
    tick = run_cli("tick", games_root, "--now", at(2 + 49), "--smtp", smtp.address)
    assert tick.code == 0, tick.output
    mails = {mail["To"]: mail for mail in smtp.take()}
    assert set(mails) == {game.address(name) for name in game.players}
    refused = f"the referee refused {first}'s takeback"
    for mail in mails.values():
        assert refused in " ".join(body_of(mail).split())
    assert mails[game.address(first)]["In-Reply-To"] == "<takeback@players.example>" == asked["In-Reply-To"]
    assert run_cli("tick", games_root, "--now", at(2 + 50), "--smtp", smtp.address).code == 0
    assert smtp.take() == []  # told once
