"""Helpers of the git tests: a club with a bare remote, one clone per player and a referee clone, real `git` and
`ssh-keygen`, every command through the CLI (in-process, exit codes as the console script gives them)."""
from __future__ import annotations

import copy
import shutil
import subprocess
from pathlib import Path

import pytest

from pbem.engine import engine
from pbem.git.player import commit_move, move_file, published
from pbem.git.repo import Repo
from pbem.play import movefile, playout
from pbem.store import registry
from support import NAMES, Pbem


def git(where: Path, *args, check: bool = True, input: bytes | None = None) -> str:
    done = subprocess.run(["git", "-C", str(where), *map(str, args)], capture_output=True, input=input)
    if check and done.returncode != 0:
        raise AssertionError(f"git {' '.join(map(str, args))} failed: {done.stderr.decode()}")
    return done.stdout.decode()


def ssh_key(directory: Path, name: str, kind: str = "ed25519") -> Path:
    """A new unprotected SSH key pair; returns the private key's path (the public one is beside it, .pub)."""
    path = directory / f"{name}_{kind}"
    if not path.exists():
        args = ["-b", "2048"] if kind == "rsa" else []
        subprocess.run(["ssh-keygen", "-q", "-t", kind, *args, "-N", "", "-C", f"{name}@club", "-f", str(path)],
                       check=True, capture_output=True)
    return path


class Club:
    """A game played by git: the remote, the referee's clone (where the game was created) and players' clones."""

    def __init__(self, root: Path, game_type: str, players: int = 3, *, seed: str = "club", ci: bool = False,
                 keyless: tuple[str, ...] = (), ssh_signing: tuple[str, ...] = (), options: tuple[str, ...] = (),
                 game_id: str = "club-game", deadline: tuple[str, ...] = (), addresses: tuple[str, ...] = (),
                 init_args: tuple[str, ...] = (), bots: tuple[str, ...] = ()):
        self.root, self.pbem = root, Pbem()
        self.names = NAMES[:players]
        self.keys_dir = root / "keys"
        self.keys_dir.mkdir()
        seated = {spec.partition("=")[0] for spec in bots}  # (bots: `bob=greedy`, seats the referee's bots play)
        self.keys = {name: ssh_key(self.keys_dir, name) for name in self.names if name not in (*keyless, *seated)}
        self.referee_dir = root / "referee-files"
        self.ci_identity = root / "ci-referee.key" if ci else None
        self.dir = root / game_id
        args = ["git", "init", game_type, self.dir, "--seed", seed, "--format", "json"]
        for name in self.names:
            args += ["--player", f"{name}:{name}@club.example" if name in keyless + addresses else name]
        for name, key in self.keys.items():
            args += ["--key", f"{name}={key}.pub"]
        for option in options:
            args += ["--option", option]
        for spec in bots:
            args += ["--bot", spec]
        if deadline:  # deadlines (tests/git/test_git_clock.py): the game starts at a fixed time
            args += [*deadline, "--now", "2025-12-01T12:00:00Z"]
        args += ["--ci-identity", self.ci_identity] if ci else ["--referee-dir", self.referee_dir]
        result = self.pbem(*args, *init_args)  # (init_args: --language fr, --player-language bob=zh-Hant)
        assert result.code == 0, result.err
        self.created = result.json()
        self.secrets = {p["name"]: p["secret"] for p in self.created["players"]}
        self.secret_files = {}
        for name, secret in self.secrets.items():
            self.secret_files[name] = root / f"{name}.secret"
            self.secret_files[name].write_text(secret + "\n")
        self.remote = root / "remote.git"
        git(root, "init", "--quiet", "--bare", "-b", "main", self.remote)
        git(self.dir, "remote", "add", "origin", self.remote)
        git(self.dir, "push", "--quiet", "-u", "origin", "main")
        self.clones, self.ssh_signing = {}, set(ssh_signing)
        for name in [name for name in self.names if name not in seated]:
            self.clones[name] = root / "clones" / name
            git(root, "clone", "--quiet", self.remote, self.clones[name])
            if name in ssh_signing:
                self.sign_commits(name)

    def copy_to(self, root: Path) -> "Club":
        """The same club, copied into `root` (a new game costs seconds; a copy a fraction): its remote, clones,
        keys and the referee's files, with the clones pointing at the copied remote."""
        shutil.copytree(self.root, root, symlinks=True)
        twin = copy.copy(self)
        twin.root, twin.pbem = root, Pbem()

        def moved(path):
            return root / Path(path).relative_to(self.root) if path is not None else None
        for attribute in ("keys_dir", "referee_dir", "ci_identity", "dir", "remote"):
            setattr(twin, attribute, moved(getattr(self, attribute)))
        twin.keys = {name: moved(path) for name, path in self.keys.items()}
        twin.secret_files = {name: moved(path) for name, path in self.secret_files.items()}
        twin.clones = {name: moved(path) for name, path in self.clones.items()}
        for clone in [twin.dir, *twin.clones.values()]:
            git(clone, "remote", "set-url", "origin", twin.remote)
        for name in twin.ssh_signing:
            twin.sign_commits(name)
        return twin

    def sign_commits(self, name: str) -> None:
        clone = self.clones[name]
        git(clone, "config", "gpg.format", "ssh")
        git(clone, "config", "user.signingkey", f"{self.keys[name]}.pub")

    # ------------------------------------------------------------ the referee

    def referee_args(self) -> list:
        if self.ci_identity is not None:
            return ["--identity", self.ci_identity]
        return ["--referee-dir", self.referee_dir]

    def referee(self, *extra):
        result = self.pbem("git", "referee", self.dir, *self.referee_args(), "--remote", "origin", "--format", "json",
                           *extra)
        assert result.code == 0, result.err
        return result.json()

    def game_dir(self) -> Path:
        return self.referee_dir / self.dir.name

    def state(self) -> dict:
        """The referee's state (the local referee's files; the tests use it as the bots' eyes)."""
        return engine.load_state(engine.open_game(self.game_dir()))

    # ------------------------------------------------------------ players

    def pull(self, name: str) -> None:
        git(self.clones[name], "pull", "--quiet", "--rebase")

    def move(self, name: str, text: str, *, pull: bool = True, push: bool = True):
        """`pbem git move` in the player's clone: signed with the secret, or (SSH signers) in a signed commit."""
        if pull:
            self.pull(name)
        args = ["git", "move", self.clones[name], "--as", name, "--text", text, "--format", "json"]
        if name not in self.ssh_signing:
            args += ["--secret-file", self.secret_files[name]]
        result = self.pbem(*args)
        if result.code == 0 and push:
            git(self.clones[name], "push", "--quiet")
        return result

    def commit_file(self, name: str, relative: str, data: bytes | str, message: str = "a move", *,
                    push: bool = True, pull: bool = True) -> str:
        """A player commits any file by hand (attacks and hand-written moves)."""
        clone = self.clones[name]
        if pull:
            self.pull(name)
        target = clone / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data.encode() if isinstance(data, str) else data)
        git(clone, "add", "--", relative)
        git(clone, "commit", "--quiet", "-m", message)
        if push:
            git(clone, "push", "--quiet")
        return git(clone, "rev-parse", "HEAD").strip()

    def signed_move_text(self, name: str, number: int, moves: list[str], secret_of: str | None = None) -> str:
        doc = movefile.build(self.dir.name, number, name, moves, self.secrets[secret_of or name])
        return movefile.dumps(doc, "../schemas/move.schema.json")

    def play(self, plan: list[tuple[int, str, list[str]]], referee_every: int = 12, after_run=None) -> int:
        """Play planned submissions through the clones: the first after each referee run through `pbem git move`,
        the others written ahead as a player may (signed, encrypted if hidden) and committed; a player pushes
        before another moves; the referee runs after every `referee_every` submissions and at the
        end. Returns how many the referee accepted."""
        accepted, previous, current = 0, None, True
        gd, _, config = published(Repo(self.dir), "HEAD")
        for index, (number, player, moves) in enumerate(plan, 1):
            if player != previous:
                if previous is not None:
                    git(self.clones[previous], "push", "--quiet")
                self.pull(player)
            if current:
                result = self.move(player, "; ".join(moves), pull=False, push=False)
                assert result.code == 0, result.err
                assert result.json()["move_number"] == number
                current = False
            else:
                ssh = player in self.ssh_signing
                relative, data, _ = move_file(gd, config, number, player, moves, None if ssh else self.secrets[player])
                commit_move(Repo(self.clones[player]), relative, data, f"move {number} by {player}", signing=ssh)
            previous = player
            if index % referee_every == 0 or index == len(plan):
                git(self.clones[player], "push", "--quiet")
                previous = None
                run = self.referee()
                refused = [c for c in run["commits"] if c["verdict"] == "refused"]
                assert not refused, refused
                accepted += sum(c["verdict"] == "accepted" for c in run["commits"])
                current = True
                if after_run is not None:
                    after_run(self)
        return accepted


