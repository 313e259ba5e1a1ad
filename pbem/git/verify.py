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
from ..engine.documents import entry_text, in_stored_words, opened_log
from ..messages import _, lazy, ngettext, nlazy
from ..play.queues import REASONS as QUEUE_REASONS
from ..rng import commitment
from ..store import validation, yamlio
from ..store.gamedir import schema_line
from ..text import language
from . import layout
from .judge import canonical_moves
from .player import game_at
from .refereed import chain as refereed_chain
from .refereed import last_refereed, move_of, previous_of
from .repo import NO_SUBMODULE_LOOKUP, Repo
from .signatures import VerifyFailed, check_signatures
from .verified import chain_line, failed, not_replayed, rewritten, unrefereed_line

RAW_LINE = re.compile(r"^:\d+ (\d+) [0-9a-f]+ ([0-9a-f]+) A\t(.+)$")
SAME, WORDED = "same", "worded"  # a public.yaml that is the replay's, or is but for the words of another pbem


def verify(directory, rev: str = "HEAD", referee_root=None, language_code: str | None = None) -> dict:
    """The checks made, each a line in the language `language_code` (None: the game's, once it is known: players
    run verify too); what is refused before the game is known is in `language_code` (None: English)."""
    repo = Repo(directory)
    if not repo.is_repo():
        raise PbemError(lazy("{path}: not a git repository", path=str(directory)))
    tip = repo.resolve(rev)
    if tip is None:
        raise PbemError(lazy("{path}: no commit {revision}", path=str(directory), revision=repr(rev)))
    refereed = failed(last_refereed, repo, tip)
    config, game_id = refereed.config, refereed.game_id
    gd = _game(repo, refereed.commit)
    language.use(language_code or language.check(gd.meta.get("language") or language.DEFAULT))
    chain = failed(_chain, repo, refereed.commit, game_id, refereed.root)
    checks = [chain_line(chain, refereed.signed)]
    if refereed.others:
        # TRANSLATORS: {root}, {others}: commit ids (the first commits of the game's history and of others')
        checks.append(_("first commits: {root}, the one the referee's signed chain leads back to; another game's "
                        "history was merged in ({others}), not the game's", root=refereed.root[:10],
                        others=[commit[:10] for commit in refereed.others]))
    if refereed.unrefereed:
        checks.append(unrefereed_line(refereed, _unsigned_trailers(repo, refereed)))
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
            raise VerifyFailed(lazy("verify failed: a refereed commit's log.yaml changed entries of an earlier "
                                    "one"))
    added = _added_move_files(repo, tip)
    moves = _check_moves(repo, gd, chain, logs, changes, added)
    checks.append(ngettext("moves: {count} move file, the move of its log entry, only added",
                           "moves: {count} move files, each the move of its log entry, only added", len(moves),
                           count=len(moves)))
    configs = _configs(repo, chain, config, changes)
    checks.append(check_signatures(repo, gd, configs, chain, logs, moves, finished, referee_root))
    if finished:
        checks.append(_check_replay(repo, gd, chain, publics, logs))
    else:
        checks.append(_("replay: not over yet; the positions are checked against the replay once the seed is "
                        "revealed"))
    remote = _check_remote(repo, rev, chain)
    if remote:
        checks.append(remote)
    return {"game": game_id, "refereed": len(chain), "moves": len(moves), "finished": finished, "checks": checks,
            "result": "ok"}


