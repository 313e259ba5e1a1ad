"""Reading a player's mail: which game, who, which move number, and the move lines — nothing else.

A player answers the last report with their move, above or below the quoted report. What counts is what they
wrote themselves: quoted text (`>` lines and their "On ... wrote:" line, an unmarked "Original Message" or Outlook
From:/Sent: block and everything below it), signatures (everything after a `-- ` line) and attachments are left
out; an HTML-only message is turned into text first (its blockquotes left out).

The message's own lines, in any order:

    Game: g1                 (or a `[g1]` tag in the subject)
    Password: s3cret         (the player's password; never echoed)
    Move-Number: 17          (optional: the move this answers; a stale move is refused)
    Player: alice            (optional: only needed when two players share one address)
    place bank-6             (the move lines: several lines make one turn)
    mine 3

or one command instead of moves: `status`, `moves`, `help` or `resign`; or `vacation FROM TO`, `vacation cancel`,
`notify every|turn|daily`, `pictures on|off`, `language CODE` (deadlines and mail preferences:
pbem.clock.correspondence).
"""
from __future__ import annotations

import email
import email.policy
import email.utils
import re
from dataclasses import dataclass, field

from .. import digests
from ..messages import Message, lazy, nlazy
from . import headers
from .headers import Headers

MAX_MESSAGE_BYTES = 2 * 1024 * 1024  # a move by mail is a few lines; anything this large is refused unread
MAX_BODY_CHARS = 64 * 1024            # of the player's own text (quotes and signature aside): more is refused
MAX_MOVE_LINES = 200
# the email package's default policy, each header value parsed once per batch (headers.py)
READING = email.policy.default.clone(header_factory=Headers())
COMMANDS = ("status", "moves", "help", "resign", "takeback", "agree", "decline")
ADMIN_COMMANDS = ("vacation", "notify", "pictures", "language")  # commands with words after them

TAG = re.compile(r"\[([A-Za-z0-9][A-Za-z0-9_-]{0,63})\]")
FIELD_LINE = re.compile(r"^\s*(game|password|passwd|move[- _]?number|move[- _]?no|player)\s*[:=]\s*(.*?)\s*$",
                        re.IGNORECASE)
# "On <date>, <someone> wrote:" introduces `>`-quoted text; the player may write above it or below it
ATTRIBUTION = re.compile(r"^\s*(on\b.{0,300}\bwrote:?|le\b.{0,300}\ba écrit\s*:?|am\b.{0,300}\bschrieb.{0,40}:?)\s*$",
                         re.IGNORECASE)
# these introduce the original message without `>` marks: everything below them is someone else's text
ORIGINAL = re.compile(r"^\s*(-{2,}\s*(original message|forwarded message|message d'origine|ursprüngliche nachricht)"
                      r"\s*-{2,}|_{10,}|begin forwarded message:?)\s*$", re.IGNORECASE)
OUTLOOK_HEADER = re.compile(r"^\s*(from|von|de)\s*:\s*\S.*$", re.IGNORECASE)
OUTLOOK_NEXT = r"(?i)^\s*(sent|date|gesendet|envoyé|to|an|à|subject|betreff|objet)\s*:"  # compiled at its first use


