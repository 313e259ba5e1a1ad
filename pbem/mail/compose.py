"""The referee's mails: plain text, threaded, tables kept as the monospace reports print them.

Every mail to a player of a game refers to that player's welcome mail (a Message-ID derived from the game, the
player and the seed commitment), so a player's mail program shows one thread per game even though the referee
keeps no record of what it sent. An answer to a player's mail also refers to that mail (In-Reply-To).
No mail ever carries a password other than the welcome, which goes to that player only.
"""
from __future__ import annotations

import email.policy
import email.utils
import functools
import re
import socket
from email.message import EmailMessage

from ..clock import correspondence
from ..digests import sha256
from ..engine import engine
from ..messages import N_, Words, _, gettext
from ..notation import ANY_OF, IN_ANY_ORDER
from ..tables import fit_lines
from ..text import phrases, report, times
from ..text.botwords import reason_text
from . import encodings, headers, helptext, readers
from .headers import Headers


# long table lines are wrapped by QP, never by rewording
POLICY = email.policy.SMTP.clone(max_line_length=998, header_factory=Headers())
HIDDEN = "[password hidden]"


@functools.lru_cache(maxsize=1024)
def domain_of(address: str) -> str:
    _, addr = email.utils.parseaddr(address)
    return addr.rpartition("@")[2] or socket.getfqdn() or "localhost"


def thread_root(gd: engine.GameDir, player: str | None, referee: str) -> str:
    who = player or "organiser"
    return f"<pbem.{gd.id}.{who}.{gd.meta['seed_commitment'][-16:]}@{domain_of(referee)}>"


def owed_id(gd: engine.GameDir, referee: str, key: str, recipient: str, kind: str) -> str:
    """The Message-ID of a mail a change owes (pbem.clock.notices) or of a daily digest: the same each time it is made
    again, so the referee knows whether it was sent (`sent_key`)."""
    return f"<pbem.{gd.id}.{key}.{recipient}.{kind}.{gd.meta['seed_commitment'][-8:]}@{domain_of(referee)}>"


def made_id(gd: engine.GameDir, referee: str, about: str, to: str, kind: str) -> str:
    """The Message-ID of a mail that must be the same each time a run killed after sending it makes it again: made
    from what it is about (any text: a talk message's source, the commits a git referee's run judged) and the
    address it goes to, so the same mail is known for sent (`sent_key`) and a different one is not."""
    key = sha256(about.encode("utf-8", "surrogateescape")).hexdigest()[:24]
    recipient = sha256(to.lower().encode("utf-8", "surrogateescape")).hexdigest()[:16]
    return owed_id(gd, referee, key, recipient, kind)


def asked_key(game_id: str, number: int) -> str:
    """The mail ledger's key of the mail that asked the takeback logged as move `number` (its refusal by the tick
    answers it)."""
    return f"takeback {game_id} {number}"


def sent_key(message_id: str) -> str:
    """The mail ledger's key of a mail sent once (Referee.send_owed)."""
    return f"sent {message_id}"


def message(referee: str, to: str, subject: str, body: str, *, game: str | None = None,
            move_number: int | None = None, in_reply_to: str | None = None, references: list[str] | None = None,
            message_id: str | None = None, redact: list[str] | None = None, answer: bool = False) -> EmailMessage:
    """One plain-text mail (`answer`: it answers a mail of `to`). Every secret in `redact` is replaced before
    anything leaves."""
    body, subject = hide(body, redact), hide(subject, redact)
    fields = [("From", referee), ("To", to), ("Subject", subject),
              ("Date", email.utils.formatdate(localtime=False, usegmt=True)),
              ("Message-ID", message_id or email.utils.make_msgid("pbem", domain=domain_of(referee)))]
    refs = [r for r in (references or []) if r]
    if in_reply_to:
        fields.append(("In-Reply-To", in_reply_to))
        if in_reply_to not in refs:
            refs.append(in_reply_to)
    if refs:
        fields.append(("References", " ".join(dict.fromkeys(refs[-20:]))))
    # RFC 3834: an answer to a player's mail is auto-replied, a report or a welcome auto-generated; either way
    # vacation responders must not answer the referee
    fields.append(("Auto-Submitted", "auto-replied" if answer else "auto-generated"))
    if game:
        fields.append(("X-Pbem-Game", game))
    if move_number is not None:
        fields.append(("X-Pbem-Move-Number", str(move_number)))
    msg = EmailMessage(policy=POLICY)
    for name, value in fields:
        # a value the email package would not write back as it is (an encoded word, a line end, a malformed id
        # or address) raises here instead of reaching a mail (headers.py)
        msg[name] = headers.writable(name, value)
    text = fit_lines(body.rstrip()) + "\n"  # at most 78 columns (RFC 5322's advice); the reports' tables fit already
    charset, encoding = encodings.text_form(text, readers.charsets())
    msg.set_content(text, subtype="plain", charset=charset, cte=encoding)
    msg["Content-Language"] = readers.content_language()  # RFC 3282: the reader's (set_content clears Content-*)
    return msg


