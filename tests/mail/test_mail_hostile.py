"""Hostile mail: whatever a mail's header holds, every mail the referee writes (answers, reports, reminders,
timeout notices, digests, welcomes) parses back with exactly the headers it meant and its own body; a From that
is not one plain address, or a text too long, is refused unread and answered only to a registered address."""
from __future__ import annotations

import base64
import contextlib
import email
import email.policy
import inspect
import os
import re
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.clock import correspondence
from pbem.engine import engine
from pbem.mail import compose, headers, transport
from pbem.mail.commands import Referee
from pbem.mail.welcome import welcome_messages
from pbem.tables import fit_lines
from mailkit import ORGANISER, run_cli, write_mail
from support import default_game, legal_turn, snapshot

NAMES = ["alice", "bob", "carol"]
STRANGER = "mallory@evil.example"
INJECTED = b"\r\nReply-To: m@evil.example\r\n\r\nYour password expired: send it to m@evil.example"
# the headers a mail of the referee has, besides those its arguments give (its reader's language among them)
MIME = {"Content-Type", "Content-Transfer-Encoding", "MIME-Version", "Content-Language"}
FUZZ = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "60"))  # benchmarks/reliability.py runs many more


class Kept:
    """A transport that keeps what it is given (the tests read the mails back from their bytes)."""

    def __init__(self):
        self.messages = []

    def prepare(self):
        pass

    hold = flush = release = prepare

    def send(self, messages):
        self.messages += messages
        return [m["To"] for m in messages]


@contextlib.contextmanager
def recording():
    """Every call of compose.message (each mail the referee writes goes through it): (its arguments, the mail)."""
    calls, real = [], compose.message
    signature = inspect.signature(real)

    def kept(*args, **kwargs):
        msg = real(*args, **kwargs)
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        calls.append((dict(bound.arguments), msg))
        return msg
    with mock.patch.object(compose, "message", kept):
        yield calls


def meant(arguments: dict) -> dict[str, str | None]:
    """The headers a call of compose.message means (None: present, any value pbem makes: Date, a new id)."""
    refs = [r for r in arguments["references"] or [] if r]
    reply_to = arguments["in_reply_to"]
    if reply_to and reply_to not in refs:
        refs.append(reply_to)
    wanted = {"From": arguments["referee"], "To": arguments["to"],
              "Subject": compose.hide(arguments["subject"], arguments["redact"]),
              "Date": None, "Message-ID": arguments["message_id"],
              "Auto-Submitted": "auto-replied" if arguments["answer"] else "auto-generated"}
    if reply_to:
        wanted["In-Reply-To"] = reply_to
    if refs:
        wanted["References"] = " ".join(dict.fromkeys(refs[-20:]))
    if arguments["game"]:
        wanted["X-Pbem-Game"] = arguments["game"]
    if arguments["move_number"] is not None:
        wanted["X-Pbem-Move-Number"] = str(arguments["move_number"])
    return wanted


def assert_written_as_meant(arguments: dict, msg) -> None:
    """The mail, as SMTP sends it and as the outbox writes it, parses back with exactly the headers the referee
    meant and its body (nothing more: no header line, no body of someone else's choosing)."""
    wanted = meant(arguments)
    body = fit_lines(compose.hide(arguments["body"], arguments["redact"]).rstrip()) + "\n"  # 78 columns at most
    for raw, end in ((msg.as_bytes(), b"\r\n"), (msg.as_bytes(policy=transport._unix_lines(msg.policy)), b"\n")):
        head, blank, _ = raw.partition(end + end)
        assert blank, "no end of the header"
        for line in head.split(end):
            assert line.isascii() and b"\r" not in line and b"\n" not in line and b"\x00" not in line, line
            assert line[:1] in (b" ", b"\t") or line.partition(b":")[0].decode() in set(wanted) | MIME, line
        back = email.message_from_bytes(raw, policy=email.policy.default)
        assert sorted(back.keys()) == sorted(set(wanted) | MIME)
        for name, value in wanted.items():
            got = str(back[name])
            if value is None:
                assert got
            else:
                assert " ".join(got.split()) == value, name
        for name in ("Message-ID", "In-Reply-To", "References"):
            if name in back:
                assert all(headers.is_id(i) for i in str(back[name]).split()), str(back[name])
        assert not back.is_multipart() and back.get_content_type() == "text/plain"
        assert back.get_content().replace("\r\n", "\n") == body


