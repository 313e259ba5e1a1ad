"""A turn as a player sends it (move texts: this turn's steps, then what is for later), checked and played, with
its log entry and the moves the referee and the queues play after it (pbem.play.turns); and a queue sent without a
move.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..contract import PbemError
from ..messages import Words, lazy
from ..rng import Rng
from . import guards, plans, queues, refusals
from .plans import decision_text, step_name
from .turns import RESIGN, Asked, MoveAt, apply_decision, is_resign, keep, referee_turns

if TYPE_CHECKING:
    from ..store.registry import Game


class Turn:
    """A turn as its player sent it: the move texts (this turn's steps, then what is for later), who entered it
    (`by`: the player, or the referee for them) with the player's signature; `may_queue`: steps beyond the turn
    become the player's queue (false: a transport that would publish them in the clear refuses them instead)."""

    __slots__ = ("player", "texts", "by", "signature", "may_queue", "answers")

    def __init__(self, player: str, texts: list[str], by: str = "player", signature: str | None = None,
                 may_queue: bool = True):
        self.player, self.texts, self.by, self.signature, self.may_queue = player, texts, by, signature, may_queue
        self.answers = None  # the move number it named, when seats were handed on since (pbem.play.turns.answered)


def play_submission(game: Game, game_id: str, env: dict, turn: Turn, handed_over: bool, components=None
                    ) -> tuple[dict, list[dict], dict]:
    """A submission as sent (checked against the position `env`, whose move number it answers) played: the new
    state, the log entries (the player's turn, then what the referee and the queues play after it) and the
    players' queue records. The steps of this turn are played as far as the player's decisions go without new
    information (all or nothing); what is left of them and the later turns become the player's queue.
    `handed_over`: env's state is the turn's to change; `components`: as for referee_turns (a bot seat may
    search)."""
    plan = _plan_of(game, env, turn)
    current = env["move_number"]
    rng = Rng(env["seed"], game_id, current)
    state, moves, leftover, written = _play_steps(game, env["state"], turn.player, plan, rng, handed_over,
                                                  len(turn.texts))
    if leftover and not turn.may_queue:
        raise _not_queued(game, state, turn, len(moves) + 1, leftover[0].text)
    records = dict(env.get("queues") or {})
    pending = game.rules.pending(state)
    sight = queues.Sight(lambda who: game.rules.view(state, who), turn.player)
    record = queues.with_plan(game, records.get(turn.player), plan, leftover,
                              pending is not None and pending["player"] == turn.player, sight, written)
    keep(records, turn.player, record)
    entries = [_turn_entry(game, turn, current, moves, rng)] if moves else []
    at = MoveAt(env["seed"], game_id, current + len(entries), components)
    state, auto, records = referee_turns(game, state, env, at, env["resigned"], records)
    return state, [*entries, *auto], records


def _plan_of(game: Game, env: dict, turn: Turn) -> plans.Plan:
    """The submission read as this turn's steps and the queue, refused unless it holds a step for now of the
    player whose decision it is (`resign` is a turn of its own)."""
    for index, text in enumerate(turn.texts, 1):
        if is_resign(text):
            raise PbemError(lazy("{step}: `{resign}` is a turn of its own; send it alone (nothing was applied)",
                                 step=step_name(index, len(turn.texts), text, game.package),
                                 resign=Words("pbem", RESIGN)))
    pending = game.rules.pending(env["state"])
    try:
        plan = plans.parse_plan(game, turn.texts, turn.player, env["players"], also=(RESIGN,))
    except PbemError as exc:  # words that are no move, as the first step of the player's own turn: the nearest
        if getattr(exc, "unknown", None) and exc.step == 1 and pending["player"] == turn.player:
            refusal = refusals.unknown(game, exc.unknown, game.rules.legal_moves(env["state"], turn.player))
            if len(turn.texts) > 1:  # (a turn of several steps: the refusal names which)
                refusal = PbemError(lazy("{step}: {error}", step=step_name(1, len(turn.texts), exc.unknown,
                                                                           game.package), error=refusal.message))
            raise refusal from None
        raise
    if not plan.now:
        raise PbemError(lazy("no step for this turn (it is all for later): to set a queue alone, use `pbem queue` "
                             "(by mail, the `queue` command)"))
    if pending["player"] != turn.player:
        raise PbemError(lazy("it is {player}'s turn ({decision}), not {sender}'s", player=pending["player"],
                             decision=decision_text(game, pending["decision"]), sender=turn.player))
    return plan


def _not_queued(game: Game, state: dict, turn: Turn, index: int, text: str) -> PbemError:
    """The refusal of steps beyond the turn from a transport that may not queue them: why the turn ended there."""
    pending = game.rules.pending(state)
    step = step_name(index, len(turn.texts), text, game.package)
    if pending is None:
        return PbemError(lazy("{step}: the game is over; steps for later are sent as a queue (nothing was applied)",
                              step=step))
    if pending["player"] != turn.player:
        return PbemError(lazy("{step}: the turn passed to {player}; steps for later are sent as a queue (nothing "
                              "was applied)", step=step, player=pending["player"]))
    return PbemError(lazy("{step}: {player} has new information to look at first; steps for later are sent as a "
                          "queue (nothing was applied)", step=step, player=turn.player))


def _turn_entry(game: Game, turn: Turn, number: int, moves: list[dict], rng: Rng) -> dict:
    """The log entry of the moves a turn played (`sealed`: the signed submission held more, its queue)."""
    entry = {"number": number, "player": turn.player, "by": turn.by, "moves": [game.format_move(m) for m in moves],
             "chance": rng.outcomes}
    if turn.answers is not None:
        entry["answers"] = turn.answers  # seats were handed on since the number it names (its signature's)
    if turn.signature:
        entry["signature"] = turn.signature
        if len(moves) < len(turn.texts):
            entry["sealed"] = True
    return entry


def queue_submission(game: Game, game_id: str, env: dict, player: str, texts: list[str], components=None
                     ) -> tuple[dict, list[dict], dict]:
    """A queue sent without a move (every step of it for later, the first ones for the player's next turn)
    replaces the player's queue, and the queues are asked at once: (state, entries, records), as
    `play_submission`."""
    plan = plans.parse_plan(game, texts, player, env["players"])
    records = dict(env.get("queues") or {})
    state = env["state"]
    sight = queues.Sight(lambda who: game.rules.view(state, who), player)
    keep(records, player, queues.with_plan(game, records.get(player), plan, plan.now, False, sight))
    return referee_turns(game, state, env, MoveAt(env["seed"], game_id, env["move_number"], components),
                         env["resigned"], records)


def _play_steps(game: Game, state: dict, player: str, plan: plans.Plan, rng: Rng, handed_over: bool, count: int
                ) -> tuple[dict, list[dict], list, object]:
    """This turn's steps (`plan.now`) played while the decisions are the player's and show nothing new (a step
    not legal refuses the whole submission): (the state, the moves played, the steps left for the queue, the
    game's turn they were written in). That turn (pbem.play.guards) is the last one the moves were played in, or
    the one the player's decision that stopped them opens (new information: the rest goes on in it at once); it
    is read only when the plan queues anything, each position before its move changes it."""
    steps = plan.now
    moves, written = [], None
    several = (len(steps) > 1 or bool(plan.later())) and guards.declares_turn(game)
    for index, step in enumerate(steps, 1):
        pending = game.rules.pending(state)
        sight = queues.Sight(lambda who, position=state: game.rules.view(position, who), player)
        if several and pending is not None and pending["player"] == player:
            written = _newer(written, guards.turn_now(game, sight))
        if pending is None or pending["player"] != player or (index > 1 and pending.get("fresh_info")):
            return state, moves, steps[index - 1:], written
        legal = game.rules.legal_moves(state, player)
        move = queues.choose(game, step, legal, sight)
        name = step_name(index, count, step.text, game.package)
        if move is None:
            first = step.alternatives[0]
            raise refusals.illegal(game, name, pending["decision"], legal, text=step.text,
                                   view=game.rules.view(state, player) if first.choice is None else None,
                                   move=first.move if first.choice is None else None)
        state = apply_decision(game, state, Asked(player, pending["decision"], legal), move, rng, step=name,
                               copy_state=not (handed_over and index == 1))
        moves.append(move)
    return state, moves, [], written


def _newer(written, now):
    """The game's turn under way: the one a decision opens, or the one before at a decision that opens none."""
    return written if now is None else now
