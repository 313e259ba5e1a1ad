"""The picture in every mail that asks its reader to act: a tick's reminder, timeout notice and turn report, a daily
digest that says it is the reader's turn, and the welcome of a seat's new holder to act carry the picture of the
reader's own view as an inline PNG (cid:, referenced from the HTML part); the same mails to players who are not to
act, and every mail with PBEM_MAIL_PICTURES=0, are plain text. The answers to an illegal move of the player to act
and to `moves` on their turn carry it too, the answer to `status` always. `pbem replace` first sends the mail an
earlier tick still owes, once."""
from __future__ import annotations

import datetime
import os
import subprocess
import sys

import pytest

from pbem.clock import correspondence, notices
from pbem.engine import engine
from pbem.text import pictures, times
from mailkit import MailGame, create_game, move_mail, run_cli
from support import legal_turn

T0 = "2025-12-01T12:00:00Z"
ON_OFF = [pytest.param("1", id="pictures-on"), pytest.param("0", id="pictures-off")]


def at(hours: float) -> str:
    return times.iso(times.parse_time(T0) + datetime.timedelta(hours=hours))


def start(games_root, *options, players=2) -> MailGame:
    return create_game(games_root, "coal-baron", players, seed="mail-pictures", options=("--now", T0, *options))


def tick(games_root, smtp, hours) -> list:
    result = run_cli("tick", games_root, "--now", at(hours), "--smtp", smtp.address)
    assert result.code == 0, result.output
    return smtp.take()


@pytest.fixture
def drawn(monkeypatch):
    """Every status document a picture is drawn from (pictures.picture), to prove it is the reader's view."""
    docs = []
    original = pictures.picture

    def spy(doc, *args, **kwargs):
        docs.append(doc)
        return original(doc, *args, **kwargs)
    monkeypatch.setattr(pictures, "picture", spy)
    return docs


def picture_of(msg) -> bytes | None:
    """The inline PNG of a mail, checked to be the one its HTML part shows (None: a plain-text mail)."""
    if not msg.is_multipart():
        assert msg.get_content_type() == "text/plain"
        return None
    plain, related = msg.get_payload()
    assert plain.get_content_type() == "text/plain"
    html, image = related.get_payload()
    assert image.get_content_type() == "image/png" and image["Content-Disposition"].startswith("inline")
    assert f'src="cid:{image["Content-ID"].strip("<>")}"' in html.get_content()
    return image.get_content()


def assert_pictured_for_the_player_to_act(game: MailGame, mails: list, switch: str, drawn: list) -> None:
    """Each mail carries a picture exactly when it goes to the player to act (and pictures are on): the picture of
    that player's view, drawn from their status document, never the public one nor another player's."""
    to_act, by_the_referee = engine.status(game.gd)["to_act"], list(drawn)  # (before the checks draw their own)
    asked = [m for m in mails if m["To"] == game.address(to_act)]
    assert asked and len(asked) < len(mails)
    for msg in mails:
        png = picture_of(msg)
        if switch == "0" or msg["To"] != game.address(to_act):
            assert png is None, (msg["To"], msg["Subject"])
            continue
        assert png == pictures.mail_picture(engine.status(game.gd, to_act))[0], msg["Subject"]
        assert png != pictures.mail_picture(engine.status(game.gd))[0]  # not the public view's
    expected = [("pbem-player/1", to_act)] * len(asked) if switch == "1" else []
    assert [(doc["format"], doc.get("player")) for doc in by_the_referee] == expected


@pytest.mark.parametrize("switch", ON_OFF)
def test_a_tick_pictures_its_reminder_and_turn_mail_for_the_player_to_act_only(games_root, smtp, monkeypatch,
                                                                            drawn, switch):
    game = start(games_root, "--deadline", "48h", "--reminder", "12h", "--on-timeout", "first-legal",
                 "--notify", "every")
    smtp.take()
    monkeypatch.setenv("PBEM_MAIL_PICTURES", switch)
    player, _, _ = legal_turn(game.dir)
    (reminder,) = tick(games_root, smtp, 40)
    assert "reminder" in reminder["Subject"] and reminder["To"] == game.address(player)
    assert (picture_of(reminder) is not None) == (switch == "1")
    drawn.clear()
    mails = tick(games_root, smtp, 48)  # the timeout: a notice to the late player, a report to the other
    assert {m["To"] for m in mails} == {game.address(name) for name in game.gd.players}
    assert any("timeout" in m["Subject"] for m in mails)
    assert_pictured_for_the_player_to_act(game, mails, switch, drawn)


