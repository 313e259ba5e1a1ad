"""A referee in CI keeps its mail ledger in referee.age (pbem.git.cimail): each job is a fresh temporary games root,
so a mail the mail server could not take is carried to the next job, which sends it before its own; a mail that
went is not sent again; what is carried stays bounded; and a ledger that cannot be read never stops the referee.
The mail server is a real one (aiosmtpd, tests/mail/mailkit.py), and one that is down is a closed port."""
from __future__ import annotations

import base64
from pathlib import Path

import pytest
from support import load_helpers

from gitkit import git, plan
from pbem.git import branches, cimail, desk, keys, layout
from pbem.git.player import commit_move, move_file, published
from pbem.git.repo import Repo
from pbem.git.referee import referee
from pbem.mail import transport

load_helpers("mailkit", Path(__file__).resolve().parents[1] / "mail")
from mailkit import SmtpSink, free_port  # noqa: E402

SEED = "ci-mails"
CAROL = "carol@club.example"


@pytest.fixture
def sink():
    with SmtpSink.running() as server:
        yield server


def down() -> str:
    """The address of a mail server that is down: a port nothing listens on."""
    return f"127.0.0.1:{free_port()}"


def ci_game(club):
    """carol reads no repository: her view goes by mail after every refereed move."""
    return club("coal-baron", 3, seed=SEED, ci=True, keyless=("carol",))


def play(game, count: int, start: int = 0) -> None:
    """The next `count` planned submissions, each pushed by its player."""
    submissions, _ = plan("coal-baron", game.names, SEED, game.dir.name, limit=start + count)
    for number, player, moves in submissions[start:]:
        moved = game.move(player, "; ".join(moves))
        assert moved.code == 0, moved.err


def carried(game) -> dict:
    """The mail ledger the newest referee.age carries (its sent records and owed mails)."""
    identity = keys.Identity(game.ci_identity.read_text(), "the CI secret")
    git(game.dir, "fetch", "--quiet", "origin")
    head = git(game.dir, "rev-parse", "origin/main").strip()
    _, body = desk.find_last_refereed(desk.Repo(game.dir), head, identity)
    return body


def views(messages) -> list[str]:
    return [str(m["Subject"]) for m in messages if str(m["To"]) == CAROL and "your view" in str(m["Subject"])]


def test_mails_the_server_refused_reach_it_at_the_next_job_first_and_in_order(club, sink):
    game = ci_game(club)
    play(game, 1)
    first = game.referee("--smtp", down())
    # the move is committed and pushed; carol's view is owed, kept in referee.age, named by its address
    assert first["commit"] and first["pushed"] and first["mailed"] == []
    warning = first["warning"]
    assert "cannot connect to the SMTP server" in warning and f"1 mail owed (to {CAROL})" in warning
    assert "referee.age" in warning and "pbem-referee-" not in warning and "/tmp" not in warning
    assert "pbem mail resend" not in warning
    play(game, 1, start=1)
    second = game.referee("--smtp", down())
    assert second["commit"] and second["pushed"] and f"2 mails owed (to {CAROL})" in second["warning"]
    owed = [cimail.parse(base64.b64decode(mail)) for mail in carried(game)["mails"]["owed"]]
    assert [str(m["Subject"]).split(": ")[-1] for m in owed] == ["move 2, your view", "move 3, your view"]
    idle = game.referee()  # a run with no way to mail: nothing new to commit, the owed mails wait, and it says so
    assert idle["commit"] is None and f"2 mails owed (to {CAROL})" in idle["warning"]
    assert "wait for a run with --smtp" in idle["warning"]

    play(game, 1, start=2)
    third = game.referee("--smtp", sink.address)  # the server is back: what is owed first, then the new view
    assert third["owed_sent"] == 2 and third["mailed"] == [CAROL] and third["warning"] is None
    assert [s.split(": ")[-1] for s in views(sink.messages)] == [
        "move 2, your view", "move 3, your view", "move 4, your view"]
    assert [m["Message-ID"] for m in sink.messages[:2]] == [m["Message-ID"] for m in owed]
    assert carried(game)["mails"]["owed"] == []
    assert game.pbem("git", "verify", game.dir).code == 0


def test_a_job_that_only_sends_what_was_owed_commits_it_and_a_job_run_again_sends_nothing_twice(club, sink,
                                                                                                  tmp_path):
    game = ci_game(club)
    play(game, 1)
    pushed_move = git(game.remote, "rev-parse", "main").strip()
    assert game.referee("--smtp", down())["pushed"]
    paid = game.referee("--smtp", sink.address)  # nothing new to referee, but a mail owed: sent, and recorded
    assert paid["owed_sent"] == 1 and paid["commit"] and paid["pushed"] and paid["commits"] == []
    title = git(game.dir, "log", "-1", "--format=%s", "origin/main").strip()
    assert "the mails an earlier run owed" in title
    assert len(views(sink.take())) == 1
    # the same job run again (the CI's re-run: a fresh checkout of the commit that started it), and another
    rerun = tmp_path / "rerun"
    git(tmp_path, "clone", "--quiet", game.remote, rerun)
    git(rerun, "reset", "--hard", "--quiet", pushed_move)
    again = game.pbem("git", "referee", rerun, "--identity", game.ci_identity, "--remote", "origin",
                      "--smtp", sink.address, "--format", "json")
    assert again.code == 0 and again.json()["commit"] is None and again.json()["owed_sent"] == 0
    later = game.referee("--smtp", sink.address)
    assert later["commit"] is None and later["mailed"] == []
    assert sink.messages == []
    # a job that mailed and pushed, run again over the same commits: nothing twice
    play(game, 1, start=1)
    assert game.referee("--smtp", sink.address)["mailed"] == [CAROL]
    assert game.referee("--smtp", sink.address)["mailed"] == []
    assert len(views(sink.messages)) == 1