def hide(text: str, secrets: list[str] | None) -> str:
    """Every secret replaced, in any letter case (the notation lower-cases what it quotes back)."""
    for secret in sorted({s.strip() for s in secrets or [] if s and len(s.strip()) >= 4}, key=len, reverse=True):
        text = re.sub(re.escape(secret), HIDDEN, text, flags=re.IGNORECASE)
    return text


def subject_for(gd: engine.GameDir, text: str) -> str:
    """A subject of the game's mail: its [id] tag (what a reply is matched by), then the title and what it is."""
    # TRANSLATORS: a mail's subject after its [game] tag: {title} the game's title, {what} what the mail is.
    return f"[{gd.id}] " + _("{title}: {what}", title=helptext.title(gd), what=text)


CHOICE = re.compile(r"\(any (\d+)(?:\.\.(\d+))? of ([^()]*)\)")  # (any a..b of w1 w2 ...), (any n of ...)
ORDERING = re.compile(r"\(([^()]*) in any order\)")  # (w1 w2 ... in any order)
RANGE = re.compile(r"(-?\d+)\.\.(-?\d+)")  # a..b: one number


def written_out(form: str) -> str:
    """A move with forms (pbem.notation) as one move the game accepts: each choice of words as its first words (as
    few as it allows, at least one), each ordering as its words, each range as its low end."""
    def words(found):
        low, high = int(found.group(1)), int(found.group(2) or found.group(1))
        return " ".join(found.group(3).split()[:min(max(low, 1), high)])
    text = RANGE.sub(lambda found: found.group(1), ORDERING.sub(lambda found: found.group(1), CHOICE.sub(words, form)))
    return " ".join(text.split())


def form_note(moves: list[str], domain: str = "pbem") -> str | None:
    """How to write the forms among the legal moves, with the first of them written out as an example."""
    forms = [move for move in moves if written_out(move) != move]
    if not forms:
        return None
    kinds = []
    if any(RANGE.search(CHOICE.sub("", move)) for move in forms):
        kinds.append(_("a..b means one number from a to b"))
    # each form as the legal moves write it in the reader's language (pbem.notation's), letters for its values
    if any(CHOICE.search(move) for move in forms):
        # TRANSLATORS: {form}: "(any a..b of w1 w2 ...)" as your translation of "(any {count} of {words})" writes it.
        kinds.append(_("{form} means that many of those words, written out",
                       form=_(ANY_OF, count="a..b", words="w1 w2 ...")))
    if any(ORDERING.search(move) for move in forms):
        # TRANSLATORS: {form}: "(w1 w2 ... in any order)" as your translation of "({words} in any order)" writes it.
        kinds.append(_("{form} means all of them, in the order you choose",
                       form=_(IN_ANY_ORDER, words="w1 w2 ...")))
    # TRANSLATORS: {kinds}: the sentences above, `; ` between them; {form} a legal move with forms, {move} the same
    # written out as one move.
    return "  " + _("({kinds}: for example `{form}` is written `{move}`)", kinds="; ".join(kinds),
                    form=Words(domain, forms[0]), move=Words(domain, written_out(forms[0])))


