"""`pbem git init`: a new game in a new repository (or an empty clone), its files committed as the first refereed
commit, and the referee's side of it: a game directory and record on the referee's machine, or (a referee in CI)
the referee's files committed encrypted to the CI's key.
"""
from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from ..clock import correspondence
from ..contract import PbemError, UsageError
from ..engine import engine
from ..messages import _, joined
from ..text.language import reading
from . import compose, keys, layout
from . import desk as desks
from .branches import current_branch
from .repo import Repo


def init(game_type: str, directory, players: list[tuple[str, str | None]], player_keys: dict[str, str], *,
         seed: str | None = None, options: dict | None = None, components=None, organiser: str | None = None,
         referee_root=None, ci_identity=None, branch: str | None = None, deadlines: dict | None = None,
         now=None, pbem_source: str | None = None, language: str | None = None,
         languages: dict[str, str] | None = None, bots: dict[str, str] | None = None,
         club_settings: tuple = (None, None)) -> dict:
    """A new game in a new repository DIR (or an empty clone): the game's files, committed as the first commit.
    `pbem_source`: what the CI files install pbem from (a pip requirement); `language`: the game's, `languages`:
    players' own (pbem.text.language's codes); `bots`: {seat: level} of the seats the referee's bots play;
    `club_settings`: who may watch, what talk it allows."""
    directory = Path(directory)
    game_id = directory.name
    _check_new_directory(directory)
    entries = _seats(players, player_keys, languages or {}, bots or {})
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
        branch = branch or current_branch(repo) or "main"
        game_dir.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        created = correspondence.create(game_type, game_dir, players, seed=seed, options=options,
                                        components_path=components, organiser=organiser, deadlines=deadlines,
                                        now=now, language=language, languages=languages, bots=bots,
                                        club_settings=club_settings)
        record = {"format": "pbem-git-record/1", "id": game_id, "root": "0" * 40, "chain": [], "pushed": None,
                  "identity": None if scratch else identity.text, "signing_key": None if scratch else signing_key}
        desk = desks.Desk(engine.open_game(game_dir), config, record, identity, committed=scratch is not None,
                          scratch=scratch)
        with reading(engine.language_of(desk.gd)):  # what every player reads: in the game's language
            files = {**desk.public_files(), **_fixed_files(config, branch, pbem_source),
                     **compose.picture_files(desk),
                     layout.REFUSED: layout.dump("refused", layout.refused_doc(game_id, []), layout.REFUSED).encode()}
            message = compose.message(first_lines(desk.gd, [p["name"] for p in entries], created), game_id,
                                      created["move_number"], None)
        blobs = repo.write_blobs(files)
        if desk.committed:
            blobs[layout.ARCHIVE] = repo.write_blob(desk.archive(None, blobs))
        commit = repo.commit_tree(repo.build_tree(None, blobs), [], message, desk.signing_key)
        repo.run("update-ref", f"refs/heads/{branch}", commit)
        repo.run("symbolic-ref", "HEAD", f"refs/heads/{branch}")
        repo.run("reset", "--hard", "--quiet", "--no-recurse-submodules", commit)
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


def first_lines(gd: engine.GameDir, players: list[str], created: dict) -> list[str]:
    """The message of a game's first commit, in the language being read: the game, its players and the moves the
    referee played at once (`created`: what the engine answered; a bot's seat that moves first, a forced move)."""
    from ..text.report import game_text
    # TRANSLATORS: {title}: the game's title (Coal Baron); {game}: the game's id, a name the organiser chose.
    return [compose.title([_("new game {game} of {title}", game=gd.id,
                             title=game_text(gd.meta["game"], gd.game.title))]),
            _("Players: {players}. Move {number} is next.", players=joined(players), number=created["move_number"]),
            *[compose.move_line(entry, gd.meta["game"]) for entry in created["referee_moves"]]]


def _seats(players: list[tuple[str, str | None]], player_keys: dict[str, str], languages: dict[str, str],
           bots: dict[str, str]) -> list[dict]:
    """Each player's entry of pbem-git.yaml: their key, how their view reaches them, their own language if they
    chose one (what `pbem git view` and `moves` answer them in, on their machine). A bot's seat has no key and its
    view goes nowhere: the referee plays it from the view it keeps."""
    names = [name for name, _email in players]
    unknown = sorted(set(player_keys) - set(names))
    if unknown:
        raise UsageError(f"--key for {', '.join(unknown)}, who does not play")
    entries = []
    for name, email in players:
        key = player_keys.get(name)
        if name in bots:
            if key is not None or email is not None:
                raise UsageError(f"{name}'s seat is a bot's (--bot {name}=...): it takes no key and no address, "
                                 f"since its view is never published")
            entries.append({"name": name, "key": None, "view": "bot"})
            continue
        if key is None and email is None:
            raise UsageError(f"player {name} has neither a key (--key {name}=FILE) nor an email address: their "
                             f"private view could reach them neither encrypted nor by mail")
        entries.append({"name": name, "key": key, "view": "encrypted" if key else "mail",
                        **({"language": languages[name]} if languages.get(name) else {})})
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
             **compose.hook_files(),
             **{path: text.encode() for path, text in layout.schema_copies().items()}}
    return {**files, **compose.ci_files(config, branch, pbem_source)}
