"""`pbem site ROOT OUT/`: a static, read-only web site of a club's games, built from their public files only.

An index of the games (who is to act, until when, or who won), and for each game a page with its picture and the
whole text report, its log, and the picture alone as `board.svg`. Plain HTML and SVG, no script, no remote
resource: any static host (or a git hosting's Pages) serves it as it is. Nothing of a game is read but its
`game.yaml`, `public.yaml` and `log.yaml` (never a player's view), each checked against its schema as every command
reads it; a game that cannot be read is listed as such and the others are written. The league page (league.html:
the standings and ratings of the finished games, pbem.clock.league) also asks each finished game who held its
seats, by address (the referee's secrets.yaml) or key (pbem-git.yaml), so that a player is one person across
games; it shows seat names only, never an address.

A run writes only what changed since the last (pbem.cli.sitecache): the pages of the games whose public files
changed (or whose clock lines read otherwise now), and the index when it reads otherwise. A game unchanged costs
the reading and hashing of its three public files.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

from ..contract import PbemError
from ..engine import engine
from ..messages import Words, _, joined, pgettext
from ..store.gamedir import GAME, LOG, PUBLIC, TALK, read_status, reading
from ..text import language, pictures, times
from ..text.language import DEFAULT, when
from ..text.botwords import player_cell, reason_text
from ..text.report import chance_line, game_text
from . import sitecache

GAME_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
LEAGUE_PAGE = "league.html"


def game_dirs(root: Path) -> list[Path]:
    """The game directories of a games root (or ROOT itself, when it is one), links and hidden folders aside."""
    if (root / engine.GAME).is_file():
        return [root]
    if not root.is_dir():
        raise PbemError(f"{root}: neither a game directory nor a games root")
    return sorted(p for p in root.iterdir() if not p.name.startswith(".") and not p.is_symlink() and p.is_dir()
                  and (p / engine.GAME).is_file() and GAME_ID.fullmatch(p.name))


class Published:
    """One game as the site shows it: what the index says of it (`summary`, read from its status), the digest of
    what it was made from (`key`), its clock lines (`said`) and its files' records (sitecache)."""

    __slots__ = ("key", "summary", "said", "files")

    def __init__(self, key: str, summary: dict, said: list[str], files: dict[str, dict]):
        self.key, self.summary, self.said, self.files = key, summary, said, files

    def record(self) -> dict:
        return {"key": self.key, "summary": self.summary, "said": self.said, "files": self.files}


def summary_of(doc: dict, code: str) -> dict:
    """What the index and the time-dependent part of a game's page read of its public status; `code`: the game's
    language, its pages'."""
    return {"id": doc["id"], "game": doc["game"], "title": doc["title"], "language": code,
            "move": doc["move_number"], "finished": doc["finished"],
            "players": [p["name"] for p in doc["view"].get("players", [])],
            "winners": [row["player"] for row in doc.get("ranking") or [] if row["rank"] == 1],
            "to_act": None if doc["finished"] else doc["decision"]["player"],
            "clock": None if doc["finished"] else doc.get("clock")}


def clock_said(summary: dict, now) -> list[str]:
    """The clock lines of the game's report at `now` (the one part of its pages that depends on the time), in the
    game's language."""
    if not summary["clock"]:
        return []
    with language.reading(summary["language"]):
        return times.summary_lines(summary["clock"], summary["to_act"], now)


def entry_of(summary: dict, now) -> dict:
    """One line of the index, in the language being read: the game, where it stands, and what is due."""
    if summary["finished"]:
        # TRANSLATORS: on the site's index, where a finished game stands; {winners}: the players ranked first
        state = _("over, won by {winners}", winners=summary["winners"])
    else:
        state = _("{player} to act", player=summary["to_act"])
    due = times.summary_lines(summary["clock"], summary["to_act"], now) if summary["clock"] else []
    return {"id": summary["id"], "href": f"{summary['id']}/index.html",
            "title": game_text(summary["game"], summary["title"]), "players": joined(summary["players"]),
            "move": summary["move"], "state": state, "due": " ".join(due)}


def log_rows(log: dict, game_type: str) -> list[dict]:
    """The log page's rows, in the language being read: the moves in the reader's words."""
    domain = game_type.replace("-", "_")

    def player(entry: dict) -> str:
        if entry["by"] != "referee":
            return player_cell(entry)
        if entry.get("reason"):
            return _("{player} (referee: {reason})", player=entry["player"], reason=reason_text(entry))
        return _("{player} (referee)", player=entry["player"])
    return [{"number": e["number"], "player": player(e),
             "moves": "; ".join(Words(domain, move).render() for move in e.get("moves") or []),
             "chance": chance_line(domain, e.get("chance") or [])} for e in log["entries"] or []]


def pages_of(doc: dict, log: dict, now, code: str, table_talk: list[dict] = ()) -> dict[str, str]:
    """A game's files, in its language (`code`): its page (picture and report), the picture alone, its log, and its
    table talk (the public talk.yaml) when there is any."""
    game_id = doc["id"]
    with language.reading(code):
        links = [{"href": "log.html", "text": _("log")}, {"href": "board.svg", "text": _("picture alone")}]
        title, back = game_text(doc["game"], doc["title"]), _("← the game")
        pages = {f"{game_id}/board.svg": pictures.svg(doc),
                 f"{game_id}/log.html": pictures.rendered_page(
                     "log.html", title=_("{title} — game {game} — log", title=title, game=game_id),
                     rows=log_rows(log, doc["game"]), back="index.html",
                     words={"back": back, "headings": ["#", _("player"), _("moves"), _("chance")]})}
        if table_talk:
            from ..text import talktext
            links.insert(1, {"href": "talk.html", "text": _("table talk")})
            shown = [{"head": talktext.message_lines({**m, "text": ""})[0], "text": m["text"]} for m in table_talk]
            pages[f"{game_id}/talk.html"] = pictures.rendered_page(
                "talk.html", title=_("{title} — game {game} — table talk", title=title, game=game_id),
                messages=shown, back="index.html", words={"back": back})
        pages[f"{game_id}/index.html"] = pictures.page(doc, now, back="../index.html", links=links)
        return pages


