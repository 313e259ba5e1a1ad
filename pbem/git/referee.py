"""`pbem git init` and `pbem git referee`: start a game in a repository; judge new commits and commit positions.

The referee's commit is built from its own last commit's tree: the move files it accepted are added, and every
file it owns (the public files, the encrypted views, refused.yaml, the archive) is written from its own game
directory. Whatever else a player's commit changed is simply not carried over, so the checkout can hold anything
without the referee reading it. Each refereed commit records, in trailers, the game, the move number it leaves
the game at, and the previous refereed commit (so a rewritten history is seen: `pbem git verify`).
"""
from __future__ import annotations

import fcntl
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from .. import correspondence, engine
from ..contract import PbemError, UsageError
from ..phrases import plural
from . import desk as desks
from . import judge, keys, layout, mails
from .repo import AllowedSigners, GitError, Repo, blob_id

SYNC_TRIES = 5
REFUSED_KEPT = 100  # refusals refused.yaml lists; older ones are counted, and listed by earlier refereed commits
REFUSALS_NAMED = 20  # refusals a refereed commit's message names one by one


@dataclass
class Run:
    """What one referee run did (printed one line a commit by the CLI)."""

    game: str
    verdicts: list = field(default_factory=list)
    commit: str | None = None
    move_number: int | None = None
    finished: bool = False
    mailed: list[str] = field(default_factory=list)
    pushed: bool = False
    warning: str | None = None
    clock: dict | None = None  # what the clock's tick did (pbem.correspondence.tick), with --tick
    rekeyed: list[str] = field(default_factory=list)  # seats whose views are encrypted to a new key from now on
    deferred: bool = False  # another run was running: it judges these commits too
    ci_changed: bool = False  # the CI files were written again (a new source of pbem)
    rounds: int = 1

    @classmethod
    def merged(cls, runs: list["Run"]) -> "Run":
        """The rounds of one call (a request came while it ran) as one: every verdict, the last commit."""
        last = runs[-1]
        committed = [run for run in runs if run.commit]
        return cls(last.game, [v for run in runs for v in run.verdicts],
                   committed[-1].commit if committed else None,
                   committed[-1].move_number if committed else last.move_number,
                   committed[-1].finished if committed else last.finished,
                   [m for run in runs for m in run.mailed], any(run.pushed for run in runs),
                   "; ".join(run.warning for run in runs if run.warning) or None,
                   next((run.clock for run in reversed(runs) if run.clock), None),
                   [seat for run in runs for seat in run.rekeyed], rounds=len(runs))

    def lines(self) -> list[str]:
        if self.deferred:
            return ["another referee run of this game is running: it judges these commits too before it stops"]
        out = []
        for verdict in self.verdicts:
            if verdict.kind == "accepted":
                result = verdict.result
                out.append(f"accepted {verdict.commit[:10]}: move {result['number']} by {result['player']}: "
                           f"{'; '.join(result['public_moves'])}")
            elif verdict.kind == "refused":
                out.append(f"refused {verdict.commit[:10]}: {verdict.reason.splitlines()[0]}")
        out += [f"clock: {line}" for line in _clock_lines(self.clock)]
        out += [f"new key: {seat}'s view is encrypted to it from this commit" for seat in self.rekeyed]
        if self.commit:
            state = "the game is over" if self.finished else f"next move {self.move_number}"
            out.append(f"committed {self.commit[:10]} ({state})" + (", pushed" if self.pushed else ""))
        else:
            out.append("nothing new to referee")
        if self.mailed:
            out.append(f"views mailed to {', '.join(self.mailed)}")
        if self.warning:
            out.append(f"warning: {self.warning}")
        return out


# ---------------------------------------------------------------- init

