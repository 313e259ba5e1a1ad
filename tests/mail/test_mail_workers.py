"""`pbem mail inbox --workers N`: many mails to a few games, shared out among worker processes. Each game's mails are
applied in the order they arrived and never two at once; a worker killed in the middle loses no mail and applies
none twice."""
from __future__ import annotations

import fcntl
import mailbox
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from pbem.engine import engine
from pbem.mail import batches, commands, locks, parse, transport
from support import group_ended, workers_of
from mailkit import create_game, mail_games, move_mail, run_cli, turns_ahead, write_mail

PBEM = str(Path(sys.executable).with_name("pbem"))
NOW = "2026-12-01T10:00:00Z"


@pytest.fixture
def games(games_root):
    """Three games of the first game that plays by mail, each with its next eight turns worked out."""
    if not mail_games():
        pytest.skip("no registered game has its rules and report yet")
    made = [create_game(games_root, mail_games()[0].id, game_id=f"g{n}", seed=f"workers-{n}") for n in (1, 2, 3)]
    return [(game, turns_ahead(game, 8, seed=n)) for n, game in enumerate(made)]


def interleaved(box_path: Path, games, extra: list[bytes] = ()) -> list[bytes]:
    """A Maildir with each game's turns, one mail a turn (no Move-Number: only the order makes them legal), the
    games' mails taking turns in arrival order and `extra` among them; the mails in arrival order."""
    box = mailbox.Maildir(box_path, create=True)
    mails = []
    for index in range(max(len(turns) for _, turns in games)):
        mails += [move_mail(game, *turns[index], message_id=f"<{game.id}.{index}@players.example>")
                  for game, turns in games if index < len(turns)]
        if index < len(extra):
            mails.append(extra[index])
    for index, raw in enumerate(mails):
        key = box.add(raw)
        stamp = time.time() - 1000 + index  # arrival order is the delivery time
        os.utime(f"{box._path}/new/{key}", (stamp, stamp))
    return mails


def played(game) -> list[tuple[str, list[str]]]:
    return [(entry["player"], entry["moves"]) for entry in engine.read_log(game.gd, full=True)["entries"] or []]


def one_worker(games_root: Path, maildir: Path, tmp_path: Path) -> dict[str, list]:
    """What one process makes of the same mails, in a copy of the root: each game's full log."""
    copy = tmp_path / "one-worker"
    shutil.copytree(games_root, copy / "games")
    shutil.copytree(maildir, copy / "Maildir")
    result = run_cli("mail", "inbox", "--games", copy / "games", "--maildir", copy / "Maildir", "--outbox",
                     copy / "outbox", "--now", NOW, "--workers", "1")
    assert result.code == 0, result.output
    return {game.name: logged(game) for game in (copy / "games").iterdir() if not game.name.startswith(".")}


def logged(directory: Path) -> list[dict]:
    return engine.read_log(engine.open_game(directory), full=True)["entries"] or []