def legal_block(legal: dict, game_type: str | None = None, decision_told: bool = False) -> str:
    """Every legal move with what it does, never cut (the games list forms, so the list is short), how to write a
    form, and `resign`; headed by the decision they are for unless the lines above said it (`decision_told`: a
    turn_head)."""
    game_type, decision = game_type or legal.get("game_type"), legal.get("decision")
    description = decision_text(game_type, decision["description"]) if decision else ""
    note = form_note(legal["moves"], game_type.replace("-", "_") if game_type else "pbem")
    heading = _("Your legal moves now:") if decision_told else \
        _("Your legal moves now ({decision}):", decision=description)
    return "\n".join([heading,
                      *phrases.legal_lines(legal["choices"], game_type=game_type), *([note] if note else [])])


def decision_text(game_type: str | None, description: str) -> str:
    """What a decision is (as the game's meta.yaml or view says it in English), in the language being read."""
    return report.game_text(game_type, description) if game_type else description


def entry_line(entry: dict, game_type: str | None = None) -> str:
    """One public log entry in words, with who made it and why: the news of a mail, a line each."""
    number, player = entry["number"], entry["player"]
    reason = reason_text(entry)
    if entry["moves"] == [engine.REPLACE]:
        return _("Move {number}: {reason} (seat {player}).", number=number, player=player,
                 reason=reason or _("the seat changed hands"))
    if entry["moves"] == [engine.RESIGN]:
        if reason:
            return _("Move {number}: {player} resigned ({reason}).", number=number, player=player, reason=reason)
        return _("Move {number}: {player} resigned.", number=number, player=player)
    if engine.is_end(entry):
        return _("Move {number}: the referee ended the game: {reason}.", number=number, reason=reason or "")
    if entry["moves"][0] in engine.TAKEBACK_WORDS:
        from ..text.takebacks import news_line
        return news_line(entry)
    moves = phrases.moves_text(entry["moves"], game_type)
    if entry["by"] == "referee" and reason:  # the referee's own move for the player (a timeout, a resigned seat)
        line = _("Move {number}: the referee played {moves} for {player} ({reason}).", number=number, moves=moves,
                 player=player, reason=reason)
    elif reason or entry["by"] == "referee":  # the player's move: queued (sent ahead), or entered by the referee
        line = _("Move {number}: {player} played {moves} ({reason}).", number=number, player=player, moves=moves,
                 reason=reason or _("entered by the referee"))
    else:
        line = _("Move {number}: {player} played {moves}.", number=number, player=player, moves=moves)
    if entry["chance"]:
        domain = game_type.replace("-", "_") if game_type else ""
        line += "\n  " + report.chance_line(domain, entry["chance"])
    return line


def turn_entries(result: dict) -> list[dict]:
    """The public log entries of a turn as engine.submit answers it: the player's, then the moves played after it."""
    return [{"number": result["number"], "player": result["player"], "by": "player",
             "moves": result["public_moves"], "chance": result["chance"]}, *(result.get("referee_moves") or [])]


def news_text(entries: list[dict], heading: str | None = None, game_type: str | None = None) -> str | None:
    """The moves a mail tells, a line each (None: none)."""
    if not entries:
        return None
    return "\n".join(([heading] if heading else []) + [entry_line(entry, game_type) for entry in entries])


# what happens when a move does not come by its deadline, by the clock's on_timeout (a whole sentence each)
IF_LATE = {"wait": N_("Your move is due by {when}. If it has not arrived by then, the referee reminds you again and "
                      "waits."),
           "first-legal": N_("Your move is due by {when}. If it has not arrived by then, the referee plays your first "
                             "legal move for that decision."),
           "bot": N_("Your move is due by {when}. If it has not arrived by then, the referee's bot plays that decision "
                     "for you.")}


def due_sentence(doc: dict, now=None) -> str:
    """By when the player to act must move, in plain words, and what happens if they do not (`now`: also how
    far off that is)."""
    shown = doc.get("clock")
    if not shown or not (shown["due"] or shown["paused"]):
        return _("There is no deadline: the game waits for your move.")
    if shown["paused"]:
        return _("The clock is paused (since {when}): your move has no deadline until it runs again.",
                 when=times.readable(shown["paused"]))
    when = times.readable(shown["due"]) + (f" ({times.until(shown['due'], now)})" if now is not None else "")
    # TRANSLATORS: {when}: a date and time, maybe with how far off it is in brackets.
    return gettext(IF_LATE.get(shown["on_timeout"], IF_LATE["wait"]), when=when)


