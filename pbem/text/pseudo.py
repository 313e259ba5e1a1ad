"""The pseudo-locale, for tests only (pbem.text.language.PSEUDO, chosen by PBEM_PSEUDO_LOCALE=1): every message
rendered marked, ⟦ and ⟧ around its text with its letters accented, made from the msgid at run time; and the check
that a text a player reads is made only of such messages, names and numbers, so a string that escaped the
catalogues is found by the suite, not by a player.
"""
from __future__ import annotations

import re

import _string

from .. import messages

OPEN, CLOSE = "⟦", "⟧"
PLAIN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
ACCENTED = "áƀçďéƒĝĥíĵķĺɱñóþǫŕšţúṽŵẋýžÁƁÇĎÉƑĜĤÍĴĶĹṀÑÓÞǪŔŠŢÚṼŴẊÝŽ"
_ACCENTS = str.maketrans(PLAIN, ACCENTED)


def accented(template: str) -> str:
    """The template's letters accented, its placeholders kept as they are (so they are filled as in English)."""
    out = []
    for literal, name, spec, conversion in _string.formatter_parser(template):
        out.append(literal.translate(_ACCENTS).replace("{", "{{").replace("}", "}}"))
        if name is not None:
            out.append("{" + name + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "") + "}")
    return "".join(out)


class PseudoTranslator:
    """Every domain, every message: the English form chosen by the count, accented and marked."""

    code = "qps-ploc"

    def translate(self, message: messages.Message) -> str:
        template = messages.english_form(message)
        return f"{OPEN}{accented(template)}{CLOSE}" if template.strip() else template

    def words(self, domain: str, text: str) -> str:
        from .glossary import shown_words
        return shown_words(domain, text, self)


WORD = re.compile(r"[^\W_](?:[\w.:/+'-]*[^\W_])?")
NUMBER = re.compile(r"[\d.,:/+-]+")
DRAWN = re.compile(r"([A-Za-z])\1*")  # one Latin letter, maybe repeated: a coordinate, a mark, a drawn edge
IDENTIFIER = re.compile(r"[A-Za-z]{1,3}\d[A-Za-z\d]*")  # a card o07, a tile t26: a name, not a word to translate


def outside_marks(text: str) -> tuple[list[str], list[int]]:
    """Each line of `text` with its marked messages blanked out (a message may span lines, and hold others), and
    the line numbers where a mark is unbalanced."""
    depth, kept, broken, line = 0, [], [], 1
    for char in text:
        if char == OPEN:
            depth += 1
            kept.append(" ")
        elif char == CLOSE:
            if depth == 0:
                broken.append(line)
            depth = max(depth - 1, 0)
            kept.append(" ")
        elif char == "\n":
            line += 1
            kept.append(char)
        else:
            kept.append(char if depth == 0 else " ")
    if depth:
        broken.append(line)
    return "".join(kept).split("\n"), broken


def unmarked(text: str, names=()) -> list[str]:
    """The lines of `text` that hold anything but marked messages, `names` (player names, game ids …), identifiers
    with a digit (o07), numbers, a drawing's letters (a grid's column letter, an edge drawn XXXX), spaces and
    punctuation: each as `line N: <the line>  [the words found]`. [] when the text is clean."""
    known = {name.lower() for name in names}
    lines, broken = outside_marks(text)
    original = text.split("\n")
    found = [f"line {n}: {original[n - 1]!r}  [unbalanced marks]" for n in sorted(set(broken))]
    for number, rest in enumerate(lines, 1):
        words = [word for word in WORD.findall(rest) if not (NUMBER.fullmatch(word) or IDENTIFIER.fullmatch(word)
                 or DRAWN.fullmatch(word)) and word.lower() not in known]
        if words:
            found.append(f"line {number}: {original[number - 1]!r}  {words}")
    return found