@pytest.mark.parametrize("switch", ON_OFF)
def test_a_daily_digest_that_says_your_turn_carries_the_picture_and_the_others_none(games_root, smtp, monkeypatch,
                                                                                drawn, switch):
    game = start(games_root, "--notify", "daily", players=3)
    smtp.take()
    player, move, number = legal_turn(game.dir)
    result = run_cli("mail", "receive", "--games", games_root, "--smtp", smtp.address, "--now", at(1),
                     input=move_mail(game, player, [move], move_number=number))
    assert result.code == 0 and result.stdout.startswith("accepted"), result.output
    smtp.take()
    monkeypatch.setenv("PBEM_MAIL_PICTURES", switch)
    digests = tick(games_root, smtp, 13)  # the next day
    assert digests and all("daily digest" in m["Subject"] for m in digests)
    assert_pictured_for_the_player_to_act(game, digests, switch, drawn)


@pytest.mark.parametrize("switch", ON_OFF)
def test_the_welcome_of_a_new_holder_carries_the_picture_only_when_their_seat_is_to_act(games_root, smtp,
                                                                                    monkeypatch, drawn, switch):
    game = start(games_root, players=3)
    smtp.take()
    monkeypatch.setenv("PBEM_MAIL_PICTURES", switch)
    to_act = engine.status(game.gd)["to_act"]
    waiting = next(name for name in game.gd.players if name != to_act)
    welcomes = {}
    for seat, holder in ((to_act, "zoe"), (waiting, "yann")):
        result = run_cli("replace", game.dir, "--seat", seat, "--by", f"{holder}:{holder}@players.example",
                         "--smtp", smtp.address, "--now", at(1))
        assert result.code == 0, result.output
        (welcomes[seat],) = smtp.take()
        assert welcomes[seat]["To"] == f"{holder}@players.example"
        if seat == to_act:  # the position the welcome tells of, before the next hand-over
            by_the_referee = [(doc["format"], doc.get("player")) for doc in drawn]
            expected = pictures.mail_picture(engine.status(game.gd, to_act))[0] if switch == "1" else None
    assert picture_of(welcomes[to_act]) == expected
    assert picture_of(welcomes[waiting]) is None
    assert by_the_referee == ([("pbem-player/1", to_act)] if switch == "1" else [])


def test_an_owed_mail_made_again_is_the_same_mail_with_the_same_picture(games_root, smtp, monkeypatch):
    """An owed reminder made twice (a run killed after sending it, before taking the record off) has the same
    Message-ID, picture and Content-ID: it is one mail, sent once."""
    from pbem.mail import clockmail
    from pbem.mail.outgoing import Mailer
    from pbem.mail.transport import Smtp
    game = start(games_root, "--deadline", "48h", "--reminder", "12h")
    monkeypatch.setenv("PBEM_MAIL_PICTURES", "1")
    correspondence.tick(game.gd, times.parse_time(at(40)), owe=True)
    (item,) = notices.owed(game.gd)
    mailer = Mailer(games_root, Smtp.from_spec(smtp.address))
    result = {"events": item["events"], "entries": item["entries"]}

    def made():
        (name, msg), = clockmail.tick_mails(mailer, game.gd, result, times.parse_time(item["at"]), key=item["id"])
        return msg
    first, again = made(), made()
    assert first["Message-ID"] == again["Message-ID"]
    assert picture_of(first) == picture_of(again) is not None
    assert first.get_payload()[1].get_payload()[1]["Content-ID"] == again.get_payload()[1].get_payload()[1][
        "Content-ID"]


def test_replace_sends_the_mail_an_earlier_tick_owes_before_the_welcome_and_only_once(games_root, smtp):
    game = start(games_root, "--deadline", "48h", "--reminder", "12h")
    smtp.take()
    player, _, _ = legal_turn(game.dir)
    correspondence.tick(game.gd, times.parse_time(at(40)), owe=True)  # a tick killed before its mail went
    assert notices.owed(game.gd)
    waiting = next(name for name in game.gd.players if name != player)
    result = run_cli("replace", game.dir, "--seat", waiting, "--by", "zoe:zoe@players.example",
                     "--smtp", smtp.address, "--now", at(41))
    assert result.code == 0, result.output
    reminder, welcome = smtp.take()
    assert reminder["To"] == game.address(player) and "reminder" in reminder["Subject"]
    assert welcome["To"] == "zoe@players.example" and "welcome" in welcome["Subject"]
    assert f"sent to {game.address(player)}" in result.stdout
    assert notices.owed(game.gd) == []
    assert tick(games_root, smtp, 41) == []  # told once: the next tick does not send it again


