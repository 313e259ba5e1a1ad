"""Move files: one turn of one player, as YAML a person can type, signed with the player's secret."""
from __future__ import annotations

from .. import notation
from ..contract import PbemError
from ..store import validation, yamlio
from ..store.safefiles import limit_words, size_words
from . import trust

MAX_BYTES = 64 * 1024
SCHEMA_URL = "schemas/move.schema.json"


def parse(text: str | bytes, source: str = "move file", size: int | None = None) -> dict:
    """A move file checked against its schema. `size`: the whole file's size when `text` was read only in part."""
    size = max(len(text), size or 0)
    if size > MAX_BYTES:
        raise PbemError(f"{source}: too large: {size_words(size)}; a move file is at most "
                        f"{limit_words(MAX_BYTES)}")
    data = yamlio.loads(text, source)
    if not isinstance(data, dict):
        raise PbemError(f"{source}: a move file is a mapping with game, move_number, player, moves and signature")
    validation.check(None, "move.schema.json", data, source)
    return data


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
