"""The picture in the mail: the welcome and every mail that asks a player to act gain an HTML alternative with the
picture of their own view as an inline PNG (cid:), after a plain-text part that stays first and complete; the
other reports stay plain text. Opened in headless Chromium with images on and off."""
from __future__ import annotations

import email
import html as html_module
import re
import email.policy
import mailbox

import pytest

from support import NAMES
from pbem.engine import engine
from pbem.mail import compose
from pbem.text import pictures
from picturekit import chromium, colour_share, distinct_colours, page_width, screenshot


@pytest.fixture
def picture_mails(monkeypatch):
    monkeypatch.setenv("PBEM_MAIL_PICTURES", "1")


def outbox_mails(outbox) -> list:
    return [email.message_from_bytes(bytes(m), policy=email.policy.default)
            for m in mailbox.Maildir(outbox, create=False)]


def welcome_game(tmp_path, pbem, *options):
    directory, outbox = tmp_path / "games" / "g1", tmp_path / "outbox"
    args = ["new", "gold-fever", directory, "--seed", "mail-picture", "--organiser", "referee@club.example",
            "--outbox", outbox, *options]
    for name in NAMES[:3]:
        args += ["--player", f"{name}:{name}@club.example"]
    result = pbem(*args)
    assert result.code == 0, result.err
    return directory, outbox_mails(outbox)


def test_a_mail_with_its_picture_keeps_its_plain_text_first_and_complete(tmp_path, pbem, picture_mails):
    directory, mails = welcome_game(tmp_path, pbem)
    assert len(mails) == 3
    for msg in mails:
        assert msg.get_content_type() == "multipart/alternative"
        plain, related = msg.get_payload()
        assert plain.get_content_type() == "text/plain" and "Password:" in plain.get_content()
        html, image = related.get_payload()
        assert related.get_content_type() == "multipart/related"
        assert image.get_content_type() == "image/png" and image.get_content().startswith(b"\x89PNG")
        cid = image["Content-ID"].strip("<>")
        page = html.get_content()
        assert f'src="cid:{cid}"' in page and 'alt="Picture of the position' in page
        # the HTML holds the whole text too, in paragraphs and tables (a reader with images off misses nothing)
        words = html_module.unescape(re.sub(r"<[^>]+>", " ", page.split("<body", 1)[1]))
        said = [word for word in plain.get_content().split() if not re.fullmatch(r"[=-]{3,}", word)]  # (rules)
        assert " ".join(said) in " ".join(words.split())
        assert "<script" not in page and "http" not in page


def test_only_the_mail_that_asks_a_player_to_act_carries_a_picture(tmp_path, pbem, picture_mails):
    directory, _ = welcome_game(tmp_path, pbem, "--notify", "every")  # everyone gets a mail after each move
    gd = engine.open_game(directory)
    to_act = engine.status(gd)["to_act"]
    legal = engine.legal(gd, to_act)
    waiting = next(p for p in gd.players if p != to_act)
    _, body = compose.player_report(gd, to_act, None, legal)
    asking = compose.add_picture(compose.message("referee@club.example", "a@club.example", "s", body),
                                 engine.status(gd, to_act))
    png = asking.get_payload()[1].get_payload()[1].get_content()
    assert png == pictures.mail_picture(engine.status(gd, to_act))[0]  # their own view's picture
    assert compose.pictures_available()
    # after a move, the mover's answer and the waiting players' reports stay plain text: only the one to act
    from pbem.mail.commands import Referee
    from pbem.mail.transport import Outbox
    outbox = tmp_path / "after"
    referee = Referee(directory.parent, Outbox(outbox))
    secrets = {p["name"]: p for p in engine.roster(gd)}
    raw = (f"From: {to_act}@club.example\nTo: referee@club.example\nSubject: [g1] move\n"
           f"Message-ID: <m1@club.example>\n\nPassword: {secrets[to_act]['secret']}\n{legal['moves'][0]}\n").encode()
    assert referee.handle(raw).result == "accepted"
    mails = {m["To"]: m for m in outbox_mails(outbox)}
    now_to_act = engine.status(gd)["to_act"]
    for name in gd.players:
        msg = mails[f"{name}@club.example"]
        assert msg.is_multipart() == (name == now_to_act), name
    assert waiting