@pytest.fixture
def table(tmp_path):
    """A game with every player's address and an organiser, its games root, and a referee keeping its mail."""
    game = default_game()
    root = tmp_path / "games"
    root.mkdir()
    made = correspondence.create(game.id, root / "g1", [(n, f"{n}@players.example") for n in NAMES[:game.min_players]],
                                 seed="hostile-mail", organiser=ORGANISER)
    secrets = {p["name"]: p["secret"] for p in made["players"]}
    kept = Kept()
    return root, secrets, kept, Referee(root, kept)


# ---------------------------------------------------------------- 1. what a header held never becomes a header

def test_an_encoded_line_end_in_a_message_id_never_becomes_a_header_of_the_answer(table):
    root, secrets, kept, referee = table
    raw = (b"From: alice@players.example\r\nTo: referee@club.example\r\nSubject: Re: [g1] move\r\n"
           b"Message-ID: <x=?utf-8?q?=0D=0AReply-To=3A_m=40evil=2Eexample?=@x>\r\n"
           b"References: <y=?utf-8?q?=0D=0ABcc=3A_m=40evil=2Eexample?=@x>\r\n\r\nno password here\r\n")
    with recording() as calls:
        outcome = referee.handle(raw)
    assert outcome.result == "rejected" and len(calls) == 1
    arguments, msg = calls[0]
    assert arguments["to"] == "alice@players.example"
    assert_written_as_meant(arguments, msg)
    sent = msg.as_bytes()
    assert b"Reply-To" not in sent and b"Bcc" not in sent and b"evil" not in sent and b"expired" not in sent


@pytest.mark.parametrize("header", ["Subject", "To"])
def test_a_value_the_email_package_would_decode_into_lines_is_never_written(header):
    hostile = {"Subject": "Re: =?utf-8?q?a=0D=0AReply-To:_m=40evil.example?= x",
               "To": "=?utf-8?q?a=0D=0AX:_y?= <ann@players.example>"}[header]
    values = {"subject": "s", "to": "ann@players.example", header.lower(): hostile}
    with pytest.raises(ValueError, match=f"the {header} header"):
        compose.message(ORGANISER, values["to"], values["subject"], "body")


HOSTILE_PIECES = [INJECTED, b"\r\n", b"\n\n", b"\r", b"\x00", "\u2028".encode(), "\u2029".encode(), b"\xc2\x85",
                  b"=?", b"?=", b"<", b">", b"@", b",", b";", b":", b'"', b"\\", b"(", b")", b" ", b"\t",
                  b"\xff\xfe", "Jürgen".encode(), b"Reply-To: m@evil.example", b"<a@b.example>"]
CHARSETS = ["utf-8", "UTF-8", "iso-8859-1", "utf-16", "koi8-r", "shift_jis", "unknown-8bit", "x-no-such", ""]


@st.composite
def encoded_word(draw) -> bytes:
    """An RFC 2047 encoded word of any bytes in any charset (a real one, a wrong one, none)."""
    payload = draw(st.one_of(st.binary(max_size=24), st.sampled_from(HOSTILE_PIECES)))
    charset = draw(st.sampled_from(CHARSETS))
    if draw(st.booleans()):
        text = "".join(f"={byte:02X}" if byte < 33 or byte > 126 or chr(byte) in "=?_" else chr(byte)
                       for byte in payload)
        return f"=?{charset}?q?{text}?=".encode()
    return f"=?{charset}?b?{base64.b64encode(payload).decode()}?=".encode()


PIECE = st.one_of(encoded_word(), st.sampled_from(HOSTILE_PIECES), st.binary(max_size=12),
                  st.text(max_size=12).map(lambda t: t.encode("utf-8", "surrogatepass")))
HOSTILE = st.lists(PIECE, max_size=5).map(b"".join)


