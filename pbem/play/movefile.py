"""Move files: one turn of one player, as YAML a person can type, signed with the player's secret."""
from __future__ import annotations

from .. import notation
from ..contract import PbemError
from ..messages import lazy
from ..store import validation, yamlio
from ..store.safefiles import limit_words, size_words
from . import trust

MAX_BYTES = 64 * 1024
SCHEMA_URL = "schemas/move.schema.json"


def parse(text: str | bytes, source: str = "move file", size: int | None = None, game_type: str | None = None
          ) -> dict:
    """A move file checked against its schema. `size`: the whole file's size when `text` was read only in part;
    `game_type`: the game it is sent to, whose compiled checks (pbem.store.validation) hold the move schema too (it
    stands alone), so that a move loads one set of checks, not two."""
    size = max(len(text), size or 0)
    if size > MAX_BYTES:
        raise PbemError(lazy("{source}: too large: {size}; a move file is at most {limit}", source=source,
                             size=size_words(size), limit=limit_words(MAX_BYTES)))
    try:
        data = yamlio.loads(text, source)
    except yamlio.NotYaml as exc:
        # TRANSLATORS: {error}: what the YAML reader said is wrong; the YAML in backquotes is typed as it is.
        raise PbemError(lazy("{error}. A move file's steps are lines `  - STEP` under `moves:`, each on its own line "
                             "and lined up with the others; a step with ': ' or ' #' in it goes in quotes: "
                             "- 'standing bid: pass'.", error=exc.message or str(exc))) from None
    if not isinstance(data, dict):
        raise PbemError(lazy("{source}: a move file is a mapping with game, move_number, player, moves and "
                             "signature", source=source))
    steps_as_typed(text.decode("utf-8") if isinstance(text, bytes) else text, data, source)
    validation.check(game_type, "move.schema.json", data, source)
    return data


def steps_as_typed(text: str, data: dict, source: str) -> None:
    """Refuse, before anything is signed, the two ways YAML reads a typed step other than as typed: `- standing bid:
    pass` (a key and its value) and a line under a step that does not start with `- ` (YAML folds it into the step
    above: `place mining-10 end`)."""
    lines = text.split("\n")
    for item in data.get("moves") or [] if isinstance(data.get("moves"), list) else []:
        if isinstance(item, dict) and item:
            key, value = next(iter(item.items()))
            number = next((i for i, line in enumerate(lines, 1) if line.lstrip().startswith(f"- {key}:")), "?")
            raise PbemError(lazy("{source}: line {number}: `- {key}: {value}` reads as a key and its value, not a "
                                 "step: a step with ': ' in it goes in quotes: - '{key}: {value}'", source=source,
                                 number=number, key=str(key), value=str(value)))
    start = next((i for i, line in enumerate(lines) if line.startswith("moves:")), None)
    if start is None or lines[start][len("moves:"):].strip():
        return  # no list of steps under the key (or a list on its line: [a, b])
    above = None
    for number, line in enumerate(lines[start + 1:], start + 2):
        words = "" if line.lstrip().startswith("#") else line.split(" #", 1)[0].strip()  # (a comment is no step)
        if words and not line[0].isspace() and not words.startswith("-"):
            return  # the next key: the steps are over
        if words.startswith("-"):
            above = number
        elif words and above is not None:
            raise PbemError(lazy("{source}: line {number} (`{line}`) is folded into the step on line {above} above "
                                 "it, as one step: start each step on its own line with '- ', lined up with the "
                                 "others.", source=source, number=number, line=line.strip(), above=above))


def build(game_id: str, move_number: int, player: str, moves: list[str], secret: str | None = None,
          queue: bool = False, game=None) -> dict:
    """A move file (`queue`: a queue sent without a move, for `pbem queue`, whose signature says so). With its
    `game` (pbem.store.registry.Game), moves written in a language's words are written in the canonical notation,
    which is what the referee checks a signature against (pbem.play.words)."""
    doc = {"game": game_id, "move_number": move_number, "player": player, "moves": canonical(moves, game)}
    if secret:
        doc["signature"] = trust.sign(secret, game_id, move_number, player, doc["moves"], queue)
    return doc


def sign(doc: dict, secret: str, queue: bool = False, game=None) -> dict:
    """The move file signed (its moves first written in the canonical notation, with its `game`)."""
    signed = {key: value for key, value in doc.items() if key != "signature"}
    signed["moves"] = canonical(doc["moves"], game) if game is not None else doc["moves"]
    signed["signature"] = trust.sign(secret, doc["game"], doc["move_number"], doc["player"], signed["moves"], queue)
    return signed


def canonical(moves: list[str], game=None) -> list[str]:
    """Each move normalised to its words; with the game, in the canonical notation too."""
    if game is not None:
        from .words import canonical_texts
        moves = canonical_texts(game, moves, [])
    return [" ".join(notation.tokens_of(m)) for m in moves]


def dumps(doc: dict, schema: str = SCHEMA_URL) -> str:
    return yamlio.dumps(doc, schema)
