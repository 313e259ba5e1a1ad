"""`pbem mail receive`: one message on standard input, answered over a real SMTP server on 127.0.0.1."""
from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from pbem import bots
from pbem.engine import engine
from pbem.text import report
from mailkit import (ORGANISER, SmtpSink, body_of, create_game, free_port, make_certificate, move_mail, receive,
                     run_cli, turns_ahead, write_mail)


def a_legal_turn(game, player: str | None = None, seed: int = 1) -> list[str]:
    env = game.env()
    player = player or game.to_act()
    legal = game.gd.game.rules.legal_moves(env["state"], player)
    return [game.gd.game.format_move(bots.choose(legal, random.Random(seed)))]


def secrets_of(game) -> list[str]:
    return [p["secret"] for p in game.players.values()]


def assert_no_secret(messages, game) -> None:
    for msg in messages:
        text = (msg.as_string() + body_of(msg)).lower()  # raw and decoded (quoted-printable could split it)
        for secret in secrets_of(game):
            assert secret.lower() not in text, f"a password leaked into the mail to {msg['To']}"


# ---------------------------------------------------------------- an accepted move

def test_accepted_move_reports_to_every_player_with_their_private_view_only(mail_game, smtp, games_root):
    mover = mail_game.to_act()
    incoming_id = "<first-move@players.example>"
    moves = a_legal_turn(mail_game)
    raw = move_mail(mail_game, mover, moves, move_number=1, message_id=incoming_id, quote="the last report\n"
                    "Password: not-this-line")
    result = receive(games_root, raw, smtp)
    assert result.code == 0, result.output
    assert result.stdout.startswith("accepted:")
    log = engine.read_log(mail_game.gd)["entries"]
    assert len(log) >= 1 and log[0]["player"] == mover
    messages = smtp.messages
    assert sorted(m["To"] for m in messages) == sorted(p["email"] for p in mail_game.players.values())
    for envelope in smtp.envelopes:
        assert len(envelope.rcpt_tos) == 1  # each report goes to its player only
    for msg in messages:
        name = next(n for n, p in mail_game.players.items() if p["email"] == msg["To"])
        body = body_of(msg)
        doc = engine.status(mail_game.gd, name)
        # the news say the moves; the turn's first line, whose turn it is
        own = report.status_text({**doc, "recent": []}, turn_told=doc["to_act"] == name)
        assert own.strip() in body  # their own view, tables as printed in monospace
        assert ("To act:" in body) == (doc["to_act"] != name)
        for other in mail_game.players:
            if other != name:
                assert f"view of {other}" not in body
        assert msg["From"] == ORGANISER
        assert msg["Subject"].startswith(f"[{mail_game.id}]")
        assert msg.get_content_type() == "text/plain"
        assert f"Move 1: {mover} played" in body
        if name == mover:
            assert msg["In-Reply-To"] == incoming_id and incoming_id in msg["References"]
            assert msg["Auto-Submitted"] == "auto-replied"
        else:
            assert msg["In-Reply-To"].startswith(f"<pbem.{mail_game.id}.{name}.")
            assert msg["Auto-Submitted"] == "auto-generated"
    to_act = mail_game.to_act()
    mail_to_act = next(m for m in messages if m["To"] == mail_game.address(to_act))
    assert "your turn" in mail_to_act["Subject"]
    assert "Your legal moves now" in body_of(mail_to_act)
    assert_no_secret(messages, mail_game)


def test_html_only_message_with_the_move_is_read(mail_game, smtp, games_root):
    from email.message import EmailMessage
    mover = mail_game.to_act()
    move = a_legal_turn(mail_game)[0]
    msg = EmailMessage()
    msg["From"] = mail_game.address(mover)
    msg["To"] = ORGANISER
    msg["Subject"] = f"Re: [{mail_game.id}] your turn"
    msg["Message-ID"] = "<html-only@players.example>"
    msg.set_content(f"<html><head><style>p {{color: red}}</style></head><body><div>Password: "
                    f"{mail_game.secret(mover)}</div><div>{move}</div><br>"
                    f"<div class=\"gmail_quote\">On Sunday the referee wrote:<blockquote>pass<br>Password: x"
                    f"</blockquote></div></body></html>", subtype="html")
    result = receive(games_root, msg.as_bytes(), smtp)
    assert result.stdout.startswith("accepted:"), result.output
    assert "no plain text" not in body_of(smtp.to(mail_game.address(mover))[0])  # a note only on rejection