def plan(game_type: str, players: list[str], seed: str, game_id: str, bot_seed: str = "bots",
         options: dict | None = None, limit: int | None = None) -> tuple[list[tuple[int, str, list[str]]], dict]:
    """A whole game by the random bot, in submissions as players send them (pbem.play.playout.turns)."""
    return playout.turns(registry.get(game_type), players, options, limit, seed=seed, bot_seed=bot_seed,
                         game_id=game_id)


def referee_killed_before_commit(game, monkeypatch, mailer=None, **options) -> None:
    """A referee run of `game` (a test club's game) that dies where it would commit: what it applied and kept is on
    disk, nothing is committed. A referee in CI (`ci=True`) commits for good when it pushes (its files travel in
    its commit): it dies there, after its mails (`mailer`: a transport) went, and the job's clone is gone with the
    commit it made: the referee's clone is left as the next job finds the remote. `options`: the referee's own
    (tick=True, now=...)."""
    from pbem.git import branches
    from pbem.git.keys import Identity
    from pbem.git.referee import referee

    def killed(*args, **kwargs):
        raise RuntimeError("killed")
    monkeypatch.setattr(*((branches, "push") if game.ci_identity else (Repo, "commit_tree")), killed)
    identity = Identity.from_file(game.ci_identity) if game.ci_identity else None
    with pytest.raises(RuntimeError):
        referee(game.dir, referee_root=game.referee_dir, identity=identity, remote="origin", mailer=mailer, **options)
    monkeypatch.undo()
    if game.ci_identity:
        git(game.dir, "reset", "--hard", "--quiet", "origin/main")