def init(game_type: str, directory, players: list[tuple[str, str | None]], player_keys: dict[str, str], *,
         seed: str | None = None, options: dict | None = None, components=None, organiser: str | None = None,
         referee_root=None, ci_identity=None, branch: str | None = None, deadlines: dict | None = None,
         now=None, pbem_source: str | None = None) -> dict:
    """A new game in a new repository DIR (or an empty clone): the game's files, committed as the first commit.
    `pbem_source`: what the CI files install pbem from (a pip requirement)."""
    directory = Path(directory)
    game_id = directory.name
    _check_new_directory(directory)
    entries = _seats(players, player_keys)
    if ci_identity is not None:
        identity, recipient = _ci_identity(Path(ci_identity))
        signing_key = identity.ssh_private_key  # an age identity cannot sign: that referee's commits are unsigned
        signer = recipient if signing_key else None
        scratch = Path(tempfile.mkdtemp(prefix="pbem-referee-"))
        game_dir = scratch / game_id
    else:
        secret, recipient = keys.new_identity()
        signing_key, signer = keys.new_ssh_key()
        identity, scratch = keys.Identity(secret, "the referee's new key"), None
        game_dir = Path(referee_root or desks.default_root()) / game_id
        if desks.record_path(game_dir).exists() or game_dir.exists():
            raise UsageError(f"{game_dir} already exists: the referee already has a game {game_id}")
    config = layout.config_doc(game_id, game_type, recipient, "committed" if scratch else "local", entries,
                               signer)
    made_directory = not directory.exists()
    try:
        repo = _new_repository(directory, branch)
        branch = branch or _current_branch(repo) or "main"
        game_dir.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        created = correspondence.create(game_type, game_dir, players, seed=seed, options=options,
                                        components_path=components, organiser=organiser, deadlines=deadlines,
                                        now=now)
        record = {"format": "pbem-git-record/1", "id": game_id, "root": "0" * 40, "chain": [], "pushed": None,
                  "identity": None if scratch else identity.text, "signing_key": None if scratch else signing_key}
        desk = desks.Desk(engine.open_game(game_dir), config, record, identity, committed=scratch is not None,
                          scratch=scratch)
        files = {**desk.public_files(), **_fixed_files(config, branch, pbem_source), **picture_files(desk),
                 layout.REFUSED: layout.dump("refused", layout.refused_doc(game_id, []), layout.REFUSED).encode()}
        blobs = repo.write_blobs(files)
        if desk.committed:
            blobs[layout.ARCHIVE] = repo.write_blob(desk.archive(None, blobs))
        message = _message([f"pbem: new game {game_id} of {game_type}",
                            f"Players: {', '.join(p['name'] for p in entries)}. Move 1 is next."], game_id, 1, None)
        commit = repo.commit_tree(repo.build_tree(None, blobs), [], message, desk.signing_key)
        repo.run("update-ref", f"refs/heads/{branch}", commit)
        repo.run("symbolic-ref", "HEAD", f"refs/heads/{branch}")
        repo.run("reset", "--hard", "--quiet", commit)
        repo.run("config", "diff.pbem.textconv", "pbem git textconv")
        record["root"] = commit
        desk.save(commit)
    except BaseException:
        # not started: no half-made referee files, no half-made repository
        if scratch is None and not desks.record_path(game_dir).exists():
            shutil.rmtree(game_dir, ignore_errors=True)
        if made_directory:
            shutil.rmtree(directory, ignore_errors=True)
        raise
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
    return {**created, "dir": str(directory), "commit": commit, "branch": branch,
            "referee_dir": None if scratch else str(game_dir), "files": config["referee"]["files"],
            "views": {p["name"]: p["view"] for p in entries}}


def _seats(players: list[tuple[str, str | None]], player_keys: dict[str, str]) -> list[dict]:
    """Each player's entry of pbem-git.yaml: their key, and how their view reaches them."""
    names = [name for name, _ in players]
    unknown = sorted(set(player_keys) - set(names))
    if unknown:
        raise UsageError(f"--key for {', '.join(unknown)}, who does not play")
    entries = []
    for name, email in players:
        key = player_keys.get(name)
        if key is None and email is None:
            raise UsageError(f"player {name} has neither a key (--key {name}=FILE) nor an email address: their "
                             f"private view could reach them neither encrypted nor by mail")
        entries.append({"name": name, "key": key, "view": "encrypted" if key else "mail"})
    return entries