def test_multipart_with_small_attachment_reads_the_text_part(mail_game, smtp, games_root):
    from email.message import EmailMessage
    mover = mail_game.to_act()
    move = a_legal_turn(mail_game)[0]
    msg = EmailMessage()
    msg["From"] = mail_game.address(mover)
    msg["To"] = ORGANISER
    msg["Subject"] = f"[{mail_game.id}]"
    msg.set_content(f"Password: {mail_game.secret(mover)}\n{move}\n")
    msg.add_alternative(f"<p>Password: {mail_game.secret(mover)}</p><p>{move}</p>", subtype="html")
    msg.add_attachment(b"PNG...." * 100, maintype="image", subtype="png", filename="board.png")
    result = receive(games_root, msg.as_bytes(), smtp)
    assert result.stdout.startswith("accepted:"), result.output


# ---------------------------------------------------------------- bad mail: a clear reply, nothing changes

def _huge(game, mover: str, move: list[str]) -> bytes:
    """A move with a 20 MB attachment."""
    from email.message import EmailMessage
    import email.policy
    huge = EmailMessage(policy=email.policy.SMTP)
    huge["From"] = game.address(mover)
    huge["To"] = ORGANISER
    huge["Subject"] = f"Re: [{game.id}] holiday photos"
    huge["Message-ID"] = "<huge@players.example>"
    huge.set_content(f"Password: {game.secret(mover)}\n{move[0]}\n")
    huge.add_attachment(random.Random(5).randbytes(1024) * (20 * 1024), maintype="image", subtype="png",
                        filename="photo.png")
    raw = huge.as_bytes()
    assert len(raw) > 20 * 1024 * 1024
    return raw


def _bad_case(case: str, game):
    """(raw message, whom the answer goes to, what it must say) of one kind of bad mail."""
    mover = game.to_act()
    other = next(p for p in game.players if p != mover)
    move = a_legal_turn(game)
    tag = f"[{game.id}]"
    cases = {
        "no tag": lambda: (write_mail(game.address(mover), f"Password: {game.secret(mover)}\n{move[0]}\n",
                                      "my move"), game.address(mover), "no game named"),
        "unknown game": lambda: (move_mail(game, mover, move, subject="Re: [nosuchgame] move"), game.address(mover),
                                 "there is no game 'nosuchgame'"),
        "stranger": lambda: (write_mail("mallory@evil.example", f"Password: {game.secret(mover)}\n{move[0]}\n",
                                        f"Re: {tag}"), "mallory@evil.example", "is not the registered address"),
        "From alone": lambda: (write_mail(game.address(mover), f"{move[0]}\n", f"Re: {tag}"), game.address(mover),
                               "no password"),
        "wrong password": lambda: (move_mail(game, mover, move, password="guessed-password"), game.address(mover),
                                   "wrong password"),
        "another player's password": lambda: (move_mail(game, mover, move, password=game.secret(other)),
                                              game.address(mover), "wrong password"),
        "not your turn": lambda: (move_mail(game, other, move), game.address(other), f"it is {mover}'s turn"),
        "ahead": lambda: (move_mail(game, mover, move, move_number=7), game.address(mover), "only at move 1"),
        "bad move number": lambda: (move_mail(game, mover, move).replace(b"Password:",
                                                                          b"Move-Number: twelve\nPassword:"),
                                    game.address(mover), "is not a number"),
        "garbage": lambda: (move_mail(game, mover, ["Dear referee, I would like to build a castle!!", "thanks"]),
                            game.address(mover), "is not"),
        "empty": lambda: (move_mail(game, mover, []), game.address(mover), "no move found"),
        "20 MB attachment": lambda: (_huge(game, mover, move), game.address(mover),
                                     "MB; the referee reads messages of at most"),
    }
    return cases[case]()


