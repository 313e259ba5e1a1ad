"""Reading what a player wrote: fields, move lines, quotes, signatures, HTML, attachments, limits."""
from __future__ import annotations

import io
from email.message import EmailMessage

import pytest

from pbem.mail import parse


def mail(body: str, subject: str = "Re: [g7] Coal Baron: move 12, your turn", html: str | None = None,
         headers: dict | None = None) -> bytes:
    msg = EmailMessage()
    msg["From"] = "Alice Example <Alice@Players.Example>"
    msg["To"] = "referee@club.example"
    msg["Subject"] = subject
    msg["Message-ID"] = "<abc@players.example>"
    for key, value in (headers or {}).items():
        msg[key] = value
    if html is not None and not body:
        msg.set_content(html, subtype="html")
    else:
        msg.set_content(body)
        if html is not None:
            msg.add_alternative(html, subtype="html")
    return msg.as_bytes()


def test_fields_and_move_lines():
    got = parse.parse_message(mail("Password: Xy-12_ab\nMove-Number: 12\nplace bank-6\n  mine 3 \n\nend\n"))
    assert got.tags == ["g7"] and got.game_candidates() == ["g7"]
    assert got.password == "Xy-12_ab" and got.move_number == 12
    assert got.lines == ["place bank-6", "mine 3", "end"]
    assert got.sender == "alice@players.example"
    assert got.message_id == "<abc@players.example>" and got.references[-1] == "<abc@players.example>"


def test_game_line_wins_over_the_subject_tag():
    got = parse.parse_message(mail("Game: other-game\npassword: p4ss\npass\n"))
    assert got.game_candidates() == ["other-game", "g7"]


def test_field_spellings():
    got = parse.parse_message(mail("PASSWORD = p4ss\nmove number: #7\nplayer: bob\npass\n"))
    assert (got.password, got.move_number, got.player, got.lines) == ("p4ss", 7, "bob", ["pass"])
    bad = parse.parse_message(mail("Password: p4ss\nMove-Number: seven\npass\n"))
    assert bad.move_number is None and bad.move_number_text == "seven"


@pytest.mark.parametrize("tail", [
    "\nOn Tue, 3 Jan 2026 at 10:00, Referee <referee@club.example> wrote:\n> place bank-6\n> Password: old\n",
    "\nOn Tue, 3 Jan 2026 at 10:00, Referee\n<referee@club.example> wrote:\n\n> place bank-6\n",
    "\n-----Original Message-----\nFrom: referee\nplace bank-6\n",
    "\nFrom: Referee <referee@club.example>\nSent: Tuesday, 3 January 2026 10:00\nTo: Alice\nplace bank-6\n",
    "\n________________________________\nFrom: Referee\nplace bank-6\n",
    "\n-- \nAlice\nplace bank-6 (my signature has moves in it)\n",
    "\n--\nAlice\n",
    "\n> quoted only\n>> deeper\n",
    "\nLe mar. 3 janv. 2026 à 10:00, Referee <referee@club.example> a écrit :\n> pass\n",
])
def test_quoted_text_and_signatures_are_left_out(tail):
    got = parse.parse_message(mail("Password: p4ss\npass\n" + tail))
    assert got.lines == ["pass"]
    assert got.passwords_seen == ["p4ss"]


def test_a_move_below_the_quoted_report_is_read():
    body = ("On Tue, 3 Jan 2026 at 10:00, Referee <referee@club.example> wrote:\n> Move 12: bob played pass.\n"
            "> Password: <your password>\n>\n> place bank-6\n\nPassword: p4ss\nplace mining-6\n> more quote\n"
            "end\n\n-- \nAlice\n")
    got = parse.parse_message(mail(body))
    assert got.password == "p4ss" and got.passwords_seen == ["p4ss"]
    assert got.lines == ["place mining-6", "end"]


