"""The documents the referee writes for a position: the public status and each player's view, the logs and
their entries, the state with its checksum and cache. Built from data only (no file is read here); each text is
checked against its schema before it is written.
"""
from __future__ import annotations

import json

from .. import digests, notation
from ..play.turns import ADMIN_WORDS, ending, to_act
from ..store import registry, validation, yamlio
from ..store.gamedir import (PRIVATE, PUBLIC, PUBLIC_MODE, STATE, STATE_CACHE, STATE_DIGEST, STATUS_DIGESTS, GameDir,
                             schema_line, view_file)

RECENT = 8  # the last public log entries kept in the state and shown in every status
SINCE_MOST = 40  # the most entries a player's own report shows since their last move (the log holds every one)
ENTRY_FIELDS = ("number", "answers", "player", "by", "moves", "chance", "reason")  # an entry of `recent`


def public_entry(game: registry.Game, entry: dict) -> dict:
    """The log entry every player may read: hidden choices masked, private chance outcomes left out."""
    public = {"number": entry["number"], "player": entry["player"], "by": entry["by"],
              "moves": [text if text in ADMIN_WORDS else notation.public_text(game.templates, game.parse_move(text))
                        for text in entry["moves"]],
              "chance": [outcome for outcome in entry["chance"] if outcome["public"]]}
    if "answers" in entry:  # the move number its signature names (seats were handed on since)
        public["answers"] = entry["answers"]
    if "reason" in entry:
        public["reason"] = entry["reason"]
    return public


def since_own_move(doc: dict, entries: list[dict]) -> dict:
    """A player's status document (`doc`, of a game going on) whose `recent` entries are the moves since the last
    turn its player sent (or the referee entered on their word: an entry with no `reason`), from the public log's
    `entries`: that turn and everything after it (a move played for them, by a queue, a timeout or as the only
    legal one, is not theirs to have seen what came before), at least the last RECENT, at most the last
    SINCE_MOST; `since` says from where (`own move`; `start` when they have not sent one; `recent` when the last
    RECENT reach further back) and how many the bound left out. A public document, or a finished game's, is
    returned as it was."""
    if "player" not in doc or doc["finished"]:
        return doc
    entries = [entry for entry in entries if entry["number"] < doc["move_number"]]
    own = [index for index, entry in enumerate(entries) if entry["player"] == doc["player"] and "reason" not in entry]
    since = own[-1] if own else 0
    start = min(since, max(len(entries) - RECENT, 0))
    shown = entries[start:]
    recent = [{key: entry[key] for key in ENTRY_FIELDS if key in entry} for entry in shown[-SINCE_MOST:]]
    begins = "recent" if start < since else "own move" if own else "start"
    return {**doc, "recent": recent, "since": {"from": begins, "left_out": max(len(shown) - SINCE_MOST, 0)}}


def decision_of(game: registry.Game, env: dict) -> dict | None:
    """The decision waiting in the position of envelope `env` (its state and recent entries), with its description;
    None once the game is over (by its rules, or ended by the referee)."""
    pending = to_act(game, env)
    if pending is None:
        return None
    return {"player": pending["player"], "decision": pending["decision"],
            "description": game.meta.get("decisions", {}).get(pending["decision"], pending["decision"])}


def in_stored_words(expected: dict, stored) -> dict:
    """A status document the replay gives (`expected`) worded as the stored one (`stored`, as read) where it words
    the same decision: its description is what a pbem tells its readers, from the game's meta.yaml, and a later
    pbem may word it otherwise; the record is who must act and which decision (and the position, the moves, the
    seed and the state), so verify takes the description as stored and checks the rest. A stored document
    waiting on another decision, or not a document, changes nothing."""
    decision, told = expected.get("decision"), stored.get("decision") if isinstance(stored, dict) else None
    if decision and isinstance(told, dict) and isinstance(told.get("description"), str) \
            and (told.get("player"), told.get("decision")) == (decision["player"], decision["decision"]):
        return {**expected, "decision": {**decision, "description": told["description"]}}
    return expected