@pytest.mark.parametrize("case", ["no tag", "unknown game", "stranger", "From alone", "wrong password",
                                  "another player's password", "not your turn", "ahead", "bad move number",
                                  "garbage", "empty", "20 MB attachment"])
def test_bad_mail_gets_a_clear_reply_and_changes_nothing(case, mail_game, smtp, games_root):
    raw, to, says = _bad_case(case, mail_game)
    before = mail_game.snapshot()
    result = receive(games_root, raw, smtp)
    assert result.code == 0, result.output
    assert result.stdout.startswith("rejected:"), result.stdout
    assert mail_game.snapshot() == before  # byte for byte
    assert len(smtp.messages) == 1
    reply = smtp.messages[0]
    assert reply["To"] == to
    text = body_of(reply)
    assert says in text, text
    assert "was not applied" in text
    assert_no_secret([reply], mail_game)
    assert "guessed-password" not in reply.as_string()
    if case in ("garbage", "empty", "ahead"):
        assert "legal" in text.lower()  # what would be legal


def test_wrong_player_is_never_told_another_players_password_or_address(mail_game, smtp, games_root):
    raw = write_mail("mallory@evil.example", "Password: x\nstatus\n", f"Re: [{mail_game.id}]")
    receive(games_root, raw, smtp)
    text = smtp.messages[0].as_string()
    for player in mail_game.players.values():
        assert player["email"] not in text and player["secret"] not in text


def test_a_misspelt_password_line_is_not_echoed(mail_game, smtp, games_root):
    mover = mail_game.to_act()
    raw = write_mail(mail_game.address(mover), f"Pasword: {mail_game.secret(mover)}\n"
                     f"Password: {mail_game.secret(mover)}\n{a_legal_turn(mail_game)[0]}\n",
                     f"Re: [{mail_game.id}]")
    before = mail_game.snapshot()
    result = receive(games_root, raw, smtp)
    assert mail_game.snapshot() == before
    assert mail_game.secret(mover).lower() not in result.output.lower()  # nor in the referee's own output
    reply = smtp.messages[0]
    assert mail_game.secret(mover).lower() not in reply.as_string().lower()
    assert "[password hidden]" in body_of(reply)


def test_replayed_message_is_answered_and_not_applied_twice(mail_game, smtp, games_root):
    mover = mail_game.to_act()
    raw = move_mail(mail_game, mover, a_legal_turn(mail_game), message_id="<once@players.example>")
    assert receive(games_root, raw, smtp).stdout.startswith("accepted:")
    after_first = mail_game.snapshot()
    smtp.take()
    result = receive(games_root, raw, smtp)
    assert result.stdout.startswith("duplicate:")
    assert mail_game.snapshot() == after_first
    (reply,) = smtp.messages
    assert reply["To"] == mail_game.address(mover)
    assert "already handled" in body_of(reply)


def test_automatic_mail_is_never_answered(mail_game, smtp, games_root):
    raw = write_mail("mailer-daemon@players.example", "Delivery failed", "Undelivered Mail Returned to Sender",
                     extra_headers={"Auto-Submitted": "auto-replied"})
    before = mail_game.snapshot()
    result = receive(games_root, raw, smtp)
    assert result.stdout.startswith("ignored:")
    assert smtp.messages == [] and mail_game.snapshot() == before


# ---------------------------------------------------------------- commands

def test_status_command_sends_my_view_only_to_me(mail_game, smtp, games_root):
    name = next(iter(mail_game.players))
    before = mail_game.snapshot()
    result = receive(games_root, move_mail(mail_game, name, ["status"]), smtp)
    assert result.stdout.startswith("command:"), result.output
    assert mail_game.snapshot() == before
    (reply,) = smtp.messages
    assert reply["To"] == mail_game.address(name)
    doc = engine.status(mail_game.gd, name)  # (the reader to act is told so in the answer's first line)
    assert report.status_text(doc, turn_told=doc["to_act"] == name).strip() in body_of(reply)


