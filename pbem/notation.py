"""Text notation of moves, declared as data by each game (meta.yaml `notation:`).

A template is words and fields: `place {space}`, `bid {amount:int}`, `discard {cards:set}`. A field is one token
(`str`, the default), an integer (`int`), or all remaining tokens (`list` keeps their order, `set` sorts them and
may be empty). The template's key in `notation:` is the move's `action`, so `bid 12` is {"action": "bid",
"amount": 12}. Formatting then parsing gives back the same move: that is the one canonical text form.

A legal-move entry may give a field as a form instead of one value, so that one entry stands for many moves and
`pbem moves` stays short:
- an int field as a range {"min": a, "max": b}: any value inside (a bid is checked against its range, never
  against a list of every number); shown `a..b`;
- a list or set field as a choice {"from": [words], "min": a, "max": b}: any a..b of those words, each used at
  most as often as it appears in `from`, in any order the player writes for a `list` field (an ordering of given
  cards), sorted for a `set` field (a subset of given cards); shown `(any a..b of w1 w2 ...)`, or
  `(w1 w2 ... in any order)` when every word must be used.
"""
from __future__ import annotations

import re

from .messages import N_, Message, Words, lazy

TOKEN = re.compile(r"^[a-z0-9][a-z0-9_.+:/-]*$")
FIELD = re.compile(r"^\{([a-z_][a-z0-9_]*)(?::(str|int|list|set))?\}$")
MAX_TOKENS = 64


class NotationError(ValueError):
    """Text that is not a move of this game; the message lists the forms that are. Its `message` (a
    pbem.messages.Message) is what a reader gets in their language; str() is the English text."""

    def __init__(self, message: Message):
        self.message = message
        super().__init__(message.english())


class Part:
    """A word of a template: a literal, or a field of a kind (str, int, list, set)."""

    __slots__ = ("literal", "field", "kind")

    def __init__(self, literal: str | None = None, field: str | None = None, kind: str = "str"):
        self.literal, self.field, self.kind = literal, field, kind


class Template:
    """A move's form: its action and its parts; `public` is what the public log shows instead of the move (hidden
    choices). Plain classes: a dataclass costs a millisecond to define, at every start of pbem."""

    __slots__ = ("action", "parts", "public")

    def __init__(self, action: str, parts: tuple[Part, ...], public: str | None = None):
        self.action, self.parts, self.public = action, parts, public

    @property
    def shape(self) -> str:
        return " ".join(p.literal if p.literal else f"<{p.field}>" for p in self.parts)


def compile_templates(notation: dict) -> list[Template]:
    templates = []
    for action, spec in notation.items():
        text, public = (spec, None) if isinstance(spec, str) else (spec["template"], spec.get("public"))
        parts = []
        for word in text.split():
            m = FIELD.match(word)
            parts.append(Part(field=m.group(1), kind=m.group(2) or "str") if m else Part(literal=word))
        for p in parts[:-1]:
            if p.kind in ("list", "set"):
                raise ValueError(f"notation {action!r}: a list field must come last")
        templates.append(Template(action, tuple(parts), public))
    return templates


def plain(text: str) -> str:
    """A move's text as the notation reads it: the full-width forms a Chinese or Japanese keyboard types (`１２`,
    `；`, an ideographic space) as their plain ones (Unicode NFKC). Every transport's move text is read through
    here (tokens_of, split_steps), so the log, the queues and what a signature covers hold the plain forms."""
    if text.isascii():
        return text
    import unicodedata  # (only for text that is not ASCII)
    return unicodedata.normalize("NFKC", text)


def tokens_of(text: str) -> list[str]:
    """Lower-cased words of one move, in their plain forms; commas and extra spaces are forgiven."""
    return plain(text).replace(",", " ").lower().split()


def _match(template: Template, words: list[str]) -> dict | None:
    move = {"action": template.action}
    i = 0
    for part in template.parts:
        if part.kind in ("list", "set"):
            rest = words[i:]
            move[part.field] = sorted(rest) if part.kind == "set" else list(rest)
            if part.kind == "list" and not rest:
                return None
            return move
        if i >= len(words):
            return None
        word = words[i]
        if part.literal is not None:
            if word != part.literal:
                return None
        elif part.kind == "int":
            if not re.fullmatch(r"-?\d{1,9}", word):
                return None
            move[part.field] = int(word)
        else:
            move[part.field] = word
        i += 1
    return move if i == len(words) else None


