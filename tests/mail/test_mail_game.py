"""A whole game of every registered title, played through mail only.

The bots are players with a mail program: each reads the last report the referee mailed it (from the SMTP
server), takes the move number from it, chooses its turn from the legal moves, and answers that report with its
password and its move lines — above or below the quoted report — and a signature. Turns go in alternately
through `pbem mail receive` and a real Maildir handled by `pbem mail inbox`. Nothing reaches the game but these mails.
"""
from __future__ import annotations

import copy
import mailbox
import random
import re
import time

import pytest

from pbem import bots
from pbem.engine import engine
from pbem.rng import Rng
from pbem.store import registry, yamlio
from mailkit import ORGANISER, body_of, create_game, game_params, receive, run_cli, write_mail

MAX_TURNS = 3000
MAX_MOVES_A_MAIL = 12


def bot_turn(gd: engine.GameDir, player: str, rnd: random.Random) -> list[str]:
    """The moves of one mail: consecutive decisions of the same player, stopping where the bot would need to see
    something new first (new hidden information, or a chance outcome it cannot know)."""
    game = gd.game
    state = yamlio.load_file(gd.path / engine.STATE)["state"]  # read only, to work out the turn ahead
    rng = Rng("the bot does not know the seed", gd.id, 0)
    moves = []
    while len(moves) < MAX_MOVES_A_MAIL:
        pending = game.rules.pending(state)
        if pending is None or pending["player"] != player or (moves and pending.get("fresh_info")):
            break
        kind = bots.all_random_kind(game, rnd)  # random, or greedy in a game random play cannot finish
        move = bots.decide(game, kind, game.rules.view(state, player), game.rules.legal_moves(state, player), rnd)
        moves.append(game.format_move(move))
        state = game.rules.apply(copy.deepcopy(state), player, move, rng)
        if rng.outcomes:
            break
    return moves


def answer(report, game, player: str, moves: list[str], below: bool) -> bytes:
    """A reply to the referee's last report: password, move number and the moves, written above the quoted report
    or below it (both ways players answer mail), and a signature."""
    text = body_of(report)
    found = re.search(r"Move-Number: (\d+)", text)
    fields = f"Password: {game.secret(player)}\n" + (f"Move-Number: {found.group(1)}\n" if found else "")
    own = fields + "\n".join(moves) + "\n"
    quote = f"On {report['Date']}, {report['From']} wrote:\n" + "".join(f"> {line}\n" for line in text.splitlines())
    body = (quote + "\n" + own if below else own + "\n" + quote) + f"\n-- \n{player}, sent from my phone\n"
    return write_mail(f"{player.title()} <{game.address(player)}>", body, "Re: " + report["Subject"],
                      in_reply_to=report["Message-ID"])


@pytest.mark.parametrize("game_type", game_params())
def test_whole_game_by_mail(game_type, games_root, smtp, tmp_path):
    started = time.monotonic()
    game = create_game(games_root, game_type, welcome=smtp.address, seed=f"mail-{game_type}")
    gd = game.gd
    last = {}  # player -> the last mail the referee sent them

    def collect(expect_all: bool):
        mails = smtp.take()
        for msg in mails:
            assert len(msg.get_all("To")) == 1
            wide = [line for line in body_of(msg).split("\n") if len(line) > 78]
            assert not wide, f"a line of {len(wide[0])} columns in {msg['Subject']}: {wide[0]}"
            last[msg["To"]] = msg
        if expect_all:  # every player hears of every move
            assert sorted(m["To"] for m in mails if m["To"] != ORGANISER) == \
                sorted(p["email"] for p in game.players.values())
        return mails

    collect(expect_all=True)  # the welcome mails
    maildir = mailbox.Maildir(tmp_path / "incoming", create=True)
    rnd = random.Random(f"bots-{game_type}")
    turns, told_forced = 0, 0
    player = engine.status(gd)["to_act"]
    while player is not None:
        report = last[game.address(player)]
        assert "your turn" in report["Subject"] or "welcome" in report["Subject"]
        raw = answer(report, game, player, bot_turn(gd, player, rnd), below=turns % 3 == 2)
        if turns % 2:
            result = receive(games_root, raw, smtp)
            assert result.code == 0 and result.stdout.startswith("accepted:"), result.stdout
        else:
            maildir.add(raw)
            result = run_cli("mail", "inbox", "--games", games_root, "--maildir", maildir._path,
                             "--smtp", smtp.address)
            assert result.code == 0 and result.stdout.startswith("accepted:"), result.stdout
        mails = collect(expect_all=True)
        told_forced += "the referee played" in body_of(mails[0]) and "(only legal move)" in body_of(mails[0])
        mover_mail = next(m for m in mails if m["To"] == game.address(player))
        assert mover_mail["In-Reply-To"] == re.search(r"<[^>]+>", raw.split(b"Message-ID: ")[1].decode()).group(0)
        turns += 1
        assert turns < MAX_TURNS, "the game did not end"
        # who acts next, as the players learn it: from the mail that says "your turn"
        told = [m["To"] for m in mails if m["Subject"].endswith("your turn")]
        over = [m for m in mails if m["Subject"].endswith("game over")]
        assert len(told) + bool(over) == 1, [m["Subject"] for m in mails]
        player = None if over else next(n for n, p in game.players.items() if p["email"] == told[0])
    final = engine.status(gd)
    assert final["finished"]
    for name, player in game.players.items():
        over = last[player["email"]]
        assert over["Subject"].endswith("game over")
        assert final["seed"] in body_of(over)
        assert "Final ranking" in body_of(over)
    assert final["seed"] in body_of(last[ORGANISER])
    assert engine.verify(gd)["result"] == "ok"
    assert len(maildir) == sum(1 for _ in maildir.iterkeys())
    assert not list((tmp_path / "incoming" / "new").iterdir())  # every delivered mail moved aside
    entries = engine.read_log(gd)["entries"]
    forced = [e for e in entries if e["by"] == "referee"]  # nobody resigned: only forced moves are the referee's
    assert all(e["reason"] == "only legal move" for e in forced)
    forced_numbers = {e["number"] for e in forced}
    followed = [e for e in entries if e["by"] == "player" and e["number"] + 1 in forced_numbers]
    assert told_forced == len(followed)  # every mail after such a turn says what the referee played
    print(f"{game_type}: {turns} mails, {len(entries)} turns, {time.monotonic() - started:.1f}s")


def test_every_registered_game_is_covered():
    assert [p.values[0] for p in game_params()] == [g.id for g in registry.all_games()]