def status_doc(gd: GameDir, env: dict, viewer: str | None, recent: list[dict], decision: dict | None,
                ranking: list[dict] | None) -> dict:
    game, state = gd.game, env["state"]
    doc = {"format": "pbem-player/1" if viewer else "pbem-public/1", "id": gd.id, "game": game.id,
           "rules_version": gd.meta["rules_version"], "title": game.title}  # (the game's: maybe an earlier one)
    if viewer:
        doc["player"] = viewer
    doc.update({"move_number": env["move_number"], "to_act": decision["player"] if decision else None,
                "decision": decision})
    if decision is not None and env.get("clock"):
        from ..text.times import public  # (imported only by a game with deadlines)
        doc["clock"] = public(env["clock"])
    if decision is not None and env.get("takeback"):  # asked in the log: everyone sees it until it is answered
        doc["takeback"] = dict(env["takeback"])
    doc.update({"finished": decision is None, "seed_commitment": gd.meta["seed_commitment"]})
    if decision is None:
        end = ending(env)
        if end is not None:  # the referee ended it (every seat resigned): why, for everyone who reads the status
            doc["ended"] = end["reason"]
        doc["ranking"] = ranking
        doc["seed"] = env["seed"]
    doc["recent"] = recent
    doc["view"] = game.rules.view(state, viewer)
    if viewer and decision is not None:  # a queue is its player's alone (the public schema has no place for it)
        from ..play.queues import shown
        queue = shown((env.get("queues") or {}).get(viewer))
        if queue is not None:
            doc["queue"] = queue
    return doc


RULINGS = 2  # the version of the referee's own rulings a new game is played under (the README's "The referee's
# rulings"; game.yaml `rulings`): from 2, the last to resign ranks first among those who resigned


def rulings(meta: dict) -> int:
    """The version of the referee's rulings a game is played under (game.yaml; 1 for games made before)."""
    return meta.get("rulings", 1)


def final_ranking(result: list[dict], resigned: list[str], rulings: int = 1) -> list[dict]:
    """The game's ranking, with players who resigned moved below everyone who played on. Ranks are renumbered
    over those who played on (their order and their ties as the game ranked them), then the resigned players take
    the ranks after them, one each: the last to resign first, who stayed in the game longest (`rulings` 2), or, in
    the games made before that ruling (1), in the order they resigned."""
    played_on = [row for row in result if row["player"] not in resigned]
    stayed = sorted((dict(row, rank=1 + sum(1 for other in played_on if other["rank"] < row["rank"]))
                     for row in played_on), key=lambda r: r["rank"])
    order = resigned[::-1] if rulings >= 2 else resigned
    left = sorted((dict(row) for row in result if row["player"] in resigned), key=lambda r: order.index(r["player"]))
    for row in left:
        row["rank"] = len(stayed) + 1 + order.index(row["player"])
        row["details"] = {**row.get("details", {}), "resigned": "yes"}
    return stayed + left


def yaml_text(relative: str, schema: str, data: dict, game_type: str, source: str) -> str:
    """Validate before writing: a file pbem writes always matches its schema."""
    validation.check(game_type, schema, data, source)
    return yamlio.dumps(data, schema_line(relative, schema))


def log_header(gd: GameDir, visibility: str, setup_chance: list, game_file: dict | None = None) -> dict:
    """A log's header. `game_file`: game.yaml as the referee wrote it when the game was made (every log of a game
    made by this pbem carries it, so that verify can tell any change of game.yaml, public copies too)."""
    header = {"format": "pbem-log/1", "id": gd.id, "game": gd.meta["game"], "rules_version": gd.meta["rules_version"],
              "visibility": visibility}
    if game_file is not None:
        header["game_file"] = game_file
    return {**header, "setup_chance": setup_chance, "entries": None}


def log_text(gd: GameDir, relative: str, header: dict) -> str:
    return yaml_text(relative, "log.schema.json", header, gd.meta["game"], f"{gd.id} {relative}")


def append_entry(gd: GameDir, old_text: str, entry: dict) -> str:
    """Logs are appended as text (the old entries are not parsed again), so a move costs the same at move 300.
    The new entry is validated on its own, inside a log holding only it."""
    validation.check(gd.meta["game"], "log.schema.json", {**log_header(gd, "referee", []), "entries": [entry]},
                     f"{gd.id} log entry {entry['number']}")
    return opened_log(old_text) + entry_text(entry)


def opened_log(text: str) -> str:
    """A log's text ready for entries to be appended: a log of no entry yet says `entries: null`."""
    if text.endswith("entries: null\n"):
        return text[: -len("null\n")].rstrip(" ") + "\n"
    return text