def _check_new_directory(directory: Path) -> None:
    if directory.exists() and (not directory.is_dir() or any(p.name != ".git" for p in directory.iterdir())):
        raise UsageError(f"{directory} already exists and is not empty: a game starts in a new repository (or "
                         f"an empty clone)")
    if not engine.ID_PATTERN.fullmatch(directory.name):
        raise UsageError(f"{directory.name!r} cannot be a game id: the directory name must be lowercase letters, "
                         f"digits, - and _")


def _new_repository(directory: Path, branch: str | None) -> Repo:
    repo = Repo(directory)
    if not (directory / ".git").exists():
        directory.mkdir(parents=True, exist_ok=True)
        repo.run("init", "--quiet", f"--initial-branch={branch or 'main'}")
    elif repo.resolve("HEAD") is not None:
        raise UsageError(f"{directory} already has commits: a game starts in a new repository")
    return repo


def _current_branch(repo: Repo) -> str | None:
    """The branch HEAD names (born or not yet), or None when HEAD is detached."""
    ref = repo.run("symbolic-ref", "--quiet", "HEAD", check=False).strip()
    return ref.removeprefix("refs/heads/") if ref.startswith("refs/heads/") else None


def _ci_identity(path: Path) -> tuple[keys.Identity, str]:
    """The CI referee's key: an OpenSSH private key with its .pub beside it (made here, ed25519, if it does not
    exist yet: it decrypts and signs), or an age identity file (it only decrypts: the referee's commits are then
    not signed)."""
    if not path.exists():
        keys.new_ssh_key(path)
    identity = keys.Identity.from_file(path)
    if identity.recipient is not None:
        return identity, identity.recipient
    public = path.with_name(path.name + ".pub")
    try:
        text = public.read_text(encoding="utf-8")
    except OSError:
        raise PbemError(f"{public}: the public key of the SSH identity {path} is needed beside it") from None
    return identity, keys.parse_recipient(text, str(public))


def _fixed_files(config: dict, branch: str, pbem_source: str | None) -> dict[str, bytes]:
    files = {layout.CONFIG: layout.dump("config", config, layout.CONFIG).encode(),
             ".gitignore": layout.GITIGNORE.encode(), ".gitattributes": layout.GITATTRIBUTES.encode(),
             layout.PRE_COMMIT: layout.PRE_COMMIT_CONFIG.encode(),
             **{path: text.encode() for path, text in layout.schema_copies().items()}}
    return {**files, **ci_files(config, branch, pbem_source)}


def ci_files(config: dict, branch: str, pbem_source: str | None) -> dict[str, bytes]:
    """The GitHub and GitLab CI files: the referee itself for a referee in CI, else a check of every push."""
    committed = config["referee"]["files"] == "committed"
    return {layout.WORKFLOW: layout.ci_file("github", committed, branch, pbem_source).encode(),
            layout.GITLAB: layout.ci_file("gitlab", committed, branch, pbem_source).encode()}


def _message(lines: list[str], game_id: str, move_number: int, previous: str | None) -> str:
    trailers = [f"Pbem-Game: {game_id}", f"Pbem-Move: {move_number}", f"Pbem-Previous: {previous or 'none'}"]
    return lines[0] + "\n\n" + "".join(f"{line}\n" for line in lines[1:]) + ("\n" if lines[1:] else "") + \
        "\n".join(trailers) + "\n"


# ---------------------------------------------------------------- referee

def open_desk(repo: Repo, tip: str, referee_root, identity: keys.Identity | None) -> desks.Desk:
    if identity is not None:
        return desks.open_committed(repo, tip, identity)
    return desks.open_local(Path(referee_root or desks.default_root()), repo, tip)


