"""Test helpers shared by every folder: the games with rules, the CLI runner, file snapshots, a scripted rng."""
from __future__ import annotations

import copy
import importlib
import importlib.util
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem import bots, notation
from pbem.cli.commands import cli
from pbem.engine import engine
from pbem.rng import Rng
from pbem.store import registry, validation, yamlio

# `pbem moves` may send a player 40 lines at most: the header, one line a legal-move entry, and `resign`.
MOST_ENTRIES = 40 - 2

NAMES = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"]
SHORT_NAMES = ["ann", "bob", "cid", "dee", "eve", "fay"]  # the seats of the Chartered and La Fièvre de l'Or tables


class RuleTable:
    """A game in memory for rule tests, the one table every game's rule tests use: a state from the game's own
    setup (which a test then edits into the smallest position a rule needs), moves (text or dict) checked against
    legal_moves exactly as the engine checks them and applied to a copy of the state, as the player to act.

    A game's table (a thin subclass in its test folder) names its game, its seats and how chance is decided:
    seeded (setup from Rng(seed), each move a fresh Rng) or `scripted` (a ScriptedRng: shuffles keep the
    components' order and dice come from the test, so a position needs no seed); the last move's rng stays in
    `last_rng`."""

    game_id = ""
    seats = NAMES  # the players' names, in seat order
    players = 2  # how many seats a new game has unless the test says
    scripted = False
    fill_options = True  # False: a game without options is a game made before there were any (no defaults filled)

    def __init__(self):
        self.game = registry.get(self.game_id)
        self.rules = self.game.rules
        self.number = 0
        self.last_rng = None

    # ------------------------------------------------------------ a state built for the test

    def components(self) -> dict:
        return self.game.default_components()

    def new(self, players=None, options=None, components=None, seed="test") -> dict:
        """A fresh game from the game's setup: `players` is a number of seats or the names themselves."""
        players = self.players if players is None else players
        names = list(self.seats[:players]) if isinstance(players, int) else list(players)
        options = self.game.resolve_options(options or {}, fill=self.fill_options)
        setup_rng = ScriptedRng() if self.scripted else Rng(seed, "t", 0)
        return self.rules.setup(names, options, components or self.components(), setup_rng)

    def rng(self, dice=()):
        """The rng of one move: scripted (rolling the test's dice), or a fresh seeded one."""
        if self.scripted:
            return ScriptedRng(dice)
        assert not dice, "a seeded table rolls its own dice"
        self.number += 1
        return Rng("test", "t", self.number)

    # ------------------------------------------------------------ reading a position

    def to_act(self, state) -> str:
        return self.rules.pending(state)["player"]

    def decision(self, state) -> tuple[str, str] | None:
        """(player to act, decision name), or None once the game is over."""
        pending = self.rules.pending(state)
        return (pending["player"], pending["decision"]) if pending else None

    def legal(self, state, player=None) -> list[dict]:
        return self.rules.legal_moves(state, player or self.to_act(state))

    def legal_texts(self, state, player=None) -> list[str]:
        """The legal moves as `pbem moves` lists them."""
        return [self.game.format_move(m) for m in self.legal(state, player)]

    def is_legal(self, state, text, player=None) -> bool:
        return notation.is_legal(self.game.parse_move(text), self.legal(state, player))

    def first(self, state) -> dict:
        """The first legal move of the player to act, as a bot playing first legal moves picks it."""
        return bots.first_legal(self.legal(state))

    def view(self, state, player) -> dict:
        return self.rules.view(state, player)

    # ------------------------------------------------------------ playing

    def play(self, state, move, player=None, *, dice=(), rng=None) -> dict:
        """Apply one move of `player` (default: the one to act); refuse it if that player is not to act or the move
        is not legal. `dice` are the rolls the move makes (a scripted table), all of which it must use."""
        player = player or self.to_act(state)
        assert self.to_act(state) == player, self.rules.pending(state)
        if isinstance(move, str):
            move = self.game.parse_move(move)
        legal = self.legal(state, player)
        assert notation.is_legal(move, legal), f"{self.game.format_move(move)} not legal for {player}: " \
                                               f"{[self.game.format_move(m) for m in legal]}"
        rng = rng or self.rng(dice)
        state = self.rules.apply(copy.deepcopy(state), player, move, rng)
        assert not getattr(rng, "dice", None), f"dice left unused: {rng.dice}"
        self.last_rng = rng
        return state

    def turn(self, state, line) -> dict:
        """A whole turn written on one line, `;` between moves, as a player submits it."""
        for text in notation.split_turn(line):
            state = self.play(state, text)
        return state


