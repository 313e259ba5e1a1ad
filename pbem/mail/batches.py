"""A mailbox's waiting messages handled in arrival order, each moved aside once what it changed is on disk: as one
batch in this process, or shared out among worker processes (`pbem mail inbox --workers N`).

With workers, the run reads the waiting messages a chunk at a time (CHUNK messages, or CHUNK_BYTES) and the game
each is for (Referee.where), and shares the chunk out in groups (pbem.engine.parallel), each worker taking the next
group when it is done with one: all the messages of one game are one group, in the order they arrived, and so are
all the messages that share a Message-ID (the ledger knows a message by
it). Mail that names none of the root's games (no tag, an unknown game, a stranger's) is one group of its own: one
worker answers it, in arrival order, under the lock of no game; a command, a forged move or a wrong password naming
a game goes with that game's mail, so its answer tells the position its mail found.

Before it forks, the run handles one message itself (the first to arrive), as a batch of its own, so that the
workers share what their first mail would each load again (a title's rules, fonts, the words of its board); a fork
of its own reads the other messages meanwhile (parallel.beside), on the core that would otherwise wait. Each worker
is a fork of the run and handles its share as one batch, exactly as a run with one worker does
(pbem.mail.outgoing.Mailer.batch: each game's mail lock held from the ledger's look-up until the answers and
records are on disk, every move a transaction of its game). It tells the run each outcome, and once a message's
answers and records are on disk, that it may be moved aside: the run moves it, since the mailbox is the run's —
the Maildir's files, the mbox it rewrites at the end, and the one IMAP connection that fetched the messages (one
connection, not one a worker: servers limit them, and fetching is little work beside a move). A worker that dies
leaves its messages in the mailbox, told as errors; the next run handles them, and the ledger, the journals and the
games' transactions see that nothing is lost or done twice (pbem.mail.ledger).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator

from .. import digests
from ..engine import parallel
from .commands import Referee
from .locks import NO_GAME
from .outcome import Outcome
from .parse import Incoming, parse_message

CHUNK = 1000  # messages read and shared out at a time
CHUNK_BYTES = 64 * 1024 * 1024  # ... or fewer, once this much mail is read


@dataclass
class Waiting:
    """One message in a mailbox: its bytes (only the head when it is too large), full size, and where it is."""

    raw: bytes
    size: int
    source: str
    done: Callable[[], None]  # move it aside


def attempt(handle: Callable[[], Outcome], source: str) -> Outcome:
    """What `handle()` came to; trouble on the referee's side is an error, and the message stays for the next run
    (one message never stops the batch)."""
    try:
        return handle()
    except Exception as exc:  # noqa: BLE001 — reported; the batch goes on with the next message
        return failure(source, exc)


def failure(source: str, exc: Exception) -> Outcome:
    return Outcome(source, "error", f"not handled, left in the mailbox: {type(exc).__name__}: {exc}")


def move_aside(item: Waiting, outcome: Outcome) -> None:
    try:
        item.done()
    except Exception as exc:  # noqa: BLE001 — handled and recorded; a next run only moves it aside
        outcome.warning = f"could not move it aside ({exc}); the ledger knows it is handled"


def handle_all(referee: Referee, items: Iterable[Waiting], workers: int = 1) -> list[Outcome]:
    """Handle the waiting messages in arrival order, each moved aside once what it changed is on disk: in this
    process as one batch, or with `workers` > 1 shared out among worker processes (below)."""
    if workers > 1:
        return _handle_shared(referee, items, workers)
    outcomes: list[Outcome] = []
    with referee.batch():
        for item in items:
            if len(outcomes) == 1:  # a batch of more than one: OpenSSL's hashing, as the workers have it (below)
                digests.for_many()
            outcome = attempt(lambda: referee.handle(item.raw, item.size, item.source), item.source)
            outcomes.append(outcome)
            if outcome.result != "error":
                referee.after(lambda item=item, outcome=outcome: move_aside(item, outcome))
    return outcomes


# ---------------------------------------------------------------- with workers

def _handle_shared(referee: Referee, items: Iterable[Waiting], workers: int) -> list[Outcome]:
    """Handle the waiting messages with `workers` worker processes; their outcomes in arrival order."""
    outcomes: list[Outcome] = []
    for chunk in _chunks(iter(items)):
        outcomes += _handle_chunk(referee, chunk, workers)
    return outcomes


def _chunks(items: Iterator[Waiting]) -> Iterator[list[Waiting]]:
    while True:
        chunk, size = [], 0
        for item in items:
            chunk.append(item)
            size += len(item.raw)
            if len(chunk) >= CHUNK or size >= CHUNK_BYTES:
                break
        if not chunk:
            return
        yield chunk


def read_each(referee: Referee, chunk: list[Waiting], indices: Iterable[int]
              ) -> tuple[dict[int, tuple[Incoming, str | None]], dict[int, Outcome]]:
    """The messages at `indices` parsed, each with the game it is for (Referee.where), so the shares know each
    one's game; and the outcome of each that could not be read (told, left in the mailbox, as by one process)."""
    read, unread = {}, {}
    for index in indices:
        item = chunk[index]
        try:
            incoming = parse_message(item.raw, item.size)
        except Exception as exc:  # noqa: BLE001 — as in a batch of one process: told, left in the mailbox
            unread[index] = failure(item.source, exc)
            continue
        read[index] = (incoming, referee.where(incoming))
    return read, unread


