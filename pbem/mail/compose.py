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
from ..engine import engine
from ..tables import fit_lines
from ..text import phrases, report, times
from . import headers
from .headers import Headers


# long table lines are wrapped by QP, never by rewording
POLICY = email.policy.SMTP.clone(max_line_length=998, header_factory=Headers())
HIDDEN = "[password hidden]"
BODY_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")  # sent quoted-printable, never raw in a 7bit body


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
    ascii_short = text.isascii() and all(len(line) <= 900 for line in text.split("\n")) \
        and not BODY_CONTROL.search(text)
    msg.set_content(text, subtype="plain", charset="utf-8", cte="7bit" if ascii_short else "quoted-printable")
    return msg


def hide(text: str, secrets: list[str] | None) -> str:
    """Every secret replaced, in any letter case (the notation lower-cases what it quotes back)."""
    for secret in sorted({s.strip() for s in secrets or [] if s and len(s.strip()) >= 4}, key=len, reverse=True):
        text = re.sub(re.escape(secret), HIDDEN, text, flags=re.IGNORECASE)
    return text


def subject_for(gd: engine.GameDir, text: str) -> str:
    return f"[{gd.id}] {gd.game.title}: {text}"


def how_to_move(gd: engine.GameDir, move_number: int | None) -> str:
    lines = [f"How to move: reply to this mail (keep the [{gd.id}] in the subject) and write, above or below the "
             f"quoted text:",
             "",
             "    Password: <your password>"]
    if move_number is not None:
        lines.append(f"    Move-Number: {move_number}")
    lines += ["    <your move, one decision a line>", "",
              "Steps for later may follow your move: they wait in your queue, which only you see, and are played "
              "when their decisions come (`next` between turns, `A else B`, `A if CONDITION`, `standing WORD: "
              "STEP`; see `help`).",
              "Other commands (one on a line, with your password): status, moves, help, resign; `queue` with steps "
              "below it sets your queue without a move (`queue cancel` drops it)."]
    return "\n".join(lines)


def notation_help(gd: engine.GameDir) -> str:
    forms = sorted({t.shape for t in gd.game.templates})
    decisions = gd.game.meta.get("decisions", {})
    parts = [f"Moves of {gd.game.title} are written as:", *[f"    {form}" for form in forms]]
    if decisions:
        parts += ["", "Decisions:", *[f"    {name}: {what}" for name, what in decisions.items()]]
    parts += ["", "Several moves of one turn go on separate lines (or one line with ';' between them); they are "
              "applied in order, all or nothing."]
    return "\n".join(parts + ["", queue_help(gd)])


def queue_help(gd: engine.GameDir) -> str:
    """How to queue steps in this game: the notation's words, and the game's choice forms, conditions and standing
    orders (meta.yaml `queues:`)."""
    from ..play import plans
    vocab = plans.vocabulary(gd.game)
    lines = ["Your queue (only you see it; each step is played when its decision comes, as if you sent it then):",
             "    the lines after your move are for later; `next` starts your next turn",
             "    `A else B else C`: the first of them that is legal then; `A if CONDITION and not CONDITION`",
             "    a step that is not legal when its decision comes stops the queue: you are asked, and told why",
             "    `standing WORD: STEP` answers every such decision until `standing WORD: cancel`, or until an event",
             "    disarms it; `cancel` drops your queue"]
    if vocab.choices:
        lines += ["Forms chosen when the decision comes:",
                  *[f"    {template.shape}: {vocab.choices[template.action]['help']}"
                    for template in vocab.choice_templates]]
    if vocab.conditions:
        lines += ["Conditions (they read only what you may see):",
                  *[f"    {template.shape}: {vocab.conditions[template.action]['help']}"
                    for template in vocab.condition_templates]]
    if vocab.standing:
        lines += ["Standing orders:", *[f"    standing {word}: {spec['help']}" + (
            f" (disarmed when {', '.join(vocab.disarm[event]['help'] for event in spec['disarm'])})"
            if spec["disarm"] else "") for word, spec in vocab.standing.items()]]
    return "\n".join(lines)


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


def form_note(moves: list[str]) -> str | None:
    """How to write the forms among the legal moves, with the first of them written out as an example."""
    forms = [move for move in moves if written_out(move) != move]
    if not forms:
        return None
    kinds = []
    if any(RANGE.search(CHOICE.sub("", move)) for move in forms):
        kinds.append("a..b means one number from a to b")
    if any(CHOICE.search(move) for move in forms):
        kinds.append("(any a..b of w1 w2 ...) means that many of those words, written out")
    if any(ORDERING.search(move) for move in forms):
        kinds.append("(w1 w2 ... in any order) means all of them, in the order you choose")
    return f"  ({'; '.join(kinds)}: for example `{forms[0]}` is written `{written_out(forms[0])}`)"