def referee(directory, *, referee_root=None, identity: keys.Identity | None = None, remote: str | None = None,
            branch: str | None = None, mailer=None, tick: bool = False, now=None,
            new_keys: dict[str, str] | None = None, pbem_source: str | None = None) -> Run:
    """Judge every commit after the last refereed one, apply what is acceptable, run the clock (`tick`: reminders,
    timeouts), and commit the new position: also when only the referee's game directory changed (a `pbem tick`,
    `pbem deadline` or `pbem replace` run there by the organiser). `new_keys` ({seat: public key}) gives seats a
    new key in pbem-git.yaml (a seat handed on): their views are encrypted to it from this commit; `pbem_source`
    writes the CI files again to install pbem from there."""
    repo = Repo(directory)
    if not repo.is_repo():
        raise PbemError(f"{directory}: not a git repository")
    root = Path(referee_root or desks.default_root())
    branch = branch or _current_branch(repo)
    # one run at a time for a game (a hook per push, a cron job, two clones with one referee dir): a run that
    # overlapped another would judge the other's commits as a player's. A run that finds another running leaves
    # it a request and returns: the running one fetches again before it stops (it may be the run whose own push
    # started this one, through the server's hook: waiting for it would never end).
    if identity:
        lock, game = Path(repo.git_dir()) / "pbem-referee", repo.path.resolve().name
    else:
        game_dir = desks.local_record(root, repo, repo.head())[0]
        lock, game = game_dir.with_name(game_dir.name + ".git"), game_dir.name
    asked = Asked(new_keys or {}, pbem_source and layout.check_source(pbem_source))
    runs = one_at_a_time(lock, lambda: _referee_runs(repo, root, identity, remote, branch, mailer, tick, now, asked))
    return Run.merged(runs) if runs else Run(game, deferred=True)


@dataclass
class Asked:
    """What the organiser asked of a run besides refereeing: seats' new keys, a new source of pbem for the CI."""

    new_keys: dict[str, str]
    pbem_source: str | None = None


def _referee_runs(repo: Repo, root: Path, identity, remote, branch, mailer, tick, now, asked: Asked) -> Run:
    for _ in range(SYNC_TRIES):
        fetched = None
        if remote:
            pushed = None if identity else desks.local_record(root, repo, repo.head())[1]["pushed"]
            fetched = _sync(repo, remote, branch, pushed)
        tip = repo.head()
        desk = open_desk(repo, tip, root, identity)
        desk.now = now
        try:
            rekeyed = rekey(desk.config, asked.new_keys)
            ci = ci_files(desk.config, branch or "main", asked.pbem_source) if asked.pbem_source else {}
            run = _referee_once(repo, desk, tip, mailer, tick, rekeyed, ci)
            if fetched is None or (run.commit is None and repo.is_ancestor(repo.head(), fetched)):
                return run
            if _push(repo, remote, branch):
                run.pushed = True
                if not desk.committed:
                    desk.record["pushed"] = repo.head()
                    desks.write_record(desks.record_path(desk.gd.path), desk.record)
                return run
        finally:
            desk.close()
    raise PbemError(f"{remote}/{branch} kept moving while the referee pushed ({SYNC_TRIES} tries); run it again")


def one_at_a_time(lock: Path, work) -> list:
    """Run `work` unless another process runs it for the same `lock`: then leave a request (LOCK.pending) for that
    one and return []. The process that holds the lock runs `work` again while requests came meanwhile, and
    checks once more after letting go, so no request is ever left unanswered. Returns what each round gave."""
    request = lock.with_name(lock.name + ".pending")
    _touch(request)
    done = []
    while True:
        fd = _try_lock(lock.with_name(lock.name + ".lock"))
        if fd is None:
            return done  # the holder answers the request
        try:
            while request.exists():
                request.unlink(missing_ok=True)
                done.append(work())
        finally:
            os.close(fd)
        if not request.exists():
            return done


def _touch(path: Path) -> None:
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600))
    except OSError as exc:
        raise PbemError(f"{path}: cannot leave a request to the running referee ({exc.strerror})") from None


