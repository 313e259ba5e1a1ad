"""A takeback by git: the request and each answer are move files committed like moves (signed with the player's
secret), judged by the referee's run; a granted takeback is committed as the position before the decision, and
`pbem git verify` replays it."""
from __future__ import annotations

from pbem.engine import engine
from pbem.store import yamlio

SEED = "takeback-seed"


def seats(game) -> list[str]:
    first = yamlio.load_file(game.dir / "public.yaml")["to_act"]
    return game.names[game.names.index(first):] + game.names[:game.names.index(first)]


def commit_word(game, name: str, word: str) -> None:
    game.pull(name)
    number = yamlio.load_file(game.clones[name] / "public.yaml")["move_number"]
    game.commit_file(name, f"moves/{number:04d}-{name}.yaml", game.signed_move_text(name, number, [word]))
    game.referee()


def test_a_takeback_committed_and_agreed_by_git_puts_the_position_back_and_verifies(club):
    game = club("gold-fever", 3, seed=SEED)
    first, second, third = seats(game)
    assert game.move(first, "bid 4").code == 0
    game.referee()
    game.pull(first)
    asked = game.pbem("git", "takeback", game.clones[first], "--as", first, "--secret-file",
                      game.secret_files[first], "--push")
    assert asked.code == 0 and "you ask to take back your last decision" in " ".join(asked.out.split()), asked.err
    game.referee()
    assert game.state()["takeback"]["waiting"] == [second, third]
    commit_word(game, second, engine.TAKEBACK_AGREE)
    commit_word(game, third, engine.TAKEBACK_AGREE)
    log = engine.read_log(engine.open_game(game.game_dir()), full=True)["entries"]
    assert [entry["moves"][0] for entry in log[-4:]] == [engine.TAKEBACK_REQUEST, engine.TAKEBACK_AGREE,
                                                         engine.TAKEBACK_AGREE, engine.TAKEBACK_GRANTED]
    game.pull(first)
    assert yamlio.load_file(game.clones[first] / "public.yaml")["to_act"] == first
    verified = game.pbem("git", "verify", game.dir, "--format", "json")
    assert verified.code == 0, verified.err


def test_a_takeback_file_of_someone_not_asked_is_refused(club):
    game = club("gold-fever", 3, seed=SEED)
    first, second, _ = seats(game)
    assert game.move(first, "bid 4").code == 0
    game.referee()
    game.pull(second)
    number = yamlio.load_file(game.clones[second] / "public.yaml")["move_number"]
    game.commit_file(second, f"moves/{number:04d}-{second}.yaml",
                     game.signed_move_text(second, number, [engine.TAKEBACK_AGREE]))
    result = game.referee()
    assert "no takeback is asked" in str(result)


def test_a_pending_takeback_is_shown_in_the_repositorys_readme_and_views_until_answered(club):
    from gitkit import git
    game = club("gold-fever", 3, seed=SEED)
    first, second, third = seats(game)
    assert game.move(first, "bid 4").code == 0
    game.referee()
    commit_word(game, first, engine.TAKEBACK_REQUEST)
    waiting = f"{first} asks to take back move 1: waiting for the answer of {second}, {third}, until"
    assert waiting in " ".join(git(game.dir, "show", "HEAD:README.md").split())
    game.pull(second)
    view = game.pbem("git", "view", game.clones[second], "--as", second, "--identity", game.keys[second])
    assert view.code == 0 and waiting in " ".join(view.out.split()), view.err
    commit_word(game, second, engine.TAKEBACK_DECLINE)
    assert "asks to take back" not in git(game.dir, "show", "HEAD:README.md")


def test_a_takeback_no_one_answered_is_refused_by_the_referees_tick_told_to_everyone_and_recorded(club, tmp_path):
    """As `pbem tick` refuses a mail game's takeback once its time has run out, `pbem git referee --tick` refuses a
    git player's: in a commit of its own (the log's refusal, the README without the request), mailed at once to
    every player with an address, whatever their preference; once only."""
    import email
    import mailbox
    from email import policy
    from gitkit import git
    asked_at, two_days_after = "2026-03-02T12:00:00Z", "2026-03-04T12:00:00Z"
    game = club("gold-fever", 3, seed=SEED, addresses=("alice", "bob", "carol"))
    first, second, third = seats(game)
    assert game.move(first, "bid 4").code == 0
    game.referee("--now", asked_at)
    commit_word_at(game, first, engine.TAKEBACK_REQUEST, asked_at)
    assert game.state()["takeback"]["waiting"] == [second, third]
    outbox = tmp_path / "outbox"
    assert game.referee("--tick", "--now", "2026-03-04T11:59:00Z", "--outbox", outbox)["commit"] is None
    run = game.referee("--tick", "--now", two_days_after, "--outbox", outbox)
    assert run["commit"], run
    assert "takeback" not in game.state()
    log = engine.read_log(engine.open_game(game.game_dir()), full=True)["entries"]
    assert log[-1]["moves"] == [engine.TAKEBACK_REFUSED] and log[-1]["player"] == first
    assert "the deadline passed" in log[-1]["reason"]
    message = git(game.dir, "log", "-1", "--format=%B")
    assert f"({first}, by the referee:" in message and engine.TAKEBACK_REFUSED in message, message
    assert "asks to take back" not in git(game.dir, "show", "HEAD:README.md")
    mails = {m["To"]: m for m in mailbox.Maildir(outbox, factory=None, create=False)}
    assert set(mails) == {f"{name}@club.example" for name in game.names}
    for mail in mails.values():
        text = email.message_from_bytes(mail.as_bytes(), policy=policy.default).get_body(("plain",)).get_content()
        assert f"the referee refused {first}'s takeback" in " ".join(text.split())
    assert game.referee("--tick", "--now", "2026-03-04T13:00:00Z", "--outbox", outbox)["commit"] is None
    assert len(list(mailbox.Maildir(outbox, create=False))) == len(mails)  # told once
    assert game.pbem("git", "verify", game.dir, "--referee-dir", game.referee_dir).code == 0


def commit_word_at(game, name: str, word: str, now: str) -> None:
    game.pull(name)
    number = yamlio.load_file(game.clones[name] / "public.yaml")["move_number"]
    game.commit_file(name, f"moves/{number:04d}-{name}.yaml", game.signed_move_text(name, number, [word]))
    game.referee("--now", now)
