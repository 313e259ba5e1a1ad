"""What the referee does with one message and a mailbox of them (a game's welcome mails: pbem.mail.welcome).

`handle` never raises for bad mail: whatever is wrong with a message (no game tag, an unknown game, a stranger,
a wrong password, a stale or illegal move, a garbage body, a huge attachment) becomes a clear reply to its sender
and leaves every game unchanged. Only trouble on the referee's side (an unreadable games root, a full disk) raises.
"""
from __future__ import annotations

import contextlib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..clock import correspondence
from ..contract import PbemError, UsageError
from ..engine import engine
from ..play import queues, trust
from ..text import phrases, times
from . import clockmail, compose, headers, news, parse
from .ledger import Ledger
from .outgoing import Outgoing
from .telling import Telling


@dataclass
class Outcome:
    """What happened to one message (printed one line a message by the CLI; never holds a password)."""

    message_id: str
    result: str  # accepted | command | rejected | duplicate | ignored
    detail: str
    game: str | None = None
    player: str | None = None
    replies: list[str] = field(default_factory=list)
    warning: str | None = None

    def line(self) -> str:
        who = f"{self.game or '-'}" + (f"/{self.player}" if self.player else "")
        sent = f"; mailed {', '.join(self.replies)}" if self.replies else ""
        warn = f"; WARNING: {self.warning}" if self.warning else ""
        return f"{self.result}: {who}: {self.detail}{sent}{warn} [{self.message_id}]"


class _Reject(Exception):
    """Bad mail: answered with `error` (and `extra` sections), nothing changed; `seen`: the view of the player
    whose move it refused, when that player proved who they are (the answer then carries its picture)."""

    def __init__(self, error: str, extra: list[str] | None = None, seen: dict | None = None):
        super().__init__(error)
        self.error, self.extra, self.seen = error, extra or [], seen