def test_the_carried_ledger_keeps_the_last_two_runs_and_a_bounded_number_of_owed_mails(club, monkeypatch, sink):
    game = ci_game(club)
    identity = keys.Identity.from_file(game.ci_identity)
    monkeypatch.setattr(cimail, "OWED_MAILS", 2)
    server = down()
    for job in range(4):  # four moves while the server is down: two mails owed at most, the oldest dropped
        play(game, 1, start=job)
        run = referee(game.dir, identity=identity, remote="origin", mailer=transport.make(server, None))
        owed = carried(game)["mails"]["owed"]
        assert run.pushed and len(owed) == min(job + 1, 2)
        assert ("older owed mail dropped" in run.warning) == (job >= 2)
    assert [str(cimail.parse(base64.b64decode(m))["Subject"]).split(": ")[-1] for m in owed] == [
        "move 4, your view", "move 5, your view"]
    sizes = []
    for job in range(4, 10):  # the server is up: the sent records are those of the last two runs alone
        play(game, 1, start=job)
        run = referee(game.dir, identity=identity, remote="origin", mailer=transport.make(sink.address, None))
        body = carried(game)
        assert run.pushed and body["mails"]["owed"] == []
        assert set(body["mails"]["sent"].values()) <= set(body["chain"][-2:])
        sizes.append(len(body["mails"]["sent"]))
    assert max(sizes) <= 2 and sizes[-1] == 2  # one view a run, two runs kept, however long the season
    assert len(views(sink.messages)) == 2 + 6


def reseal(game, mails) -> None:
    """The newest refereed commit made again by the referee's own key (sealed, signed) with `mails` as its ledger
    (a damaged one, as a bug or another pbem could leave it), pushed in its place."""
    identity = keys.Identity.from_file(game.ci_identity)
    body = carried(game)
    repo = desk.Repo(game.dir)
    head = git(game.dir, "rev-parse", "origin/main").strip()
    config = layout.load("config", repo.show(head, layout.CONFIG), layout.CONFIG)
    sealed = desk.seal({**body, "mails": mails}, identity, config["referee"]["recipient"])
    tree = repo.build_tree(head, {layout.ARCHIVE: repo.write_blob(sealed)})
    message = git(game.dir, "log", "-1", "--format=%B", head)
    commit = repo.commit_tree(tree, repo.parents(head), message, identity.ssh_private_key)
    git(game.dir, "push", "--quiet", "--force", "origin", f"{commit}:refs/heads/main")
    for clone in [game.dir, *game.clones.values()]:
        git(clone, "fetch", "--quiet", "origin")
        git(clone, "reset", "--hard", "--quiet", "origin/main")


@pytest.mark.parametrize("mails", [{"sent": [], "owed": []}, {"sent": {}, "owed": ["not base64!"]},
                                   {"sent": {}, "owed": [base64.b64encode(b"no headers").decode()]}, "nonsense"])
def test_a_ledger_that_cannot_be_read_is_left_behind_and_said_and_the_referee_goes_on(club, sink, mails):
    game = ci_game(club)
    play(game, 1)
    game.referee("--smtp", sink.address)
    reseal(game, mails)
    play(game, 1, start=1)
    run = game.referee("--smtp", sink.address)
    assert run["commit"] and run["pushed"] and run["mailed"] == [CAROL]
    assert "its mail ledger cannot be read" in run["warning"] and "goes on without it" in run["warning"]
    assert game.referee("--smtp", sink.address)["warning"] is None  # the next archive carries a good one
    assert len(views(sink.messages)) == 2


def test_a_ledger_a_player_forged_is_not_read_and_its_mails_never_go(club, sink):
    """Anyone can encrypt to the referee's public key; only the referee's key makes the archive's MAC."""
    game = ci_game(club)
    config = layout.load("config", (game.dir / layout.CONFIG).read_bytes(), layout.CONFIG)
    bait = base64.b64encode(b"From: pbem@club.example\r\nTo: victim@else.example\r\nMessage-ID: <x@club.example>"
                            b"\r\nSubject: hello\r\n\r\nclick here\r\n").decode()
    forged = desk.seal({**carried(game), "mails": {"sent": {}, "owed": [bait]}},
                       keys.Identity(keys.new_identity()[0], "alice's own key"), config["referee"]["recipient"])
    game.pull("alice")
    (game.clones["alice"] / layout.ARCHIVE).write_bytes(forged)
    git(game.clones["alice"], "commit", "--quiet", "-am", "pbem: mails\n\nPbem-Game: club-game\nPbem-Move: 1")
    git(game.clones["alice"], "push", "--quiet")
    run = game.referee("--smtp", sink.address)
    assert [c["verdict"] for c in run["commits"]] == ["refused"] and "referee.age" in run["commits"][0]["reason"]
    assert carried(game)["mails"]["owed"] == [] and not sink.to("victim@else.example")


