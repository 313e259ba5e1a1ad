"""Queues by mail: the lines after a move wait in the player's queue, the `queue` command sets one without a move,
standing orders alone are a queue, and only the player is ever told what their queue holds."""
from __future__ import annotations

import pytest

from pbem.engine import engine
from mailkit import move_mail, outbox_mails, receive, seated_game


@pytest.fixture
def table(games_root):
    return seated_game(games_root, "gold-fever", 3, "queues")


def test_the_lines_after_a_move_wait_in_the_queue_and_only_the_mover_is_told(table, games_root, tmp_path):
    first, second, third = table.seats
    raw = move_mail(table, first, ["bid 1", "take best if new-london-9 offered else take 1"], move_number=1)
    result = receive(games_root, raw, outbox=tmp_path / "out")
    assert result.code == 0, result.output
    sent = outbox_mails(tmp_path / "out")
    mine = sent[table.address(first)][0]
    assert "Your queue" in mine and "take best if new-london-9 offered else take 1" in mine
    for other in (second, third):
        assert "new-london-9" not in "".join(sent[table.address(other)])
    assert engine.read_log(table.gd)["entries"][-1]["moves"] == ["bid 1"]


def test_the_queue_command_sets_a_queue_without_a_move_and_answers_only_its_player(table, games_root, tmp_path):
    first, second, third = table.seats
    raw = move_mail(table, second, ["queue", "take best", "standing auction: bid up to 3 else pass"])
    result = receive(games_root, raw, outbox=tmp_path / "out")
    assert result.code == 0 and result.stdout.startswith("command:"), result.output
    sent = outbox_mails(tmp_path / "out")
    assert list(sent) == [table.address(second)]
    assert "Your queue is set; only you see it:\n  take best\n  standing auction: bid up to 3 else pass" \
        in sent[table.address(second)][0]
    assert engine.status(table.gd)["move_number"] == 1


def test_standing_orders_alone_are_a_queue(table, games_root, tmp_path):
    first, second, third = table.seats
    result = receive(games_root, move_mail(table, third, ["standing telegraph: pass"]), outbox=tmp_path / "out")
    assert result.code == 0, result.output
    assert engine.status(table.gd, third)["queue"]["standing"] == ["standing telegraph: pass"]
    result = receive(games_root, move_mail(table, third, ["queue cancel"]), outbox=tmp_path / "out")
    assert result.code == 0 and engine.status(table.gd, third).get("queue") is None


def test_a_queue_that_answers_the_decision_waiting_is_reported_to_everyone_like_a_move(table, games_root, tmp_path):
    first, second, third = table.seats
    result = receive(games_root, move_mail(table, first, ["queue", "bid 2", "take best"]), outbox=tmp_path / "out")
    assert result.code == 0 and result.stdout.startswith("accepted:"), result.output
    sent = outbox_mails(tmp_path / "out")
    assert set(sent) == {table.address(name) for name in table.seats}
    assert f"Move 1: {first} played bid 2 (queued)." in sent[table.address(second)][0]
    assert "take best" not in sent[table.address(second)][0] and "take best" in sent[table.address(first)][0]


def test_a_bad_queue_by_mail_is_refused_naming_its_step(table, games_root, tmp_path):
    first, second, third = table.seats
    before = engine.load_state(table.gd)
    result = receive(games_root, move_mail(table, second, ["queue", "take best", "take 2 if it rains"]),
                     outbox=tmp_path / "out")
    assert result.code == 0 and result.stdout.startswith("rejected:")
    reply = outbox_mails(tmp_path / "out")[table.address(second)][0]
    assert "step 2 of your turn ('take 2 if it rains'): 'it rains' is not a condition" in reply
    assert engine.load_state(table.gd) == before


def test_help_by_mail_explains_the_games_queue_words(table, games_root, tmp_path):
    result = receive(games_root, move_mail(table, table.seats[1], ["help"]), outbox=tmp_path / "out")
    assert result.code == 0
    reply = outbox_mails(tmp_path / "out")[table.address(table.seats[1])][0]
    assert "bid up to <limit>: the lowest bid allowed" in reply and "standing auction:" in reply
    assert "<card> offered: the card is on offer" in reply


def test_the_queue_command_alone_shows_the_queue(table, games_root, tmp_path):
    second = table.seats[1]
    assert receive(games_root, move_mail(table, second, ["queue"]), outbox=tmp_path / "out").code == 0
    assert "Nothing is queued." in outbox_mails(tmp_path / "out")[table.address(second)][0]
    receive(games_root, move_mail(table, second, ["queue take best"]), outbox=tmp_path / "out")
    outbox_mails(tmp_path / "out")
    assert receive(games_root, move_mail(table, second, ["queue"]), outbox=tmp_path / "out").code == 0
    assert "Your queue (only you see it):\n  take best" in outbox_mails(tmp_path / "out")[table.address(second)][0]


@pytest.mark.parametrize("standing, cancel", [
    (["permanent télégraphe: passer", "permanent enchère: enchérir jusqu'à 3 sinon passer"], "queue annuler"),
    (["常設 電報: 跳過", "常設拍賣: 出價最多到3 否則 跳過"], "queue 取消"),
], ids=["fr", "zh-Hant"])
def test_standing_orders_alone_and_queue_cancel_are_read_in_the_players_words(table, games_root, tmp_path, standing,
                                                                              cancel):
    """The mail's queue commands in the words the help gives a French or a Chinese player: standing orders alone set
    a queue without a move (not read as a turn), and `queue` with the language's `cancel` drops the queue and
    withdraws the standing orders, as `queue cancel` does."""
    third = table.seats[2]
    result = receive(games_root, move_mail(table, third, standing), outbox=tmp_path / "out")
    assert result.code == 0 and result.stdout.startswith("command:"), result.output
    assert sorted(engine.status(table.gd, third)["queue"]["standing"]) == [
        "standing auction: bid up to 3 else pass", "standing telegraph: pass"]
    result = receive(games_root, move_mail(table, third, [cancel]), outbox=tmp_path / "out")
    assert result.code == 0 and result.stdout.startswith("command:"), result.output
    assert engine.status(table.gd, third).get("queue") is None
    assert engine.status(table.gd)["move_number"] == 1


@pytest.mark.parametrize("words", [["annuler"], ["取消"], ["permanent annuler"], ["常設取消"]])
def test_cancel_alone_in_the_players_words_is_a_queue_command(table, games_root, tmp_path, words):
    third = table.seats[2]
    assert receive(games_root, move_mail(table, third, ["standing telegraph: pass"]), outbox=tmp_path / "out").code == 0
    result = receive(games_root, move_mail(table, third, words), outbox=tmp_path / "out")
    assert result.code == 0 and result.stdout.startswith("command:"), result.output
    queue = engine.status(table.gd, third).get("queue")
    if "permanent" in words[0] or "常設" in words[0]:
        assert queue is None or not queue.get("standing")
    else:
        assert queue["standing"] == ["standing telegraph: pass"]  # `cancel` drops the queue, standing orders stay
