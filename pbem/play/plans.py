"""A submission read as a plan (pbem.play.queues says what a queue is): this turn's steps, the turns queued after
it, standing orders and their withdrawals, each step's ranked alternatives with their conditions, checked against
the words the game declares (its Vocabulary) and the limits below; and the canonical text of each.
"""
from __future__ import annotations

from .. import notation
from ..contract import PbemError
from ..messages import Message, Words, lazy

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
        self.title = Message(meta["package"], meta["title"], {})  # the game's title, in the reader's language
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


def step_name(index: int, count: int, text: str, domain: str = "pbem") -> Message:
    """How a message names one item of a submission: by its place (never "move 3", which would read as the
    game's move 3), or by its text alone when it is the only one (in the reader's words: `domain`'s glossary)."""
    if count == 1:
        return lazy("'{move}'", move=Words(domain, text))
    return lazy("step {index} of your turn ('{move}')", index=index, move=Words(domain, text))


def decision_text(game, decision: str) -> Message:
    """What a decision is, as meta.yaml `decisions` says it (in the reader's language): never its name in the
    code."""
    return Message(game.package, game.meta.get("decisions", {}).get(decision, decision), {})


def _named(name: Message, error) -> PbemError:
    """A refusal of one item of a submission: the item named, then what is wrong with it."""
    return PbemError(lazy("{step}: {error}", step=name, error=_message(error)))


def _message(error):
    """An error's message, for another message: its Message when it has one, else its text."""
    return getattr(error, "message", None) or str(error)


def parse_plan(game, texts: list[str], player: str, players: list[str], also: tuple[str, ...] = ()) -> Plan:
    """Read a submission's items; any mistake is a PbemError naming the item (nothing is played or queued).
    `also`: words the engine takes besides the game's moves (`resign`), listed with its forms."""
    vocab = vocabulary(game)
    plan = Plan()
    for index, text in enumerate(texts, 1):
        name = step_name(index, len(texts), " ".join(notation.tokens_of(text)) or text, game.package)
        words = notation.tokens_of(text)
        try:
            notation.check_words(words, "step")
            named = words[0].rstrip(":")
            if named in players:
                raise PbemError(lazy("a queue holds your own steps only, not {player}'s", player=named)
                                if named != player else lazy("write the step without your name"))
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
            raise (_named(name, exc) if len(texts) > 1 else PbemError(exc.message)) from None
        except PbemError as exc:
            raise _named(name, exc) from None
        plan.turns[-1].append(step)
        if plan.steps() > MAX_STEPS:
            raise _named(name, lazy("at most {count} steps may be sent at once (this turn's and the queued ones); "
                                    "nothing was queued", count=MAX_STEPS))
    if len(plan.standing) > MAX_STANDING:
        raise PbemError(lazy("at most {count} standing orders; nothing was queued", count=MAX_STANDING))
    return plan


def _read_standing(game, vocab: Vocabulary, words: list[str], player: str, players: list[str], plan: Plan) -> None:
    if words == [CANCEL]:
        plan.withdraw_all = True
        return
    known = [Words(game.package, name) for name in sorted(vocab.standing)]
    if not words:
        raise PbemError(lazy("`{standing}` names the order: {standing} WORD: STEP (the standing orders of {title}: "
                             "{known})", standing=Words("pbem", STANDING), title=vocab.title, known=known))
    word = words[0].rstrip(":")
    if word not in vocab.standing:
        raise PbemError(lazy("{word} is no standing order of {title} (its standing orders: {known})",
                             word=repr(word), title=vocab.title, known=known))
    rest = words[1:]
    if rest == [CANCEL]:
        plan.standing[word] = None
        return
    step = parse_step(game, vocab, rest, player, players)
    decision = vocab.standing[word]["decision"]
    if not all(vocab.actions(alt) & vocab.decisions.get(decision, frozenset()) for alt in step.alternatives):
        taken = vocab.decisions.get(decision, frozenset())
        moves = [Words(game.package, template.shape) for template in game.templates if template.action in taken]
        raise PbemError(lazy("a standing order {word} answers one decision only ({decision}): each alternative "
                             "must be one of its moves ({moves})", word=Words(game.package, word),
                             decision=decision_text(game, decision), moves=moves))
    plan.standing[word] = step


