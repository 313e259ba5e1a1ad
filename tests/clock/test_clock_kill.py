"""`pbem tick` killed at any point: one more tick afterwards sends every mail the clock owes exactly once, and no
move is applied twice. What a tick's change owes the players is recorded with the change (pbem.clock.notices) and told
by whichever run comes next; each owed mail and each digest is delivered once (Mailer.send_owed). The same with two
workers (`--workers 2`), the run killed whole or one worker alone.

A few trials here; benchmarks/reliability.py runs a hundred and more (PBEM_KILL_TRIALS)."""
from __future__ import annotations

import collections
import contextlib
import datetime
import email
import email.policy
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pbem.cli.commands import cli
from pbem.clock import notices
from pbem.engine import engine
from pbem.store import transactions
from pbem.store.gamedir import STATE_DIGEST, reading
from pbem.text import times
from support import NAMES, Pbem, group_ended, workers_of

TRIALS = int(os.environ.get("PBEM_KILL_TRIALS", "3"))
PBEM = str(Path(sys.executable).with_name("pbem"))
pytestmark = pytest.mark.xdist_group("clock-kill")  # one xdist worker: the reference tick run once a run
# each game of the root owes something at TICK: timeouts played (and their reports), a reminder, late notices,
# a daily digest of the moves made since the day before (to carol, whom no event of the tick is about: a notice
# tells its player what they have not heard of, a digest's moves with it): (players, options)
GAMES = {
    "timeouts": (3, ("--deadline", "8h", "--on-timeout", "first-legal", "--notify", "carol=daily")),
    "reminder": (2, ("--deadline", "30h", "--reminder", "10h")),
    "waiting": (2, ("--deadline", "2h", "--on-timeout", "wait")),
    "bots": (2, ("--deadline", "6h", "--on-timeout", "bot", "--timeouts", "2")),
}
T0 = "2025-12-01T12:00:00Z"
ORGANISER = "referee@club.example"


def at(hours: float) -> str:
    return times.iso(times.parse_time(T0) + datetime.timedelta(hours=hours))


TICK = at(26)


def make_root(base: Path) -> Path:
    """A games root whose every game owes mail at TICK (the digests' day has moves: one tick the day before)."""
    root = base / "games"
    root.mkdir(parents=True)
    pbem = Pbem()
    for game_id, (players, options) in GAMES.items():
        args = ["new", "coal-baron", root / game_id, "--seed", game_id, "--now", T0, "--organiser", ORGANISER,
                *options]
        for name in NAMES[:players]:
            args += ["--player", f"{name}:{name}@club.example"]
        assert pbem(*args).code == 0
    assert pbem("tick", root, "--now", at(9), "--no-mail").code == 0  # moves of the first day (told by no one)
    return root


def tick(root: Path, outbox: Path, kill_after: float | None = None, workers: str = "1") -> float:
    """`pbem tick ROOT --workers N` as cron runs it (a process of its own), killed with SIGKILL after `kill_after`
    seconds, with its workers (as a timeout or a reboot kills it). Returns how long it ran."""
    started = time.monotonic()
    process = start_tick(root, outbox, workers)
    if kill_after is not None:
        try:
            process.wait(kill_after)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
    process.wait(120)
    if kill_after is None:
        assert process.returncode == 0, process.stderr.read().decode()
    process.stderr.close()
    assert group_ended(process.pid)  # no worker outlives its run: the next run finds the root to itself
    return time.monotonic() - started


def start_tick(root: Path, outbox: Path, workers: str) -> subprocess.Popen:
    return subprocess.Popen([PBEM, "tick", str(root), "--now", TICK, "--outbox", str(outbox), "--workers", workers],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)


def mails(outbox: Path) -> collections.Counter:
    """Every mail in the outbox as (to, subject, body), counted."""
    found = collections.Counter()
    for path in sorted((outbox / "new").iterdir()):
        msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        found[(msg["To"], msg["Subject"], msg.get_body(("plain",)).get_content())] += 1
    return found


