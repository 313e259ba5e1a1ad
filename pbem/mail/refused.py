"""A refusal of the engine as the mail's answer says it: without the legal moves the refusal lists on one line
(the answer lists them one a line, with what each does), in any language.

The engine's refusal of an illegal move ends with its sentence of the legal moves (`... Legal now: {legal}.`,
pbem.play.refusals), as a placeholder `legal` of its Message. That sentence is found by its placeholder, not by its
English words: the refusal is rendered with a mark in the place of the list, and cut from the end of the sentence
before the mark to the end of the sentence that holds it. What closes a marked message after it (the
pseudo-locale's ⟧) is kept."""
from __future__ import annotations

import re

from ..contract import PbemError
from ..messages import Message

LEGAL = "legal"  # the placeholder of the legal moves in the engine's refusals
MARK = "\ue000"  # a private-use character: no message holds it
SENTENCE_END = r"[.!?。！？]"  # (compiled at their first use: most batches refuse no move)
CLOSING = r"^[^\w\n]*?[.!?。！？]"  # the legal moves' own sentence end, after the list


def without_legal(error: PbemError) -> str:
    """`error` in the language being read, without the sentence that lists the legal moves (when it has one)."""
    if error.message is None:  # a plain English text
        return re.sub(r"\. Legal(?: now)?: .*$", ".", str(error), flags=re.DOTALL)
    marked, found = _marked(error.message)
    if not found:
        return error.render()
    text = marked.render()
    at = text.find(MARK)
    ends = [m.end() for m in re.finditer(SENTENCE_END, text[:at])]
    if at < 0 or not ends:
        return error.render()
    after = text[at + len(MARK):]
    closing = re.match(CLOSING, after)
    return text[:ends[-1]] + (after[closing.end():] if closing else after).rstrip(" ")


def _marked(message: Message) -> tuple[Message, bool]:
    """A copy of `message` with its (or a message inside it's) `legal` placeholder the MARK; whether it had one."""
    found, params = False, {}
    for name, value in message.params.items():
        if name == LEGAL:
            params[name], found = MARK, True
        elif isinstance(value, Message):
            params[name], inner = _marked(value)
            found = found or inner
        else:
            params[name] = value
    return Message(message.domain, message.singular, params, message.context, message.plural, message.count), found
