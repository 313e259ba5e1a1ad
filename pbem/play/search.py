"""The search bot: determinized rollouts from the seat's view, with the game's greedy bot as the rollout policy.

For one decision it (1) lists a few candidate moves (the greedy bot's first, then the other legal moves, a form
filled in a few ways); (2) imagines whole positions the seat's view could stand for, the game's `unseen` module
filling in what the view hides (other hands, deck order, hidden money), each from its own seeded generator;
(3) plays each candidate in the same imagined positions and lets every seat play on greedily, to the end or for
the rounds the game's meta.yaml says; (4) scores the position reached as the seat's margin over its best rival
(the final scores, else the game's scoring.estimate, else the score `result` gives); (5) keeps the better half of
the candidates round by round (successive halving, the greedy bot's move always kept), and plays another move
than the greedy bot's only when it won by more than SURE standard errors. docs/bots.md says why this design and
not a tree search.

The budget counts simulations (one candidate played out in one imagined position), never seconds: the same view,
generator and budget give the same move on any machine, so a game with search bots replays the same. The bot
reads the view and the game's components (public, the file a game was set up with), never the position.
"""
from __future__ import annotations

import math
import pickle
import random
import weakref

from ..memo import Bounded
from ..notation import is_form
from ..rng import Rng

VERSION = 1             # raised with any change that may make the search choose otherwise in every game (and then
                        # each game's own `search: {version}` with it): pbem.play.botmoves records it
DEFAULT_BUDGET = 16     # simulations a decision, for a game whose meta.yaml `search` names no budget
MAX_CANDIDATES = 6      # moves weighed at most: the greedy bot's and the first others (a form filled a few ways)
MAX_ROLLOUT = 5000      # decisions in one rollout at most (a bound on an automatic flow)
SURE = 2.0              # standard errors by which a move must beat the greedy bot's to be played instead


class Chance(Rng):
    """The rollouts' chance: the rules draw from it as from the engine's Rng, but nothing is recorded or hashed."""

    def __init__(self, rnd: random.Random):
        super().__init__("", "", 0)
        self.__dict__["_random"] = rnd  # the cached generator: Rng draws from it

    def _record(self, what: str, result, public: bool):
        return result


def copied(state: dict):
    """A private copy of a plain-data state (pickle: several times faster than copy.deepcopy on dicts and lists)."""
    return pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))


# ------------------------------------------------------------------------------------------------ candidates

