"""Who sent a move: per-player secrets and HMAC signatures of a move's canonical content.

A signature covers the game id, the move number it answers, the player and the moves (each normalized to its
words in their plain forms: full-width digits and spaces as ASCII ones, pbem.notation.plain), so a signed file
may be published: it proves who sent it and cannot be replayed for another move.
"""
from __future__ import annotations

import json

from .. import digests
from ..contract import PbemError
from ..messages import lazy
from ..notation import tokens_of

PREFIX = "hmac-sha256:"


def new_secret() -> str:
    import secrets  # here only: secrets are made at `new` and when a seat is handed on
    return secrets.token_urlsafe(18)


def canonical(game_id: str, move_number: int, player: str, moves: list[str], queue: bool = False) -> bytes:
    """What a signature covers. A queue sent without a move (`pbem queue`) says so, so that a signed move can
    never be taken for a queue, nor the other way round; a move's content is as it always was."""
    content = {"game": game_id, "move_number": move_number, "player": player,
               "moves": [" ".join(tokens_of(text)) for text in moves]}
    if queue:
        content["queue"] = True
    return json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def sign(secret: str, game_id: str, move_number: int, player: str, moves: list[str], queue: bool = False) -> str:
    return PREFIX + digests.hmac_sha256(secret.encode(), canonical(game_id, move_number, player, moves, queue))


def check_signature(secret: str, signature: str | None, game_id: str, move_number: int, player: str,
                    moves: list[str], queue: bool = False) -> None:
    if not signature:
        raise PbemError(lazy("the move is not signed: sign it with `pbem sign FILE --secret ...` (the secret of "
                             "{player})", player=player))
    expected = sign(secret, game_id, move_number, player, moves, queue)
    if not digests.same(expected, signature):
        # TRANSLATORS: a refused move file; the command and its capital words are typed as they are.
        raise PbemError(lazy("bad signature: this move was not signed with {player}'s secret for game {game}, move "
                             "{number}, with exactly these moves (in the canonical notation: `pbem sign "
                             "--game-type` writes a move in other words so). A move edited after it was signed, or "
                             "signed for another move number, must be signed again: pbem sign FILE --secret-file "
                             "YOUR-SECRET-FILE (your secret is in your welcome).", player=player, game=game_id,
                             number=move_number))


def same_secret(secret: str, given: str) -> bool:
    return digests.same(secret.encode(), given.encode())