def legal_block(legal: dict) -> str:
    """Every legal move with what it does, never cut (the games list forms, so the list is short), how to write a
    form, and `resign`."""
    description = legal["decision"]["description"] if legal.get("decision") else ""
    note = form_note(legal["moves"])
    return "\n".join([f"Your legal moves now ({description}):", *phrases.legal_lines(legal["choices"]),
                      *([note] if note else [])])


def entry_line(entry: dict) -> str:
    """One public log entry in words, with who made it and why: the news of a mail, a line each."""
    moves = "; ".join(entry["moves"])
    if entry["moves"] == [engine.REPLACE]:
        return f"Move {entry['number']}: {entry.get('reason', 'the seat changed hands')} (seat {entry['player']})."
    if entry["moves"] == [engine.RESIGN]:
        why = f" ({entry['reason']})" if entry.get("reason") else ""
        return f"Move {entry['number']}: {entry['player']} resigned{why}."
    if engine.is_end(entry):
        return f"Move {entry['number']}: the referee ended the game: {entry['reason']}."
    if entry["moves"][0] in engine.TAKEBACK_WORDS:
        from ..text.takebacks import news_line
        return news_line(entry)
    if entry["by"] == "referee":
        why = entry.get("reason") or "entered by the referee"
        line = f"Move {entry['number']}: the referee played {moves} for {entry['player']} ({why})."
    else:
        why = f" ({entry['reason']})" if entry.get("reason") else ""  # a queued move: the player's, sent ahead
        line = f"Move {entry['number']}: {entry['player']} played {moves}{why}."
    if entry["chance"]:
        line += "\n  " + "; ".join(f"{c['what']}: {c['result']}" for c in entry["chance"])
    return line


def turn_entries(result: dict) -> list[dict]:
    """The public log entries of a turn as engine.submit answers it: the player's, then the moves played after it."""
    return [{"number": result["number"], "player": result["player"], "by": "player",
             "moves": result["public_moves"], "chance": result["chance"]}, *(result.get("referee_moves") or [])]


def news_text(entries: list[dict], heading: str | None = None) -> str | None:
    """The moves a mail tells, a line each (None: none)."""
    if not entries:
        return None
    return "\n".join(([heading] if heading else []) + [entry_line(entry) for entry in entries])


def due_sentence(doc: dict, now=None) -> str:
    """By when the player to act must move, in plain words, and what happens if they do not (`now`: also how
    far off that is)."""
    shown = doc.get("clock")
    if not shown or not (shown["due"] or shown["paused"]):
        return "There is no deadline: the game waits for your move."
    if shown["paused"]:
        return f"The clock is paused (since {times.readable(shown['paused'])}): your move has no deadline until it " \
               f"runs again."
    when = times.readable(shown["due"]) + (f" ({times.until(shown['due'], now)})" if now is not None else "")
    return f"Your move is due by {when}. If it has not arrived by then, " \
           f"{times.POLICY_TEXT.get(shown['on_timeout'], 'the referee waits')}."


def turn_head(doc: dict, now=None) -> str:
    """The first lines of every mail that asks for a move: what to do, and by when."""
    return f"Your turn (move {doc['move_number']}): {doc['decision']['description']}.\n{due_sentence(doc, now)}"


def turn_subject(gd: engine.GameDir, doc: dict) -> str:
    shown = doc.get("clock") or {}
    due = f", due {times.readable(shown['due'])}" if shown.get("due") and not shown.get("paused") else ""
    return subject_for(gd, f"move {doc['move_number']}, your turn{due}")


WAIT_WORDS = {"daily": "Your daily digest will tell you when it is your turn.",
              "every": "You will get a mail after every move.",
              "turn": "You will get a mail when it is your turn."}


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
        subject = subject_for(gd, "game over")
        parts += [intro, news, f"The game is over. The seed is revealed: {doc['seed']} (its SHA-256 was published at "
                               f"the start: {doc['seed_commitment']}). Anyone can replay the game with `pbem verify`."]
    elif doc["to_act"] == player:
        subject = turn_subject(gd, doc)
        legal = legal or engine.legal(gd, player)
        parts += [turn_head(doc, now), intro, legal_block(legal), how_to_move(gd, doc["move_number"]), news]
    else:
        subject = subject_for(gd, f"move {doc['move_number']}, {doc['to_act']} to act")
        parts += [intro, news, f"Next: {doc['to_act']} (move {doc['move_number']}). "
                               f"{WAIT_WORDS.get(preference, WAIT_WORDS['turn'])}"]
    shown = {**doc, "recent": []} if news else doc
    parts.append(report.status_text(shown, now))
    return subject, "\n\n".join(p.rstrip() for p in parts if p)