def _unsigned_trailers(repo: Repo, refereed) -> int:
    """How many commits after the last refereed one carry the referee's trailers without its signature: a player's
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
            raise VerifyFailed(rewritten(candidate, previous))
        forged += 1
    return forged


def _chain(repo: Repo, newest: str, game_id: str, root: str) -> list[dict]:
    """The refereed commits, oldest first, found by following Pbem-Previous from the newest one."""
    return [{"commit": commit.id, "move": move_of(commit, game_id)}
            for commit in refereed_chain(repo, newest, game_id, root)]


def _game(repo: Repo, commit: str) -> engine.GameDir:
    gd = game_at(repo, commit)
    meta = gd.meta
    if not gd.game.plays(meta["rules_version"]):
        # TRANSLATORS: {game}: the game's id; {title}: its kind (coal-baron); {played}, {version}: rules versions
        raise PbemError(lazy("{game} was played under {title} rules version {played}, this pbem has version "
                             "{version}: verify it with the pbem that played it", game=gd.id, title=meta["game"],
                             played=meta["rules_version"], version=gd.game.rules_version))
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
        commit, move = link["commit"][:10], link["move"]
        # TRANSLATORS: {commit}: a commit id; {move}, {public}: move numbers; {count}: how many entries its log has
        if public is not None:
            raise VerifyFailed(nlazy("verify failed: {commit} says move {move}, its public.yaml says {public} and its "
                                     "log has {count} entry", "verify failed: {commit} says move {move}, its "
                                     "public.yaml says {public} and its log has {count} entries", count,
                                     commit=commit, move=move, public=public["move_number"], count=count))
        raise VerifyFailed(nlazy("verify failed: {commit} says move {move} and its log has {count} entry",
                                 "verify failed: {commit} says move {move} and its log has {count} entries", count,
                                 commit=commit, move=move, count=count))


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
                # TRANSLATORS: {commit}: a commit id; {path}: a file's path in the repository
                raise VerifyFailed(lazy("verify failed: the refereed commit {commit} changes {path}, and move files "
                                        "are only ever added", commit=after["commit"][:10], path=change.path))
            if named.group("setting") or named.group("talk"):
                continue  # a choice of language or a message: no move of the log (the referee judged its signature)
            files[int(named.group("number"))] = (named, change)
        for number, (named, change) in files.items():
            entry = new_entries.get(number)
            if entry is None or entry["player"] != named.group("player"):
                raise VerifyFailed(lazy("verify failed: {path} was added by {commit} but its log has no such move of "
                                        "{player}", path=change.path, commit=after["commit"][:10],
                                        player=named.group("player")))
            doc = None
            if not named.group("age"):
                from ..play import movefile
                doc = movefile.parse(repo.blob(change.blob, change.path), change.path)
                if canonical_moves(gd, doc["moves"]) != entry["moves"] or doc["move_number"] != number:
                    raise VerifyFailed(lazy("verify failed: {path} is not the move log entry {number} shows",
                                            path=change.path, number=number))
            authors = added.get((change.path, change.blob), [])
            moves.append({"path": change.path, "number": number, "player": named.group("player"), "doc": doc,
                          "commits": authors, "refereed": after["commit"]})
        # a move a player's queue played has no file of its own: it came in an earlier (sealed) move file
        missing = [e["number"] for n, e in new_entries.items() if n not in files
                   and e.get("reason") not in QUEUE_REASONS]
        if missing:
            # TRANSLATORS: {commit}: a commit id; {numbers}: move numbers, listed
            raise VerifyFailed(nlazy("verify failed: {commit} applied move {numbers} with no move file",
                                     "verify failed: {commit} applied moves {numbers} with no move file", len(missing),
                                     commit=after["commit"][:10], numbers=[str(n) for n in missing]))
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
            raise VerifyFailed(lazy("verify failed: {commit} changes {path} beyond the players' keys",
                                    commit=link["commit"][:10], path=layout.CONFIG))
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
        raise VerifyFailed(lazy("verify failed: the revealed seed does not match the commitment published at the "
                                "start"))
    components_text = repo.show(chain[-1]["commit"], engine.COMPONENTS) or b""
    if hashlib.sha256(components_text).hexdigest() != gd.meta["components_sha256"]:
        raise VerifyFailed(lazy("verify failed: {path} is not the file the game was set up with",
                                path=engine.COMPONENTS))
    components = yamlio.loads(components_text, engine.COMPONENTS)
    full_log = logs[-1].doc
    entries = full_log["entries"] or []
    wanted = {}
    for index, link in enumerate(chain):
        wanted.setdefault(link["move"] - 1, []).append(index)
    checked, worded, shown = 0, 0, []  # shown: the public entries of the entries replayed so far, each masked once
    for count, state, resigned in engine.replay_steps(gd, seed, components, full_log):
        if count:
            shown.append(engine.public_entry(gd.game, entries[count - 1]))
        for index in wanted.get(count, []):
            link = chain[index]
            public = engine.published_status(gd, seed, count, state, resigned, shown)
            same = _same_public(repo, gd, link, publics[index], public)
            if same is None:
                raise not_replayed(engine.PUBLIC, link)
            worded += same == WORDED
            log = logs[index].doc
            if log is not None and log != engine.public_log(gd, {**full_log, "entries": entries[:count] or None},
                                                            public["finished"]):
                raise not_replayed(engine.LOG, link)
            checked += 1
    if checked != len(chain):
        raise VerifyFailed(lazy("verify failed: the full log does not reach every refereed position"))
    found = ngettext("replay: the {count} refereed position equals the replay from the revealed seed (it matches its "
                     "commitment)", "replay: all {count} refereed positions equal the replay from the revealed seed "
                     "(it matches its commitment)", checked, count=checked)
    if worded:
        found += "\n" + ngettext("words: {count} position words its decision as another pbem worded it (what "
                                 "players read, not the record: who must act and which decision were checked)",
                                 "words: {count} positions word their decision as another pbem worded it (what "
                                 "players read, not the record: who must act and which decision were checked)",
                                 worded, count=worded)
    return found


def _same_public(repo: Repo, gd: engine.GameDir, link: dict, stored: dict | None, expected: dict) -> str | None:
    """Is a refereed commit's public.yaml (`stored`, or None when not read yet) the replay's `expected`: SAME, or
    WORDED when only its words are another pbem's (None: it is not)? Bytes that
    are the very text the referee writes for it (checked against its schema before it is written) need no
    reading; otherwise it is read and checked, and compared without its deadlines, which are the referee's
    record, not the replay's, and in its own words (the decision's description: an earlier pbem may have worded it
    otherwise; engine.verify alike)."""
    if stored is None:
        data = repo.show(link["commit"], engine.PUBLIC) or b""
        if data == yamlio.dumps(expected, schema_line(engine.PUBLIC, "public.schema.json")).encode():
            return SAME
        stored = _load(data, engine.PUBLIC, link["commit"], gd, "public.schema.json")
        _check_count(link, link["move"] - 1, stored)
    worded = in_stored_words(expected, stored)
    if {key: value for key, value in stored.items() if key != "clock"} != worded:
        return None
    return SAME if worded == expected else WORDED


def _check_remote(repo: Repo, rev: str, chain: list[dict]) -> str | None:
    """A clone that saw refereed commits the remote branch no longer has: the remote's history was rewritten."""
    upstream = repo.run("rev-parse", "--abbrev-ref", "--symbolic-full-name", f"{rev}@{{upstream}}",
                        check=False).strip()
    target = repo.resolve(upstream) if upstream and "@" not in upstream else None
    if target is None:
        return None
    newest = chain[-1]["commit"]
    if not repo.is_ancestor(newest, target):
        # TRANSLATORS: {branch}: a remote branch (origin/main); {commit}: a commit id; {move}: its move number
        raise VerifyFailed(lazy("verify failed: the history of {branch} was rewritten: the refereed commit {commit} "
                                "(move {move}) of this clone is not in it (was it force-pushed?)", branch=upstream,
                                commit=newest[:10], move=chain[-1]["move"]))
    return _("remote: {branch} holds every refereed commit of this clone", branch=upstream)
