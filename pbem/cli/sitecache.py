"""What `pbem site` wrote last time, so that the next run writes only what changed: OUT/.pbem-site.json.

For each game: a digest of its public files as they were read (game.yaml, public.yaml, log.yaml) and of the code
that draws and words its pages (`renderer`), what the index says of it (`summary`), and each file written for it
with its digest and size. A game whose public files, code and clock lines (the one part of a page that depends on
the time: "in 2 days") are as recorded, and whose files are still there as written, is not read any further nor
written again. The manifest is a cache and no more: the site's folder is the organiser's, and a manifest that is
missing, unreadable, of another shape or another pbem only makes every game be written again; a file it names that
is gone or has another size is written again.
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

MANIFEST = ".pbem-site.json"
VERSION = 1
MOST_BYTES = 64 * 1024 * 1024  # a manifest larger than this is not read (a site of a hundred thousand games fits)


def load(out: Path) -> dict:
    """The manifest: {"games": {directory: record}, "index" and "league": a file's record or None}; empty when there is
    none to believe (a record of the wrong shape is left out: its game is written again)."""
    nothing = {"games": {}, "index": None, "league": None}
    try:
        descriptor = os.open(out / MANIFEST, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return nothing
    try:
        with os.fdopen(descriptor, "rb") as handle:
            data = json.loads(handle.read(MOST_BYTES + 1)[:MOST_BYTES])
    except (OSError, ValueError):
        return nothing
    if not isinstance(data, dict) or data.get("version") != VERSION or not isinstance(data.get("games"), dict):
        return nothing
    return {"games": {game: record for game, record in data["games"].items() if _record(record)},
            "index": data["index"] if _file(data.get("index")) else None,
            "league": data["league"] if _file(data.get("league")) else None}


def _record(record) -> bool:
    if not isinstance(record, dict) or not isinstance(record.get("key"), str):
        return False
    files, said, summary = record.get("files"), record.get("said"), record.get("summary")
    return (isinstance(files, dict) and all(_file(f) for f in files.values()) and isinstance(said, list)
            and all(isinstance(line, str) for line in said) and _summary(summary))


def _summary(summary) -> bool:
    return (isinstance(summary, dict) and isinstance(summary.get("id"), str) and isinstance(summary.get("title"), str)
            and type(summary.get("move")) is int and isinstance(summary.get("finished"), bool)
            and all(isinstance(summary.get(key), list) and all(isinstance(n, str) for n in summary[key])
                    for key in ("players", "winners"))
            and isinstance(summary.get("to_act"), (str, type(None)))
            and isinstance(summary.get("clock"), (dict, type(None))))


def _file(record) -> bool:
    return isinstance(record, dict) and isinstance(record.get("sha256"), str) and type(record.get("size")) is int


def save(out: Path, manifest: dict) -> None:
    """The manifest written whole (a new file renamed over the old one, never through a link)."""
    from .site import write_site
    write_site(out, {MANIFEST: json.dumps({"version": VERSION, **manifest}, sort_keys=True) + "\n"})


def digest(*parts: bytes) -> str:
    hashing = hashlib.sha256()
    for part in parts:
        hashing.update(len(part).to_bytes(8, "big"))
        hashing.update(part)
    return hashing.hexdigest()


def file_record(text: str) -> dict:
    data = text.encode("utf-8")
    return {"sha256": digest(data), "size": len(data)}


def still_there(out: Path, files: dict) -> bool:
    """Is every file recorded still in the site, a plain file of the size written?"""
    for relative, record in files.items():
        try:
            info = os.lstat(out / relative)
        except OSError:
            return False
        if not os.path.isfile(out / relative) or os.path.islink(out / relative) or info.st_size != record["size"]:
            return False
    return True


def renderer(game_package: str) -> str:
    """A digest of the code and templates a game's pages are made with: pbem's words and pictures (pbem.text, its
    catalogues too), this command, and the game's own package (its drawing, its report, its catalogues). Another
    pbem or another version of the game (or of a translation) writes every page of its games again."""
    import importlib.util
    from .. import __version__
    folders = [Path(__file__).resolve().parents[1] / "text"]
    spec = importlib.util.find_spec(game_package)
    if spec is not None and spec.submodule_search_locations:
        folders += [Path(location) for location in spec.submodule_search_locations]
    parts = [__version__.encode(), Path(__file__).with_name("site.py").read_bytes()]
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if path.suffix in (".py", ".yaml", ".html", ".json", ".mo") and "__pycache__" not in path.parts:
                parts += [str(path.relative_to(folder)).encode(), path.read_bytes()]
    return digest(*parts)
