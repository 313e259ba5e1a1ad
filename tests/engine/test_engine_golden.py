"""Golden status reports: the text a player reads for each example game, public and private, stays as reviewed.
After an intended change of a report, regenerate with PBEM_UPDATE_GOLDEN=1 and review the diff."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from pbem.engine import engine
from pbem.text import report

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
GOLDEN = Path(__file__).parent / "golden"
CASES = [(d, viewer) for d in sorted(p.parent for p in EXAMPLES.glob("*/*/game.yaml"))
         for viewer in (None, engine.open_game(d).players[0])]


@pytest.mark.parametrize("directory,viewer", CASES,
                         ids=[f"{d.name}-{v or 'public'}" for d, v in CASES])
def test_status_report_matches_its_golden_copy(directory, viewer):
    text = report.status_text(engine.status(engine.open_game(directory), viewer))
    golden = GOLDEN / f"{directory.name}-{viewer or 'public'}.txt"
    if os.environ.get("PBEM_UPDATE_GOLDEN"):
        golden.write_text(text)
    assert golden.exists(), f"no golden copy {golden.name}: run with PBEM_UPDATE_GOLDEN=1 and review it"
    assert text == golden.read_text()
