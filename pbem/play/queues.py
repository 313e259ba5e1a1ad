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

This module is pure: parsing, the canonical text, and what a queue does for one decision. The engine keeps each
player's queue record with the referee's state, shows it in that player's view only, and consults it where it
plays forced moves.
"""
from __future__ import annotations

from .. import notation
from ..contract import PbemError

NEXT, STANDING, ELSE, IF, AND, NOT, CANCEL = "next", "standing", "else", "if", "and", "not", "cancel"
WORDS = (NEXT, STANDING, ELSE, IF, AND, NOT, CANCEL)  # words of the queue notation: no player may be named so
MAX_STEPS = 60         # steps in one submission, this turn's and the queued ones
MAX_NOTICES = 8        # the last notices kept for the player (a stopped queue, a disarmed order)
MAX_ALTERNATIVES = 8   # in one step
MAX_CONDITIONS = 4     # in one alternative
MAX_STANDING = 8       # standing orders of one player
QUEUED = "queued"                  # the reason of a log entry played from a queue
STANDING_ORDER = "standing order"  # the reason of one played by a standing order
REASONS = (QUEUED, STANDING_ORDER)
READS = ("public", "private")


class Vocabulary:
    """A game's queue declarations (meta.yaml `queues:`), compiled once."""

    def __init__(self, meta: dict):
        spec = meta.get("queues") or {}
        self.title = meta["title"]
        self.decisions = {name: frozenset(moves) for name, moves in (spec.get("decisions") or {}).items()}
        self.choices = spec.get("choices") or {}
        self.conditions = spec.get("conditions") or {}
        self.standing = spec.get("standing") or {}
        self.disarm = spec.get("disarm") or {}
        self.choice_templates = notation.compile_templates({k: v["template"] for k, v in self.choices.items()})
        self.condition_templates = notation.compile_templates({k: v["template"] for k, v in self.conditions.items()})

    def literals(self) -> set[str]:
        """The words of the game's choice forms and conditions (no player may be named so)."""
        return {part.literal for template in self.choice_templates + self.condition_templates
                for part in template.parts if part.literal}

    def actions(self, alternative: "Alternative") -> frozenset:
        """The moves an alternative may be: its action, or for a choice form the moves of its decision."""
        if alternative.choice is not None:
            return self.decisions.get(self.choices[alternative.choice]["decision"], frozenset())
        return frozenset((alternative.move["action"],))

    def fits(self, step: "Step", decision: str) -> bool:
        """Is `step` meant for `decision`: is one of its alternatives a move that decision takes?"""
        taken = self.decisions.get(decision, frozenset())
        return any(self.actions(alt) & taken for alt in step.alternatives)


_vocabularies: dict[str, Vocabulary] = {}


def vocabulary(game) -> Vocabulary:
    if game.id not in _vocabularies:
        _vocabularies[game.id] = Vocabulary(game.meta)
    return _vocabularies[game.id]


# ---------------------------------------------------------------------------------------------------- parsing

class Alternative:
    """One move of a step (`move`: a move of the notation, or the fields of a choice form named `choice`), with
    the conditions that must hold for it: (condition key, fields, negated)."""

    __slots__ = ("move", "choice", "conditions")

    def __init__(self, move: dict, choice: str | None, conditions: list[tuple[str, dict, bool]]):
        self.move, self.choice, self.conditions = move, choice, conditions


class Step:
    """Ranked alternatives for one decision, and their canonical text (what the queue record keeps)."""

    __slots__ = ("alternatives", "text")

    def __init__(self, alternatives: list[Alternative], text: str):
        self.alternatives, self.text = alternatives, text


class Plan:
    """A submission read: `turns` (this turn's steps first, then one list a later turn), `standing` (word ->
    the order's step, or None to withdraw it), `withdraw_all` (`standing cancel`) and `cancel` (the queue
    dropped)."""

    def __init__(self):
        self.turns: list[list[Step]] = [[]]
        self.standing: dict[str, Step | None] = {}
        self.withdraw_all = False
        self.cancel = False

    @property
    def now(self) -> list[Step]:
        return self.turns[0]

    def later(self) -> list[list[Step]]:
        return [turn for turn in self.turns[1:] if turn]

    def steps(self) -> int:
        return sum(len(turn) for turn in self.turns)


