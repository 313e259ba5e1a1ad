"""`pbem mail inbox`: a Maildir, an mbox file and a real IMAP server (dovecot); arrival order, exactly once, and a
bad message never stops the batch."""
from __future__ import annotations

import json
import mailbox
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from pbem.engine import engine
from pbem.mail import commands, ledger, outgoing, transport
from pbem.store import safefiles, transactions
from mailkit import body_of, move_mail, run_cli, turns_ahead, waiting_moves, write_mail


def bad_mails(game) -> list[bytes]:
    mover = game.to_act()
    return [
        write_mail("stranger@elsewhere.example", "hello?\n", f"[{game.id}] hi"),
        write_mail(game.address(mover), "Password: nope\nstatus\n", "no tag at all"),
        move_mail(game, mover, ["this is not a move"], password="wrong-password"),
        b"\x00\xff garbage that is not even a mail header\n\n\xfe",
    ]


def _inbox(root, smtp, *source):
    return run_cli("mail", "inbox", "--games", root, *source, "--smtp", smtp.address)


def test_maildir_batch_in_arrival_order_with_bad_mail_in_between(mail_game, games_root, smtp, tmp_path):
    box = mailbox.Maildir(tmp_path / "Maildir", create=True)
    turns = turns_ahead(mail_game, 3)
    bad = bad_mails(mail_game)
    sequence = [bad[0], move_mail(mail_game, *turns[0]), bad[1], bad[2], move_mail(mail_game, *turns[1]), bad[3],
                move_mail(mail_game, *turns[2])]
    for index, raw in enumerate(sequence):
        key = box.add(raw)
        stamp = time.time() - 100 + index  # arrival order is the delivery time, not the name
        os.utime(box._path + "/new/" + key, (stamp, stamp))
    result = _inbox(games_root, smtp, "--maildir", tmp_path / "Maildir")
    assert result.code == 0, result.output
    lines = result.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == ["rejected", "accepted", "rejected", "rejected", "accepted",
                                                      "rejected", "accepted"]
    entries = engine.read_log(mail_game.gd, full=True)["entries"]
    assert [(e["player"], e["moves"]) for e in entries[:3]] == [(p, m) for p, m in turns]
    assert os.listdir(tmp_path / "Maildir" / "new") == []
    assert all(name.endswith(":2,S") for name in os.listdir(tmp_path / "Maildir" / "cur"))
    # run again: nothing waits, nothing is handled twice
    smtp.take()
    again = _inbox(games_root, smtp, "--maildir", tmp_path / "Maildir")
    assert again.code == 0 and again.stdout == "" and smtp.messages == []


def test_maildir_message_seen_by_a_person_is_left_alone(mail_game, games_root, smtp, tmp_path):
    box = mailbox.Maildir(tmp_path / "Maildir", create=True)
    seen = mailbox.MaildirMessage(move_mail(mail_game, *turns_ahead(mail_game, 1)[0]))
    seen.set_subdir("cur")
    seen.add_flag("S")
    box.add(seen)
    before = mail_game.snapshot()
    assert _inbox(games_root, smtp, "--maildir", tmp_path / "Maildir").stdout == ""
    assert mail_game.snapshot() == before


def test_mbox_batch_and_rerun(mail_game, games_root, smtp, tmp_path):
    path = tmp_path / "referee.mbox"
    box = mailbox.mbox(path)
    turns = turns_ahead(mail_game, 2)
    for raw in [move_mail(mail_game, *turns[0]), bad_mails(mail_game)[0], move_mail(mail_game, *turns[1])]:
        box.add(raw)
    box.flush()
    box.close()
    result = _inbox(games_root, smtp, "--mbox", path)
    assert result.code == 0, result.output
    assert [line.split(":")[0] for line in result.stdout.splitlines()] == ["accepted", "rejected", "accepted"]
    assert len(mailbox.mbox(path)) == 0
    assert len(mailbox.mbox(tmp_path / "referee.mbox.processed")) == 3
    entries = engine.read_log(mail_game.gd, full=True)["entries"]
    assert [(e["player"], e["moves"]) for e in entries[:2]] == [(p, m) for p, m in turns]
    # the same messages delivered again (a duplicate delivery): answered as duplicates, applied once
    box = mailbox.mbox(path)
    box.add(move_mail(mail_game, *turns[0], message_id="<dup@players.example>"))
    box.flush()
    box.close()
    first = _inbox(games_root, smtp, "--mbox", path)
    assert first.stdout.startswith("accepted:") or first.stdout.startswith("rejected:")
    box = mailbox.mbox(path)
    box.add(move_mail(mail_game, *turns[0], message_id="<dup@players.example>", subject="resent"))
    box.flush()
    box.close()
    before = mail_game.snapshot()
    again = _inbox(games_root, smtp, "--mbox", path)
    assert again.stdout.startswith("duplicate:")
    assert mail_game.snapshot() == before