def table_fixture(table_class, name: str = "t"):
    """The fixture giving each test a fresh table of a game (`t = table_fixture(Table)` in the game's conftest)."""
    return pytest.fixture(name=name)(lambda: table_class())


def load_helpers(name: str, folder) -> None:
    """A test folder's helpers module (`mailkit.py`, `gitkit.py`), importable by its name from the test files,
    without putting the folder on sys.path (where its conftest.py would shadow tests/conftest.py)."""
    if name in sys.modules:
        return
    spec = importlib.util.spec_from_file_location(name, Path(folder) / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)



def playable_games() -> list[registry.Game]:
    """Every installed game, its rules and report loaded: a game whose modules do not import fails the suite
    (here, at collection) instead of leaving it."""
    games = registry.all_games()
    for game in games:
        assert game.rules and game.report
    return games


def pbem_own_games() -> list[registry.Game]:
    """The games of pbem's own distribution (the packages under pbem.games): those with example games in examples/;
    a game installed from a package of its own (examples/plugin-game) keeps its examples with it."""
    return [game for game in playable_games() if game.module.startswith("pbem.games.")]


def default_game() -> registry.Game:
    """The game the engine's tests play when any game will do (they were written against it: some of them, like a
    chain of forced moves after the first turn, need a game whose first decisions show nothing new)."""
    return registry.get("coal-baron")


def legal_turn(directory) -> tuple[str, str, int]:
    """(player to act, a legal move in text notation, move number), read straight from the referee's state."""
    gd = engine.open_game(directory)
    env = engine.load_state(gd)
    player = gd.game.rules.pending(env["state"])["player"]
    move = bots.first_legal(gd.game.rules.legal_moves(env["state"], player))
    return player, gd.game.format_move(move), env["move_number"]


def game_counts() -> list[tuple[str, int]]:
    return [(g.id, n) for g in playable_games() for n in range(g.min_players, g.max_players + 1)]


def edge_counts() -> list:
    """Each game at its smallest and largest table; the tables between are `slow` (pytest -m slow): for the costly
    whole games."""
    return [pytest.param(g.id, n, marks=() if n in (g.min_players, g.max_players) else pytest.mark.slow)
            for g in playable_games() for n in range(g.min_players, g.max_players + 1)]


def seeds(default: int, slow: int) -> list:
    """Seeds 0..default-1 for the default run, and up to `slow` in all for `pytest -m slow`."""
    return [pytest.param(n, marks=() if n < default else pytest.mark.slow) for n in range(max(default, slow))]


class Pbem:
    """Runs the CLI in-process through click's CliRunner, the way the console script does (exit codes included)."""

    def __init__(self):
        self.runner = CliRunner()

    def __call__(self, *args, input=None):
        result = self.runner.invoke(cli, [str(a) for a in args], input=input, standalone_mode=False,
                                    catch_exceptions=True)
        code = _code_of(result)
        err = result.stderr if hasattr(result, "stderr") else ""
        if code and result.exception is not None and not isinstance(result.exception, SystemExit):
            shown = result.exception.render() if hasattr(result.exception, "render") else result.exception
            err += f"pbem: {shown}\n"  # what the console script prints for it (pbem.cli.commands.main)
        return Result(code, result.stdout, err)


def _code_of(result) -> int:
    # Run the real main() error mapping on whatever the command raised.
    if result.exception is None:
        return 0
    return _map(result.exception)


def _map(exc) -> int:
    from click.exceptions import Exit
    from pbem.contract import PbemError
    import click
    if isinstance(exc, PbemError):
        return exc.exit_code
    if isinstance(exc, Exit):
        return exc.exit_code
    if isinstance(exc, click.ClickException):
        return 1
    if isinstance(exc, SystemExit):
        return exc.code or 0
    raise exc


