"""Table talk by git: a player's message is a signed file committed and pushed like a move (`pbem git say`), judged
by the referee's run; a message to the table is published in talk.yaml and the referee's commit message, a private
one is committed only encrypted to the two players' keys (and the referee's, which judges it)."""
from __future__ import annotations

import mailbox
import re
import shlex
import subprocess
from pathlib import Path

import pytest
from gitkit import git, referee_killed_before_commit, ssh_key

from pbem.clock import talk as talking
from pbem.contract import PbemError
from pbem.engine import engine
from pbem.git.keys import Identity
from pbem.git.talk import talk_doc
from pbem.store import yamlio

SEED = "talk-seed"


def say(game, name: str, *words, push: bool = True):
    game.pull(name)
    args = ["git", "say", game.clones[name], *words, "--as", name, "--format", "json"]
    if name not in game.ssh_signing:
        args += ["--secret-file", game.secret_files[name]]
    return game.pbem(*args, *(["--push"] if push else []))


def test_git_table_talk_is_published_in_talk_yaml_and_the_commit_message(club):
    game = club("gold-fever", 3, seed=SEED)
    said = say(game, "alice", "I am away this weekend")
    assert said.code == 0, said.err
    run = game.referee()
    assert [c["verdict"] for c in run["commits"]] == ["talk"]
    talk = yamlio.loads(git(game.dir, "show", "HEAD:talk.yaml"))
    assert [(m["from"], m["to"], m["text"]) for m in talk["messages"]] == [("alice", None, "I am away this weekend")]
    first = game.created["commit"]  # a talk commit leaves the position and the views as they were
    assert set(git(game.dir, "diff", "--name-only", first, "HEAD").split()) == {"moves/0001-alice.talk-1.yaml",
                                                                                "talk.yaml"}
    message = git(game.dir, "log", "-1", "--format=%B")
    assert "alice to the table" in message and "I am away this weekend" in message
    game.pull("bob")
    shown = game.pbem("git", "talk", game.clones["bob"], "--as", "bob", "--identity", game.keys["bob"])
    assert shown.code == 0 and "I am away this weekend" in shown.out, shown.err


def every_committed_text(repository) -> str:
    """Every blob of the repository's objects and every commit's message, as one text."""
    objects = git(repository, "rev-list", "--all", "--objects").split()
    listed = "\n".join(name for name in objects if len(name) == 40)
    kinds = subprocess.run(["git", "-C", str(repository), "cat-file", "--batch-check=%(objectname) %(objecttype)"],
                           input=listed.encode(), capture_output=True, check=True).stdout.decode().split("\n")
    blobs = [line.split()[0] for line in kinds if line.endswith(" blob")]
    texts = [git(repository, "cat-file", "blob", blob) for blob in blobs]
    return "\n".join(texts) + git(repository, "log", "--all", "--format=%B")


def private_blob(game, name: str) -> bytes:
    path = next(p for p in git(game.dir, "ls-tree", "-r", "--name-only", "HEAD").split() if ".talk-" in p)
    assert path.endswith(".yaml.age") and f"-{name}." in path
    return git(game.dir, "show", f"HEAD:{path}").encode()


def test_git_private_talk_is_unreadable_without_the_two_players_keys(club, tmp_path):
    game = club("gold-fever", 3, seed=SEED)
    words = "shall we share the coast, bob? 7 nuggets"
    said = say(game, "alice", words, "--to", "bob")
    assert said.code == 0, said.err
    run = game.referee()
    assert [c["verdict"] for c in run["commits"]] == ["talk"] and words not in str(run)
    for repository in (game.remote, game.dir):
        assert words not in every_committed_text(repository)
    blob = private_blob(game, "alice")
    for reader in ("alice", "bob"):
        assert words in Identity.from_file(game.keys[reader]).decrypt(blob, "the talk file")
    spectator = ssh_key(tmp_path, "spectator")
    for stranger in (game.keys["carol"], spectator):
        with pytest.raises(PbemError):
            Identity.from_file(stranger).decrypt(blob, "the talk file")
    for reader in ("alice", "bob"):
        game.pull(reader)
        shown = game.pbem("git", "talk", game.clones[reader], "--as", reader, "--identity", game.keys[reader])
        assert shown.code == 0 and words in " ".join(shown.out.split()), shown.err
    game.pull("carol")
    shown = game.pbem("git", "talk", game.clones["carol"], "--as", "carol", "--identity", game.keys["carol"])
    assert shown.code == 0 and words not in shown.out and "No messages yet." in shown.out
    assert yamlio.loads(git(game.dir, "show", "HEAD:talk.yaml"))["messages"] == []  # the table's alone


