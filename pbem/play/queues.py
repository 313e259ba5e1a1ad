"""Queued moves, ranked choices and standing orders: what a player says now that they will do later.

A player's submission is a list of items (one a line, or `;` between them):

    place mining-6                      a step: a move of the game's notation ...
    take o25 else take o17 else take best   ... or ranked alternatives, the first legal one is played
    bid up to 6 if c14 offered          an alternative may hold conditions (`if`, `and`, `not`)
    next                                what follows is for the player's next turn
    standing auction: bid up to 6 else pass   a standing order: answers its decision until withdrawn
    standing auction: cancel            withdraws it (`standing cancel`: every standing order)
    cancel                              drops the queue (the standing orders stay)

The steps before the first `next` are this turn: the engine plays them now, as far as the player's decisions go
on without new information; what is left of them, and every later turn, is the player's queue. Each queued step
is played when its decision comes: the first step of the next queued turn waits for a decision it fits (one of
its moves is a move of that decision, as the game declares), and the steps after it follow in order while the
decisions stay the player's; a step that fits but has no alternative legal then stops the queue (all of it is
dropped) and the player is asked, with a notice saying why. Standing orders answer every decision of their kind
while their conditions hold, until withdrawn or disarmed: each game declares the events that disarm one (a new
offer, a new shift), and a disarmed order never plays.

What a game declares (meta.yaml `queues:`, all data): the moves each decision takes (`decisions`), the forms that
stand for a move chosen when the decision comes (`choices`: "bid up to 6", "take best"), the conditions (each
with what it reads: `public`, the table everyone sees, or `private`, the player's own view — a condition that
names another player's private things is refused), the standing orders (a word, the decision, the events that
disarm it) and those events. The functions with those names are in the game's `conditions` module; they get a
view, never the state, so a queue can read nothing its player may not see.

This module and pbem.play.plans are pure: the notation read and written (plans), and what a queue does for one
decision (here). The engine keeps each
player's queue record with the referee's state, shows it in that player's view only, and consults it where it
plays forced moves.
"""
from __future__ import annotations

from .. import notation
from ..text import queuenotes
from . import guards
from .guards import notices
from .names import spelled
from ..messages import NP_
from .plans import Alternative, Plan, Step, parse_step, standing_text, vocabulary

QUEUED = NP_("reason", "queued")                  # the reason of a log entry played from a queue
STANDING_ORDER = NP_("reason", "standing order")  # the reason of one played by a standing order
REASONS = (QUEUED, STANDING_ORDER)


# ---------------------------------------------------------------------------------------------------- choosing

class Sight:
    """The views a queue may read when a decision comes, made when first asked: `public` (what everyone sees)
    and `private` (the player's own view). `look(player)` is the game's view function (None: the public)."""

    def __init__(self, look, player: str):
        self._look, self.player, self._seen = look, player, {}

    def view(self, reads: str) -> dict:
        if reads not in self._seen:
            self._seen[reads] = self._look(None if reads == "public" else self.player)
        return self._seen[reads]


def holds(game, alt: Alternative, sight: Sight) -> bool:
    """Do the alternative's conditions hold, each read from the view its declaration names (the game's conditions
    module is imported only when a condition is asked)?"""
    for key, fields, negated in alt.conditions:
        spec = vocabulary(game).conditions[key]
        value = bool(getattr(game.conditions, key)(sight.view(spec.get("reads", "public")), **fields))
        if value == negated:
            return False
    return True


def choose(game, step: Step, legal: list[dict], sight: Sight) -> dict | None:
    """The move a step plays now: its first alternative whose conditions hold and that is legal (a choice form
    chooses among the legal moves from the view), in canonical form; None when there is none."""
    for alt in step.alternatives:
        if not holds(game, alt, sight):
            continue
        if alt.choice is None:
            move = spelled(game, alt.move, sight)
        else:
            spec = vocabulary(game).choices[alt.choice]
            move = getattr(game.conditions, alt.choice)(sight.view(spec.get("reads", "public")), legal, **alt.move)
            if move is None:
                continue
            move = game.normalise(move)
        if notation.is_legal(move, legal):
            return move
    return None


# ---------------------------------------------------------------------------------------------------- the record

