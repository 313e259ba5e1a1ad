"""What keeps a queued step to what its player meant when they wrote it: the turn it was written for, and what its
words meant then (pbem.play.queues plays the steps; this module says when one must not be played).

- **Its turn.** A game declares what tells its turns apart (meta.yaml `queues: turn:`, the function `turn` of its
  conditions module, given the public view): one value at every decision of a turn, another at the first decision
  of the next, None at a decision that only goes on with the turn under way (Coal Baron's mining steps after a
  placement). A queued turn is marked with the game's turn it belongs to: what is left of the turn a submission
  answered, with that turn; a turn sent for later (after `next`), with the turn its first step is played in. Once
  the game is in another turn, whatever is left of it is dropped and its player told: a step is never carried
  into a later turn. A game that declares no turn has its player's run of decisions as a turn: what is left of it
  when the decision passes to another player is dropped at once.
- **Its meaning.** When a queue is sent, each move in it is read as the game says what it would do (its report's
  `meaning`, from the player's own view: the workers a space needs, the card in a slot, a share's price). When a
  queued turn is about to start, or to go on after other players' decisions, its steps are read again: one whose
  words mean something else now stops the queue, and the player is told what changed. A choice form (`take best`)
  and an alternative with a condition are the player's order to play whatever happens: they are not read.
  A meaning is read in English, the language the queue record keeps (docs/translating.md, "Texts kept in data"),
  whoever's language is being written to when it is read: a queue sent in French is compared, when it comes due
  during another player's move, in the same words.
"""
from __future__ import annotations

from .. import messages
from ..text import queuenotes
from .names import spelled
from .plans import NEXT, Step, move_text, parse_step, vocabulary

UNBEGUN = object()  # a turn sent for later: it is marked with the game's turn when its first step is played
NOT_MARKED = object()  # the mark of a turn in a game that declares no turn
MAX_NOTICES = 8        # the last notices kept for the player (a stopped queue, a disarmed order)


def declares_turn(game) -> bool:
    return vocabulary(game).turn is not None


def turn_now(game, sight):
    """The game's turn under way as its conditions module tells it from the public view (None: a decision that
    goes on with the turn under way, or a game that declares no turn)."""
    return game.conditions.turn(sight.view("public")) if declares_turn(game) else None


def is_over(record: dict, now) -> bool:
    """Is the game past the turn the record's first queued turn was marked with (`now`: the turn under way)? A
    turn marked None (it began at a decision that opens none) ends at the next decision that opens one."""
    return "turn" in record and now is not None and (record["turn"] is None or now != record["turn"])


def ended(steps: list[str]) -> str:
    """The notice of queued steps dropped because the turn they were written for ended."""
    return queuenotes.written(queuenotes.ENDED, next=NEXT, steps="; ".join(steps))


def dropped(record: dict) -> dict:
    """The record without its first queued turn, its player told that its turn ended before it (with the steps
    dropped); the next one begins in a later turn than it."""
    rest = record["turns"][0]
    record = closed(dict(record, turns=record["turns"][1:], started=False), record.get("turn", NOT_MARKED))
    record.pop("later", None)  # (a game that declares no turn: the run that dropped it is over)
    return dict(record, notices=notices(record, ended(rest))) if rest else record


def closed(record: dict, mark) -> dict:
    """The record once its first queued turn is over (played, or dropped), that turn marked `mark`: the next one
    may begin only in a later turn than it (`after`; in a game that declares no turn, `later`: once this run of
    decisions is over)."""
    record = dict(record)
    record.pop("turn", None)
    if mark is NOT_MARKED:
        record["later"] = True
    else:
        record["after"] = mark
    return tidy(record)


def begins(game, record: dict, sight) -> bool:
    """May the record's first queued turn be played at this decision? One under way or marked, yes; one sent for
    later, only in a later turn than the one before it (or than the one it was sent in)."""
    if "turn" in record or record["started"]:
        return True
    if not declares_turn(game):
        return not record.get("later")
    now = turn_now(game, sight)
    return "after" not in record or (now is not None and now != record["after"])


def notices(record: dict, notice: str) -> list[str]:
    """The record's notices with one more (the last MAX_NOTICES kept)."""
    return (record["notices"] + [notice])[-MAX_NOTICES:]


def tidy(record: dict) -> dict:
    """A record without the marks of turns it no longer holds: once nothing is queued, neither the turns' game
    turns nor what their moves meant."""
    record = dict(record)
    if not record["turns"]:
        for key in ("turn", "after", "later", "said"):
            record.pop(key, None)
    return record


# ---------------------------------------------------------------------------------------------------- meanings

def _meaning(game, view: dict, move: dict) -> str:
    describe = getattr(game.report, "meaning", None)
    if describe is None:
        return ""
    english = messages.use(None)  # the record's language, whatever the reader now written to reads
    try:
        return describe(view, move)
    finally:
        messages.restore(english)


def _read(game, alt, sight) -> str:
    """What one alternative's move means now, its names read as the notation records them ("" for a choice form,
    an alternative with conditions, or a move whose words say it all)."""
    if alt.conditions or alt.choice is not None:
        return ""
    return _meaning(game, sight.view("private"), spelled(game, alt.move, sight))


def meanings(game, steps: list[Step], sight) -> dict[str, str]:
    """What each move of these steps means as they are sent: {move as written: meaning}, the ones that say any."""
    vocab = vocabulary(game)
    said = {}
    for step in steps:
        for alt in step.alternatives:
            meaning = _read(game, alt, sight)
            if meaning:
                said[move_text(game, vocab, alt)] = meaning
    return said


def changed(game, record: dict, sight, players: list[str]) -> tuple[str, str, str] | None:
    """The first move of the record's first queued turn that means something else now than when it was sent:
    (the move, what it meant, what it means now); None when none does. A move that means nothing now (a card no
    longer on the table) is not a change of meaning: it is not legal, and the next alternative is tried."""
    said = record.get("said") or {}
    if not said:
        return None
    vocab = vocabulary(game)
    for text in record["turns"][0]:
        step = parse_step(game, vocab, text.split(), sight.player, players)
        for alt in step.alternatives:
            written = move_text(game, vocab, alt)
            then = said.get(written)
            now = _read(game, alt, sight) if then else ""
            if then and now and now != then:
                return written, then, now
    return None