@dataclass
class Incoming:
    """What a message says, as far as the referee cares."""

    message_id: str               # the Message-ID, or a digest of the message when it has none
    sender: str                   # the bare From address, lower-cased ('' when there is none or it is refused)
    subject: str                  # plain text (headers.plain): safe to show in a header
    references: list[str]         # the message's References plus its own Message-ID, to thread the reply
    has_message_id: bool = True
    tags: list[str] = field(default_factory=list)  # [id] tags of the subject, in order
    game: str | None = None       # from a Game: line
    password: str | None = None
    passwords_seen: list[str] = field(default_factory=list)  # every Password: value (to keep them out of replies)
    move_number: int | None = None
    move_number_text: str | None = None  # a Move-Number: line that is not a number
    player: str | None = None
    lines: list[str] = field(default_factory=list)  # the move lines (or one command)
    notes: list[Message] = field(default_factory=list)  # what was left out (attachments, HTML), told to the player
    size: int = 0
    too_large: bool = False
    auto_submitted: bool = False  # a bounce or an autoreply: never answered (no mail loops)
    # a mail refused before anything in it is read (a From that names no one address plainly, a text too long):
    # why, and every address the From could be read as (answered only where one is a player's registered address)
    refusal: Message | None = None
    claimed: list[str] = field(default_factory=list)

    @property
    def command(self) -> str | None:
        words = [" ".join(line.lower().split()) for line in self.lines]
        return words[0] if len(words) == 1 and words[0] in COMMANDS else None

    @property
    def admin(self) -> tuple[str, list[str]] | None:
        """A command with arguments (`vacation 2025-12-24 2025-12-31`, `notify daily`): (its word, the rest)."""
        if len(self.lines) != 1:
            return None
        words = self.lines[0].lower().split()
        return (words[0], words[1:]) if words and words[0] in ADMIN_COMMANDS else None

    def game_candidates(self) -> list[str]:
        """The Game: line first (it is explicit), then the subject's tags."""
        found = [self.game] if self.game else []
        return found + [tag.lower() for tag in self.tags if tag.lower() not in found]


GREETING = re.compile(r"^(hi|hello|hey|dear|good (morning|afternoon|evening)|bonjour|salut|hallo|moin|hola|ciao)\b",
                      re.IGNORECASE)
SIGN_OFF = (r"(?i)^(thanks|thank you|thx|cheers|regards|best|kind regards|best regards|all the best|greetings|"
            r"yours|sincerely|cordialement|merci|amitiés|bien à vous|gruß|grüße|viele grüße|mfg|lg|ciao|"
            r"bye|sent from my)\b")  # compiled at its first use: the lines after a move


def trim_pleasantries(lines: list[str], is_move) -> tuple[list[str], list[str]]:
    """Move lines without a greeting before them ("Hi referee,") and a sign-off after them ("Cheers, / Alice"),
    which players write even without a signature delimiter. Only lines that are not moves are taken off, and
    only at the edges: an unreadable line between moves still makes the mail fail (a turn is all or nothing).
    Returns (the move lines, what was taken off)."""
    dropped = []
    while lines and GREETING.match(lines[0]) and not is_move(lines[0]):
        dropped.append(lines[0])
        lines = lines[1:]
    for index, line in enumerate(lines):
        if index > 0 and re.match(SIGN_OFF, line) and len(lines) - index <= 4 \
                and not any(is_move(rest) for rest in lines[index:]):
            dropped += lines[index:]
            lines = lines[:index]
            break
    return lines, dropped


def message_key(raw: bytes, message_id: str | None) -> str:
    return message_id if message_id else "sha256:" + digests.sha256(raw).hexdigest()


def read_limited(stream, limit: int = MAX_MESSAGE_BYTES) -> tuple[bytes, int]:
    """Read a message from a stream, keeping at most `limit` bytes but draining the rest (an MTA's pipe must be
    read to its end). Returns (the kept bytes, the full size)."""
    kept = stream.read(limit + 1)
    size = len(kept)
    while True:
        chunk = stream.read(1 << 20)
        if not chunk:
            break
        size += len(chunk)
    return kept[:limit + 1], size


def header_text(msg, name: str) -> str:
    try:
        value = msg.get(name)
    except Exception:  # a header the email package cannot decode: read it raw
        value = None
        for key, raw in msg.raw_items():
            if key.lower() == name.lower():
                value = raw
                break
    if value is None:
        return ""
    return " ".join(str(value).split())


def raw_values(msg, name: str) -> list[str]:
    """A header's values as the mail holds them, encoded words undecoded (folding undone)."""
    return [" ".join(str(raw).split()) for key, raw in msg.raw_items() if key.lower() == name.lower()]