def holds_queue(texts: list[str]) -> bool:
    """Do these items say anything for later in the queue's own words (`next`, a standing order, `cancel`, ranked
    alternatives, conditions)? (Plain steps beyond the turn are queued too, which only playing them tells.)"""
    for text in texts:
        words = notation.tokens_of(text)
        if words[:1] in ([NEXT], [STANDING], [CANCEL]) or ELSE in words or IF in words:
            return True
    return False


def canonical_item(game, text: str, players: list[str]) -> str:
    """An item of a submission in its one text form (a move as the log records it); NotationError or PbemError
    when it does not read."""
    words = notation.tokens_of(text)
    if words in ([NEXT], [CANCEL], [STANDING, CANCEL]):
        return " ".join(words)
    plan = parse_plan(game, [text], None, players)
    if plan.standing:
        word, step = next(iter(plan.standing.items()))
        return f"{STANDING} {word}: {CANCEL}" if step is None else standing_text(word, step.text)
    return plan.now[0].text


def reads_as_item(game, text: str, players: list[str]) -> bool:
    """Does this line read as items of a submission (steps, `next`, standing orders), whoever sends it?"""
    try:
        parse_plan(game, [piece for piece in text.split(";") if piece.strip()], None, players)
    except PbemError:
        return False
    return True


def step_name(index: int, count: int, text: str) -> str:
    """How a message names one item of a submission: by its place (never "move 3", which would read as the
    game's move 3), or by its text alone when it is the only one."""
    return repr(text) if count == 1 else f"step {index} of your turn ({text!r})"


def parse_plan(game, texts: list[str], player: str, players: list[str], also: tuple[str, ...] = ()) -> Plan:
    """Read a submission's items; any mistake is a PbemError naming the item (nothing is played or queued).
    `also`: words the engine takes besides the game's moves (`resign`), listed with its forms."""
    vocab = vocabulary(game)
    plan = Plan()
    for index, text in enumerate(texts, 1):
        name = step_name(index, len(texts), " ".join(notation.tokens_of(text)) or text)
        words = notation.tokens_of(text)
        try:
            notation.check_words(words, "step")
            named = words[0].rstrip(":")
            if named in players:
                raise PbemError(f"a queue holds your own steps only, not {named}'s" if named != player else
                                f"write the step without your name")
            if words == [NEXT]:
                plan.turns.append([])
                continue
            if words == [CANCEL]:
                plan.cancel = True
                continue
            if words and words[0] == STANDING:
                _read_standing(game, vocab, words[1:], player, players, plan)
                continue
            step = parse_step(game, vocab, words, player, players, also)
        except notation.NotationError as exc:
            raise PbemError(f"{name}: {exc}" if len(texts) > 1 else str(exc)) from None
        except PbemError as exc:
            raise PbemError(f"{name}: {exc}") from None
        plan.turns[-1].append(step)
        if plan.steps() > MAX_STEPS:
            raise PbemError(f"{name}: at most {MAX_STEPS} steps may be sent at once (this turn's and the queued "
                            f"ones); nothing was queued")
    if len(plan.standing) > MAX_STANDING:
        raise PbemError(f"at most {MAX_STANDING} standing orders; nothing was queued")
    return plan


def _read_standing(game, vocab: Vocabulary, words: list[str], player: str, players: list[str], plan: Plan) -> None:
    if words == [CANCEL]:
        plan.withdraw_all = True
        return
    known = ", ".join(sorted(vocab.standing)) or "none"
    if not words:
        raise PbemError(f"`standing` names the order: standing WORD: STEP (the standing orders of {vocab.title}: "
                        f"{known})")
    word = words[0].rstrip(":")
    if word not in vocab.standing:
        raise PbemError(f"{word!r} is no standing order of {vocab.title} (its standing orders: {known})")
    rest = words[1:]
    if rest == [CANCEL]:
        plan.standing[word] = None
        return
    step = parse_step(game, vocab, rest, player, players)
    decision = vocab.standing[word]["decision"]
    if not all(vocab.actions(alt) & vocab.decisions.get(decision, frozenset()) for alt in step.alternatives):
        raise PbemError(f"a standing {word} order answers {decision} only: each alternative must be one of its "
                        f"moves ({', '.join(sorted(vocab.decisions.get(decision, ())))})")
    plan.standing[word] = step