def test_moves_command_lists_my_legal_moves(mail_game, smtp, games_root):
    mover = mail_game.to_act()
    other = next(p for p in mail_game.players if p != mover)
    receive(games_root, move_mail(mail_game, mover, ["moves"]), smtp)
    receive(games_root, move_mail(mail_game, other, ["Moves"]), smtp)
    mine, theirs = smtp.messages
    lines = body_of(mine).splitlines()
    for choice in engine.legal(mail_game.gd, mover)["choices"]:  # every one, with what it does
        assert f"  {choice['move']}" in lines or any(line.startswith(f"  {choice['move']}  ") for line in lines)
    assert f"It is {mover}'s turn" in body_of(theirs)


def test_help_command_explains_the_notation(mail_game, smtp, games_root):
    name = next(iter(mail_game.players))
    raw = write_mail(mail_game.address(name), "help\n", f"Re: [{mail_game.id}]")
    assert receive(games_root, raw, smtp).stdout.startswith("command:")
    text = body_of(smtp.messages[0])
    for template in mail_game.gd.game.templates:
        assert template.shape in text
    assert "Password:" in text


def test_resign_by_mail(mail_game, smtp, games_root):
    name = [p for p in mail_game.players][-1]
    result = receive(games_root, move_mail(mail_game, name, ["resign"]), smtp)
    assert result.stdout.startswith("accepted:"), result.output
    env = mail_game.env()
    assert env["resigned"] == [name]
    assert len(smtp.messages) == len(mail_game.players)
    assert all(f"{name} resigned" in body_of(m) for m in smtp.messages)


def test_the_mails_of_the_last_resignation_say_the_referee_ended_the_game_and_why(mail_game, smtp, games_root,
                                                                                 monkeypatch):
    from pbem.play import turns
    monkeypatch.setattr(turns, "ALL_RESIGNED_CAP", 5)
    for name in mail_game.players:
        smtp.messages.clear()
        assert receive(games_root, move_mail(mail_game, name, ["resign"]), smtp).stdout.startswith("accepted:")
    why = "every seat resigned and 5 moves by the referee did not end the game: it ends here, ranked as it stands"
    to_players = {message["To"]: message for message in smtp.messages
                  if message["To"] in [player["email"] for player in mail_game.players.values()]}
    assert len(to_players) == len(mail_game.players)
    for message in to_players.values():
        body = " ".join(body_of(message).split())  # read across the mail's wrapped lines
        assert "game over" in message["Subject"]
        assert f"the referee ended the game: {why}." in body and f"Game over: {why}. Final ranking:" in body


# ---------------------------------------------------------------- welcome, SMTP settings, the console script

def test_new_with_addresses_welcomes_each_player_with_only_their_password(games_root, smtp):
    from mailkit import mail_games
    games = mail_games()
    if not games:
        pytest.skip("no playable game yet")
    game = create_game(games_root, games[0].id, welcome=smtp.address)
    assert len(smtp.messages) == len(game.players)
    first = engine.status(game.gd)["to_act"]
    for msg in smtp.messages:
        name = next(n for n, p in game.players.items() if p["email"] == msg["To"])
        text = body_of(msg)
        assert f"Password: {game.secret(name)}" in text
        for other, data in game.players.items():
            if other != name:
                assert data["secret"] not in msg.as_string()
        assert msg["Message-ID"].startswith(f"<pbem.{game.id}.{name}.")
        assert "How to move" in text
        assert ("Your legal moves now" in text) == (name == first)


def test_welcome_command_through_an_outbox_maildir(mail_game, tmp_path):
    import mailbox
    outbox = tmp_path / "outbox"
    result = run_cli("mail", "welcome", mail_game.dir, "--outbox", outbox)
    assert result.code == 0, result.output
    assert len(mailbox.Maildir(outbox)) == len(mail_game.players)