def _try_lock(path: Path) -> int | None:
    """An exclusive lock on `path` (made if missing, never through a link), or None if another process holds it."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    except OSError as exc:
        raise PbemError(f"{path}: cannot make the referee's lock ({exc.strerror})") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return fd


def rekey(config: dict, new_keys: dict[str, str]) -> list[str]:
    """Give seats of pbem-git.yaml (`config`, changed in place) new public keys: the seats whose key changed. Their
    views are then committed encrypted to the new key, and a new SSH key is the one that may sign their commits."""
    seats = {player["name"]: player for player in config["players"]}
    unknown = sorted(set(new_keys) - set(seats))
    if unknown:
        raise UsageError(f"--key for {', '.join(unknown)}: no such seat in this game ({', '.join(seats)})")
    changed = []
    for name, key in new_keys.items():
        if seats[name]["key"] != key:
            seats[name].update(key=key, view="encrypted")
            changed.append(name)
    return changed


def _referee_once(repo: Repo, desk: desks.Desk, tip: str, mailer, tick: bool = False,
                  rekeyed: list[str] = (), ci: dict[str, bytes] | None = None) -> Run:
    last = desk.last
    run = Run(desk.gd.id, rekeyed=list(rekeyed))
    parents = repo.parents(last)
    if not repo.is_ancestor(last, tip) and parents and repo.is_ancestor(parents[0], tip):
        tip = _join(repo, last, tip)  # the last run made its commit and stopped before placing it: place it now
    if not repo.is_ancestor(last, tip):
        raise PbemError(f"the history was rewritten: the last refereed commit {last[:10]} is not in the history of "
                        f"{tip[:10]}. Nothing was done. Find who rewrote it (git reflog, the players' clones) and "
                        f"restore a history that holds {last[:10]}")
    commits = [repo.commit(c) for c in repo.new_commits(tip, last)]
    changes = repo.first_parent_changes([c.id for c in commits if len(c.parents) == 1])
    base = {path: blob for path, (_, blob) in repo.tree(last).items()}
    tree = dict(base)
    with AllowedSigners() as allowed:
        signers = allowed.file(layout.ssh_keys(desk.config))
        at = engine.status(desk.gd)["move_number"] if commits else None
        for commit in commits:
            verdict = judge.judge(repo, desk, commit, changes.get(commit.id), tree, signers)
            verdict.at = at
            run.verdicts.append(verdict)
            if verdict.kind == "accepted":
                tree[verdict.path] = verdict.blob
                at = verdict.result["move_number"]
    refused = [v for v in run.verdicts if v.kind == "refused"]
    if refused:
        mailable = mails.addresses(desk.gd)
        for verdict in refused:
            verdict.player = mails.refused_player(verdict, desk.gd.players, mailable)
    if tick:
        from ..correspondence import tick as run_clock
        run.clock = run_clock(desk.gd, desk.now)
    decided = [v for v in run.verdicts if v.kind != "neutral"]
    changed = bool(run.clock and run.clock["changed"]) or bool(rekeyed) or _published_changed(desk, base)
    ci = {path: data for path, data in (ci or {}).items() if base.get(path) != blob_id(data)}
    run.ci_changed = bool(ci)
    if not decided and not changed and not ci:
        return run
    status = engine.status(desk.gd)
    run.move_number, run.finished = status["move_number"], status["finished"]
    views_written = changed or any(v.kind == "accepted" for v in run.verdicts)
    files = repo.write_blobs({**refereed_files(repo, desk, last, run, views=views_written), **ci}, base)
    files.update({v.path: v.blob for v in run.verdicts if v.kind == "accepted"})
    # the legal moves of a player no longer to act go (only the player to act has a file of them)
    stale = [path for path in base if layout.is_legal_blob(path) and path not in files] if views_written else []
    if desk.committed:
        others = {**{p: b for p, b in base.items() if p != layout.ARCHIVE and p not in stale}, **files}
        files[layout.ARCHIVE] = repo.write_blob(desk.archive(tip, others))
    new_tree = repo.build_tree(last, files, removed=stale)
    message = _message(_summary(run), desk.gd.id, run.move_number, last)
    commit = repo.commit_tree(new_tree, [tip], message, desk.signing_key)
    desk.save(commit)  # recorded first: a run stopped before the branch moves places the commit next time
    repo.run("reset", "--hard", "--quiet", commit)
    run.commit = commit
    run.mailed, run.warning = mails.send(desk, run, _summary(run)[1:], mailer, views=views_written)
    return run


def _published_changed(desk: desks.Desk, base: dict[str, str]) -> bool:
    """Do the game's public files differ from the last refereed commit's (the organiser changed the game in the
    referee's directory: a tick, a deadline, a seat handed on)? Compared by object name: nothing is written to git
    on a run that finds nothing to do."""
    return any(base.get(name) != blob_id((desk.gd.path / name).read_bytes()) for name in desks.PUBLIC_FILES)


def _clock_lines(ticked: dict | None) -> list[str]:
    if not ticked:
        return []
    lines = []
    for event in ticked["events"]:
        lines.append({"remind": f"reminded {event['player']}", "late": f"{event['player']} is late, waiting",
                      "timeout": f"{event['player']} timed out, the referee played for them ({event.get('policy')})",
                      "resigned": f"{event['player']} counts as resigned after {event.get('strikes')} timeouts"}
                     [event["kind"]] + f" (move {event['move_number']})")
    return lines


def refereed_files(repo: Repo, desk: desks.Desk, last: str, run: Run, views: bool = False) -> dict[str, bytes]:
    """Every file a refereed commit writes, by path: the game's public files, (`views`: when the position changed)
    each player's view and the legal moves of the player to act, encrypted to them, refused.yaml, pbem-git.yaml
    when a seat has a new key, revealed.yaml at the end. The move files it accepted and referee.age are added by
    the caller. A new kind of file (a picture of the position, say) is added here."""
    files = desk.public_files(views=views)
    if run.rekeyed:
        files[layout.CONFIG] = layout.dump("config", desk.config, layout.CONFIG).encode()
    files[layout.REFUSED] = refused_file(repo.show(last, layout.REFUSED) or b"", desk.gd.id, last, run.verdicts)
    files.update(picture_files(desk))
    if run.finished:  # the secrets, like the seed, are worth nothing once the game is over: anyone may check
        roster = engine.roster(desk.gd)
        revealed = {"format": "pbem-revealed/1", "id": desk.gd.id,
                    "secrets": {p["name"]: p["secret"] for p in roster}}
        former = {p["name"]: [{"secret": f["secret"], "until": f["until"]} for f in p["former"]]
                  for p in roster if p.get("former")}
        if former:  # a seat handed on: its earlier holders signed with their own secrets, up to a move number
            revealed["former"] = former
        files[layout.REVEALED] = layout.dump("revealed", revealed, layout.REVEALED).encode()
    return files


def picture_files(desk: desks.Desk) -> dict[str, bytes]:
    """board.svg and README.md: the public picture and the position as the hosting's page of the repository shows
    it (a player's own picture is drawn from their encrypted view: `pbem git view --format html`)."""
    from .. import pictures
    return pictures.repository_files(engine.status(desk.gd))


def _who(verdict) -> str:
    """Whom a refusal concerns: the player (by the move file, or the author's address), else the author's name."""
    return verdict.player or verdict.author.rpartition(" <")[0][:60] or "unknown"


def refused_file(previous: bytes, game_id: str, last: str, verdicts: list) -> bytes:
    """refused.yaml: the newest REFUSED_KEPT refusals (this run's appended), each with its commit, author, the move
    number it was judged at and why. Older ones are counted in `earlier` and listed by the refused.yaml of earlier
    refereed commits (`in`: the last one that listed the newest of them), so the file stays small whatever is
    pushed; those of one run beyond REFUSED_KEPT are only counted (their commits are in the history)."""
    doc = layout.load("refused", previous, layout.REFUSED)
    entries = doc["refused"] + [
        {"commit": v.commit, "author": v.author, "move_number": v.at, "reason": v.reason,
         **({"move_file": v.path} if v.path else {})} for v in verdicts if v.kind == "refused"]
    earlier = doc.get("earlier") or {"count": 0, "in": last}
    dropped = max(0, len(entries) - REFUSED_KEPT)
    if dropped:  # the oldest go; if some of them were listed before, the last refereed commit lists them
        earlier = {"count": earlier["count"] + dropped, "in": last if doc["refused"] else earlier["in"]}
        entries = entries[dropped:]
    out = layout.refused_doc(game_id, entries)
    if earlier["count"]:
        out["earlier"] = earlier
    return layout.dump("refused", out, layout.REFUSED).encode()


def _summary(run: Run) -> list[str]:
    accepted = [v.result for v in run.verdicts if v.kind == "accepted"]
    refused = [v for v in run.verdicts if v.kind == "refused"]
    if accepted:
        head = "pbem: " + ", ".join(f"move {r['number']} by {r['player']}" for r in accepted)
    elif refused:
        head = f"pbem: {plural(len(refused), 'commit')} refused"
    else:
        head = ("pbem: the clock" if run.clock and run.clock["changed"] else
                f"pbem: a new key for {', '.join(run.rekeyed)}" if run.rekeyed else
                "pbem: the CI files install pbem from a new source" if run.ci_changed else
                "pbem: the referee's changes")
    lines = [head[:120]]
    by_referee = [entry for r in accepted for entry in r.get("referee_moves", [])] + (run.clock or {}).get("entries", [])
    moves = [(r["number"], f"Move {r['number']} ({r['player']}): {'; '.join(r['public_moves'])}") for r in accepted]
    moves += [(e["number"], f"Move {e['number']} ({e['player']}, by the referee: {e.get('reason', '')}): "
                            f"{'; '.join(e['moves'])}") for e in by_referee]
    lines += [line for _, line in sorted(moves)]
    lines += [f"Clock: {line}" for line in _clock_lines(run.clock)]
    lines += [f"New key: {seat}'s view is encrypted to it from this commit." for seat in run.rekeyed]
    lines += [f"Refused {v.commit[:10]} ({_who(v)}): {v.reason.splitlines()[0][:200]}"
              for v in refused[:REFUSALS_NAMED]]
    if len(refused) > REFUSALS_NAMED:
        lines.append(f"Refused {plural(len(refused) - REFUSALS_NAMED, 'more commit')} (their commits are in the "
                     f"history; refused.yaml lists the newest).")
    lines.append("The game is over." if run.finished else f"Next: move {run.move_number}.")
    return lines


# ---------------------------------------------------------------- remote

def _sync(repo: Repo, remote: str, branch: str | None, pushed: str | None) -> str:
    """Fetch the remote branch and join it to HEAD without taking any of its files (a merge keeping HEAD's tree):
    the referee judges the fetched commits one by one and never needs their merged content. A remote that lost a
    refereed commit the referee had pushed (`pushed`) was force-pushed: refused."""
    if not branch:
        raise UsageError("HEAD is detached: say which branch the game is on (--branch NAME)")
    repo.run("fetch", "--quiet", remote, f"refs/heads/{branch}")
    fetched = repo.resolve("FETCH_HEAD")
    if pushed and not repo.is_ancestor(pushed, fetched):
        raise PbemError(f"the history of {remote}/{branch} was rewritten (a force-push): the refereed commit "
                        f"{pushed[:10]} is no longer in it. Nothing was done. Restore it "
                        f"(git push --force {remote} {pushed[:10]}:{branch}, after checking what was lost)")
    ours = repo.resolve("HEAD")
    if ours is None:  # a CI checkout that checked nothing out (GitLab's GIT_CHECKOUT false): HEAD is born here
        repo.run("update-ref", "HEAD", fetched)
    else:
        _join(repo, ours, fetched)
    return fetched


def _join(repo: Repo, ours: str, theirs: str) -> str:
    """Make HEAD hold both commits without taking any file of `theirs` (a merge keeping our tree, or a
    fast-forward): the referee judges their commits one by one and never needs their merged content."""
    if repo.is_ancestor(ours, theirs):
        joined = theirs
    elif repo.is_ancestor(theirs, ours):
        joined = ours
    else:
        tree = repo.run("rev-parse", f"{ours}^{{tree}}").strip()
        joined = repo.commit_tree(tree, [ours, theirs], "pbem: join the pushed commits\n")
    # HEAD only: a pushed tree is never checked out (a name the file system refuses would stop every run; a link
    # would point anywhere). The working tree follows the referee's own commits.
    repo.run("reset", "--soft", "--quiet", joined)
    return joined


def _push(repo: Repo, remote: str, branch: str) -> bool:
    try:
        repo.run("push", "--quiet", remote, f"HEAD:refs/heads/{branch}")
    except GitError as exc:
        if "rejected" in str(exc) or "fetch first" in str(exc) or "non-fast-forward" in str(exc):
            return False
        raise
    return True
