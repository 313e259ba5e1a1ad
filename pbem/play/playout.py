"""Whole games played by bots in memory (no files): used by the tests and the benchmarks.

Each decision is checked and applied as the engine does it (pbem.play.turns: against legal_moves, on a copy),
after a check of the notation's text round trip, and the referee's automatic moves are the engine's.
"""
from __future__ import annotations

import random
from typing import Callable, Iterator

from .. import bots, notation
from ..contract import PbemError
from ..rng import Rng
from ..store.registry import Game
from . import levels
from .turns import Asked, MoveAt, apply_decision, forced, referee_turns


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


def _bot_move(game: Game, state: dict, player: str, legal: list[dict], kind: str, rnd: random.Random) -> dict:
    if kind == "random":
        return _random_move(game, legal, rnd)
    return levels.decide(game, kind, game.rules.view(state, player), legal, rnd)


def steps(game: Game, state: dict, seed: str = "seed", bot_seed: int | str = 0, max_moves: int = 20000,
          game_id: str = "playout", seats: dict[str, str] | None = None) -> Iterator[tuple[str, dict, dict]]:
    """Yield (player, move, new_state) for each decision until the game is over. `seats` gives a player's bot
    (a level: `random`, `greedy`, `search[:N]`, see pbem.play.levels); the others play at random. A forced move is
    played as the referee plays it (pbem.play.turns.forced), without asking a bot.

    Decision n is applied with Rng(seed, game_id, n): the same as the engine when every submission holds one
    decision (as the bots submit), so a playout and a `pbem demo` with the same seed and game id are one game.
    """
    rnd = random.Random(bot_seed)
    seats = seats or {}
    all_random = all(kind == "random" for kind in seats.values())
    for number in range(1, max_moves + 1):
        decision = game.rules.pending(state)
        if decision is None:
            return
        player = decision["player"]
        legal = game.rules.legal_moves(state, player)
        if not legal:
            raise DeadEnd(f"{game.id}: no legal move for {player} at {decision['decision']} (move {number})")
        only = forced(decision, legal)
        if only is not None:
            move = game.normalise(only)
        else:
            kind = bots.all_random_kind(game, rnd) if all_random else seats.get(player, "random")
            move = _bot_move(game, state, player, legal, kind, rnd)
        state = _apply(game, state, player, move, Rng(seed, game_id, number), legal, decision)
        yield player, move, state
    raise AssertionError(f"{game.id}: not over after {max_moves} moves")


class Table:
    """How a play-out's game is played (the keywords of `play` and `turns`): its seed (the engine's randomness,
    Rng(seed, game_id, n)) and the bots' (`bot_seed`), its id, and each seat's bot (`seats`: player -> a level,
    pbem.play.levels; the others random)."""

    __slots__ = ("seed", "bot_seed", "game_id", "seats")

    def __init__(self, seed: str = "seed", bot_seed: int | str = 0, game_id: str = "playout",
                 seats: dict[str, str] | None = None):
        self.seed, self.bot_seed, self.game_id, self.seats = seed, bot_seed, game_id, seats


def play(game: Game, players: list[str], options: dict | None = None,
         on_step: Callable[[str, dict, dict], None] | None = None, **table) -> dict:
    """A whole game by the bots (`table`: a Table), `on_step(player, move, state)` after each decision: the final
    state."""
    at = Table(**table)
    state = start(game, players, options, at.seed, game_id=at.game_id)
    for player, move, state in steps(game, state, at.seed, at.bot_seed, game_id=at.game_id, seats=at.seats):
        if on_step:
            on_step(player, move, state)
    return state


def turns(game: Game, players: list[str], options: dict | None = None, limit: int | None = None, longest: int = 12,
          **table) -> tuple[list[tuple], dict]:
    """A whole game by the random bot as players send it (`table`: a Table, its seats aside): each submission is
    one player's consecutive decisions up to new information or the end of their turn (at most `longest`), drawn
    with the engine's randomness for its move number; after each (and at the start) the referee plays the forced
    moves, each a move number of its own, as the engine does. Returns [(move number, player, [move texts])] of the
    players' submissions only and the final state (`limit`: stop after so many)."""
    at = Table(**table)
    rnd = random.Random(at.bot_seed)
    referee = {"seed": at.seed, "players": list(players), "forced_moves": "referee"}  # as the engine's state says
    state, number = _forced_moves(game, start(game, players, options, at.seed, game_id=at.game_id), referee,
                                  at.game_id, 0)
    submissions = []
    while (pending := game.rules.pending(state)) is not None and (limit is None or len(submissions) < limit):
        number, player = number + 1, pending["player"]
        state, moves = _submission(game, state, player, Rng(at.seed, at.game_id, number), rnd, longest)
        submissions.append((number, player, moves))
        state, number = _forced_moves(game, state, referee, at.game_id, number)
    return submissions, state


def _submission(game: Game, state: dict, player: str, rng: Rng, rnd: random.Random, longest: int
                ) -> tuple[dict, list[str]]:
    """One player's consecutive decisions by the random bot (drawing from `rnd`, their chance from `rng`), up to
    new information, the end of their turn or `longest` of them: (the state, the move texts)."""
    moves = []
    while True:
        legal = game.rules.legal_moves(state, player)
        move = _bot_move(game, state, player, legal, bots.all_random_kind(game, rnd), rnd)
        state = _apply(game, state, player, move, rng, legal, game.rules.pending(state))
        moves.append(game.format_move(move))
        after = game.rules.pending(state)
        if after is None or after["player"] != player or after.get("fresh_info") or len(moves) >= longest:
            return state, moves


def _apply(game: Game, state: dict, player: str, move: dict, rng: Rng, legal: list[dict], decision: dict) -> dict:
    """A bot's decision applied as the engine applies a submitted one; a bot's illegal move is a bug."""
    try:
        return apply_decision(game, state, Asked(player, decision["decision"], legal), move, rng,
                              step=repr(game.format_move(move)))
    except PbemError as exc:
        raise AssertionError(f"{game.id}: the bot's move does not match legal_moves: {exc}") from None


def _forced_moves(game: Game, state: dict, referee: dict, game_id: str, number: int) -> tuple[dict, int]:
    """The forced moves the referee plays after move `number` (the engine's, pbem.play.turns): (state, last number)."""
    state, entries, _ = referee_turns(game, state, referee, MoveAt(referee["seed"], game_id, number + 1), [])
    return state, number + len(entries)
