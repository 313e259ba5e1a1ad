"""A submission read as a plan (pbem.play.queues says what a queue is): this turn's steps, the turns queued after
it, standing orders and their withdrawals, each step's ranked alternatives with their conditions, checked against
the words the game declares (its Vocabulary) and the limits below; and the canonical text of each.
"""
from __future__ import annotations

from .. import notation
from ..contract import PbemError

NEXT, STANDING, ELSE, IF, AND, NOT, CANCEL = "next", "standing", "else", "if", "and", "not", "cancel"
WORDS = (NEXT, STANDING, ELSE, IF, AND, NOT, CANCEL)  # words of the queue notation: no player may be named so
MAX_STEPS = 60         # steps in one submission, this turn's and the queued ones
MAX_ALTERNATIVES = 8   # in one step
MAX_CONDITIONS = 4     # in one alternative
MAX_STANDING = 8       # standing orders of one player
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
        self.names = spec.get("names")  # the names a player may write for the notation's words (queues.spelled)
        self.turn = spec.get("turn")  # what tells the game's turns apart (pbem.play.guards), or None
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


def move_text(game, vocab: Vocabulary, alt: Alternative) -> str:
    """An alternative's move as written, without its conditions: a move of the notation, or a choice form."""
    if alt.choice is None:
        return game.format_move(alt.move)
    return notation.format_move(vocab.choice_templates, {"action": alt.choice, **alt.move})


def alternative_text(game, vocab: Vocabulary, alt: Alternative) -> str:
    move = move_text(game, vocab, alt)
    if not alt.conditions:
        return move
    shown = [("not " if negated else "") + notation.format_move(vocab.condition_templates, {"action": key, **fields})
             for key, fields, negated in alt.conditions]
    return f"{move} {IF} " + f" {AND} ".join(shown)


def standing_text(word: str, order: str) -> str:
    return f"{STANDING} {word}: {order}"
