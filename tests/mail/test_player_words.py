"""No internal name reaches a player: over a whole game of each title, every message a player can receive — the
reports of every seat and the public one (`pbem status`, the site), the turn mail of the player to act with its
legal moves, the refusals of a misspelt word, of a move out of turn and of a value out of range, and the final
report — is scanned for snake_case identifiers (`bid_for_lot`) and the game's decision names and data field names
(meta.yaml, its schemas). Only what a player writes (a word of a legal move) may look like one."""
from __future__ import annotations

import random
import re

import pytest
import yaml

from pbem import bots
from pbem.contract import PbemError
from pbem.engine import engine
from pbem.mail import compose
from pbem.store import registry
from pbem.text import report
from mailkit import create_game
from support import playable_games

SNAKE = re.compile(r"(?<![\w.@/-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w@/-]|\.\w)")
STEP = 12  # the messages are gathered every STEP moves, and at the end


def field_names(game: registry.Game) -> set[str]:
    """The snake_case names of the game's data: the properties its schemas declare."""
    import importlib
    from pathlib import Path
    folder = Path(importlib.import_module(game.module).__file__).parent / "schemas"
    names = {name for path in folder.rglob("*") if path.is_file() for name in SNAKE.findall(path.read_text())}
    return names | set(game.meta.get("decisions", {}))


def refusals(gd: engine.GameDir, to_act: str, legal: list[str]) -> list[str]:
    """What the referee answers a misspelt word, a move out of turn and a legal word with a value out of range."""
    other = next(p for p in gd.players if p != to_act)
    tries = [(to_act, ["xyzzy plugh"]), (other, [legal[0]])]
    valued = next((move.split()[0] for move in legal if len(move.split()) == 2), None)
    if valued:
        tries.append((to_act, [f"{valued} 999999"]))
    secrets, said = {p["name"]: p["secret"] for p in engine.roster(gd)}, []
    for player, texts in tries:
        with pytest.raises(PbemError) as refused:
            engine.submit(gd, player, texts, by="player", password=secrets[player])
        said.append(str(refused.value))
    assert not any("not signed" in text or "password" in text for text in said), said  # (the move's own refusal)
    return said


def messages(gd: engine.GameDir) -> tuple[list[str], set[str]]:
    """Every message a player can receive at this position, and the words of the legal moves (a player's own)."""
    public = engine.status(gd)
    said = [report.status_text(public), *(report.status_text(engine.status(gd, p)) for p in gd.players)]
    if public["finished"]:
        return said, set()
    to_act = public["to_act"]
    legal = engine.legal(gd, to_act)
    said.append(compose.player_report(gd, to_act, None, legal)[1])
    said += refusals(gd, to_act, legal["moves"])
    return said, {word for move in legal["moves"] for word in move.split()}


def play(gd: engine.GameDir, count: int, rnd: random.Random) -> bool:
    """The greedy bots play `count` moves (fewer if the game ends); False once it is over."""
    with engine.session(gd) as table:
        for _ in range(count):
            pending = gd.game.rules.pending(table.state)
            if pending is None:
                break
            view = gd.game.rules.view(table.state, pending["player"])
            move = bots.decide(gd.game, "greedy", view, gd.game.rules.legal_moves(table.state, pending["player"]), rnd)
            table.submit(pending["player"], [gd.game.format_move(move)], by="referee")
        table.write()
        return gd.game.rules.pending(table.state) is not None


def leaks(texts: list[str], internal: set[str], allowed: set[str]) -> dict[str, str]:
    """Each identifier the texts show a player that is not a word of theirs, with the words around it."""
    found = {}
    for text in texts:
        words = set(re.findall(r"[\w-]+", text))  # (a one-word name, `mine`, is an English word: named as such)
        for word in set(SNAKE.findall(text)) | {name for name in internal if name in words and "_" in name
                                                 or f"({name})" in text}:
            if word not in allowed:
                found.setdefault(word, text[max(0, text.find(word) - 60):text.find(word) + 40])
    return found


def test_the_scan_sees_an_identifier_but_not_a_file_name_an_address_or_a_players_own_word():
    text = ("Bid for the lot (bid_for_lot). See rules.md and game_id.yaml, write to ref_1@club.example; "
            "your move: take gold_pan. The mine is open.")
    assert set(leaks([text], {"bid_for_lot", "mine_cart"}, {"gold_pan"})) == {"bid_for_lot"}
    assert set(leaks(["a mine_cart, then"], {"mine_cart"}, set())) == {"mine_cart"}
    assert set(leaks(["'place x' is not legal now (mine)", "the mine"], {"mine"}, set())) == {"mine"}


@pytest.mark.parametrize("game_id", [game.id for game in playable_games()])
def test_no_message_of_a_whole_game_names_an_internal_identifier(games_root, game_id):
    game = registry.get(game_id)
    gd = engine.open_game(create_game(games_root, game_id, min(3, game.max_players), seed="words").dir)
    internal, rnd, found, going, read = field_names(game), random.Random(7), {}, True, 0
    assert internal  # (its decisions and data have such names: none of them may reach a player)
    while going:
        going = play(gd, STEP, rnd)
        said, allowed = messages(gd)
        found.update(leaks(said, internal, allowed))
        read += len(said)
    assert read > len(gd.players) and not found, found  # (every seat's report at least)
