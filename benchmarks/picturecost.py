"""What a turn mail's picture costs, measured for bench.py in a process of its own for each game:

    python picturecost.py VIEWS.json

bench.py first plays a whole game of each title at its largest table, greedy bots at every seat (seed `bench`),
and keeps the status document of the player to act (their view, as a turn mail draws it) at positions spread over
the game (`views`, in bench.py's process). This script then, in one process as a mail batch does, draws each
position's mail picture (pbem.text.pictures.mail_picture: the PNG the mail carries) and writes its text report
(pbem.text.report.status_text: what the mail's words cost), each timed by this process's CPU time and by the clock.
Prints one JSON object: the milliseconds of each picture in the order drawn (the first one pays for loading the
fonts and laying out every word for the first time), of each text report, and each PNG's bytes."""
from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

from pbem import bots
from pbem.clock import correspondence
from pbem.engine import engine
from pbem.text import pictures, report

NAMES = ["alice", "bob", "carol", "dave", "erin", "frank"]


def play(game_id: str, count: int, directory: Path, picks: set[int] = frozenset()) -> tuple[list[int], list[dict]]:
    """A whole game, greedy bots at every seat: the move numbers of its decisions, and the status document of the
    player to act (their view, as a turn mail draws it) at each move number of `picks`."""
    correspondence.create(game_id, directory, [(name, None) for name in NAMES[:count]], seed="bench")
    gd, rnd, numbers, docs = engine.open_game(directory), random.Random("bench"), [], []
    with engine.session(gd) as table:
        while (pending := gd.game.rules.pending(table.state)) is not None:
            player = pending["player"]
            if table.move_number in picks:
                table.write()
                docs.append(table.status(player))
            view = gd.game.rules.view(table.state, player)
            move = bots.decide(gd.game, "greedy", view, gd.game.rules.legal_moves(table.state, player), rnd)
            numbers.append(table.move_number)
            table.submit(player, [gd.game.format_move(move)], by="referee")
    return numbers, docs


def views(game_id: str, count: int, wanted: int, root: Path) -> list[dict]:
    """The player to act's status documents at `wanted` positions spread over a whole game (played twice: first
    to count its decisions)."""
    numbers, _ = play(game_id, count, root / "counted")
    picks = {numbers[i * (len(numbers) - 1) // max(1, wanted - 1)] for i in range(wanted)}
    return play(game_id, count, root / "drawn", picks)[1]


def timed(call, *args):
    cpu, wall = time.process_time(), time.perf_counter()
    result = call(*args)
    return (time.process_time() - cpu) * 1000, (time.perf_counter() - wall) * 1000, result


def main(docs: list[dict]) -> dict:
    drawn = [timed(pictures.mail_picture, doc) for doc in docs]
    texts = [timed(report.status_text, doc) for doc in docs]
    return {"picture_cpu_ms": [cpu for cpu, _, _ in drawn], "picture_wall_ms": [wall for _, wall, _ in drawn],
            "text_cpu_ms": [cpu for cpu, _, _ in texts], "bytes": [len(png) for _, _, (png, _) in drawn]}


if __name__ == "__main__":
    print(json.dumps(main(json.loads(Path(sys.argv[1]).read_text()))))
