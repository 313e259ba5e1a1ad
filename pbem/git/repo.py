"""The git commands pbem runs, through the real `git` binary, reading objects rather than the working tree.

The referee reads what a commit holds from git's objects (`cat-file`, `diff-tree`) and builds its own commits
with a private index (`GIT_INDEX_FILE`), so nothing a player put in the working tree (a symlink, a planted file)
is ever opened, and the working tree is only updated at the end to the tree the referee chose.
"""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tempfile
import weakref
from dataclasses import dataclass
from pathlib import Path

from ..contract import PbemError
from ..messages import lazy
from ..store.safefiles import limit_words, size_words

MAX_BLOB = 4 * 1024 * 1024
DEFAULT_NAME, DEFAULT_EMAIL = "pbem referee", "referee@pbem.invalid"
HASH = re.compile(r"^[0-9a-f]{40}([0-9a-f]{24})?$")
# Every git command pbem runs, whatever the user's configuration says: a pushed `.gitmodules` must never be read
# (an invalid entry there stops every command that recurses or looks up a submodule), nor a submodule fetched,
# nor a transport used that runs a command (ext::) or reads a local path a pushed URL names (file:, for a
# submodule; the user's own fetch and push still may).
SAFE = ("-c", "submodule.recurse=false", "-c", "fetch.recurseSubmodules=false", "-c", "push.recurseSubmodules=no",
        "-c", "protocol.ext.allow=never", "-c", "protocol.file.allow=user")
# what a diff reports of a gitlink without looking its submodule up in a `.gitmodules` (`=all` would hide it)
NO_SUBMODULE_LOOKUP = "--ignore-submodules=none"


def blob_id(data: bytes) -> str:
    """The object name git gives this content (SHA-1 repositories)."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


class GitError(PbemError):
    """A git command failed: its message, with what pbem was doing."""


class TooLarge(PbemError):
    """An object larger than pbem reads (it was skipped, not read)."""


@dataclass(frozen=True)
class Change:
    """One path a commit changed against its parent (`git diff-tree --raw`)."""

    status: str  # A added, M modified, D deleted, T type changed
    old_mode: str
    new_mode: str
    blob: str
    path: str


@dataclass(frozen=True)
class Commit:
    """What pbem reads of a commit object."""

    id: str
    parents: tuple[str, ...]
    author: str  # "Name <email>"
    signed: bool  # carries a signature (gpgsig); whose, `Repo.signature` says
    message: str

    @classmethod
    def parse(cls, commit: str, data: bytes) -> "Commit":
        head, _, body = data.partition(b"\n\n")
        parents, author, signed = [], "", False
        for line in head.split(b"\n"):
            if line.startswith(b"parent "):
                parents.append(line[7:].decode("ascii", "replace"))
            elif line.startswith(b"author "):
                author = re.sub(rb" [0-9]+ [-+][0-9]{4}$", b"", line[7:]).decode("utf-8", "replace")
            elif line.startswith(b"gpgsig"):
                signed = True
        return cls(commit, tuple(parents), author, signed, body.decode("utf-8", "replace"))

    def trailers(self) -> dict[str, str]:
        """The trailers of the message's last paragraph (`Key: value` lines), the first value of each key."""
        found = {}
        last = self.message.rstrip("\n").rpartition("\n\n")[2]
        for line in last.splitlines():
            key, sep, value = line.partition(":")
            if sep and re.fullmatch(r"[A-Za-z0-9-]+", key):
                found.setdefault(key, value.strip())
        return found