def _decoded_addresses(msg) -> list[str] | None:
    """The From addresses as the email package reads them (encoded words decoded, as many mail programs show
    them); None when it cannot read them."""
    try:
        return [(a.username + (f"@{a.domain}" if a.domain else "")).lower() for a in msg["From"].addresses]
    except Exception:  # noqa: BLE001 — the email package's own errors on odd headers (`. <a@b>`)
        return None


def _sender(msg) -> tuple[str, str | None, list[str]]:
    """(the bare From address, why the mail is refused, every address the From could be read as).

    The address is read from the header's raw text, never from decoded encoded words: `=?utf-8?q?ben=40...?=`
    is not ben's address, though the email package reads it so. A From must name exactly one address, once, and
    read the same with encoded words decoded or not; otherwise the mail is refused unread (and answered only to
    a registered address among those it could be read as: never to a stranger it names)."""
    values = raw_values(msg, "From")
    pairs = email.utils.getaddresses(values)
    raw = [addr.strip().lower() for _, addr in pairs if addr.strip()]
    decoded = _decoded_addresses(msg) if values else []
    claimed = list(dict.fromkeys(raw + [a for a in decoded or [] if "@" in a]))
    if len(values) > 1 or len(pairs) > 1:
        count = max(len(values), len(raw))
        return "", nlazy("the mail has {count} From address; the referee reads mail from one address only (the one "
                         "you registered).", "the mail has {count} From addresses; the referee reads mail from one "
                         "address only (the one you registered).", count, count=count), claimed
    if not raw:
        return "", None, claimed
    if headers.ENCODED_WORD in raw[0] or (decoded is not None and decoded != raw):
        return "", lazy("the From address is written as an encoded word (or reads differently decoded); the referee "
                        "reads only a plain address. Write from the address you registered."), claimed
    return (raw[0] if headers.is_writable(raw[0]) else ""), None, claimed
def parse_message(raw: bytes, size: int | None = None) -> Incoming:
    """Everything the referee needs from one RFC 5322 message (never raises for a malformed one)."""
    size = len(raw) if size is None else size
    too_large = size > MAX_MESSAGE_BYTES
    if too_large:  # only the header is read: it says whom to answer and which game it was about
        end = raw.find(b"\r\n\r\n")
        end = raw.find(b"\n\n") if end < 0 else end
        raw = raw[:end if end >= 0 else 64 * 1024] + b"\n\n"
    msg = email.message_from_bytes(raw, policy=READING)
    # ids from the raw text, strict (headers.ids): written back into the answer, they must be what they say
    ids = [found for value in raw_values(msg, "Message-ID") for found in headers.ids(value)]
    message_id = ids[0] if ids else None
    sender, refusal, claimed = _sender(msg)
    references = [found for value in raw_values(msg, "References") for found in headers.ids(value)] \
        or [found for value in raw_values(msg, "In-Reply-To") for found in headers.ids(value)]
    if message_id:
        references = [r for r in references if r != message_id] + [message_id]
    subject = headers.plain(header_text(msg, "Subject"))
    auto = header_text(msg, "Auto-Submitted").lower()
    incoming = Incoming(message_id=message_key(raw, message_id), has_message_id=bool(message_id), sender=sender,
                        subject=subject, references=references[-20:], tags=TAG.findall(subject), size=size,
                        too_large=too_large, refusal=refusal, claimed=claimed,
                        auto_submitted=(bool(auto) and auto != "no") or bool(header_text(msg, "X-Autoreply"))
                        or header_text(msg, "Precedence").lower() in ("bulk", "junk", "list")
                        or any(a.startswith(("mailer-daemon@", "postmaster@")) for a in claimed))
    if too_large or refusal:
        return incoming
    text = own_text(body_text(msg, incoming.notes))
    if len(text) > MAX_BODY_CHARS:
        incoming.refusal = lazy("your own text (quotes and signature aside) is {count} characters long; the referee "
                                "reads at most {most}, so none of it was read. A move is a few lines: send them "
                                "alone.", count=f"{len(text):,}", most=f"{MAX_BODY_CHARS:,}")
        return incoming
    _read_lines(text, incoming)
    return incoming


# ---------------------------------------------------------------- the body