@dataclass
class Referee(Outgoing, Telling):
    """How the referee answers: a transport (SMTP or outbox) and the From address for mail about no game (its
    sending side in pbem.mail.outgoing, what it tells the players in pbem.mail.telling)."""

    root: Path
    transport: object
    default_from: str | None = None
    now: object = None  # the time moves are accepted at (deadlines count from it); None: the system clock

    def __post_init__(self):
        self._cache: dict = {}
        self._books: dict[str, news.Bookmarks] = {}  # what each game's players were told, while the lock is held
        self._after: list | None = None  # in a batch: what waits for the next flush (moving messages aside)
        self.root = Path(self.root)
        if not self.root.is_dir():
            raise PbemError(f"--games {self.root}: not a directory")
        self.ledger = Ledger(self.root)
        self.transport.prepare()  # a bad outbox is refused before any mail is handled (no move left unreported)
        host = f"pbem@{_host()}"
        self.default_from = self.default_from or os.environ.get("PBEM_FROM") \
            or (host if headers.is_writable(host) else "pbem@localhost")
        try:
            headers.writable("From", self.default_from)
        except ValueError:
            raise UsageError(f"--from / PBEM_FROM {self.default_from[:80]!r}: write a plain address "
                             f"(pbem@club.example) or a name and one (Club referee <pbem@club.example>)") from None

    # ------------------------------------------------------------ one message

    def handle(self, raw: bytes, size: int | None = None, source: str | None = None) -> Outcome:
        """Handle one message (exactly once: see ledger.py). `source` names where it came from in a mailbox, so a
        run that was killed after handling it but before moving it aside recognizes it and only moves it."""
        incoming = parse.parse_message(raw, size)
        if self._after is None:
            self._books = {}  # read again under the lock: another run may have told the players since
        with self.ledger.locked():
            return self._handle(incoming, source)

    def _secrets(self, gd: engine.GameDir) -> dict:
        """The game's roster and organiser, read once per message."""
        key = ("secrets", gd.id)
        if key not in self._cache:
            self._cache[key] = engine.load_secrets(gd)
        return self._cache[key]

    def _public(self, gd: engine.GameDir) -> dict:
        """The public status, read once per message and again after a move (see _moved)."""
        key = ("public", gd.id)
        if key not in self._cache:
            self._cache[key] = engine.status(gd)
        return self._cache[key]

    def _moved(self, gd: engine.GameDir) -> None:
        self._cache.pop(("public", gd.id), None)

    def _handle(self, incoming: parse.Incoming, source: str | None) -> Outcome:
        self._cache = {}
        key = incoming.message_id
        seen = self.ledger.get(key)
        if seen and seen["state"] == "done":
            if source is not None and seen.get("source") == source:
                return Outcome(key, "duplicate", "handled before (the run that did was interrupted)",
                               seen.get("game"), seen.get("player"))
            return self._answer_replay(incoming, seen)
        if seen and seen["state"] == "pending":
            recovered = self._recover(incoming, seen, source)
            if recovered:
                return recovered
        if incoming.auto_submitted:
            self.ledger.put(key, {"state": "done", "source": source, "result": "ignored"})
            return Outcome(key, "ignored", "an automatic message (bounce, autoreply or list mail): not answered")
        if incoming.refusal:
            return self._refuse_unread(incoming, source)
        gd = None
        try:
            try:
                gd = self._game(incoming)
            except _Reject:
                if incoming.too_large:
                    raise _too_large(incoming, [compose.general_help(self.default_from)]) from None
                if incoming.command == "help":  # help about no game in particular: how to play by mail here
                    return self._general_help(incoming, source)
                raise
            clockmail.tell_owed(self, gd)  # what an earlier run owes this game's players goes first
            if incoming.too_large:
                raise _too_large(incoming)
            return self._play(incoming, gd, source)
        except _Reject as reject:
            return self._reject(incoming, gd, reject, source)

    def _refuse_unread(self, incoming: parse.Incoming, source: str | None) -> Outcome:
        """A mail refused before anything in it is read (parse.Incoming.refusal: a From that is not one plain
        address, a text too long) is answered only to the registered addresses of the game it names that its From
        could be read as: never to a stranger, whose address may be forged or someone else's."""
        gd = None
        with contextlib.suppress(_Reject):
            gd = self._game(incoming)
        addresses = []
        if gd is not None:
            addresses = list(dict.fromkeys(p["email"] for p in self._secrets(gd)["players"]
                                           if p["email"] and p["email"].lower() in incoming.claimed))
        sent, warning = [], "not answered: its From is the registered address of no player of the game it names"
        if addresses:
            body = compose.rejection(incoming.refusal, incoming.notes, None, gd.id)
            subject = compose.subject_for(gd, "not applied")
            sent, warning = self.send([self._mail(gd, incoming, to, subject, body, reply=True) for to in addresses])
        self.ledger.put(incoming.message_id, {"state": "done", "source": source, "game": gd.id if gd else None,
                                              "result": "rejected"})
        return Outcome(incoming.message_id, "rejected", incoming.refusal.splitlines()[0][:300],
                       gd.id if gd else None, None, sent, warning)

    def _general_help(self, incoming: parse.Incoming, source: str | None) -> Outcome:
        to = incoming.sender
        sent, warning = [], "no valid From address to answer"
        if to:
            msg = self._mail(None, incoming, to, "pbem: how to play by mail", compose.general_help(self.default_from),
                             reply=True)
            sent, warning = self.send([msg])
        self.ledger.put(incoming.message_id, {"state": "done", "source": source, "game": None, "result": "help"})
        return Outcome(incoming.message_id, "command", "help (no game named)", None, None, sent, warning)

    def _answer_replay(self, incoming: parse.Incoming, seen: dict) -> Outcome:
        gd = self._open(seen.get("game"))
        error = (f"this message ({incoming.message_id if incoming.has_message_id else 'the same text'}) was already "
                 f"handled on {seen.get('time', '?')}; it is not applied twice. To move again, write a new mail.")
        outcome = self._reject(incoming, gd, _Reject(error), None, record=False)
        outcome.result = "duplicate"
        return outcome

    def _open(self, game_id: str | None):
        if not game_id:
            return None
        try:
            return engine.open_game(self.root / game_id)
        except PbemError:
            return None

    def _game(self, incoming: parse.Incoming) -> engine.GameDir:
        candidates = incoming.game_candidates()
        if not candidates:
            raise _Reject("no game named: reply to the last report (its subject has the [game-id] tag) or add a "
                          "line `Game: <game id>`.", [compose.general_help(self.default_from)])
        for candidate in candidates:
            if self._is_game(candidate):
                try:
                    gd = engine.open_game(self.root / candidate)
                    gd.rereads = True  # the reports read what the move wrote
                    return gd
                except PbemError as exc:
                    raise _Reject(f"game {candidate} cannot be opened: {self._shown(exc)}") from None
        named = " or ".join(repr(c) for c in candidates[:4])
        raise _Reject(f"there is no game {named} here. Check the id in the subject's [tag] or the Game: line.",
                      [compose.general_help(self.default_from)])

    def _is_game(self, candidate: str) -> bool:
        """A folder of the root named as a game can be: opening it says what is wrong with its game.yaml (missing,
        not a file, not a game's), rather than answering that there is no such game."""
        return bool(engine.ID_PATTERN.match(candidate)) and os.path.isdir(self.root / candidate)

    def _shown(self, error) -> str:
        """An error as a player reads it: the files it names under the games root, not where the root is."""
        return str(error).replace(f"{self.root}{os.sep}", "")

    def _identify(self, incoming: parse.Incoming, gd: engine.GameDir, roster: list[dict]) -> dict:
        """The player who sent it: the From address must be a registered one, and the password must be its."""
        mine = [p for p in roster if p["email"] and p["email"].lower() == incoming.sender]
        if not mine:
            raise _Reject(f"{incoming.sender or 'this address'} is not the registered address of a player of "
                          f"{gd.id}. Write from the address you gave the organiser.")
        if incoming.player:
            named = [p for p in mine if p["name"].lower() == incoming.player.lower()]
            if not named:
                raise _Reject(f"the Player: line names someone who does not play from {incoming.sender} in {gd.id}")
            mine = named
        if incoming.command == "help":
            return mine[0]
        if not incoming.password:
            raise _Reject("no password: add a line `Password: <your password>` (it is in your welcome mail).")
        for player in mine:
            if trust.same_secret(player["secret"], incoming.password):
                return player
        raise _Reject(f"wrong password for {incoming.sender} in game {gd.id}. It is in your welcome mail; "
                      f"ask the organiser if it is lost.")

    def _play(self, incoming: parse.Incoming, gd: engine.GameDir, source: str | None) -> Outcome:
        incoming.lines, _ = parse.trim_pleasantries(incoming.lines, lambda text: _parses(gd, text))
        secrets = self._secrets(gd)
        roster = secrets["players"]
        player = self._identify(incoming, gd, roster)
        name = player["name"]
        command = incoming.command
        if incoming.move_number_text is not None:
            raise _Reject(f"Move-Number: {incoming.move_number_text!r} is not a number; write the move number of "
                          f"the last report, or leave the line out.")
        if incoming.admin:
            return self._admin(incoming, gd, player, source)
        if command in ("help", "status", "moves"):
            body = self._command_body(gd, name, command, incoming)
            subject = compose.subject_for(gd, command)
            sent = self.send([self._pictured(gd, name, command, self._mail(gd, incoming, player["email"], subject,
                                                                           body, reply=True))])
            self.ledger.put(incoming.message_id, {"state": "done", "source": source, "game": gd.id, "player": name,
                                                  "result": command})
            return Outcome(incoming.message_id, "command", command, gd.id, name, *sent)
        if not incoming.lines:
            raise _Reject("no move found in your mail: write your move lines below the Password: line (above or "
                          "below the quoted report, not inside it).", self._legal_extra(gd, name))
        if len(incoming.lines) > parse.MAX_MOVE_LINES:
            raise _Reject(f"more than {parse.MAX_MOVE_LINES} move lines: one mail is one turn.")
        texts = [piece for line in incoming.lines for piece in _split(line)]
        queued = _queue_only(texts)
        if queued is not None:
            return self._queue(incoming, gd, secrets, name, queued, source)

        def pending(number: int) -> None:  # on disk before the move is: see ledger.py
            self.ledger.put(incoming.message_id, {"state": "pending", "source": source, "game": gd.id,
                                                  "player": name, "move_number": number})
        try:
            result = correspondence.submit(gd, name, texts, by="player", move_number=self._answers(gd, incoming),
                                           password=incoming.password, now=self.now, before_write=pending)
        except PbemError as exc:
            # the engine lists the legal moves on one line; the answer lists them one a line (below)
            error = re.sub(r"\. Legal: .*$", ".", self._shown(exc), flags=re.DOTALL)
            # a move its player sent (_identify checked the password) but the rules refuse: the answer that lists
            # the legal moves shows the board too (a mail refused before, a forged one, gets no picture)
            seen = self._view(gd, name) if compose.pictures_available() else None
            raise _Reject(error, self._legal_extra(gd, name), seen) from None
        self._moved(gd)
        return self._after_move(incoming, gd, roster, secrets.get("organiser"), name, compose.turn_entries(result),
                                source, answer=result["moves"] == [engine.RESIGN])

    def _pictured(self, gd: engine.GameDir, name: str, command: str, msg):
        """The answer to `status` shows the board (the player asked to see the position), the answer to `moves`
        when the moves are theirs to make; `help` is words only."""
        seen = self._view(gd, name) if command in ("status", "moves") and compose.pictures_available() else None
        if seen is None:
            return msg
        return compose.add_picture(msg, seen) if command == "status" else compose.picture_if_asked(msg, seen)

    @staticmethod
    def _view(gd: engine.GameDir, name: str) -> dict | None:
        """The player's status, or None when it cannot be read (the answer is then text only)."""
        try:
            return engine.status(gd, name)
        except PbemError:
            return None

    def _answers(self, gd: engine.GameDir, incoming: parse.Incoming) -> int | None:
        """The move number a mail's move answers. A seat handed on takes a move number (its log entry) but leaves
        the position as it was, so a Move-Number from before hand-overs, and only hand-overs, answers the same
        decision: it is read as the current number (the engine still refuses it if the game moves on meanwhile)."""
        number = incoming.move_number
        current = self._public(gd)["move_number"]
        if number is None or number >= current:
            return number
        since = [entry for entry in engine.read_log(gd)["entries"] or [] if entry["number"] >= number]
        if since and len(since) == current - number and all(e["moves"] == [engine.REPLACE] for e in since):
            return current
        return number

    def _queue(self, incoming: parse.Incoming, gd: engine.GameDir, secrets: dict, name: str, texts: list[str],
               source: str | None) -> Outcome:
        """`queue` and steps (or standing orders alone): the player's queue replaced, answered with what it holds;
        when it answers the decision waiting at once, its moves are reported to everyone like a move."""
        def pending(number: int) -> None:  # on disk before the queue's moves are: see ledger.py
            self.ledger.put(incoming.message_id, {"state": "pending", "source": source, "game": gd.id,
                                                  "player": name, "move_number": number})
        if not texts:  # `queue` alone: what the queue holds, nothing changed
            lines = phrases.queue_lines(engine.status(gd, name).get("queue"))
            body = "\n".join(["Your queue (only you see it):", *lines] if lines else ["Nothing is queued."])
            return self._answer(incoming, gd, secrets, name, "queue", body, source)
        try:
            result = correspondence.set_queue(gd, name, texts, by="player", move_number=self._answers(gd, incoming),
                                              password=incoming.password, now=self.now, before_write=pending)
        except PbemError as exc:
            raise _Reject(self._shown(exc)) from None
        self._moved(gd)
        if result["moves_played"]:  # a command: answered whatever the player's preference
            return self._after_move(incoming, gd, secrets["players"], secrets.get("organiser"), name,
                                    result["moves_played"], source, answer=True,
                                    lead="Your queue is set, and it played at once.")
        lines = phrases.queue_lines(result["queue"])
        body = "\n".join(["Your queue is set; only you see it:", *lines] if lines else ["Your queue is empty."])
        return self._answer(incoming, gd, secrets, name, "queue recorded", body, source)

    def _answer(self, incoming: parse.Incoming, gd: engine.GameDir, secrets: dict, name: str, what: str, body: str,
                source: str | None) -> Outcome:
        """A reply to the player alone, the message recorded as done."""
        subject = compose.subject_for(gd, what)
        player = next(p for p in secrets["players"] if p["name"] == name)
        sent = self.send([self._mail(gd, incoming, player["email"], subject, body, reply=True)])
        self.ledger.put(incoming.message_id, {"state": "done", "source": source, "game": gd.id, "player": name,
                                              "result": "queue"})
        return Outcome(incoming.message_id, "command", "queue", gd.id, name, *sent)

    def _admin(self, incoming: parse.Incoming, gd: engine.GameDir, player: dict, source: str | None) -> Outcome:
        """`vacation FROM TO`, `vacation cancel`, `notify every|turn|daily`: answered with what changed."""
        word, args = incoming.admin
        name = player["name"]
        outcome = "recorded"
        try:
            if word == "notify":
                if len(args) != 1:
                    raise UsageError("write `notify every`, `notify turn` or `notify daily`")
                correspondence.set_notify(gd, name, args[0])
            elif args == ["cancel"]:
                correspondence.vacation(gd, name, self.now, cancel=True)
                body, outcome = "Your vacation is cancelled; the days you did not take are given back.", "cancelled"
            elif len(args) == 2:
                taken = correspondence.vacation(gd, name, self.now, args[0], args[1])["taken"]
                body = (f"Your vacation from {times.readable(taken['from'])} to {times.readable(taken['to'])} is "
                        f"recorded; the other players see it. Your deadlines stop meanwhile.")
            else:
                raise UsageError("write `vacation FROM TO` (dates like 2025-12-24) or `vacation cancel`")
        except PbemError as exc:
            raise _Reject(self._shown(exc)) from None
        self._secrets_changed(gd)
        subject = compose.subject_for(gd, f"{word} {outcome}")
        if word == "notify":
            subject, body = self._switched(gd, player, args[0])
        else:
            doc = self._public(gd)
            if doc["to_act"] == name:  # the vacation may have moved the deadline
                body += "\n\n" + compose.turn_head(doc, self.now_moment())
        sent = self.send([self._mail(gd, incoming, player["email"], subject, body, reply=True)])
        self.ledger.put(incoming.message_id, {"state": "done", "source": source, "game": gd.id, "player": name,
                                              "result": word})
        if word == "notify":
            self.save_bookmarks()
        return Outcome(incoming.message_id, "command", word, gd.id, name, *sent)

    def _secrets_changed(self, gd: engine.GameDir) -> None:
        self._cache.pop(("secrets", gd.id), None)
        self._moved(gd)

    def _after_move(self, incoming, gd, roster, organiser, name, entries, source, answer=False, lead=None
                    ) -> Outcome:
        """Mail what a turn (`entries`, the public log entries it made) calls for, and record the message done.
        `answer`: the mover is answered whatever their preference (a resignation, a queue set by command); `lead`:
        the answer's first line (by default, that the move is accepted)."""
        messages = self._reports(incoming, gd, roster, organiser, name, entries, answer,
                                 lead or f"Your move {entries[0]['number']} is accepted.")
        sent = self.send(messages)
        self.ledger.put(incoming.message_id, {"state": "done", "source": source, "game": gd.id, "player": name,
                                              "result": "accepted", "move": entries[0]["number"]})
        self.save_bookmarks()
        return Outcome(incoming.message_id, "accepted", compose.entry_line(entries[0]).splitlines()[0], gd.id, name,
                       *sent)

    def _recover(self, incoming: parse.Incoming, seen: dict, source: str | None) -> Outcome | None:
        """A run died between marking this message pending and marking it done. If its move was applied, send
        the replies now; if not, handle it afresh (returns None)."""
        gd = self._open(seen.get("game"))
        if gd is None:
            return None
        if self._public(gd)["move_number"] <= seen["move_number"]:
            return None
        entries = engine.read_log(gd)["entries"] or []
        entry = next((e for e in entries if e["number"] == seen["move_number"]), None)
        if entry is None or entry["player"] != seen["player"]:
            return None
        auto = []
        for later in entries[entries.index(entry) + 1:]:  # the moves played after (resigned, forced, queued)
            if later["by"] != "referee" and not later.get("reason"):
                break
            auto.append(later)
        secrets = self._secrets(gd)
        return self._after_move(incoming, gd, secrets["players"], secrets.get("organiser"), seen["player"],
                                [entry, *auto], source, answer=entry["moves"] == [engine.RESIGN])

    def _reject(self, incoming: parse.Incoming, gd, reject: _Reject, source, record: bool = True) -> Outcome:
        key = incoming.message_id
        to = None
        registered = []
        redact = list(incoming.passwords_seen)
        if gd is not None:
            try:
                registered = self._secrets(gd)["players"]
            except PbemError:
                registered = []
            redact += [p["secret"] for p in registered]
            mine = [p for p in registered if p["email"] and p["email"].lower() == incoming.sender]
            to = mine[0]["email"] if mine else None
        to = to or incoming.sender
        sent, warning = [], None
        if to and not incoming.auto_submitted:
            body = compose.rejection(reject.error, incoming.notes, reject.extra, gd.id if gd else None)
            subject = (compose.subject_for(gd, "not applied") if gd else
                       "pbem: your mail was not applied" + (f" (Re: {incoming.subject[:80]})" if incoming.subject
                                                            else ""))
            msg = self._mail(gd, incoming, to, subject, body, reply=True, redact=redact)
            if reject.seen is not None and any(p["name"] == reject.seen.get("player") and p["email"] == to
                                               for p in registered):  # the answer goes to that player's address
                msg = compose.picture_if_asked(msg, reject.seen)
            sent, warning = self.send([msg])
        elif not to:
            warning = "no valid From address to answer"
        if record:
            self.ledger.put(key, {"state": "done", "source": source, "game": gd.id if gd else None,
                                  "result": "rejected"})
        detail = compose.hide(reject.error, redact)
        return Outcome(key, "rejected", detail.splitlines()[0][:300], gd.id if gd else None, None, sent, warning)


