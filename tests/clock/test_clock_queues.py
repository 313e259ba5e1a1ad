"""Deadlines honour queues: a decision a queue or standing order answers is played the moment it comes, so its
player is never timed out for it; a reminder says what is queued."""
from __future__ import annotations

from pbem.engine import engine

DEADLINE = ("--deadline", "24h", "--reminder", "12h", "--on-timeout", "first-legal")


def seats(game) -> list[str]:
    first = game.public()["to_act"]
    return game.names[game.names.index(first):] + game.names[:game.names.index(first)]


def test_a_player_whose_standing_order_answers_a_decision_is_never_timed_out_for_it(clock_game):
    game = clock_game(*DEADLINE, game="gold-fever", players=3)
    first, second, third = seats(game)
    assert game.pbem("queue", game.dir, "--as", second, "--text", "standing auction: pass", "--now",
                     game.at(1)).code == 0
    assert game.pbem("move", game.dir, "--as", first, "--text", "bid 1", "--now", game.at(2)).code == 0
    log = engine.read_log(game.gd)["entries"]
    assert (log[-1]["player"], log[-1]["moves"], log[-1]["reason"]) == (second, ["pass"], "standing order")
    assert game.public()["to_act"] == third and game.public()["clock"]["due"] == game.at(26)
    result = game.tick(27)  # third times out and passes: the auction is over, never due for second
    assert [(e["player"], e["kind"]) for e in result["games"][0]["events"]] == [(third, "timeout")]
    assert game.public()["to_act"] == first


def test_a_queue_set_while_a_decision_waits_answers_it_before_it_is_due(clock_game):
    game = clock_game(*DEADLINE, game="gold-fever", players=3)
    first, second, _ = seats(game)
    assert game.pbem("queue", game.dir, "--as", first, "--text", "standing auction: bid up to 2 else pass",
                     "--now", game.at(23)).code == 0
    assert game.public()["to_act"] == second and game.public()["clock"]["due"] == game.at(47)
    assert not [e for e in game.tick(23.5)["games"][0]["events"] if e["player"] == first]


def test_a_reminder_says_what_is_queued(clock_game):
    game = clock_game(*DEADLINE, game="gold-fever", players=3, where="q")
    first, second, _ = seats(game)
    assert game.pbem("queue", game.dir, "--as", first, "--text", "next; take best; standing telegraph: pass",
                     "--now", game.at(1)).code == 0
    game.tick(13)
    reminder = next(m for m in game.new_mails() if "reminder" in m["Subject"])
    assert reminder["To"] == f"{first}@club.example"
    body = game.body(reminder)
    assert "Your queue does not answer this decision; it holds, for later:\n  take best\n  standing telegraph: " \
           "pass" in body
