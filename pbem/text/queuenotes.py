"""What a player is told of their queue when the referee could not play it as written (a step dropped, a queue
stopped, a standing order disarmed): written in English into the queue record (the referee's state and the
player's view keep text, the same in every language), read back here by its template and shown in the reader's
language, its moves in the reader's words (docs/translating.md, "Texts kept in data").

pbem.play.queues and pbem.play.guards write a notice with `written(TEMPLATE, **values)`; `shown(notice, domain)`
renders one. A notice no template reads (a record written by an earlier pbem) is shown as it is.
"""
from __future__ import annotations

import functools
import re

from ..messages import N_, QUEUE_HELP, Domain, Words, _

# TRANSLATORS: a queued step dropped; {next}: the queue word `next`; {steps}: the steps dropped, as written.
ENDED = N_("not played, the turn you wrote it for ended before it (a step for a later turn goes after `{next}`): "
           "{steps}")
# TRANSLATORS: {move}: a queued move the referee played before its player saw the result of the one before it.
BLIND = N_("chosen blind: '{move}' was played as you queued it, before you saw what the move before it showed")
# TRANSLATORS: {word}: the standing order's name; {event}: what disarmed it ("a new shift began"); {order}: the
# order as written.
DISARMED = N_("standing {word} order disarmed ({event}): {order}")
# TRANSLATORS: {step}: the queued step; {decision}: what the decision is; {legal}: the legal moves; {dropped}: the
# steps dropped with it.
STOPPED = N_("your queue stopped at '{step}', not legal now ({decision}; legal: {legal}); dropped: {dropped}")
# TRANSLATORS: {step}: the queued step; {now} and {then}: what the move means now and meant when it was queued (a
# description by the game); {legal}: the legal moves; {dropped}: the steps dropped with it.
SURPRISED = N_("your queue stopped at '{step}': it now means {now}, not {then} as when you queued it (legal: "
               "{legal}); dropped: {dropped}")
TEMPLATES = (ENDED, BLIND, DISARMED, STOPPED, SURPRISED)
# how each value is shown: moves in the reader's words, split at their separator; a text of the game's catalogue
STEPS = {"steps": "; ", "dropped": "; ", "legal": ", ", "move": None, "step": None, "order": None, "word": None}
STORED = {"decision": None, "event": QUEUE_HELP}
MORE = " ..."  # the legal moves listed are cut short


def written(template: str, **values) -> str:
    """A notice as the queue record keeps it: the template's English text with its values."""
    return template.format(**values)


@functools.lru_cache(maxsize=None)
def _reader(template: str) -> re.Pattern:
    """The regular expression that reads a notice written from `template` back into its values."""
    pattern, at = [], 0
    for found in re.finditer(r"\{([a-z]+)\}", template):
        pattern += [re.escape(template[at:found.start()]), f"(?P<{found[1]}>.+?)"]
        at = found.end()
    return re.compile("".join(pattern) + re.escape(template[at:]), re.DOTALL)


def shown(notice: str, domain: str) -> str:
    """A notice in the language being read (`domain`: the game's, whose glossary names its moves)."""
    for template in TEMPLATES:
        found = _reader(template).fullmatch(notice)
        if found is not None:
            values = {name: _value(name, text, domain) for name, text in found.groupdict().items()}
            return _(template, **values)
    return notice


def _value(name: str, text: str, domain: str):
    if name == "next":
        return Words("pbem", text)
    if name in STEPS:
        separator = STEPS[name]
        if separator is None:
            return Words(domain, text)
        more = text.endswith(MORE)
        moves = text[:-len(MORE)] if more else text
        return separator.join(Words(domain, move).render() for move in moves.split(separator)) + (MORE if more
                                                                                                  else "")
    if name in STORED:
        return Domain(domain).stored(text, STORED[name])
    return text
