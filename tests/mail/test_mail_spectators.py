"""Spectators by mail, through the mail referee: a subscription is made only when the token mailed to the address
comes back from it (a forged From can neither subscribe nor unsubscribe someone else), a player asking to watch
learns nothing new, and everything a spectator receives is the public view, over whole bot-played games of
every title."""
from __future__ import annotations

import random
import re
from email.message import EmailMessage

import pytest

from mailkit import body_of, create_game, game_params, move_mail, receive, run_cli, turns_ahead, write_mail
from pbem.clock import club, correspondence
from pbem.engine import engine
from pbem.mail import compose, spectators
from pbem.mail.commands import Referee
from pbem.mail.outgoing import Mailer
from pbem.play import levels
from pbem.text import report

FAN, MALLORY = "fan@fans.example", "mallory@evil.example"


def spectators_of(game) -> list[str]:
    return [s["email"] for s in club.spectators(engine.load_secrets(game.gd))]


def token_in(msg) -> str:
    return re.search(r"confirm (\S+)", body_of(msg)).group(1)


def mail_from(sender: str, game, line: str, **headers) -> bytes:
    return write_mail(sender, line + "\n", f"[{game.id}] request", **headers)


def test_a_stranger_watches_an_open_game_once_the_token_mailed_to_them_comes_back(tmp_path, smtp):
    game = create_game(tmp_path, "chartered", options=("--watchers", "open"))
    assert receive(tmp_path, mail_from(FAN, game, "Hi referee,\nwatch\nCheers,\nFan"), smtp).code == 0
    (asked,) = smtp.take()
    assert asked["To"] == FAN and "confirm" in body_of(asked)
    assert spectators_of(game) == []  # asked, not yet subscribed
    forged = mail_from(MALLORY, game, f"confirm {token_in(asked)}")  # a token can only be used from its address
    receive(tmp_path, forged, smtp)
    assert [m["To"] for m in smtp.take()] == [MALLORY] and spectators_of(game) == []
    receive(tmp_path, mail_from(FAN, game, f"confirm {token_in(asked)}"), smtp)
    (welcome,) = smtp.take()
    assert spectators_of(game) == [FAN]
    assert report.status_text(engine.status(game.gd)).strip() in body_of(welcome)


def test_a_forged_from_cannot_subscribe_or_unsubscribe_someone_else(tmp_path, smtp):
    game = create_game(tmp_path, "chartered", options=("--watchers", "open"))
    assert run_cli("watch", game.dir, "--add", FAN).code == 0
    # mallory writes as the fan to stop their mail: the confirmation goes to the fan's own address, never to her
    receive(tmp_path, mail_from(FAN, game, "unwatch", extra_headers={"Reply-To": MALLORY}), smtp)
    (asked,) = smtp.take()
    assert asked["To"] == FAN and spectators_of(game) == [FAN]
    # and a guessed token changes nothing
    receive(tmp_path, mail_from(FAN, game, "confirm AAAAAAAAAAAAAAAAAAAAAAAA"), smtp)
    assert "not applied" in smtp.take()[0]["Subject"] and spectators_of(game) == [FAN]
    # the real fan confirms: unsubscribed; the token is spent
    receive(tmp_path, mail_from(FAN, game, f"confirm {token_in(asked)}"), smtp)
    smtp.take()
    assert spectators_of(game) == []
    receive(tmp_path, mail_from(FAN, game, f"confirm {token_in(asked)}"), smtp)
    assert "not applied" in smtp.take()[0]["Subject"]


def test_a_game_not_open_to_watchers_refuses_a_stranger_and_sends_no_token(tmp_path, smtp):
    game = create_game(tmp_path, "chartered")
    before = game.snapshot()
    receive(tmp_path, mail_from(FAN, game, "watch"), smtp)
    (answer,) = smtp.take()
    assert "not open to watchers" in body_of(answer) and "confirm" not in body_of(answer)
    assert game.snapshot() == before


def test_a_player_asking_to_watch_their_own_game_learns_nothing_new(tmp_path, smtp):
    game = create_game(tmp_path, "chartered", options=("--watchers", "open"))
    before = game.snapshot()
    receive(tmp_path, mail_from(game.address("alice"), game, "watch"), smtp)
    (answer,) = smtp.take()
    body = body_of(answer)
    assert "you play alice" in body and "confirm" not in body
    # the answer holds the refusal alone: no report, no view, no one else's anything
    assert report.status_text(engine.status(game.gd)).splitlines()[0] not in body
    assert game.snapshot() == before
    # nor may the organiser seat a player among the spectators
    refused = run_cli("watch", game.dir, "--add", game.address("bob"))
    assert refused.code == 2 and "plays bob" in str(refused.exception)


def test_a_spectator_gets_each_move_as_the_public_report_and_a_daily_one_a_digest(tmp_path, smtp):
    game = create_game(tmp_path, "chartered")
    assert run_cli("watch", game.dir, "--add", FAN).code == 0
    assert run_cli("watch", game.dir, "--add", "late@fans.example", "--notify", "daily").code == 0
    data = run_cli("watch", game.dir, "--format", "json")
    assert data.code == 0 and '"notify": "daily"' in data.stdout
    player, moves = turns_ahead(game, 1)[0]
    receive(tmp_path, move_mail(game, player, moves), smtp)
    mails = smtp.take()
    to_fan = [m for m in mails if m["To"] == FAN]
    assert len(to_fan) == 1 and not [m for m in mails if m["To"] == "late@fans.example"]
    assert body_of(to_fan[0]).rstrip() == public_mail_text(game, 1)
    ticked = run_cli("tick", tmp_path, "--smtp", smtp.address)
    assert ticked.code == 0, (ticked.output, repr(ticked.exception))
    digest = [m for m in smtp.take() if m["To"] == "late@fans.example"]
    assert len(digest) == 1 and "daily digest" in body_of(digest[0])


