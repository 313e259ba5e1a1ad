"""The games of a league read from disk: a league file, the game directories of a games root, and each finished
game's record for pbem.clock.league.

What a game counts for is its public status as the referee published it (public.yaml, checked against its schema
as every command reads it): its final ranking, ties and resigned seats as the engine decided them. Who held each
seat is the correspondence's record: the address the referee's secrets give the seat (referee/secrets.yaml,
the holder at the end when a seat was handed on) and, in a game repository, the key pbem-git.yaml gives it. A
seat with neither (a game played by files alone) is known by its seat name, qualified by nothing: `alice` in two
such games is one person. When a game ended is when its public status was last written (its modification time,
read without following a link); a repository cloned afresh has them all at once, and then the game's id orders
them. Nothing is written anywhere.
"""
from __future__ import annotations

import datetime
import os
import re
import stat

from ..contract import PbemError
from ..engine import engine
from ..messages import lazy
from ..store import validation, yamlio
from ..store.gamedir import BOT_HOLDER, PUBLIC, SECRETS, load_secrets, read_status, reading
from ..store.safefiles import read, read_bounded
from ..text.botwords import entry_level
from . import league

GAME_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
GIT_CONFIG = "pbem-git.yaml"
MOST_LEAGUE_BYTES = 1024 * 1024


def league_file(path) -> dict:
    """A league file, read and checked against schemas/league/league.schema.json (every error with its path)."""
    where = str(path)
    doc = yamlio.loads(read_bounded(path, MOST_LEAGUE_BYTES), where)
    validation.check_kept("league", "league/league.schema.json", doc, where)
    if len(set(doc["games"])) != len(doc["games"]):
        raise PbemError(f"{where}: a game is listed twice")
    return doc


def game_dirs(root, listed: list[str] | None = None) -> tuple[list[str], list[tuple]]:
    """(the game directories under ROOT, or ROOT itself when it is one; those `listed` when a league file names
    them, [(name, why not read)] for what looked like a game and cannot be one: a link, a bad name, a listed
    game that is not there. Hidden folders and plain folders without game.yaml are not games and not noted."""
    root = str(root)
    if listed is None and os.path.isfile(os.path.join(root, "game.yaml")) and not os.path.islink(root):
        return [root], []
    if not os.path.isdir(root):
        raise PbemError(f"{root}: neither a game directory nor a games root")
    names = listed if listed is not None else sorted(n for n in os.listdir(root) if not n.startswith("."))
    found, notes = [], []
    for name in names:
        path = os.path.join(root, name)
        if os.path.islink(path):
            notes.append((name, lazy("a link, not a game directory")))
        elif not os.path.isdir(path) or not os.path.lexists(os.path.join(path, "game.yaml")):
            if listed is not None:
                notes.append((name, lazy("no game directory of that name")))
        elif not GAME_ID.fullmatch(name):
            notes.append((name, lazy("not a game's name")))
        else:
            found.append(path)
    return found, notes


def ended_at(gd) -> str:
    """When the game's public status was last written (UTC, ISO 8601), read inside the game's lock."""
    info = os.stat(PUBLIC, dir_fd=gd.root, follow_symlinks=False)
    if not stat.S_ISREG(info.st_mode):
        raise PbemError(f"{gd.where(PUBLIC)}: is not a regular file")
    moment = datetime.datetime.fromtimestamp(int(info.st_mtime), datetime.timezone.utc)
    return moment.isoformat()


def identities(gd) -> dict[str, list[str]]:
    """Each seat's identities: its address (the referee's secrets), its key (a game repository's pbem-git.yaml),
    else its seat name; a seat the referee's bot holds at the end is that bot, `bot:LEVEL` (one entrant a level,
    never a person: README.md, "A league")."""
    found: dict[str, list[str]] = {name: [] for name in gd.players}
    bots = set()
    if gd.has(SECRETS):
        roster = load_secrets(gd)["players"]
        for entry in roster:
            if entry.get("email"):
                found[entry["name"]].append("mail:" + entry["email"].lower())
            elif entry.get("holder") == BOT_HOLDER:
                bots.add(entry["name"])
        bots |= seated_before_holders(gd, roster)
    if gd.has(GIT_CONFIG):
        config = yamlio.loads(read(gd.dir, GIT_CONFIG, yamlio.MAX_BYTES, root=gd.root), gd.where(GIT_CONFIG))
        _check_git_config(config, gd.where(GIT_CONFIG))
        for entry in config["players"]:
            if entry["name"] in found and entry.get("key"):
                found[entry["name"]].append("key:" + entry["key"])
            elif entry["name"] in found and entry["view"] == "bot":
                bots.add(entry["name"])
    levels = bot_levels(gd, sorted(bots)) if bots else {}
    return {name: [f"{league.BOT}{levels[name]}"] if name in levels else ids or [f"seat:{name}"]
            for name, ids in found.items()}