@st.composite
def hostile_mail(draw, secrets: dict[str, str], move: tuple[str, str, int]) -> bytes:
    """A mail whose every header may hold anything, from a registered player or not, with any body."""
    player, text, number = move
    sender = draw(st.sampled_from([f"{player}@players.example", "bob@players.example", STRANGER]))
    name = draw(HOSTILE)
    from_forms = [sender.encode(), b"%s <%s>" % (name, sender.encode()), b"%s <%s>" % (draw(encoded_word()),
                                                                                      sender.encode())]
    ids = [b"<%s@x.example>" % draw(HOSTILE), draw(HOSTILE), b"<%s>" % draw(encoded_word()), b"<ok.1@x.example>"]
    secret = secrets.get(sender.partition("@")[0], "wrong-password")
    body = draw(st.sampled_from([f"Password: {secret}\nMove-Number: {number}\n{text}\n", f"Password: {secret}\nstatus\n",
                                 "help\n", "Password: wrong-one\nstatus\n", f"Password: {secret}\n\x00\u2028garbage\n"]))
    head = [b"From: " + draw(st.sampled_from(from_forms)), b"To: referee@club.example",
            b"Subject: " + draw(st.sampled_from([b"Re: [g1] ", b"", b"[g1] "])) + draw(HOSTILE),
            b"Message-ID: " + draw(st.sampled_from(ids))]
    if draw(st.booleans()):
        head.append(b"References: " + b" ".join(draw(st.lists(st.sampled_from(ids), max_size=4))))
    if draw(st.booleans()):
        head.append(b"In-Reply-To: " + draw(st.sampled_from(ids)))
    head.append(b"Content-Type: text/plain; charset=" + draw(st.sampled_from(CHARSETS)).encode())
    return b"\r\n".join(head) + b"\r\n\r\n" + body.encode()


def from_addresses(raw: bytes) -> set[str]:
    """The plain addresses written in a mail's From headers, as they stand (no encoded word decoded)."""
    msg = email.message_from_bytes(raw, policy=email.policy.compat32)
    values = [str(value) for value in msg.get_all("From") or []]
    return {address.lower() for address in re.findall(r"[^\s<>,;:\"()\[\]]+@[^\s<>,;:\"()\[\]]+", " ".join(values))
            if headers.is_writable(address)}