def test_two_workers_apply_each_games_mails_in_arrival_order_and_never_two_at_once(games, games_root, tmp_path,
                                                                                   monkeypatch):
    alice = games[1][0].players["alice"]  # of g2
    extra = [write_mail("stranger@elsewhere.example", "hello?\n", "[nowhere] hi"),  # no such game: no game's lock
             write_mail(alice["email"], f"Password: {alice['secret']}\nstatus\n", "Re: [g2] status please"),
             write_mail(alice["email"], "Password: wrong\nstatus\n", "Re: [g3] status")]
    mails = interleaved(tmp_path / "Maildir", games, extra)
    arrival = [parse.parse_message(raw, len(raw)).message_id for raw in mails]
    alone = one_worker(games_root, tmp_path / "Maildir", tmp_path)
    spans = tmp_path / "spans"
    real = commands.Referee.handle_read

    def timed(self, incoming, source, where):  # the workers are forks of this process: they run it too
        start = time.monotonic()
        try:
            return real(self, incoming, source, where)
        finally:
            with open(spans, "a") as out:
                out.write(f"{where} {os.getpid()} {start} {time.monotonic()} {incoming.message_id}\n")
    monkeypatch.setattr(commands.Referee, "handle_read", timed)
    result = run_cli("mail", "inbox", "--games", games_root, "--maildir", tmp_path / "Maildir", "--outbox",
                     tmp_path / "outbox", "--now", NOW, "--workers", "2")
    assert result.code == 0, result.output
    for game, turns in games:  # every mail applied once, in the order it arrived: as one process applies them
        assert [player for player, _ in played(game)] == [player for player, _ in turns]
        assert logged(game.dir) == alone[game.id], game.id
    assert os.listdir(tmp_path / "Maildir" / "new") == []
    assert result.stdout.count("accepted:") == sum(len(turns) for _, turns in games)
    assert result.stdout.count("rejected:") == 2 and result.stdout.count("command:") == 1  # the others answered
    handled = [line.split() for line in spans.read_text().splitlines()]
    assert sorted(mid for *_, mid in handled) == sorted(arrival)
    run_itself = [mid for _, pid, *_, mid in handled if int(pid) == os.getpid()]
    assert len(run_itself) == 1  # the run handled one mail before it forked (its workers share what it loaded) ...
    assert len({pid for _, pid, *_ in handled} - {str(os.getpid())}) == 2  # ... and shared the rest out to two
    for where in {where for where, *_ in handled}:
        own = sorted((float(start), float(end), pid, mid) for w, pid, start, end, mid in handled if w == where)
        # ... each game's mail (and no game's) in one worker, after the run's own if it took the first
        assert len({pid for *_, pid, _ in own} - {str(os.getpid())}) <= 1
        assert [mid for *_, mid in own] == [mid for mid in arrival if mid in {m for *_, m in own}]
        assert all(end <= later for (_, end, *_), (later, *_) in zip(own, own[1:])), where  # one at a time


@pytest.mark.parametrize("reading", ["beside", "failed beside", "in the run"])
def test_the_rest_of_a_chunk_is_read_beside_the_first_mail_or_by_the_run(games, games_root, tmp_path, monkeypatch,
                                                                        reading):
    """The run answers the first mail while a process of its own reads the others; if that process fails, or the
    chunk is too small for one, the run reads them itself: the same moves either way, in the same order."""
    mails = interleaved(tmp_path / "Maildir", games)
    alone = one_worker(games_root, tmp_path / "Maildir", tmp_path)
    monkeypatch.setattr(batches, "READ_BESIDE", len(mails) + 1 if reading == "in the run" else 2)
    besides = []
    real_beside = batches.parallel.beside

    def beside(compute):
        besides.append(real_beside(lambda: (_ for _ in ()).throw(RuntimeError("gone")))
                       if reading == "failed beside" else real_beside(compute))
        return besides[-1]
    monkeypatch.setattr(batches.parallel, "beside", beside)
    result = run_cli("mail", "inbox", "--games", games_root, "--maildir", tmp_path / "Maildir", "--outbox",
                     tmp_path / "outbox", "--now", NOW, "--workers", "2")
    assert result.code == 0, result.output
    assert len(besides) == (0 if reading == "in the run" else 1)
    for game, turns in games:
        assert logged(game.dir) == alone[game.id], game.id
    assert result.stdout.count("accepted:") == len(mails)
    assert os.listdir(tmp_path / "Maildir" / "new") == []


def test_mails_that_share_a_message_id_go_to_one_worker_whatever_game_they_name():
    """The ledger knows a message by its Message-ID: one naming another game is handled after the first, by the
    same worker, and answered as handled before."""
    def read(game: str, message_id: str):
        raw = write_mail("ann@players.example", "Password: x\nstatus\n", f"[{game}] status", message_id=message_id)
        return parse.parse_message(raw, len(raw)), game
    groups = batches._groups([read("g1", "<a@x>"), read("g2", "<b@x>"), read("g3", "<a@x>"), read("g4", "<c@x>"),
                              read("g3", "<d@x>"), read("g2", "<e@x>")])
    assert groups[0] == groups[2] == groups[4]  # g1 and g3, by <a@x>
    assert groups[1] == groups[5] and len({groups[0], groups[1], groups[3]}) == 3



