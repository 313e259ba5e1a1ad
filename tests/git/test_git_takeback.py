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