def check_words(words: list[str], what: str = "move") -> None:
    """A move (or a queued step: `what`) is some words of the notation's alphabet, not too many."""
    if not words:
        raise NotationError(lazy("empty move"))
    if len(words) > MAX_TOKENS:
        too_many = lazy("a move has at most {count} words", count=MAX_TOKENS) if what == "move" else \
            lazy("a step has at most {count} words", count=MAX_TOKENS)
        raise NotationError(too_many)
    for word in words:
        if not TOKEN.match(word):
            raise NotationError(lazy("{word} is not a word of the notation (letters, digits, - . _ + : / only)",
                                     word=repr(word)))


def match(templates: list[Template], words: list[str]) -> dict | None:
    """The first template these words fit, as a move ({"action": key, fields...}); None if none does."""
    for template in templates:
        move = _match(template, words)
        if move is not None:
            return move
    return None


def parse(templates: list[Template], text: str, also: tuple[str, ...] = (), domain: str = "pbem") -> dict:
    """The move a text stands for. `also`: forms handled before the game's notation (the engine's `resign`),
    listed with the game's own when the text is no move; `domain`: the game's (its glossary shows the forms in
    the reader's words)."""
    words = tokens_of(text)
    check_words(words)
    move = match(templates, words)
    if move is not None:
        return move
    forms = [Words(domain, form) for form in sorted({t.shape for t in templates} | set(also))]
    error = NotationError(lazy("{text} is not a move; the forms are: {forms}", text=repr(" ".join(words)),
                               forms=forms))
    error.text = " ".join(words)  # (the engine says which legal moves are nearest)
    raise error


def _template_for(templates: list[Template], move: dict) -> Template:
    for template in templates:
        if template.action == move.get("action"):
            return template
    raise KeyError(f"no notation for action {move.get('action')!r}")


# A choice as the legal moves show it (pbem.text.glossary shows it in the reader's words: these are its messages)
ANY_OF, IN_ANY_ORDER = N_("(any {count} of {words})"), N_("({words} in any order)")


def _choice_text(form: dict, ordered: bool) -> str:
    words, low, high = " ".join(form["from"]), form["min"], form["max"]
    if low == high == len(form["from"]):
        return IN_ANY_ORDER.format(words=words) if ordered and len(form["from"]) > 1 else words
    count = str(low) if low == high else f"{low}..{high}"
    return ANY_OF.format(count=count, words=words)


def format_move(templates: list[Template], move: dict) -> str:
    """The canonical text; a form shows as `low..high` (an int range) or `(any a..b of w1 w2 ...)` (a choice)."""
    words = []
    for part in _template_for(templates, move).parts:
        if part.literal is not None:
            words.append(part.literal)
            continue
        value = move[part.field]
        if isinstance(value, dict) and "from" in value:
            words.append(_choice_text(value, part.kind == "list"))
        elif isinstance(value, dict):
            words.append(f"{value['min']}..{value['max']}")
        elif isinstance(value, list):
            words.extend(str(v) for v in value)
        else:
            words.append(str(value))
    return " ".join(words)


def public_text(templates: list[Template], move: dict) -> str:
    template = _template_for(templates, move)
    return template.public if template.public else format_move(templates, move)


def is_form(value) -> bool:
    """A legal-move field that stands for many values: an int range or a choice of words."""
    return isinstance(value, dict)


def _within_choice(value, form: dict) -> bool:
    if type(value) is not list or not form["min"] <= len(value) <= form["max"]:
        return False
    left = list(form["from"])
    for word in value:
        if word not in left:
            return False
        left.remove(word)
    return True


def matches(move: dict, entry: dict) -> bool:
    """Does the submitted move equal this legal-move entry (forms: any value they stand for)?"""
    if move.keys() != entry.keys():
        return False
    for key, allowed in entry.items():
        value = move[key]
        if isinstance(allowed, dict) and "from" in allowed:
            if not _within_choice(value, allowed):
                return False
        elif isinstance(allowed, dict) and "min" in allowed:
            if type(value) is not int or not allowed["min"] <= value <= allowed["max"]:
                return False
        elif value != allowed:
            return False
    return True


def is_legal(move: dict, legal: list[dict]) -> bool:
    return any(matches(move, entry) for entry in legal)


def split_steps(line: str) -> list[str]:
    """A line's moves in their plain forms, `;` (or the full-width `；`) between them."""
    return [piece.strip() for piece in plain(line).split(";") if piece.strip()]


def split_turn(text: str) -> list[str]:
    """One turn may be written on one line with `;` between moves, or one move a line."""
    return [piece for line in text.splitlines() for piece in split_steps(line)]