def to_act(game) -> str:
    return yamlio.load_file(game.dir / "public.yaml")["to_act"]


def talk_text(game, name: str, number: int, sequence: int, text: str, to: str | None = None,
              secret_of: str | None = None) -> str:
    """A talk file written by hand, signed with `secret_of`'s secret (the player's own by default)."""
    return yamlio.dumps(talk_doc(game.dir.name, number, name, sequence, to, text, game.secrets[secret_of or name]))


def test_git_hostile_talk_is_refused_or_cleaned_and_the_moves_go_on(club):
    game = club("gold-fever", 3, seed=SEED)
    first = to_act(game)
    other = next(name for name in game.names if name != first)
    third = next(name for name in game.names if name not in (first, other))
    game.commit_file(other, f"moves/0001-{other}.talk-1.yaml", b"text: " + b"x" * (1024 * 1024 + 10) + b"\n")
    game.commit_file(other, f"moves/0001-{other}.talk-2.yaml",
                     talk_text(game, other, 1, 2, "hello\x1b[31m world\u202e\x07 again"))
    forged = talk_text(game, other, 1, 3, "I resign, take my gold", secret_of=third)
    game.commit_file(third, f"moves/0001-{other}.talk-3.yaml", forged)
    copied = git(game.clones[third], "show", f"HEAD~1:moves/0001-{other}.talk-2.yaml")
    game.commit_file(third, f"moves/0001-{other}.talk-4.yaml", copied)
    game.commit_file(other, f"moves/0001-{other}.talk-5.yaml", talk_text(game, other, 1, 5, "psst", to=first))
    game.commit_file(other, f"moves/0009-{other}.talk-1.yaml", talk_text(game, other, 9, 1, "from the future"))
    assert game.move(first, "bid 4").code == 0
    run = game.referee()
    verdicts = [(c["verdict"], c["reason"] or "") for c in run["commits"]]
    assert [kind for kind, _ in verdicts] == ["refused", "talk", "refused", "refused", "refused", "refused",
                                              "accepted"]
    reasons = [reason for kind, reason in verdicts]
    assert "too large" in reasons[0]
    assert "bad signature" in reasons[2] and "bad signature" in reasons[3]
    assert "encrypted" in reasons[4] and "not reached" in reasons[5]
    talk = yamlio.loads(git(game.dir, "show", "HEAD:talk.yaml"))
    assert [m["text"] for m in talk["messages"]] == ["hello[31m world again"]
    verified = game.pbem("git", "verify", game.dir, "--format", "json")
    assert verified.code == 0, verified.err


def test_git_talk_turned_off_is_refused_in_the_pushers_language(club):
    game = club("gold-fever", 3, seed=SEED, init_args=("--talk", "off", "--player-language", "bob=fr"))
    assert say(game, "bob", "bonjour").code == 0
    run = game.referee()
    assert [c["verdict"] for c in run["commits"]] == ["refused"]
    refused = yamlio.loads(git(game.dir, "show", "HEAD:refused.yaml"))["refused"]
    assert "les messages sont désactivés dans cette partie" in refused[0]["reason"]
    assert "talk.yaml" not in git(game.dir, "ls-tree", "--name-only", "HEAD")


def test_git_private_talk_is_refused_where_the_organiser_allows_the_table_only(club):
    game = club("gold-fever", 3, seed=SEED, init_args=("--talk", "table"))
    assert say(game, "alice", "a deal, bob?", "--to", "bob").code == 0
    assert say(game, "alice", "hello all").code == 0
    run = game.referee()
    assert [c["verdict"] for c in run["commits"]] == ["refused", "talk"]
    assert "private messages are turned off" in run["commits"][0]["reason"]
    assert "a deal" not in every_committed_text(game.dir)


def test_git_talk_over_the_days_limit_is_refused(club, monkeypatch):
    monkeypatch.setattr(talking, "MAX_A_DAY", 2)
    game = club("gold-fever", 3, seed=SEED)
    for words in ("one", "two", "three"):
        assert say(game, "carol", words).code == 0
    run = game.referee()
    assert [c["verdict"] for c in run["commits"]] == ["talk", "talk", "refused"]
    assert "2 messages today" in run["commits"][2]["reason"]