def entry_text(entry: dict) -> str:
    """The text a log entry adds to its log."""
    return yamlio.dumps([entry])


def status_docs(gd: GameDir, env: dict, recent: list[dict]) -> dict[str, dict]:
    """The public status and each player's view of a state envelope, by the file each goes into."""
    decision = decision_of(gd.game, env)  # the same for every document: computed once
    ranking = None if decision else final_ranking(gd.game.rules.result(env["state"]), env.get("resigned", []),
                                                  rulings(gd.meta))
    docs = {PUBLIC: status_doc(gd, env, None, recent, decision, ranking)}
    for player in gd.players:
        docs[view_file(player)] = status_doc(gd, env, player, recent, decision, ranking)
    return docs


def status_files(gd: GameDir, env: dict, recent: list[dict], docs: dict[str, dict] | None = None
                  ) -> dict[str, tuple[str, int]]:
    """The status files' texts (of `docs`, from _status_docs), each checked against its schema."""
    docs = status_docs(gd, env, recent) if docs is None else docs
    files = {PUBLIC: (yaml_text(PUBLIC, "public.schema.json", docs[PUBLIC], gd.meta["game"], f"{gd.id} public status"),
                      PUBLIC_MODE)}
    for player in gd.players:
        relative = view_file(player)
        files[relative] = (yaml_text(relative, "player.schema.json", docs[relative], gd.meta["game"],
                                 f"{gd.id} view of {player}"), PRIVATE)
    return files


def with_status_digests(status: dict[str, tuple[str, int]]) -> dict[str, tuple[str, int]]:
    """The status files and, in the referee's folder, their digests (`sha256sum` lines): `status` then shows a
    stored file only when it is the one the referee wrote, without reading the state."""
    lines = "".join(f"{digests.sha256(text.encode()).hexdigest()}  {relative}\n"
                    for relative, (text, _) in status.items())
    return {**status, STATUS_DIGESTS: (lines, PRIVATE)}


def state_files(gd: GameDir, env: dict) -> dict[str, tuple[str, int]]:
    """The state, the SHA-256 of its text (an edit by hand is then caught on every read) and its JSON copy (read
    instead of the YAML when it gives exactly that text), written together."""
    text = yaml_text(STATE, "referee-state.schema.json", env, gd.meta["game"], f"{gd.id} state")
    return {STATE: (text, PRIVATE), STATE_DIGEST: (digests.sha256(text.encode()).hexdigest() + "\n", PRIVATE),
            STATE_CACHE: (json.dumps(env, ensure_ascii=False, separators=(",", ":")) + "\n", PRIVATE)}



def public_log(gd: GameDir, full: dict, finished: bool) -> dict:
    """The public log that goes with the referee's log: hidden choices masked and private chance outcomes left
    out while the game goes on; the whole log once it is over."""
    setup = full["setup_chance"] if finished else [outcome for outcome in full["setup_chance"] if outcome["public"]]
    entries = full["entries"] if finished else [public_entry(gd.game, entry) for entry in full["entries"] or []]
    return {**log_header(gd, "public", setup, full.get("game_file")), "entries": entries or None}



def json_text(data) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def text_digests(texts: dict[str, str]) -> dict[str, str]:
    return {relative: digests.sha256(text.encode()).hexdigest() for relative, text in texts.items()}



def differences(a, b, path="$", found=None, limit=10, against="the replay") -> list[str]:
    """Where the stored `b` differs from `a` (what `against` gives), as JSON paths with both values."""
    found = [] if found is None else found
    if len(found) >= limit:
        return found
    if isinstance(a, dict) and isinstance(b, dict):
        for key in list(a) + [k for k in b if k not in a]:
            if key not in a or key not in b:
                found.append(f"{path}.{key}: " + (f"missing ({against} has it)" if key in a else f"not in {against}"))
            else:
                differences(a[key], b[key], f"{path}.{key}", found, limit, against)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for index, (x, y) in enumerate(zip(a, b)):
            differences(x, y, f"{path}[{index}]", found, limit, against)
    elif a != b or type(a) is not type(b):
        found.append(f"{path}: stored {b!r:.80} but {against} gives {a!r:.80}")
    return found[:limit]

