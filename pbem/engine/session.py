"""Turns played in memory on a game whose lock is held, written together: `pbem demo`, whose files nobody waits
for between its reports, and the benchmarks.

Each turn is checked and played exactly as `submit` does (pbem.engine.writer); `write` commits the turns since the
last write as one transaction holding every one of them, which writes the very files a turn-by-turn game would
have.
"""
from __future__ import annotations

import contextlib
import json

from ..store import gamedir
from . import documents, writer


class Session:
    """Turns played in memory on a game whose lock is held, written together (`pbem demo`, whose files nobody
    waits for). Each turn is checked and played exactly as `submit` does; `write` commits the turns since the
    last write as one transaction, which writes the very files a turn-by-turn game would have."""

    def __init__(self, gd: gamedir.GameDir):
        self.gd = gd
        gd.rereads = True
        self.written = gamedir.load_state(gd)  # the envelope as the files hold it
        self.env = dict(self.written)  # the position now
        self.entries: list[dict] = []  # played since the last write

    @property
    def state(self) -> dict:
        return self.env["state"]

    @property
    def move_number(self) -> int:
        return self.env["move_number"]

    def submit(self, player: str, texts: list[str], *, by: str = "player", move_number: int | None = None,
               signature: str | None = None) -> dict:
        """As `submit` (a player's turn, signed, or entered by the referee), in memory."""
        gamedir.check_player(self.gd, player)
        # a turn of one decision is refused before the game changes anything, or not at all: its state is handed
        # over; a longer one may be refused after its first decision, and the session's position must survive that
        sent = writer.Submission(by=by, move_number=move_number, signature=signature)
        state, entries, records = writer.play(self.gd, self.env, player, texts, sent, handed_over=len(texts) == 1)
        recent = self.env["recent"] + [documents.public_entry(self.gd.game, entry) for entry in entries]
        self.env = {**self.env, "state": state, "move_number": entries[-1]["number"] + 1, "queues": records,
                    "recent": recent[-documents.RECENT:]}
        # kept until written, while the next turns change the state in place, which may hold what these entries
        # record (a shuffled deck): kept as they are now
        self.entries += json.loads(json.dumps(entries))
        return writer.turn_result(self.gd, entries, self.env)

    def write(self) -> None:
        if self.entries:  # (a demo's game has no deadlines: nothing else in its envelope changes)
            writer.commit_turn(self.gd, self.written, self.state, self.entries, self.env["resigned"],
                               queues=self.env.get("queues") or {})
            self.written, self.entries = gamedir.load_state(self.gd), []
            self.env = dict(self.written)

    def status(self, viewer: str | None = None) -> dict:
        """The status document as last written (the lock is this session's: read without it)."""
        return gamedir.read_status(self.gd, viewer)


@contextlib.contextmanager
def session(gd: gamedir.GameDir):
    """A Session on the game, its lock held throughout; turns not written when it ends are dropped."""
    with gamedir.locked(gd):
        yield Session(gd)