def test_imap_inbox_against_dovecot(mail_game, games_root, smtp, dovecot, monkeypatch):
    turns = turns_ahead(mail_game, 2)
    dovecot.append(move_mail(mail_game, *turns[0]))
    dovecot.append(bad_mails(mail_game)[2])
    dovecot.append(move_mail(mail_game, *turns[1]))
    monkeypatch.setenv("PBEM_IMAP_PASSWORD", dovecot.password)
    result = _inbox(games_root, smtp, "--imap", dovecot.url())
    assert result.code == 0, result.output
    assert [line.split(":")[0] for line in result.stdout.splitlines()] == ["accepted", "rejected", "accepted"]
    assert dovecot.count("INBOX") == 0
    assert dovecot.count("pbem-processed") == 3
    entries = engine.read_log(mail_game.gd, full=True)["entries"]
    assert [(e["player"], e["moves"]) for e in entries[:2]] == [(p, m) for p, m in turns]
    smtp.take()
    again = _inbox(games_root, smtp, "--imap", dovecot.url())
    assert again.code == 0 and again.stdout == "" and smtp.messages == []
    # last, because dovecot slows down logins from an address that failed one
    dovecot.append(move_mail(mail_game, *turns_ahead(mail_game, 1)[0]))
    before = mail_game.snapshot()
    monkeypatch.setenv("PBEM_IMAP_PASSWORD", "wrong")
    failed = _inbox(games_root, smtp, "--imap", dovecot.url())
    assert failed.code == 2 and "IMAP login" in str(failed.exception)
    assert mail_game.snapshot() == before


def test_imap_large_message_is_answered_from_its_header_only(mail_game, games_root, smtp, dovecot, monkeypatch):
    from email.message import EmailMessage
    mover = mail_game.to_act()
    msg = EmailMessage()
    msg["From"] = mail_game.address(mover)
    msg["To"] = "referee@club.example"
    msg["Subject"] = f"Re: [{mail_game.id}] photos"
    msg["Message-ID"] = "<big-imap@players.example>"
    msg.set_content(f"Password: {mail_game.secret(mover)}\n")
    msg.add_attachment(os.urandom(3 * 1024 * 1024), maintype="application", subtype="octet-stream",
                       filename="scan.bin")
    dovecot.append(msg.as_bytes())
    monkeypatch.setenv("PBEM_IMAP_PASSWORD", dovecot.password)
    before = mail_game.snapshot()
    result = _inbox(games_root, smtp, "--imap", dovecot.url())
    assert result.stdout.startswith("rejected:"), result.output
    assert mail_game.snapshot() == before
    assert "MB" in body_of(smtp.messages[0])


# ---------------------------------------------------------------- killed and run again

class Killed(BaseException):
    """Stands for the process being killed at a chosen point (not an Exception: nothing may catch it)."""


def test_killed_after_the_move_before_the_replies_sends_them_on_the_next_run(mail_game, games_root, smtp, tmp_path,
                                                                          monkeypatch):
    box = mailbox.Maildir(tmp_path / "Maildir", create=True)
    turn = turns_ahead(mail_game, 1)[0]
    box.add(move_mail(mail_game, *turn))
    real_send = outgoing.Mailer.send

    def dies(self, messages):
        raise Killed()
    monkeypatch.setattr(outgoing.Mailer, "send", dies)
    with pytest.raises(Killed):
        _inbox(games_root, smtp, "--maildir", tmp_path / "Maildir")
    applied = mail_game.snapshot()
    assert engine.read_log(mail_game.gd, full=True)["entries"][0]["moves"] == turn[1]
    assert smtp.messages == []
    monkeypatch.setattr(outgoing.Mailer, "send", real_send)
    result = _inbox(games_root, smtp, "--maildir", tmp_path / "Maildir")
    assert result.stdout.startswith("accepted:"), result.output
    assert mail_game.snapshot() == applied  # not applied a second time
    assert sorted(m["To"] for m in smtp.messages) == sorted(p["email"] for p in mail_game.players.values())
    assert os.listdir(tmp_path / "Maildir" / "new") == []