def parse_step(game, vocab: Vocabulary, words: list[str], player: str, players: list[str],
               also: tuple[str, ...] = ()) -> Step:
    """One step: alternatives separated by `else`, each a move (or a choice form) with `if` conditions."""
    if not words:
        raise notation.NotationError(lazy("empty move"))
    pieces = _split(words, ELSE)
    if any(not piece for piece in pieces):
        raise PbemError(lazy("`{word}` stands between two moves", word=Words("pbem", ELSE)))
    if len(pieces) > MAX_ALTERNATIVES:
        raise PbemError(lazy("a step ranks at most {count} alternatives", count=MAX_ALTERNATIVES))
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
            raise PbemError(lazy("write a condition as MOVE {word} CONDITION", word=Words("pbem", IF)))
        conditions = [_condition(game, vocab, piece, player, players) for piece in _split(condition_words, AND)]
        if len(conditions) > MAX_CONDITIONS:
            raise PbemError(lazy("an alternative has at most {count} conditions", count=MAX_CONDITIONS))
    else:
        move_words, conditions = words, []
    choice = notation.match(vocab.choice_templates, move_words)
    if choice is not None:
        key = choice.pop("action")
        _check_fields(game, vocab.choices[key], choice, player, players, "choice")
        return Alternative(choice, key, conditions)
    move = game.parse_move(" ".join(move_words), also)
    if not any(move["action"] in moves for moves in vocab.decisions.values()):
        raise PbemError(lazy("'{move}' answers no decision of {title}", move=Words(game.package, " ".join(move_words)),
                             title=vocab.title))
    return Alternative(move, None, conditions)


def _condition(game, vocab: Vocabulary, words: list[str], player: str, players: list[str]
               ) -> tuple[str, dict, bool]:
    negated = bool(words) and words[0] == NOT
    words = words[1:] if negated else words
    if not words:
        raise PbemError(lazy("an empty condition (`{and_}` and `{not_}` stand before a condition)",
                             and_=Words("pbem", AND), not_=Words("pbem", NOT)))
    fields = notation.match(vocab.condition_templates, words)
    if fields is None:
        forms = [Words(game.package, t.shape) for t in vocab.condition_templates]
        raise PbemError(lazy("'{text}' is not a condition of {title}; its conditions are: {forms}",
                             text=Words(game.package, " ".join(words)), title=vocab.title, forms=forms)
                        if forms else lazy("'{text}' is not a condition: {title} has none",
                                           text=Words(game.package, " ".join(words)), title=vocab.title))
    key = fields.pop("action")
    _check_fields(game, vocab.conditions[key], fields, player, players, "condition")
    return key, fields, negated


def _check_fields(game, spec: dict, fields: dict, player: str, players: list[str], what: str) -> None:
    """A `player` field names a player of the game; a condition that reads private things reads the player's own
    (anyone else's are hidden from them)."""
    named = fields.get("player")
    if named is None or player is None:  # (no player: only whether the text reads as a step, pbem.mail)
        return
    if named not in players:
        raise PbemError(lazy("{player} does not play in this game (players: {players})", player=repr(named),
                             players=list(players)))
    if spec.get("reads") == "private" and named != player:
        hidden = Message(game.package, spec.get("hidden", "what {player} holds is hidden from you"), {"player": named})
        raise PbemError(lazy("{hidden}: a condition reads only what you may see", hidden=hidden)
                        if what == "condition" else
                        lazy("{hidden}: a choice reads only what you may see", hidden=hidden))


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
