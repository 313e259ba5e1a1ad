"""A turn, and the moves the referee plays by itself: pure functions of a game and a position (no files).

The engine plays a submitted turn with them, the play-outs and the demo play their games with them, and verify
replays a log with them, so a position is reached the same way everywhere:

- `play_turn`: one player's consecutive decisions, all or nothing, each checked against `legal_moves`;
- `play_submission`: a turn as a player sends it (move texts), checked and played, with its log entry and the
  moves the referee plays after it;
- `referee_turns`: the referee's automatic moves (a resigned seat's least disruptive move, a forced move), each a
  log entry of its own with its reason, and what the players' queues and standing orders play (pbem.queues);
  once every seat has resigned, at most ALL_RESIGNED_CAP of them, then the game's `end of game` entry;
- `to_act`: who must act in a position, None once the game is over by its rules or the referee ended it;
- `timeout_move`, `timeout_choice`: what the referee plays for a decision whose deadline passed.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import bots, digests, notation
from ..contract import PbemError
from ..notation import is_form
from ..rng import Rng
from . import queues
from .queues import step_name

if TYPE_CHECKING:
    from ..store.registry import Game

RESIGN = "resign"  # the one move every game has: reserved, no game may use it as an action
REPLACE = "replace"  # the log entry of a seat handed to a new player (pbem replace): not a move of the game
END = "end of game"  # the log entry of a game the referee ended (every seat resigned): not a move of the game
ADMIN_WORDS = (RESIGN, REPLACE, END)  # reserved: no game's notation may read one of them as a move
# the reasons of the log entries the clock makes (pbem.correspondence): verify recomputes these moves
TIMEOUT_REASONS = {"first-legal": "timeout (first-legal)", "bot": "timeout (bot)"}
RESIGNED = "resigned"
ONLY_MOVE = "only legal move"
AUTOPILOT_LIMIT = 5000  # moves the referee plays in a row (resigned players, forced moves) before it gives up
# Moves the referee plays once every seat has resigned before it ends the game itself (the `end of game` entry).
# Far above the longest game resigned seats play out from its start (1,380 moves: Coal Baron, 4 players, phase
# cards; every other game, player count and option set under 400), so it ends only a game that would loop. Part of
# the replay: verify checks an ending against it, so it stays.
ALL_RESIGNED_CAP = 5000
MAX_LEGAL_SHOWN = 40


def is_resign(text: str) -> bool:
    """Is this move text `resign` (however spaced or cased)?"""
    return " ".join(notation.tokens_of(text)) == RESIGN


def illegal(game: Game, step: str, decision: str, legal_moves: list[dict]) -> PbemError:
    shown = [game.format_move(m) for m in legal_moves[:MAX_LEGAL_SHOWN]]
    more = f" ... and {len(legal_moves) - MAX_LEGAL_SHOWN} more" if len(legal_moves) > MAX_LEGAL_SHOWN else ""
    error = PbemError(f"{step} is not legal now ({decision}). Legal: {', '.join(shown)}{more}")
    error.legal = [game.format_move(m) for m in legal_moves]  # as data, for transports that list them their way
    return error


def apply_decision(game: Game, state: dict, player: str, move: dict, rng: Rng, legal_moves: list[dict],
                   *, step: str, decision: str, copy_state: bool = True) -> dict:
    """One decision checked against `legal_moves` (the player's, now) and applied. `apply` may change the state it
    is given (pbem.contract), so it gets a copy unless `copy_state` is false (the caller hands the state over)."""
    if not notation.is_legal(move, legal_moves):
        raise illegal(game, step, decision, legal_moves)
    if copy_state:
        import copy  # here: a turn of one decision on a state read for it copies nothing
        state = copy.deepcopy(state)
    return game.rules.apply(state, player, move, rng)


def play_turn(game: Game, state: dict, player: str, moves: list[dict], rng: Rng, *,
              handed_over: bool = False) -> dict:
    """Apply one player's consecutive decisions, all or nothing. A turn stops being acceptable the moment it passes
    to another player, or a decision shows the player new hidden information (`fresh_info`).

    The first decision's apply gets the state as it is when the caller hands it over (`handed_over`: a state just
    read from the files, a replay's previous position, needed no more), else a copy. A later decision's apply
    always gets a copy: the state may hold what an earlier decision recorded (a drawn card, a shuffled deck),
    which the log must keep as it was drawn."""
    for index, move in enumerate(moves, 1):
        step = step_name(index, len(moves), game.format_move(move))
        pending = game.rules.pending(state)
        if pending is None:
            raise PbemError(f"{step}: the game is already over (nothing was applied)")
        if pending["player"] != player:
            raise PbemError(f"{step}: the turn passed to {pending['player']} after step {index - 1}; a turn stops "
                            f"there (nothing was applied)")
        if index > 1 and pending.get("fresh_info"):
            raise PbemError(f"{step}: {player} has new information to look at first ({pending['decision']}); "
                            f"send the rest as a new turn (nothing was applied)")
        state = apply_decision(game, state, player, move, rng, game.rules.legal_moves(state, player), step=step,
                               decision=pending["decision"], copy_state=not (handed_over and index == 1))
    return state


def check_turn(game: Game, game_id: str, env: dict, move_number: int | None) -> None:
    """A turn must answer the position's move number (when it names one) of a game not over."""
    current = env["move_number"]
    if move_number is not None and move_number < current:
        raise PbemError(f"stale move: it answers move {move_number}, but the game is at move {current} (move "
                        f"{move_number} was already played)")
    if move_number is not None and move_number > current:
        raise PbemError(f"it answers move {move_number}, but the game is only at move {current}: answer the last "
                        f"report's move number")
    if to_act(game, env) is None:
        raise PbemError(f"{game_id} is over; no more moves")


def play_submission(game: Game, game_id: str, env: dict, player: str, texts: list[str], by: str,
                    signature: str | None, handed_over: bool, may_queue: bool = True
                    ) -> tuple[dict, list[dict], dict]:
    """A submission as sent (checked against the position `env`, whose move number it answers) played: the new
    state, the log entries (the player's turn, then what the referee and the queues play after it) and the
    players' queue records. The steps of this turn are played as far as the player's decisions go without new
    information (all or nothing); what is left of them and the later turns become the player's queue (with
    `may_queue` false, a transport that would publish it refuses them instead). `handed_over`: env's state is the
    turn's to change."""
    state = env["state"]
    for index, text in enumerate(texts, 1):
        if is_resign(text):
            raise PbemError(f"{step_name(index, len(texts), text)}: `{RESIGN}` is a turn of its own; send it alone "
                            f"(nothing was applied)")
    plan = queues.parse_plan(game, texts, player, env["players"], also=(RESIGN,))
    if not plan.now:
        raise PbemError("no step for this turn (it is all for later): to set a queue alone, use `pbem queue` (by "
                        "mail, the `queue` command)")
    pending = game.rules.pending(state)
    if pending["player"] != player:
        raise PbemError(f"it is {pending['player']}'s turn ({pending['decision']}), not {player}'s")
    current = env["move_number"]
    rng = Rng(env["seed"], game_id, current)
    state, moves, leftover = _play_steps(game, state, player, plan.now, rng, handed_over, len(texts))
    if leftover and not may_queue:
        pending = game.rules.pending(state)
        why = "the game is over" if pending is None else f"the turn passed to {pending['player']}" \
            if pending["player"] != player else f"{player} has new information to look at first"
        raise PbemError(f"{step_name(len(moves) + 1, len(texts), leftover[0].text)}: {why}; steps for later are "
                        f"sent as a queue (nothing was applied)")
    records = dict(env.get("queues") or {})
    pending = game.rules.pending(state)
    sight = queues.Sight(lambda who: game.rules.view(state, who), player)
    record = queues.with_plan(game, records.get(player), plan, leftover,
                              pending is not None and pending["player"] == player, sight)
    _keep(records, player, record)
    entries = []
    if moves:
        entry = {"number": current, "player": player, "by": by, "moves": [game.format_move(m) for m in moves],
                 "chance": rng.outcomes}
        if signature:
            entry["signature"] = signature
            if len(moves) < len(texts):  # the signed submission held more than this entry shows: its queue
                entry["sealed"] = True
        entries.append(entry)
    state, auto, records = referee_turns(game, state, env, game_id, current + len(entries), env["resigned"], records)
    return state, [*entries, *auto], records


def queue_submission(game: Game, game_id: str, env: dict, player: str, texts: list[str]
                     ) -> tuple[dict, list[dict], dict]:
    """A queue sent without a move (every step of it for later, the first ones for the player's next turn)
    replaces the player's queue, and the queues are asked at once: (state, entries, records), as
    `play_submission`."""
    plan = queues.parse_plan(game, texts, player, env["players"])
    records = dict(env.get("queues") or {})
    state = env["state"]
    sight = queues.Sight(lambda who: game.rules.view(state, who), player)
    _keep(records, player, queues.with_plan(game, records.get(player), plan, plan.now, False, sight))
    return referee_turns(game, state, env, game_id, env["move_number"], env["resigned"], records)


def _play_steps(game: Game, state: dict, player: str, steps: list, rng: Rng, handed_over: bool, count: int
                ) -> tuple[dict, list[dict], list]:
    """This turn's steps played while the decisions are the player's and show nothing new (a step not legal
    refuses the whole submission): (the state, the moves played, the steps left for the queue)."""
    moves = []
    for index, step in enumerate(steps, 1):
        pending = game.rules.pending(state)
        if pending is None or pending["player"] != player or (index > 1 and pending.get("fresh_info")):
            return state, moves, steps[index - 1:]
        legal = game.rules.legal_moves(state, player)
        sight = queues.Sight(lambda who, position=state: game.rules.view(position, who), player)
        move = queues.choose(game, step, legal, sight)
        name = step_name(index, count, step.text)
        if move is None:
            raise illegal(game, name, pending["decision"], legal)
        state = apply_decision(game, state, player, move, rng, legal, step=name, decision=pending["decision"],
                               copy_state=not (handed_over and index == 1))
        moves.append(move)
    return state, moves, []


def _keep(records: dict, player: str, record: dict | None) -> None:
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


def referee_move(game: Game, state: dict, player: str, move: dict, seed: str, game_id: str, number: int,
                 reason: str | None = None) -> tuple[dict, dict]:
    """One decision the referee plays for `player` (a resigned seat, a timeout): (the new state, its log entry)."""
    rng = Rng(seed, game_id, number)
    state = play_turn(game, state, player, [move], rng)
    entry = {"number": number, "player": player, "by": "referee", "moves": [game.format_move(move)],
             "chance": rng.outcomes}
    if reason is not None:
        entry["reason"] = reason
    return state, entry


def timeout_move(game: Game, state: dict, player: str, policy: str, seed: str, game_id: str, number: int
                 ) -> tuple[dict, dict]:
    """The move the referee plays for a decision that timed out (`timeout_choice`), played: (the new state, its log
    entry). A bot's entry names the version of the bot that chose it (meta.yaml `bot_version`), so that a later
    pbem, whose bot may choose otherwise, knows whether it can recompute it."""
    move = timeout_choice(game, state, player, policy, seed, game_id, number)
    state, entry = referee_move(game, state, player, move, seed, game_id, number, TIMEOUT_REASONS[policy])
    if policy == "bot":
        entry["bot_version"] = game.bot_version
    return state, entry


def timeout_choice(game: Game, state: dict, player: str, policy: str, seed: str, game_id: str,
                   number: int) -> dict:
    """What the referee plays for a player whose decision timed out: the first legal move (the least of each
    form), or the game's greedy bot deciding from the player's view with a generator seeded from the game's seed
    and the move number (never the clock), so that verify can recompute it."""
    legal_moves = game.rules.legal_moves(state, player)
    if policy == "first-legal":
        return game.normalise(bots.first_legal(legal_moves))
    import random
    digest = digests.sha256(f"pbem-timeout-bot\x00{seed}\x00{game_id}\x00{number}".encode()).digest()
    return bots.decide(game, "greedy", game.rules.view(state, player), legal_moves,
                       random.Random(int.from_bytes(digest, "big")))


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


def referee_turns(game: Game, state: dict, env: dict, game_id: str, number: int, resigned: list[str],
                  records: dict | None = None) -> tuple[dict, list[dict], dict]:
    """The moves played from move `number` on (after a turn, at `new`, after a timeout) until a player must
    choose: the turns of players who resigned (pbem.bots.resigned_move: the least disruptive move, nothing
    random), in a game created by a pbem that plays them (`forced_moves` in the state) every decision with one
    legal move that shows nothing new to its player, each an entry of its own with its reason, and what the
    players' queues and standing orders (`records`, by player, from the state envelope's `queues`) play: an entry
    by the player, with the reason `queued` or `standing order`, consecutive queued moves of one player in one
    entry up to a decision that shows new information. Returns (state, entries, records). Once every seat has resigned, all the moves left are
    played here: past ALL_RESIGNED_CAP of them the referee ends the game (`end_entry`, the last entry). With a
    player still in, past AUTOPILOT_LIMIT moves the submission is refused instead of looping for ever."""
    entries, played = [], 0  # played: the moves played so far
    records = dict(env.get("queues") or {}) if records is None else dict(records)
    play_forced = env.get("forced_moves") == "referee"
    alone = set(env["players"]) <= set(resigned)
    played_out = everyone_left(game, env, resigned)
    run = None  # the queued entry being written: (entry, its rng), while the same player's queue goes on
    while (pending := game.rules.pending(state)) is not None:
        player = pending["player"]
        _end_runs(records, player)
        if alone and played >= ALL_RESIGNED_CAP:
            entries.append(end_entry(number, player))
            break
        if played >= AUTOPILOT_LIMIT:
            raise PbemError(f"the referee played {AUTOPILOT_LIMIT} moves in a row without reaching the end of the "
                            f"game or a player who must choose: {game.title} does not end without its players; "
                            f"nothing was done")
        played += 1
        if player in resigned:
            run = None
            move = game.normalise(bots.resigned_move(game, game.rules.view(state, player),
                                                     game.rules.legal_moves(state, player)))
            if played_out:
                move = timeout_choice(game, state, player, "bot", env["seed"], game_id, number)
            state, entry = referee_move(game, state, player, move, env["seed"], game_id, number, RESIGNED)
            entries.append(entry)
            number += 1
            continue
        legal = game.rules.legal_moves(state, player)
        only = forced(pending, legal) if play_forced else None
        only = None if only is None else game.normalise(only)
        move, reason = only, ONLY_MOVE
        if player in records:
            sight = queues.Sight(lambda who, position=state: game.rules.view(position, who), player)
            move, reason, record = queues.answer(game, records[player], pending["decision"], legal, sight,
                                                 env["players"], forced=only)
            reason = reason or ONLY_MOVE
            if move is not None and reason != ONLY_MOVE and pending.get("fresh_info"):
                record = dict(record, notices=queues.notices(record, queues.blind_notice(game.format_move(move))))
            _keep(records, player, record)
        if move is None:
            break
        if reason == ONLY_MOVE:
            run = None
            state, entry = referee_move(game, state, player, move, env["seed"], game_id, number, reason)
            entries.append(entry)
            number += 1
            continue
        if run is None or run[0]["player"] != player or run[0]["reason"] != reason or pending.get("fresh_info"):
            rng = Rng(env["seed"], game_id, number)
            run = ({"number": number, "player": player, "by": "player", "moves": [], "chance": rng.outcomes,
                    "reason": reason}, rng)
            entries.append(run[0])
            number += 1
        state = apply_decision(game, state, player, move, run[1], legal, step=repr(game.format_move(move)),
                               decision=pending["decision"])
        run[0]["moves"].append(game.format_move(move))
    _end_runs(records, None)
    return state, entries, records


def _end_runs(records: dict, player: str | None) -> None:
    """Every queued turn under way of anyone but `player` (the one to decide now) is over."""
    for other, record in list(records.items()):
        if other != player and record.get("started"):
            _keep(records, other, queues.end_run(record))