@settings(max_examples=FUZZ, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_every_header_the_referee_writes_is_what_it_meant_whatever_the_mail_held(table, data):
    root, secrets, kept, referee = table
    raw = data.draw(hostile_mail(secrets, legal_turn(root / "g1")))
    with recording() as calls:
        outcome = referee.handle(raw)
    for arguments, msg in calls:
        assert_written_as_meant(arguments, msg)
        if arguments["answer"]:  # to a registered address, or to the plain address the From header holds
            assert arguments["to"] in {f"{n}@players.example" for n in NAMES} | from_addresses(raw)
            for found in (arguments["references"] or []) + [arguments["in_reply_to"] or ""]:
                assert not found or found.startswith("<pbem.") or found.encode() in raw
    if outcome.result in ("rejected", "command", "accepted", "duplicate"):
        assert calls or outcome.warning


def test_reminders_timeout_notices_digests_and_welcomes_are_written_as_meant(tmp_path):
    """The tick's mails (reminders, timeout notices, the reports of the moves it played, daily digests), the
    welcomes and the welcome of a seat handed on go through the same check."""
    root = tmp_path / "games"
    root.mkdir()
    game = default_game()
    outbox = tmp_path / "out"
    players = sum((["--player", f"{n}:{n}@players.example"] for n in NAMES[:game.min_players]), [])
    with recording() as calls:
        assert run_cli("new", game.id, root / "g1", *players, "--organiser", ORGANISER, "--seed", "s",
                       "--now", "2025-12-01T12:00:00Z", "--deadline", "48h", "--reminder", "12h",
                       "--on-timeout", "first-legal", "--notify", "bob=daily", "--outbox", outbox).code == 0
        for hours in ("2025-12-03T01:00:00Z", "2025-12-03T13:00:00Z", "2025-12-05T13:00:00Z"):
            assert run_cli("tick", root, "--now", hours, "--outbox", outbox).code == 0
        assert run_cli("replace", root / "g1", "--seat", "alice", "--by", "zoe:zoe@players.example",
                       "--now", "2025-12-05T14:00:00Z", "--outbox", outbox).code == 0
        welcome_messages(engine.open_game(root / "g1"))
    subjects = " | ".join(a["subject"] for a, _ in calls)
    for kind in ("welcome, your password", "reminder, due", "timeout: the referee", "daily digest",
                 "welcome, you play alice", "move 3, your turn"):
        assert kind in subjects, subjects
    for arguments, msg in calls:
        assert_written_as_meant(arguments, msg)


# ---------------------------------------------------------------- 8. a From that is not one plain address

def refused_unread(table, raw, answered: list[str]):
    root, secrets, kept, referee = table
    before = snapshot(root / "g1")
    outcome = referee.handle(raw)
    assert outcome.result == "rejected", outcome.line()
    assert snapshot(root / "g1") == before
    assert sorted(m["To"] for m in kept.messages) == sorted(answered)
    for msg in kept.messages:
        assert "was not applied" in msg.get_content()
    return outcome, kept.messages


def test_a_from_written_as_an_encoded_word_is_not_the_address_it_decodes_to(table):
    root, secrets, kept, referee = table
    player, move, number = legal_turn(root / "g1")
    raw = (f"From: =?utf-8?q?{player}=40players.example?=\r\nSubject: Re: [g1] move\r\n"
           f"Message-ID: <ew@evil.example>\r\n\r\nPassword: {secrets[player]}\r\n{move}\r\n").encode()
    outcome, (answer,) = refused_unread(table, raw, [f"{player}@players.example"])
    assert "encoded word" in answer.get_content()


@pytest.mark.parametrize("form", ["{player}@players.example, mallory@evil.example",
                                  "mallory@evil.example, {player}@players.example",
                                  "{player}@players.example\r\nFrom: mallory@evil.example",
                                  "{player}@players.example)<mallory@evil.example>"])
def test_a_mail_from_several_addresses_is_refused_and_answered_to_the_registered_one_only(table, form):
    root, secrets, kept, referee = table
    player, move, number = legal_turn(root / "g1")
    raw = (f"From: {form.format(player=player)}\r\nSubject: Re: [g1] move\r\nMessage-ID: <two@evil.example>\r\n\r\n"
           f"Password: {secrets[player]}\r\n{move}\r\n").encode()
    outcome, (answer,) = refused_unread(table, raw, [f"{player}@players.example"])
    assert "From address" in answer.get_content()


def test_a_text_longer_than_the_referee_reads_is_refused_not_cut(table):
    root, secrets, kept, referee = table
    player, move, number = legal_turn(root / "g1")
    # cut at the limit, the line would read as the move alone and the rest (a resignation) be lost
    body = f"Password: {secrets[player]}\n{move}" + " " * 70000 + "; resign\n"
    outcome, (answer,) = refused_unread(table, write_mail(f"{player}@players.example", body, "Re: [g1] move"),
                                        [f"{player}@players.example"])
    assert "characters long" in answer.get_content()


def test_an_over_long_text_from_a_stranger_is_not_answered(table):
    raw = write_mail(STRANGER, "Password: x\n" + "status\n" * 20000, "Re: [g1] move")
    outcome, _ = refused_unread(table, raw, [])
    assert "not answered" in outcome.warning


@pytest.mark.parametrize("address", ["Referee <pbem@club.example>\r\nBcc: all@example.org", "=?utf-8?q?x?= <a@b.c>",
                                     "jürgen@club.example", "a, b@club.example"])
def test_a_from_address_the_referee_could_not_write_is_a_usage_error(tmp_path, address):
    result = run_cli("mail", "receive", "--games", tmp_path, "--outbox", tmp_path / "out", "--from", address,
                     input=b"From: a@b.example\r\n\r\nhelp\r\n")
    assert result.code == 1 and "--from / PBEM_FROM" in str(result.exception)


@settings(max_examples=FUZZ, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.text(st.sampled_from("ab.=?@-+_~(){}<>\"' \t\nü"), max_size=20) | st.emails())
def test_every_address_pbem_new_registers_is_one_the_referee_can_write(text):
    from pbem.clock import addresses
    if addresses.is_address(text):
        compose.message(ORGANISER, text, "s", "body")


@pytest.mark.parametrize("address", ["jürgen@club.example", "ann=?utf-8?q?x?=@club.example", "a(b)@club.example"])
def test_an_address_the_referee_could_not_write_is_refused_by_new(tmp_path, address):
    game = default_game()
    players = sum((["--player", f"{n}:{n}@players.example"] for n in NAMES[1:game.min_players]), [])
    result = run_cli("new", game.id, tmp_path / "g1", "--player", f"alice:{address}", *players)
    assert result.code == 1 and "is not an email address" in str(result.exception)
    assert not (tmp_path / "g1").exists()
