"""Messages a player reads, marked for translation: the kit's half of pbem's languages (docs/translating.md).

A message is a whole sentence with named placeholders, `{name}` as in str.format, its English text the msgid
itself. Each package that writes messages has a domain (its own catalogue): `pbem` for pbem's shared messages, a
game's package name for its own (a plug-in game ships its catalogues in `locale/` beside its meta.yaml).

    from pbem.messages import Domain
    T = Domain("coal_baron")
    _, ngettext, pgettext = T.gettext, T.ngettext, T.pgettext

    _("Shift {shift} of {shifts}", shift=2, shifts=3)          # a str, in the language being read
    ngettext("{count} cart", "{count} carts", n, count=n)      # gettext chooses the plural form
    pgettext("space", "bank")                                  # a context: one English word, two meanings
    T.lazy("{step} is not legal now", step=name)               # a Message: rendered later, by its reader

The eager markers (`gettext`, `ngettext`, `pgettext`, `npgettext`) render at once in the language a transport
chose for the message's reader (pbem.text.language sets it; none set: English). The lazy ones (`lazy`,
`nlazy`, `plazy`) make a Message, which renders when it is turned into text: a refusal raised deep in the engine
carries one (PbemError.message) to the edge, where each reader gets it in their language. `N_` and `NP_` only
mark a msgid (a table of phrases, a reason the log stores) for a later `gettext(variable)`.

No catalogue and nothing of gettext is imported here: English is the msgid, rendered by this module alone, so an
English run of pbem never loads a catalogue. A translation that cannot be filled (a placeholder it names that the
message does not have, a broken format) is not used: the English text stands in for that message.
"""
from __future__ import annotations

import contextvars

import _string

TERM = "term:"  # the catalogue context of a glossary term is TERM + its kind (pbem.text.glossary)
# the catalogue contexts of a game's meta.yaml texts (pbem.text.catalogues.extract_meta): a queue form's help, the
# name of a field of a form (`<amount>` of `bid <amount>`)
QUEUE_HELP, SLOT = "queue help", "slot"
OPTION_HELP = "option help"  # the context of what a game's option does (meta.yaml `options:`, `pbem games`)
PUBLIC_MOVE = "public move"  # the context of a hidden move as the public log shows it (meta.yaml notation `public`)
# The translator of the reader now being written to (pbem.text.language.Translator), or None: English.
_reader: contextvars.ContextVar = contextvars.ContextVar("pbem_reader", default=None)


def current():
    """The translator in use (None: English)."""
    return _reader.get()


def use(translator) -> contextvars.Token:
    """Render every message from now on with `translator` (None: English); reset with the token returned."""
    return _reader.set(translator)


def restore(token: contextvars.Token) -> None:
    _reader.reset(token)


class Message:
    """A translatable message not yet rendered: its domain, context, English singular (the msgid) and plural, the
    count that chooses between them, and its parameters (str, int, a Message, Words, or a list of them)."""

    __slots__ = ("domain", "context", "singular", "plural", "count", "params")

    def __init__(self, domain: str, singular: str, params: dict, context: str | None = None,
                 plural: str | None = None, count: int | None = None):
        self.domain, self.singular, self.params = domain, singular, params
        self.context, self.plural, self.count = context, plural, count

    def render(self, translator=None) -> str:
        """The text in the language of `translator` (default: the one in use)."""
        return _render(self, translator if translator is not None else _reader.get())

    def english(self) -> str:
        return _render(self, None)

    def __str__(self) -> str:
        return self.render()

    def __repr__(self) -> str:
        return f"Message({self.english()!r})"

    def __eq__(self, other) -> bool:
        return isinstance(other, Message) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key()[:4])

    def _key(self):
        return self.domain, self.context, self.singular, self.plural, self.count, sorted(self.params.items(), key=str)


class Words:
    """A move (or any text of the notation) as a message's parameter: the canonical words in English, the
    reader's words in another language (`placer extraction-6`), from the glossaries of pbem and of `domain`."""

    __slots__ = ("domain", "text")

    def __init__(self, domain: str, text: str):
        self.domain, self.text = domain, text

    def render(self, translator=None) -> str:
        translator = translator if translator is not None else _reader.get()
        return translator.words(self.domain, self.text) if translator is not None else self.text

    def __str__(self) -> str:
        return self.render()

    def __repr__(self) -> str:
        return f"Words({self.text!r})"


def english_form(message: Message) -> str:
    """The English text with its placeholders, singular or plural by the count (English: one is singular)."""
    if message.plural is None or message.count == 1:
        return message.singular
    return message.plural