def test_a_message_needing_two_games_locks_never_waits_holding_one(games, games_root, tmp_path, monkeypatch):
    """A message naming g1 whose Message-ID an earlier run recorded for g2 is handled under both games' mail locks.
    Taken one inside the other, two such messages (g1's naming g2's, g2's naming g1's) in two processes would wait
    for each other for ever: found g2's taken, the handler waits holding neither."""
    (g1, _), (g2, turns) = games[0], games[1]
    first = move_mail(g2, *turns[0], message_id="<shared@players.example>")
    assert run_cli("mail", "receive", "--games", games_root, "--outbox", tmp_path / "outbox", input=first).code == 0
    again = write_mail(g1.address("alice"), f"Password: {g1.secret('alice')}\nstatus\n", "Re: [g1] status",
                       message_id="<shared@players.example>")
    other = os.open(games_root / ".pbem-mail" / "locks" / "g2.lock", os.O_RDWR | os.O_CREAT)
    fcntl.flock(other, fcntl.LOCK_EX)  # another process handles g2's mail
    waiting, held_then = threading.Event(), []
    real = fcntl.flock

    def flock(fd, operation):
        if operation == fcntl.LOCK_EX and os.readlink(f"/proc/self/fd/{fd}").endswith("/locks/g2.lock"):
            probe = os.open(games_root / ".pbem-mail" / "locks" / "g1.lock", os.O_RDWR | os.O_CREAT)
            try:  # is g1's lock free while this waits for g2's?
                real(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)
                held_then.append(False)
            except BlockingIOError:
                held_then.append(True)
            finally:
                os.close(probe)
            waiting.set()
        return real(fd, operation)
    monkeypatch.setattr(locks.fcntl, "flock", flock)
    referee = commands.Referee(games_root, transport.Outbox(tmp_path / "outbox"))
    outcome = []
    handler = threading.Thread(target=lambda: outcome.append(referee.handle(again, len(again))))
    handler.start()
    assert waiting.wait(30)
    os.close(other)  # g2's mail is handled: the handler takes both locks and goes on
    handler.join(30)
    assert held_then and not any(held_then) and outcome and outcome[0].result == "duplicate", (held_then, outcome)


# ---------------------------------------------------------------- killed and run again

