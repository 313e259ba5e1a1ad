"""How a mail's text parts travel: the shortest Content-Transfer-Encoding that carries them whole (a turn mail must
fit a phone: docs/performance.md, "The mail a phone can carry").

7bit when the text may go as it is (ASCII, no line over 900 characters, no control character);
otherwise the shorter of quoted-printable and base64 of its UTF-8. Quoted-printable suits a text mostly in Latin
letters (an accent costs six bytes, an `=` three); base64 costs a third more than the bytes whatever they are, so
it suits a text mostly of other scripts (a Chinese character: three bytes of UTF-8, nine in quoted-printable, four
in base64). Never 8bit: a mail server without 8BITMIME may refuse or mangle it.

An HTML part may also be written in ASCII: each other character as a character reference (`&#233;`), which a
browser reads as the character itself; taken when it is the shortest way and its lines are short enough for 7bit
(pbem.text.htmltext breaks its lines between rows and paragraphs)."""
from __future__ import annotations

import re
from email import quoprimime

LONGEST = 998  # RFC 5322 2.1.1: a line's characters, without its line end (the encoded lines' length: compose.POLICY)
SEVEN_BIT = 900  # the longest line sent as it is: a margin under LONGEST, as the referee's mails always kept
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")  # never raw in a 7bit body


def as_it_is(text: str) -> bool:
    """May `text` go as 7bit, byte for byte?"""
    return text.isascii() and not CONTROL.search(text) and all(len(line) <= SEVEN_BIT for line in text.split("\n"))


def encoded_size(text: str, encoding: str) -> int:
    """The bytes of `text` (UTF-8, its lines ended by CRLF as on the wire) in a transfer encoding, as the email
    package writes it (lines of 998 at most)."""
    data, lines = text.encode("utf-8"), text.count("\n")
    if encoding == "7bit":
        return len(data) + lines
    if encoding == "base64":  # the line ends are encoded with the text, and the encoded lines are 996 long
        characters = (len(data) + lines + 2) // 3 * 4
        return characters + 2 * (characters // (LONGEST - LONGEST % 4) + 1)
    encoded = quoprimime.body_encode(data.decode("latin-1"), LONGEST)
    return len(encoded) + encoded.count("\n")


def transfer_encoding(text: str) -> str:
    """The Content-Transfer-Encoding a text part is sent in: 7bit if it may be, else the shorter of the other two."""
    if as_it_is(text):
        return "7bit"
    return min(("quoted-printable", "base64"), key=lambda encoding: encoded_size(text, encoding))


def html_part(markup: str) -> tuple[str, str]:
    """An HTML part's markup and its Content-Transfer-Encoding, the shortest of: in ASCII with character
    references, as 7bit; or as it is, in quoted-printable or base64. (A reference reads as its character in text
    and attributes, not in a style sheet: the mail's, pbem.text.htmltext.CSS, is ASCII.)"""
    ascii_markup = markup.encode("ascii", "xmlcharrefreplace").decode("ascii")
    encoding = transfer_encoding(markup)
    if as_it_is(ascii_markup) and len(ascii_markup) <= encoded_size(markup, encoding):
        return ascii_markup, "7bit"
    return markup, encoding
