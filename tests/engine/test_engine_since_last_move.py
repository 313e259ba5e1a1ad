"""What happened since my last move: a player's own report (`pbem status --as`, `pbem board --as --format html`,
`pbem git view` in tests/git) lists every move since the last turn the player sent, not only the last 8 (a file
player came back after 17 bot moves and missed the phase-card picks that set the round)."""
from __future__ import annotations

from pbem.engine import engine
from pbem.engine.documents import RECENT, SINCE_MOST, since_own_move
from support import others_play_long


def test_a_players_status_lists_every_move_since_their_last_one(new_game, pbem):
    directory, _ = new_game("coal-baron", players=4, seed="since")
    gd = engine.open_game(directory)
    last = others_play_long(gd, "bob")
    now = engine.status(gd)["move_number"]
    result = pbem("status", directory, "--as", "bob", "--format", "json")
    assert [entry["number"] for entry in result.json()["recent"]] == list(range(last, now))
    assert result.json()["since"] == {"from": "own move", "left_out": 0}
    text = pbem("status", directory, "--as", "bob").out
    table = text.split("The moves since your last move:")[1]
    assert all(f"\n{number:>3}  " in table for number in range(last, now)), table
    assert "Last moves:" in pbem("status", directory).out  # the public status keeps the last 8
    assert len(pbem("status", directory, "--format", "json").json()["recent"]) == RECENT
    page = pbem("board", directory, "--as", "bob", "--format", "html").out
    assert "The moves since your last move:" in page and f'<td class=n>{last}<td>bob' in page  # (a table)


def entries(players: list[str], by: str = "player") -> list[dict]:
    return [{"number": n, "player": player, "by": by, "moves": ["pass"], "chance": []}
            for n, player in enumerate(players, 1)]


def doc(player: str, log: list[dict]) -> dict:
    return {"player": player, "finished": False, "move_number": len(log) + 1, "recent": log[-RECENT:]}


def test_moves_since_ones_own_move_are_at_least_the_last_8_and_at_most_the_bound():
    log = entries(["bob"] + ["ann"] * (SINCE_MOST + 5))
    shown = since_own_move(doc("bob", log), log)
    assert [e["number"] for e in shown["recent"]] == list(range(7, SINCE_MOST + 7))
    assert shown["since"] == {"from": "own move", "left_out": 6}
    log = entries(["ann"] * 20 + ["bob", "ann"])
    shown = since_own_move(doc("bob", log), log)
    assert [e["number"] for e in shown["recent"]] == list(range(15, 23)) and shown["since"]["from"] == "recent"


def test_moves_played_for_a_player_are_not_their_own_last_move():
    """A queued move or the referee's for a player who timed out: the player did not see what came before it; a move
    the referee entered on the player's word (no reason) is theirs."""
    log = entries(["bob"] + ["ann"] * 10 + ["bob"] + ["ann"] * 10)
    log[11]["reason"] = "queued"
    assert since_own_move(doc("bob", log), log)["recent"][0]["number"] == 1
    log[11] = {**log[11], "by": "referee", "reason": "timeout"}
    assert since_own_move(doc("bob", log), log)["recent"][0]["number"] == 1
    assert since_own_move(doc("cid", log), log)["since"] == {"from": "start", "left_out": 0}
    log[11] = {**log[11], "by": "referee"}
    del log[11]["reason"]
    assert since_own_move(doc("bob", log), log)["recent"][0]["number"] == 12