def test_killed_before_moving_the_mail_aside_only_moves_it_next_time(mail_game, games_root, smtp, tmp_path,
                                                                    monkeypatch):
    box = mailbox.Maildir(tmp_path / "Maildir", create=True)
    box.add(move_mail(mail_game, *turns_ahead(mail_game, 1)[0]))
    real_replace = os.replace

    def dies(src, dst, *args, **kwargs):
        if "/Maildir/" in str(src):
            raise Killed()
        return real_replace(src, dst, *args, **kwargs)
    monkeypatch.setattr(os, "replace", dies)
    with pytest.raises(Killed):
        _inbox(games_root, smtp, "--maildir", tmp_path / "Maildir")
    monkeypatch.setattr(os, "replace", real_replace)
    after = mail_game.snapshot()
    smtp.take()
    result = _inbox(games_root, smtp, "--maildir", tmp_path / "Maildir")
    assert result.stdout.startswith("duplicate:"), result.output
    assert mail_game.snapshot() == after and smtp.messages == []
    assert os.listdir(tmp_path / "Maildir" / "new") == []


@pytest.mark.parametrize("sending", ["smtp", "outbox"])
def test_sigkill_in_the_middle_of_a_batch(mail_game, games_root, smtp, tmp_path, sending):
    """A real process killed with SIGKILL while it works through a Maildir; the next run finishes the batch,
    every move is applied exactly once, in order, and every mover is answered. (Killed after its first move: a
    batch is quick, and the kill must come while it is still at work, however busy the machine.)"""
    turns = turns_ahead(mail_game, 15)
    ids = waiting_moves(tmp_path / "Maildir", mail_game, turns, "killed")
    exe = Path(sys.executable).with_name("pbem")
    send = ["--smtp", smtp.address] if sending == "smtp" else ["--outbox", tmp_path / "outbox"]
    process = subprocess.Popen([exe, "mail", "inbox", "--games", games_root, "--maildir", tmp_path / "Maildir",
                                *send], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not has_a_move(mail_game.gd) and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.01)
    process.send_signal(signal.SIGKILL)
    process.wait()
    assert process.returncode == -signal.SIGKILL  # it was still at work: killed in the middle of the batch
    assert len(os.listdir(tmp_path / "Maildir" / "new")) > 0
    result = run_cli("mail", "inbox", "--games", games_root, "--maildir", tmp_path / "Maildir", *send)
    assert result.code == 0, result.output
    entries = engine.read_log(mail_game.gd, full=True)["entries"]
    assert [(e["player"], e["moves"]) for e in entries[:len(turns)]] == [(p, m) for p, m in turns]
    assert os.listdir(tmp_path / "Maildir" / "new") == []
    answered = [str(m["In-Reply-To"]) for m in smtp.messages] if sending == "smtp" else \
        in_reply_to(tmp_path / "outbox")
    assert set(ids) <= set(answered)


def has_a_move(gd) -> bool:
    """Whether the game's log on disk holds a move, read without the game's lock: a batch holds the lock nearly all
    the time, and a reader waiting for it would see the first move only once the whole batch is done."""
    try:
        text = Path(gd.dir, "referee", "log.yaml").read_text(encoding="utf-8")
    except FileNotFoundError:
        return False
    return bool((yaml.safe_load(text) or {}).get("entries"))


def in_reply_to(outbox: Path) -> list[str]:
    """The Message-ID each mail of an outbox Maildir answers."""
    return [str(msg["In-Reply-To"]) for msg in mailbox.Maildir(outbox, create=False)]


