"""Bring every catalogue of this repository up to date, then check them (docs/translating.md):

    python tools/catalogues.py            # extract, update each language, compile; then check
    python tools/catalogues.py --check    # check only (what the suite's catalogue tests check)

Needs the i18n extra (`pip install -e '.[i18n]'`): Babel's extraction and OpenCC. The domains: pbem's own
(pbem/, its catalogues in pbem/text/locale) and each game whose package has a locale/ folder (a game's first
catalogues: `mkdir games/<package>/locale` and run this).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pbem.text import catalogues  # noqa: E402


def domains() -> list[catalogues.Domain]:
    found = [catalogues.Domain("pbem", ROOT / "pbem", ROOT / "pbem" / "text" / "locale",
                               ROOT / "pbem" / "text" / "glossary.yaml")]
    packages = [*sorted((ROOT / "games").iterdir()), ROOT / "examples" / "plugin-game" / "summit_race"]
    found += [catalogues.Domain(folder.name, folder) for folder in packages if (folder / "locale").is_dir()]
    return found


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="Bring every catalogue up to date (extract, update, compile), "
                                                 "then check them.")
    parser.add_argument("--check", action="store_true", help="check only: change no file")
    args = parser.parse_args(argv)  # --help prints this and exits; an unknown argument exits 2, changing nothing
    problems = []
    for domain in domains():
        if not args.check:
            catalogues.update(domain)
        problems += catalogues.check(domain)
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
