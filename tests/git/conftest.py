"""Fixtures of the git tests: a HOME of their own (no machine's git configuration counts) and clubs."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from support import load_helpers

load_helpers("gitkit", Path(__file__).parent)

from gitkit import Club  # noqa: E402


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(items):
    """One xdist worker runs the git tests, so that each kind of club (club_templates) is made once a run, not on
    both workers."""
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.xdist_group("git"))


@pytest.fixture(autouse=True)
def git_home(tmp_path, monkeypatch):
    """Every git command of a test sees only this HOME's configuration: a name, an address, branch main."""
    if shutil.which("git") is None or shutil.which("ssh-keygen") is None:
        pytest.skip("git and ssh-keygen are needed (.ci/system-setup.sh installs them)")
    home = tmp_path / "home"
    home.mkdir()
    for key in [k for k in os.environ if k.startswith("GIT_") or k.startswith("PBEM_")]:
        monkeypatch.delenv(key)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    (home / ".gitconfig").write_text("[user]\n\tname = Club Member\n\temail = member@club.example\n"
                                     "[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n")
    return home


@pytest.fixture(scope="session")
def club_templates(tmp_path_factory):
    """Clubs made once per session and kind; each test gets its own copy."""
    return {"root": tmp_path_factory.mktemp("clubs")}


@pytest.fixture
def club(tmp_path, club_templates):
    """Make a club: club(game_type, players=3, **options of gitkit.Club) — a fresh copy of a club of that kind."""
    made = []

    def make(game_type: str = "coal-baron", players: int = 3, **kwargs) -> Club:
        key = (game_type, players, repr(sorted(kwargs.items())))
        if key not in club_templates:
            root = club_templates["root"] / f"club-{len(club_templates)}"
            root.mkdir()
            club_templates[key] = Club(root, game_type, players, **kwargs)
        made.append(club_templates[key].copy_to(tmp_path / f"club-{len(made)}"))
        return made[-1]
    return make