def test_a_batch_writes_its_records_after_its_replies_and_moves_mail_aside_last(mail_game, games_root, tmp_path,
                                                                              monkeypatch):
    box = mailbox.Maildir(tmp_path / "Maildir", create=True)
    turns = turns_ahead(mail_game, 3)
    for turn in turns:
        box.add(move_mail(mail_game, *turn))
    events = []
    for module, name in ((transport, "_publish"), (safefiles, "write_atomic_together"), (engine, "submit"),
                         (ledger.Ledger, "_append"), (transactions, "commit")):
        real = getattr(module, name)
        monkeypatch.setattr(module, name, lambda *a, real=real, name=name, **k: (events.append(name), real(*a, **k))[1])
    real_replace = os.replace

    def replace(src, dst, *args, **kwargs):
        if "/Maildir/" in str(src):
            events.append("moved aside")
        return real_replace(src, dst, *args, **kwargs)
    monkeypatch.setattr(os, "replace", replace)
    referee = commands.Referee(games_root, transport.Outbox(tmp_path / "outbox"))
    from pbem.mail import inbox
    outcomes = inbox.maildir(referee, tmp_path / "Maildir")
    assert [o.result for o in outcomes] == ["accepted"] * 3
    # each move is written (transactions.commit) after its pending record is in the journal; then the replies of all
    # three, all their done records together, what the players were told (pbem.mail.news), and the mails moved aside
    assert events == ["submit", "_append", "commit"] * 3 + ["_publish", "write_atomic_together"] + \
        ["write_atomic_together"] + ["moved aside"] * 3
    assert os.listdir(games_root / ".pbem-mail" / "journals") == []  # the batch's journal, emptied, is gone
    assert len(mailbox.Maildir(tmp_path / "outbox", create=False)) == 3 * len(mail_game.players)
    assert os.listdir(tmp_path / "Maildir" / "new") == []


def test_a_long_batch_is_flushed_every_few_messages(mail_game, games_root, tmp_path, monkeypatch):
    waiting_moves(tmp_path / "Maildir", mail_game, turns_ahead(mail_game, 5), "long")
    monkeypatch.setattr(outgoing, "BATCH", 2)
    published = []
    real = transport._publish
    monkeypatch.setattr(transport, "_publish", lambda maildir, written: (published.append(len(written)),
                                                                          real(maildir, written)))
    from pbem.mail import inbox
    outcomes = inbox.maildir(commands.Referee(games_root, transport.Outbox(tmp_path / "outbox")), tmp_path / "Maildir")
    assert [o.result for o in outcomes] == ["accepted"] * 5
    assert published == [2 * len(mail_game.players)] * 2 + [len(mail_game.players)]


def test_killed_before_a_batch_is_flushed_sends_every_reply_on_the_next_run(mail_game, games_root, tmp_path,
                                                                           monkeypatch):
    turns = turns_ahead(mail_game, 4)
    ids = waiting_moves(tmp_path / "Maildir", mail_game, turns, "batch")
    real_publish = transport._publish

    def dies(*args):
        raise Killed()
    monkeypatch.setattr(transport, "_publish", dies)
    outbox = tmp_path / "outbox"
    with pytest.raises(Killed):
        run_cli("mail", "inbox", "--games", games_root, "--maildir", tmp_path / "Maildir", "--outbox", outbox)
    applied = mail_game.snapshot()
    assert len(engine.read_log(mail_game.gd, full=True)["entries"]) == len(turns)
    assert len(mailbox.Maildir(outbox, create=False)) == 0  # nothing delivered: the replies died with the run
    assert os.listdir(outbox / "tmp") == []  # nor left half-delivered
    assert len(os.listdir(tmp_path / "Maildir" / "new")) == len(turns)  # and no mail was moved aside
    journals = list((Path(games_root) / ".pbem-mail" / "journals").iterdir())  # the killed batch's own
    assert len(journals) == 1
    # each move's pending record, on disk, and after them the zeros the journal is made of
    assert len(journals[0].read_bytes().rstrip(b"\0").splitlines()) == len(turns)
    monkeypatch.setattr(transport, "_publish", real_publish)
    result = run_cli("mail", "inbox", "--games", games_root, "--maildir", tmp_path / "Maildir", "--outbox", outbox)
    assert result.stdout.count("accepted:") == len(turns), result.output
    assert mail_game.snapshot() == applied  # no move applied twice
    assert sorted(set(in_reply_to(outbox)) & set(ids)) == sorted(ids)  # every mover answered
    assert os.listdir(tmp_path / "Maildir" / "new") == []
    assert not journals[0].exists()  # its records settled into the ledger's files, it is gone


