"""`pbem git verify` reads each refereed commit's change once, however long the history: the git processes it
starts and the log entries it parses do not grow with every commit (counted, not timed: benchmarks/ times it), and
a refereed commit whose log or public status is not what the referee writes is still caught."""
from __future__ import annotations

import subprocess

import pytest

from gitkit import git, plan
from pbem.git import desk as desks
from pbem.git import layout
from pbem.git.repo import Repo
from pbem.store import yamlio

SEED = "history-seed"


@pytest.fixture
def game(club):
    return club("coal-baron", 3, seed=SEED)


def refereed_commits(game) -> list[str]:
    """The referee's commits, oldest first."""
    return git(game.dir, "log", "--reverse", "--format=%H", "--grep=^Pbem-Game: ").split()


def move_of(game, commit: str) -> int:
    return int(git(game.dir, "log", "-1", "--format=%(trailers:key=Pbem-Move,valueonly)", commit).strip())


def counted_verify(game, monkeypatch, rev: str) -> dict:
    """`pbem git verify --rev REV` with what it did counted: git processes started, log entries and public
    statuses parsed."""
    counts = {"git": 0, "entries": 0, "publics": 0}
    popen, loads = subprocess.Popen, yamlio.loads

    class Counted(popen):
        def __init__(self, args, *more, **options):
            counts["git"] += bool(args) and args[0] == "git"
            super().__init__(args, *more, **options)

    def counted_loads(text, source="input"):
        data = loads(text, source)
        if isinstance(data, dict):
            counts["entries"] += len(data.get("entries") or []) if data.get("format") == "pbem-log/1" else 0
            counts["publics"] += data.get("format") == "pbem-public/1"
        return data

    with monkeypatch.context() as patched:
        patched.setattr(subprocess, "Popen", Counted)
        patched.setattr(yamlio, "loads", counted_loads)
        result = game.pbem("git", "verify", game.dir, "--rev", rev, "--format", "json")
    assert result.code == 0, result.err
    return {**counts, "refereed": result.json()["refereed"], "finished": result.json()["finished"]}


def test_verify_starts_as_many_git_processes_and_parses_each_log_entry_once_however_long_the_history(
        game, monkeypatch):
    submissions, _ = plan("coal-baron", game.names, SEED, game.dir.name, limit=13)
    game.play(submissions, referee_every=1)  # one refereed commit a move
    refereed = refereed_commits(game)
    short = counted_verify(game, monkeypatch, refereed[3])
    long = counted_verify(game, monkeypatch, refereed[-1])
    assert (short["refereed"], long["refereed"]) == (4, len(refereed)) and len(refereed) >= 12
    # not one (or five) more for every refereed commit: at most one `git log` more, checking the SSH signatures
    # of the commits of every encrypted move at once (the short history may hold none)
    assert short["git"] <= long["git"] <= short["git"] + 1
    # while the game goes on: the newest log read whole (one entry fewer than its commits), earlier ones checked
    # as its text up to their own entries; every public status read (no replay to compare them with)
    for counted in (short, long):
        assert counted["entries"] == counted["refereed"] - 1
        assert counted["publics"] == counted["refereed"]
    # over: the full log and the last public log read whole, every earlier position compared with the replay's
    # text without reading it
    for name in game.names:
        assert game.move(name, "resign").code == 0
        game.referee()
    last_but_one, last = refereed_commits(game)[-2:]
    over = counted_verify(game, monkeypatch, last)
    assert over["finished"] and over["git"] <= short["git"] + 1
    assert over["entries"] == (move_of(game, last) - 1) + (move_of(game, last_but_one) - 1)
    assert over["publics"] == 1


def forge_refereed_commit(game, change, adopt: bool = False) -> str:
    """A commit on top of the newest refereed one, signed with the referee's key and carrying its trailers (as
    only someone holding that key could make), whose files are `change({path: bytes})`. `adopt`: the referee
    takes it as its last commit (its record says so) and goes on from it, and it is pushed."""
    repo = Repo(game.dir)
    head = repo.head()
    trailers = repo.commit(head).trailers()
    record_file = desks.record_path(game.game_dir())
    record = layout.load("record", record_file.read_bytes(), str(record_file))
    files = change({path: repo.show(head, path) for path in ("log.yaml", "public.yaml")})
    tree = repo.build_tree(head, repo.write_blobs(files))
    message = (f"pbem: a forged position\n\nPbem-Game: {trailers['Pbem-Game']}\nPbem-Move: {trailers['Pbem-Move']}\n"
               f"Pbem-Previous: {head}\n")
    forged = repo.commit_tree(tree, [head], message, record["signing_key"])
    git(game.dir, "reset", "--quiet", "--hard", forged)
    if adopt:
        desks.write_record(record_file, {**record, "chain": record["chain"] + [forged]})
        git(game.dir, "push", "--quiet", "origin", "HEAD:main")
    return forged


