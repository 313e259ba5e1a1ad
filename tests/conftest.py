"""Shared fixtures: the CLI runner, game directories made through the CLI, pbem's wheel and sdist."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from pbem import messages
from pbem.store import registry
from support import NAMES, Pbem, build_distributions, default_game

ROOT = Path(__file__).resolve().parents[1]

# A Python the tests start (`python -c`, `python -m pbem.cli`) must import the installed pbem, never the checkout's
# pbem/ folder from the directory it runs in: that folder lacks pbem.games and pbem.schemas, which only an install
# maps in (an editable install hid this; CI installs the project as users do). Python 3.11+ reads this.
os.environ["PYTHONSAFEPATH"] = "1"


def xdist_group_suffix(item) -> str:
    """What --dist loadgroup adds to a test's node id to send its group to one worker (`@git`), or ''."""
    groups = {mark.args[0] if mark.args else mark.kwargs.get("name", "default")
              for mark in item.iter_markers("xdist_group")}
    return "@" + "_".join(sorted(map(str, groups))) if groups else ""


@pytest.hookimpl(trylast=True)  # after xdist's own suffixing, which is kept wherever it took
def pytest_collection_modifyitems(config, items):
    """pytest-xdist 3.8 groups tests by rewriting a node id that pytest 9.2 no longer reads
    (pytest-dev/pytest-xdist#1386): every test went to whichever worker was free, so the costly session fixtures
    of a group (the distributions, the git clubs, the reference tick) were made on both workers. Set again
    here, through pytest's structured node id, wherever xdist's did not take."""
    if not getattr(config.option, "loadgroup", False):
        return
    for item in items:
        suffix = xdist_group_suffix(item)
        if suffix and not item.nodeid.endswith(suffix):
            item._id = type(item._id).parse(item.nodeid + suffix)


@pytest.fixture
def pbem():
    return Pbem()


@pytest.fixture
def new_game(tmp_path, pbem):
    """Create a game of the first playable game type (or the one asked for) and return (dir, secrets)."""
    def make(game_id: str | None = None, players: int | None = None, seed: str = "fixture", name: str = "g1"):
        game = registry.get(game_id) if game_id else default_game()
        count = players or game.min_players
        directory = tmp_path / name
        args = ["new", game.id, directory, "--seed", seed, "--format", "json"]
        for player in NAMES[:count]:
            args += ["--player", player]
        result = pbem(*args)
        assert result.code == 0, result.err
        return directory, {p["name"]: p["secret"] for p in result.json()["players"]}
    return make


@pytest.fixture(autouse=True)
def text_mails(monkeypatch):
    """Mails are plain text in the tests (a picture costs a PNG render a mail); the picture mail tests turn
    pictures on again (PBEM_MAIL_PICTURES=1)."""
    monkeypatch.setenv("PBEM_MAIL_PICTURES", "0")


def _not_synced(fd) -> None:
    os.fstat(fd if isinstance(fd, int) else fd.fileno())  # a closed or bad descriptor still fails as fsync fails


@pytest.fixture(scope="session", autouse=True)
def no_fsync():
    """Commands run in-process skip fsync and fdatasync, which cost milliseconds each on a busy disk, tens of
    thousands of times a run: only a machine losing power tells a synced file from one that is not, and no test
    can. The order of pbem's fsyncs is tested by recording the calls (tests/engine/test_engine_files.py); the
    kill tests run real processes, which sync."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(os, "fsync", _not_synced)
        patch.setattr(os, "fdatasync", _not_synced)
        yield


@pytest.fixture(autouse=True)
def english_after_each_test():
    """A command run in-process chooses its reader's language for the process (pbem.text.language.use): the next
    test starts in English again."""
    yield
    messages.use(None)


@pytest.fixture(scope="session")
def pbem_dist(tmp_path_factory):
    """pbem's wheel and sdist, built once per test process from the source checkout (the packaging and plug-in
    tests install them into fresh environments)."""
    if not (ROOT / "pyproject.toml").is_file():
        pytest.skip("needs the source checkout")
    out = tmp_path_factory.mktemp("dist")
    build_distributions(ROOT, out, tmp_path_factory.mktemp("source"))
    return out
