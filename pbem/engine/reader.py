"""What the read-only commands answer: the status of a game (the public's or a player's), who must act with
the legal moves, the log. Nothing is written, not even a lock file (pbem.store.gamedir.reading)."""
from __future__ import annotations

from .. import digests
from ..contract import PbemError
from ..store import yamlio
from ..store.gamedir import (FULL_LOG, LOG, PUBLIC, STATUS_DIGESTS, GameDir, check_player, load_secrets, load_state,
                             read_status, reading, view_file)
from ..store.safefiles import Missing
from .documents import decision_of, differences, final_ranking, rulings, since_own_move, status_doc


def status(gd: GameDir, viewer: str | None = None) -> dict:
    """The status document of the public (or of `viewer`): from the referee's state where it is here."""
    return status_with_notes(gd, viewer)[0]


def status_with_notes(gd: GameDir, viewer: str | None = None) -> tuple[dict, list[str]]:
    """(the status document, notes). With the referee's files the document is built from the referee's state (so
    a hand-edited public.yaml or view is never shown as the position), and a stored file that differs from it is
    named in a note; without them (a player's copy of the game), the stored file is all there is."""
    if viewer is not None:
        check_player(gd, viewer)
    relative = view_file(viewer) if viewer else PUBLIC
    with reading(gd):
        if not gd.has_referee():
            return read_status(gd, viewer), []
        written = _as_the_referee_wrote(gd, relative)
        if written is not None:
            return read_status(gd, viewer, written), []
        env = load_state(gd)
        decision = decision_of(gd.game, env)
        ranking = None if decision else final_ranking(gd.game.rules.result(env["state"]), env.get("resigned", []),
                                                      rulings(gd.meta))
        doc = status_doc(gd, env, viewer, env["recent"], decision, ranking)
        return doc, _stored_status_notes(gd, relative, doc)


def with_moves_since(gd: GameDir, doc: dict) -> dict:
    """A player's status document with the moves since their own last move (documents.since_own_move), from the
    game's public log; as it was when the copy of the game holds no log (its last RECENT moves, then)."""
    if "player" not in doc or doc["finished"]:
        return doc
    with reading(gd):
        try:
            log = gd.read(LOG, "log.schema.json")
        except Missing:
            return doc
    return since_own_move(doc, log["entries"] or [])


def _as_the_referee_wrote(gd: GameDir, relative: str) -> bytes | None:
    """The stored status file's bytes if they are byte for byte the ones the referee wrote (their digest is in the
    referee's folder), else None; None too when either is missing (a game started before the digests were kept:
    the state decides). The bytes are read once, for this check and for reading the file."""
    try:
        recorded = gd.read_text(STATUS_DIGESTS).splitlines()
        data = gd.read_bytes(relative)
    except Missing:
        return None
    return data if f"{digests.sha256(data).hexdigest()}  {relative}" in recorded else None


def _stored_status_notes(gd: GameDir, relative: str, doc: dict) -> list[str]:
    """A note when the stored status file is not what the referee wrote for its state (edited, missing, broken)."""
    shown = "this report comes from the referee's state (the next move writes the file again)"
    try:
        stored = yamlio.loads(gd.read_bytes(relative), gd.where(relative))
    except Missing:
        return [f"{gd.where(relative)} is missing; {shown}"]
    except PbemError as exc:
        return [f"{exc}; {shown}"]
    found = differences(doc, stored, limit=3, against="the referee's state")
    if not found:
        return []
    return [f"{gd.where(relative)} differs from what the referee wrote ({'; '.join(found)}); {shown}"]


def legal(gd: GameDir, player: str | None = None) -> dict:
    """Who must act and the legal moves of `player` (or of whoever must act): `moves` in text notation, and
    `choices`, each move with what it does, as the game describes it from the view of who asked: `player`'s own
    view, or without a player the public one (so a description shows nothing its reader may not see)."""
    with reading(gd):
        env = load_state(gd)
    game, state = gd.game, env["state"]
    decision = decision_of(game, env)
    who = player or (decision["player"] if decision else None)
    if player is not None:
        check_player(gd, player)
    entries = game.rules.legal_moves(state, who) if who and decision else []
    view = game.rules.view(state, player) if entries else None
    choices = [{"move": game.format_move(entry), "description": game.report.describe(view, entry)}
               for entry in entries]
    return {"game": gd.id, "game_type": game.id, "move_number": env["move_number"],
            "to_act": decision["player"] if decision else None, "decision": decision, "player": who,
            "moves": [choice["move"] for choice in choices], "choices": choices,
            "due": (env.get("clock") or {}).get("due") if decision else None}


def language_of(gd: GameDir, player: str | None = None) -> str:
    """The language `player` reads (their own choice, beside their mail preferences in the referee's secrets), or
    the game's (game.yaml; a game made without one: English). Without the referee's files, the game's."""
    if player is not None and gd.has_referee():
        entry = next((p for p in load_secrets(gd)["players"] if p["name"] == player), {})
        if entry.get("language"):
            return entry["language"]
    return gd.meta.get("language", "en")


def read_log(gd: GameDir, full: bool = False) -> dict:
    with reading(gd):
        return gd.read(FULL_LOG if full else LOG, "log.schema.json")