class Refusing(SmtpSink):
    """A mail server that refuses one recipient (an address gone: 550, or a 4xx: try later), and takes the others."""

    def __init__(self, refused: str, reply: str = "550 no such mailbox"):
        super().__init__()
        self.refused, self.reply = refused, reply

    async def handle_RCPT(self, server, session, envelope, address, options):
        if address == self.refused:
            return self.reply
        envelope.rcpt_tos.append(address)
        return "250 OK"


def test_a_mail_owed_that_the_server_refuses_again_is_dropped_and_holds_no_other_back(club):
    game = club("coal-baron", 3, seed=SEED, ci=True, keyless=("bob", "carol"))
    play(game, 1)
    owing = game.referee("--smtp", down())
    assert "2 mails owed (to bob@club.example, carol@club.example)" in owing["warning"]
    with Refusing.running("bob@club.example") as server:
        paid = game.referee("--smtp", server.address)
        again = game.referee("--smtp", server.address)
    assert paid["owed_sent"] == 1 and paid["owed_dropped"] == 1 and paid["mailed"] == [CAROL] and paid["commit"]
    assert "no such mailbox" in paid["warning"] and "dropped the mail to bob@club.example" in paid["warning"]
    assert "owed (to" not in paid["warning"]
    assert [str(m["To"]) for m in server.messages] == [CAROL]
    assert carried(game)["mails"]["owed"] == [] and again["commit"] is None and again["warning"] is None


def test_a_mail_owed_that_the_server_puts_off_for_now_stays_owed(club):
    """A 4xx reply (greylisting, a full mailbox) says "later", not "never": the mail is kept, not dropped."""
    game = club("coal-baron", 3, seed=SEED, ci=True, keyless=("bob", "carol"))
    play(game, 1)
    game.referee("--smtp", down())
    with Refusing.running("bob@club.example", "450 mailbox busy, try later") as server:
        put_off = game.referee("--smtp", server.address)
    assert put_off["owed_dropped"] == 0 and "mailbox busy" in put_off["warning"]
    owed = [str(cimail.parse(base64.b64decode(mail))["To"]) for mail in carried(game)["mails"]["owed"]]
    assert "bob@club.example" in owed and "bob@club.example" not in [str(m["To"]) for m in server.messages]


def written_ahead(game, submission) -> None:
    """A player commits their move file for a later move (as a player may, signed) and pushes it."""
    number, player, moves = submission
    gd, _, config = published(Repo(game.dir), "origin/main")
    game.pull(player)
    relative, data, _ = move_file(gd, config, number, player, moves, game.secrets[player])
    commit_move(Repo(game.clones[player]), relative, data, f"move {number} by {player}")
    git(game.clones[player], "push", "--quiet")


def test_a_job_whose_push_a_player_beat_judges_the_new_commit_from_its_own_and_mails_each_view_once(club, sink,
                                                                                                    monkeypatch):
    """A player pushes while the job commits: the job's push is rejected. It fetches, joins its commit to the
    pushed one and judges only what is new, its ledger read from its own first commit (the views it mailed are
    recorded there): each view goes once, and what the job says is everything it did."""
    game = ci_game(club)
    play(game, 1)
    submissions, _ = plan("coal-baron", game.names, SEED, game.dir.name, limit=2)
    pushes, push = [], branches.push

    def beaten_once(repo, remote, branch):
        if not pushes:
            written_ahead(game, submissions[1])
        pushes.append(push(repo, remote, branch))
        return pushes[-1]
    monkeypatch.setattr(branches, "push", beaten_once)
    run = game.referee("--smtp", sink.address)
    assert pushes == [False, True] and run["pushed"]
    judged = [(c["verdict"], c["file"]) for c in run["commits"] if c["verdict"] != "neutral"]  # (and its join)
    assert judged == [("accepted", f"moves/{number:04d}-{player}.yaml") for number, player, _ in submissions]
    assert [s.split(": ")[-1] for s in views(sink.messages)] == ["move 2, your view", "move 3, your view"]
    assert run["mailed"] == [CAROL, CAROL] and run["move_number"] == 3
    recorded = " ".join(carried(game)["mails"]["sent"])  # the ledger's records of what went, by Message-ID
    assert all(str(m["Message-ID"]) in recorded for m in sink.messages)
    monkeypatch.undo()
    again = game.referee("--smtp", sink.address)
    assert again["commit"] is None and again["mailed"] == [] and len(sink.messages) == 2
    assert game.pbem("git", "verify", game.dir).code == 0