def _too_large(incoming: parse.Incoming, extra: list[str] | None = None) -> _Reject:
    return _Reject(f"your message is {incoming.size / 1048576:.1f} MB; the referee reads messages of at most "
                   f"{parse.MAX_MESSAGE_BYTES // 1048576} MB and this one was not read. Send your move as plain "
                   f"text without attachments.", extra)


def _parses(gd: engine.GameDir, text: str) -> bool:
    """Is the line a move, a queued step or a command (not a greeting or a sign-off)?"""
    if text.strip().lower() in parse.COMMANDS or _queue_only([text]) is not None:
        return True
    return bool(_split(text)) and queues.reads_as_item(gd.game, text, gd.players)


def _queue_only(texts: list[str]) -> list[str] | None:
    """The queue a mail sets without a move: the lines after a `queue` line (`queue cancel`: none, and standing
    orders withdrawn), or standing orders alone; None for a move."""
    words = [" ".join(text.lower().split()) for text in texts]
    if words and words[0] == "queue cancel":
        return ["cancel", "standing cancel"] + texts[1:]
    if words and words[0].split(" ", 1)[0] == "queue":
        first = texts[0].strip()[len("queue"):].strip()
        return ([first] if first else []) + texts[1:]
    if words and all(word.startswith(("standing ", "standing:")) or word == "cancel" for word in words):
        return texts
    return None



def _split(line: str) -> list[str]:
    return [piece.strip() for piece in line.split(";") if piece.strip()]


def _host() -> str:
    from .transport import hostname
    return hostname()