def test_smtp_starttls_and_login(mail_game, tmp_path, monkeypatch):
    import ssl
    from aiosmtpd.smtp import AuthResult
    cert, key = make_certificate(tmp_path)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    logins = []

    def authenticator(server, session, envelope, mechanism, auth_data):
        logins.append((mechanism, auth_data.login, session.ssl is not None))
        ok = auth_data.login == b"club" and auth_data.password == b"smtp-pw"
        return AuthResult(success=ok, handled=False)
    sink = SmtpSink(tls_context=context, require_starttls=True, authenticator=authenticator, auth_require_tls=True)
    sink.controller.start()
    try:
        monkeypatch.setenv("PBEM_SMTP_CAFILE", str(cert))
        monkeypatch.setenv("PBEM_SMTP_USER", "club")
        monkeypatch.setenv("PBEM_SMTP_PASSWORD", "wrong")
        failed = run_cli("mail", "welcome", mail_game.dir, "--smtp", sink.address)
        assert failed.code == 2 and "refused the login of 'club'" in str(failed.exception)
        assert sink.messages == []
        monkeypatch.setenv("PBEM_SMTP_PASSWORD", "smtp-pw")
        monkeypatch.setenv("PBEM_SMTP_STARTTLS", "1")
        result = run_cli("mail", "welcome", mail_game.dir, "--smtp", sink.address)
        assert result.code == 0, result.output
        assert len(sink.messages) == len(mail_game.players)
        assert logins[-1][1:] == (b"club", True)  # logged in over the encrypted connection
    finally:
        sink.controller.stop()


def test_unreachable_smtp_keeps_the_replies_for_resend(mail_game, games_root, smtp):
    mover = mail_game.to_act()
    dead = f"127.0.0.1:{free_port()}"  # nothing listens there
    before = mail_game.snapshot()
    result = run_cli("mail", "receive", "--games", games_root, "--smtp", dead,
                     input=move_mail(mail_game, mover, a_legal_turn(mail_game)))
    assert result.code == 0 and result.stdout.startswith("accepted:")
    assert "pbem mail resend" in result.stdout
    assert mail_game.snapshot() != before  # the move stands even though its reports could not be sent yet
    resent = run_cli("mail", "resend", "--games", games_root, "--smtp", smtp.address)
    assert resent.code == 0, resent.output
    assert sorted(m["To"] for m in smtp.messages) == sorted(p["email"] for p in mail_game.players.values())
    again = run_cli("mail", "resend", "--games", games_root, "--smtp", smtp.address)
    assert again.stdout.startswith("0 mails sent")


def test_console_script_reads_standard_input(mail_game, games_root, smtp):
    """The way procmail or an MTA runs it: a real process, the message on standard input."""
    exe = Path(sys.executable).with_name("pbem")
    mover = mail_game.to_act()
    raw = move_mail(mail_game, mover, a_legal_turn(mail_game))
    done = subprocess.run([exe, "mail", "receive", "--games", games_root, "--smtp", smtp.address], input=raw,
                          capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(b"accepted:")
    assert len(smtp.messages) == len(mail_game.players)
    bad = subprocess.run([exe, "mail", "receive", "--games", games_root / "missing", "--smtp", smtp.address],
                         input=raw, capture_output=True, timeout=60)
    assert bad.returncode == 2 and b"Traceback" not in bad.stderr and b"not a directory" in bad.stderr


def test_help_without_a_game_explains_how_to_play_by_mail(games_root, smtp):
    raw = write_mail("newcomer@players.example", "help\n", "how does this work?")
    result = receive(games_root, raw, smtp)
    assert result.stdout.startswith("command:"), result.output
    (reply,) = smtp.messages
    assert reply["To"] == "newcomer@players.example"
    assert "Password: <your password>" in body_of(reply)


def test_new_reports_a_failed_welcome_and_how_to_send_it_again(games_root):
    from mailkit import mail_games
    games = mail_games()
    if not games:
        pytest.skip("no playable game yet")
    dead = f"127.0.0.1:{free_port()}"
    result = run_cli("new", games[0].id, games_root / "g2", "--player", "alice:a@players.example",
                     "--player", "bob:b@players.example", "--player", "carol:c@players.example",
                     "--organiser", ORGANISER, "--smtp", dead)
    assert result.code == 2
    assert "cannot connect to the SMTP server" in str(result.exception)
    assert "pbem mail welcome" in str(result.exception)


def test_two_deliveries_of_one_message_at_once_apply_it_once(mail_game, games_root, smtp):
    """Two MTA deliveries racing: the ledger's lock lets one apply the move; the other is told it is a duplicate."""
    exe = Path(sys.executable).with_name("pbem")
    raw = move_mail(mail_game, mail_game.to_act(), a_legal_turn(mail_game), message_id="<race@players.example>")
    command = [exe, "mail", "receive", "--games", games_root, "--smtp", smtp.address]
    racers = [subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE) for _ in range(2)]
    outputs = [racer.communicate(raw, timeout=60)[0] for racer in racers]
    assert all(racer.returncode == 0 for racer in racers)
    assert sorted(out.split(b":")[0] for out in outputs) == [b"accepted", b"duplicate"]
    assert len(engine.read_log(mail_game.gd)["entries"]) == 1