def public_report(gd: engine.GameDir, summary: str | None) -> tuple[str, str]:
    doc = engine.status(gd)
    title = "game over" if doc["finished"] else f"move {doc['move_number']}, {doc['to_act']} to act"
    parts = [summary] if summary else []
    if doc["finished"]:
        parts.append(f"The game is over. The seed is revealed: {doc['seed']}.")
    parts.append(report.status_text(doc))
    return subject_for(gd, title), "\n\n".join(p.rstrip() for p in parts)


PICTURES_NOTE = ("The mails that ask you to move carry a picture of the board as you see it. For mails in text "
                 "only, write `pictures off` (with your password) in a mail to the referee; `pictures on` brings "
                 "the picture back.")


def welcome(gd: engine.GameDir, player: dict, roster: list[dict], legal: dict | None, pictures: bool = False
            ) -> tuple[str, str]:
    """The welcome of a new game's player: the game, their password, how to move (and, when their mails carry
    pictures, how to turn them off), their turn if it is theirs, the position."""
    doc = engine.status(gd, player["name"])
    others = ", ".join(p["name"] for p in roster if p["name"] != player["name"])
    parts = [f"Welcome to {gd.game.title}, game {gd.id}. You play as {player['name']}, against {others}.",
             f"Seating order: {', '.join(gd.players)}.",
             "Your password (keep it private; the referee puts it in no other mail, and sends this welcome again "
             "only when the organiser asks):\n\n"
             f"    Password: {player['secret']}",
             "The referee only accepts mail from the address this was sent to, with that password in it.",
             *([PICTURES_NOTE] if pictures else []),
             how_to_move(gd, doc["move_number"] if doc["to_act"] == player["name"] else None)
             + "\nThe Move-Number line (from the report you answer) is optional: it guards against a move "
             "being applied twice or too late.",
             notation_help(gd)]
    if doc["to_act"] == player["name"] and legal:
        parts.append(f"You start. {turn_head(doc)}\n\n{legal_block(legal)}")
    else:
        parts.append(f"First to act: {doc['to_act']}. You will get a mail when it is your turn.")
    parts.append(report.status_text(doc))
    return subject_for(gd, "welcome, your password and how to move"), "\n\n".join(p.rstrip() for p in parts)


def general_help(referee: str) -> str:
    return "\n".join([
        "This is the pbem referee. It plays board games by mail: you answer the last report with your move.",
        "",
        "Write to it from the address you registered, and put in your mail:",
        "",
        "    Game: <game id>          (or keep the [game-id] tag in the subject when you reply)",
        "    Password: <your password>",
        "    Move-Number: <n>         (optional: the move number of the last report)",
        "    <your move, one decision a line>",
        "",
        "Instead of a move you may write one command: status, moves (your legal moves), help, resign.",
        "Quoted text and your signature are ignored; attachments are ignored.",
        f"The organiser of your game gave you its id and your password; the referee's address is {referee}.",
    ])


def rejection(error: str, notes: list[str], extra: list[str] | None = None, game: str | None = None) -> str:
    head = f"Your mail was not applied: game {game} is unchanged." if game else \
        "Your mail was not applied; no game was changed."
    parts = [head, "What was wrong:\n" + "\n".join("  " + line for line in error.splitlines())]
    if notes:
        parts.append("Note: " + "; ".join(notes) + ".")
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
    text = msg.get_content()
    png, width = pictures.mail_picture(doc)
    title, status = pictures.headline(doc)
    # named after the mail's own Message-ID: an owed mail made again (pbem.clock.notices) is the same mail
    cid = f"<board.{str(msg['Message-ID']).strip().strip('<>')}>"
    html = pictures.templates().get_template("mail.html").render(
        subject=msg["Subject"], cid=cid[1:-1], alt=f"Picture of the position: {title}. {status}", title=title,
        status=status, width=width, text=markupsafe.Markup(htmltext.body(text)))
    msg.add_alternative(html, subtype="html", charset="utf-8", cte="quoted-printable")
    msg.get_payload()[1].add_related(png, "image", "png", cid=cid, filename="board.png", disposition="inline")
    return msg
