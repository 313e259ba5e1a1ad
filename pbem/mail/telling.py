"""What the referee tells each player: the moves they have not heard of (pbem.mail.news bookmarks), the reports
a turn calls for as each one's preference says, the answer to a notify switch, a command's answer and the legal
moves. A part of pbem.mail.commands.Referee."""
from __future__ import annotations

from email.message import EmailMessage

from ..clock import clock, correspondence
from ..contract import PbemError
from ..engine import engine
from . import clockmail, compose, news, parse


class Telling:
    """The Referee's telling side (it needs the Referee's games, secrets, ledger and _mail)."""

    def bookmarks(self, gd: engine.GameDir) -> news.Bookmarks:
        """What each player of the game was told (pbem.mail.news), read once while the root's lock is held."""
        if gd.id not in self._books:
            self._books[gd.id] = news.Bookmarks(news.folder(self.ledger.base) / f"{gd.id}.json",
                                                self._secrets(gd)["players"])
        return self._books[gd.id]

    def forget_bookmarks(self) -> None:
        """The lock is taken anew: read the bookmarks again."""
        if self._after is None:
            self._books = {}

    def save_bookmarks(self) -> None:
        """Write what the players were told, once the mails that told them are sent and recorded: now, or in a
        batch at its flush (`flush`: a bookmark is never ahead of the mails)."""
        if self._after is None:
            news.save(list(self._books.values()))

    def now_moment(self):
        return clock.moment(self.now)

    def _switched(self, gd: engine.GameDir, before: dict, preference: str) -> tuple[str, str]:
        """The answer to `notify`: what the player will get from now on, and what they have not been told yet (with
        their turn, if it is theirs): a switch loses nothing, whenever it comes."""
        promise = {"every": "You will get a report after every move.",
                   "turn": "You will get a mail when it is your turn, telling what happened since your last mail (and "
                           "the end of the game).",
                   "daily": "You will get one digest a day of the moves you have not heard of, sent by the referee's "
                            "first round of the day that has any (and the end of the game, your reminders and the "
                            "answers to your mail)."}[preference]
        moment = news.Moment(gd, last=self._public(gd)["move_number"] - 1)
        told = news.tell(self.bookmarks(gd), moment, before)  # counted as the old preference had told them
        subject, body = compose.player_report(gd, before["name"], compose.news_text(told, "Since your last mail:"),
                                              intro=f"Your mail preference is now `{preference}`. {promise}",
                                              now=self.now_moment(), preference=preference)
        turn = ", your turn" if "your turn" in subject else ""
        return compose.subject_for(gd, f"notify {preference} recorded{turn}"), body

    def _reports(self, incoming, gd, roster, organiser, mover, entries, answer, lead) -> list[EmailMessage]:
        """The mails a turn calls for: the answer to the mover and the reports to the others, each as their
        preference says (clockmail.wants_report), each telling what that player has not heard of yet."""
        messages = []
        doc = self._public(gd)
        moment, book, now = news.Moment(gd, entries), self.bookmarks(gd), self.now_moment()
        for player in roster:
            name = player["name"]
            if not player["email"] or not clockmail.wants_report(player, mover, doc, answer=answer):
                continue  # the player chose to hear only of their turn, or a daily digest
            told = news.tell(book, moment, player)
            heading = "Since your last mail:" if told and told[0]["number"] < moment.first else None
            seen = engine.status(gd, name)
            subject, body = compose.player_report(gd, name, compose.news_text(told, heading),
                                                  lead=lead if name == mover else None, now=now,
                                                  preference=correspondence.notify_of(player), doc=seen)
            msg = self._mail(gd, incoming, player["email"], subject, body, reply=name == mover, player=name)
            messages.append(compose.picture_if_asked(msg, seen))  # only the mail that asks them to act
        if organiser and doc["finished"]:
            subject, body = compose.public_report(gd, compose.news_text(entries))
            messages.append(self._mail(gd, incoming, organiser, subject, body, reply=False, player=None))
        return messages

    def _command_body(self, gd: engine.GameDir, name: str, command: str, incoming: parse.Incoming) -> str:
        if command == "help":
            return "\n\n".join([compose.how_to_move(gd, self._public(gd)["move_number"]), compose.notation_help(gd)])
        legal = engine.legal(gd, name)
        if command == "moves":
            if legal["to_act"] is None:
                return "The game is over."
            if legal["to_act"] != name:
                return f"It is {legal['to_act']}'s turn (move {legal['move_number']}); you have no move now."
            return "\n\n".join([compose.turn_head(self._public(gd), self.now_moment()), compose.legal_block(legal),
                                compose.how_to_move(gd, legal["move_number"])])
        _, body = compose.player_report(gd, name, None, legal if legal["to_act"] == name else None,
                                        now=self.now_moment(), preference=correspondence.notify_of(
                                            next(p for p in self._secrets(gd)["players"] if p["name"] == name)))
        return body

    def _legal_extra(self, gd: engine.GameDir, name: str) -> list[str]:
        try:
            legal = engine.legal(gd, name)
        except PbemError:
            return []
        if legal["to_act"] is None:
            return ["The game is over."]
        if legal["to_act"] != name:
            return [f"It is {legal['to_act']}'s turn (move {legal['move_number']}): "
                    f"{legal['decision']['description']}. You will get a mail when it is yours."]
        return [compose.turn_head(self._public(gd), self.now_moment()), compose.legal_block(legal),
                compose.how_to_move(gd, legal["move_number"])]
