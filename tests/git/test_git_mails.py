"""The git referee's mails to players who read no repository: each goes once. A referee in CI killed after it
mailed and before its push reached the remote leaves the next job to referee the same commits again: the view
mails, the refusal notices and the clock's reminders it makes again are the same mails (the same Message-IDs,
made from what each is about), which an outbox holds once; a later reminder, for a new deadline, is another mail
and goes. And a warning from making the mails is kept beside one from sending them."""
from __future__ import annotations

import mailbox
import socket

from gitkit import referee_killed_before_commit

from pbem.mail import transport
from pbem.store import yamlio
from pbem.text.times import parse_time

DEADLINE = ("--deadline", "48h", "--reminder", "12h", "--on-timeout", "wait")


def outbox_mails(outbox) -> list[tuple[str, str, str]]:
    """(Message-ID, To, Subject) of every mail in the outbox, sorted."""
    return sorted((m["Message-ID"], m["To"], m["Subject"]) for m in mailbox.Maildir(outbox, create=False))


def test_the_mails_of_a_ci_referee_killed_before_its_push_go_once_and_a_later_reminder_goes(club, monkeypatch,
                                                                                             tmp_path):
    game = club("coal-baron", 3, ci=True, seed="mails-once", keyless=("carol",), addresses=("alice", "bob"),
                deadline=DEADLINE)
    late = yamlio.load_file(game.dir / "public.yaml")["to_act"]
    assert late != "carol"  # (the seed's: the player reminded reads the repository, carol gets her view by mail)
    other = next(name for name in game.names if name not in (late, "carol"))
    game.commit_file(other, f"moves/0001-{other}.yaml", game.signed_move_text(other, 1, ["pass"]))
    outbox = tmp_path / "outbox"
    referee_killed_before_commit(game, monkeypatch, mailer=transport.make(None, outbox), tick=True,
                                 now=parse_time("2025-12-03T01:00:00Z"))
    first = outbox_mails(outbox)
    to = {address: subject for _, address, subject in first}
    assert "reminder" in to[f"{late}@club.example"]
    assert "not applied" in to[f"{other}@club.example"]
    assert any("your view" in subject for _, address, subject in first if address == "carol@club.example")
    assert len(first) == 3

    run = game.referee("--tick", "--now", "2025-12-03T02:00:00Z", "--outbox", outbox)  # the next job
    assert [c["verdict"] for c in run["commits"]] == ["refused"] and run["clock"]["events"][0]["kind"] == "remind"
    assert run["pushed"] and outbox_mails(outbox) == first  # the same three mails, each once

    overdue = game.referee("--tick", "--now", "2025-12-03T12:00:00Z", "--outbox", outbox)
    assert [event["kind"] for event in overdue["clock"]["events"]] == ["late"]
    reminded = game.referee("--tick", "--now", "2025-12-05T01:00:00Z", "--outbox", outbox)
    assert [event["kind"] for event in reminded["clock"]["events"]] == ["remind"]
    mails = outbox_mails(outbox)
    assert len({message_id for message_id, _, _ in mails}) == len(mails)
    reminders = [subject for _, address, subject in mails if address == f"{late}@club.example" and "reminder" in
                 subject]
    assert len(reminders) == 2 and len(set(reminders)) == 2  # the second, for the new deadline, went too


def test_a_warning_from_making_the_mails_is_kept_beside_the_mails_sent_and_one_from_sending_them(club, tmp_path):
    """bob's seat, a bot's, handed back to zoe without an address: her view goes by mail and cannot (a warning
    when the mails are made); carol's goes. When the transport then fails too, both warnings are told."""
    game = club("coal-baron", 3, seed="mails-warn", keyless=("carol",), bots=("bob=greedy",))
    handed = game.pbem("replace", game.game_dir(), "--seat", "bob", "--by", "zoe")
    assert handed.code == 0, handed.err
    outbox = tmp_path / "outbox"
    run = game.referee("--outbox", outbox)
    assert run["unbotted"] == ["bob"] and run["mailed"] == ["carol@club.example"]
    assert [address for _, address, _ in outbox_mails(outbox)] == ["carol@club.example"]
    assert "nothing mailed to bob" in run["warning"] and "--key bob=" in run["warning"]

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        closed = sock.getsockname()[1]
    handed = game.pbem("replace", game.game_dir(), "--seat", "carol", "--by", "dora:dora@club.example")
    assert handed.code == 0, handed.err
    failed = game.referee("--smtp", f"127.0.0.1:{closed}")
    assert failed["mailed"] == [] and "nothing mailed to bob" in failed["warning"]
    assert "cannot connect to the SMTP server" in failed["warning"] and "pbem mail resend" in failed["warning"]
