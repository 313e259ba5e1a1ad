"""Table talk by git: a player's message is a signed file committed and pushed like a move (`pbem git say`), judged
by the referee's run; a message to the table is published in talk.yaml and the referee's commit message, a private
one is committed only encrypted to the two players' keys (and the referee's, which judges it)."""
from __future__ import annotations

import subprocess

from gitkit import git

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
    message = git(game.dir, "log", "-1", "--format=%B")
    assert "alice to the table" in message and "I am away this weekend" in message
    shown = game.pbem("git", "talk", game.clones["bob"], "--as", "bob", "--identity", game.keys["bob"])
    game.pull("bob")
    shown = game.pbem("git", "talk", game.clones["bob"], "--as", "bob", "--identity", game.keys["bob"])
    assert shown.code == 0 and "I am away this weekend" in shown.out, shown.err