def test_html_only_message_is_read_as_text_without_its_quote():
    html = ("<html><head><style>.x{color:red}</style><script>var pass=1;</script></head><body>"
            "<div dir=\"ltr\">Password:&nbsp;p4ss<br>place bank-6<br/>mine&nbsp;3</div>"
            "<div class=\"gmail_quote\"><div>On Tue the referee wrote:</div><blockquote><div>pass</div>"
            "<div>nested <div>divs</div></div></blockquote></div><p>end</p></body></html>")
    got = parse.parse_message(mail("", html=html))
    assert got.password == "p4ss"
    assert got.lines == ["place bank-6", "mine 3", "end"]
    assert any("HTML" in str(note) for note in got.notes)


def test_plain_part_is_preferred_to_html():
    got = parse.parse_message(mail("Password: p4ss\npass\n", html="<p>Password: p4ss</p><p>end</p>"))
    assert got.lines == ["pass"] and got.notes == []


def test_attachments_are_ignored_and_mentioned():
    msg = EmailMessage()
    msg["From"] = "alice@players.example"
    msg["Subject"] = "[g7]"
    msg.set_content("Password: p4ss\npass\n")
    msg.add_attachment(b"%PDF-1.4 ...", maintype="application", subtype="pdf", filename="move.pdf")
    msg.add_attachment("place bank-6\n", filename="moves.txt")
    got = parse.parse_message(msg.as_bytes())
    assert got.lines == ["pass"]
    assert "move.pdf" in str(got.notes[0]) and "moves.txt" in str(got.notes[0])


def test_a_message_over_the_limit_is_not_read_beyond_its_header():
    raw = mail("Password: p4ss\npass\n")
    huge = raw + b"x" * (parse.MAX_MESSAGE_BYTES + 10)
    kept, size = parse.read_limited(io.BytesIO(huge))
    assert size == len(huge) and len(kept) == parse.MAX_MESSAGE_BYTES + 1
    got = parse.parse_message(kept, size)
    assert got.too_large and got.lines == [] and got.password is None and got.tags == ["g7"]


def test_commands():
    assert parse.parse_message(mail("Password: p4ss\n  Status \n")).command == "status"
    assert parse.parse_message(mail("moves\n")).command == "moves"
    assert parse.parse_message(mail("resign\npass\n")).command is None


def test_no_message_id_gets_a_digest_key():
    raw = mail("pass\n").replace(b"Message-ID: <abc@players.example>\n", b"")
    got = parse.parse_message(raw)
    assert not got.has_message_id and got.message_id.startswith("sha256:")
    assert parse.parse_message(raw).message_id == got.message_id


@pytest.mark.parametrize("headers", [{"Auto-Submitted": "auto-replied"}, {"Precedence": "bulk"},
                                     {"X-Autoreply": "yes"}])
def test_automatic_mail_is_recognised(headers):
    assert parse.parse_message(mail("I am on holiday\n", headers=headers)).auto_submitted
    assert not parse.parse_message(mail("pass\n", headers={"Auto-Submitted": "no"})).auto_submitted


def test_garbage_bytes_never_raise():
    for raw in [b"", b"\x00\xff\xfe", b"Subject: =?utf-8?q?broken\n\n\xff", b"From: <<<>>>\n\nhi",
                b"Content-Type: multipart/mixed; boundary=x\n\n--x\nContent-Type: text/plain; charset=bogus\n\n"
                b"pass\n--x--\n"]:
        got = parse.parse_message(raw)
        assert isinstance(got.lines, list)


def test_greeting_and_sign_off_around_the_moves_are_taken_off():
    def is_move(text):
        return text.split()[0] in ("place", "mine", "end", "pass")
    lines = ["Hi referee,", "place bank-6", "mine 3", "Cheers,", "Alice"]
    assert parse.trim_pleasantries(lines, is_move) == (["place bank-6", "mine 3"], ["Hi referee,", "Cheers,", "Alice"])
    # only at the edges: an unreadable line between moves stays, so the turn fails as a whole
    assert parse.trim_pleasantries(["place bank-6", "thanks", "mine 3"], is_move)[0] == ["place bank-6", "thanks",
                                                                                       "mine 3"]
    assert parse.trim_pleasantries(["thanks"], is_move)[0] == ["thanks"]
    assert parse.trim_pleasantries(["place bank-6", "I think this is my best move", "x", "y", "z"], is_move)[0] == \
        ["place bank-6", "I think this is my best move", "x", "y", "z"]
