"""`pbem git referee`: judge the commits after the last refereed one and commit the new position.

The referee's commit is built from its own last commit's tree: the move files it accepted are added, and every
file it owns (the public files, the encrypted views, refused.yaml, the archive) is written from its own game
directory (pbem.git.compose). Whatever else a player's commit changed is simply not carried over, so the checkout
can hold anything without the referee reading it. `pbem git init` is pbem.git.start.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..contract import PbemError, UsageError
from ..engine import engine
from ..store.gamedir import TALK
from ..text import language
from ..text.phrases import plural
from . import branches, compose, judge, keys, layout, mails
from . import desk as desks
from .repo import Repo, blob_id
from .signers import AllowedSigners
from .runlock import one_at_a_time

SYNC_TRIES = 5
KEPT = ("accepted", "language", "talk")  # verdicts whose file the refereed commit keeps (the signed record of each)


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
    clock: dict | None = None  # what the clock's tick did (pbem.clock.takebacks.tick), with --tick
    rekeyed: list[str] = field(default_factory=list)  # seats whose views are encrypted to a new key from now on
    deferred: bool = False  # another run was running: it judges these commits too
    ci_changed: bool = False  # the CI files were written again (a new source of pbem)
    added: list[str] = field(default_factory=list)  # files a game started by an earlier pbem lacked (compose.ADDED)
    rounds: int = 1
    before: list[dict] = field(default_factory=list)  # moves played in the game directory since the last commit
    languages: dict[str, str] = field(default_factory=dict)  # seats whose language pbem-git.yaml now says anew
    botted: list[str] = field(default_factory=list)  # seats given to a bot: their views published to no one now
    unbotted: list[str] = field(default_factory=list)  # seats a player holds again: their views mailed meanwhile
    base: str | None = None  # the last refereed commit, whose successors it judged (what its mails are about)
    owed_sent: int = 0  # a referee in CI: mails an earlier run owed, sent by this one (pbem.git.cimail)
    owed_dropped: int = 0  # and those it dropped (the server reached refused them)

    @classmethod
    def merged(cls, runs: list["Run"]) -> "Run":
        """The rounds of one call (a request came while it ran, a push was beaten) as one: every verdict, the last
        commit."""
        last = runs[-1]
        committed = [run for run in runs if run.commit]
        return cls(last.game, [v for run in runs for v in run.verdicts],
                   committed[-1].commit if committed else None,
                   committed[-1].move_number if committed else last.move_number,
                   committed[-1].finished if committed else last.finished,
                   [m for run in runs for m in run.mailed], any(run.pushed for run in runs),
                   "; ".join(run.warning for run in runs if run.warning) or None,
                   next((run.clock for run in reversed(runs) if run.clock), None),
                   [seat for run in runs for seat in run.rekeyed],
                   added=[path for run in runs for path in run.added], rounds=sum(run.rounds for run in runs),
                   before=[entry for run in runs for entry in run.before],
                   languages={seat: code for run in runs for seat, code in run.languages.items()},
                   botted=[seat for run in runs for seat in run.botted],
                   unbotted=[seat for run in runs for seat in run.unbotted],
                   owed_sent=sum(run.owed_sent for run in runs), owed_dropped=sum(run.owed_dropped for run in runs))

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
            elif verdict.kind == "talk":  # printed where anyone may read it (a CI's log): never a private message
                said = verdict.result
                out.append(f"accepted {verdict.commit[:10]}: a message of {said['from']} to the table"
                           if said["to"] is None else
                           f"accepted {verdict.commit[:10]}: a private message of {said['from']}")
            elif verdict.kind == "language":
                out.append(f"accepted {verdict.commit[:10]}: {verdict.result['player']} reads "
                           f"{verdict.result['language']}")
        out += [f"recorded {compose.move_line(entry)}" for entry in self.before]
        out += [f"clock: {line}" for line in compose.clock_lines(self.clock)]
        out += [f"new key: {seat}'s view is encrypted to it from this commit" for seat in self.rekeyed]
        out += [f"bot: {seat}'s seat is the referee's bot's, its view published to no one from this commit"
                for seat in self.botted]
        out += [f"player: {seat}'s seat is a player's again, its view mailed until its key is registered (--key)"
                for seat in self.unbotted]
        out += [f"added {path} ({compose.ADDED[path]}): this game had none" for path in self.added]
        if self.commit:
            state = "the game is over" if self.finished else f"next move {self.move_number}"
            out.append(f"committed {self.commit[:10]} ({state})" + (", pushed" if self.pushed else ""))
        else:
            out.append("nothing new to referee")
        if self.owed_sent:
            out.append(f"sent {plural(self.owed_sent, 'mail')} an earlier run owed (referee.age kept them)")
        if self.mailed:
            out.append(f"views mailed to {', '.join(self.mailed)}")
        if self.warning:
            out.append(f"warning: {self.warning}")
        return out


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
    branch = branch or branches.current_branch(repo)
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
    """Referee, and push when a remote is given; a push a player beat (they pushed meanwhile) is tried again after
    judging what they pushed, from the commit just made: the run says what every attempt judged and mailed."""
    attempts = []
    for _ in range(SYNC_TRIES):
        if remote:
            pushed = None if identity else desks.local_record(root, repo, repo.head())[1]["pushed"]
            tip, fetched = branches.sync(repo, remote, branch, pushed)
        else:
            tip, fetched = repo.head(), None
        desk = open_desk(repo, tip, root, identity)
        desk.now = now
        try:
            rekeyed = rekey(desk.config, asked.new_keys, bot_seats(desk.gd))
            ci = compose.ci_files(desk.config, branch or "main", asked.pbem_source) if asked.pbem_source else {}
            run = _referee_once(repo, desk, tip, mailer, tick, rekeyed, ci)
            attempts.append(run)
            head = repo.resolve("HEAD")  # its new commit, a join of its own, or where it was
            if fetched is None or head is None or repo.is_ancestor(head, fetched):
                return Run.merged(attempts)
            if branches.push(repo, remote, branch):
                run.pushed = True
                if not desk.committed:
                    desk.record["pushed"] = repo.head()
                    desks.write_record(desks.record_path(desk.gd.path), desk.record)
                return Run.merged(attempts)
        finally:
            desk.close()
    raise PbemError(f"{remote}/{branch} kept moving while the referee pushed ({SYNC_TRIES} tries); run it again")


def rekey(config: dict, new_keys: dict[str, str], bots: dict[str, str] | None = None) -> list[str]:
    """Give seats of pbem-git.yaml (`config`, changed in place) new public keys: the seats whose key changed. Their
    views are then committed encrypted to the new key, and a new SSH key is the one that may sign their commits.
    A seat a bot plays (`bots`) takes no key, as at `pbem git init --bot`."""
    seats = {player["name"]: player for player in config["players"]}
    unknown = sorted(set(new_keys) - set(seats))
    if unknown:
        raise UsageError(f"--key for {', '.join(unknown)}: no such seat in this game ({', '.join(seats)})")
    botted = sorted(set(new_keys) & set(bots or {}))
    if botted:
        raise UsageError(f"--key for {', '.join(botted)}: the referee's bot plays this seat, it takes no key (hand "
                         f"it to a player first: pbem replace --seat {botted[0]} --by NAME)")
    changed = []
    for name, key in new_keys.items():
        if seats[name]["key"] != key:
            seats[name].update(key=key, view="encrypted")
            changed.append(name)
    return changed


def _referee_once(repo: Repo, desk: desks.Desk, tip: str, mailer, tick: bool = False,
                  rekeyed: list[str] = (), ci: dict[str, bytes] | None = None) -> Run:
    last = desk.last
    run = Run(desk.gd.id, rekeyed=list(rekeyed), base=last)
    parents = repo.parents(last)
    if not repo.is_ancestor(last, tip) and parents and repo.is_ancestor(parents[0], tip):
        tip = branches.join(repo, last, tip)  # the last run made its commit and stopped before placing it: place it now
    if not repo.is_ancestor(last, tip):
        raise PbemError(f"the history was rewritten: the last refereed commit {last[:10]} is not in the history of "
                        f"{tip[:10]}. Nothing was done. Find who rewrote it (git reflog, the players' clones) and "
                        f"restore a history that holds {last[:10]}")
    commits = [repo.commit(c) for c in repo.new_commits(tip, last)]
    changes = repo.first_parent_changes([c.id for c in commits if len(c.parents) == 1])
    base = {path: blob for path, (_, blob) in repo.tree(last).items()}
    tree = dict(base)
    run.before = compose.played_before(desk, repo.show(last, engine.PUBLIC))
    with AllowedSigners() as allowed:
        signatures = judge.ssh_signatures(repo, commits, allowed.file(layout.ssh_keys(desk.config)))
        at = engine.status(desk.gd)["move_number"] if commits else None
        for commit in commits:
            verdict = judge.judge(repo, desk, commit, changes.get(commit.id), tree, signatures)
            verdict.at = at
            run.verdicts.append(verdict)
            if verdict.kind in KEPT:
                tree[verdict.path] = verdict.blob
            if verdict.kind == "accepted":
                at = verdict.result["move_number"]
    refused = [v for v in run.verdicts if v.kind == "refused"]
    if refused:
        mailable = mails.addresses(desk.gd)
        for verdict in refused:
            verdict.player = mails.refused_player(verdict, desk.gd.players, mailable)
    if tick:  # the clock: a takeback no one answered in time refused, the overdue decisions settled
        from ..clock.takebacks import tick as run_clock
        run.clock = run_clock(desk.gd, desk.now)[0]
    decided = [v for v in run.verdicts if v.kind != "neutral"]
    owed_mailed, owed_warning = mails.send_owed_first(desk, mailer)  # a referee in CI: what earlier runs owe first
    run.owed_sent, run.owed_dropped = (desk.mailbook.delivered, desk.mailbook.dropped) if desk.mailbook else (0, 0)
    run.languages = seat_languages(desk.config, desk.gd)
    run.botted, run.unbotted = seats_to_bots(desk.config, bot_seats(desk.gd))
    changed = bool(run.clock and run.clock["changed"]) or bool(rekeyed) or bool(run.languages) or \
        bool(run.botted or run.unbotted) or _published_changed(desk, base)
    ci = {path: data for path, data in (ci or {}).items() if base.get(path) != blob_id(data)}
    run.ci_changed = bool(ci)
    with language.reading(engine.language_of(desk.gd)):  # the players' hooks: in the game's language
        added = compose.missing_files(base)
    run.added = sorted(added)
    # the table's talk the organiser said in the game directory (`pbem say`) is published too, views unchanged
    talked = _published_changed(desk, base, (TALK,) if desk.gd.has(TALK) else ())
    owed = bool(run.owed_sent or run.owed_dropped)  # what it did of the mails owed is recorded in referee.age
    if not decided and not changed and not ci and not added and not talked and not owed:
        run.mailed, run.warning = owed_mailed, _joined(owed_warning, desk.mailbook and desk.mailbook.owed_line())
        return run
    status = engine.status(desk.gd)
    run.move_number, run.finished = status["move_number"], status["finished"]
    views_written = changed or any(v.kind == "accepted" for v in run.verdicts)
    with language.reading(engine.language_of(desk.gd)):  # the files every player reads: in the game's language
        written = compose.refereed_files(repo, desk, last, run, views=views_written)
        message = compose.message(compose.summary(run, desk.gd.meta["game"]), desk.gd.id, run.move_number, last)
    files = repo.write_blobs({**written, **ci, **added}, base)
    files.update({v.path: v.blob for v in run.verdicts if v.kind in KEPT})
    # the legal moves of a player no longer to act go (only the player to act has a file of them), and a seat given
    # to a bot keeps no view file: what its former player read stays in the history, nothing newer is published
    stale = [path for path in base if path.startswith("views/") and path not in files] if views_written else []
    if desk.committed:  # its mails first: the archive carries what went and what is owed (pbem.git.cimail)
        run.mailed, run.warning = mails.send(desk, run, mailer, views=views_written)
        others = {**{p: b for p, b in base.items() if p != layout.ARCHIVE and p not in stale}, **files}
        files[layout.ARCHIVE] = repo.write_blob(desk.archive(tip, others))
    new_tree = repo.build_tree(last, files, removed=stale)
    commit = repo.commit_tree(new_tree, [tip], message, desk.signing_key)
    desk.save(commit)  # recorded first: a run stopped before the branch moves places the commit next time
    repo.run("reset", "--hard", "--quiet", "--no-recurse-submodules", commit)  # the referee's own tree, judged
    run.commit = commit
    if not desk.committed:
        run.mailed, run.warning = mails.send(desk, run, mailer, views=views_written)
    run.mailed = list(dict.fromkeys(owed_mailed + run.mailed))
    run.warning = _joined(owed_warning, run.warning)
    return run


def _joined(*warnings: str | None) -> str | None:
    return "; ".join(filter(None, warnings)) or None


def seat_languages(config: dict, gd) -> dict[str, str]:
    """Write each seat's own language (secrets.yaml: chosen at `pbem git init`, by `pbem language`, by mail or by a
    language file) into pbem-git.yaml (`config`, changed in place), so that a player's `pbem git view` and `moves`
    answer in it on their machine: {seat: language} of the seats whose entry changed ("" for none now)."""
    chosen = {entry["name"]: entry.get("language") for entry in engine.load_secrets(gd)["players"]}
    changed = {}
    for seat in config["players"]:
        own = chosen.get(seat["name"])
        if seat.get("language") != own:
            if own:
                seat["language"] = own
            else:
                seat.pop("language", None)
            changed[seat["name"]] = own or ""
    return changed


def bot_seats(gd) -> dict[str, str]:
    """{seat: level} of the seats the referee's bots play now (`pbem git init --bot`, `pbem replace --bot`)."""
    return engine.load_state(gd).get("bots") or {}


