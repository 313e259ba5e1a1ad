"""The referee's entry points, in one place for the command line and the transports.

The work is done by modules named for their jobs; this one only gathers their public functions:

    pbem.store.gamedir      a game directory: its files, opening it, reading and checking them (with caches), its
                            lock
    pbem.engine.documents   the documents written for a position: status and views, logs, the state's files
    pbem.play.turns         a turn and the moves the referee plays by itself, as pure functions (no files)
    pbem.engine.newgame     `pbem new`
    pbem.engine.reader      `status`, `moves`, `log`
    pbem.engine.writer      a turn submitted, a resignation, any other change committed under the lock
    pbem.engine.verify      the replay from the seed, and every file compared with it
    pbem.engine.session     the Session that plays turns in memory under the lock (`pbem demo`)

It knows no game by name; everything game-specific comes through the registry and the contract (pbem.contract).
Creating, verifying and the demo load when first asked for (`pbem move` does not pay for them).
"""
from __future__ import annotations

import importlib

from ..contract import PbemError, UsageError
from ..play.turns import (END, REPLACE, RESIGN, TAKEBACK_AGREE, TAKEBACK_DECLINE, TAKEBACK_GRANTED, TAKEBACK_REFUSED,
                          TAKEBACK_REQUEST, TAKEBACK_WORDS, TIMEOUT_REASONS, MoveAt, ending, is_end, is_resign,
                          number_answered, play_turn, referee_move, referee_turns, timeout_choice, timeout_move, to_act)
from ..store.gamedir import (COMPONENTS, FULL_LOG, GAME, ID_PATTERN, LOG, NAME_PATTERN, PUBLIC, SECRETS, STATE,
                             STATE_CACHE, STATE_DIGEST, STATUS_DIGESTS, TXN_KEY, GameDir, check_player,
                             components_reader, layout, load_secrets, load_state, open_game, roster, settle,
                             state_edited, view_file)
from .documents import RECENT, final_ranking, public_entry, public_log, since_own_move
from .reader import language_of, legal, read_log, status, status_with_notes, with_moves_since
from .requests import Request
from .writer import commit, resign, set_queue, submit, writing

__all__ = [
    "PbemError", "UsageError", "RECENT", "final_ranking", "public_entry", "public_log", "since_own_move",
    "COMPONENTS", "FULL_LOG", "GAME", "ID_PATTERN", "LOG", "NAME_PATTERN", "PUBLIC", "SECRETS", "STATE",
    "STATE_CACHE", "STATE_DIGEST", "STATUS_DIGESTS", "TXN_KEY", "GameDir", "check_player", "components_reader",
    "layout", "load_secrets", "load_state", "open_game", "roster", "settle", "state_edited", "view_file",
    "language_of", "legal", "read_log", "status", "status_with_notes", "with_moves_since", "Request", "END",
    "REPLACE", "RESIGN", "TAKEBACK_AGREE",
    "TAKEBACK_DECLINE", "TAKEBACK_GRANTED", "TAKEBACK_REFUSED", "TAKEBACK_REQUEST", "TAKEBACK_WORDS", "TIMEOUT_REASONS",
    "MoveAt", "ending", "is_end", "is_resign", "number_answered", "play_turn", "referee_move", "referee_turns",
    "timeout_choice", "timeout_move", "to_act", "commit", "resign", "set_queue", "submit", "writing"]
_LATER = {  # loaded when first used
    **dict.fromkeys(("create", "NewGame", "load_components"), "pbem.engine.newgame"),
    **dict.fromkeys(("verify", "replay", "replay_steps", "published_status"), "pbem.engine.verify"),
    **dict.fromkeys(("Session", "session"), "pbem.engine.session"),
}


def __getattr__(name: str):
    if name in _LATER:
        return getattr(importlib.import_module(_LATER[name]), name)
    raise AttributeError(f"module 'pbem.engine.engine' has no attribute {name!r}")
