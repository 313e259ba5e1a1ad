"""Moves in the player's words: a submission's items written with the glossaries' words (`placer extraction-6`,
`放置 礦場-6`, `enchère 2`, `sinon`, `si`) read into the canonical notation (`place mining-6`), which is all that
the log, the signatures, the queues and `verify` ever hold: one table may mix languages.

An item that reads in the canonical notation is taken as it is (no glossary is read: an English move costs
nothing more). Otherwise each word is looked up among the aliases of the game's glossary and pbem's own (every
language's names and `also` words, matched in any case and without accents; an id made of terms joined by `-`
part by part; a French elision, `jusqu'à`, as its two words), and the item is read again. A word that names two
things (in two languages, or two terms) gives two readings; when both read as moves, the item is refused with the
candidates listed.

Chinese is written without spaces: a word in Chinese characters is cut at the glossary's words (the longest
first) and at a number after them, so `出價2` reads as `出價 2` and `放置礦場-6` as `放置 礦場-6`. Full-width
letters, digits and punctuation (`２`, `；`, an ideographic space) read as their plain forms.
"""
from __future__ import annotations

import itertools

from ..contract import PbemError
from ..messages import Words, lazy
from ..notation import plain, tokens_of
from . import plans
from .turns import RESIGN

MAX_READINGS = 64  # readings of one item tried (a word of two meanings doubles them)


def canonical_texts(game, texts: list[str], players: list[str]) -> list[str]:
    """Each item of a submission in the canonical notation (as sent when it reads so already)."""
    return [canonical(game, text, players) for text in texts]


def canonical(game, text: str, players: list[str]) -> str:
    """One item in the canonical notation; as it is when it reads so already or no reading of its words does
    (its error is then the usual one, in the player's own words); PbemError when two readings do. Full-width
    forms are read as plain ones first (pbem.notation.plain), so what it returns is always in plain forms."""
    text = plain(text)
    if _reads(game, text, players):
        return text
    from ..text import glossary
    index = _index(game.package)
    words = [piece for word in tokens_of(text) for elided in unelided(word, index)
             for piece in segment(elided, index)]
    choices = [_readings(word, index, glossary.fold) for word in words]
    readings = []
    for combination in itertools.islice(itertools.product(*choices), MAX_READINGS):
        candidate = " ".join(combination)
        if candidate not in readings and _reads(game, candidate, players):
            readings.append(candidate)
    if len(readings) > 1:
        raise PbemError(lazy("{text}: these words name more than one thing; write one of: {readings}",
                             text=repr(text), readings=[Words(game.package, reading) for reading in readings]))
    return readings[0] if readings else text


def _reads(game, text: str, players: list[str]) -> bool:
    """Does the text read as an item of a submission, or as `resign`?"""
    return " ".join(tokens_of(text)) == RESIGN or plans.reads_as_item(game, text, players)


def _index(package: str) -> dict[str, set[str]]:
    from ..text import glossary
    merged = {word: set(ids) for word, ids in glossary.aliases("pbem").items()}
    for word, ids in glossary.aliases(package).items():
        merged.setdefault(word, set()).update(ids)
    return merged


def _readings(word: str, index: dict[str, set[str]], fold) -> list[str]:
    """The canonical words `word` may stand for: the ids of the alias it is, else, between its `-`, the ids of the
    longest run of parts that is an alias (`filles-de-saloon-1`, `冷山-9`) or the part itself; a `:` at its end (a
    standing order's word) is kept."""
    core = word.rstrip(":")
    end = word[len(core):]
    parts, runs, at = core.split("-"), [], 0
    while at < len(parts):
        stop = next((stop for stop in range(len(parts), at, -1) if fold("-".join(parts[at:stop])) in index), None)
        runs.append(sorted(index[fold("-".join(parts[at:stop]))]) if stop else [parts[at]])
        at = stop or at + 1
    return ["-".join(found) + end for found in itertools.product(*runs)]


def unelided(word: str, index: dict[str, set[str]]) -> list[str]:
    """A French elision written as the player writes it (`jusqu'à`, `jusqu’à`): the word before the apostrophe
    and the word after, when the glossary knows the first (`jusqu`) and not the whole."""
    from ..text.glossary import fold
    head, mark, tail = word.replace("\u2019", "'").partition("'")
    if mark and tail and fold(head) in index and fold(word) not in index:
        return [head, tail]
    return [word]


def _is_han(char: str) -> bool:
    return "\u2e80" <= char <= "\u9fff" or "\uf900" <= char <= "\ufaff" or "\U00020000" <= char <= "\U0003134f"


def segment(word: str, index: dict[str, set[str]]) -> list[str]:
    """A word written without spaces cut at the glossary's words in Chinese characters (longest first): a piece
    ends after such a word unless a `-` joins it to what follows, and starts before it unless one joins it to what
    precedes. A word without Chinese characters, or one the glossary knows whole, is left as it is."""
    from ..text.glossary import fold
    if not any(_is_han(char) for char in word) or fold(word) in index:
        return [word]
    if word.endswith(":"):  # a standing order's word keeps its colon
        *pieces, last = segment(word[:-1], index)
        return [*pieces, last + ":"]
    longest = max((len(key) for key in index if any(_is_han(c) for c in key)), default=0)
    pieces, current, at = [], "", 0
    while at < len(word):
        size = next((size for size in range(min(longest, len(word) - at), 0, -1)
                     if _is_han(word[at]) and fold(word[at:at + size]) in index), 0)
        if not size:
            current, at = current + word[at], at + 1
            continue
        if current and not current.endswith("-"):
            pieces.append(current)
            current = ""
        current, at = current + word[at:at + size], at + size
        if at < len(word) and word[at] != "-":
            pieces.append(current)
            current = ""
    return pieces + ([current] if current else [])