class Result:
    def __init__(self, code, out, err):
        self.code, self.out, self.err = code, out, err

    def json(self):
        return json.loads(self.out)


def processes(which) -> list[int]:
    """The live processes (zombies aside) whose /proc stat fields after the name (state, ppid, pgrp, ...) satisfy
    `which`."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rpartition(")")[2].split()
            if entry.isdigit() and fields[0] != "Z" and which(fields):
                found.append(int(entry))
        except (OSError, ValueError, IndexError):
            continue  # gone meanwhile, or not a process
    return found


def workers_of(pid: int) -> list[int]:
    """The processes `pid` started (the workers of `--workers N`)."""
    return processes(lambda fields: fields[1] == str(pid))


def group_ended(pgid: int, wait: float = 10.0) -> bool:
    """Whether every process of the group `pgid` has ended (within `wait` seconds: a killed process takes a moment
    to go)."""
    import time
    deadline = time.monotonic() + wait
    while processes(lambda fields: fields[2] == str(pgid)):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def run_pbem(*args, input: bytes | None = None, timeout: float = 120, env=None) -> subprocess.CompletedProcess:
    """The installed console script in a real subprocess."""
    exe = Path(sys.executable).with_name("pbem")
    return subprocess.run([str(exe), *map(str, args)], input=input, capture_output=True, timeout=timeout,
                          env={**os.environ, **(env or {})})


# ------------------------------------------------------------------------------ distributions, fresh installs

def run_ok(*args, cwd=None, env=None) -> str:
    """A command that must succeed (its output and errors shown when it does not); its standard output."""
    done = subprocess.run([str(a) for a in args], capture_output=True, text=True, cwd=cwd, timeout=300,
                          env={**os.environ, **(env or {})})
    assert done.returncode == 0, f"{' '.join(map(str, args))}\n{done.stdout}\n{done.stderr}"
    return done.stdout


def build_distributions(source: Path, out: Path, scratch: Path, *kinds: str) -> None:
    """`python -m build` of the project in `source` into `out` (kinds: "--wheel", "--sdist"; none: both), from a
    copy in `scratch`: the build writes *.egg-info and build/ into its source folder, and under pytest-xdist two
    workers may build at once. --no-isolation: the test extra installs build and setuptools, so no network."""
    import shutil
    copy_of = scratch / source.name
    shutil.copytree(source, copy_of, ignore=shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info",
                                                                   "__pycache__", ".pytest_cache"))
    run_ok(sys.executable, "-m", "build", "--no-isolation", *kinds, "--outdir", out, copy_of)


def fresh_install(where: Path, *artefacts: Path) -> Path:
    """A new virtual environment with only `artefacts` and their dependencies installed; returns its bin/."""
    venv = where / "venv"
    run_ok(sys.executable, "-m", "venv", "--without-pip", venv)
    # The dependencies come from this environment's wheels cache or the package index, pbem only from artefacts.
    pip_install(venv / "bin", *artefacts)
    return venv / "bin"


def pip_install(bin_dir: Path, *artefacts: Path) -> None:
    run_ok(sys.executable, "-m", "pip", "--python", bin_dir / "python", "install", "-q", *artefacts)


def snapshot(directory: Path) -> dict[str, bytes]:
    """Every file of a game directory with its bytes (the lock file aside), to prove nothing changed."""
    return {str(p.relative_to(directory)): p.read_bytes() for p in sorted(directory.rglob("*"))
            if p.is_file() and p.name != ".lock"}


def random_decisions(game: registry.Game, players: list[str], options: dict, seed: str):
    """Each decision of a game played by random bots: (state, pending decision, legal moves), till the end."""
    from pbem.play import playout
    state = playout.start(game, players, options, seed=seed)
    for _, _, state in playout.steps(game, state, seed=seed, bot_seed=seed):
        decision = game.rules.pending(state)
        if decision is not None:
            yield state, decision, game.rules.legal_moves(state, decision["player"])


def assert_fits(game_id: str, part: str, data, thorough: bool = False) -> None:
    """`data` fits the game's schema `part` ("state", "public-view", "player-view", "components") by pbem's compiled
    check (fast enough for every position of a play-out); `thorough`: jsonschema, the reference implementation
    (some thirty times slower), must agree. A failure lists jsonschema's violations with their paths."""
    name = validation.game_name(part)
    fits = validation.is_valid(game_id, name, data)
    if fits and not thorough:
        return
    errors = validation.errors(game_id, name, data)
    assert fits == (errors == []), f"the compiled check and jsonschema disagree on a {part}: {errors[:5]}"
    assert fits, errors[:5]