def seats_to_bots(config: dict, bots: dict[str, str]) -> tuple[list[str], list[str]]:
    """Make each seat a bot plays `view: bot` with no key in pbem-git.yaml (`config`, changed in place), as a seat
    given to a bot at `pbem git init`: its view is then published to no one, and the key of whoever held it before
    neither opens a later file nor signs for it. A seat a player holds again (`pbem replace --by`) gets its view by
    mail until its key is registered (`--key`, in this run or a later one). The seats given to a bot, and those
    given back to a player."""
    to_bot, to_player = [], []
    for seat in config["players"]:
        if seat["name"] in bots and (seat["view"], seat["key"]) != ("bot", None):
            seat.update(key=None, view="bot")
            to_bot.append(seat["name"])
        elif seat["name"] not in bots and seat["view"] == "bot":
            seat["view"] = "mail"
            to_player.append(seat["name"])
    return to_bot, to_player


def _published_changed(desk: desks.Desk, base: dict[str, str], names=desks.PUBLIC_FILES) -> bool:
    """Do the game's public files differ from the last refereed commit's (the organiser changed the game in the
    referee's directory: a tick, a deadline, a seat handed on)? Compared by object name: nothing is written to git
    on a run that finds nothing to do."""
    return any(base.get(name) != blob_id((desk.gd.path / name).read_bytes()) for name in names)