def parse_step(game, vocab: Vocabulary, words: list[str], player: str, players: list[str],
               also: tuple[str, ...] = ()) -> Step:
    """One step: alternatives separated by `else`, each a move (or a choice form) with `if` conditions."""
    if not words:
        raise notation.NotationError("empty move")
    pieces = _split(words, ELSE)
    if any(not piece for piece in pieces):
        raise PbemError(f"`{ELSE}` stands between two moves")
    if len(pieces) > MAX_ALTERNATIVES:
        raise PbemError(f"a step ranks at most {MAX_ALTERNATIVES} alternatives")
    alternatives = [_alternative(game, vocab, piece, player, players, also) for piece in pieces]
    return Step(alternatives, _step_text(game, vocab, alternatives))


def _split(words: list[str], separator: str) -> list[list[str]]:
    pieces = [[]]
    for word in words:
        if word == separator:
            pieces.append([])
        else:
            pieces[-1].append(word)
    return pieces


def _alternative(game, vocab: Vocabulary, words: list[str], player: str, players: list[str],
                 also: tuple[str, ...]) -> Alternative:
    if IF in words:
        at = words.index(IF)
        move_words, condition_words = words[:at], words[at + 1:]
        if not move_words or not condition_words:
            raise PbemError(f"write a condition as MOVE {IF} CONDITION")
        conditions = [_condition(vocab, piece, player, players) for piece in _split(condition_words, AND)]
        if len(conditions) > MAX_CONDITIONS:
            raise PbemError(f"an alternative has at most {MAX_CONDITIONS} conditions")
    else:
        move_words, conditions = words, []
    choice = notation.match(vocab.choice_templates, move_words)
    if choice is not None:
        key = choice.pop("action")
        _check_fields(vocab.choices[key], choice, player, players, "choice")
        return Alternative(choice, key, conditions)
    move = game.parse_move(" ".join(move_words), also)
    if not any(move["action"] in moves for moves in vocab.decisions.values()):
        raise PbemError(f"{' '.join(move_words)!r} answers no decision of {vocab.title}")
    return Alternative(move, None, conditions)


def _condition(vocab: Vocabulary, words: list[str], player: str, players: list[str]) -> tuple[str, dict, bool]:
    negated = bool(words) and words[0] == NOT
    words = words[1:] if negated else words
    if not words:
        raise PbemError(f"an empty condition (`{AND}` and `{NOT}` stand before a condition)")
    fields = notation.match(vocab.condition_templates, words)
    if fields is None:
        forms = ", ".join(t.shape for t in vocab.condition_templates) or "none"
        raise PbemError(f"{' '.join(words)!r} is not a condition of {vocab.title}; its conditions are: {forms}")
    key = fields.pop("action")
    _check_fields(vocab.conditions[key], fields, player, players, "condition")
    return key, fields, negated


def _check_fields(spec: dict, fields: dict, player: str, players: list[str], what: str) -> None:
    """A `player` field names a player of the game; a condition that reads private things reads the player's own
    (anyone else's are hidden from them)."""
    named = fields.get("player")
    if named is None or player is None:  # (no player: only whether the text reads as a step, pbem.mail)
        return
    if named not in players:
        raise PbemError(f"{named!r} does not play in this game (players: {', '.join(players)})")
    if spec.get("reads") == "private" and named != player:
        raise PbemError(f"{named}'s {spec.get('hidden', 'private things')} hidden from you: a {what} reads only "
                        f"what you may see")


def _step_text(game, vocab: Vocabulary, alternatives: list[Alternative]) -> str:
    return f" {ELSE} ".join(alternative_text(game, vocab, alt) for alt in alternatives)


def alternative_text(game, vocab: Vocabulary, alt: Alternative) -> str:
    move = notation.format_move(vocab.choice_templates, {"action": alt.choice, **alt.move}) \
        if alt.choice is not None else game.format_move(alt.move)
    if not alt.conditions:
        return move
    shown = [("not " if negated else "") + notation.format_move(vocab.condition_templates, {"action": key, **fields})
             for key, fields, negated in alt.conditions]
    return f"{move} {IF} " + f" {AND} ".join(shown)


def standing_text(word: str, order: str) -> str:
    return f"{STANDING} {word}: {order}"


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
            move = alt.move
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


