"""Queues by git: a move that holds steps for later is committed encrypted to the referee (a queue is private
until played), its queue waits in the player's encrypted view, what it plays is logged as the player's, and verify
counts such a sealed move as checked by the referee; a queue committed in the clear is refused."""
from __future__ import annotations

from pbem.engine import engine
from pbem.git import keys
from pbem.store import yamlio

SEED = "queue-seed"


def seats(game) -> list[str]:
    first = yamlio.load_file(game.dir / "public.yaml")["to_act"]
    return game.names[game.names.index(first):] + game.names[:game.names.index(first)]


def test_a_queue_travels_encrypted_plays_when_its_decision_comes_and_verifies(club):
    game = club("gold-fever", 3, seed=SEED)
    first, second, third = seats(game)
    result = game.move(first, "bid 1; take best; standing telegraph: pass")
    assert result.code == 0 and result.json()["encrypted"], result.err
    data = (game.clones[first] / result.json()["file"]).read_text()
    assert data.startswith(keys.ARMOR_BEGIN) and "take best" not in data
    game.referee()
    entry = engine.read_log(engine.open_game(game.game_dir()), full=True)["entries"][-1]
    assert entry["moves"] == ["bid 1"] and entry["sealed"] is True
    game.pull(first)
    shown = game.pbem("git", "view", game.clones[first], "--as", first, "--identity", game.keys[first],
                      "--format", "json")
    assert shown.json()["queue"] == {"turns": [["take best"]], "standing": ["standing telegraph: pass"],
                                     "notices": []}
    for name in (second, third):
        assert game.move(name, "pass").code == 0
        game.referee()
    log = engine.read_log(engine.open_game(game.game_dir()))["entries"]
    assert (log[-1]["player"], log[-1]["moves"][0].split()[0], log[-1]["reason"]) == (first, "take", "queued")
    for path in game.dir.rglob("*"):
        if path.is_file() and ".git" not in path.parts:
            assert "take best" not in path.read_text(errors="replace"), path
    verified = game.pbem("git", "verify", game.dir, "--format", "json")
    assert verified.code == 0, verified.err


def test_a_queue_committed_in_the_clear_is_refused(club):
    game = club("gold-fever", 3, seed=SEED)
    first, _, _ = seats(game)
    number = yamlio.load_file(game.dir / "public.yaml")["move_number"]
    game.commit_file(first, f"moves/{number:04d}-{first}.yaml", game.signed_move_text(first, number,
                                                                                     ["bid 1", "next", "take best"]))
    assert "a hidden choice or a queue and was committed in the clear" in game.referee()["commits"][0]["reason"]
    assert yamlio.load_file(game.dir / "public.yaml")["move_number"] == number


def card_to_choose(club):
    """A table where the first seat won the auction and chooses a card: (the club, that seat, the offer)."""
    game = club("gold-fever", 3, seed=SEED)
    first, second, third = seats(game)
    for name, text in ((first, "bid 1"), (second, "pass"), (third, "pass")):
        assert game.move(name, text).code == 0
        game.referee()
    game.pull(first)
    return game, first, yamlio.load_file(game.clones[first] / "public.yaml")["view"]["turn"]["offer"]


def test_a_card_taken_by_its_name_is_committed_in_the_clear_by_its_slot_and_verifies(club):
    """`pbem git move --text "take new-london-4"`: the file in the clear says what the log will (`take` and the slot
    the card lies in), the referee accepts it, and the history verifies."""
    game, first, offer = card_to_choose(club)
    card = offer[1]["card"]["id"]
    result = game.move(first, f"take {card}")
    assert result.code == 0 and not result.json()["encrypted"], result.err
    assert "- take 2\n" in (game.clones[first] / result.json()["file"]).read_text()
    assert [c["verdict"] for c in game.referee()["commits"]] == ["accepted"]
    assert engine.read_log(engine.open_game(game.game_dir()))["entries"][-1]["moves"] == ["take 2"]
    assert game.pbem("git", "verify", game.dir, "--format", "json").code == 0


def test_a_turn_whose_first_step_takes_a_card_by_its_name_is_checked_by_its_slot_and_committed(club):
    game, first, offer = card_to_choose(club)
    card = offer[0]["card"]["id"]
    result = game.move(first, f"take {card}; next; pass")
    assert result.code == 0 and result.json()["encrypted"], result.err
    game.referee()
    assert engine.read_log(engine.open_game(game.game_dir()))["entries"][-1]["moves"] == ["take 1"]
