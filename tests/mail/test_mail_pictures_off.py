"""Each player chooses pictures on or off (`pictures on|off` by mail, `pbem pictures DIR on|off --as P`): a player
with pictures off gets every mail in text only — their turn, the answers to `status` and `moves`, a refused move —
while the others keep theirs; the welcome says how to turn them off; a seat's new holder starts with pictures on."""
from __future__ import annotations

import pytest

from pbem.engine import engine
from mailkit import body_of, create_game, move_mail, receive, run_cli
from support import legal_turn


@pytest.fixture
def pictures_on(monkeypatch):
    monkeypatch.setenv("PBEM_MAIL_PICTURES", "1")


def pictured(msg) -> bool:
    """Does the mail carry the picture (an HTML alternative with an inline PNG)? A text-only mail is one part."""
    if not msg.is_multipart():
        assert msg.get_content_type() == "text/plain"
        return False
    return any(part.get_content_type() == "image/png" for part in msg.walk())


def preference(game, name: str) -> str | None:
    return next(p for p in engine.roster(game.gd) if p["name"] == name).get("pictures")


def one_answer(games_root, smtp, game, name, lines, **kwargs):
    result = receive(games_root, move_mail(game, name, lines, **kwargs), smtp)
    assert result.code == 0, result.output
    (answer,) = smtp.take()
    assert answer["To"] == game.address(name)
    return result, answer


def test_a_player_with_pictures_off_gets_text_only_mails_and_pictures_on_brings_the_picture_back(
        games_root, smtp, pictures_on):
    game = create_game(games_root, "coal-baron", 2, welcome=smtp.address, options=("--notify", "turn"))
    welcomes = {m["To"]: m for m in smtp.take()}
    player, move, number = legal_turn(game.dir)
    other = next(name for name in game.gd.players if name != player)
    assert pictured(welcomes[game.address(player)])

    result, answer = one_answer(games_root, smtp, game, player, ["pictures off"])
    assert f"command: {game.id}/{player}: pictures" in result.stdout
    assert "pictures off recorded" in answer["Subject"] and "text only" in body_of(answer)
    assert preference(game, player) == "off" and preference(game, other) is None
    for lines in (["status"], ["moves"], ["place nowhere"]):  # each pictured for a player with pictures on
        _, answer = one_answer(games_root, smtp, game, player, lines, move_number=number)
        assert not pictured(answer), lines
    result = receive(games_root, move_mail(game, player, [move], move_number=number), smtp)
    assert result.stdout.startswith("accepted"), result.output
    mails = {m["To"]: m for m in smtp.take()}
    # the next decision is the other player's (a turn mail with their picture) or still this player's (text only)
    to_act = engine.status(game.gd)["to_act"]
    assert pictured(mails[game.address(to_act)]) == (to_act == other)

    _, answer = one_answer(games_root, smtp, game, player, ["pictures on"])
    assert "pictures on recorded" in answer["Subject"] and "carry a picture of the board" in body_of(answer)
    assert preference(game, player) == "on"
    _, answer = one_answer(games_root, smtp, game, player, ["status"])
    assert pictured(answer)


def test_a_pictures_command_without_on_or_off_is_refused_and_changes_nothing(games_root, smtp, pictures_on):
    game = create_game(games_root, "gold-fever", 3)
    before = game.snapshot()
    result, answer = one_answer(games_root, smtp, game, "alice", ["pictures maybe"])
    assert result.stdout.startswith("rejected")
    assert "write on or off" in body_of(answer)
    assert game.snapshot() == before


def test_the_welcome_says_how_to_turn_pictures_off_when_its_mails_carry_them(games_root, smtp, monkeypatch):
    for switch, said in (("1", True), ("0", False)):
        monkeypatch.setenv("PBEM_MAIL_PICTURES", switch)
        create_game(games_root, "chartered", 2, game_id=f"g{switch}", welcome=smtp.address)
        for welcome in smtp.take():
            text = " ".join(body_of(welcome).split())
            assert ("write `pictures off`" in text) == said, switch
            assert pictured(welcome) == said


def test_pbem_pictures_sets_a_players_choice_and_a_new_holder_of_the_seat_starts_with_pictures_on(games_root):
    game = create_game(games_root, "heartland-hauling", 2)
    result = run_cli("pictures", game.dir, "off", "--as", "bob")
    assert result.code == 0 and "bob's mails are text only" in result.stdout, result.output
    assert preference(game, "bob") == "off"
    result = run_cli("replace", game.dir, "--seat", "bob", "--by", "zoe:zoe@players.example")
    assert result.code == 0, result.output
    assert preference(game, "bob") is None  # the default: on
