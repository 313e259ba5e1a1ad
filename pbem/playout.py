"""Whole games played by the random bot in memory (no files): used by `pbem demo`, the tests and the benchmarks.

Each decision is checked the way the engine checks a submission: against legal_moves, through the notation's
text round trip, with a fresh deep copy handed to apply.
"""
from __future__ import annotations

import copy
import random
from typing import Callable, Iterator

from . import bots, notation
from .registry import Game
from .rng import Rng


class DeadEnd(AssertionError):
    """A state that is not over offered no legal move: always a bug in a game."""


def start(game: Game, players: list[str], options: dict | None = None, seed: str = "seed",
          components: dict | None = None, game_id: str = "playout") -> dict:
    options = game.resolve_options(options or {})
    return game.rules.setup(list(players), options, components or game.default_components(), Rng(seed, game_id, 0))


def _random_move(game: Game, legal: list[dict], rnd: random.Random) -> dict:
    """The random bot's move; a concrete entry must survive its text round trip unchanged (one canonical form)."""
    entry = legal[rnd.randrange(len(legal))]
    move = bots.instantiate(entry, rnd)
    if not any(notation.is_form(value) for value in entry.values()) and game.parse_move(game.format_move(move)) != move:
        raise AssertionError(f"{game.id}: notation round trip failed for {move} -> {game.format_move(move)!r}")
    return game.normalise(move)


def steps(game: Game, state: dict, seed: str = "seed", bot_seed: int | str = 0, max_moves: int = 20000,
          game_id: str = "playout", seats: dict[str, str] | None = None) -> Iterator[tuple[str, dict, dict]]:
    """Yield (player, move, new_state) for each decision until the game is over. `seats` gives a player's bot
    (`greedy` or `random`, see pbem.bots); the others play at random. A decision with one legal move is played as
    the referee plays it (pbem.bots.referee_move), without asking a bot.

    Decision n is applied with Rng(seed, game_id, n): the same as the engine when every submission holds one
    decision (as the bots submit), so a playout and a `pbem demo` with the same seed and game id are one game.
    """
    rnd = random.Random(bot_seed)
    seats = seats or {}
    for number in range(1, max_moves + 1):
        decision = game.rules.pending(state)
        if decision is None:
            return
        player = decision["player"]
        legal = game.rules.legal_moves(state, player)
        if not legal:
            raise DeadEnd(f"{game.id}: no legal move for {player} at {decision['decision']} (move {number})")
        kind = seats.get(player, "random")
        forced = bots.forced(decision, legal)
        if forced is not None:
            move = game.normalise(forced)
        elif kind == "random":
            move = _random_move(game, legal, rnd)
        else:
            move = bots.decide(game, kind, game.rules.view(state, player), legal, rnd)
        text = game.format_move(move)
        if not notation.is_legal(move, legal):
            raise AssertionError(f"{game.id}: the bot's move {text!r} does not match legal_moves")
        state = game.rules.apply(copy.deepcopy(state), player, move, Rng(seed, game_id, number))
        yield player, move, state
    raise AssertionError(f"{game.id}: not over after {max_moves} moves")


def play(game: Game, players: list[str], options: dict | None = None, seed: str = "seed",
         bot_seed: int | str = 0, on_step: Callable[[str, dict, dict], None] | None = None,
         game_id: str = "playout", seats: dict[str, str] | None = None) -> dict:
    state = start(game, players, options, seed, game_id=game_id)
    for player, move, state in steps(game, state, seed, bot_seed, game_id=game_id, seats=seats):
        if on_step:
            on_step(player, move, state)
    return state


def turns(game: Game, players: list[str], options: dict | None = None, seed: str = "seed", bot_seed: int | str = 0,
          game_id: str = "playout", limit: int | None = None, longest: int = 12) -> tuple[list[tuple], dict]:
    """A whole game by the random bot as players send it: each submission is one player's consecutive decisions
    up to new information or the end of their turn (at most `longest`), drawn with the engine's randomness for its
    move number; after each (and at the start) the referee plays the forced moves, each a move number of its own,
    as the engine does. Returns [(move number, player, [move texts])] of the players' submissions only and the
    final state (`limit`: stop after so many)."""
    rnd = random.Random(bot_seed)
    state, number = _forced_moves(game, start(game, players, options, seed, game_id=game_id), seed, game_id, 0)
    submissions = []
    while (pending := game.rules.pending(state)) is not None and (limit is None or len(submissions) < limit):
        number, player = number + 1, pending["player"]
        rng, moves = Rng(seed, game_id, number), []
        while True:
            move = _random_move(game, game.rules.legal_moves(state, player), rnd)
            state = game.rules.apply(copy.deepcopy(state), player, move, rng)
            moves.append(game.format_move(move))
            after = game.rules.pending(state)
            if after is None or after["player"] != player or after.get("fresh_info") or len(moves) >= longest:
                break
        submissions.append((number, player, moves))
        state, number = _forced_moves(game, state, seed, game_id, number)
    return submissions, state


def _forced_moves(game: Game, state: dict, seed: str, game_id: str, number: int) -> tuple[dict, int]:
    """The forced moves the referee plays after move `number`, as the engine plays them: (state, last number)."""
    while (played := bots.referee_move(game, state, [])) is not None:
        number += 1
        state = game.rules.apply(copy.deepcopy(state), played[0], played[1], Rng(seed, game_id, number))
    return state, number
