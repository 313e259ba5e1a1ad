"""A reply whose subject lost the game's [tag] is matched to the game by the game's own Message-IDs it refers to
(References, In-Reply-To), and is authenticated as any mail; an ID that only looks like a game's matches nothing."""
from __future__ import annotations

from mailkit import body_of, create_game, move_mail, run_cli
from support import legal_turn

T0 = "2025-12-01T12:00:00Z"


def receive(games_root, smtp, raw) -> None:
    result = run_cli("mail", "receive", "--games", games_root, "--smtp", smtp.address, "--now", T0, input=raw)
    assert result.code == 0, result.output


def a_turn_mail(games_root, smtp):
    """The game, and the mail that told its player to act (after a first move by mail)."""
    game = create_game(games_root, "coal-baron", 2, seed="thread")
    player, move, number = legal_turn(game.dir)
    receive(games_root, smtp, move_mail(game, player, [move], move_number=number))
    to_act = legal_turn(game.dir)[0]
    (turn,) = [m for m in smtp.take() if m["To"] == game.address(to_act)]
    return game, to_act, turn


def test_a_reply_without_the_game_tag_is_matched_by_the_games_message_ids(games_root, smtp):
    game, player, turn = a_turn_mail(games_root, smtp)
    _, move, number = legal_turn(game.dir)
    references = f"{turn['References']} {turn['Message-ID']}"
    receive(games_root, smtp, move_mail(game, player, [move], move_number=number, subject="Re: my move",
                                        in_reply_to=turn["Message-ID"], extra_headers={"References": references}))
    assert legal_turn(game.dir)[2] == number + 1, "the move was applied"
    wrong = move_mail(game, player, [legal_turn(game.dir)[1]], password="not-it", subject="Re: my move",
                      in_reply_to=turn["Message-ID"], extra_headers={"References": references})
    smtp.take()
    receive(games_root, smtp, wrong)
    assert legal_turn(game.dir)[2] == number + 1 and "password" in body_of(smtp.take()[-1]).lower()


def test_an_id_that_only_looks_like_the_games_matches_no_game(games_root, smtp):
    game, player, turn = a_turn_mail(games_root, smtp)
    _, move, number = legal_turn(game.dir)
    forged = f"<pbem.{game.id}.{player}.0123456789abcdef@club.example>"
    receive(games_root, smtp, move_mail(game, player, [move], move_number=number, subject="Re: my move",
                                        in_reply_to=forged, extra_headers={"References": forged}))
    (answer,) = smtp.take()
    assert legal_turn(game.dir)[2] == number and "no game named" in body_of(answer)