def games(root: Path) -> dict[str, tuple]:
    """Each game's full log and clock: what the moves and the clock came to, read as pbem's readers read (under
    the game's lock, through a move a killed tick committed and had not put wholly in place: between its state
    and the state's checksum the files on disk do not agree, and no reader of pbem reads them so)."""
    out = {}
    for game_id in GAMES:
        gd = engine.open_game(root / game_id)
        with reading(gd):
            env = engine.load_state(gd)
            out[game_id] = (engine.read_log(gd, full=True)["entries"], env.get("clock"), notices.owed(gd))
    return out


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The root before the tick, and what one tick that is not killed does to it: its mails, its games, its time."""
    base = tmp_path_factory.mktemp("kill")
    pristine = make_root(base / "pristine")
    work = base / "reference"
    shutil.copytree(pristine.parent, work)
    took = tick(work / "games", work / "outbox")
    sent = mails(work / "outbox")
    assert sent and max(sent.values()) == 1
    subjects = " ".join(subject for _, subject, _ in sent)
    for kind in ("timeout: the referee moved for you", "reminder", "overdue", "daily digest", "resigned"):
        assert kind in subjects, subjects
    return pristine, sent, games(work / "games"), took


def kill_trial(reference, base: Path, seed: int, workers: str = "1") -> bool:
    """One trial: a tick killed at a random moment, then one more tick. Returns whether the kill left a change
    whose mails were still owed (the case this is about) or digests not yet sent."""
    pristine, sent, ended, took = reference
    work = base / f"trial-{seed}"
    shutil.copytree(pristine.parent, work)
    root, outbox = work / "games", work / "outbox"
    tick(root, outbox, random.Random(seed).uniform(0.1, took), workers)
    owed = any(state[2] for state in games(root).values())
    partial = (outbox / "new").is_dir() and sum(mails(outbox).values()) < sum(sent.values())
    tick(root, outbox, workers=workers)
    assert_same(mails(outbox), sent, games(root), ended)
    return owed or partial


def assert_same(got: collections.Counter, sent: collections.Counter, now: dict, ended: dict) -> None:
    """Every mail owed sent exactly once, and every game as the uninterrupted run left it (no move applied twice
    or left out, nothing owed any more); a difference is told in a few lines (not a diff of whole mails)."""
    missing, extra = sent - got, got - sent
    assert not missing and not extra, (f"missing {[(to, subject) for to, subject, _ in missing]}, "
                                       f"twice or more {[(to, subject) for to, subject, _ in extra]}")
    differ = [game_id for game_id in ended if now[game_id] != ended[game_id]]
    assert not differ, f"the games that differ from an uninterrupted run: {differ}"


class Killed(BaseException):
    """The process dies here (nothing below it runs, nothing catches it)."""


@pytest.mark.parametrize("workers", ["1", "2"])
@pytest.mark.parametrize("trial", range(TRIALS))
def test_a_tick_killed_at_any_point_and_run_again_mails_everything_once(reference, tmp_path, trial, workers):
    owed = kill_trial(reference, tmp_path, trial, workers)
    if os.environ.get("PBEM_KILL_REPORT"):  # the reliability run counts the kills that left mail owed
        with open(os.environ["PBEM_KILL_REPORT"], "a") as report:
            report.write(f"{trial}/{workers} {'owed' if owed else 'clean'}\n")


def test_a_worker_of_a_tick_killed_alone_and_the_tick_run_again_mails_everything_once(reference, tmp_path):
    """One worker killed once the first mails are out: the other ticks its games to the end, the run says which
    games were not ticked (exit 2), and the next run ticks them."""
    pristine, sent, ended, _ = reference
    for attempt in range(5):  # a busy machine may let a run end before it is caught in the middle: again
        root, outbox = tmp_path / f"attempt-{attempt}" / "games", tmp_path / f"attempt-{attempt}" / "outbox"
        shutil.copytree(pristine, root)
        process = start_tick(root, outbox, "2")
        deadline = time.monotonic() + 60
        while (len(workers_of(process.pid)) < 2 or not (outbox / "new").is_dir() or not os.listdir(outbox / "new")) \
                and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.005)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGSTOP)  # frozen: its workers are looked at as they are
        workers = workers_of(process.pid)
        if len(workers) == 2:
            os.kill(workers[0], signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGCONT)
        out, err = process.communicate(timeout=120)
        if len(workers) == 2:
            break
    else:
        pytest.fail("five ticks ended before one of their workers could be killed")
    assert process.returncode == 2 and b"its worker process was killed (signal 9)" in out, (out, err)
    tick(root, outbox, workers="2")
    assert_same(mails(outbox), sent, games(root), ended)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_tick_killed_after_its_change_before_its_mails_tells_them_on_the_next_run(reference, tmp_path,
                                                                                  monkeypatch, workers):
    """The case itself, made certain: the change is on disk with what it owes, and no mail went out. With two
    workers, each dies there (the run says which games were not ticked)."""
    pristine, sent, ended, _ = reference
    root, outbox = tmp_path / "games", tmp_path / "outbox"
    shutil.copytree(pristine, root)
    from pbem.mail import clockmail
    monkeypatch.setattr(clockmail, "send_tick", lambda *args: (_ for _ in ()).throw(Killed()))
    args = ["tick", str(root), "--now", TICK, "--outbox", str(outbox), "--workers", workers]
    if workers == "1":
        with pytest.raises(Killed):
            Pbem().runner.invoke(cli, args, standalone_mode=False, catch_exceptions=False)
        stopped = sorted(GAMES)[:1]  # the first game; the others were not reached
    else:  # each worker dies at its first game; the run tells the games not ticked
        result = Pbem().runner.invoke(cli, args, standalone_mode=False)
        assert "could not be ticked" in str(result.exception)
        stopped = [game_id for game_id in GAMES if notices.owed(engine.open_game(root / game_id))]
        assert len(stopped) == 2 and result.stdout.count("its worker stopped: Killed") == len(GAMES), result.stdout
    for game_id in stopped:
        assert notices.owed(engine.open_game(root / game_id))  # the change is there, and what it owes
    assert not (outbox / "new").is_dir() or not list((outbox / "new").iterdir())
    monkeypatch.undo()
    tick(root, outbox)
    assert_same(mails(outbox), sent, games(root), ended)


def test_a_tick_killed_while_it_puts_a_committed_move_in_place_is_read_through_and_finished_by_the_next(
        reference, tmp_path, monkeypatch):
    """Killed after the commit point, with the new state in place and its checksum not yet: the files on disk
    disagree, the move is whole in its bundle. A reader reads the move through the bundle; the next tick applies
    it and goes on as if never killed."""
    pristine, sent, ended, _ = reference
    root, outbox = tmp_path / "games", tmp_path / "outbox"
    shutil.copytree(pristine, root)
    put = transactions._put

    def put_until_the_checksum(folder, directory, relative, data, mode):
        if relative == STATE_DIGEST:
            raise Killed()
        return put(folder, directory, relative, data, mode)

    monkeypatch.setattr(transactions, "_put", put_until_the_checksum)
    with pytest.raises(Killed):
        Pbem().runner.invoke(cli, ["tick", str(root), "--now", TICK, "--outbox", str(outbox), "--workers", "1"],
                             standalone_mode=False, catch_exceptions=False)
    monkeypatch.undo()
    first = engine.open_game(root / sorted(GAMES)[0])
    assert engine.state_edited(first)  # the files as they are on disk: the state is new, its checksum old
    assert games(root)[first.id][2]  # read through the bundle: the tick's change, with the mails it owes
    tick(root, outbox)
    assert_same(mails(outbox), sent, games(root), ended)
