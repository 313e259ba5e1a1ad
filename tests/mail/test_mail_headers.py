"""The header registry that parses and folds each header once (pbem.mail.headers) writes and reads mail exactly as
the email package's own does."""
from __future__ import annotations

import email
import email.policy
from email.message import EmailMessage

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.mail import compose, parse, transport
from pbem.mail import headers as registry

STOCK = email.policy.SMTP.clone(max_line_length=998)
TEXT = st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=120)


def written(policy, headers: list[tuple[str, str]], body: str) -> list[bytes]:
    msg = EmailMessage(policy=policy)
    for name, value in headers:
        msg[name] = value
    msg.set_content(body)
    return [msg.as_bytes(), msg.as_bytes(policy=transport._unix_lines(policy))]


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(subject=TEXT, name=TEXT, game=st.from_regex(r"[a-z0-9-]{1,30}", fullmatch=True),
       references=st.lists(st.one_of(st.from_regex(registry.SHORT_IDS, fullmatch=True).filter(lambda i: " " not in i),
                                     st.from_regex(r"<[!-;=?-~]{1,20}@[a-z]{1,9}>", fullmatch=True)), max_size=25))
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