WORD = re.compile(r"[\w$]+")


def words(data) -> set[str]:
    """Every word and number of a view, a picture's text or any text (what the leak checks compare)."""
    found: set[str] = set()
    _add_words(data, found)
    return found


def _add_words(data, found: set[str]) -> None:
    """Into one set: the leak checks walk whole states, and a set made and merged for every key and value cost
    them more than the walk."""
    if isinstance(data, dict):
        for key, value in data.items():
            _add_words(key, found)
            _add_words(value, found)
    elif isinstance(data, list):
        for value in data:
            _add_words(value, found)
    elif data is not None:
        found.update(WORD.findall(str(data).lower()))


def described_actions(game: registry.Game, players: list[str], options: dict, seed: str) -> set:
    """Check that every legal move of a random game has a description (from the mover's view), in every language
    whole: never cut to pbem.tables.DESCRIBED display columns (French runs longest); return the actions seen."""
    from pbem.tables import DESCRIBED, width
    from pbem.text import language
    seen = set()
    for state, decision, legal in random_decisions(game, players, options, seed):
        view = game.rules.view(state, decision["player"])
        for code in ("en", "fr", "zh-Hant"):
            with language.reading(code):
                for entry in legal:
                    text = game.report.describe(view, entry)
                    assert text and width(text) <= DESCRIBED and not text.endswith(" …"), \
                        (code, game.format_move(entry), text)
                    seen.add(entry["action"])
    return seen


class ScriptedRng:
    """Like pbem.rng.Rng, but shuffles keep the order, choices take the first item, a number is the lowest allowed
    and dice come from the test (a rule test builds the position it needs without a seed)."""

    def __init__(self, dice=()):
        self.dice = [list(pair) for pair in dice]
        self.outcomes = []

    def _record(self, what, result, public):
        self.outcomes.append({"what": what, "result": result, "public": public})
        return result

    def shuffle(self, items, what, public=False):
        return self._record(what, list(items), public)

    def choice(self, items, what, public=False):
        return self._record(what, items[0], public)

    def randint(self, low, high, what, public=True):
        return self._record(what, low, public)

    def roll(self, dice=2, sides=6, what="dice", public=True):
        assert self.dice, f"the test gave no dice for {what!r}"
        return self._record(what, self.dice.pop(0), public)


def replay_archive(game: registry.Game, path: Path) -> tuple[dict, dict, list[dict]]:
    """An archived game (seed, players, options, moves as `player: text`) replayed from its seed, each move checked
    against legal_moves as the engine checks it: the archive, the final state and the public chance outcomes
    ({move, what, result}). A rule change that alters an archived game fails the test that replays it."""
    archive = yamlio.loads(path.read_bytes(), path.name)
    assert game.plays(archive["rules_version"])
    seed, game_id = archive["seed"], archive["game_id"]
    state = game.rules.setup(archive["players"], archive["options"], game.default_components(), Rng(seed, game_id, 0))
    public = []
    for number, line in enumerate(archive["moves"], start=1):
        player, text = line.split(": ", 1)
        assert game.rules.pending(state)["player"] == player, f"move {number}: {line}"
        move = game.parse_move(text)
        assert notation.is_legal(move, game.rules.legal_moves(state, player)), f"move {number}: {line}"
        rng = Rng(seed, game_id, number)
        state = game.rules.apply(copy.deepcopy(state), player, move, rng)
        public += [{"move": number, "what": o["what"], "result": o["result"]} for o in rng.outcomes if o["public"]]
    return archive, state, public


