"""pbem.engine.parallel: work shared out among worker processes by game, each game's work in one worker, in order;
a worker that fails or is killed is told as stopped."""
from __future__ import annotations

import os
import signal

from pbem.engine import parallel


def test_a_games_work_goes_to_one_worker_in_the_order_it_was_given():
    keys = ["g1", "g2", "g1", "g3", "g1", "g2", "g4", "g3"]
    shares = parallel.partition(keys, 2)
    assert len(shares) == 2 and sorted(i for share in shares for i in share) == list(range(len(keys)))
    for share in shares:
        assert share == sorted(share)
    for key in set(keys):
        assert sum(1 for share in shares if any(keys[i] == key for i in share)) == 1, key


def test_the_shares_are_about_even_and_never_more_than_the_games_or_the_workers():
    shares = parallel.partition([f"g{n}" for n in range(100)], 2)
    assert [len(share) for share in shares] == [50, 50]
    assert [len(share) for share in parallel.partition(["a"] * 6 + ["b", "c", "d"] * 2, 2)] == [6, 6]
    assert parallel.partition(["a", "a"], 8) == [[0, 1]]
    assert parallel.partition([], 4) == []
    assert len(parallel.partition(list("abcdef"), 3)) == 3


def test_workers_report_as_they_go_and_a_failed_or_killed_worker_is_told_stopped():
    def work(share, report):
        for index in share:
            if index == 3:
                raise RuntimeError("disk on fire")
            if index == 5:
                os.kill(os.getpid(), signal.SIGKILL)
            report((index, os.getpid()))
    said = list(parallel.run([[0, 1], [2, 3], [4, 5]], work))
    done = [what for _, what in said if not isinstance(what, parallel.Stopped)]
    stopped = {number: what.text() for number, what in said if isinstance(what, parallel.Stopped)}
    assert sorted(index for index, _ in done) == [0, 1, 2, 4]
    assert len({pid for _, pid in done} | {os.getpid()}) == 4  # three workers, none of them this process
    assert stopped == {1: "its worker stopped: RuntimeError: disk on fire",
                       2: "its worker process was killed (signal 9)"}
    assert parallel.cores() >= 1
