"""The final ranking after resignations: those who played on are ranked among themselves (their order and ties as
the game ranked them), then the resigned players after them, the last to resign first (the referee's rulings 2;
in games made before, rulings 1, in the order they resigned)."""
from __future__ import annotations

from pbem.engine.engine import final_ranking


def rows(*ranked):
    return [{"player": player, "score": score, "rank": rank, "details": {"points": score}}
            for player, score, rank in ranked]


def ranks(ranking):
    return [(row["player"], row["rank"]) for row in ranking]


def test_ranks_are_renumbered_over_the_players_who_played_on():
    # five players; hal, the leader, resigned: nobody may be left without a second place or share fifth with him
    result = rows(("hal", 99, 1), ("kit", 80, 2), ("lou", 61, 3), ("ben", 40, 4), ("eve", 12, 5))
    assert ranks(final_ranking(result, ["hal"])) == [("kit", 1), ("lou", 2), ("ben", 3), ("eve", 4), ("hal", 5)]


def test_ties_among_those_who_played_on_are_kept():
    result = rows(("ann", 30, 1), ("bob", 20, 2), ("cid", 20, 2), ("dee", 10, 4))
    assert ranks(final_ranking(result, ["ann"])) == [("bob", 1), ("cid", 1), ("dee", 3), ("ann", 4)]


def test_resigned_players_rank_last_the_last_to_resign_first():
    result = rows(("ann", 30, 1), ("bob", 20, 2), ("cid", 20, 2), ("dee", 10, 4))
    ranking = final_ranking(result, ["dee", "bob"], rulings=2)
    assert ranks(ranking) == [("ann", 1), ("cid", 2), ("bob", 3), ("dee", 4)]
    assert [row["details"].get("resigned") for row in ranking] == [None, None, "yes", "yes"]


def test_when_every_player_resigned_the_last_to_resign_ranks_first_whatever_the_scores():
    result = rows(("ann", 30, 1), ("bob", 20, 2), ("cid", 20, 2), ("dee", 10, 4))
    ranking = final_ranking(result, ["ann", "cid", "dee", "bob"], rulings=2)
    assert ranks(ranking) == [("bob", 1), ("dee", 2), ("cid", 3), ("ann", 4)]


def test_a_game_made_before_the_ruling_ranks_its_resigned_players_in_the_order_they_resigned():
    result = rows(("ann", 30, 1), ("bob", 20, 2), ("cid", 20, 2), ("dee", 10, 4))
    assert ranks(final_ranking(result, ["dee", "bob"])) == [("ann", 1), ("cid", 2), ("dee", 3), ("bob", 4)]
    assert ranks(final_ranking(result, ["dee", "bob"], rulings=1)) == ranks(final_ranking(result, ["dee", "bob"]))


def test_nobody_resigned_leaves_the_games_ranking_as_it_is():
    result = rows(("ann", 30, 1), ("bob", 30, 1), ("cid", 5, 3))
    assert final_ranking(result, []) == result


def test_the_games_result_is_not_changed():
    result = rows(("hal", 99, 1), ("kit", 80, 2))
    final_ranking(result, ["hal"])
    assert result == rows(("hal", 99, 1), ("kit", 80, 2))