def test_git_talk_in_a_commit_signed_with_the_players_ssh_key_is_accepted_and_an_unsigned_one_refused(club):
    game = club("gold-fever", 3, seed=SEED, ssh_signing=("alice",))
    assert say(game, "alice", "signed by my key").code == 0
    unsigned = yamlio.dumps(talk_doc(game.dir.name, 1, "bob", 1, None, "nobody signed me", None))
    game.commit_file("bob", "moves/0001-bob.talk-1.yaml", unsigned)
    run = game.referee()
    assert [c["verdict"] for c in run["commits"]] == ["talk", "refused"]
    assert "not signed" in run["commits"][1]["reason"]


def test_git_talk_reaches_a_player_without_a_key_by_mail(club, tmp_path):
    game = club("gold-fever", 3, seed=SEED, keyless=("carol",))
    assert say(game, "alice", "to everyone").code == 0
    assert say(game, "bob", "just for you, carol", "--to", "carol").code == 0
    assert say(game, "alice", "for bob alone", "--to", "bob").code == 0
    outbox = tmp_path / "outbox"
    run = game.referee("--outbox", outbox)
    assert [c["verdict"] for c in run["commits"]] == ["talk", "talk", "talk"]
    mails = [(m["To"], m["Subject"], m.get_payload(decode=True).decode())
             for m in (mailbox.MaildirMessage(m) for m in mailbox.Maildir(outbox, create=False))]
    assert {to for to, _, _ in mails} == {"carol@club.example"}
    assert any("to everyone" in body and "alice to the table" in subject for _, subject, body in mails)
    assert any("just for you, carol" in body and "bob to you only" in subject for _, subject, body in mails)
    assert "just for you" not in every_committed_text(game.dir)
    assert not any("for bob alone" in body for _, _, body in mails)  # another player's private message


def test_the_table_talk_example_of_docs_git_md_runs_as_shown(club):
    """docs/git.md's "Table talk" commands, run in a club's clones: the referee keeps both messages, and bob reads
    both, as the commit message the guide shows says."""
    game = club("gold-fever", 3, seed=SEED)
    guide = (Path(__file__).resolve().parents[2] / "docs" / "git.md").read_text()
    section = guide.split("## Table talk\n", 1)[1]
    block = section.split("```sh\n", 1)[1].split("```", 1)[0]
    for line in block.splitlines():
        argv = shlex.split(line, comments=True)
        player = argv[argv.index("--as") + 1]
        game.pull(player)
        argv = [{".": str(game.clones[player]), "~/.pbem/spring-cup": str(game.secret_files[player]),
                 "~/.ssh/id_ed25519": str(game.keys[player])}.get(word, word) for word in argv[1:]]
        if argv[1] == "talk":
            game.referee()
            game.pull(player)
        result = game.pbem(*argv)
        assert result.code == 0, (line, result.err)
    heard = " ".join(result.out.split())
    assert "Away this weekend, back on Monday." in heard and "Shall we leave the coast to each other?" in heard
    shown = re.search(r"\n```\n(pbem: .*?)```", section, re.DOTALL).group(1).splitlines()
    message = git(game.dir, "log", "--format=%B", "-2").splitlines()
    assert shown[0] in message and shown[3] in message  # the title, and the message as the commit shows it


def test_the_pre_commit_hook_passes_a_talk_file_and_stops_a_private_one_in_the_clear(club, monkeypatch):
    game = club("gold-fever", 3, seed=SEED)
    monkeypatch.chdir(game.clones["alice"])
    (game.clones["alice"] / "moves").mkdir()
    table = "moves/0001-alice.talk-1.yaml"
    (game.clones["alice"] / table).write_text(talk_text(game, "alice", 1, 1, "hello all"))
    assert game.pbem("git", "check-move", table).code == 0
    clear = "moves/0001-alice.talk-2.yaml"
    (game.clones["alice"] / clear).write_text(talk_text(game, "alice", 1, 2, "psst", to="bob"))
    hooked = game.pbem("git", "check-move", clear)
    assert hooked.code == 2 and "must not be committed in the clear" in hooked.err and "psst" not in hooked.err