def turn_head(doc: dict, now=None, game_type: str | None = None) -> str:
    """The first lines of every mail that asks for a move: what to do, and by when."""
    decision = decision_text(game_type or doc.get("game"), doc["decision"]["description"])
    return _("Your turn (move {number}): {decision}.", number=doc["move_number"], decision=decision) + "\n" + \
        due_sentence(doc, now)


def turn_words(doc: dict) -> str:
    """What a subject says of a turn that is its reader's: the move, and by when it is due."""
    shown = doc.get("clock") or {}
    if shown.get("due") and not shown.get("paused"):
        return _("move {number}, your turn, due {when}", number=doc["move_number"], when=times.readable(shown["due"]))
    return _("move {number}, your turn", number=doc["move_number"])


def turn_subject(gd: engine.GameDir, doc: dict) -> str:
    return subject_for(gd, turn_words(doc))


WAIT_WORDS = {"daily": N_("Your daily digest will tell you when it is your turn."),
              "every": N_("You will get a mail after every move."),
              "turn": N_("You will get a mail when it is your turn.")}


def game_over(doc: dict) -> str:
    """The end of a game as a player's mail tells it: the seed revealed, and how to check it."""
    return _("The game is over. The seed is revealed: {seed} (its SHA-256 was published at the start: "
             "{commitment}). Anyone can replay the game with `pbem verify`.", seed=doc["seed"],
             commitment=doc["seed_commitment"])


def player_report(gd: engine.GameDir, player: str, news: str | None = None, legal: dict | None = None, *,
                  lead: str | None = None, intro: str | None = None, now=None, preference: str = "turn",
                  doc: dict | None = None) -> tuple[str, str]:
    """(subject, body) of a mail to one player about the position. A mail that asks them to move starts with what
    to do and by when (`lead`, a line before it: an acceptance), then `intro` (what the mail is about), the legal
    moves and how to send them, then the `news` (what happened that they have not been told), then the position
    from their seat. Any other starts with `lead`, `intro` and the news. The position's table of the last moves is
    left out of a mail that tells news: the news say it."""
    doc = doc or engine.status(gd, player)
    parts = [lead]
    if doc["finished"]:
        subject = subject_for(gd, _("game over"))
        parts += [intro, news, game_over(doc)]
    elif doc["to_act"] == player:
        subject = turn_subject(gd, doc)
        legal = legal or engine.legal(gd, player)
        parts += [turn_head(doc, now, gd.game.id), intro, legal_block(legal, gd.game.id, decision_told=True),
                  helptext.how_to_move(gd, doc["move_number"]), news]
    else:
        subject = subject_for(gd, _("move {number}, {player} to act", number=doc["move_number"], player=doc["to_act"]))
        parts += [intro, news, _("Next: {player} (move {number}).", player=doc["to_act"], number=doc["move_number"])
                  + " " + gettext(WAIT_WORDS.get(preference, WAIT_WORDS["turn"]))]
    shown = {**doc, "recent": []} if news else doc
    parts.append(report.status_text(shown, now, turn_told=not doc["finished"] and doc["to_act"] == player))
    return subject, "\n\n".join(str(p).rstrip() for p in parts if p)


def public_report(gd: engine.GameDir, summary: str | None) -> tuple[str, str]:
    doc = engine.status(gd)
    title = _("game over") if doc["finished"] else \
        _("move {number}, {player} to act", number=doc["move_number"], player=doc["to_act"])
    parts = [summary] if summary else []
    if doc["finished"]:
        parts.append(_("The game is over. The seed is revealed: {seed}.", seed=doc["seed"]))
    parts.append(report.status_text(doc))
    return subject_for(gd, title), "\n\n".join(p.rstrip() for p in parts)