def empty_record() -> dict:
    return {"turns": [], "started": False, "standing": [], "notices": []}


def is_empty(record: dict | None) -> bool:
    return not record or not (record["turns"] or record["standing"] or record["notices"])


def marks(game, word: str, sight: Sight) -> dict:
    """What the order's disarming events read now (a shift number, a turn number): it is disarmed when one of
    them reads differently."""
    vocab = vocabulary(game)
    return {event: getattr(game.conditions, event)(sight.view(vocab.disarm[event].get("reads", "public")))
            for event in vocab.standing[word].get("disarm", [])}


def with_plan(game, record: dict | None, plan: Plan, leftover: list[Step], started: bool, sight: Sight,
              written=guards.UNBEGUN) -> dict:
    """The record after a submission: its queue (what is left of this turn, then its later turns) replaces the
    old one when it holds any; its standing orders are set or withdrawn (armed now); notices are cleared (the
    player has answered). What is left of this turn belongs to the game's turn it was `written` for (pbem.play.
    guards; UNBEGUN: a queue sent without a move, whose first steps are for the player's next turn): it goes on
    at once when it is `started` (new information stopped the turn: the rest is chosen blind); when the decision
    passed to another player, its steps wait for their decisions in that same turn ("bid 1; take best": the card
    choice comes after the others' bids), and are dropped, their player told, once the turn is over. Each move
    queued is read for what it means now (guards.meanings)."""
    record = dict(record or empty_record())
    record["notices"] = []
    now = [s.text for s in leftover]
    turns = [[s.text for s in turn] for turn in plan.later()]
    if now and not started and written is not guards.UNBEGUN and not guards.declares_turn(game):
        record["notices"] = notices(record, guards.ended(now))
        now = []  # the game's turn is its player's run of decisions, and it is over
    if now or turns or plan.cancel:
        record["turns"], record["started"] = ([now] if now else []) + turns, started and bool(now)
        for key in ("turn", "after", "later"):
            record.pop(key, None)
        if written is not guards.UNBEGUN and guards.declares_turn(game):
            record["turn" if now else "after"] = written  # the later turns come after it
        elif written is not guards.UNBEGUN and started and not now:
            record["later"] = True  # the player's run goes on: their next turn is a later run
        record["said"] = guards.meanings(game, [*(leftover if now else []), *(s for t in plan.later() for s in t)],
                                         sight)
        record = guards.tidy(record)
    standing = [] if plan.withdraw_all else list(record["standing"])
    for word, step in plan.standing.items():
        standing = [order for order in standing if order["word"] != word]
        if step is not None:
            standing.append({"word": word, "order": step.text, "marks": marks(game, word, sight)})
    record["standing"] = sorted(standing, key=lambda order: list(vocabulary(game).standing).index(order["word"]))
    return record


def end_run(game, record: dict) -> dict:
    """The player's run of decisions is over (someone else decides): a queued turn under way waits for its next
    decision in the same game turn; in a game that declares no turn, it is over, what is left of it unused, and
    the next one may begin at the player's next decision."""
    if not record.get("started"):
        return {key: value for key, value in record.items() if key != "later"}
    if guards.declares_turn(game) and "turn" in record:
        return dict(record, started=False)
    return guards.dropped(record)


def turn_over(game, record: dict, sight: Sight) -> dict:
    """The record without its first queued turn when the game is past the turn it was marked with."""
    if "turn" not in record:
        return record
    return guards.dropped(record) if guards.is_over(record, guards.turn_now(game, sight)) else record


def blind_notice(move: str) -> str:
    return queuenotes.written(queuenotes.BLIND, move=move)