def _is_attachment(part) -> bool:
    disposition = (part.get_content_disposition() or "").lower()
    return disposition == "attachment" or (disposition == "inline" and bool(part.get_filename()))


def _decoded(part) -> str:
    try:
        return part.get_content()
    except Exception:  # an unknown charset or a broken transfer encoding: decode what can be decoded
        payload = part.get_payload(decode=True) or b""
        return payload.decode("utf-8", errors="replace")


def body_text(msg, notes: list) -> str:
    """The message's text: its first plain-text part; an HTML part turned into text when there is no plain one."""
    plain, htmls, skipped = [], [], []
    for part in msg.walk():
        if part.is_multipart():
            continue
        if _is_attachment(part):
            skipped.append(part.get_filename() or part.get_content_type())
            continue
        kind = part.get_content_type()
        if kind == "text/plain":
            plain.append(part)
        elif kind == "text/html":
            htmls.append(part)
        elif part.get_content_maintype() != "multipart":
            skipped.append(part.get_filename() or kind)
    if skipped:
        names = ", ".join(str(s)[:60] for s in skipped[:5]) + (" ..." if len(skipped) > 5 else "")
        # TRANSLATORS: {names}: the attachments' file names (or types), as the mail gave them.
        notes.append(nlazy("ignored attachment: {names} (moves are read from the text only)",
                           "ignored attachments: {names} (moves are read from the text only)", len(skipped),
                           names=names))
    if plain:
        return "\n".join(_decoded(part) for part in plain[:1])
    if htmls:
        notes.append(lazy("the message had no plain text, so its HTML was read as text"))
        from .htmlmail import html_to_text  # here: few mails are HTML alone, and html.parser is not small
        return html_to_text(_decoded(htmls[0]))
    return ""


def own_text(text: str) -> str:
    """The player's own words, above or below the quoted report: `>` lines, attribution lines, an unmarked original
    message (Outlook's "From:/Sent:" block, "-----Original Message-----") and the signature are left out."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    kept = []
    skip = 0
    for index, line in enumerate(lines):
        if skip:
            skip -= 1
            continue
        if line.rstrip() in ("--", "-- "):
            break  # the signature delimiter (RFC 3676) and its usual sloppy form: the rest is the signature
        if line.lstrip().startswith(">"):
            continue
        if ORIGINAL.match(line):
            break
        if OUTLOOK_HEADER.match(line) and any(re.match(OUTLOOK_NEXT, nxt) for nxt in lines[index + 1:index + 4]):
            break
        if ATTRIBUTION.match(line):
            continue
        # an attribution folded over two lines: "On Tue, 3 Jan 2026 at 10:00, Referee" / "<ref@club> wrote:"
        if re.match(r"^\s*(on|le|am)\b", line, re.IGNORECASE) and index + 1 < len(lines) \
                and re.search(r"(wrote|a écrit|schrieb)\s*:\s*$", lines[index + 1], re.IGNORECASE):
            skip = 1
            continue
        kept.append(line)
    return "\n".join(kept)


def _read_lines(text: str, incoming: Incoming) -> None:
    for line in text.split("\n"):
        line = line.replace("\u200b", "").replace("\ufeff", "").strip()
        if not line:
            continue
        match = FIELD_LINE.match(line)
        if match:
            key, value = match.group(1).lower().replace(" ", "").replace("_", "").replace("-", ""), match.group(2)
            if key == "game":
                incoming.game = incoming.game or value.strip("[]<> ").lower() or None
            elif key in ("password", "passwd"):
                incoming.passwords_seen.append(value)
                if incoming.password is None and value:
                    incoming.password = value
            elif key in ("movenumber", "moveno"):
                if re.fullmatch(r"#?\d{1,9}", value):
                    incoming.move_number = int(value.lstrip("#"))
                elif value:
                    incoming.move_number_text = value[:40]
            elif key == "player":
                incoming.player = value or None
            continue
        if len(incoming.lines) < MAX_MOVE_LINES + 1:
            incoming.lines.append(line)