def rejection(error, notes: list, extra: list[str] | None = None, game: str | None = None) -> str:
    """A refused mail's answer: nothing changed, what was wrong (`error`: a str or a Message, rendered in the
    language being read), the notes of the reading (ignored attachments), what may help (`extra`)."""
    head = _("Your mail was not applied: game {game} is unchanged.", game=game) if game else \
        _("Your mail was not applied; no game was changed.")
    wrong = "\n".join("  " + line for line in str(error).splitlines())
    parts = [head, _("What was wrong:") + "\n" + wrong]
    if notes:
        # TRANSLATORS: {notes}: what the referee noticed reading the mail (ignored attachments), `; ` between them.
        parts.append(_("Note: {notes}.", notes="; ".join(str(note) for note in notes)))
    parts += [p for p in (extra or []) if p]
    return "\n\n".join(parts)


# ---------------------------------------------------------------------------------------------------- pictures

def pictures_available(player: dict | None = None) -> bool:
    """Pictures go in the mails when Pillow is installed (the `pictures` extra) and PBEM_MAIL_PICTURES is not 0,
    to a player (their entry in secrets.yaml) who has not turned them off (`pictures off`); otherwise every mail
    is plain text."""
    import importlib.util
    import os
    if player is not None and not correspondence.pictures_of(player):
        return False
    return os.environ.get("PBEM_MAIL_PICTURES", "1") != "0" and importlib.util.find_spec("PIL") is not None


def asks_to_act(doc: dict) -> bool:
    """Is `doc` (a status document) the view of the player who must act now?"""
    return not doc["finished"] and doc.get("player") is not None and doc["to_act"] == doc["player"]


def picture_if_asked(msg: EmailMessage, doc: dict, player: dict) -> EmailMessage:
    """`msg` with the picture of `doc` (the view of the mail's reader, at the position the mail tells of) when the
    mail asks its reader to act and pictures are on for them (`player`: their entry in secrets.yaml): one PNG
    render a mail, only for the player who must look at the board."""
    if asks_to_act(doc) and pictures_available(player):
        add_picture(msg, doc)
    return msg


def add_picture(msg: EmailMessage, doc: dict) -> EmailMessage:
    """The mail made multipart/alternative: its plain text first and complete, then an HTML part holding the
    picture of `doc` (a status document: the reader's own view) as an inline PNG (`cid:`; webmail blocks SVG and
    remote images) above the same text, so the mail reads the same with images off. The picture's title and
    status are the HTML's words, above it, rather than pixels in it (pictures.mail_picture)."""
    import markupsafe

    from ..text import htmltext, pictures
    # (a base64 part's text keeps the CRLF line ends it was encoded with: htmltext reads lines ended by LF)
    text, lang = msg.get_content().replace("\r\n", "\n"), msg["Content-Language"] or readers.content_language()
    png, width = pictures.mail_picture(doc)
    title, status = pictures.headline(doc)
    # named after the mail's own Message-ID (a digest of it: it is written twice): an owed mail made again
    # (pbem.clock.notices) is the same mail
    message_id = str(msg["Message-ID"]).strip()
    key = sha256(message_id.encode("utf-8", "surrogateescape")).hexdigest()
    cid = f"<board.{key[:16]}@{message_id.strip('<>').rpartition('@')[2]}>"
    # (the alt text names the picture; its status is the words just above it)
    # (no <title>: "the subject line of an e-mail" is the page's, as the HTML standard has it)
    fields = dict(cid=cid[1:-1], alt=_("Picture of the position: {title}", title=title),
                  title=title, status=status, width=width, text=markupsafe.Markup(htmltext.body(text)), lang=lang)
    html, charset, encoding = encodings.html_part(lambda charset: pictures.mail_page(**fields, charset=charset),
                                                  readers.charsets())
    msg.add_alternative(html, subtype="html", charset=charset, cte=encoding)
    if msg["Content-Language"] is None:  # (made multipart, the Content-* headers went to the text part)
        msg["Content-Language"] = lang
    msg.get_payload()[1].add_related(png, "image", "png", cid=cid, filename="board.png", disposition="inline")
    return encodings.short_boundaries(msg, key[16:24])
