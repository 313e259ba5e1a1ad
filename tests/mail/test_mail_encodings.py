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


def test_each_language_may_go_in_its_own_shorter_charset():
    from pbem.mail import readers
    from pbem.text import language
    expected = {"en": ("utf-8",), "fr": ("utf-8", "windows-1252"), "zh-Hant": ("utf-8", "big5"),
                "zh-Hans": ("utf-8", "gb18030")}
    for code, charsets in expected.items():
        with language.reading(code):
            assert readers.charsets() == charsets


def test_chinese_goes_in_big5_and_french_in_windows_1252_when_shorter():
    """Big5 writes a Chinese character in two bytes (UTF-8: three), windows-1252 an accented letter in one (two);
    the mail program reads the same words back."""
    for text, charset, encoding in ((CHINESE, "big5", "base64"), (FRENCH, "windows-1252", "quoted-printable")):
        assert encodings.text_form(text, ("utf-8", charset)) == (charset, encoding)
        assert encodings.encoded_size(text, encoding, charset) < encodings.encoded_size(text, encoding, "utf-8")
        msg = compose.message("referee@club.example", "alice@players.example", "[g1] move", text)
        msg.set_content(text, charset=charset, cte=encoding)
        read = email.message_from_bytes(msg.as_bytes(), policy=email.policy.default)
        assert read.get_content_charset() == charset and read.get_content().replace("\r\n", "\n") == text


def test_a_text_with_a_character_its_charset_lacks_or_its_readers_disagree_on_goes_in_utf_8():
    """Python's Big5 writes ／ as A241, which Microsoft's table (cp950), as many mail programs read Big5, reads as ∕;
    windows-1252 has no Chinese."""
    for text, charset in ((CHINESE + "牌堆已抽空：1／3 次。\n", "big5"), (FRENCH + "Joueur : 漢字\n", "windows-1252")):
        assert not encodings.carries(text, charset)
        assert encodings.text_form(text, ("utf-8", charset))[0] == "utf-8"


def test_an_html_part_names_its_charset_and_writes_what_the_charset_lacks_as_references():
    def page(charset):
        return f'<meta charset="{charset}">\n' + "<p>Joueur : éléonore, ou 漢字 ; à vous de jouer</p>\n" * 30
    markup, charset, encoding = encodings.html_part(page, ("utf-8", "windows-1252"))
    assert (charset, encoding) == ("windows-1252", "quoted-printable")
    assert '<meta charset="windows-1252">' in markup and "&#28450;&#23383;" in markup and "éléonore" in markup
    msg = sent("Joueur : éléonore\n", page("utf-8"), ("utf-8", "windows-1252"))
    assert html.unescape(msg.get_body(("html",)).get_content()).replace("\r\n", "\n").split("\n", 1)[1] == \
        page("utf-8").split("\n", 1)[1]


def test_a_mail_with_a_picture_has_short_boundaries_no_part_holds():
    msg = compose.message("referee@club.example", "alice@players.example", "[g1] move", FRENCH)
    msg.add_alternative("<p>=_0k is written here, and =_2k too</p>\n", subtype="html", cte="7bit")
    msg.get_payload()[1].add_related(b"\x89PNG picture", "image", "png", cid="<board.x@club.example>")
    encodings.short_boundaries(msg, "k")
    raw = msg.as_bytes()
    boundaries = [part.get_boundary() for part in msg.walk() if part.is_multipart()]
    assert boundaries == ["=_0k.", "=_2k."]  # (each made longer than "=_0k", "=_2k", which the HTML holds)
    assert raw.count(b"MIME-Version") == 1
    read = email.message_from_bytes(raw, policy=email.policy.default)
    assert [part.get_content_type() for part in read.walk()] == ["multipart/alternative", "text/plain",
                                                                 "multipart/related", "text/html", "image/png"]
    assert read.get_body(("plain",)).get_content().replace("\r\n", "\n") == FRENCH and \
        read.get_body(("html",)).get_content().startswith("<p>=_0k is written here")


def test_quoted_printable_is_not_weighed_when_surely_longer():
    """A Chinese text's quoted-printable is not worked out (it is slow, and three bytes a byte past ASCII already
    lose to base64); a French text's is, and wins."""
    for text, charset in ((CHINESE, "utf-8"), (CHINESE, "big5")):
        assert [encoding for _, _, encoding in encodings.sized(text, charset)] == ["base64"]
        assert encodings.encoded_size(text, "quoted-printable", charset) > encodings.encoded_size(text, "base64",
                                                                                                  charset)
    assert [encoding for _, _, encoding in encodings.sized(FRENCH, "utf-8")] == ["quoted-printable", "base64"]