class Repo:
    def __init__(self, path, env: dict | None = None):
        self.path = Path(path)
        if shutil.which("git") is None:
            raise PbemError("git is not installed (play by git needs the git command)")
        self.env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", **(env or {})}
        self._batch = None
        self._committer: dict | None = None

    def run(self, *args, input: bytes | None = None, check: bool = True, env: dict | None = None) -> str:
        return self.run_bytes(*args, input=input, check=check, env=env).decode("utf-8", "replace")

    def run_bytes(self, *args, input: bytes | None = None, check: bool = True, env: dict | None = None) -> bytes:
        try:
            done = subprocess.run(self.argv(args), input=input, capture_output=True,
                                  env={**self.env, **(env or {})}, timeout=300)
        except subprocess.TimeoutExpired:
            raise GitError(f"git {args[0]} took more than 5 minutes") from None
        if check and done.returncode != 0:
            message = done.stderr.decode("utf-8", "replace").strip() or done.stdout.decode("utf-8", "replace")
            raise GitError(f"git {' '.join(args[:2])}: {message.strip()}")
        return done.stdout

    def run_status(self, *args) -> subprocess.CompletedProcess:
        """A git command whose failure is an answer (its code and output), not an error."""
        return subprocess.run(self.argv(args), capture_output=True, env=self.env, timeout=300)

    def ok(self, *args) -> bool:
        return subprocess.run(self.argv(args), capture_output=True, env=self.env).returncode == 0

    def argv(self, args) -> list[str]:
        """The command line of a git command in this repository, with pbem's safe settings (SAFE)."""
        return ["git", *SAFE, "-C", str(self.path), *args]

    # ------------------------------------------------------------ reading

    def is_repo(self) -> bool:
        return self.path.is_dir() and self.ok("rev-parse", "--git-dir")

    def git_dir(self) -> str:
        return self.run("rev-parse", "--absolute-git-dir").strip()

    def resolve(self, rev: str) -> str | None:
        out = self.run("rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}", check=False).strip()
        return out if HASH.match(out) else None

    def head(self) -> str:
        found = self.resolve("HEAD")
        if found is None:
            raise PbemError(lazy("{path}: the repository has no commit yet", path=str(self.path)))
        return found

    def parents(self, commit: str) -> list[str]:
        return self.run("rev-list", "--parents", "-n", "1", commit, "--").split()[1:]

    def trailers(self, commit: str) -> dict[str, str]:
        out = self.run("log", "-1", "--format=%(trailers:only,unfold)", commit, "--")
        found = {}
        for line in out.splitlines():
            key, sep, value = line.partition(":")
            if sep:
                found.setdefault(key.strip(), value.strip())
        return found

    def is_ancestor(self, older: str, newer: str) -> bool:
        return self.ok("merge-base", "--is-ancestor", older, newer)

    def new_commits(self, tip: str, since: str) -> list[str]:
        """Commits reachable from `tip` and not from `since`, oldest first (parents before children)."""
        return self.run("rev-list", "--reverse", "--topo-order", tip, f"^{since}", "--").split()

    def history(self, tip: str, grep: str | None = None, first_parent: bool = False) -> list[str]:
        """All commits reachable from `tip` (`first_parent`: through first parents only), newest first (children
        before parents)."""
        args = ["rev-list", "--topo-order", *(["--first-parent"] if first_parent else []), tip]
        args += ([f"--grep={grep}"] if grep else []) + ["--"]
        return self.run(*args).split()

    def roots(self, tip: str) -> list[str]:
        return self.run("rev-list", "--max-parents=0", tip, "--").split()

    def changes(self, parent: str, commit: str) -> list[Change]:
        out = self.run_bytes("diff-tree", NO_SUBMODULE_LOOKUP, "-r", "-z", "--no-renames", "--raw", "--no-commit-id",
                             parent, commit)
        fields = out.split(b"\0")
        return [_change(head, path) for head, path in zip(fields[0::2], fields[1::2])]

    def first_parent_changes(self, commits: list[str]) -> dict[str, list[Change]]:
        """{commit: what it changed against its first parent} for commits with one parent, in one `git
        diff-tree --stdin` however many there are (a push of thousands of commits is judged in seconds)."""
        return self.changes_since([(commit, None) for commit in commits])

    def changes_since(self, pairs: list[tuple[str, str | None]]) -> dict[str, list[Change]]:
        """{commit: what it changed against `since`} for (commit, since) pairs (`since` None: against its one
        parent), in one `git diff-tree --stdin` however many there are. Each commit is named once."""
        if not pairs:
            return {}
        lines = "".join(f"{commit} {since}\n" if since else f"{commit}\n" for commit, since in pairs)
        out = self.run_bytes("diff-tree", NO_SUBMODULE_LOOKUP, "--stdin", "-r", "-z", "--no-renames", "--raw",
                             "--always", input=lines.encode())
        found: dict[str, list[Change]] = {}
        fields, current, index = out.split(b"\0"), None, 0
        while index < len(fields):
            field = fields[index]
            if field.startswith(b":") and current is not None:  # a change: its path is the next field
                found[current].append(_change(field, fields[index + 1]))
                index += 2
                continue
            if field.strip():
                current = field.decode("ascii", "replace").strip()
                found[current] = []
            index += 1
        return found

    def tree(self, commit: str) -> dict[str, tuple[str, str]]:
        """{path: (mode, blob)} of every file in a commit."""
        out = self.run_bytes("ls-tree", "-r", "-z", "--full-tree", commit)
        listing = {}
        for item in out.split(b"\0"):
            if item:
                head, _, path = item.partition(b"\t")
                mode, kind, blob = head.decode().split()
                listing[path.decode("utf-8", "replace")] = (mode, blob)
        return listing

    def blob(self, blob: str, what: str, limit: int = MAX_BLOB) -> bytes:
        data = self._object(blob, what, limit)
        if data is None:
            raise PbemError(f"{what}: no such object {blob[:10]}")
        return data

    def show(self, commit: str, path: str, limit: int = MAX_BLOB) -> bytes | None:
        """A file's bytes in a commit, or None if the commit has no such file."""
        return self._object(f"{commit}:{path}", f"{path} in {commit[:10]}", limit)

    def _object(self, name: str, what: str, limit: int) -> bytes | None:
        kind, data = self._read(name, what, limit, ("blob",))
        return data

    def commit(self, commit: str) -> "Commit":
        """A commit's parents, author, whether it carries a signature, and its message (with trailers), read
        through the long-running `git cat-file --batch` (not a process a commit)."""
        _, data = self._read(commit, f"commit {commit[:10]}", MAX_BLOB, ("commit",))
        if data is None:
            raise GitError(f"no commit {commit[:10]}")
        return Commit.parse(commit, data)

    def _read(self, name: str, what: str, limit: int, kinds: tuple[str, ...]) -> tuple[str | None, bytes | None]:
        """(kind, bytes) of one object through a long-running `git cat-file --batch` (one process for all reads,
        not one a read); (None, None) when missing, (kind, None) when not of `kinds`. An object larger than
        `limit` is skipped unread (TooLarge)."""
        if "\n" in name:
            raise PbemError(f"{what}: a path with a line break")
        if self._batch is None:
            self._batch = subprocess.Popen(self.argv(["cat-file", "--batch"]), env=self.env,
                                           stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            weakref.finalize(self, _stop, self._batch)
        self._batch.stdin.write(name.encode("utf-8") + b"\n")
        self._batch.stdin.flush()
        header = self._batch.stdout.readline().decode("utf-8", "replace").split()
        if len(header) != 3:
            return None, None  # "<name> missing" (or ambiguous)
        _, kind, size = header
        if kind not in kinds or int(size) > limit:
            _skip(self._batch.stdout, int(size) + 1)  # never held in memory: a pushed blob may be huge
            if kind not in kinds:
                return kind, None
            raise TooLarge(f"{what}: too large: {size_words(int(size))}, more than the {limit_words(limit)} "
                           f"pbem reads")
        return kind, self._batch.stdout.read(int(size) + 1)[:-1]

    def signature(self, commit: str, allowed_signers: Path) -> tuple[str, str]:
        """(git's %G? letter, the signer's principal) of a commit checked against an allowed-signers file."""
        return self.signatures([commit], allowed_signers)[commit]

    def signatures(self, commits: list[str], allowed_signers: Path) -> dict[str, tuple[str, str]]:
        """{commit: (git's %G? letter, the signer's principal)} of commits checked against an allowed-signers
        file, in one `git log` however many there are."""
        if not commits:
            return {}
        out = self.run("-c", "gpg.format=ssh", "-c", f"gpg.ssh.allowedSignersFile={allowed_signers}", "log",
                       "--no-walk=unsorted", "--stdin", "--format=%H%x00%G?%x00%GS",
                       input="".join(f"{commit}\n" for commit in commits).encode())
        found = {}
        for line in out.splitlines():
            commit, _, rest = line.partition("\0")
            letter, _, signer = rest.partition("\0")
            found[commit] = (letter, signer)
        return found

    # ------------------------------------------------------------ writing

    def write_blob(self, data: bytes) -> str:
        return self.run("hash-object", "-w", "--stdin", input=data).strip()

    def write_blobs(self, files: dict[str, bytes], known: dict[str, str] | None = None) -> dict[str, str]:
        """{path: blob} of `files`, written in one `git hash-object` (not one process a file); a file whose
        content is already the blob `known` has at its path is not written again."""
        known = known or {}
        found = {path: blob_id(data) for path, data in files.items()}
        missing = [path for path in files if known.get(path) != found[path]]
        if missing:
            with tempfile.TemporaryDirectory(prefix="pbem-blobs-") as tmp:
                names = []
                for index, path in enumerate(missing):
                    name = Path(tmp) / str(index)
                    name.write_bytes(files[path])
                    names.append(str(name))
                written = self.run("hash-object", "-w", "--no-filters", "--stdin-paths",
                                   input=("\n".join(names) + "\n").encode()).split()
            if written != [found[path] for path in missing]:
                raise GitError("git hash-object wrote other objects than expected (a SHA-256 repository?)")
        return found

    def build_tree(self, base: str | None, files: dict[str, str], removed: list[str] = ()) -> str:
        """A tree: `base`'s tree with {path: blob} set (mode 100644) and `removed` paths taken out, built in a
        private index so neither the working tree nor the real index is touched."""
        with tempfile.TemporaryDirectory(prefix="pbem-index-") as tmp:
            env = {"GIT_INDEX_FILE": str(Path(tmp) / "index")}
            if base:
                self.run("read-tree", base, env=env)
            else:
                self.run("read-tree", "--empty", env=env)
            lines = [f"0 {'0' * 40}\t{path}" for path in removed]
            lines += [f"100644 {blob}\t{path}" for path, blob in sorted(files.items())]
            if lines:
                self.run("update-index", "--index-info", input=("\n".join(lines) + "\n").encode(), env=env)
            return self.run("write-tree", env=env).strip()

    def add_to_index(self, path: str, blob: str) -> None:
        """Put a file's blob in the index (so that `git status` agrees with a commit made with plumbing) without
        reading the working tree: writing the index re-reads every file written in the same second as the index
        was, through the filters of the working tree's `.gitattributes`; run in an empty directory given as the
        working tree, git finds nothing to read."""
        git_dir = self.git_dir()
        with tempfile.TemporaryDirectory(prefix="pbem-nothing-") as nothing:
            self.run("--git-dir", git_dir, "--work-tree", nothing, "-C", nothing, "update-index", "--add",
                     "--cacheinfo", f"100644,{blob},{path}")

    def commit_tree(self, tree: str, parents: list[str], message: str, signing_key: str | None = None,
                    sign_as_configured: bool = False) -> str:
        """A commit by the configured identity, or by `pbem referee` where none is configured; signed with the
        OpenSSH private key `signing_key` (git's SSH signatures) when one is given, or with the key git's
        configuration names (`sign_as_configured`: a player's own signing key)."""
        args = ["commit-tree", tree]
        for parent in parents:
            args += ["-p", parent]
        if signing_key is None:
            args += ["-S"] if sign_as_configured else []
            return self.run(*args, input=message.encode("utf-8"), env=self._identity()).strip()
        with tempfile.TemporaryDirectory(prefix="pbem-sign-") as tmp:
            key = Path(tmp) / "key"
            fd = os.open(key, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(signing_key)
            return self.run("-c", "gpg.format=ssh", "-c", f"user.signingkey={key}", *args, "-S",
                            input=message.encode("utf-8"), env=self._identity()).strip()

    def _identity(self) -> dict:
        if self._committer is None:
            configured = self.run("config", "--get-regexp", r"^user\.(name|email)$", check=False)
            keys = {line.split(" ", 1)[0] for line in configured.splitlines() if " " in line}
            self._committer = {}
            if "user.name" not in keys:
                self._committer.update(GIT_AUTHOR_NAME=DEFAULT_NAME, GIT_COMMITTER_NAME=DEFAULT_NAME)
            if "user.email" not in keys:
                self._committer.update(GIT_AUTHOR_EMAIL=DEFAULT_EMAIL, GIT_COMMITTER_EMAIL=DEFAULT_EMAIL)
        return self._committer


def _change(head: bytes, path: bytes) -> Change:
    old_mode, new_mode, _, blob, status = head.decode("ascii", "replace").lstrip(":").split()
    return Change(status[0], old_mode, new_mode, blob, path.decode("utf-8", "replace"))


def _skip(stream, count: int, chunk: int = 1 << 16) -> None:
    while count > 0:
        read = len(stream.read(min(chunk, count)))
        if not read:
            raise GitError("git cat-file stopped in the middle of an object")
        count -= read


def _stop(process: subprocess.Popen) -> None:
    try:
        process.stdin.close()
        process.wait(timeout=5)
    except (OSError, subprocess.TimeoutExpired):
        process.kill()
