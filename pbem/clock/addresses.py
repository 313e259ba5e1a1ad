"""Players' and organisers' addresses: what pbem accepts as one.

The correspondence records an address with its seat (`pbem new`, `pbem replace`) and the transports write it as it
is: into a mail header (pbem.mail.headers builds its checks on the grammar here) or a git author. So an address is
taken only in the strict form every one of them writes unchanged: RFC 5322's dot-atoms on both sides of the @, no
quoted local part, no `=?` that the email package would decode as an encoded word.
"""
from __future__ import annotations

import re

DOT_ATOMS = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*"  # RFC 5322 dot-atom-text
ADDRESS = re.compile(f"{DOT_ATOMS}@{DOT_ATOMS}")
ENCODED_WORD = "=?"  # what opens an encoded word: never in a value the referee writes


def is_writable(text: str) -> bool:
    """A bare address the referee may write: ASCII dot-atoms (no quoted local part, no encoded word), at most
    254 characters."""
    return len(text) <= 254 and ENCODED_WORD not in text and ADDRESS.fullmatch(text) is not None


def is_address(text: str) -> bool:
    """An address a player or an organiser may give: one the referee can write as it is (`is_writable`) within
    RFC 5321's lengths of a local part and a domain."""
    if not isinstance(text, str) or not is_writable(text):
        return False
    local, _, domain = text.partition("@")
    return len(local) <= 64 and len(domain) <= 189
