"""Write each game's words into the players' guides from the games' glossaries (docs/guide.fr.md, guide.zh-Hant.md):

    python tools/guide_words.py           # rewrite the `pbem-words GAME` blocks of every translated guide

Each guide's game section ends with a folded table of the game's words in the guide's language (a term's name,
then its `also` words) and the notation each reads as. The glossary is the one source of the names: run this after
changing one; tests/i18n/test_i18n_guides.py fails while a guide's table says otherwise.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pbem.store import registry  # noqa: E402
from pbem.tables import width  # noqa: E402
from pbem.text import glossary  # noqa: E402

GAMES = ["coal-baron", "chartered", "gold-fever", "heartland-hauling"]
GUIDES = {"fr": ("guide.fr.md", ", ", "Tous les mots de {title}, et la notation qu'ils donnent"),
          "zh-Hant": ("guide.zh-Hant.md", "、", "{title}的所有詞彙，以及它們對應的記法")}
TABLE = re.compile(r"<details><summary>[^\n]*</summary>\n\n```pbem-words (?P<game>[a-z-]+)\n.*?```\n\n</details>\n",
                   re.DOTALL)


def rows(code: str, game_id: str) -> list[tuple[list[str], str]]:
    """([name, also...], id) of each term of the game's glossary, in its order (an id of two kinds with the same
    words once)."""
    found = []
    for term in glossary.read(registry.get(game_id).package).terms:
        row = ([term.names[code], *term.also[code]], term.id)
        if row not in found:
            found.append(row)
    return found


def table(code: str, game_id: str, title: str) -> str:
    _, separator, summary = GUIDES[code]
    lines = [(separator.join(words), term) for words, term in rows(code, game_id)]
    pad = max(width(left) for left, _ in lines) + 2
    body = "\n".join(f"{left}{' ' * (pad - width(left))}→ {term}" for left, term in lines)
    return f"<details><summary>{summary.format(title=title)}</summary>\n\n```pbem-words {game_id}\n{body}\n```\n\n" \
           f"</details>\n"


def main() -> int:
    for code, (name, _, _) in GUIDES.items():
        path = ROOT / "docs" / name
        text = path.read_text(encoding="utf-8")
        titles = {game: re.findall(r"^### (.+)$", text[:text.index(f"```pbem-moves {game}\n")], re.MULTILINE)[-1]
                  for game in GAMES}
        text = TABLE.sub(lambda found: table(code, found["game"], _title(titles[found["game"]])), text)
        path.write_text(text, encoding="utf-8")
    return 0


def _title(heading: str) -> str:
    """The game's title as the section's heading names it, before a bracketed original title."""
    return re.split(r"[（(]", heading)[0].strip()


if __name__ == "__main__":
    sys.exit(main())