@pytest.mark.skipif(chromium() is None, reason="Chromium is not installed (Debian's chromium: "
                    "`.ci/system-setup.sh` installs it); the browser test needs a real browser")
def test_the_html_mail_in_a_browser_with_images_on_and_off(tmp_path, pbem, picture_mails):
    _, mails = welcome_game(tmp_path, pbem)
    html, image = mails[0].get_payload()[1].get_payload()
    cid = image["Content-ID"].strip("<>")
    (tmp_path / "board.png").write_bytes(image.get_content())
    page = tmp_path / "mail.html"  # as a mail program shows it: the cid: reference resolved to the attached image
    page.write_text(html.get_content().replace(f"cid:{cid}", "board.png"))
    shown = screenshot(page, tmp_path / "on.png")
    assert colour_share(shown, pictures.FRAME) > 0.002, "the picture is not shown"
    assert page_width(page) <= 800, "the mail scrolls sideways at 800 pixels"
    blocked = screenshot(page, tmp_path / "off.png", images=False)
    assert colour_share(blocked, pictures.FRAME) == 0 and distinct_colours(blocked) > 2  # the text, no picture
    from picturekit import browse
    dom = browse(page, "--dump-dom", "--window-size=800,1000", images=False)
    assert "Welcome to La Fièvre de l'Or" in dom.replace("&#39;", "'") and "Password:" in dom


HOSTILE = ['<script>alert("x")</script>', "Tom & Jerry's <b>", "{{ title }}", "ünï ✓ 漢字", "", "a\nb"]


@pytest.mark.parametrize("value", HOSTILE)
def test_the_mail_page_is_the_page_jinja2_renders_from_its_template(value):
    """The mail's HTML part fills templates/mail.html without jinja2; it must be exactly what the pages' jinja2
    environment renders from the same template and values (every field escaped, Markup left as it is)."""
    import markupsafe
    values = {"subject": value, "cid": f"board.{value}", "alt": value, "title": value, "status": value,
              "width": 412, "text": markupsafe.Markup(f"<p>{markupsafe.escape(value)}</p>"), "lang": "fr",
              "charset": "windows-1252"}
    expected = pictures.templates().get_template(pictures.MAIL_PAGE).render(**values)
    assert pictures.mail_page(**values) == expected
    assert "<script>" not in pictures.mail_page(**values)


def test_the_style_sheet_is_written_as_it_is_in_the_mail_and_the_pages():
    """A style sheet is not HTML: `&#39;` in it would not read as a quote, and the font it names would be lost."""
    from pbem.text import htmltext
    mail = pictures.mail_page(subject="s", cid="c", alt="a", title="t", status="s", width=1, text="", lang="en",
                              charset="utf-8")
    page = pictures.templates().get_template("page.html").render(lang="en")
    for html in (mail, page):
        assert htmltext.CSS in html and "'DejaVu Sans Mono'" in html and "&#39;" not in html


def test_the_mail_page_template_holds_fields_only():
    """mail.html is filled field by field (pictures.mail_page): a tag or filter of jinja2's would not be run."""
    from pbem.store import packaged
    text = packaged.read_bytes("pbem.text", f"templates/{pictures.MAIL_PAGE}").decode("utf-8")
    assert "{%" not in text and "{#" not in text
    fields = pictures.FIELD.findall(text)
    assert fields and len(re.findall(r"\{\{.*?\}\}", text)) == len(fields)


def test_a_chinese_turn_mail_in_base64_shows_its_tables_as_tables(tmp_path, pbem, picture_mails):
    """A Chinese mail's plain part goes in base64, which keeps the CRLF it was encoded with: its HTML part is read
    from its lines all the same (tables as tables, legal moves as a list), never as one drawing."""
    directory, mails = welcome_game(tmp_path, pbem, "--language", "zh-Hant")
    to_act = next(msg for msg in mails if "你現在的合法走法" in msg.get_body(("plain",)).get_content())
    plain, related = to_act.get_payload()
    assert plain["Content-Transfer-Encoding"] == "base64"
    page = related.get_payload()[0].get_content()
    assert page.count("<table>") >= 2 and "<td><code>" in page  # (a map stays drawn, in its <pre>)
