"""A player's day by mail: whole legal-move lists with what
each move does, the referee's moves reported, an outbox that is an empty folder, `new` that never hides the
passwords of a game it created."""
from __future__ import annotations

import mailbox

from pbem.engine import engine
from pbem.mail import compose
from support import NAMES, run_pbem
from mailkit import ORGANISER, body_of, create_game, free_port, mail_games, move_mail, receive, run_cli, write_mail


def _new_args(root, game_id="g2"):
    game = mail_games()[0]
    args = ["new", game.id, root / game_id, "--organiser", ORGANISER]
    for name in NAMES[:game.min_players]:
        args += ["--player", f"{name}:{name}@players.example"]
    return args


def test_the_moves_command_lists_every_legal_move_with_what_it_does_and_resign(mail_game, smtp, games_root):
    mover = mail_game.to_act()
    raw = write_mail(mail_game.address(mover), f"Password: {mail_game.secret(mover)}\nmoves\n",
                     f"Re: [{mail_game.id}]")
    assert receive(games_root, raw, smtp).stdout.startswith("command:")
    text = body_of(smtp.messages[0])
    legal = engine.legal(mail_game.gd, mover)
    lines = text.splitlines()
    for choice in legal["choices"]:
        assert any(line.split() == f"{choice['move']} {choice['description']}".split() for line in lines), choice
    assert any(line.split()[:1] == ["resign"] for line in lines)
    assert "more (write" not in text


def test_a_report_says_which_moves_the_referee_played_and_why():
    summary = compose.news_text(compose.turn_entries({
        "number": 23, "player": "ann", "public_moves": ["bid 3"], "chance": [],
        "referee_moves": [{"number": 24, "player": "bob", "by": "referee", "reason": "resigned", "moves": ["pass"],
                           "chance": []},
                          {"number": 25, "player": "cy", "by": "referee", "reason": "only legal move",
                           "moves": ["take 2"], "chance": []}]}))
    assert summary.splitlines() == ["Move 23: ann played bid 3.",
                                    "Move 24: the referee played pass for bob (resigned).",
                                    "Move 25: the referee played take 2 for cy (only legal move)."]


def test_new_writes_the_welcome_mails_into_an_existing_empty_outbox_folder(games_root, tmp_path):
    outbox = tmp_path / "outbox"
    outbox.mkdir()
    result = run_cli(*_new_args(games_root), "--outbox", outbox)
    assert result.code == 0, result.output
    assert len(mailbox.Maildir(outbox, create=False)) == mail_games()[0].min_players
    assert "Welcome mailed to" in result.stdout


def test_new_refuses_an_outbox_it_cannot_use_before_creating_the_game(games_root, tmp_path):
    blocked = tmp_path / "outbox"
    blocked.mkdir()
    (blocked / "new").write_text("a file where the Maildir's folder goes\n")
    result = run_pbem(*_new_args(games_root), "--outbox", blocked)
    assert result.returncode == 2 and b"cannot use" in result.stderr and b"Traceback" not in result.stderr
    assert not (games_root / "g2").exists()


def test_new_whose_welcome_fails_prints_the_passwords_and_what_to_do(games_root):
    dead = f"127.0.0.1:{free_port()}"
    result = run_pbem(*_new_args(games_root), "--smtp", dead)
    assert result.returncode == 2
    secrets = engine.load_secrets(engine.open_game(games_root / "g2"))["players"]
    for player in secrets:
        assert f"{player['name']}: {player['secret']}".encode() in result.stdout
    assert b"the game was created (the passwords are above)" in result.stderr
    assert b"pbem mail welcome" in result.stderr


def test_inbox_replies_into_an_existing_empty_outbox_folder(mail_game, games_root, tmp_path):
    inbox, outbox = tmp_path / "inbox", tmp_path / "outbox"
    outbox.mkdir()
    mover = mail_game.to_act()
    box = mailbox.Maildir(inbox, create=True)
    box.add(write_mail(mail_game.address(mover), f"Password: {mail_game.secret(mover)}\nstatus\n",
                       f"Re: [{mail_game.id}]"))
    result = run_cli("mail", "inbox", "--games", games_root, "--maildir", inbox, "--outbox", outbox)
    assert result.code == 0, result.output
    assert len(mailbox.Maildir(outbox, create=False)) == 1


def test_the_welcome_mail_does_not_promise_what_mail_welcome_breaks(games_root, smtp):
    create_game(games_root, mail_games()[0].id, welcome=smtp.address)
    text = body_of(smtp.messages[0])
    assert "never repeats" not in text
    assert "sends this welcome again only when the organiser asks" in " ".join(text.split())


def test_a_refused_move_by_mail_names_the_step_of_the_turn(mail_game, smtp, games_root):
    mover = mail_game.to_act()
    legal = engine.legal(mail_game.gd, mover)["moves"][0]
    receive(games_root, move_mail(mail_game, mover, [legal.split()[0] + " nowhere", legal]), smtp)
    text = " ".join(body_of(smtp.messages[0]).split())
    assert f"step 1 of your turn ('{legal.split()[0]} nowhere')" in text and "move 1 " not in text
