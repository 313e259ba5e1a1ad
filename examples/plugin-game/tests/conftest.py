"""The game's tests import it from this distribution's folder, installed or not."""
from __future__ import annotations

import sys
from pathlib import Path

HERE = str(Path(__file__).resolve().parents[1])
if HERE not in sys.path:
    sys.path.insert(0, HERE)
