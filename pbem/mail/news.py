"""What each player of a game has been told: one bookmark per player, the last log entry a mail told them.

Every mail that tells moves — the answer to a player's move, the report of a move, a turn mail, a timeout notice,
a daily digest, the answer to `notify`, the welcome of a player who takes over a seat — tells the log entries after
the player's bookmark, and moves the bookmark past them. So a player hears of each move once, in whichever mail
comes first, whatever their preference and however often they change it; a seat handed on is an entry like the
others, so everyone hears of it too.

The bookmarks are the mail transport's own record, beside the mail ledger: ROOT/.pbem-mail/digests/<game>.json,
`{player: {"through": last entry told, "day": UTC day of the last daily digest}}` (the daily digests kept their
bookmarks there before every mail did: one record, not two). They are written after the mails they account for
and those mails' ledger records, so a bookmark is never ahead of what was sent. A run killed in between leaves them
behind: the mails a change owes and the digests are made again with the same Message-IDs, found sent, and each
ledger record says how far its mail told (pbem.mail.clockmail.send_told), so those tell nothing twice; after the
answers to a player's own mail, the next mail may tell those moves again, never not at all. A player without a bookmark
has been told nothing, unless the game is older than this record (some player with an address has no `notify` recorded:
the games made before kept only the ones that were not `every`); then they count as told what its mails told: everything
before the moment's own moves, since their last move for a `turn` player, nothing for a `daily` player who never had a
digest.
"""
from __future__ import annotations

import json
from pathlib import Path

from ..clock.correspondence import notify_of
from ..contract import PbemError
from ..engine import engine
from ..store import safefiles

FOLDER = "digests"


class Bookmarks:
    """The bookmarks of one game's players, read once while the game's mail lock is held (Mailer.bookmarks).
    `roster`: the game's players as secrets.yaml records them (whether the game is older than the bookmarks)."""

    def __init__(self, path: Path, roster: list[dict]):
        self.path = path
        self.marks = _read(path)
        self.changed = False
        self.older = any(p.get("email") and "notify" not in p for p in roster)

    def through(self, name: str) -> int | None:
        mark = self.marks.get(name)
        return mark.get("through") if isinstance(mark, dict) and isinstance(mark.get("through"), int) else None

    def day(self, name: str) -> str:
        mark = self.marks.get(name)
        return mark.get("day", "") if isinstance(mark, dict) and isinstance(mark.get("day"), str) else ""

    def tell(self, name: str, number: int, day: str | None = None) -> None:
        mark = dict(self.marks.get(name) or {})
        mark.setdefault("day", "")
        mark["through"] = max(number, mark.get("through") or 0)
        if day is not None:
            mark["day"] = day
        if mark != self.marks.get(name):
            self.marks[name] = mark
            self.changed = True

    def snapshot(self) -> dict[str, int | None]:
        """How far each player was told, to go back to (rewind)."""
        return {name: self.through(name) for name in self.marks}

    def rewind(self, name: str, number: int) -> None:
        """Put a bookmark back where a mail sent by an earlier run left it (clockmail.send_told): never past what
        was sent."""
        mark = dict(self.marks.get(name) or {"day": ""})
        if mark.get("through") != number:
            self.marks[name] = {**mark, "through": number}
            self.changed = True

    def text(self) -> str:
        return json.dumps(self.marks, sort_keys=True, indent=1) + "\n"


def _read(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        raise PbemError(f"{path}: unreadable record of what the players were told ({exc})") from None
    return data if isinstance(data, dict) else {}


def folder(base: Path) -> Path:
    path = base / FOLDER
    path.mkdir(mode=0o700, exist_ok=True)
    return path


def save(books: list[Bookmarks]) -> None:
    """Write the bookmarks that changed, each replaced atomically (a new file renamed over the old one, never
    through a link), with no fsync: a bookmark that a crash takes back is behind the mails, so it only makes a move
    told twice, never untold; the mails and their records cost the fsyncs."""
    for book in books:
        if book.changed:
            safefiles.write_atomic(book.path, book.text(), 0o600, durable=False)
            book.changed = False


class Moment:
    """The news of one moment of a game (a turn accepted, a tick, a digest, a switch): the public log entries
    this moment made (`fresh`, maybe none) and, read only when a bookmark is older, the ones before."""

    def __init__(self, gd: engine.GameDir, fresh: list[dict] | None = None, last: int | None = None):
        self.gd, self.fresh = gd, list(fresh or [])
        self.last = self.fresh[-1]["number"] if self.fresh else last
        self._log: list[dict] | None = None

    @property
    def first(self) -> int | None:
        return self.fresh[0]["number"] if self.fresh else None

    def log(self) -> list[dict]:
        if self._log is None:
            self._log = engine.read_log(self.gd)["entries"] or []
            if self.last is None:
                self.last = self._log[-1]["number"] if self._log else 0
        return self._log

    def after(self, number: int) -> list[dict]:
        """The public entries after `number`, up to this moment's last."""
        if self.last is None:
            self.log()
        if self.first is not None and number >= self.first - 1:
            return [entry for entry in self.fresh if entry["number"] > number]
        return [entry for entry in self.log() if number < entry["number"] <= self.last]

    def assumed(self, player: dict, older: bool) -> int:
        """What a player without a bookmark counts as told (nothing, or in an `older` game what its mails told)."""
        preference = notify_of(player)
        if not older:
            return 0
        if preference == "daily" and self.first is None:
            return 0
        if self.last is None:
            self.log()
        before = self.first - 1 if self.first is not None else self.last
        if preference == "turn":
            own = [entry["number"] for entry in self.log() if entry["player"] == player["name"]
                   and entry["by"] == "player" and entry["number"] <= before]
            return min(before, max(own, default=0))
        return before


def tell(book: Bookmarks, moment: Moment, player: dict) -> list[dict]:
    """The entries `player` has not been told as of `moment`; their bookmark moves past them (the caller mails
    them)."""
    name = player["name"]
    through = book.through(name)
    if through is None:
        through = moment.assumed(player, book.older)
    news = moment.after(through)
    book.tell(name, news[-1]["number"] if news else through)
    return news


def untold(book: Bookmarks, moment: Moment, player: dict) -> list[dict]:
    """The same entries, the bookmark left where it is (to see whether a mail is due)."""
    through = book.through(player["name"])
    return moment.after(moment.assumed(player, book.older) if through is None else through)
