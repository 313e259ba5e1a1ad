"""A mail's text parts travel in the shortest charset and transfer encoding that carry them whole
(pbem.mail.encodings): 7bit when they may, else quoted-printable for a text mostly in Latin letters and base64 for
one mostly in Chinese, in UTF-8 or the reader's language's own charset when that is shorter (Big5 for Traditional
Chinese); an HTML part in ASCII with character references when that is shortest. Whatever the form, the reader's
mail program decodes the same words."""
from __future__ import annotations

import email
import email.policy
import html

from pbem.mail import compose, encodings
from pbem.text import htmltext

ENGLISH = "Coal Baron — game g1 — move 140\n" + "Move 139: dave played end.\n" * 20
FRENCH = "Coal Baron — partie g1 — coup 140\n" + "Coup 139 : dave a joué end.\n" * 20
CHINESE = "煤炭大亨 — 棋局 g1 — 第 140 步\n" + "第 139 步：dave 下了 end。\n" * 20


def sent(text: str, markup: str | None = None, charsets: tuple[str, ...] = ("utf-8",)) -> email.message.EmailMessage:
    """A mail as the referee writes it (its text, and an HTML part when given, in `charsets`), read back by a mail
    program."""
    msg = compose.message("referee@club.example", "alice@players.example", "[g1] move", text)
    if markup is not None:
        markup, charset, encoding = encodings.html_part(lambda charset: markup, charsets)
        msg.add_alternative(markup, subtype="html", charset=charset, cte=encoding)
    return email.message_from_bytes(msg.as_bytes().replace(b"\r\n", b"\n"), policy=email.policy.default)


def transfer_encoding(text: str) -> str:
    return encodings.text_form(text)[1]


def test_a_text_goes_as_it_is_when_it_may():
    assert transfer_encoding("Move 1: bob played pass.\n") == "7bit"
    assert transfer_encoding("a bell \x07 rings\n") == "quoted-printable"  # a control character
    assert transfer_encoding("x" * 901 + "\n") == "quoted-printable"  # a line too long
    assert transfer_encoding("x" * 900 + "\n") == "7bit"


def test_latin_letters_go_quoted_printable_and_chinese_in_base64():
    """(A text thick with accents, a French word in three, would go in base64 too: it is the shorter then.)"""
    assert transfer_encoding(ENGLISH) == "quoted-printable"
    assert transfer_encoding(FRENCH) == "quoted-printable"
    assert transfer_encoding(CHINESE) == "base64"
    for text in (ENGLISH, FRENCH, CHINESE):  # the one chosen is the shorter, as the email package writes it
        sizes = {cte: len(sent_part(text, cte)) for cte in ("quoted-printable", "base64")}
        assert sizes[transfer_encoding(text)] == min(sizes.values()), sizes
        assert encodings.encoded_size(text, "base64") == sizes["base64"]
        assert encodings.encoded_size(text, "quoted-printable") == sizes["quoted-printable"]


def sent_part(text: str, cte: str) -> bytes:
    msg = email.message.EmailMessage(policy=compose.POLICY)
    msg.set_content(text, charset="utf-8", cte=cte)
    return msg.as_bytes().split(b"\r\n\r\n", 1)[1]


def test_every_mail_program_reads_the_same_words_in_each_encoding():
    for text in (ENGLISH, FRENCH, CHINESE):
        msg = sent(text, f"<p>{htmltext.body(text)}</p>")
        plain, page = msg.get_body(("plain",)), msg.get_body(("html",))
        # (a mail's lines end in CRLF on the wire: a base64 part's decoded text keeps them)
        assert plain.get_content().replace("\r\n", "\n") == text
        assert html.unescape(page.get_content()).replace("\r\n", "\n") == f"<p>{htmltext.body(text)}</p>\n"
    chinese = sent(CHINESE, htmltext.body(CHINESE))
    assert chinese.get_body(("plain",))["Content-Transfer-Encoding"] == "base64"
    assert chinese.get_body(("html",))["Content-Transfer-Encoding"] == "base64"


def test_an_html_part_in_latin_letters_goes_in_ascii_with_character_references():
    markup = "<h3>Coal Baron — game g1</h3>\n" + htmltext.body("player  VP\n------  --\nalice   16\nbob     18\n")
    written, charset, encoding = encodings.html_part(lambda charset: markup)
    assert encoding == "7bit" and "&#8212;" in written and written.isascii()
    assert html.unescape(written) == html.unescape(markup)
    assert len(written) < encodings.encoded_size(markup, "quoted-printable")
    assert htmltext.CSS.isascii()  # a style sheet reads no character reference: the mail's must need none


def test_an_html_part_with_a_long_line_is_not_sent_as_it_is():
    markup = "<p>" + "a word " * 200 + "—</p>"  # one line of 1,400 characters
    written, charset, encoding = encodings.html_part(lambda charset: markup)
    assert encoding == "quoted-printable" and written == markup


def test_a_report_table_writes_a_row_a_line():
    """A long table stays in short lines, which is what lets the HTML part go as 7bit."""
    rows = "\n".join(f"space-{i:03}  -  {i}" for i in range(200))
    page = htmltext.body("space      w  n\n---------  -  -\n" + rows)
    assert max(len(line) for line in page.split("\n")) < 100
    assert encodings.html_part(lambda charset: page)[2] == "7bit"
