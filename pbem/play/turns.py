"""A turn, and the moves the referee plays by itself: pure functions of a game and a position (no files).

The engine plays a submitted turn with them, the play-outs and the demo play their games with them, and verify
replays a log with them, so a position is reached the same way everywhere:

- `play_turn`: one player's consecutive decisions, all or nothing, each checked against `legal_moves`;
- `referee_turns`: the referee's automatic moves (a resigned seat's least disruptive move, a forced move), each a
  log entry of its own with its reason, and what the players' queues and standing orders play (pbem.play.queues);
  once every seat has resigned, at most ALL_RESIGNED_CAP of them, then the game's `end of game` entry;
- `to_act`: who must act in a position, None once the game is over by its rules or the referee ended it;
- `timeout_move`, `timeout_choice`: what the referee plays for a decision whose deadline passed.

A turn as a player sends it (move texts, with what is for later) is pbem.play.submission's.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import notation
from ..contract import PbemError
from ..messages import NP_, lazy
from ..notation import is_form
from ..rng import Rng
from . import queues, refusals
from .plans import decision_text, step_name

if TYPE_CHECKING:
    from ..store.registry import Game

RESIGN = "resign"  # the one move every game has: reserved, no game may use it as an action
REPLACE = "replace"  # the log entry of a seat handed to a new player (pbem replace): not a move of the game
END = "end of game"  # the log entry of a game the referee ended (every seat resigned): not a move of the game
# a takeback by consent (pbem.play.takebacks): a player's request, each other player's answer, the referee's outcome
TAKEBACK_REQUEST, TAKEBACK_AGREE, TAKEBACK_DECLINE = "takeback-request", "takeback-agree", "takeback-decline"
TAKEBACK_GRANTED, TAKEBACK_REFUSED = "takeback-granted", "takeback-refused"
TAKEBACK_WORDS = (TAKEBACK_REQUEST, TAKEBACK_AGREE, TAKEBACK_DECLINE, TAKEBACK_GRANTED, TAKEBACK_REFUSED)
ADMIN_WORDS = (RESIGN, REPLACE, END, *TAKEBACK_WORDS)  # reserved: no game's notation may read one of them as a move
# the reasons of the log entries the clock makes (pbem.clock.correspondence): verify recomputes these moves
TIMEOUT_REASONS = {"first-legal": NP_("reason", "timeout (first-legal)"), "bot": NP_("reason", "timeout (bot)")}
RESIGNED = NP_("reason", "resigned")
ONLY_MOVE = NP_("reason", "only legal move")
AUTOPILOT_LIMIT = 5000  # moves the referee plays in a row (resigned players, forced moves) before it gives up
# Moves the referee plays once every seat has resigned before it ends the game itself (the `end of game` entry).
# Far above the longest game resigned seats play out from its start (1,380 moves: Coal Baron, 4 players, phase
# cards; every other game, player count and option set under 400), so it ends only a game that would loop. Part of
# the replay: verify checks an ending against it, so it stays.
ALL_RESIGNED_CAP = 5000


def is_resign(text: str) -> bool:
    """Is this move text `resign` (however spaced or cased)?"""
    return " ".join(notation.tokens_of(text)) == RESIGN


class Asked:
    """A decision as it is asked: whose it is, its name (a refusal names it) and the moves legal for it. (Plain
    classes on a move's way, here and below: a dataclass or a NamedTuple costs every start its definition.)"""

    __slots__ = ("player", "decision", "legal")

    def __init__(self, player: str, decision: str, legal: list[dict]):
        self.player, self.decision, self.legal = player, decision, legal


def apply_decision(game: Game, state: dict, asked: Asked, move: dict, rng: Rng, *, step: str,
                   copy_state: bool = True) -> dict:
    """One decision checked against the moves legal for it and applied (`step`: the move's name in a refusal).
    `apply` may change the state it is given (pbem.contract), so it gets a copy unless `copy_state` is false (the
    caller hands the state over)."""
    if not notation.is_legal(move, asked.legal):
        raise refusals.illegal(game, step, asked.decision, asked.legal, text=game.format_move(move),
                               view=game.rules.view(state, asked.player), move=move)
    if copy_state:
        import copy  # here: a turn of one decision on a state read for it copies nothing
        state = copy.deepcopy(state)
    return game.rules.apply(state, asked.player, move, rng)


def play_turn(game: Game, state: dict, player: str, moves: list[dict], rng: Rng, *,
              handed_over: bool = False) -> dict:
    """Apply one player's consecutive decisions, all or nothing. A turn stops being acceptable the moment it passes
    to another player, or a decision shows the player new hidden information (`fresh_info`).

    The first decision's apply gets the state as it is when the caller hands it over (`handed_over`: a state just
    read from the files, a replay's previous position, needed no more), else a copy. A later decision's apply
    always gets a copy: the state may hold what an earlier decision recorded (a drawn card, a shuffled deck),
    which the log must keep as it was drawn."""
    for index, move in enumerate(moves, 1):
        step = step_name(index, len(moves), game.format_move(move), game.package)
        pending = game.rules.pending(state)
        if pending is None:
            raise PbemError(lazy("{step}: the game is already over (nothing was applied)", step=step))
        if pending["player"] != player:
            raise PbemError(lazy("{step}: the turn passed to {player} after step {index}; a turn stops there "
                                 "(nothing was applied)", step=step, player=pending["player"], index=index - 1))
        if index > 1 and pending.get("fresh_info"):
            raise PbemError(lazy("{step}: {player} has new information to look at first ({decision}); send the "
                                 "rest as a new turn (nothing was applied)", step=step, player=player,
                                 decision=decision_text(game, pending["decision"])))
        asked = Asked(player, pending["decision"], game.rules.legal_moves(state, player))
        state = apply_decision(game, state, asked, move, rng, step=step, copy_state=not (handed_over and index == 1))
    return state


def check_turn(game: Game, game_id: str, env: dict, move_number: int | None) -> None:
    """A turn must answer the position's move number (when it names one) of a game not over."""
    current = env["move_number"]
    if move_number is not None and move_number < current:
        # TRANSLATORS: a refused move; `pbem status` is a command, typed as it is.
        raise PbemError(lazy("stale move: it answers move {number}, but the game is at move {current} (move "
                             "{number} was already played). Read the position now (pbem status, or the last "
                             "mail) and send a move for move {current}.", number=move_number, current=current))
    if move_number is not None and move_number > current:
        raise PbemError(lazy("it answers move {number}, but the game is only at move {current}: answer the last "
                             "report's move number", number=move_number, current=current))
    if to_act(game, env) is None:
        raise PbemError(lazy("{game} is over; no more moves", game=game_id))


def changes_no_decision(entry: dict) -> bool:
    """Is this log entry one that takes a number but changes no one's decision: a seat handed to a new player
    (`pbem replace`), or a takeback asked, answered or refused (a granted one changes the position)?"""
    if entry["moves"] == [REPLACE] and entry["by"] == "referee":
        return True
    return len(entry["moves"]) == 1 and entry["moves"][0] in TAKEBACK_WORDS and entry["moves"][0] != TAKEBACK_GRANTED


def number_answered(entry: dict) -> int:
    """The move number a log entry's move answered: its own, or the one it named before seats were handed on."""
    return entry.get("answers", entry["number"])


def answered(move_number: int | None, current: int, since: list[dict]) -> int | None:
    """The move number a turn answers as the game counts now: the one it names, or the current one when the log's
    entries from that number on (`since`) are all seats handed on, which take a number but change no decision:
    a move sent for the decision before them answers the same decision."""
    if move_number is None or move_number >= current or len(since) != current - move_number:
        return move_number
    return current if all(changes_no_decision(entry) for entry in since) else move_number


def keep(records: dict, player: str, record: dict | None) -> None:
    """A player's queue record kept in the records, or taken off when nothing is left in it."""
    if queues.is_empty(record):
        records.pop(player, None)
    else:
        records[player] = record


def forced(pending: dict, legal: list[dict]) -> dict | None:
    """The move the referee plays for a decision that allows only it: exactly one legal move, concrete (a form,
    even a range of one value, is the player's to fill in), and the decision shows the player nothing new
    (`fresh_info`: the player must see it first, and play the move themselves)."""
    if pending.get("fresh_info") or len(legal) != 1 or any(is_form(value) for value in legal[0].values()):
        return None
    return legal[0]


class MoveAt:
    """Where a move is played: seed, game id, move number (its entry's and chance's), components (for a search)."""

    __slots__ = ("seed", "game_id", "number", "components")

    def __init__(self, seed: str, game_id: str, number: int, components=None):
        self.seed, self.game_id, self.number, self.components = seed, game_id, number, components

    def rng(self) -> Rng:
        return Rng(self.seed, self.game_id, self.number)


def referee_move(game: Game, state: dict, player: str, move: dict, at: MoveAt, reason: str | None = None
                 ) -> tuple[dict, dict]:
    """One decision the referee plays for `player` (a resigned seat, a timeout): (the new state, its log entry)."""
    rng = at.rng()
    state = play_turn(game, state, player, [move], rng)
    entry = {"number": at.number, "player": player, "by": "referee", "moves": [game.format_move(move)],
             "chance": rng.outcomes}
    if reason is not None:
        entry["reason"] = reason
    return state, entry


def timeout_move(game: Game, state: dict, player: str, policy: str, at: MoveAt, level: str | None = None
                 ) -> tuple[dict, dict]:
    """The move the referee plays for a decision that timed out (`timeout_choice`), played: (the new state, its log
    entry). A bot's entry names its level and the versions of the bots that chose it (pbem.play.botmoves), so
    that a later pbem, whose bots may choose otherwise, knows whether it can recompute it."""
    from . import botmoves
    move = timeout_choice(game, state, player, policy, at, level)
    state, entry = referee_move(game, state, player, move, at, TIMEOUT_REASONS[policy])
    return state, botmoves.signed(game, entry, level or botmoves.TIMEOUT_LEVEL) if policy == "bot" else entry


def timeout_choice(game: Game, state: dict, player: str, policy: str, at: MoveAt, level: str | None = None
                   ) -> dict:
    """What the referee plays for a player whose decision timed out: the first legal move (the least of each
    form), or a bot of `level` deciding from the player's view (pbem.play.botmoves: never from the clock), so that
    verify can recompute it. The bots are imported here: most moves play none."""
    from .. import bots
    from . import botmoves
    if policy == "first-legal":
        return game.normalise(bots.first_legal(game.rules.legal_moves(state, player)))
    return botmoves.choice(game, state, player, level or botmoves.TIMEOUT_LEVEL, at)


def is_end(entry: dict) -> bool:
    """Is this log entry the referee's ending of the game (`end of game`)?"""
    return entry["moves"] == [END] and entry["by"] == "referee"


def ending(env: dict) -> dict | None:
    """The `end of game` entry of a game the referee ended (always its log's last entry, so the last of the
    envelope's `recent`), else None."""
    recent = env.get("recent") or []
    return recent[-1] if recent and is_end(recent[-1]) else None


def to_act(game: Game, env: dict) -> dict | None:
    """The game's pending decision in the position of envelope `env` ({state, recent}), None once the game is over
    by its rules or the referee ended it."""
    return None if ending(env) else game.rules.pending(env["state"])


def end_entry(number: int, player: str) -> dict:
    """The entry that ends a game whose seats are all the referee's and which ALL_RESIGNED_CAP moves did not end:
    the game stops where it stands (its `result` ranks it) and its seed is revealed, as at any end."""
    return {"number": number, "player": player, "by": "referee", "moves": [END], "chance": [],
            "reason": f"every seat resigned and {ALL_RESIGNED_CAP} moves by the referee did not end the game: it ends "
                      f"here, ranked as it stands"}


def everyone_left(game: Game, env: dict, resigned: list[str]) -> bool:
    """Has every player resigned a game that first legal moves cannot finish (meta.yaml `playouts`: Heartland's
    money goal is reached only by hauling)? Its greedy bot then plays the game out, as for a timeout."""
    return set(env["players"]) <= set(resigned) and bool(game.meta.get("playouts", {}).get("greedy"))


class QueuedRun:
    """The log entry being written for one player's queue: the consecutive moves their queued steps (or one
    standing order) play, with the generator their chance draws from, up to a decision that shows new
    information."""

    __slots__ = ("entry", "rng")

    def __init__(self, entry: dict, rng: Rng):
        self.entry, self.rng = entry, rng

    def goes_on(self, player: str, reason: str, pending: dict) -> bool:
        return self.entry["player"] == player and self.entry["reason"] == reason and not pending.get("fresh_info")


class Course:
    """The referee's automatic moves as they are played: the game, the envelope they start from (its seed,
    players and `forced_moves`), the position (state, the next move number, who resigned, the players' queue
    records), the entries written so far and the queued entry being written (`run`)."""

    __slots__ = ("game", "game_id", "env", "state", "number", "resigned", "records", "entries", "run", "components")

    def __init__(self, game: Game, game_id: str, env: dict, state: dict, number: int, resigned: list[str],
                 records: dict):
        self.game, self.game_id, self.env, self.state = game, game_id, env, state
        self.number, self.resigned, self.records = number, resigned, records
        self.entries: list[dict] = []
        self.run: QueuedRun | None = None
        self.components = None  # the game's components (or their reader), for a bot seat that searches

    def at(self) -> MoveAt:
        return MoveAt(self.env["seed"], self.game_id, self.number, self.components)

    def sight(self, player: str) -> queues.Sight:
        return queues.Sight(lambda who, position=self.state: self.game.rules.view(position, who), player)

    def write(self, entry: dict) -> None:
        self.entries.append(entry)
        self.number += 1


def referee_turns(game: Game, state: dict, env: dict, at: MoveAt, resigned: list[str], records: dict | None = None
                  ) -> tuple[dict, list[dict], dict]:
    """The moves played from move `at.number` on until a player must choose: a resigned seat's, a bot seat's
    (the envelope's `bots`), a forced move, what queued steps or standing orders play (`records`, by player).
    Returns (state, entries, records). Every seat resigned: past ALL_RESIGNED_CAP moves the referee ends the game;
    with a player still in, past AUTOPILOT_LIMIT the submission is refused instead of looping for ever."""
    records = dict(env.get("queues") or {}) if records is None else dict(records)
    course = Course(game, at.game_id, env, state, at.number, resigned, records)
    course.components = at.components
    alone = set(env["players"]) <= set(resigned)
    played = 0
    while (pending := game.rules.pending(course.state)) is not None:
        _end_runs(course, pending["player"])
        if alone and played >= ALL_RESIGNED_CAP:
            course.write(end_entry(course.number, pending["player"]))
            break
        if played >= AUTOPILOT_LIMIT:
            raise PbemError(f"the referee played {AUTOPILOT_LIMIT} moves in a row without reaching the end of the "
                            f"game or a player who must choose: {game.title} does not end without its players; "
                            f"nothing was done")
        played += 1
        if not _play_automatic(course, pending):
            break
    _end_runs(course, pending["player"] if pending is not None else None)
    return course.state, course.entries, course.records


def _play_automatic(course: Course, pending: dict) -> bool:
    """The move the referee or a queue plays for the decision `pending`, played; False when none answers it (the
    player must choose)."""
    player = pending["player"]
    if player in course.resigned:
        _play_resigned(course, player)
        return True
    if player in (course.env.get("bots") or {}):
        _play_bot(course, player, course.env["bots"][player])
        return True
    legal = course.game.rules.legal_moves(course.state, player)
    only = _forced(course, pending, legal)
    move, reason = (_queued(course, pending, legal, only) if player in course.records else (only, ONLY_MOVE))
    if move is None:
        return False
    if reason == ONLY_MOVE:
        course.run = None
        course.state, entry = referee_move(course.game, course.state, player, move, course.at(), ONLY_MOVE)
        course.write(entry)
    else:
        _play_queued(course, Asked(player, pending["decision"], legal), move, reason, pending)
    return True


def _play_resigned(course: Course, player: str) -> None:
    """A resigned seat's move: the least disruptive one (pbem.bots.resigned_move, nothing random), or the greedy
    bot's when every seat has left a game first legal moves cannot finish (`everyone_left`)."""
    from .. import bots
    game, state = course.game, course.state
    course.run = None
    if everyone_left(game, course.env, course.resigned):
        move = timeout_choice(game, state, player, "bot", course.at())
    else:
        move = game.normalise(bots.resigned_move(game, game.rules.view(state, player),
                                                 game.rules.legal_moves(state, player)))
    course.state, entry = referee_move(game, state, player, move, course.at(), RESIGNED)
    course.write(entry)


def _play_bot(course: Course, player: str, level: str) -> None:
    """A bot seat's move: its bot's, at the seat's level (pbem.play.botmoves), logged as the bot's (`by: bot`); a
    forced move too, so that every move of the seat reads as its bot's."""
    from . import botmoves
    course.run = None
    move = botmoves.choice(course.game, course.state, player, level, course.at())
    course.state, entry = referee_move(course.game, course.state, player, move, course.at())
    course.write(botmoves.seat_entry(course.game, entry, level))


def _forced(course: Course, pending: dict, legal: list[dict]) -> dict | None:
    """The forced move of the decision, in a game created by a pbem that plays them (`forced_moves` in the state),
    else None."""
    if course.env.get("forced_moves") != "referee":
        return None
    only = forced(pending, legal)
    return None if only is None else course.game.normalise(only)


def _queued(course: Course, pending: dict, legal: list[dict], only: dict | None) -> tuple[dict | None, str]:
    """What the player's queue or standing orders answer (a forced move uses up the queued step meant for it):
    (the move or None, its reason). A queued move chosen blind where the decision shows new information leaves
    the player a notice."""
    game, player = course.game, pending["player"]
    move, reason, record = queues.answer(game, course.records[player], pending["decision"], legal,
                                         course.sight(player), course.env["players"], forced=only)
    reason = reason or ONLY_MOVE
    if move is not None and reason != ONLY_MOVE and pending.get("fresh_info"):
        record = dict(record, notices=queues.notices(record, queues.blind_notice(game.format_move(move))))
    keep(course.records, player, record)
    return move, reason


def _play_queued(course: Course, asked: Asked, move: dict, reason: str, pending: dict) -> None:
    """A move a queue played, added to the entry of the player's queued moves under way, or to a new one (another
    player, another reason, or a decision that shows new information starts one)."""
    if course.run is None or not course.run.goes_on(asked.player, reason, pending):
        rng = course.at().rng()
        course.run = QueuedRun({"number": course.number, "player": asked.player, "by": "player", "moves": [],
                                "chance": rng.outcomes, "reason": reason}, rng)
        course.write(course.run.entry)
    text = course.game.format_move(move)
    course.state = apply_decision(course.game, course.state, asked, move, course.run.rng, step=repr(text))
    course.run.entry["moves"].append(text)


def _end_runs(course: Course, player: str | None) -> None:
    """Every run of queued decisions of anyone but `player` (the one to decide now) is over, and every queued
    turn whose game turn is over is dropped (its player told), so that nothing is carried into a later turn."""
    records = course.records
    for other, record in list(records.items()):
        if other != player and (record.get("started") or record.get("later")):
            keep(records, other, queues.end_run(course.game, record))
    if any("turn" in record for record in records.values()):
        sight = course.sight(None)
        for other, record in list(records.items()):
            keep(records, other, queues.turn_over(course.game, record, sight))