def with_plan(game, record: dict | None, plan: Plan, leftover: list[Step],
              started: bool, sight: Sight) -> dict:
    """The record after a submission: its queue (what is left of this turn, then its later turns) replaces the
    old one when it holds any; its standing orders are set or withdrawn (armed now); notices are cleared (the
    player has answered). What is left of this turn goes on with it when it is `started` (new information stopped
    the turn: the rest is chosen blind, now); when the decision passed to another player, each step left waits for
    its own decision ("bid 1; take best": the card choice comes after the others' bids)."""
    record = dict(record or empty_record())
    rest = [[s.text for s in leftover]] if started else [[s.text] for s in leftover]
    turns = [turn for turn in rest if turn] + [[s.text for s in turn] for turn in plan.later()]
    if turns or plan.cancel:
        record["turns"], record["started"] = turns, started and bool(leftover)
    standing = [] if plan.withdraw_all else list(record["standing"])
    for word, step in plan.standing.items():
        standing = [order for order in standing if order["word"] != word]
        if step is not None:
            standing.append({"word": word, "order": step.text, "marks": marks(game, word, sight)})
    record["standing"] = sorted(standing, key=lambda order: list(vocabulary(game).standing).index(order["word"]))
    record["notices"] = []
    return record


def end_run(record: dict) -> dict:
    """The player's run of decisions is over (someone else decides): a queued turn under way ends, what is left
    of it unused."""
    if not record.get("started"):
        return record
    record = dict(record, started=False)
    rest = record["turns"][0]
    record["turns"] = record["turns"][1:]
    if rest:
        record["notices"] = notices(record, f"not played, your turn ended before it: {'; '.join(rest)}")
    return record


def blind_notice(move: str) -> str:
    return f"chosen blind: {move!r} was played as you queued it, before you saw what the move before it showed"


def notices(record: dict, notice: str) -> list[str]:
    return (record["notices"] + [notice])[-MAX_NOTICES:]


def answer(game, record: dict, decision: str, legal: list[dict], sight: Sight, players: list[str],
           forced: dict | None = None) -> tuple[dict | None, str | None, dict]:
    """What the player's queue does for this decision of theirs: (the move to play or None, the log reason, the
    new record). `forced`: the decision allows only that move, which the referee plays anyway; a queued step meant
    for it is used up by it. With None the player is asked (the record may say why: a stopped queue, a disarmed
    order)."""
    vocab = vocabulary(game)
    record = dict(record)
    if record["turns"]:
        step = parse_step(game, vocab, record["turns"][0][0].split(), sight.player, players)
        fits = vocab.fits(step, decision)
        if forced is not None:
            return forced, None, _used(record) if fits else record
        move = choose(game, step, legal, sight) if fits else None
        if move is not None:
            return move, QUEUED, _used(record)
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
            record["notices"] = notices(record, f"standing {order['word']} order disarmed "
                                                f"({vocab.disarm[changed[0]]['help']}): {order['order']}")
            continue
        step = parse_step(game, vocab, order["order"].split(), sight.player, players)
        move = choose(game, step, legal, sight)
        if move is not None:
            return move, STANDING_ORDER, record
    return None, None, record


def _stopped(game, record: dict, step: Step, decision: str, legal: list[dict]) -> dict:
    """The queue stops at `step`: all of it is dropped, and the player is told why and what is legal."""
    shown = ", ".join(game.format_move(m) for m in legal[:12]) + (" ..." if len(legal) > 12 else "")
    dropped = "; ".join(text for turn in record["turns"] for text in turn)
    return dict(record, turns=[], started=False, notices=notices(
        record, f"your queue stopped at {step.text!r}, not legal now ({decision}; legal: {shown}); dropped: "
                f"{dropped}"))


def _used(record: dict) -> dict:
    """The queue's first step played: the turn is under way, or over when that was its last step."""
    first = record["turns"][0][1:]
    if first:
        return dict(record, turns=[first] + record["turns"][1:], started=True)
    return dict(record, turns=record["turns"][1:], started=False)


def shown(record: dict | None) -> dict | None:
    """What the player's view shows of their record: the queued turns, the standing orders, the notices."""
    if is_empty(record):
        return None
    return {"turns": [list(turn) for turn in record["turns"]],
            "standing": [standing_text(o["word"], o["order"]) for o in record["standing"]],
            "notices": list(record["notices"])}
