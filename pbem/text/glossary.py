"""A domain's glossary: the words of its moves and its components in each language (docs/translating.md).

Each game keeps `glossary.yaml` beside its rules.md, and pbem keeps its own (pbem/text/glossary.yaml: the queue
words, `resign`). A term is a word as the notation and the components write it (its `id`, the English), the `kind`
of thing it names (`word`: a word of the notation; `space`, `colour` ...: what the game's ids are made of), and in
each language its `name` with where the rulebook prints it (`where`) or `source: pbem` for a name of pbem's own
making, and `also`: other words a player may type for it.

The glossary is the one source of the names: `tools/catalogues.py` extracts its terms into the domain's catalogue
template (context `term:KIND`, msgid the id) and writes their names into each language's catalogue; a test checks
that the two agree. At run time a name is read from the compiled catalogue like any message (so Simplified
Chinese, made from the Traditional at compile time, has them too); only ids and kinds, their order and the `also`
words are read from the YAML, and only for a reader of another language than English or a move that is not in
the canonical notation.
"""
from __future__ import annotations

import functools
import re
import unicodedata

from .. import messages
from ..notation import ANY_OF, IN_ANY_ORDER
from . import language

TERM = messages.TERM  # the catalogue context of a glossary term is TERM + its kind
FILE = "glossary.yaml"


class Term:
    __slots__ = ("id", "kind", "names", "also", "where", "note")

    def __init__(self, spec: dict, languages: list[str]):
        self.id, self.kind, self.note = spec["id"], spec["kind"], spec.get("note", "")
        self.names, self.also, self.where = {}, {}, {}
        for code in languages:
            entry = spec.get(code) or {}
            self.names[code] = entry.get("name")
            self.also[code] = list(entry.get("also", []))
            self.where[code] = entry.get("where") or ("pbem" if entry.get("source") == "pbem" else None)

    @property
    def context(self) -> str:
        return TERM + self.kind


class Glossary:
    """A domain's terms, in the glossary's order (the first term of an id is how a move shows that id)."""

    def __init__(self, domain: str, data: dict):
        self.domain = domain
        self.sources = data.get("sources", {})
        self.languages = [code for code in language.LANGUAGES if code in self.sources]
        self.terms = [Term(spec, self.languages) for spec in data.get("terms", [])]

    def by_id(self) -> dict[str, Term]:
        shown: dict[str, Term] = {}
        for term in self.terms:
            shown.setdefault(term.id, term)
        return shown


def read(domain: str) -> Glossary:
    """The glossary of `domain` (pbem's, or a game's package name); an empty one when it has none."""
    return _read(domain)


@functools.lru_cache(maxsize=None)
def _read(domain: str) -> Glossary:
    from ..store import packaged, yamlio
    try:
        if domain == messages.PBEM.name:
            data = packaged.read_bytes("pbem.text", FILE)
        else:
            from ..store import registry
            data = packaged.read_bytes(registry.get(domain.replace("_", "-")).module, FILE)
    except OSError:
        return Glossary(domain, {})
    return Glossary(domain, yamlio.loads(data, f"{domain} {FILE}") or {})


def term(domain: str, kind: str, word: str) -> str:
    """The name of a term in the language being read (the id itself in English, or when it has none)."""
    return messages.Domain(domain).term(kind, word)


def _named(domain: str, part: str, translator) -> str | None:
    """A word or a run of its parts (an id, which may hold a `-` itself): the name of the first term of `domain`,
    then of pbem's, whose id it is; None when none is. A translator with catalogues names it from them when all the
    id's terms have one name there (so the YAML is read only for an id whose kinds are named apart, and by the
    pseudo-locale)."""
    names_in = getattr(translator, "term_names", None)
    for owner in (domain, messages.PBEM.name):
        if names_in is not None:
            names = names_in(owner).get(part)
            if not names:  # not a term of this domain (or no catalogue: English, the id itself)
                continue
            if len(names) == 1:
                return next(iter(names))
        found = _read(owner).by_id().get(part)
        if found is not None:
            return messages.Message(owner, part, {}, context=found.context).render(translator)
    return None


# A choice of the legal moves (pbem.notation.ANY_OF, IN_ANY_ORDER): its words shown as the notation's, its frame a
# message
CHOICE = re.compile(r"\(any (?P<count>\S+) of (?P<some>[^()]*)\)|\((?P<every>[^()]*) in any order\)")


