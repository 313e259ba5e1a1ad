"""The bots benchmark's results accumulate (benchmarks/bots.py --results DIR): each game of a line is written as it
ends, a run plays only the games its line's file lacks for the same versions of the bots, and the report comes
from the files, so a run stopped half way and run again gives the report of one run that was never stopped."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from pbem.play import search
from pbem.store import registry

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "bots.py"
LINE = ["--game", "coal-baron", "--players", "2", "--line", "greedy vs random"]  # a game costs milliseconds


class Killed(Exception):
    """The run stopped mid-line, as by a kill."""


@pytest.fixture
def bots():
    spec = importlib.util.spec_from_file_location("bots_benchmark", BENCHMARK)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def counting(bots, monkeypatch, stop_after: int | None = None) -> list[str]:
    """Count the games the benchmark plays (their seeds); stop the run (as a kill would) before game
    `stop_after` + 1."""
    seeds, play = [], bots.play

    def counted(game, players, options, seed, *rest, **named):
        if stop_after is not None and len(seeds) == stop_after:
            raise Killed
        seeds.append(seed)
        return play(game, players, options, seed, *rest, **named)
    monkeypatch.setattr(bots, "play", counted)
    return seeds


def records(directory: Path) -> list[dict]:
    """The records of every file, without the CPU each game took (the one thing a machine changes)."""
    found = [json.loads(text) for path in sorted(directory.iterdir()) for text in path.read_text().splitlines()]
    return [{key: value for key, value in record.items() if key not in ("cpu", "search_cpu")} for record in found]


def test_a_resumed_run_plays_only_the_missing_games_and_reports_as_one_uninterrupted_run(bots, tmp_path,
                                                                                            monkeypatch, capsys):
    whole, resumed = tmp_path / "whole", tmp_path / "resumed"
    bots.main([*LINE, "--games", "5", "--results", str(whole)])
    uninterrupted = capsys.readouterr().out
    counting(bots, monkeypatch, stop_after=2)
    with pytest.raises(Killed):
        bots.main([*LINE, "--games", "5", "--results", str(resumed)])
    capsys.readouterr()
    assert len(records(resumed)) == 2  # each game written as it ended
    monkeypatch.undo()
    seeds = counting(bots, monkeypatch)
    bots.main([*LINE, "--games", "5", "--results", str(resumed)])
    assert seeds == [f"win-greedy-random-2-{n}" for n in (2, 3, 4)]
    assert capsys.readouterr().out == uninterrupted
    assert records(resumed) == records(whole)
    assert "2 players: greedy vs random" in uninterrupted and "of 5 games" not in uninterrupted  # all 5 counted


def test_a_line_short_of_its_games_says_how_many_it_has_and_meets_no_target_yet(bots, tmp_path, capsys):
    bots.main([*LINE, "--games", "2", "--results", str(tmp_path)])
    capsys.readouterr()
    assert bots.main([*LINE, "--games", "5", "--results", str(tmp_path), "--report-only"]) == 1
    out = capsys.readouterr().out
    assert "(2 of 5 games)" in out and "so far" in out and "ok" not in out.split("coal-baron")[1]
    assert len(records(tmp_path)) == 2  # the report played nothing


def test_games_played_by_another_version_of_a_bot_are_played_again(bots, tmp_path, monkeypatch, capsys):
    bots.main([*LINE, "--games", "3", "--results", str(tmp_path)])
    path = next(tmp_path.iterdir())
    older = [json.loads(text) for text in path.read_text().splitlines()]
    older[1]["versions"]["bot_version"] -= 1
    path.write_text("".join(json.dumps(record) + "\n" for record in older))
    seeds = counting(bots, monkeypatch)
    bots.main([*LINE, "--games", "3", "--results", str(tmp_path)])
    assert seeds == ["win-greedy-random-2-1"]


def test_a_record_cut_short_by_a_kill_is_left_out_and_the_next_starts_on_its_own_line(bots, tmp_path, monkeypatch,
                                                                                        capsys):
    bots.main([*LINE, "--games", "2", "--results", str(tmp_path)])
    path = next(tmp_path.iterdir())
    path.write_text(path.read_text().splitlines()[0] + "\n" + path.read_text().splitlines()[1][:40])
    seeds = counting(bots, monkeypatch)
    bots.main([*LINE, "--games", "2", "--results", str(tmp_path)])
    assert seeds == ["win-greedy-random-2-1"]
    assert len(bots.read_records(path)) == 2


def test_two_processes_share_a_line_one_backwards_and_meet_without_playing_a_game_twice(bots, tmp_path, monkeypatch,
                                                                                       capsys):
    whole, shared = tmp_path / "whole", tmp_path / "shared"
    bots.main([*LINE, "--games", "5", "--results", str(whole)])
    uninterrupted = capsys.readouterr().out
    seeds = counting(bots, monkeypatch, stop_after=2)
    with pytest.raises(Killed):  # the backward process plays the last games first: 4, then 3 (and is stopped)
        bots.main([*LINE, "--games", "5", "--results", str(shared), "--backwards"])
    assert seeds == [f"win-greedy-random-2-{n}" for n in (4, 3)]
    monkeypatch.undo()
    line_file = next(whole.iterdir())
    game_2 = bots.read_records(line_file)[2]
    seeds, play = [], bots.play

    def forward(game, players, options, seed, *rest, **named):
        seeds.append(seed)
        if seed.endswith("-1"):  # meanwhile the backward process ends game 2
            bots.append_record(shared / line_file.name, game_2)
        return play(game, players, options, seed, *rest, **named)
    monkeypatch.setattr(bots, "play", forward)
    capsys.readouterr()
    bots.main([*LINE, "--games", "5", "--results", str(shared)])
    assert seeds == [f"win-greedy-random-2-{n}" for n in (0, 1)]  # game 2 read from the file, not played again
    assert capsys.readouterr().out == uninterrupted
    assert sorted(records(shared), key=lambda record: record["index"]) == records(whole)


def test_backwards_without_a_results_directory_is_a_usage_error(bots, capsys):
    with pytest.raises(SystemExit) as stopped:
        bots.main([*LINE, "--backwards"])
    assert stopped.value.code == 2 and "--results" in capsys.readouterr().err


def test_report_only_without_a_results_directory_is_a_usage_error(bots, capsys):
    with pytest.raises(SystemExit) as stopped:
        bots.main([*LINE, "--report-only"])
    assert stopped.value.code == 2 and "--results" in capsys.readouterr().err


RESULTS = BENCHMARK.parent / "results"
REPLAYED = 3  # the first games of each stored line the `slow` run plays again


def stored_games() -> list:
    """The first REPLAYED games of every line in benchmarks/results, one test case each."""
    cases = []
    for path in sorted(RESULTS.glob("*.jsonl")):
        for number, text in enumerate(path.read_text(encoding="utf-8").splitlines()[:REPLAYED]):
            cases.append(pytest.param(json.loads(text), id=f"{path.stem}-{number}", marks=pytest.mark.slow))
    return cases


@pytest.mark.parametrize("record", stored_games())
def test_a_stored_game_played_again_by_todays_bots_ends_with_the_same_ranking_and_scores(bots, record):
    """A game counts in the release figures only if today's code decides exactly as the code that played it: a
    change that only makes the bots cheaper must leave every stored game as it was (docs/bots.md, "Cost")."""
    game = registry.get(record["title"])
    if bots.versions(game, record["seats"]) != record["versions"]:
        pytest.skip("played by another version of the bots: it no longer counts, and is played again")
    plan = bots.Planned(record["index"], record["seed"], record["options"], record["seats"], record["seat"])
    assert bots.played(game, record["line"], plan)["ranking"] == record["ranking"]


def test_a_games_results_record_its_own_search_version_so_a_new_one_replays_only_its_games(bots):
    chartered = registry.get("chartered")
    changed = registry.Game(chartered.id, chartered.module,
                            {**chartered.meta, "search": {**chartered.meta["search"], "version": search.VERSION + 1}})
    seats = {"alice": "search:16", "bob": "greedy"}
    assert bots.versions(changed, seats)["search_version"] == search.VERSION + 1
    assert bots.versions(registry.get("gold-fever"), seats)["search_version"] == search.VERSION
    assert bots.versions(changed, {"alice": "greedy", "bob": "random"})["search_version"] is None


def test_tuning_probes_play_other_seeds_than_the_release_figures(bots):
    game = registry.get("coal-baron")
    release = [plan.seed for plan in bots.win_games(game, 3, 4, "search", "greedy")]
    probe = [plan.seed for plan in bots.win_games(game, 3, 4, "search", "greedy", seeds="tune")]
    assert release == [f"win-search-greedy-3-{n}" for n in range(4)]
    assert probe == [f"tune-search-greedy-3-{n}" for n in range(4)]
    assert bots.arguments(["--seeds", "tune"]).seeds == "tune" and bots.arguments([]).seeds == "win"