def test_git_talk_refused_once_and_pushed_again_is_refused_again_and_never_delivered_late(club, monkeypatch):
    import datetime
    monkeypatch.setattr(talking, "MAX_A_DAY", 1)
    game = club("gold-fever", 3, seed=SEED)
    today = datetime.datetime.now(datetime.timezone.utc)
    tomorrow = (today + datetime.timedelta(days=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
    for words in ("one", "two"):
        assert say(game, "alice", words).code == 0
    assert [c["verdict"] for c in game.referee()["commits"]] == ["talk", "refused"]  # the day's one message
    refused = "moves/0001-alice.talk-2.yaml"
    game.pull("bob")
    added = git(game.clones["bob"], "log", "-1", "--diff-filter=A", "--format=%H", "--", refused).strip()
    game.commit_file("bob", refused, git(game.clones["bob"], "show", f"{added}:{refused}"))  # bob pushes it again
    run = game.referee("--now", tomorrow)
    assert [c["verdict"] for c in run["commits"]] == ["refused"] and "judged before" in run["commits"][0]["reason"]
    said = say(game, "alice", "two, again")
    assert said.code == 0 and said.json()["file"] == "moves/0001-alice.talk-3.yaml"
    assert [c["verdict"] for c in game.referee("--now", tomorrow)["commits"]] == ["talk"]
    talk = yamlio.loads(git(game.dir, "show", "HEAD:talk.yaml"))
    assert [m["text"] for m in talk["messages"]] == ["one", "two, again"]


def test_git_talk_kept_by_a_referee_killed_before_its_commit_is_told_once(club, monkeypatch):
    """The run kept the message (referee/talk.yaml) and died before committing: the next run meets the same talk
    file again and keeps nothing new (a message is kept once, by its file's name), so the table reads it once."""
    game = club("gold-fever", 3, seed=SEED)
    assert say(game, "alice", "I am away this weekend").code == 0
    referee_killed_before_commit(game, monkeypatch)
    gd = engine.open_game(game.game_dir())
    assert [m["text"] for m in talking.table(gd)] == ["I am away this weekend"]  # kept, not committed
    run = game.referee()
    assert [c["verdict"] for c in run["commits"]] == ["talk"]
    talk = yamlio.loads(git(game.dir, "show", "HEAD:talk.yaml"))
    assert [m["text"] for m in talk["messages"]] == ["I am away this weekend"]
    assert git(game.dir, "log", "-1", "--format=%B").count("I am away this weekend") == 1
    assert [m["text"] for m in talking.heard_by(gd, "bob")] == ["I am away this weekend"]


def test_a_talk_mail_of_a_ci_referee_killed_before_its_commit_is_the_same_mail_when_the_next_run_sends_it(
        club, monkeypatch, tmp_path):
    """A referee in CI killed after it mailed the talk to a player without a key, and before its commit reached the
    remote: the next job judges the talk file again and makes its mails again, each with the Message-ID the first
    had (made from the file and the recipient), so they are known for the same mail: an outbox holds it once."""
    from pbem.mail import transport
    game = club("gold-fever", 3, seed=SEED, keyless=("carol",), ci=True)
    assert say(game, "alice", "I am away this weekend").code == 0
    assert say(game, "bob", "just for you, carol", "--to", "carol").code == 0
    outbox = tmp_path / "outbox"

    def mails():
        return sorted((m["Message-ID"], m["Subject"]) for m in mailbox.Maildir(outbox, create=False))
    referee_killed_before_commit(game, monkeypatch, mailer=transport.make(None, outbox))
    first = mails()
    assert len(first) == 2 and "bob to you only" in " ".join(subject for _, subject in first)
    run = game.referee("--outbox", outbox)
    assert [c["verdict"] for c in run["commits"]] == ["talk", "talk"]
    assert mails() == first


def test_pbem_say_in_the_git_referees_directory_publishes_table_talk_and_refuses_a_private_message(club):
    """The organiser's `pbem say` in the local referee's game directory: a message to the table is published by the
    referee's next run (talk.yaml); one to a single seat would reach no git player (each reads theirs from the
    repository, encrypted), so it is refused, exit 2, nothing kept, and the message says what to use."""
    game = club("gold-fever", 3, seed=SEED)
    directory, secret = game.game_dir(), game.secrets["alice"]
    before = {path: path.read_bytes() for path in directory.rglob("*") if path.is_file()}
    private = game.pbem("say", directory, "Shall we leave the coast to each other?", "--as", "alice", "--to", "bob",
                        "--secret", secret)
    assert private.code == 2 and "pbem git say . --as alice --to bob" in " ".join(private.err.split())
    assert {path: path.read_bytes() for path in directory.rglob("*") if path.is_file()} == before
    table = game.pbem("say", directory, "Away this weekend", "--as", "alice", "--secret", secret)
    assert table.code == 0, table.err
    game.referee()
    talk = yamlio.loads(git(game.dir, "show", "HEAD:talk.yaml"))
    assert [(m["from"], m["to"], m["text"]) for m in talk["messages"]] == [("alice", None, "Away this weekend")]
