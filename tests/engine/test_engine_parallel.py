"""pbem.engine.parallel: work shared out among worker processes by game, each game's work in one worker, in order;
a worker that fails or is killed is told as stopped."""
from __future__ import annotations

import gc
import os
import signal
import subprocess
import sys
import time

import pytest

from pbem.engine import parallel


def test_a_games_work_is_one_group_in_the_order_it_was_given():
    keys = ["g1", "g2", "g1", "g3", "g1", "g2", "g4", "g3"]
    groups = parallel.groups(keys)
    assert sorted(i for group in groups for i in group) == list(range(len(keys)))
    assert sorted(groups) == [[0, 2, 4], [1, 5], [3, 7], [6]]


def test_the_largest_groups_come_first_so_the_last_taken_are_small():
    assert parallel.groups(["b", "a", "a", "c", "a", "b"]) == [[1, 2, 4], [0, 5], [3]]
    assert parallel.groups([]) == []


def test_workers_report_as_they_go_and_a_failed_or_killed_worker_is_told_stopped_with_what_it_took():
    def work(indices, report):
        for index in indices:
            if index == 3:
                raise RuntimeError("disk on fire")
            if index == 5:
                os.kill(os.getpid(), signal.SIGKILL)
            report((index, os.getpid()))
    groups = [[0, 1], [2, 3], [4, 5]]
    said = list(parallel.run(groups, 3, work))
    done = [what for _, what in said if not isinstance(what, parallel.Stopped)]
    stopped = sorted((what.text(), what.taken[-2:]) for _, what in said if isinstance(what, parallel.Stopped))
    assert sorted(index for index, _ in done) == [0, 1, 2, 4]
    assert os.getpid() not in {pid for _, pid in done}
    assert stopped == [("its worker process was killed (signal 9)", [4, 5]),  # the last group each took
                       ("its worker stopped: RuntimeError: disk on fire", [2, 3])]
    assert parallel.cores() >= 1


def test_a_workers_garbage_collector_never_walks_what_it_inherited_and_the_runs_sees_it_all_again():
    inherited = [[n] for n in range(1000)]  # objects the collector tracks, made before the fork

    def work(indices, report):
        for index in indices:
            walked = {id(found) for found in gc.get_objects()}
            report((index, gc.get_freeze_count(), any(id(made) in walked for made in inherited)))
    said = [what for _, what in parallel.run([[0], [1]], 2, work)]
    assert len(said) == 2 and all(frozen >= len(inherited) and not seen for _, frozen, seen in said)
    assert gc.get_freeze_count() == 0 and any(found is inherited[0] for found in gc.get_objects())


def test_each_group_is_done_once_by_whichever_worker_is_free_so_a_held_up_worker_takes_no_more(tmp_path):
    free = tmp_path / "the other worker took every group left"

    def work(indices, report):
        for index in indices:
            if index == 0:  # held up until the other worker has taken every other group
                for _ in range(3000):
                    if free.exists():
                        break
                    time.sleep(0.01)
            report((index, os.getpid()))
        if 0 not in seen:
            free.touch()
    seen = []
    said = [what for _, what in parallel.run([[n] for n in range(40)], 2, lambda indices, report: work(
        (seen.append(index) or index for index in indices), report))]
    assert sorted(index for index, _ in said) == list(range(40))
    held_up = next(pid for index, pid in said if index == 0)
    assert [index for index, pid in said if pid == held_up] == [0]


def test_more_groups_than_a_pipe_holds_tickets_for_are_each_done_once():
    said = [what for _, what in parallel.run([[n] for n in range(40_000)], 2,
                                             lambda indices, report: report(list(indices)))]
    assert sorted(index for indices in said for index in indices) == list(range(40_000))


def test_the_run_reads_what_its_workers_said_in_bulk_and_a_workers_end_wakes_it_at_once(monkeypatch):
    """While the workers work, the run is not woken by each report (a wake-up takes a core from a worker): it waits
    PAUSE_MS between two reads and reads all that was said meanwhile; a worker's end wakes it at once. With a pause
    of ten minutes, 600 reports are read in a few wake-ups, and the run ends as soon as its workers do."""
    polls, select_poll = [], parallel.select.poll

    class Counted:
        def __init__(self):
            self.inner = select_poll()
            self.register, self.unregister = self.inner.register, self.inner.unregister

        def poll(self, *timeout):
            polls.append(timeout)
            return self.inner.poll(*timeout)
    monkeypatch.setattr(parallel.select, "poll", Counted)
    monkeypatch.setattr(parallel, "PAUSE_MS", 600_000)
    started = time.monotonic()
    said = [what for _, what in parallel.run([[n] for n in range(600)], 2,
                                             lambda indices, report: [report(index) for index in indices])]
    assert sorted(said) == list(range(600))
    woken = [timeout for timeout in polls if not timeout]  # woken by what was said (a pause has a timeout)
    assert len(woken) <= 10, len(woken)
    assert time.monotonic() - started < 600  # each pause ended by a worker's end, none waited out


WRITES_BEFORE_FORKING = """
import sys
from pbem.engine import parallel
sys.stdout.write("the run's first words, still in its buffer; ")  # stdout is a pipe: block-buffered
said = [what for _, what in parallel.run([[0], [1], [2]], 2, lambda indices, report: [report(i) for i in indices])]
print(f"then {len(said)} reports.")
"""


def test_what_the_run_wrote_before_forking_is_written_once_not_again_by_each_worker(tmp_path):
    buffered = {key: value for key, value in os.environ.items() if key != "PYTHONUNBUFFERED"}
    done = subprocess.run([sys.executable, "-c", WRITES_BEFORE_FORKING], capture_output=True, text=True,
                          cwd=tmp_path, env=buffered, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "the run's first words, still in its buffer; then 3 reports.\n"


def test_a_value_computed_beside_comes_back_from_a_process_of_its_own():
    running = parallel.beside(lambda: {"pid": os.getpid(), "words": ["a"] * 100_000})  # more than a pipe holds
    value = running.result()
    assert value["pid"] != os.getpid() and value["words"] == ["a"] * 100_000
    running.end()  # taken: nothing left to end


def test_a_computation_beside_that_fails_gives_none_and_one_not_taken_is_ended():
    def fails():
        raise RuntimeError("unreadable")
    assert parallel.beside(fails).result() is None  # the caller computes it itself
    slow = parallel.beside(lambda: time.sleep(600))
    started = time.monotonic()
    slow.end()  # not needed any more: ended, and waited for
    assert time.monotonic() - started < 60
    with pytest.raises(ProcessLookupError):
        os.kill(slow.pid, 0)