def _values(value, greedy_value, rnd: random.Random) -> list:
    """The values a search tries for one field of a legal-move entry: the value itself, or a form filled in a
    few ways (a range's ends and middle, each word of a one-word choice, or a few draws of a larger one)."""
    if not is_form(value):
        return [value]
    if "from" not in value:
        low, high = value["min"], value["max"]
        return list(dict.fromkeys(v for v in (greedy_value, low, high, (low + high) // 2)
                                  if isinstance(v, int) and low <= v <= high))
    words, low, high = value["from"], value["min"], value["max"]
    if low == high == 1:
        return [[word] for word in dict.fromkeys(words)]
    tries = [greedy_value] if isinstance(greedy_value, list) else []
    tries += [list(words[:low])] + [rnd.sample(words, rnd.randint(low, high)) for _ in range(2)]
    return tries


def _filled(entry: dict, greedy: dict, rnd: random.Random) -> list[dict]:
    """The concrete moves tried for one legal-move entry."""
    moves = [{}]
    for key, value in entry.items():
        same = greedy.get(key) if greedy.get("action") == entry["action"] else None
        moves = [{**move, key: choice} for move in moves for choice in _values(value, same, rnd)]
    return moves


def candidates(game, legal: list[dict], greedy: dict, rnd: random.Random, limit: int) -> list[dict]:
    """The greedy bot's move first, then the other legal moves (canonical, each once), at most `limit`: when there
    are more, a seeded draw among them, so a run of the bot always weighs the same ones."""
    seen, others = {game.format_move(greedy)}, []
    for entry in legal:
        for move in _filled(entry, greedy, rnd):
            move = game.normalise(move)
            text = game.format_move(move)
            if text not in seen:
                seen.add(text)
                others.append(move)
    if len(others) >= limit:
        others = rnd.sample(others, limit - 1)
    return [greedy] + others


# ------------------------------------------------------------------------------------------------ rollouts

PARSED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # a game -> Bounded {repr of a move: its parse}
MOST_PARSED = 20_000  # moves kept at most a game (a game's rollouts make a few hundred distinct moves)


def canonical(game, move: dict) -> dict:
    """game.normalise(move) (its text parsed back), each move worked out once a process: a rollout's greedy seats
    make the same few moves thousands of times. A move is known by its repr, which names its fields in order and
    their values with their types (`1`, `True` and `"1"` differ, as their texts may), and costs less than its text.
    A copy each time: a move's lists are the caller's."""
    known = PARSED.get(game)
    if known is None:
        known = PARSED[game] = Bounded(MOST_PARSED)
    parsed, lists = known.get(repr(move), lambda: parsed_move(game, move))
    copy = parsed.copy()
    for key in lists:
        copy[key] = list(copy[key])
    return copy


def parsed_move(game, move: dict) -> tuple[dict, tuple[str, ...]]:
    """The move's text parsed back, and its fields whose values are lists (those a copy must copy: most moves have
    none, and a dict's own copy is cheaper than a comprehension over its fields)."""
    parsed = game.parse_move(game.format_move(move))
    return parsed, tuple(key for key, value in parsed.items() if isinstance(value, list))


def settings(game) -> dict:
    """The game's meta.yaml `search`: `budget` (simulations a decision for `search` alone), `rounds` (rounds of
    play before a rollout stops and the game's estimate scores it; absent: to the end of the game), `until` (a
    field of the state whose change also stops it: Coal Baron's `shift`, so a rollout ends with the shift's
    scoring), `decisions` (the decisions the search weighs; absent: all; the others are the greedy bot's) and
    `version` (the search's version for this game: `version`)."""
    return game.meta.get("search") or {}


def version(game) -> int:
    """The version of the search as it plays this game, which a bot move's log entry and the benchmark's results
    record: the game's own (meta.yaml `search: {version}`, raised when what only its search uses changes, so the
    other titles' bot moves and benchmark games still count), else VERSION."""
    return settings(game).get("version", VERSION)


def default_budget(game) -> int:
    return settings(game).get("budget", DEFAULT_BUDGET)


def searches(game, decision: str | None) -> bool:
    """Does the search weigh this decision (meta.yaml `search: {decisions: ...}`; the view's `to_act` names it),
    or leave it to the greedy bot?"""
    return decision is None or decision in settings(game).get("decisions", [decision])


def horizon(game, players: int) -> int | None:
    """How many times the turn passes from one player to another before a rollout stops and scores (None: never,
    it plays to the end)."""
    rounds = settings(game).get("rounds")
    return None if rounds is None else rounds * players


def margin(game, state: dict, seat: str) -> float:
    """The seat's final score less its best rival's; before the end, as the game's scoring.estimate has them
    (else the score `result` gives as if the game ended now)."""
    estimate = getattr(game.scoring, "estimate", None)
    if estimate is None or game.rules.pending(state) is None:
        scores = {row["player"]: row["score"] for row in game.rules.result(state)}
    else:
        scores = estimate(state)
    return scores[seat] - max(score for player, score in scores.items() if player != seat)


def play_greedily(game, state: dict, turns: int | None, rnd: random.Random, until: str | None = None) -> dict:
    """Every seat plays the greedy bot from its own view of the imagined position until the turn has passed
    `turns` times (None: no limit), the state's field `until` has changed (None: never) or the game is over."""
    chance, last, passed = Chance(rnd), None, 0
    mark = state.get(until) if until else None
    view = getattr(game.rules, "bot_view", game.rules.view)  # the fields the bot reads (a game's own rules.py: all)
    for _ in range(MAX_ROLLOUT):
        pending = game.rules.pending(state)
        if pending is None or until and state.get(until) != mark:
            break
        player = pending["player"]
        if player != last:
            passed += last is not None
            last = player
            if turns is not None and passed > turns:
                break
        legal = game.rules.legal_moves(state, player)
        move = legal[0] if len(legal) == 1 and not any(map(is_form, legal[0].values())) else \
            canonical(game, game.bot.choose(view(state, player), legal, rnd))
        state = game.rules.apply(state, player, move, chance)
    return state


def imagine(game, view: dict, components: dict, rnd: random.Random) -> dict | None:
    """A whole position `view` could stand for: the game's unseen.py deals what the view hides, pbem writes the
    fields every state begins with (a game that brings its own rules.py writes them itself). None where the game
    cannot rebuild the decision from the view."""
    part = game.unseen.sample_state(view, components, rnd)
    complete = getattr(game.rules, "imagined", None)
    return part if part is None or complete is None else complete(view, part)


class Simulations:
    """The imagined positions of one decision, made as they are first needed and shared by every candidate (each
    candidate is judged on the same positions: fewer simulations tell the moves apart)."""

    def __init__(self, game, view: dict, components, rnd: random.Random):
        self.game, self.view = game, view
        self.components = components if isinstance(components, dict) else components()
        self.seeds: list[int] = []
        self.worlds: list[dict | None] = []
        self.pickled: dict[int, bytes] = {}  # a position as `copied` pickles it, once for all the candidates
        self.rnd = rnd

    def world(self, index: int) -> dict | None:
        while len(self.worlds) <= index:
            seed = self.rnd.getrandbits(64)
            self.seeds.append(seed)
            self.worlds.append(imagine(self.game, self.view, self.components, random.Random(seed)))
        return self.worlds[index]

    def run(self, move: dict, index: int) -> float:
        """The candidate played in imagined position `index`, then greedy play: the seat's margin."""
        if index not in self.pickled:
            self.pickled[index] = pickle.dumps(self.world(index), pickle.HIGHEST_PROTOCOL)
        world = pickle.loads(self.pickled[index])  # a copy of its own, as `copied` makes it
        seat = self.game.rules.pending(world)["player"]
        rnd = random.Random(self.seeds[index] + 1)  # the same draws for every candidate in this position
        world = self.game.rules.apply(world, seat, move, Chance(rnd))
        world = play_greedily(self.game, world, horizon(self.game, len(world["players"])), rnd,
                              settings(self.game).get("until"))
        return margin(self.game, world, seat)


def halving(count: int, budget: int, run) -> int:
    """Successive halving: each round shares its part of the budget among the candidates still in, all judged on
    the same positions (0, 1, 2 ...), and keeps the better half, and always the first (the greedy bot's move,
    the baseline); the index of the move chosen (`clearly_better`)."""
    results: list[list[float]] = [[] for _ in range(count)]
    alive = list(range(count))
    rounds = max(1, math.ceil(math.log2(count)))
    for _ in range(rounds):
        each = max(1, budget // rounds // len(alive))
        for index in alive:
            for _ in range(each):
                results[index].append(run(index, len(results[index])))
        ranked = sorted(alive[1:], key=lambda index: -sum(results[index]) / len(results[index]))
        alive = [0] + ranked[:max(1, len(alive) // 2)]
    return clearly_better(results, alive)


def clearly_better(results: list[list[float]], alive: list[int]) -> int:
    """The best of the candidates left if it beats the greedy bot's move (index 0) by more than the noise: its
    mean gain over that move, position by position, above SURE standard errors; else the greedy bot's move."""
    best = max(alive, key=lambda index: sum(results[index]) / len(results[index]))
    gains = [mine - base for mine, base in zip(results[best], results[0])]
    if best == 0 or len(gains) < 2:
        return 0
    mean = sum(gains) / len(gains)
    spread = math.sqrt(sum((gain - mean) ** 2 for gain in gains) / (len(gains) - 1) / len(gains))
    return best if mean > SURE * spread else 0


def choose(game, view: dict, legal: list[dict], rnd: random.Random, budget: int, components, greedy: dict
           ) -> dict | None:
    """The move the search picks, in canonical form; None when the game cannot imagine a position from this view
    (its `unseen` module returns None): the caller then plays the greedy bot's move, `greedy`. `components`: the
    game's components, or a function that reads them (called only when there is something to weigh)."""
    if not searches(game, (view.get("to_act") or {}).get("decision")):
        return greedy
    moves = candidates(game, legal, greedy, rnd, min(MAX_CANDIDATES, budget))
    if len(moves) == 1:
        return moves[0]
    simulations = Simulations(game, view, components, rnd)
    if simulations.world(0) is None:
        return None
    best = halving(len(moves), budget, lambda index, world: simulations.run(moves[index], world))
    return moves[best]