def test_illegal_move_is_answered_with_the_legal_moves_one_a_line(mail_game, smtp, games_root):
    mover = mail_game.to_act()
    gd = mail_game.gd
    words = engine.legal(gd)["moves"][0].split()
    illegal = " ".join(words[:-1] + ["nowhere"])
    try:
        gd.game.parse_move(illegal)
    except Exception:
        pytest.skip(f"{gd.game.id}: no well-formed illegal move derived from {words}")
    before = mail_game.snapshot()
    result = receive(games_root, move_mail(mail_game, mover, [illegal]), smtp)
    assert result.stdout.startswith("rejected:"), result.output
    assert mail_game.snapshot() == before
    text = body_of(smtp.messages[0])
    assert f"'{illegal}' is not legal now" in text
    assert "Legal:" not in text and "Legal now:" not in text  # listed once, one a line, not on the refusal's line
    lines = text.splitlines()
    for move in engine.legal(gd)["moves"]:
        assert any(line == f"  {move}" or line.startswith(f"  {move}  ") for line in lines), move


def test_a_greeting_and_a_sign_off_without_delimiter_do_not_spoil_the_move(mail_game, smtp, games_root):
    mover = mail_game.to_act()
    body = f"Hi referee,\n\nPassword: {mail_game.secret(mover)}\n{a_legal_turn(mail_game)[0]}\n\nCheers,\n{mover}\n"
    result = receive(games_root, write_mail(mail_game.address(mover), body, f"Re: [{mail_game.id}]"), smtp)
    assert result.stdout.startswith("accepted:"), result.output


def test_moves_on_one_line_may_be_split_by_a_full_width_semicolon(games_root, tmp_path):
    """A Chinese or Japanese keyboard types `；` where an English one types `;`: a player's two moves of one turn on
    one line, split by it, are both played, as with `;`."""
    game = create_game(games_root, "coal-baron", 2)
    turns = turns_ahead(game, 60)
    both = next(i for i in range(len(turns) - 1) if turns[i][0] == turns[i + 1][0])
    for player, moves in turns[:both]:
        assert receive(games_root, move_mail(game, player, moves), outbox=tmp_path / "outbox").code == 0
    player, first, second = turns[both][0], turns[both][1][0], turns[both + 1][1][0]
    before = len(engine.read_log(game.gd, full=True)["entries"])
    result = receive(games_root, move_mail(game, player, [f"{first}；{second}"]), outbox=tmp_path / "outbox")
    assert result.code == 0, result.output
    entries = engine.read_log(game.gd, full=True)["entries"][before:]
    assert [move for entry in entries[:2] for move in entry["moves"]] == [first, second]
