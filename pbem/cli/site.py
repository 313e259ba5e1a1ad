"""`pbem site ROOT OUT/`: a static, read-only web site of a club's games, built from their public files only.

An index of the games (who is to act, until when, or who won), and for each game a page with its picture and the
whole text report, its log, and the picture alone as `board.svg`. Plain HTML and SVG, no script, no remote
resource: any static host (or a git hosting's Pages) serves it as it is. Nothing of a game is read but its
`game.yaml`, `public.yaml` and `log.yaml` (never the referee's folder nor a player's view), each checked against
its schema as every command reads it; a game that cannot be read is listed as such and the others are written.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

from ..contract import PbemError
from ..engine import engine
from ..store.gamedir import read_status, reading
from ..text import pictures, times

GAME_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")


def game_dirs(root: Path) -> list[Path]:
    """The game directories of a games root (or ROOT itself, when it is one), links and hidden folders aside."""
    if (root / engine.GAME).is_file():
        return [root]
    if not root.is_dir():
        raise PbemError(f"{root}: neither a game directory nor a games root")
    return sorted(p for p in root.iterdir() if not p.name.startswith(".") and not p.is_symlink() and p.is_dir()
                  and (p / engine.GAME).is_file() and GAME_ID.fullmatch(p.name))


def public_files(directory: Path) -> tuple[dict, dict]:
    """(the public status document, the public log) of one game, as its players may read them."""
    gd = engine.open_game(directory)
    with reading(gd):
        doc = read_status(gd, None)
    return doc, engine.read_log(gd)


def entry_of(directory: Path, doc: dict, now) -> dict:
    """One line of the index: the game, where it stands, and what is due."""
    players = ", ".join(p["name"] for p in doc["view"].get("players", []))
    if doc["finished"]:
        winners = [row["player"] for row in doc.get("ranking") or [] if row["rank"] == 1]
        state, due = f"over, won by {', '.join(winners)}", ""
    else:
        state = f"{doc['decision']['player']} to act"
        due = " ".join(times.summary_lines(doc["clock"], doc["decision"]["player"], now)) if doc.get("clock") else ""
    return {"id": doc["id"], "href": f"{doc['id']}/index.html", "title": doc["title"], "players": players,
            "move": doc["move_number"], "state": state, "due": due}


def log_rows(log: dict) -> list[dict]:
    return [{"number": e["number"], "player": e["player"], "by": e["by"], "moves": "; ".join(e.get("moves") or []),
             "chance": "; ".join(f"{c['what']}: {c['result']}" for c in e.get("chance") or []),
             "reason": e.get("reason", "")} for e in log["entries"] or []]


def build(root, out, now=None) -> dict:
    """Write the site of every game under ROOT into OUT; {games: [...], unreadable: [(dir, reason)]}."""
    root, out = Path(root), Path(out)
    env = pictures.templates()
    games, unreadable, files = [], [], {}
    for directory in game_dirs(root):
        try:
            doc, log = public_files(directory)
        except PbemError as exc:
            unreadable.append((directory.name, str(exc)))
            continue
        entry = entry_of(directory, doc, now)
        games.append(entry)
        board = pictures.svg(doc)
        files[f"{doc['id']}/board.svg"] = board
        files[f"{doc['id']}/index.html"] = pictures.page(doc, now, back="../index.html",
                                                         links=[{"href": "log.html", "text": "log"},
                                                                {"href": "board.svg", "text": "picture alone"}])
        files[f"{doc['id']}/log.html"] = env.get_template("log.html").render(
            title=f"{doc['title']} — game {doc['id']} — log", rows=log_rows(log), back="index.html")
    files["index.html"] = env.get_template("index.html").render(
        games=games, unreadable=unreadable, when=times.readable(times.iso(now)) if now else None)
    write_site(out, files)
    return {"games": games, "unreadable": unreadable, "files": sorted(files)}


def write_site(out: Path, files: dict[str, str]) -> None:
    """Each file written whole (a temporary file renamed over it); a link where a folder or file of the site goes
    is refused rather than followed."""
    for relative, text in files.items():
        target = out / relative
        for folder in [out, *[out / part for part in Path(relative).parent.parts[:1]]]:
            if folder.is_symlink():
                raise PbemError(f"{folder}: a link, not a folder; the site is not written through links")
            folder.mkdir(parents=True, exist_ok=True)
        temporary = target.with_name(f".{target.name}.tmp")
        if temporary.is_symlink() or temporary.exists():
            temporary.unlink()
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(temporary, target)
