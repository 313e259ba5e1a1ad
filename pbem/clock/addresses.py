"""Players' and organisers' addresses: what pbem accepts as one, so that it can stand in a mail header as it is."""
from __future__ import annotations

from ..mail import headers


def is_address(text: str) -> bool:
    """An address the referee can write as it is (ASCII dot-atoms, no quoted local part, no `=?` the email
    package would decode as an encoded word: headers.is_address) within RFC 5321's lengths of a local part and a
    domain."""
    if not isinstance(text, str) or not headers.is_address(text):
        return False
    local, _, domain = text.partition("@")
    return len(local) <= 64 and len(domain) <= 189