def public_mail_text(game, count: int) -> str:
    """What the public files say of the last `count` moves and the position, composed here from log.yaml and
    public.yaml (the spectator's mail must say exactly that)."""
    entries, doc = engine.read_log(game.gd)["entries"][-count:], engine.status(game.gd)
    end = [f"The game is over. The seed is revealed: {doc['seed']}."] if doc["finished"] else []
    return "\n\n".join([compose.news_text(entries), *end, report.status_text(doc).rstrip()])


class Keep:
    """The referee's transport, keeping what it is given."""

    def __init__(self):
        self.mails: list[EmailMessage] = []

    def describe(self) -> str:
        return "kept"

    def prepare(self) -> None:
        """Nothing to check."""

    def hold(self) -> None:
        """Nothing held."""

    def flush(self) -> None:
        """Nothing held."""

    def release(self) -> None:
        """Nothing held."""

    def send(self, messages, once: bool = False) -> list[str]:
        self.mails += messages
        return [str(m["To"]) for m in messages]


def test_a_spectator_hears_of_each_move_through_the_mail_referee_as_the_public_view_says(tmp_path, monkeypatch):
    monkeypatch.setenv("PBEM_MAIL_PICTURES", "0")  # the players' pictures: not the spectator's, and slow to draw
    game = create_game(tmp_path, "chartered", options=("--notify", "turn"))
    assert run_cli("watch", game.dir, "--add", FAN).code == 0
    kept = Keep()
    referee = Referee(tmp_path, kept, "referee@club.example")
    for _ in range(6):
        before = engine.status(game.gd)["move_number"]
        (player, moves), = turns_ahead(game, 1, seed=before)
        assert referee.handle(move_mail(game, player, moves)).result == "accepted"
        (to_fan,) = [m for m in kept.mails if m["To"] == FAN]
        kept.mails.clear()
        made = engine.status(game.gd)["move_number"] - before
        assert body_of(to_fan).split() == public_mail_text(game, made).split()  # (a mail folds long lines)
        assert to_fan.get_content_type() == "text/plain"  # no picture of anyone's view


def whole_game_params():
    """Every title; the default suite plays the quickest (Chartered) whole, the benchmarks' `slow` run the others
    (a few seconds each on an idle machine)."""
    return [param if param.values[0] == "chartered" else pytest.param(*param.values, marks=pytest.mark.slow,
                                                                       id=param.id)
            for param in game_params()]


@pytest.mark.parametrize("game_type", whole_game_params())
def test_everything_a_spectator_receives_over_a_whole_game_is_what_the_public_view_holds(tmp_path, game_type):
    """Whole bot-played games: the spectator's mail of every turn (pbem.mail.spectators.reports, which the mail
    referee and the tick send) says what the public log and public.yaml say, and nothing else."""
    game = create_game(tmp_path, game_type, options=("--notify", "turn"))
    assert run_cli("watch", game.dir, "--add", FAN).code == 0
    mailer, gd, rnd, told = Mailer(tmp_path, Keep(), "referee@club.example"), game.gd, random.Random(7), 0
    while (player := engine.status(gd)["to_act"]) is not None:
        state = engine.load_state(gd)["state"]
        move = levels.decide(gd.game, "greedy", gd.game.rules.view(state, player),
                             gd.game.rules.legal_moves(state, player), rnd)
        result = correspondence.submit(gd, player, [gd.game.format_move(move)], password=game.secret(player))
        mailer.reads.clear()
        entries = compose.turn_entries(result)
        (to_fan,) = spectators.reports(mailer, gd, entries)
        assert body_of(to_fan).split() == public_mail_text(game, len(entries)).split()
        told += len(entries)
    assert told == len(engine.read_log(gd)["entries"])


def test_a_spectators_language_confirmed_from_their_address_sets_the_language_of_their_mails(tmp_path, smtp):
    game = create_game(tmp_path, "chartered")
    assert run_cli("watch", game.dir, "--add", FAN).code == 0
    assert run_cli("watch", game.dir, "--add", "late@fans.example", "--notify", "daily").code == 0
    receive(tmp_path, mail_from(MALLORY, game, "language fr"), smtp)  # no spectator: refused, nothing asked
    assert "not applied" in smtp.take()[0]["Subject"]
    for fan in (FAN, "late@fans.example"):
        receive(tmp_path, mail_from(fan, game, "language fr"), smtp)
        (asked,) = smtp.take()
        assert asked["To"] == fan and "français" in body_of(asked)
        assert "language" not in club.spectator(engine.load_secrets(game.gd), fan)  # asked, not yet made
        receive(tmp_path, mail_from(fan, game, f"confirm {token_in(asked)}"), smtp)
        (done,) = smtp.take()
        assert "français" in body_of(done) and club.spectator(engine.load_secrets(game.gd), fan)["language"] == "fr"
    player, moves = turns_ahead(game, 1)[0]
    receive(tmp_path, move_mail(game, player, moves), smtp)
    (to_fan,) = [m for m in smtp.take() if m["To"] == FAN]
    assert body_of(to_fan).startswith("Coup 1 :")
    ticked = run_cli("tick", tmp_path, "--smtp", smtp.address)
    assert ticked.code == 0, (ticked.output, repr(ticked.exception))
    (digest,) = [m for m in smtp.take() if m["To"] == "late@fans.example"]
    assert "Votre résumé quotidien" in body_of(digest)
