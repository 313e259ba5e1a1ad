"""`pbem git verify`: anyone, in any clone, checks the game's whole history.

- the chain: from the newest refereed commit, each names the previous one (trailer Pbem-Previous) back to the
  first commit, and each is in the history of the next. A rewritten history (a move edited or dropped, then the
  branch force-pushed) gives new hashes below the referee's commits, so the recorded names no longer resolve;
  a clone that saw the old history also finds its refereed commits missing from the remote branch;
- between two refereed commits only the referee's files change and move files are only added, each the move of
  the new entry of the public log with its number and player (and every player's entry has its file);
- every position is consistent: the public log only grows, its length and public.yaml's move number agree with
  the commit's trailer;
- signatures: a commit signed with SSH is checked against the player's key registered when the move was judged
  (pbem-git.yaml of the refereed commit that applied it: a seat handed on may get a new key, and nothing else of
  that file ever changes); HMAC move files once the secrets are revealed at the end (or by the referee, with
  --referee-dir);
- once the game is over and its seed revealed (checked against the commitment): every refereed commit's
  public.yaml and log.yaml equal the replay up to that move.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from itertools import accumulate

from ..contract import PbemError
from ..engine import engine
from ..engine.documents import entry_text, opened_log
from ..play.queues import REASONS as QUEUE_REASONS
from ..rng import commitment
from ..store import validation, yamlio
from ..store.gamedir import schema_line
from ..text.phrases import plural
from . import layout
from .judge import canonical_moves
from .player import game_at
from .refereed import chain as refereed_chain
from .refereed import last_refereed, move_of, previous_of
from .repo import NO_SUBMODULE_LOOKUP, Repo
from .signatures import VerifyFailed, check_signatures

RAW_LINE = re.compile(r"^:\d+ (\d+) [0-9a-f]+ ([0-9a-f]+) A\t(.+)$")


def verify(directory, rev: str = "HEAD", referee_root=None) -> dict:
    repo = Repo(directory)
    if not repo.is_repo():
        raise PbemError(f"{directory}: not a git repository")
    tip = repo.resolve(rev)
    if tip is None:
        raise PbemError(f"{directory}: no commit {rev!r}")
    try:
        refereed = last_refereed(repo, tip)
    except PbemError as exc:
        raise VerifyFailed(f"verify failed: {exc}") from None
    config, game_id = refereed.config, refereed.game_id
    chain = _chain(repo, refereed.commit, game_id, refereed.root)
    signed = "the newest signed with the referee's key of the first commit" if refereed.signed else \
        "not signed (a game started by an earlier pbem)"
    checks = [f"chain: {len(chain)} refereed commits, {chain[0]['commit'][:10]} to {chain[-1]['commit'][:10]}, "
              f"each naming the one before, {signed}"]
    if refereed.others:
        others = ", ".join(commit[:10] for commit in refereed.others)
        checks.append(f"first commits: {refereed.root[:10]}, the one the referee's signed chain leads back to; "
                      f"another game's history was merged in ({others}), not the game's")
    if refereed.unrefereed:
        checks.append(f"not refereed yet: {plural(refereed.unrefereed, 'commit')} after {refereed.commit[:10]}"
                      + _unsigned_trailers(repo, refereed))
    gd = _game(repo, chain[-1]["commit"])
    # what each refereed commit changed against the one before, all in one `git diff-tree`
    changes = repo.changes_since([(after["commit"], before["commit"]) for before, after in zip(chain, chain[1:])])
    last_public = _read(repo, chain[-1]["commit"], engine.PUBLIC, "public.schema.json", gd)
    finished = last_public["finished"]
    ongoing = _ongoing(chain, finished)
    logs = _logs(repo, gd, chain, ongoing)
    # once the game is over, each position's public.yaml is compared with the replay's text (and read only when
    # it differs: None here); while it goes on, each is read and checked here, one at a time
    publics = [None] * (len(chain) - 1) + [last_public]
    for index, (link, log) in enumerate(zip(chain, logs)):
        public = publics[index] if finished or index == len(chain) - 1 else \
            _read(repo, link["commit"], engine.PUBLIC, "public.schema.json", gd)
        _check_count(link, log.count, public)
    reference = logs[ongoing - 1] if ongoing else logs[-1]
    for log in logs[:ongoing]:
        if log.doc is not None and (log.doc["entries"] or []) != reference.entries[:log.count]:
            raise VerifyFailed("verify failed: a refereed commit's log.yaml changed entries of an earlier one")
    added = _added_move_files(repo, tip)
    moves = _check_moves(repo, gd, chain, logs, changes, added)
    checks.append(f"moves: {len(moves)} move files, each the move of its log entry, only added")
    configs = _configs(repo, chain, config, changes)
    checks.append(check_signatures(repo, gd, configs, chain, logs, moves, finished, referee_root))
    if finished:
        checks.append(_check_replay(repo, gd, chain, publics, logs))
    else:
        checks.append("replay: not over yet; the positions are checked against the replay once the seed is "
                      "revealed")
    remote = _check_remote(repo, rev, chain)
    if remote:
        checks.append(remote)
    return {"game": game_id, "refereed": len(chain), "moves": len(moves), "finished": finished, "checks": checks,
            "result": "ok"}


def _unsigned_trailers(repo: Repo, refereed) -> str:
    """Commits after the last refereed one that carry the referee's trailers without its signature: a player's
    forgery (noted), or the referee's commits copied by a rewrite of the history below them, whose trailers then
    name commits that are no longer in it (refused)."""
    forged = 0
    for candidate in repo.run("rev-list", "--grep=^Pbem-Game: ", refereed.tip, f"^{refereed.commit}", "--").split():
        commit = repo.commit(candidate)
        if move_of(commit, refereed.game_id) is None:
            continue
        previous = previous_of(commit)
        found = repo.resolve(previous) if previous and previous != "none" else None
        if found is None or not repo.is_ancestor(found, candidate):
            raise VerifyFailed(f"verify failed: the history was rewritten: {candidate[:10]} carries the "
                               f"referee's trailers and names {(previous or '(nothing)')[:10]} as the refereed "
                               f"commit before it, which is not in its history")
        forged += 1
    return (f" ({plural(forged, 'commit')} with the referee's trailers but not its signature: not the "
            f"referee's)") if forged and refereed.signed else ""


def _chain(repo: Repo, newest: str, game_id: str, root: str) -> list[dict]:
    """The refereed commits, oldest first, found by following Pbem-Previous from the newest one."""
    try:
        return [{"commit": commit.id, "move": move_of(commit, game_id)}
                for commit in refereed_chain(repo, newest, game_id, root)]
    except PbemError as exc:
        raise VerifyFailed(f"verify failed: {exc}") from None


def _game(repo: Repo, commit: str) -> engine.GameDir:
    gd = game_at(repo, commit)
    meta = gd.meta
    if not gd.game.plays(meta["rules_version"]):
        raise PbemError(f"{gd.id} was played under {meta['game']} rules version {meta['rules_version']}, this pbem "
                        f"has version {gd.game.rules_version}: verify it with the pbem that played it")
    return gd


def _read(repo: Repo, commit: str, path: str, schema: str, gd: engine.GameDir) -> dict:
    return _load(repo.show(commit, path) or b"", path, commit, gd, schema)


def _load(text: bytes, path: str, commit: str, gd: engine.GameDir, schema: str = "log.schema.json") -> dict:
    data = yamlio.loads(text, f"{path} of {commit[:10]}")
    validation.check(gd.meta["game"], schema, data, f"{path} of {commit[:10]}")
    return data


def _check_count(link: dict, count: int, public: dict | None) -> None:
    """A refereed commit's trailer, its public.yaml (None: compared with the replay later) and its log agree on
    the move number."""
    if (public is not None and public["move_number"] != link["move"]) or count != link["move"] - 1:
        said = f"says {public['move_number']}" if public is not None else "is checked against the replay"
        raise VerifyFailed(f"verify failed: {link['commit'][:10]} says move {link['move']}, its public.yaml {said} "
                           f"and its log has {count} entries")


@dataclass
class Logged:
    """A refereed commit's log.yaml: the first `count` of `entries`, a list its log may share with later ones;
    `doc` is the document when it was read whole (None when its bytes were found to be the reference log's text
    up to that entry: see _logs)."""

    entries: list
    count: int
    doc: dict | None

    def since(self, count: int) -> list[dict]:
        """The entries this log holds beyond the first `count`."""
        return self.entries[count:self.count]


def _ongoing(chain: list[dict], finished: bool) -> int:
    """How many refereed commits were made while the game went on: all of them, or once it is over those before
    its last move (after it, the referee still refuses what is pushed, in commits at that move number, whose log
    is the full log too)."""
    return sum(1 for link in chain if link["move"] < chain[-1]["move"]) if finished else len(chain)


def _logs(repo: Repo, gd: engine.GameDir, chain: list[dict], ongoing: int) -> list[Logged]:
    """Each refereed commit's log.yaml. The newest one and the reference, the newest of the `ongoing` first ones
    (written while the game went on: the others hold the full log), are read whole. The referee only ever
    appends entries to the public log, as text: an earlier log whose bytes are the reference's text up to its own
    last entry is those entries (and so only grew), and is not read again; each commit then costs the same
    however long the history. Any other log is read whole (and must hold the reference's first entries:
    verify), unless it is the very text of the newest."""
    last = len(chain) - 1
    at = ongoing - 1 if ongoing else last
    last_text = repo.show(chain[last]["commit"], engine.LOG) or b""
    newest = _load(last_text, engine.LOG, chain[last]["commit"], gd)
    ref_text = last_text if at == last else repo.show(chain[at]["commit"], engine.LOG) or b""
    reference = newest if at == last else _load(ref_text, engine.LOG, chain[at]["commit"], gd)
    head, ends = _entry_ends(reference, ref_text) or (None, [])
    logs = []
    for index, link in enumerate(chain):
        count = link["move"] - 1
        if index in (at, last):
            doc = reference if index == at else newest
        else:
            text = repo.show(link["commit"], engine.LOG) or b""
            if index < ongoing and 0 <= count < len(ends) and len(text) == ends[count] and \
                    (ref_text.startswith(text) if count else text == head):
                logs.append(Logged(reference["entries"] or [], count, None))
                continue
            doc = newest if text == last_text else _load(text, engine.LOG, link["commit"], gd)
        entries = doc["entries"] or []
        logs.append(Logged(entries, len(entries), doc))
    return logs


def _entry_ends(log: dict, text: bytes) -> tuple[bytes, list[int]] | None:
    """(the text of the log with no entry, [the byte length of its text after each entry: 0 for none]) when
    `text` is the log `log` exactly as the referee writes it (its header, then each entry appended:
    documents.append_entry); None otherwise."""
    head = yamlio.dumps({**log, "entries": None}, schema_line(engine.LOG, "log.schema.json")).encode()
    pieces = [opened_log(head.decode()).encode()] + [entry_text(entry).encode() for entry in log["entries"] or []]
    if (b"".join(pieces) if len(pieces) > 1 else head) != text:
        return None
    ends = list(accumulate(len(piece) for piece in pieces))
    ends[0] = len(head)
    return head, ends


def _added_move_files(repo: Repo, tip: str) -> dict[tuple[str, str], list[str]]:
    """{(path, blob): [commits that added that file]} over the whole history, in one `git log`."""
    out = repo.run("log", NO_SUBMODULE_LOOKUP, "--no-renames", "--no-abbrev", "--diff-filter=A", "--raw",
                   "--format=@%H", tip, "--", layout.MOVES)
    found: dict[tuple[str, str], list[str]] = {}
    commit = None
    for line in out.splitlines():
        if line.startswith("@"):
            commit = line[1:]
        elif (match := RAW_LINE.match(line)) and commit:
            found.setdefault((match.group(3), match.group(2)), []).append(commit)
    return found


def _check_moves(repo: Repo, gd: engine.GameDir, chain: list[dict], logs: list[Logged], changes, added
                 ) -> list[dict]:
    """Between refereed commits (`changes`: what each changed against the one before): only the referee's files
    change, move files are only added, and each added file is the move of a new log entry (every player's entry
    has one)."""
    moves = []
    for before, after, log in zip(chain, chain[1:], logs[1:]):
        new_entries = {engine.number_answered(e): e for e in log.since(before["move"] - 1) if e["by"] == "player"}
        files = {}
        for change in changes.get(after["commit"], []):
            if not change.path.startswith(layout.MOVES + "/"):
                continue
            named = layout.move_name(change.path)
            if change.status != "A" or not named:
                raise VerifyFailed(f"verify failed: the refereed commit {after['commit'][:10]} changes "
                                   f"{change.path}, and move files are only ever added")
            if named.group("setting"):
                continue  # a player's choice of language: no move of the log (the referee judged its signature)
            files[int(named.group("number"))] = (named, change)
        for number, (named, change) in files.items():
            entry = new_entries.get(number)
            if entry is None or entry["player"] != named.group("player"):
                raise VerifyFailed(f"verify failed: {change.path} was added by {after['commit'][:10]} but its log "
                                   f"has no such move of {named.group('player')}")
            doc = None
            if not named.group("age"):
                from ..play import movefile
                doc = movefile.parse(repo.blob(change.blob, change.path), change.path)
                if canonical_moves(gd, doc["moves"]) != entry["moves"] or doc["move_number"] != number:
                    raise VerifyFailed(f"verify failed: {change.path} is not the move log entry {number} shows")
            authors = added.get((change.path, change.blob), [])
            moves.append({"path": change.path, "number": number, "player": named.group("player"), "doc": doc,
                          "commits": authors, "refereed": after["commit"]})
        # a move a player's queue played has no file of its own: it came in an earlier (sealed) move file
        missing = [e["number"] for n, e in new_entries.items() if n not in files
                   and e.get("reason") not in QUEUE_REASONS]
        if missing:
            listed = ("move " if len(missing) == 1 else "moves ") + ", ".join(map(str, missing))
            raise VerifyFailed(f"verify failed: {after['commit'][:10]} applied {listed} with no move file")
    return moves


def _configs(repo: Repo, chain: list[dict], first: dict, changes) -> dict[str, dict]:
    """pbem-git.yaml of each refereed commit. Only the players' keys (and so how their views reach them) may change
    from the first commit's: a seat handed on gets the new holder's key. A commit that did not change the file
    (`changes`: what each changed against the refereed commit before) holds the one before."""
    frozen = {key: value for key, value in first.items() if key != "players"}
    names = [p["name"] for p in first["players"]]
    configs, config = {}, None
    for link in chain:
        if config is not None and all(c.path != layout.CONFIG for c in changes.get(link["commit"], [])):
            configs[link["commit"]] = config
            continue
        config = layout.load("config", repo.show(link["commit"], layout.CONFIG) or b"",
                             f"{layout.CONFIG} of {link['commit'][:10]}")
        if {k: v for k, v in config.items() if k != "players"} != frozen or \
                [p["name"] for p in config["players"]] != names:
            raise VerifyFailed(f"verify failed: {link['commit'][:10]} changes {layout.CONFIG} beyond the players' "
                               f"keys")
        configs[link["commit"]] = config
    return configs


def _check_replay(repo: Repo, gd: engine.GameDir, chain, publics: list[dict | None], logs: list[Logged]) -> str:
    """Every refereed position against the replay from the revealed seed. A log read whole is compared with the
    replay's; the others are the reference log's first entries (_logs), so they are what the replay gives when the
    reference is. A public.yaml not read yet (None in `publics`) whose bytes are the replay's text, as the referee
    writes it, is that; any other is read, checked against its schema and compared."""
    final = publics[-1]
    seed = final["seed"]
    if commitment(seed) != gd.meta["seed_commitment"]:
        raise VerifyFailed("verify failed: the revealed seed does not match the commitment published at the start")
    components_text = repo.show(chain[-1]["commit"], engine.COMPONENTS) or b""
    if hashlib.sha256(components_text).hexdigest() != gd.meta["components_sha256"]:
        raise VerifyFailed("verify failed: components.yaml is not the file the game was set up with")
    components = yamlio.loads(components_text, engine.COMPONENTS)
    full_log = logs[-1].doc
    entries = full_log["entries"] or []
    wanted = {}
    for index, link in enumerate(chain):
        wanted.setdefault(link["move"] - 1, []).append(index)
    checked, shown = 0, []  # shown: the public entries of the entries replayed so far, each masked once
    for count, state, resigned in engine.replay_steps(gd, seed, components, full_log):
        if count:
            shown.append(engine.public_entry(gd.game, entries[count - 1]))
        for index in wanted.get(count, []):
            link = chain[index]
            public = engine.published_status(gd, seed, count, state, resigned, shown)
            if not _same_public(repo, gd, link, publics[index], public):
                raise _not_replayed(engine.PUBLIC, link)
            log = logs[index].doc
            if log is not None and log != engine.public_log(gd, {**full_log, "entries": entries[:count] or None},
                                                            public["finished"]):
                raise _not_replayed(engine.LOG, link)
            checked += 1
    if checked != len(chain):
        raise VerifyFailed("verify failed: the full log does not reach every refereed position")
    return (f"replay: all {checked} refereed positions equal the replay from the revealed seed (it matches its "
            f"commitment)")


def _same_public(repo: Repo, gd: engine.GameDir, link: dict, stored: dict | None, expected: dict) -> bool:
    """Is a refereed commit's public.yaml (`stored`, or None when not read yet) the replay's `expected`? Bytes that
    are the very text the referee writes for it (checked against its schema before it is written) need no
    reading; otherwise it is read and checked, and compared without its deadlines, which are the referee's
    record, not the replay's (engine.verify alike)."""
    if stored is None:
        data = repo.show(link["commit"], engine.PUBLIC) or b""
        if data == yamlio.dumps(expected, schema_line(engine.PUBLIC, "public.schema.json")).encode():
            return True
        stored = _load(data, engine.PUBLIC, link["commit"], gd, "public.schema.json")
        _check_count(link, link["move"] - 1, stored)
    return {key: value for key, value in stored.items() if key != "clock"} == expected


def _not_replayed(path: str, link: dict) -> VerifyFailed:
    return VerifyFailed(f"verify failed: {path} of the refereed commit {link['commit'][:10]} (move {link['move']}) "
                        f"is not what the replay gives")


def _check_remote(repo: Repo, rev: str, chain: list[dict]) -> str | None:
    """A clone that saw refereed commits the remote branch no longer has: the remote's history was rewritten."""
    upstream = repo.run("rev-parse", "--abbrev-ref", "--symbolic-full-name", f"{rev}@{{upstream}}",
                        check=False).strip()
    target = repo.resolve(upstream) if upstream and "@" not in upstream else None
    if target is None:
        return None
    newest = chain[-1]["commit"]
    if not repo.is_ancestor(newest, target):
        raise VerifyFailed(f"verify failed: the history of {upstream} was rewritten: the refereed commit "
                           f"{newest[:10]} (move {chain[-1]['move']}) of this clone is not in it (was it "
                           f"force-pushed?)")
    return f"remote: {upstream} holds every refereed commit of this clone"
