"""What the referee does with one message and a mailbox of them (a game's welcome mails: pbem.mail.welcome).

`handle` never raises for bad mail: whatever is wrong with a message (no game tag, an unknown game, a stranger,
a wrong password, a stale or illegal move, a garbage body, a huge attachment) becomes a clear reply to its sender
and leaves every game unchanged. Only trouble on the referee's side (an unreadable games root, a full disk) raises.
"""
from __future__ import annotations

import contextlib
import os
from pathlib import Path

from ..clock import correspondence
from ..contract import PbemError
from ..engine import engine
from ..messages import _, lazy
from ..notation import split_steps
from ..text import language, phrases
from . import admin, clockmail, compose, helptext, moves, parse, refused, senders, spectators, takeback, talkmail, \
    telling
from .outcome import Outcome, Reject, too_large
from .outgoing import Letter, Mailer
from .readers import reading_as
from .telling import Handling, Told


class Referee:
    """How the referee answers the mail of the games under `root`: what each message does (`handle`), its mails
    written and sent by a Mailer (a transport, SMTP or an outbox, and the From address for mail about no game),
    what it tells the players by pbem.mail.telling. `now`: the time moves are accepted at (deadlines count from
    it); None, the system clock."""

    def __init__(self, root: str | Path, transport, default_from: str | None = None, now=None):
        self.mailer = Mailer(root, transport, default_from)
        self.root, self.now = self.mailer.root, now

    def batch(self):
        """Many messages handled as one batch (Mailer.batch)."""
        return self.mailer.batch()

    def after(self, callback) -> None:
        self.mailer.after(callback)

    def resend(self) -> tuple[int, list[str]]:
        return self.mailer.resend()

    # ------------------------------------------------------------ one message

    def handle(self, raw: bytes, size: int | None = None, source: str | None = None) -> Outcome:
        """Handle one message (exactly once: see ledger.py). `source` names where it came from in a mailbox, so a
        run that was killed after handling it but before moving it aside recognizes it and only moves it."""
        incoming = parse.parse_message(raw, size)
        return self.handle_read(incoming, source, self.where(incoming))

    def where(self, incoming: parse.Incoming) -> str | None:
        """The game a message is for, whose mail lock it is handled under: the first it names that is here (or None)."""
        return next((game for game in telling.games_named(self.root, incoming) if self._is_game(game)), None)

    def handle_read(self, incoming: parse.Incoming, source: str | None, where: str | None) -> Outcome:
        """Handle a message read already, for the game `where`, under its mail lock and that of the game an earlier
        run recorded its Message-ID for, both taken at once (two messages may name each other's recorded game)."""
        self.mailer.forget_bookmarks()  # read again under the lock: another run may have told the players since
        ledger = self.mailer.ledger
        seen = ledger.get(incoming.message_id)  # a peek: each record is written whole (atomically)
        while True:
            recorded = (seen or {}).get("game")
            with ledger.locked(where, recorded):
                seen = ledger.get(incoming.message_id)
                if (seen or {}).get("game") in (where, recorded):  # else recorded meanwhile: take its lock too
                    return self._handle(incoming, source, where, seen)

    def _handle(self, incoming: parse.Incoming, source: str | None, where: str | None, seen: dict | None
                ) -> Outcome:
        self.mailer.reads.clear()
        handling = Handling(incoming, source, self.now, where=where)
        key = incoming.message_id
        if seen and seen["state"] == "done":
            if source is not None and seen.get("source") == source:
                return Outcome(key, "duplicate", "handled before (the run that did was interrupted)",
                               seen.get("game"), seen.get("player"))
            return self._answer_replay(handling, seen)
        if seen and seen["state"] == "pending":
            recovered = self._recover(handling, seen)
            if recovered:
                return recovered
        if incoming.auto_submitted:
            self.mailer.ledger.put(key, {"state": "done", "source": source, "result": "ignored"})
            return Outcome(key, "ignored", "an automatic message (bounce, autoreply or list mail): not answered")
        if incoming.refusal:
            return self._refuse_unread(handling)
        try:
            return self._open_and_play(handling)
        except Reject as reject:
            with reading_as(handling.gd, senders.sender(self.mailer, handling)):  # the answer in its reader's language
                return self._reject(handling, reject)

    def _open_and_play(self, handling: Handling) -> Outcome:
        """The game the message names, what an earlier run owes its players told first, then what it asks for."""
        incoming = handling.incoming
        try:
            handling.gd = self._game(handling)
        except Reject:
            if incoming.too_large:
                raise too_large(incoming, [helptext.general_help(self.mailer.default_from)]) from None
            if incoming.command == "help":  # help about no game in particular: how to play by mail here
                return self._general_help(handling)
            raise
        clockmail.tell_owed(self.mailer, handling.gd)
        # what is written to the sender, in their language
        with reading_as(handling.gd, senders.sender(self.mailer, handling)):
            if incoming.too_large:
                raise too_large(incoming)
            return self._play(handling)

    def _refuse_unread(self, handling: Handling) -> Outcome:
        """A mail refused before anything in it is read (parse.Incoming.refusal: a From that is not one plain
        address, a text too long) is answered only to the registered addresses of the game it names that its From
        could be read as: never to a stranger, whose address may be forged or someone else's."""
        incoming = handling.incoming
        with contextlib.suppress(Reject):
            handling.gd = self._game(handling)
        gd, addresses = handling.gd, []
        if gd is not None:
            addresses = list(dict.fromkeys(p["email"] for p in self.mailer.reads.secrets(gd)["players"]
                                           if p["email"] and p["email"].lower() in incoming.claimed))
        sent, warning = [], "not answered: its From is the registered address of no player of the game it names"
        mails = []
        for to in addresses:
            with reading_as(gd, next(p for p in senders.registered(self.mailer, gd) if p["email"] == to)):
                body = compose.rejection(incoming.refusal, incoming.notes, None, gd.id)
                subject = compose.subject_for(gd, _("not applied"))
                mails.append(self.mailer.mail(gd, incoming, Letter(to, subject, body, reply=True)))
        if mails:
            sent, warning = self.mailer.send(mails)
        self.mailer.ledger.put(incoming.message_id, handling.record("rejected"))
        return Outcome(incoming.message_id, "rejected", str(incoming.refusal).splitlines()[0][:300],
                       gd.id if gd else None, None, sent, warning)

    def _general_help(self, handling: Handling) -> Outcome:
        incoming = handling.incoming
        sent, warning = [], "no valid From address to answer"
        if incoming.sender:
            letter = Letter(incoming.sender, _("pbem: how to play by mail"),
                            helptext.general_help(self.mailer.default_from), reply=True)
            sent, warning = self.mailer.send([self.mailer.mail(None, incoming, letter)])
        self.mailer.ledger.put(incoming.message_id, handling.record("help"))
        return Outcome(incoming.message_id, "command", "help (no game named)", None, None, sent, warning)

    def _answer_replay(self, handling: Handling, seen: dict) -> Outcome:
        incoming = handling.incoming
        handling.gd = self._open(seen.get("game"))
        # TRANSLATORS: {message}: the message's Message-ID; {time}: when it was handled (ISO 8601).
        error = lazy("this message ({message}) was already handled on {time}; it is not applied twice. To move "
                     "again, write a new mail.", time=seen.get("time", "?"),
                     message=incoming.message_id if incoming.has_message_id else lazy("the same text"))
        with reading_as(handling.gd, senders.sender(self.mailer, handling)):
            outcome = self._reject(handling, Reject(error), record=False)
        outcome.result = "duplicate"
        return outcome

    def _open(self, game_id: str | None) -> engine.GameDir | None:
        if not game_id:
            return None
        try:
            return engine.open_game(self.root / game_id)
        except PbemError:
            return None

    def _game(self, handling: Handling) -> engine.GameDir:
        """The game the message is for (`handling.where`), opened; a Reject when it names none or none here."""
        candidates, where = telling.games_named(self.root, handling.incoming), handling.where
        if not candidates:
            raise Reject(lazy("no game named: reply to the last report (its subject has the [game-id] tag) or add a "
                              "line `Game: <game id>`."), [helptext.general_help(self.mailer.default_from)])
        if where is None:
            named = " or ".join(repr(c) for c in candidates[:4])
            # TRANSLATORS: {games}: the game ids the mail named, quoted ('g1' or 'g2').
            raise Reject(lazy("there is no game {games} here. Check the id in the subject's [tag] or the Game: line.",
                              games=named), [helptext.general_help(self.mailer.default_from)])
        try:
            gd = engine.open_game(self.root / where)
        except PbemError as exc:
            raise Reject(lazy("game {game} cannot be opened: {error}", game=where, error=self._shown(exc)),
                         english=f"game {where} cannot be opened: {self._plain(exc)}") from None
        gd.rereads = True  # the reports read what the move wrote
        return gd

    def _is_game(self, candidate: str) -> bool:
        """A folder of the root named as a game can be: opening it says what is wrong with its game.yaml (missing,
        not a file, not a game's), rather than answering that there is no such game."""
        return bool(engine.ID_PATTERN.match(candidate)) and os.path.isdir(self.root / candidate)

    def _shown(self, error) -> str:
        """An error as a player reads it, in the language being read: the files it names under the games root, not
        where the root is."""
        shown = error.render() if isinstance(error, PbemError) else str(error)
        return shown.replace(f"{self.root}{os.sep}", "")

    def _plain(self, error) -> str:
        """The same, in English (the organiser's log)."""
        return str(error).replace(f"{self.root}{os.sep}", "")

    def _refused(self, error: PbemError, extra: list[str] | None = None, seen: dict | None = None) -> Reject:
        """An error of the engine as a refusal: in its reader's language, and in English for the log."""
        return Reject(self._shown(error), extra, seen, english=self._plain(error))

    def _play(self, handling: Handling) -> Outcome:
        """What a message of a player of the game asks for: a command, an admin line, a queue or a move."""
        incoming, gd = handling.incoming, handling.gd
        handling.said, lines = talkmail.take(incoming.lines)
        incoming.lines, _ = parse.trim_pleasantries(lines, lambda text: moves.parses(gd, text))
        watching = spectators.request(incoming.lines)
        spectating = watching and (watching[0] != "language" or spectators.watcher(self.mailer, handling))
        if spectating and not handling.said:  # an address asking to watch, or one that watches: no password
            return spectators.answer(self.mailer, handling, *watching)
        player = senders.identify(self.mailer, handling)
        if handling.said and talkmail.checked(self.mailer, handling, player["name"]):
            return talkmail.answer(self.mailer, handling, player)
        if incoming.move_number_text is not None:
            # TRANSLATORS: "Move-Number:" is what the referee reads in a mail: keep it in English.
            raise Reject(lazy("Move-Number: {text} is not a number; write the move number of the last report, or "
                              "leave the line out.", text=repr(incoming.move_number_text)))
        if incoming.admin:
            return self._admin(handling, player)
        if incoming.command in ("help", "status", "moves"):
            return self._command(handling, player)
        if incoming.command in takeback.WORDS:
            word, sent = takeback.answer(self.mailer, handling, player)
            return Outcome(incoming.message_id, "command", word, gd.id, player["name"], *sent)
        if not incoming.lines:
            raise Reject(lazy("no move found in your mail: write your move lines below the Password: line (above or "
                              "below the quoted report, not inside it)."),
                          telling.legal_extra(self.mailer, handling, player["name"]))
        if len(incoming.lines) > parse.MAX_MOVE_LINES:
            raise Reject(lazy("more than {count} move lines: one mail is one turn.", count=parse.MAX_MOVE_LINES))
        texts = [piece for line in incoming.lines for piece in split_steps(line)]
        queued = moves.queue_only(gd.game, gd.players, texts)
        if queued is not None:
            return self._queue(handling, player["name"], queued)
        return self._move(handling, player, texts)

    def _command(self, handling: Handling, player: dict) -> Outcome:
        """`help`, `status`, `moves`: answered to the player alone."""
        gd, name, command = handling.gd, player["name"], handling.incoming.command
        body = telling.command_body(self.mailer, handling, name, command)
        letter = Letter(player["email"], compose.subject_for(gd, command), body, reply=True)
        msg = self._pictured(gd, player, command, self.mailer.mail(gd, handling.incoming, letter))
        sent = self.mailer.send([msg])
        self.mailer.ledger.put(handling.incoming.message_id, handling.record(command, player=name))
        return Outcome(handling.incoming.message_id, "command", command, gd.id, name, *sent)

    def _pending(self, handling: Handling, name: str):
        """What a change records before it is written (`before_write`): the message pending, so a run killed
        between the change and its answers answers it the next time (see ledger.py)."""
        def pending(number: int) -> None:
            self.mailer.ledger.put(handling.incoming.message_id, {"state": "pending", "source": handling.source,
                                                                  "game": handling.gd.id, "player": name,
                                                                  "move_number": number})
        return pending

    def _move(self, handling: Handling, player: dict, texts: list[str]) -> Outcome:
        gd, incoming, name = handling.gd, handling.incoming, player["name"]
        telling.not_played_yet(self.mailer, handling, name, incoming.move_number)
        try:
            result = correspondence.submit(gd, name, texts, by="player", move_number=incoming.move_number,
                                           password=incoming.password, now=self.now,
                                           before_write=self._pending(handling, name))
        except PbemError as exc:
            # the engine lists the legal moves on one line; the answer lists them one a line (below)
            shown = refused.without_legal(exc).replace(f"{self.root}{os.sep}", "")
            # a move its player sent (senders.identify checked the password) but the rules refuse: the answer that lists
            # the legal moves shows the board too (a mail refused before, a forged one, gets no picture)
            seen = self._view(gd, name) if compose.pictures_available(player) else None
            with language.reading(language.DEFAULT):
                english = refused.without_legal(exc).replace(f"{self.root}{os.sep}", "")
            raise Reject(shown, telling.legal_extra(self.mailer, handling, name), seen, english=english) from None
        self.mailer.reads.moved(gd)
        return self._after_move(handling, Told(name, compose.turn_entries(result),
                                               answer=result["moves"] == [engine.RESIGN]))

    def _pictured(self, gd: engine.GameDir, player: dict, command: str, msg):
        """The answer to `status` shows the board (the player asked to see the position), the answer to `moves`
        when the moves are theirs to make; `help` is words only; and none for a player who turned pictures off."""
        wanted = command in ("status", "moves") and compose.pictures_available(player)
        seen = self._view(gd, player["name"]) if wanted else None
        if seen is None:
            return msg
        return compose.add_picture(msg, seen) if command == "status" else compose.picture_if_asked(msg, seen, player)

    @staticmethod
    def _view(gd: engine.GameDir, name: str) -> dict | None:
        """The player's status, or None when it cannot be read (the answer is then text only)."""
        try:
            return engine.status(gd, name)
        except PbemError:
            return None

    def _queue(self, handling: Handling, name: str, texts: list[str]) -> Outcome:
        """`queue` and steps (or standing orders alone): the player's queue replaced, answered with what it holds;
        when it answers the decision waiting at once, its moves are reported to everyone like a move."""
        gd, incoming = handling.gd, handling.incoming
        if not texts:  # `queue` alone: what the queue holds, nothing changed
            lines = phrases.queue_lines(engine.status(gd, name).get("queue"), game_type=gd.game.id)
            body = "\n".join([_("Your queue (only you see it):"), *lines] if lines else [_("Nothing is queued.")])
            return self._answer(handling, name, _("queue"), body)
        try:
            result = correspondence.set_queue(gd, name, texts, by="player", move_number=incoming.move_number,
                                              password=incoming.password, now=self.now,
                                              before_write=self._pending(handling, name))
        except PbemError as exc:
            raise self._refused(exc) from None
        self.mailer.reads.moved(gd)
        if result["moves_played"]:  # a command: answered whatever the player's preference
            return self._after_move(handling, Told(name, result["moves_played"], answer=True,
                                                   lead=lazy("Your queue is set, and it played at once.")))
        lines = phrases.queue_lines(result["queue"], game_type=gd.game.id)
        body = "\n".join([_("Your queue is set; only you see it:"), *lines] if lines else [_("Your queue is empty.")])
        return self._answer(handling, name, _("queue recorded"), body)

    def _answer(self, handling: Handling, name: str, what: str, body: str) -> Outcome:
        """A reply to the player alone, the message recorded as done."""
        gd = handling.gd
        player = next(p for p in self.mailer.reads.secrets(gd)["players"] if p["name"] == name)
        letter = Letter(player["email"], compose.subject_for(gd, what), body, reply=True)
        sent = self.mailer.send([self.mailer.mail(gd, handling.incoming, letter)])
        self.mailer.ledger.put(handling.incoming.message_id, handling.record("queue", player=name))
        return Outcome(handling.incoming.message_id, "command", "queue", gd.id, name, *sent)

    def _admin(self, handling: Handling, player: dict) -> Outcome:
        """`vacation FROM TO`, `vacation cancel`, `notify every|turn|daily`, `pictures on|off` (pbem.mail.admin)."""
        try:
            word, sent = admin.answer(self.mailer, handling, player)
        except PbemError as exc:
            raise self._refused(exc) from None
        return Outcome(handling.incoming.message_id, "command", word, handling.gd.id, player["name"], *sent)

    def _after_move(self, handling: Handling, told: Told) -> Outcome:
        """Mail what a turn calls for (pbem.mail.telling.reports), and record the message done."""
        lead = told.lead or lazy("Your move {number} is accepted.", number=told.entries[0]["number"])
        messages = telling.reports(self.mailer, handling, Told(told.mover, told.entries, told.answer, lead))
        answers, talked = talkmail.after_move(self.mailer, handling, told.mover)
        sent = talkmail.send(self.mailer, handling.gd, messages + answers, talked)
        telling.record_accepted(self.mailer, handling, told)
        self.mailer.save_bookmarks()
        with language.reading(language.DEFAULT):  # the organiser's log
            detail = compose.entry_line(told.entries[0]).splitlines()[0]
        return Outcome(handling.incoming.message_id, "accepted", detail, handling.gd.id, told.mover, *sent)

    def _recover(self, handling: Handling, seen: dict) -> Outcome | None:
        """A run died between marking this message pending and marking it done. If its move was applied, send
        the replies now; if not, handle it afresh (returns None)."""
        gd = self._open(seen.get("game"))
        if gd is None or self.mailer.reads.public(gd)["move_number"] <= seen["move_number"]:
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
        handling.gd = gd
        handling.said = talkmail.take(handling.incoming.lines)[0]  # kept once: the run that died may have kept it
        return self._after_move(handling, Told(seen["player"], [entry, *auto],
                                               answer=entry["moves"] == [engine.RESIGN]))

    def _reject(self, handling: Handling, reject: Reject, record: bool = True) -> Outcome:
        """Bad mail answered to its sender (the registered address it came from, when it is a player's), with
        every secret of the game and every password it showed redacted; nothing changed."""
        incoming, gd = handling.incoming, handling.gd
        registered = senders.registered(self.mailer, gd)
        redact = list(incoming.passwords_seen) + [p["secret"] for p in registered]
        mine = [p for p in registered if p["email"] and p["email"].lower() == incoming.sender]
        to = (mine[0]["email"] if mine else None) or incoming.sender
        sent, warning = [], None
        if to and not incoming.auto_submitted:
            body = compose.rejection(reject.error, incoming.notes, reject.extra, gd.id if gd else None)
            if gd:
                subject = compose.subject_for(gd, _("not applied"))
            elif incoming.subject:
                # TRANSLATORS: {subject}: the subject of the mail refused (its first 80 characters).
                subject = _("pbem: your mail was not applied (Re: {subject})", subject=incoming.subject[:80])
            else:
                subject = _("pbem: your mail was not applied")
            msg = self.mailer.mail(gd, incoming, Letter(to, subject, body, reply=True, redact=redact))
            reader = next((p for p in registered if reject.seen is not None and p["name"] == reject.seen.get("player")
                           and p["email"] == to), None)  # the answer goes to that player's address
            if reader is not None:
                msg = compose.picture_if_asked(msg, reject.seen, reader)
            sent, warning = self.mailer.send([msg])
        elif not to:
            warning = "no valid From address to answer"
        if record:
            self.mailer.ledger.put(incoming.message_id, handling.record("rejected"))
        detail = compose.hide(reject.english(), redact)
        return Outcome(incoming.message_id, "rejected", detail.splitlines()[0][:300], gd.id if gd else None, None,
                       sent, warning)