READ_BESIDE = 16  # messages in a chunk from which the rest are read in a process of their own (a fork: ~1 ms)


def _handle_chunk(referee: Referee, chunk: list[Waiting], workers: int) -> list[Outcome]:
    """The chunk's first message handled here, as a batch of its own, so that what a first mail loads (a title's
    rules, fonts, the words of its board, the writing of a move and of its mails) the workers share from the fork
    instead of each loading it again; meanwhile the others are read in a process of their own (the other core's
    work while this one answers the first), then shared out. The first message in arrival order is the first of
    its group (its game's, or its Message-ID's), so its group's order holds. One group: all of it here, in one
    batch, and no worker."""
    outcomes: list[Outcome | None] = [None] * len(chunk)
    rest = range(1, len(chunk))
    reading = parallel.beside(lambda: read_each(referee, chunk, rest)) if len(chunk) >= READ_BESIDE else None
    handled, stopped, why = set(), {}, ""
    try:
        read, unread = read_each(referee, chunk, [0])
        if len(chunk) > 1:  # OpenSSL's hashing started once, here, for the mails of this process and of its workers
            digests.for_many()

        def handle_each(indices: Iterable[int], report) -> None:
            for index in indices:
                incoming, where = read[index]
                source = chunk[index].source
                outcome = attempt(lambda: referee.handle_read(incoming, source, where), source)
                report(("outcome", index, outcome))
                if outcome.result != "error":
                    referee.after(lambda index=index: report(("handled", index)))

        def work(indices: Iterable[int], report) -> None:
            with referee.batch():
                handle_each(indices, report)

        def take(said) -> None:
            kind, index, *outcome = said
            if kind == "outcome":
                outcomes[index] = outcome[0]
            else:
                handled.add(index)
                move_aside(chunk[index], outcomes[index])
        with referee.batch():
            handle_each(list(read), take)
            for part, value in zip((read, unread), (reading and reading.result()) or read_each(referee, chunk, rest)):
                part.update(value)
            ready = sorted(read)
            every = [[ready[i] for i in group] for group in parallel.groups(_groups([read[i] for i in ready]))]
            work_groups = [left for group in every if (left := [index for index in group if index != 0])]
            if len(every) == 1:  # one game's mail (or no game's): no worker to start, and one batch
                handle_each(work_groups.pop() if work_groups else [], take)
    finally:
        if reading is not None:
            reading.end()
    for index, outcome in unread.items():
        outcomes[index] = outcome
    for _, said in parallel.run(work_groups, workers, work) if work_groups else ():
        if isinstance(said, parallel.Stopped):
            why = said.text()
            stopped.update({index: why for index in said.taken})
        else:
            take(said)
    return [outcome if outcome is not None and (outcome.result == "error" or index in handled)
            else _left(chunk[index], outcome, stopped.get(index, why)) for index, outcome in enumerate(outcomes)]


def _groups(read: list[tuple[Incoming, str | None]]) -> list[int]:
    """Which messages must be handled by one worker, in order: those of one game (or of no game), and those that
    share a Message-ID. The group of each message, as a number."""
    group_of: dict[tuple[str, str], int] = {}
    merged: dict[int, int] = {}
    numbers = itertools.count()

    def root(group: int) -> int:
        while merged.get(group, group) != group:
            group = merged[group]
        return group
    groups = []
    for incoming, where in read:
        keys = [("game", where or NO_GAME), ("message", incoming.message_id)]
        found = sorted({root(group_of[key]) for key in keys if key in group_of})
        group = found[0] if found else next(numbers)
        for other in found[1:]:
            merged[other] = group
        for key in keys:
            group_of[key] = group
        groups.append(group)
    return [root(group) for group in groups]


def _left(item: Waiting, outcome: Outcome | None, why: str) -> Outcome:
    """A message its worker did not finish (`why`: what became of the worker): it stays in the mailbox for the next
    run."""
    why = why or "its worker stopped"
    if outcome is None:
        return Outcome(item.source, "error", f"not handled, left in the mailbox: {why}")
    return Outcome(outcome.message_id, "error", f"{outcome.result} ({outcome.detail}), but {why} before its answers "
                   f"were on disk: left in the mailbox, the next run answers it", outcome.game, outcome.player)