def _render(message: Message, translator) -> str:
    params = message.params
    if translator is not None:
        template = translator.translate(message)
        if template is not None:
            try:
                return fill(template, params, translator)
            except (KeyError, ValueError, TypeError, IndexError):
                pass  # a translation that does not fit its message: the English text stands in
    return fill(english_form(message), params, translator)


def _shown(value, translator):
    if isinstance(value, (str, int)):
        return value
    if isinstance(value, Message):
        return value.render(translator) if translator is not None else value.english()
    if isinstance(value, Words):
        return translator.words(value.domain, value.text) if translator is not None else value.text
    if hasattr(value, "render_for"):  # a value said in its reader's language (pbem.text.language.When: a date)
        return value.render_for(translator)
    if isinstance(value, (list, tuple)):
        sep = _render(Message("pbem", LIST_SEPARATOR, {}, context="list separator"), translator)
        return sep.join(str(_shown(item, translator)) for item in value)
    return value


def joined(items) -> str:
    """Items one after the other as the language being read lists them (`a, b, c`; `a、b、c`)."""
    return _shown(list(items), _reader.get())


def fill(template: str, params: dict, translator=None) -> str:
    """`template` with its `{name}` placeholders (a format spec allowed, `{count:>3}`) filled from `params`; no
    attribute, index or conversion is read (a catalogue is data, never code). KeyError for a name `params` does not
    have, ValueError for a broken template."""
    if "{" not in template and "}" not in template:
        return template
    out = []
    for literal, name, spec, conversion in _string.formatter_parser(template):
        out.append(literal)
        if name is None:
            continue
        if conversion or not name.isidentifier():
            raise ValueError(f"placeholder {name!r}: only plain names are allowed")
        value = _shown(params[name], translator)
        text = format(value, spec) if spec else str(value)
        elide = getattr(translator, "elide", None)
        out.append(text if elide is None else elide(out, text))
    return "".join(out)


def placeholders(template: str) -> set[str]:
    """The names of a template's placeholders (ValueError when it does not parse)."""
    return {name for _, name, _, _ in _string.formatter_parser(template) if name is not None}


class Domain:
    """The markers of one catalogue (`pbem`, or a game's package name): eager, lazy and no-op."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    # eager: a str in the language being read now
    def gettext(self, msgid: str, /, **params) -> str:
        return _render(Message(self.name, msgid, params), _reader.get())

    def ngettext(self, singular: str, plural: str, count: int, /, **params) -> str:
        return _render(Message(self.name, singular, params, plural=plural, count=count), _reader.get())

    def pgettext(self, context: str, msgid: str, /, **params) -> str:
        return _render(Message(self.name, msgid, params, context=context), _reader.get())

    def npgettext(self, context: str, singular: str, plural: str, count: int, /, **params) -> str:
        return _render(Message(self.name, singular, params, context, plural, count), _reader.get())

    # not markers (their msgids are extracted where they were written, or from the glossary)
    def stored(self, text: str, context: str | None = None) -> str:
        """A text kept in English in data (a log entry's reason, what a decision is in public.yaml, a title in
        meta.yaml), marked with N_/NP_ where it was written, in the language being read."""
        return _render(Message(self.name, text, {}, context=context), _reader.get())

    # the glossary's words (pbem.text.glossary): not markers, the glossary is extracted on its own
    def term(self, kind: str, word: str) -> str:
        """The name of a glossary term of this domain in the language being read (its id in English)."""
        return _render(Message(self.name, word, {}, context=TERM + kind), _reader.get())

    def words(self, text: str) -> str:
        """A text of the notation (a move, a space's id) in the reader's words."""
        return Words(self.name, text).render()

    # lazy: a Message, rendered where its reader is known
    def lazy(self, msgid: str, /, **params) -> Message:
        return Message(self.name, msgid, params)

    def nlazy(self, singular: str, plural: str, count: int, /, **params) -> Message:
        return Message(self.name, singular, params, plural=plural, count=count)

    def plazy(self, context: str, msgid: str, /, **params) -> Message:
        return Message(self.name, msgid, params, context=context)


def N_(msgid: str) -> str:
    """Marks a msgid for extraction only (translated later with gettext(value))."""
    return msgid


def NP_(context: str, msgid: str) -> str:
    """Marks a msgid with its context for extraction only (translated later with pgettext(context, value))."""
    return msgid


LIST_SEPARATOR = NP_("list separator", ", ")  # between the items of a list given as a parameter
PBEM = Domain("pbem")  # pbem's own messages (pbem/text/locale)
_ = gettext = PBEM.gettext
ngettext, pgettext, npgettext = PBEM.ngettext, PBEM.pgettext, PBEM.npgettext
lazy, nlazy, plazy = PBEM.lazy, PBEM.nlazy, PBEM.plazy