def test_a_message_that_breaks_the_referee_after_its_move_keeps_its_pending_record(mail_game, games_root,
                                                                                     tmp_path, monkeypatch):
    box = mailbox.Maildir(tmp_path / "Maildir", create=True)
    turn = turns_ahead(mail_game, 1)[0]
    box.add(move_mail(mail_game, *turn, message_id="<breaks@players.example>"))
    real = commands.Referee._after_move

    def fragile(self, *args, **kwargs):
        raise RuntimeError("disk on fire")
    monkeypatch.setattr(commands.Referee, "_after_move", fragile)
    outbox = tmp_path / "outbox"
    result = run_cli("mail", "inbox", "--games", games_root, "--maildir", tmp_path / "Maildir", "--outbox", outbox)
    assert result.code == 2 and "disk on fire" in result.stdout
    applied = mail_game.snapshot()
    assert ledger.Ledger(games_root)._on_disk("<breaks@players.example>")["state"] == "pending"
    monkeypatch.setattr(commands.Referee, "_after_move", real)
    result = run_cli("mail", "inbox", "--games", games_root, "--maildir", tmp_path / "Maildir", "--outbox", outbox)
    assert result.stdout.startswith("accepted:"), result.output
    assert mail_game.snapshot() == applied  # answered, not applied again
    assert "<breaks@players.example>" in in_reply_to(outbox)


def test_a_journal_left_by_a_killed_batch_becomes_pending_records_and_a_torn_line_is_ignored(games_root):
    record = {"message_id": "<left@players.example>", "state": "pending", "game": "g1", "player": "alice",
              "move_number": 3, "source": None, "time": "2026-11-30T09:00:00+00:00"}
    old = {**record, "message_id": "<older@players.example>"}
    book = ledger.Ledger(games_root)
    left = book.journals / "4242-0123456789ab.log"  # a killed batch's: no one holds its flock
    left.write_text(json.dumps(record) + "\n" + '{"message_id": "<torn@players.exa')
    (book.base / "pending.log").write_text(json.dumps(old) + "\n")  # the one journal of a run before journals
    with book.locked("g1"):
        assert book.get("<left@players.example>") == record
        assert book.get("<older@players.example>") == old
        assert book.get("<torn@players.example>") is None
    assert not left.exists() and not (book.base / "pending.log").exists()
    assert json.loads(book._file("<left@players.example>").read_text()) == record


def pending_record(message_id: str) -> dict:
    return {"message_id": message_id, "state": "pending", "game": "g1", "player": "alice", "move_number": 3,
            "source": None, "time": "2026-11-30T09:00:00+00:00"}