def publish_game(directory: Path, out: Path, cached: dict | None, now, renderers: dict[str, str]
                 ) -> tuple[Published, list[str]]:
    """A game's pages brought up to date: (the game as published, the files written). Its public files are read
    and hashed under the game's shared lock; unless they, the code and the clock lines are as `cached` says and its
    files are still there, its pages are made again and each one that differs is written."""
    gd = engine.open_game(directory)
    kind = gd.meta["game"]
    if kind not in renderers:
        renderers[kind] = sitecache.renderer(gd.game.module)
    with reading(gd):
        raw = [gd.read_bytes(name) for name in (GAME, PUBLIC, LOG)]
        talk_raw = gd.read_bytes(TALK) if gd.has(TALK) else b""
        key = sitecache.digest(renderers[kind].encode(), *raw, talk_raw)
        if cached and cached["key"] == key and _unchanged(directory, out, cached, now):
            return Published(key, cached["summary"], cached["said"], cached["files"]), []
        doc, log = read_status(gd, None, raw[1]), gd.read(LOG, "log.schema.json", raw[2])
        table_talk = gd.read(TALK, "talk.schema.json", talk_raw)["messages"] if talk_raw else []
    summary = summary_of(doc, gd.meta.get("language", DEFAULT))
    files = pages_of(doc, log, now, summary["language"], table_talk)
    records = {relative: sitecache.file_record(text) for relative, text in files.items()}
    old = (cached or {}).get("files", {})
    changed = {relative: text for relative, text in files.items() if old.get(relative) != records[relative]
               or not sitecache.still_there(out, {relative: records[relative]})}
    write_site(out, changed)
    return Published(key, summary, clock_said(summary, now), records), sorted(changed)


def _unchanged(directory: Path, out: Path, cached: dict, now) -> bool:
    """Do the game's pages read at `now` as they did (the same clock lines), and are its files still there?"""
    try:
        same_time = cached["said"] == clock_said(cached["summary"], now)
    except (KeyError, TypeError, ValueError, AttributeError, PbemError):  # another shape of clock: only a cache
        return False
    return same_time and cached["summary"]["id"] == directory.name and sitecache.still_there(out, cached["files"])


def build(root, out, now=None, code: str | None = None) -> dict:
    """Bring the site of every game under ROOT in OUT up to date; {games: [...], unreadable: [(dir, reason)],
    files: every file of the site, written: the files this run wrote}. Each game's pages are in its language; the
    index and the league page in `code`, else in the language of the games when they all have the same, else in
    English."""
    root, out = Path(root), Path(out)
    cache, published, renderers = sitecache.load(out), {}, {}
    summaries, refused, written, finished = [], [], [], []
    for directory in game_dirs(root):
        try:
            game, wrote = publish_game(directory, out, cache["games"].get(directory.name), now, renderers)
        except PbemError as exc:
            refused.append((directory.name, exc))
            continue
        published[directory.name] = game.record()
        summaries.append(game.summary)
        if game.summary["finished"]:
            finished.append(directory)
        written += wrote
    with language.reading(code or common_language(summaries)):
        games = [entry_of(summary, now) for summary in summaries]
        index = pictures.rendered_page(
            "index.html", games=games, unreadable=[(name, exc.render()) for name, exc in refused],
            when=_("As of {moment}.", moment=when(now)) if now else None, league=LEAGUE_PAGE, title=_("Our games"),
            words=index_words())
        pages = {"index": ("index.html", index), "league": (LEAGUE_PAGE, league_page(finished))}
    unreadable = [(name, str(exc)) for name, exc in refused]
    manifest = {"games": published}
    for key, (name, text) in pages.items():
        manifest[key] = sitecache.file_record(text)
        if cache[key] != manifest[key] or not sitecache.still_there(out, {name: manifest[key]}):
            write_site(out, {name: text})
            written.append(name)
    if manifest != cache:
        sitecache.save(out, manifest)
    files = {"index.html", LEAGUE_PAGE, *(name for game in published.values() for name in game["files"])}
    return {"games": games, "unreadable": unreadable, "files": sorted(files), "written": written}


def common_language(summaries: list[dict]) -> str:
    """The language of every game listed, when they have the same; else English."""
    codes = {summary["language"] for summary in summaries}
    return codes.pop() if len(codes) == 1 else DEFAULT


def index_words() -> dict:
    """The index's headings and sentences, in the language being read."""
    return {"league": _("The league: standings and ratings of the finished games"), "none": _("No games yet."),
            "unreadable": _("Games that could not be read"),
            # TRANSLATORS: the headings of the site's table of games
            "headings": [pgettext("site", "game"), _("players"), pgettext("site", "move"), _("where it stands")]}


def league_page(finished: list[Path]) -> str:
    """The league of the finished games the index lists (pbem.clock.league): standings and rating charts. Each
    finished game is read again for it (its ranking, and who held each seat: pbem.clock.leaguegames)."""
    from ..clock import league, leaguegames
    from ..text import league as shown
    records, notes = leaguegames.read_directories(finished)
    return shown.page(league.league(records), notes, None)


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