class QueueTable:
    """A position in memory played the way the referee plays it (pbem.play.turns), queues and standing orders
    included: `send` is a player's submission, `queue` one sent without a move. Each returns the new position and
    the log entries it made; `record` is a player's queue record, `shown` what their view shows of it."""

    def __init__(self, game_id: str):
        self.game = registry.get(game_id)

    def env(self, state, seed: str = "queues") -> dict:
        return {"move_number": 1, "seed": seed, "players": list(state["players"]), "resigned": [],
                "forced_moves": "referee", "state": state}

    def _after(self, env, state, entries, records) -> tuple[dict, list[dict]]:
        number = entries[-1]["number"] + 1 if entries else env["move_number"]
        return {**env, "state": state, "move_number": number, "queues": records}, entries

    def send(self, env, player: str, text: str) -> tuple[dict, list[dict]]:
        from pbem.play import submission
        turn = submission.Turn(player, notation.split_turn(text))
        state, entries, records = submission.play_submission(self.game, "t", copy.deepcopy(env), turn, False)
        return self._after(env, state, entries, records)

    def queue(self, env, player: str, text: str) -> tuple[dict, list[dict]]:
        from pbem.play import submission
        state, entries, records = submission.queue_submission(self.game, "t", copy.deepcopy(env), player,
                                                              notation.split_turn(text))
        return self._after(env, state, entries, records)

    def to_act(self, env):
        pending = self.game.rules.pending(env["state"])
        return pending and (pending["player"], pending["decision"])

    def record(self, env, player: str) -> dict | None:
        return (env.get("queues") or {}).get(player)

    def shown(self, env, player: str) -> dict | None:
        from pbem.play import queues
        return queues.shown(self.record(env, player))

    @staticmethod
    def played(entries: list[dict]) -> list[tuple]:
        """(player, moves, reason) of each entry: what a test compares."""
        return [(entry["player"], entry["moves"], entry.get("reason")) for entry in entries]


def reach_decision(game, options, players, decision, seed="resigned", limit=400):
    """A game played by first legal moves up to a decision of this kind: (state, the mover, legal moves, view)."""
    import copy
    from pbem import bots
    from pbem.play import playout
    from pbem.rng import Rng
    state = playout.start(game, players, options, seed=seed, game_id=seed)
    for number in range(1, limit):
        pending = game.rules.pending(state)
        legal = game.rules.legal_moves(state, pending["player"])
        if pending["decision"] == decision:
            return state, pending["player"], legal, game.rules.view(state, pending["player"])
        move = game.normalise(bots.first_legal(legal))
        state = game.rules.apply(copy.deepcopy(state), pending["player"], move, Rng(seed, seed, number))
    raise AssertionError(f"no {decision} decision within {limit} moves")


# ------------------------------------------------ what happened since my last move (tests/*/test_*_since_*)

STRETCH = 17  # the others' moves between two of the viewer's in the case found


def play_one(gd, player: str, rnd: random.Random, busy: bool) -> None:
    """One move of `player`: busy, a random one, the end of a mining turn or a pass only when nothing else is
    legal (so a turn is many moves long); else the first legal move (the modest one: end the turn, pass)."""
    env = engine.load_state(gd)
    legal = gd.game.rules.legal_moves(env["state"], player)
    move = bots.instantiate(rnd.choice([move for move in legal if move["action"] not in ("end", "pass")] or legal)
                            if busy else bots.first_legal(legal), rnd)
    assert engine.submit(gd, player, [gd.game.format_move(move)], by="referee")  # (entered on the player's word)


def others_play_long(gd, viewer: str) -> int:
    """Play until the others made at least STRETCH moves since the viewer's last one and the viewer is to act (the
    others' turns long, the viewer's short): the move number of the viewer's last move."""
    rnd = random.Random(3)
    last, since = None, 0
    for _ in range(400):
        player = engine.status(gd)["to_act"]
        if player == viewer and last is not None and since >= STRETCH:
            return last
        if player == viewer:
            last, since = engine.status(gd)["move_number"], 0
        else:
            since += 1
        play_one(gd, player, rnd, busy=player != viewer)
    raise AssertionError(f"the others never made {STRETCH} moves in a row")
