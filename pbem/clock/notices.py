"""What a change of a game owes its players and has not told them yet: a tick's reminders, timeout notices and
the reports of the moves it played.

The transport that will tell them (the mail referee) asks for them to be recorded: they are then written into
`referee/notices.yaml` in the same transaction as the change itself, so a change is never on disk without what
it owes. The transport tells them, then takes them off (`settle`, a transaction of that one file). A run killed
in between leaves them owed: whichever run of the transport comes next finds them and tells them (once: see
pbem.mail.clockmail). Transport-neutral: each record holds what happened (the clock's events and the log entries
as the public sees them), not mails.
"""
from __future__ import annotations

from ..engine.documents import yaml_text
from ..store.gamedir import NOTICES, PRIVATE, GameDir, commit_files, locked
from ..store.safefiles import Missing

SCHEMA = "notices.schema.json"
MAX_OWED = 200  # records kept: a transport that never tells them must not let the file grow for ever


def owed(gd: GameDir) -> list[dict]:
    """The records not told yet, oldest first (none when the file is absent: a game that never owed any)."""
    try:
        data = gd.read_bytes(NOTICES)
    except Missing:
        return []
    return gd.read(NOTICES, SCHEMA, data)["owed"]


def record(gd: GameDir, at: str, events: list[dict], entries: list[dict]) -> tuple[dict, dict[str, tuple[str, int]]]:
    """A new record (its `id` made here, unique) and the file that owes it after the ones owed already: commit the
    file with the change (writer.commit's `also`). The caller holds the game's lock."""
    import secrets  # here only: a tick that changed a game, with mail
    new = {"id": secrets.token_hex(8), "at": at, "events": events, "entries": entries}
    return new, _file(gd, (owed(gd) + [new])[-MAX_OWED:])


def settle(gd: GameDir, told: list[str]) -> None:
    """Take the records `told` (their ids) off, under the game's lock (one small transaction)."""
    with locked(gd):
        before = owed(gd)
        left = [item for item in before if item["id"] not in told]
        if left != before:
            commit_files(gd, _file(gd, left))


def _file(gd: GameDir, items: list[dict]) -> dict[str, tuple[str, int]]:
    doc = {"format": "pbem-notices/1", "id": gd.id, "owed": items}
    return {NOTICES: (yaml_text(NOTICES, SCHEMA, doc, gd.meta["game"], gd.where(NOTICES)), PRIVATE)}