def shown_words(domain: str, text: str, translator) -> str:
    """A text of the notation as a reader of `translator`'s language reads it (`_shown_plain`), a choice of the
    legal moves (`(any 1 of b3 c4)`, `(e n in any order)`) as its message says it; a hidden move as the public log
    shows it (meta.yaml notation `public`: `return the other cards to the top of the deck`) as its message says it."""
    public = translator.translate(messages.Message(domain, text, {}, context=messages.PUBLIC_MOVE))
    if public:
        return public
    parts, at = [], 0
    for found in CHOICE.finditer(text):
        parts.append(_shown_plain(domain, text[at:found.start()], translator))
        if found["count"] is not None:
            choice = messages.Message(messages.PBEM.name, ANY_OF, {
                "count": found["count"], "words": _shown_plain(domain, found["some"], translator)})
        else:
            choice = messages.Message(messages.PBEM.name, IN_ANY_ORDER, {
                "words": _shown_plain(domain, found["every"], translator)})
        parts.append(choice.render(translator))
        at = found.end()
    return "".join(parts) + _shown_plain(domain, text[at:], translator)


def _named_parts(domain: str, core: str, translator) -> str:
    """A word made of terms joined by `-`, each named: the longest run of parts that is a term's id first (an id may
    hold a `-` itself: `fort-lee`, `cold-mountain-9` is the town `cold-mountain` and 9); a part no term has, as it
    is."""
    parts, shown, at = core.split("-"), [], 0
    while at < len(parts):
        for end in range(len(parts), at, -1):
            name = _named(domain, "-".join(parts[at:end]), translator)
            if name is not None:
                shown.append(name)
                at = end
                break
        else:
            shown.append(parts[at])
            at += 1
    return "-".join(shown)


SLOT_WORD = re.compile(r"<[a-z_][a-z0-9_]*>")  # a form's field as pbem.notation's Template.shape writes it


def _shown_plain(domain: str, text: str, translator) -> str:
    """A text of the notation as a reader of `translator`'s language reads it: each word a term's name, or made of
    terms joined by `-` (`delivery-wheelbarrow`, `mining-6`, `cold-mountain-9`) each named (`_named_parts`); a word
    ending in `:` (a standing order's) keeps it; a form's field (`<amount>`) is named in the game's catalogue
    (context SLOT, from meta.yaml); other words as they are. In the canonical notation's spacing, so
    that it reads back as the same move (pbem.play.words)."""
    shown, before = [], None
    for word in text.split(" "):
        if SLOT_WORD.fullmatch(word):  # a form's field, `<amount>`: its name in the reader's language
            shown.append(f"<{messages.Message(domain, word[1:-1], {}, context=messages.SLOT).render(translator)}>")
            before = None
            continue
        core = word.rstrip(":")
        named = _named_parts(domain, core, translator) if core else core
        if (before, core) in PHRASES and _all_han(shown[-1]) and _all_han(named):
            shown[-1] += named + word[len(core):]  # `至少`, not `至 少`: one word of the language
        else:
            shown.append(named + word[len(core):])
        before = core
    return " ".join(shown)


# Two words of the notation that a language written without spaces names as one word: `at least` is 至少,
# `at most` 至多, `up to` 最多到 in Chinese. Shown joined when both names are Chinese characters (a player may
# type them either way: pbem.play.words cuts a word of Chinese characters at the glossary's words). Kept here,
# not in a glossary, because a move is shown without reading the glossaries' YAML (only the catalogues' names).
PHRASES = {("at", "least"), ("at", "most"), ("up", "to")}


def _all_han(word: str) -> bool:
    return bool(word) and all("\u2e80" <= char <= "\u9fff" or "\uf900" <= char <= "\ufaff" for char in word)


def fold(word: str) -> str:
    """A word as aliases are matched: full-width forms made plain (NFKC), any case, accents off (`enchère`,
    `ENCHERE` and `enchere` are one word)."""
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", word).casefold())
    return unicodedata.normalize("NFC", "".join(c for c in text if not unicodedata.combining(c)))


def aliases(domain: str) -> dict[str, set[str]]:
    """Every word a player may type for a term of `domain`, folded, in any language: {word: the ids it names}
    (more than one: an ambiguous word). The names come from each language's catalogue, the `also` words from the
    glossary."""
    return _aliases(domain)


@functools.lru_cache(maxsize=None)
def _aliases(domain: str) -> dict[str, set[str]]:
    glossary = _read(domain)
    found: dict[str, set[str]] = {}

    def add(word, term_id):
        if word:
            found.setdefault(fold(word), set()).add(term_id)

    for code in language.LANGUAGES:
        if code == language.DEFAULT:
            continue
        translator = language.Translator(code)  # (not the pseudo-locale's, whatever the environment says)
        for item in glossary.terms:
            add(translator.translate(messages.Message(domain, item.id, {}, context=item.context)), item.id)
    for item in glossary.terms:
        for words in item.also.values():
            for word in words:
                add(word, item.id)
    return found
