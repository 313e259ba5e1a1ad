"""A seat given to a bot, played by mail: the bot answers at once, each of its moves logged as the
bot's, and the mails tell them as the bot's moves, never as timeouts."""
from __future__ import annotations

from mailkit import body_of, create_game, move_mail, receive
from support import legal_turn


def test_a_bot_seat_answers_a_mailed_move_at_once_and_the_mails_tell_its_moves_as_the_bots(games_root, smtp):
    game = create_game(games_root, "coal-baron", 2, seed="mail-bot", options=("--bot", "bob=greedy"))
    smtp.take()
    player, move, number = legal_turn(game.dir)
    assert player == "alice"  # bob's decisions are the bot's, played before anyone waits on them
    result = receive(games_root, move_mail(game, "alice", [move], move_number=number), smtp=smtp)
    assert result.code == 0, result.output
    told = {msg["To"]: body_of(msg) for msg in smtp.take()}
    news = told["alice@players.example"].split("Since your last mail:")[1]
    bots_moves = [line for line in news.splitlines() if line.startswith("Move ") and "bob played" in line]
    assert bots_moves and all(line.endswith("(greedy bot).") for line in bots_moves)
    assert "timeout" not in told["alice@players.example"]
    assert game.to_act() == "alice"