def test_a_batch_writes_its_journal_in_place_and_empties_it_with_zeros(games_root):
    """The journal's blocks are written once and each line over zeros; a flush writes zeros over the lines and
    the next line goes to the start again, in the same file of the same size (no block allocated per line)."""
    book = ledger.Ledger(games_root)
    book.begin_batch()
    with book.locked("g1"):
        book.put("<one@players.example>", pending_record("<one@players.example>"))
        book.put("<two@players.example>", pending_record("<two@players.example>"))
    data = book.journal.read_bytes()
    lines = data.rstrip(b"\0").splitlines(keepends=True)
    assert len(data) == ledger.JOURNAL_BYTES and data[len(b"".join(lines)):] == bytes(len(data) - len(b"".join(lines)))
    assert [json.loads(line)["message_id"] for line in lines] == ["<one@players.example>", "<two@players.example>"]
    inode = book.journal.stat().st_ino
    book.put("<one@players.example>", {"state": "done"})
    book.flush()
    assert book.journal.read_bytes() == bytes(ledger.JOURNAL_BYTES)  # every message has its record on disk
    assert book._on_disk("<one@players.example>")["state"] == "done"
    assert book._on_disk("<two@players.example>")["state"] == "pending"  # it broke the referee: its record stays
    with book.locked("g1"):
        book.put("<three@players.example>", pending_record("<three@players.example>"))
    data = book.journal.read_bytes()
    assert book.journal.stat().st_ino == inode and len(data) == ledger.JOURNAL_BYTES
    assert [json.loads(line)["message_id"] for line in data.rstrip(b"\0").splitlines()] == ["<three@players.example>"]
    many = [f"<many.{n}@players.example>" for n in range(2 * ledger.JOURNAL_BYTES // len(lines[0]))]
    with book.locked("g1"):
        for key in many:  # more than its first size holds: it grows, by whole zeros again
            book.put(key, pending_record(key))
    data = book.journal.read_bytes()
    assert len(data) > ledger.JOURNAL_BYTES and data.rstrip(b"\0").count(b"\n") == 1 + len(many)
    book.flush()
    journal = book.journal
    book.end_batch()
    assert not journal.exists()  # zeros only: removed at the batch's end
    assert all(book._on_disk(key)["state"] == "pending" for key in many)


def test_a_killed_journal_with_a_stale_tail_settles_only_its_live_lines(games_root):
    """A journal killed or crashed with lines of before its last emptying in its tail (its zeros not on disk yet):
    those messages have their own records on disk, which stay as they are; a line torn over an older one, or over
    zeros, is no record; the live lines become pending records, once each."""
    book = ledger.Ledger(games_root)
    book.put("<old@players.example>", {"state": "done", "game": "g1"})  # handled and answered before the flush
    old_record = book._on_disk("<old@players.example>")
    live, old = pending_record("<live@players.example>"), pending_record("<old@players.example>")
    earlier = (json.dumps(pending_record("<older-and-longer-than-the-live-line@players.example>")) + "\n").encode()
    live_line = (json.dumps(live) + "\n").encode()
    torn = b'{"message_id": "<torn@players.exa'  # a line a kill cut short, over the rest of an older one
    data = live_line + torn + earlier[len(live_line) + len(torn):] + (json.dumps(old) + "\n").encode()
    left = book.journals / "4242-0123456789ab.log"
    left.write_bytes(data + bytes(4096) + torn + bytes(100))
    with book.locked("g2"):
        assert book.get("<live@players.example>") == live
        assert book.get("<old@players.example>") == old_record  # not made pending again: it was answered
    assert not left.exists()
    assert sorted(os.listdir(book.entries)) == sorted(book._file(key).name for key in ("<live@players.example>",
                                                                                        "<old@players.example>"))
    assert json.loads(book._file("<live@players.example>").read_text()) == live


def test_a_batch_killed_after_its_journal_was_emptied_answers_each_message_once(mail_game, games_root, tmp_path,
                                                                              monkeypatch):
    """A batch killed at its second flush, its journal written over since the first: the next run answers the
    messages the kill left, and neither answers again nor applies again those the first flush finished."""
    turns = turns_ahead(mail_game, 4)
    ids = waiting_moves(tmp_path / "Maildir", mail_game, turns, "twice")
    monkeypatch.setattr(outgoing, "BATCH", 2)
    real_publish, real_flush, calls = transport._publish, ledger.Ledger.flush, []

    def dies_the_second_time(real):  # and after it (the batch's end tries again): nothing runs after a kill
        def call(*args):
            calls.append(real)
            if calls.count(real) >= 2:
                raise Killed()
            return real(*args)
        return call
    monkeypatch.setattr(transport, "_publish", dies_the_second_time(real_publish))
    monkeypatch.setattr(ledger.Ledger, "flush", dies_the_second_time(real_flush))
    outbox = tmp_path / "outbox"
    with pytest.raises(Killed):
        run_cli("mail", "inbox", "--games", games_root, "--maildir", tmp_path / "Maildir", "--outbox", outbox)
    applied = mail_game.snapshot()
    assert len(engine.read_log(mail_game.gd, full=True)["entries"]) == len(turns)
    journal, = (Path(games_root) / ".pbem-mail" / "journals").iterdir()
    lines = journal.read_bytes().rstrip(b"\0").splitlines()
    assert [json.loads(line)["message_id"] for line in lines] == ids[2:]  # the first two's were zeroed
    assert len(journal.read_bytes()) == ledger.JOURNAL_BYTES
    monkeypatch.setattr(transport, "_publish", real_publish)
    monkeypatch.setattr(ledger.Ledger, "flush", real_flush)
    result = run_cli("mail", "inbox", "--games", games_root, "--maildir", tmp_path / "Maildir", "--outbox", outbox)
    assert result.stdout.count("accepted:") == 2, result.output
    assert mail_game.snapshot() == applied  # no move applied twice
    answered = in_reply_to(outbox)
    assert {key: answered.count(key) for key in ids} == {key: 1 for key in ids}  # each mover, once
    assert len(answered) == len(turns) * len(mail_game.players)  # and every other player told once a move
    assert os.listdir(tmp_path / "Maildir" / "new") == [] and not journal.exists()


def test_the_journal_of_a_batch_at_work_is_left_to_it(games_root):
    """A journal whose batch is alive (it holds its flock) is never settled by another run: its lines are of games
    whose locks that batch holds, and its pending records are its to write."""
    record = {"message_id": "<busy@players.example>", "state": "pending", "game": "g1", "player": "alice",
              "move_number": 3, "source": None}
    working, other = ledger.Ledger(games_root), ledger.Ledger(games_root)
    working.begin_batch()
    with working.locked("g1"):
        working.put(record["message_id"], record)
        with other.locked("g2"):  # another run, another game: it finds the journal in use
            assert other.get("<busy@players.example>") is None
        assert working.journal.exists()
    working.flush()
    working.end_batch()
    assert other.get("<busy@players.example>")["state"] == "pending"
    assert os.listdir(working.journals) == []


def test_one_message_that_breaks_the_referee_does_not_stop_the_batch(mail_game, games_root, smtp, tmp_path,
                                                                    monkeypatch):
    box = mailbox.Maildir(tmp_path / "Maildir", create=True)
    turns = turns_ahead(mail_game, 1)
    box.add(write_mail(mail_game.address(mail_game.to_act()), "boom\n", "explode", message_id="<boom@x.example>"))
    box.add(move_mail(mail_game, *turns[0]))
    real = commands.Referee._handle

    def fragile(self, incoming, *args):
        if incoming.message_id == "<boom@x.example>":
            raise RuntimeError("disk on fire")
        return real(self, incoming, *args)
    monkeypatch.setattr(commands.Referee, "_handle", fragile)
    result = _inbox(games_root, smtp, "--maildir", tmp_path / "Maildir")
    assert result.code == 2  # the error is reported ...
    assert "error:" in result.stdout and "disk on fire" in result.stdout
    assert "accepted:" in result.stdout  # ... and the batch went on
    assert len(os.listdir(tmp_path / "Maildir" / "new")) == 1  # the broken one stays for the next run


def test_inbox_needs_exactly_one_mailbox(games_root, smtp, tmp_path):
    result = run_cli("mail", "inbox", "--games", games_root, "--smtp", smtp.address)
    assert result.code == 1 and "exactly one of" in str(result.exception)
    result = run_cli("mail", "inbox", "--games", games_root, "--maildir", tmp_path / "nothing", "--smtp",
                     smtp.address)
    assert result.code == 1 and "not a Maildir" in str(result.exception)


def test_outbox_transport_writes_a_maildir(mail_game, games_root, tmp_path):
    outbox = tmp_path / "outbox"
    sender = transport.Outbox(outbox)
    referee = commands.Referee(games_root, sender)
    outcome = referee.handle(move_mail(mail_game, *turns_ahead(mail_game, 1)[0]))
    assert outcome.result == "accepted"
    assert len(mailbox.Maildir(outbox)) == len(mail_game.players)


@pytest.mark.parametrize("secure", [True, False], ids=["imaps", "starttls"])
def test_imap_over_tls(mail_game, games_root, smtp, dovecot_tls, monkeypatch, secure):
    dovecot_tls.append(move_mail(mail_game, *turns_ahead(mail_game, 1)[0]))
    monkeypatch.setenv("PBEM_IMAP_PASSWORD", dovecot_tls.password)
    monkeypatch.setenv("PBEM_IMAP_STARTTLS", "1")
    url = dovecot_tls.url(secure=secure)
    untrusted = _inbox(games_root, smtp, "--imap", url)  # a self-signed certificate is not trusted ...
    assert untrusted.code == 2 and "certificate" in str(untrusted.exception).lower()
    monkeypatch.setenv("PBEM_IMAP_CAFILE", str(dovecot_tls.cafile))  # ... unless its CA is given
    result = _inbox(games_root, smtp, "--imap", url)
    assert result.code == 0 and result.stdout.startswith("accepted:"), result.output
    assert dovecot_tls.count("pbem-processed") == 1
