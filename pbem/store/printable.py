"""Text a player will read that comes from a file a club wrote (a game's components): printable characters only.

Refused, wherever a string (or a mapping's key) holds one:

- the control characters, C0 (U+0000 to U+001F), DEL and C1 (U+007F to U+009F): a terminal obeys an escape
  sequence, and XML, so a picture's SVG, cannot hold most of them;
- the surrogates (U+D800 to U+DFFF): no character on their own, and UTF-8 cannot write one;
- the noncharacters (U+FFFE, U+FFFF, the same two at the end of every plane, U+FDD0 to U+FDEF): Unicode keeps them
  out of text that is exchanged, and XML refuses the first two;
- the line and paragraph separators (U+2028, U+2029): a line break in the middle of a report's line;
- the bidirectional controls (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069): they reorder the text
  around them as it is shown, so a name could show as another.
"""
from __future__ import annotations

import re

NONCHARACTERS = "\ufdd0-\ufdef" + "".join(chr(plane | 0xfffe) + chr(plane | 0xffff)
                                         for plane in range(0, 0x110000, 0x10000))
KINDS = (("\x00-\x1f\x7f-\x9f", "a control character"), ("\ud800-\udfff", "a surrogate"),
         (NONCHARACTERS, "a noncharacter"), ("\u2028\u2029", "a line or paragraph separator"),
         ("\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069", "a bidirectional control"))
UNPRINTABLE = "[" + "".join(chars for chars, _ in KINDS) + "]"  # compiled at its first use (not a mail's)


def kind(char: str) -> str:
    return next(words for chars, words in KINDS if re.fullmatch(f"[{chars}]", char))


def problems(data, path: str = "$") -> list[str]:
    """Each string or key of `data` (YAML's plain data) holding a character a player must not be shown, by its
    JSON path, with the character: `$.towns[0].name holds U+001B, a control character`."""
    found = []
    if isinstance(data, dict):
        for key, value in data.items():
            named = isinstance(key, str) and not re.search(UNPRINTABLE, key)
            found += problems(key, f"a key of {path}") + problems(value, f"{path}.{key}" if named else f"{path}[?]")
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found += problems(value, f"{path}[{index}]")
    elif isinstance(data, str):
        match = re.search(UNPRINTABLE, data)
        if match:
            found.append(f"{path} holds U+{ord(match.group()):04X}, {kind(match.group())}")
    return found
