"""The picture tests' helpers (picturekit.py), importable by name."""
from __future__ import annotations

from pathlib import Path

from support import load_helpers

load_helpers("picturekit", Path(__file__).parent)