def answer(game, record: dict, decision: str, legal: list[dict], sight: Sight, players: list[str],
           forced: dict | None = None) -> tuple[dict | None, str | None, dict]:
    """What the player's queue does for this decision of theirs: (the move to play or None, the log reason, the
    new record). `forced`: the decision allows only that move, which the referee plays anyway; a queued step meant
    for it is used up by it. With None the player is asked (the record may say why: a stopped queue, a disarmed
    order)."""
    vocab = vocabulary(game)
    record = turn_over(game, dict(record), sight)
    if record["turns"]:
        step = parse_step(game, vocab, record["turns"][0][0].split(), sight.player, players)
        fits = vocab.fits(step, decision) and guards.begins(game, record, sight)
        if forced is not None:
            return forced, None, _used(game, record, sight) if fits else record
        surprise = guards.changed(game, record, sight, players) if fits and not record["started"] else None
        if surprise is not None:  # the turn starts, or goes on after others' decisions: its words mean the same?
            return None, None, _surprised(game, record, surprise, legal)
        move = choose(game, step, legal, sight) if fits else None
        if move is not None:
            return move, QUEUED, _used(game, record, sight)
        if fits or record["started"]:  # meant for this decision, or the next step of a turn under way: stop
            return None, None, _stopped(game, record, step, decision, legal)
    if forced is not None:
        return forced, None, record
    for order in record["standing"]:
        if vocab.standing[order["word"]]["decision"] != decision:
            continue
        now = marks(game, order["word"], sight)
        changed = [event for event, mark in order["marks"].items() if now.get(event) != mark]
        if changed:  # a disarmed order never plays
            record["standing"] = [o for o in record["standing"] if o is not order]
            record["notices"] = notices(record, queuenotes.written(
                queuenotes.DISARMED, word=order["word"], event=vocab.disarm[changed[0]]["help"], order=order["order"]))
            continue
        step = parse_step(game, vocab, order["order"].split(), sight.player, players)
        move = choose(game, step, legal, sight)
        if move is not None:
            return move, STANDING_ORDER, record
    return None, None, record


def _legal_text(game, legal: list[dict]) -> str:
    return ", ".join(game.format_move(m) for m in legal[:12]) + (queuenotes.MORE if len(legal) > 12 else "")


def _dropped_all(record: dict, template: str, **values) -> dict:
    """The queue stops: all of it is dropped, and the player is told why (the standing orders stay)."""
    dropped = "; ".join(text for turn in record["turns"] for text in turn)
    notice = queuenotes.written(template, **values, dropped=dropped)
    return guards.tidy(dict(record, turns=[], started=False, notices=notices(record, notice)))


def taken_back(record: dict, number: int) -> dict:
    """The record once a takeback undid the moves from move `number` on: the queued turns, written after a position
    that is no more, are dropped and the player told (the standing orders stay: they answer whatever comes)."""
    if not record["turns"]:
        return record
    return _dropped_all(record, f"a takeback undid the moves from move {number} on, so your queue no longer "
                                f"follows the position")


def _stopped(game, record: dict, step: Step, decision: str, legal: list[dict]) -> dict:
    """The queue stops at `step`, which is not legal: the player is told why (what the decision is, as meta.yaml
    says it) and what is legal."""
    said = game.meta.get("decisions", {}).get(decision, decision)
    return _dropped_all(record, queuenotes.STOPPED, step=step.text, decision=said, legal=_legal_text(game, legal))


def _surprised(game, record: dict, surprise: tuple[str, str, str], legal: list[dict]) -> dict:
    """The queue stops because a move of it means something else now than when it was sent."""
    move, then, now = surprise
    return _dropped_all(record, queuenotes.SURPRISED, step=move, now=now, then=then, legal=_legal_text(game, legal))


def _used(game, record: dict, sight: Sight) -> dict:
    """The queue's first step played: the turn is under way (marked with the game's turn it is played in, when
    its first step is), or over when that was its last step."""
    mark = record.get("turn", guards.NOT_MARKED)
    if "turn" not in record and guards.declares_turn(game):
        mark = guards.turn_now(game, sight)
    first, rest = record["turns"][0][1:], record["turns"][1:]
    if not first:
        return guards.closed(dict(record, turns=rest, started=False), mark)
    record = dict(record, turns=[first, *rest], started=True)
    if mark is not guards.NOT_MARKED:
        record["turn"] = mark
    return record


def shown(record: dict | None) -> dict | None:
    """What the player's view shows of their record: the queued turns, the standing orders, the notices."""
    if is_empty(record):
        return None
    return {"turns": [list(turn) for turn in record["turns"]],
            "standing": [standing_text(o["word"], o["order"]) for o in record["standing"]],
            "notices": list(record["notices"])}