def played(game, moves: int) -> None:
    submissions, _ = plan("coal-baron", game.names, SEED, game.dir.name, limit=moves)
    game.play(submissions, referee_every=1)


def test_a_refereed_log_that_rewrites_an_earlier_entry_fails_verify(game):
    played(game, 4)
    assert game.pbem("git", "verify", game.dir).code == 0

    def rewrite(files):
        log = yamlio.loads(files["log.yaml"])
        log["entries"][0]["by"] = "referee"  # entry 1 said the player moved
        return {**files, "log.yaml": yamlio.dumps(log, "schemas/log.schema.json").encode()}

    forge_refereed_commit(game, rewrite)
    # the forged commit's log is read whole (its text is not an append); the newest log is the reference, so an
    # earlier commit's log no longer is its text up to its entries: read, and found to differ
    result = game.pbem("git", "verify", game.dir)
    assert result.code == 2 and "changed entries of an earlier one" in result.err


def test_a_refereed_log_with_a_dropped_entry_fails_verify(game):
    played(game, 4)

    def drop(files):
        log = yamlio.loads(files["log.yaml"])
        log["entries"] = log["entries"][:-1]
        return {**files, "log.yaml": yamlio.dumps(log, "schemas/log.schema.json").encode()}

    forge_refereed_commit(game, drop)
    result = game.pbem("git", "verify", game.dir)
    assert result.code == 2 and "its log has" in result.err


def test_a_refereed_public_status_that_is_not_the_replay_fails_verify_once_the_game_is_over(game):
    played(game, 3)

    def edit(files):  # the same document with another title: schema-valid, not what the replay gives
        public = yamlio.loads(files["public.yaml"])
        public["title"] = public["title"] + " (edited)"
        return {**files, "public.yaml": yamlio.dumps(public, "schemas/public.schema.json").encode()}

    forged = forge_refereed_commit(game, edit, adopt=True)
    played_on = plan("coal-baron", game.names, SEED, game.dir.name, limit=5)[0][3:]
    game.play(played_on, referee_every=1)
    assert game.pbem("git", "verify", game.dir).code == 0  # going on: no replay to compare a position with
    for name in game.names:
        assert game.move(name, "resign").code == 0
        game.referee()
    result = game.pbem("git", "verify", game.dir, "--format", "json")
    assert result.code == 2 and f"public.yaml of the refereed commit {forged[:10]}" in result.err, result.out


def test_a_push_refused_after_the_game_is_over_leaves_a_history_that_verifies(game):
    """After the end the referee still refuses what is pushed, in commits of its own at the last move number:
    their log is the full log, like the last one's, not a later public log."""
    played(game, 3)
    for name in game.names:
        assert game.move(name, "resign").code == 0
        game.referee()
    game.commit_file("alice", "notes.txt", "too late\n", "a note after the end")
    assert [c["verdict"] for c in game.referee()["commits"]] == ["refused"]
    result = game.pbem("git", "verify", game.dir, "--format", "json")
    assert result.code == 0, result.err
    assert result.json()["finished"]


def test_a_failed_verification_is_said_in_the_language_asked_and_in_english_otherwise(game):
    """Players run verify too: its refusal is a message rendered in --language (the game's without it: English)."""
    played(game, 4)

    def drop(files):
        log = yamlio.loads(files["log.yaml"])
        log["entries"] = log["entries"][:-1]
        return {**files, "log.yaml": yamlio.dumps(log, "schemas/log.schema.json").encode()}

    forged = forge_refereed_commit(game, drop)[:10]
    said = {None: f"verify failed: {forged} says move 5, its public.yaml says 5 and its log has 3 entries",
            "fr": f"échec de la vérification : {forged} indique le coup 5, son public.yaml indique 5 et son journal "
                  f"a 3 entrées",
            "zh-Hant": f"驗證失敗：{forged} 寫的是第 5 步，它的 public.yaml 寫的是 5，而它的紀錄有 3 筆"}
    for code, words in said.items():
        result = game.pbem("git", "verify", game.dir, *(["--language", code] if code else []))
        assert result.code == 2 and words in " ".join(result.err.split()), result.err
