"""How a mail's text parts travel: the shortest charset and Content-Transfer-Encoding that carry them whole (a turn
mail must fit a phone: docs/performance.md, "The mail a phone can carry").

7bit when the text may go as it is (ASCII, no line over 900 characters, no control character); otherwise the
shortest of quoted-printable and base64 of the text in each charset its reader's mail programs read: UTF-8, and the
one of the reader's language that writes its letters in fewer bytes (pbem.mail.readers.charsets: Big5 writes a
Chinese character in two bytes where UTF-8 takes three; windows-1252 an accented letter in one where UTF-8 takes
two). Quoted-printable suits a text mostly in Latin letters (a byte past ASCII costs three, an `=` three); base64
costs a third more than the bytes whatever they are, so it suits a text mostly of other scripts. Never 8bit: a mail
server without 8BITMIME may refuse or mangle it.

An HTML part may also be written in ASCII: each other character as a character reference (`&#233;`), which a
browser reads as the character itself; taken when it is the shortest way and its lines are short enough for 7bit
(pbem.text.htmltext breaks its lines between rows and paragraphs). In another charset, an HTML part's characters
that the charset lacks are written so too.

A multipart mail's boundaries are short (the email package's are 39 characters, written twice a part and once
more in a header), and its parts do without a MIME-Version of their own (RFC 2045 4: the mail's is enough)."""
from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from email import quoprimime
from email.message import EmailMessage

LONGEST = 998  # RFC 5322 2.1.1: a line's characters, without its line end (the encoded lines' length: compose.POLICY)
SEVEN_BIT = 900  # the longest line sent as it is: a margin under LONGEST, as the referee's mails always kept
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")  # never raw in a 7bit body
ESCAPED = bytes(range(128, 256)) + b"="  # what quoted-printable writes in three bytes (with a line's end spaces)
# Mail programs read Big5 by Microsoft's table (cp950) or Hong Kong's (browsers, WHATWG's Encoding Standard): a text
# goes in Big5 only when both read back its every character, which Python's codec writes by the standard's table
# (it writes ／ where cp950 reads ∕)
READ_AS = {"big5": ("cp950", "big5hkscs")}


def as_it_is(text: str) -> bool:
    """May `text` go as 7bit, byte for byte?"""
    return text.isascii() and not CONTROL.search(text) and all(len(line) <= SEVEN_BIT for line in text.split("\n"))


def carries(text: str, charset: str) -> bool:
    """Does `charset` carry `text` whole: every character written, and read back the same by every mail program?"""
    try:
        data = text.encode(charset)
        return all(data.decode(reader) == text for reader in READ_AS.get(charset, ()))
    except (UnicodeEncodeError, UnicodeDecodeError):
        return False


def encoded_size(text: str, encoding: str, charset: str = "utf-8") -> int:
    """The bytes of `text` (in `charset`, its lines ended by CRLF as on the wire) in a transfer encoding, as the
    email package writes it (lines of 998 at most)."""
    data, lines = text.encode(charset), text.count("\n")
    if encoding == "7bit":
        return len(data) + lines
    if encoding == "base64":  # the line ends are encoded with the text, and the encoded lines are 996 long
        characters = (len(data) + lines + 2) // 3 * 4
        return characters + 2 * (characters // (LONGEST - LONGEST % 4) + 1)
    encoded = quoprimime.body_encode(data.decode("latin-1"), LONGEST)
    return len(encoded) + encoded.count("\n")


def text_form(text: str, charsets: tuple[str, ...] = ("utf-8",)) -> tuple[str, str]:
    """The charset and Content-Transfer-Encoding a text part is sent in: 7bit (as UTF-8, which ASCII is) if it may
    be, else the shortest of the others in `charsets` (the first, UTF-8, carries any text; a tie goes to it)."""
    if as_it_is(text):
        return "utf-8", "7bit"
    forms = [form for charset in charsets if carries(text, charset) for form in sized(text, charset)]
    return min(forms, key=lambda form: form[0])[1:]


def sized(text: str, charset: str) -> list[tuple[int, str, str]]:
    """(size, charset, encoding) of `text` in `charset` in base64, and in quoted-printable unless that is surely
    longer: at least three bytes for each byte past ASCII and each `=` (counting them is quick, encoding it is not:
    a Chinese text need not be)."""
    data, base64 = text.encode(charset), encoded_size(text, "base64", charset)
    forms = [(base64, charset, "base64")]
    if len(data) + 2 * (len(data) - len(data.translate(None, ESCAPED))) <= base64:
        forms.insert(0, (encoded_size(text, "quoted-printable", charset), charset, "quoted-printable"))
    return forms


def html_part(page: Callable[[str], str], charsets: tuple[str, ...] = ("utf-8",)) -> tuple[str, str, str]:
    """An HTML part's markup, charset and Content-Transfer-Encoding, the shortest of: in ASCII with character
    references, as 7bit; or in one of `charsets`, in quoted-printable or base64. `page` writes the markup for a
    charset (which its <meta> names). (A reference reads as its character in text and attributes, not in a style
    sheet: the mail's, pbem.text.htmltext.CSS, is ASCII.)"""
    return min(html_forms(page, charsets), key=lambda form: form[0])[1:]


def html_forms(page: Callable[[str], str], charsets: tuple[str, ...]) -> Iterator[tuple[int, str, str, str]]:
    """Each way to send an HTML part: (its size as sent, markup, charset, encoding)."""
    ascii_markup = page(charsets[0]).encode("ascii", "xmlcharrefreplace").decode("ascii")
    if as_it_is(ascii_markup):
        yield encoded_size(ascii_markup, "7bit"), ascii_markup, charsets[0], "7bit"
    for charset in charsets:
        markup = page(charset)
        markup = markup.encode(charset, "xmlcharrefreplace").decode(charset)  # what it lacks, as references
        if carries(markup, charset):
            yield from ((size, markup, charset, encoding) for size, charset, encoding in sized(markup, charset))


def short_boundaries(msg: EmailMessage, key: str) -> EmailMessage:
    """`msg` with a short boundary for each multipart in it, made from `key` (the same for a mail made again), each
    led by `=_`, which neither quoted-printable nor base64 writes (and a part holding it anyway has a longer one),
    none the start of another; and without its parts' own MIME-Version."""
    for number, part in enumerate(msg.walk()):
        if part is not msg:
            del part["MIME-Version"]
        if part.is_multipart():
            inside = "".join(str(leaf.get_payload()) + "".join(map(str, leaf.values()))
                             for leaf in part.walk() if not leaf.is_multipart())
            boundary = f"=_{number}{key}"
            while boundary in inside:
                boundary += "."
            part.set_boundary(boundary)
    return msg
