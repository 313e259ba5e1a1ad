"""The header registry that parses and folds each header once (pbem.mail.headers) writes and reads mail exactly as
the email package's own does."""
from __future__ import annotations

import email
import email.policy
import re
import string
from email.message import EmailMessage

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.clock.addresses import DOT_ATOMS
from pbem.mail import compose, parse, transport
from pbem.mail import headers as registry

STOCK = email.policy.SMTP.clone(max_line_length=998)
TEXT = st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=120)

# The ids are built from text pieces, not drawn with st.from_regex: the regex strategies (and the filter that kept
# one id of SHORT_IDS) cost seconds of generation for a fraction of a second of mail written, and made this the
# longest test of the suite. The same sets of strings come out.
ATEXT = string.ascii_letters + string.digits + "!#$%&'*+/=?^_`{|}~-"  # RFC 5322's atext, as SHORT_IDS takes it
ATOMS = st.lists(st.text(ATEXT, min_size=1), min_size=1).map(".".join)
WELL_FORMED_ID = st.builds("<{}@{}>".format, ATOMS, ATOMS)  # one id of SHORT_IDS, written as it is
PRINTABLE_ASCII = "".join(map(chr, range(0x21, 0x7F)))
# any printable ASCII but angle brackets on the left: ids the email package parses (or refuses, as `<:@a>`)
LOOSE_ID = st.builds("<{}@{}>".format, st.text(PRINTABLE_ASCII.replace("<", "").replace(">", ""), min_size=1,
                                               max_size=20), st.text(string.ascii_lowercase, min_size=1, max_size=9))
GAME_TAG = st.text(string.ascii_lowercase + string.digits + "-", min_size=1, max_size=30)


def written(policy, headers: list[tuple[str, str]], body: str) -> list[bytes]:
    msg = EmailMessage(policy=policy)
    for name, value in headers:
        msg[name] = value
    msg.set_content(body)
    return [msg.as_bytes(), msg.as_bytes(policy=transport._unix_lines(policy))]


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(subject=TEXT, name=TEXT, game=GAME_TAG, references=st.lists(st.one_of(WELL_FORMED_ID, LOOSE_ID), max_size=25))
def test_a_mail_is_written_byte_for_byte_as_the_email_package_writes_it(subject, name, game, references):
    subject = " ".join(subject.split())
    sender = email.utils.formataddr((" ".join(name.split()), "referee@club.example"))
    headers = [("From", sender), ("To", "ann@players.example"), ("Subject", subject), ("X-Pbem-Game", game),
               ("Date", "Mon, 30 Nov 2026 09:00:00 GMT")]
    headers.append(("Message-ID", references[0] if references else "<only@club.example>"))
    if references:
        headers += [("In-Reply-To", references[-1]), ("References", " ".join(references))]
    try:
        expected = written(STOCK, headers, "Move 3.\n")
    except Exception:  # noqa: BLE001 — an id the email package cannot parse (`<:@a>`): not written by the referee
        return
    assert written(compose.POLICY, headers, "Move 3.\n") == expected
    assert written(compose.POLICY, headers, "Move 3.\n") == expected  # again: from the parsed and folded headers kept


def test_the_ids_drawn_are_every_well_formed_id_the_registry_writes_as_it_is():
    """ATEXT is exactly the characters of SHORT_IDS' dot-atoms, so the ids drawn cover what the regex takes."""
    assert [c for c in PRINTABLE_ASCII if re.fullmatch(DOT_ATOMS, c)] == sorted(ATEXT)
    for value in ("<a@b>", "<a.b.c@d.e>", "<" + ATEXT + "@" + ATEXT + ">"):
        assert registry.SHORT_IDS.fullmatch(value)
    for value in ("<a..b@c>", "<.a@b>", "<a@b.>", "<a b@c>", "<a@b> <c@d>x"):
        assert not registry.SHORT_IDS.fullmatch(value)


def seen(msg, header: str):
    """A header's value as read, or the kind of error reading it raises (the email package's own bugs, such as on
    a From of `. <address>`, included)."""
    try:
        return str(msg[header])
    except Exception as exc:  # noqa: BLE001
        return type(exc)


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(subject=TEXT, sender=TEXT)
def test_a_message_is_read_as_the_email_package_reads_it(subject, sender):
    raw = (f"From: {' '.join(sender.split())} <ann@players.example>\nSubject: {' '.join(subject.split())}\n"
           f"Content-Type: text/plain; charset=utf-8\n\nPassword: x\n").encode("utf-8", "surrogateescape")
    for _ in range(2):
        mine = email.message_from_bytes(raw, policy=parse.READING)
        stock = email.message_from_bytes(raw, policy=email.policy.default)
        for header in ("From", "Subject", "Content-Type"):
            assert seen(mine, header) == seen(stock, header)
        assert mine.get_content_type() == stock.get_content_type()


def test_a_short_list_of_well_formed_ids_is_taken_as_it_is_and_anything_else_parsed():
    factory = compose.POLICY.header_factory
    assert isinstance(factory("Message-ID", "<1.2@club.example>"), registry._Ids)
    assert isinstance(factory("References", "<a@b.example> <c@d.example>"), registry._Ids)
    assert not isinstance(factory("References", "<:@a>"), registry._Ids)  # parsed (and refused) as before
    assert not isinstance(factory("Subject", "<1.2@club.example>"), registry._Ids)


def test_a_long_hostile_header_is_parsed_but_never_kept():
    value = "x" * 5000
    assert parse.READING.header_factory("Subject", value) is not parse.READING.header_factory("Subject", value)
    assert parse.READING.header_factory("Subject", "short") is parse.READING.header_factory("Subject", "short")