@pytest.mark.parametrize("switch", ON_OFF)
def test_the_answer_to_an_illegal_move_shows_its_player_the_board_and_a_wrong_password_gets_none(
        games_root, smtp, monkeypatch, drawn, switch):
    """The answer to an illegal move lists the legal moves: from the player to act, with the right password, it
    carries the picture of their view. A mail refused for a wrong password (anyone can forge a From) is answered
    in text only: a forged mail costs the referee no picture."""
    game = start(games_root)
    smtp.take()
    monkeypatch.setenv("PBEM_MAIL_PICTURES", switch)
    player, _, number = legal_turn(game.dir)
    before = game.snapshot()
    for password, pictured in ((None, switch == "1"), ("not-the-password", False)):
        result = run_cli("mail", "receive", "--games", games_root, "--smtp", smtp.address, "--now", at(1),
                         input=move_mail(game, player, ["place nowhere"], move_number=number, password=password))
        assert result.code == 0 and result.stdout.startswith("rejected"), result.output
        (answer,) = smtp.take()
        assert answer["To"] == game.address(player) and "was not applied" in answer.get_body(
            preferencelist=("plain",)).get_content()
        png = picture_of(answer)
        assert (png is not None) == pictured, password
        if pictured:
            assert png == pictures.mail_picture(engine.status(game.gd, player))[0]
    assert game.snapshot() == before
    assert [(doc["format"], doc.get("player")) for doc in drawn][:1] == ([("pbem-player/1", player)]
                                                                         if switch == "1" else [])


@pytest.mark.parametrize("switch", ON_OFF)
def test_a_players_status_shows_the_board_their_moves_show_it_when_theirs_and_help_never(games_root, smtp,
                                                                                        monkeypatch, switch):
    """`status` asks to see the position: its answer carries the picture of the asker's view, whoever is to act;
    `moves` carries it when the moves are the asker's to make; `help` is words only."""
    game = start(games_root)
    smtp.take()
    monkeypatch.setenv("PBEM_MAIL_PICTURES", switch)
    to_act = engine.status(game.gd)["to_act"]
    waiting = next(name for name in game.gd.players if name != to_act)
    for name, command, pictured in ((to_act, "status", True), (waiting, "status", True), (to_act, "moves", True),
                                    (waiting, "moves", False), (to_act, "help", False)):
        result = run_cli("mail", "receive", "--games", games_root, "--smtp", smtp.address, "--now", at(1),
                         input=move_mail(game, name, [command]))
        assert result.code == 0, result.output
        (answer,) = smtp.take()
        assert answer["To"] == game.address(name)
        png = picture_of(answer)
        assert (png is not None) == (pictured and switch == "1"), (name, command)
        if png is not None:
            assert png == pictures.mail_picture(engine.status(game.gd, name))[0]


def test_a_move_by_mail_with_its_picture_imports_neither_jinja2_nor_hashlib_nor_the_making_of_games(games_root,
                                                                                                    tmp_path):
    """The mail referee fills a mail's HTML page without jinja2, takes its digests without hashlib (OpenSSL's
    start) and tells a game's id without importing what makes games (and the bots); it reads a plain text mail
    without the HTML parser (nor the html module's table of named characters) and has nothing unsent to send
    again without the mailbox module: each would be paid by every run, and again by each worker's first mail, or
    in the part of a batch no worker shares. Run outside the checkout (`python -c` puts its folder first on
    sys.path)."""
    game = start(games_root)
    player, text, number = legal_turn(game.dir)
    raw = move_mail(game, player, [text], move_number=number)
    args = ["mail", "receive", "--games", str(games_root), "--outbox", str(tmp_path / "outbox")]
    code = ("import sys\n"
            "from pbem.cli.commands import main\n"
            f"assert main({args!r}) == 0\n"
            "print(sorted({'jinja2', 'hashlib', 'hmac', 'pbem.engine.newgame', 'pbem.bots', 'html', 'html.parser', "
            "'mailbox'} & set(sys.modules)), "
            "'PIL' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], input=raw, capture_output=True, timeout=60, cwd=tmp_path,
                          env={**os.environ, "PBEM_MAIL_PICTURES": "1"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().strip().splitlines()[-1] == "[] True"  # (a picture drawn: Pillow imported)
