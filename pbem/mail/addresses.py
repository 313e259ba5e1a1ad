"""Players' and organisers' addresses: what pbem accepts as one, so that it can stand in a mail header as it is."""
from __future__ import annotations

import re

# no space, control character, quote or list separator; the lengths of RFC 5321's local part and domain
EMAIL_PATTERN = re.compile(r'[^@\s\x00-\x1f\x7f<>,;"]{1,64}@[^@\s\x00-\x1f\x7f<>,;"]{1,189}')


def is_address(text: str) -> bool:
    return isinstance(text, str) and EMAIL_PATTERN.fullmatch(text) is not None