def killed_in_the_middle(pristine: Path, work: Path, kill: str) -> bytes | None:
    """`pbem mail inbox --workers 2` on a copy of `pristine` (its games and Maildir) in `work`, frozen once its two
    workers are started and a move is on disk, and killed with SIGKILL: the whole run, as cron's timeout or a reboot
    kills it, or one worker alone. Its output; None when the run ended before it could be killed (a busy machine
    let it finish)."""
    shutil.copytree(pristine, work)
    process = subprocess.Popen([PBEM, "mail", "inbox", "--games", work / "games", "--maildir", work / "Maildir",
                                "--outbox", work / "outbox", "--now", NOW, "--workers", "2"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + 60
    while not (len(workers_of(process.pid)) == 2 and any(logged(game) for game in (work / "games").glob("g?"))) \
            and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    try:
        os.killpg(process.pid, signal.SIGSTOP)  # frozen: the workers are looked at as they are
    except ProcessLookupError:
        pass
    workers = workers_of(process.pid)
    if len(workers) == 2 and kill == "one worker":
        os.kill(workers[0], signal.SIGKILL)
        os.killpg(process.pid, signal.SIGCONT)
    elif process.poll() is None:  # the whole run; or, a worker gone already, a run not in the middle
        os.killpg(process.pid, signal.SIGKILL)
    out, err = process.communicate(timeout=120)
    assert group_ended(process.pid)
    if len(workers) < 2 or not os.listdir(work / "Maildir" / "new"):
        return None
    if kill == "all":
        assert process.returncode == -signal.SIGKILL
    else:  # the other worker finished its share; the run says which messages were left
        assert process.returncode == 2 and b"killed (signal 9)" in out, (out, err)
    return out


@pytest.mark.parametrize("kill", ["all", "one worker"])
def test_sigkill_in_the_middle_of_a_batch_with_workers(games, games_root, tmp_path, kill):
    """`pbem mail inbox --workers 2` killed with SIGKILL while it works (the whole run or one worker); the next run
    finishes: every move applied exactly once, in order, every mail moved aside and every mover answered."""
    shutil.copytree(games_root, tmp_path / "pristine" / "games")
    interleaved(tmp_path / "pristine" / "Maildir", games)
    alone = one_worker(games_root, tmp_path / "pristine" / "Maildir", tmp_path)
    for attempt in range(5):
        work = tmp_path / f"attempt-{attempt}"
        if killed_in_the_middle(tmp_path / "pristine", work, kill) is not None:
            break
    else:
        pytest.fail("five runs of the batch ended before they could be killed")
    result = run_cli("mail", "inbox", "--games", work / "games", "--maildir", work / "Maildir", "--outbox",
                     work / "outbox", "--now", NOW, "--workers", "2")
    assert result.code == 0, result.output
    for game, turns in games:
        assert logged(work / "games" / game.id) == alone[game.id], game.id  # every move once, in order
    assert os.listdir(work / "Maildir" / "new") == []
    answered = {str(msg["In-Reply-To"]) for msg in mailbox.Maildir(work / "outbox", create=False)}
    assert {f"<{game.id}.{index}@players.example>" for game, turns in games for index in range(len(turns))} <= answered
    assert os.listdir(work / "games" / ".pbem-mail" / "journals") == []  # the killed batches' journals settled


def test_workers_must_be_a_number_from_one(games_root, tmp_path):
    for bad in ("0", "-1", "two", "65", "1.5"):
        for command in (["mail", "inbox", "--games", games_root, "--maildir", tmp_path / "Maildir"],
                        ["tick", games_root, "--no-mail"]):
            result = run_cli(*command, "--outbox", tmp_path / "outbox", "--workers", bad) if command[0] == "mail" \
                else run_cli(*command, "--workers", bad)
            assert result.code == 2, result.output
            assert f"--workers {bad!r}: write a number of worker processes from 1 to 64" in str(result.exception)
    assert not (tmp_path / "outbox").exists()


# ---------------------------------------------------------------- mbox and IMAP

def test_an_mbox_shared_out_among_workers_is_emptied_into_its_processed_file(games, games_root, tmp_path):
    path = tmp_path / "referee.mbox"
    box = mailbox.mbox(path)
    mails = interleaved(tmp_path / "unused", [(game, turns[:3]) for game, turns in games])
    for raw in mails:
        box.add(raw)
    box.flush()
    box.close()
    result = run_cli("mail", "inbox", "--games", games_root, "--mbox", path, "--outbox", tmp_path / "outbox",
                     "--workers", "2")
    assert result.code == 0, result.output
    assert result.stdout.count("accepted:") == len(mails) == 9
    for game, turns in games:
        assert [player for player, _ in played(game)] == [player for player, _ in turns[:3]], game.id
    assert len(mailbox.mbox(path)) == 0 and len(mailbox.mbox(tmp_path / "referee.mbox.processed")) == len(mails)


def test_imap_one_connection_fetches_and_moves_aside_what_the_workers_handle(games, games_root, tmp_path, dovecot,
                                                                            monkeypatch):
    mails = interleaved(tmp_path / "unused", [(game, turns[:2]) for game, turns in games])
    for raw in mails:
        dovecot.append(raw)
    monkeypatch.setenv("PBEM_IMAP_PASSWORD", dovecot.password)
    result = run_cli("mail", "inbox", "--games", games_root, "--imap", dovecot.url(), "--outbox",
                     tmp_path / "outbox", "--workers", "2")
    assert result.code == 0, result.output
    assert result.stdout.count("accepted:") == len(mails) == 6
    for game, turns in games:
        assert [player for player, _ in played(game)] == [player for player, _ in turns[:2]], game.id
    assert dovecot.count("INBOX") == 0 and dovecot.count("pbem-processed") == len(mails)