def seated_before_holders(gd, roster: list[dict]) -> set[str]:
    """The bot seats of a game an earlier pbem made with `pbem new --bot` before such a seat's entry in secrets.yaml
    said `holder: bot`: a seat with neither an address nor a holder that the referee's state gives its bot. Read
    so, never written back: the files stay as that pbem wrote them."""
    silent = [entry["name"] for entry in roster if not entry.get("email") and "holder" not in entry]
    if not silent:
        return set()
    bots = engine.load_state(gd).get("bots") or {}
    return {name for name in silent if name in bots}


def bot_levels(gd, seats: list[str]) -> dict[str, str]:
    """The level each of these bot seats plays at: the referee's state says (its `bots`); a repository's clone,
    without it, has the level the seat's last move was made at in the public log."""
    if gd.has_referee():
        bots = engine.load_state(gd).get("bots") or {}
        return {seat: bots[seat] for seat in seats if seat in bots}
    levels = {}
    for entry in engine.read_log(gd)["entries"] or []:
        if entry["player"] in seats and entry["by"] == "bot":
            levels[entry["player"]] = entry_level(entry)
    return levels


def _check_git_config(config, where: str) -> None:
    checks = validation.kept_checks("league-git", {"config.schema.json": "git/config.schema.json"})
    if not checks["config.schema.json"](config):
        raise PbemError(f"{where} does not match pbem-git.schema.json")


def read_game(directory) -> dict:
    """A finished game's record (pbem.clock.league); a game not finished, unreadable or not what its files claim
    is refused (PbemError) with the reason."""
    gd = engine.open_game(directory)
    with reading(gd):
        doc = read_status(gd, None)
        if not doc["finished"]:
            raise PbemError(lazy("not finished"))
        if doc["id"] != gd.id or doc["game"] != gd.meta["game"]:
            raise PbemError(f"{gd.where(PUBLIC)} describes another game than game.yaml")
        seats_of = identities(gd)
        ended = ended_at(gd)
    rows = doc["ranking"]
    if sorted(row["player"] for row in rows) != sorted(gd.players):
        raise PbemError(f"{gd.where(PUBLIC)}: its ranking does not rank the game's players")
    record = {"id": gd.id, "game": gd.meta["game"], "title": doc["title"], "ended": ended,
              "seats": [{"name": row["player"], "rank": row["rank"],
                         "resigned": (row.get("details") or {}).get("resigned") == "yes",
                         "ids": seats_of[row["player"]]} for row in rows]}
    league.check_record(record)
    return record


def read_games(root, listed: list[str] | None = None) -> tuple[list[dict], list[tuple]]:
    """(the records of the finished games under ROOT, or of those listed; [(game, why it was skipped)]: why as a
    Message its reader reads in their language, or the English of a refusal that has none)."""
    directories, notes = game_dirs(root, listed)
    records, more = read_directories(directories)
    return records, sorted(notes + more, key=lambda note: note[0])


def read_directories(directories: list) -> tuple[list[dict], list[tuple]]:
    """(the records of these game directories' finished games, [(game, why it was skipped)])."""
    records, notes = [], []
    for directory in directories:
        try:
            records.append(read_game(directory))
        except PbemError as exc:
            notes.append((os.path.basename(directory), exc.message or str(exc).splitlines()[0][:200]))
        except (OSError, RecursionError, ValueError) as exc:  # a hostile directory: one line, never a traceback
            notes.append((os.path.basename(directory), lazy("cannot be read ({error})", error=type(exc).__name__)))
    return records, notes
