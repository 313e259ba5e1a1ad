"""A player's side: `pbem git move` (write, sign and commit a move file) and `pbem git view` (decrypt one's view).

Both read the game from the last commit the referee made (pbem.git.refereed), never from the working tree nor
from commits pushed since, which anyone may have written; a hidden choice is encrypted to the referee's key of
the game's first commit. Pushing stays the player's own `git push`.
"""
from __future__ import annotations

import os
from pathlib import Path

from .. import notation
from ..contract import PbemError, UsageError
from ..engine import engine
from ..messages import _, lazy, nlazy
from ..play import movefile, names, words
from ..store import validation, yamlio
from ..text import phrases
from . import judge, keys, layout
from .refereed import Refereed, last_refereed
from .replay import replay_onto
from .repo import Repo

DEFAULT_IDENTITIES = ("~/.ssh/id_ed25519", "~/.ssh/id_rsa")
PUSH_TRIES = 5
SIGNED_FILE, SIGNED_COMMIT = "file (HMAC)", "commit (SSH)"  # how a move is signed, as --format json says it


def whole_turn(name: str) -> str:
    """The hint to a player whose turn goes on after their move: the rest of it may go in one commit."""
    # TRANSLATORS: the command is typed as it is ({name}: the player's name; STEP: a step of their turn).
    return _("Your turn goes on after your last move. The rest of a turn can go in one commit, its steps in order "
             "with ';' between them: pbem git move --as {name} --text 'STEP; STEP; ...' --push", name=name)


def turn_goes_on(public: dict, player: str) -> bool:
    """Is `player` to act again right after a move of their own (a turn of several decisions, sent step by step)?"""
    recent = public.get("recent") or []
    return not public["finished"] and public["to_act"] == player and bool(recent) and recent[-1]["player"] == player


def game_at(repo: Repo, commit: str) -> engine.GameDir:
    """The game `commit` holds: its game.yaml, read from git's objects and checked against its schema."""
    meta = yamlio.loads(repo.show(commit, engine.GAME) or b"", f"{engine.GAME} of {commit[:10]}")
    if not isinstance(meta, dict) or meta.get("game") is None:
        raise PbemError(lazy("{path}: not a pbem game repository (no valid {file} in {commit})", path=str(repo.path),
                             file=engine.GAME, commit=commit[:10]))
    validation.check(meta["game"], "game.schema.json", meta, f"{engine.GAME} of {commit[:10]}")
    return engine.GameDir(repo.path, meta)


def published(repo: Repo, commit: str) -> tuple[engine.GameDir, dict, dict]:
    """The game as of `commit`: its description, its public status and pbem-git.yaml."""
    gd = game_at(repo, commit)
    public = yamlio.loads(repo.show(commit, engine.PUBLIC) or b"", engine.PUBLIC)
    validation.check(gd.meta["game"], "public.schema.json", public, engine.PUBLIC)
    config = layout.load("config", repo.show(commit, layout.CONFIG) or b"", layout.CONFIG)
    return gd, public, config


def refereed_clone(directory, given: str | None) -> tuple[Repo, Refereed]:
    """The clone and its last refereed commit; what is refused before the game is known is said in `given`
    (--language), else in English."""
    if given:
        from ..text import language
        language.use(language.check(given))
    repo = Repo(directory)
    return repo, last_refereed(repo, repo.head())


def speak(gd: engine.GameDir, config: dict, player: str, given: str | None = None) -> None:
    """Every message of a player's command in their language: `given` (--language), else the one the referee
    wrote for their seat in pbem-git.yaml (their own choice), else the game's (game.yaml)."""
    from ..text import language
    seat = next((p for p in config["players"] if p["name"] == player), {})
    language.use(language.check(given) if given else seat.get("language") or gd.meta.get("language", "en"))


def seated(gd: engine.GameDir, player: str) -> None:
    if player not in gd.players:
        raise PbemError(lazy("{player} does not play in {game} (players: {players})", player=repr(player), game=gd.id,
                             players=list(gd.players)))


def move(directory, player: str, texts: list[str] | None = None, source: bytes | None = None,
         secret: str | None = None, push: bool = False, identity_file=None, language: str | None = None) -> dict:
    """Write moves/NNNN-NAME.yaml for the current move (encrypted to the referee when it holds a hidden choice),
    signed with the player's secret or, without one, in a commit signed with the player's SSH key."""
    repo, refereed = refereed_clone(directory, language)
    gd, public, seats = published(repo, refereed.commit)
    speak(gd, seats, player, language)
    seated(gd, player)
    number = public["move_number"]
    if public["finished"]:
        raise PbemError(lazy("{game} is over; no more moves", game=gd.id))
    if source is not None:
        doc = movefile.parse(source, "the move file")
        if (doc["game"], doc["player"]) != (gd.id, player):
            raise PbemError(lazy("the move file is for {other} in {other_game}, not {player} in {game}",
                                 other=doc["player"], other_game=doc["game"], player=player, game=gd.id))
        if doc["move_number"] != number:
            raise PbemError(lazy("the move file answers move {answered}, the game is at move {number} (pull first: "
                                 "git pull)", answered=doc["move_number"], number=number))
        texts = doc["moves"]
    signing = commit_signing(repo, secret)
    resigning = len(texts) == 1 and engine.is_resign(texts[0])
    if not resigning and public["to_act"] != player:
        raise PbemError(lazy("it is {to_act}'s turn (move {number}), not {player}'s", to_act=public["to_act"],
                             number=number, player=player))
    notes = refereed.notes()
    if not resigning:  # the first step is for now: written as the log will record it (a card by its slot)
        texts = [names.spelled_text(gd.game, texts[0], public["view"]), *texts[1:]]
        check_first_step(gd, _legal_if_readable(repo, refereed.commit, seats, player, identity_file, notes), texts)
    relative, data, hidden = move_file(gd, refereed.config, number, player, texts, secret)
    commit_move(repo, relative, data, f"move {number} by {player}", signing)
    if push:
        push_move(repo, signing)
    return {"game": gd.id, "move_number": number, "player": player, "file": relative, "encrypted": hidden,
            "signed": SIGNED_COMMIT if signing else SIGNED_FILE, "commit": repo.head(), "pushed": push,
            "notes": notes, "whole_turn": len(texts) == 1 and turn_goes_on(public, player)}


def takeback(directory, player: str, word: str, secret: str | None = None, push: bool = False,
             language: str | None = None) -> dict:
    """Commit moves/NNNN-NAME.yaml holding a takeback's word (`takeback-request`, `-agree`, `-decline`) for the
    current move number, in the clear (it hides nothing), signed as a move is; the referee's run judges it.
    `language`: what the answer, and what is refused before the game is known, are said in."""
    repo, refereed = refereed_clone(directory, language)
    gd, public, seats = published(repo, refereed.commit)
    speak(gd, seats, player, language)
    seated(gd, player)
    signing = commit_signing(repo, secret)
    number = public["move_number"]
    doc = movefile.build(gd.id, number, player, [word], secret)
    relative = layout.move_path(number, player, False)
    commit_move(repo, relative, movefile.dumps(doc, "../schemas/move.schema.json"), f"{word} by {player}", signing)
    if push:
        push_move(repo, signing)
    return {"game": gd.id, "move_number": number, "player": player, "file": relative, "pushed": push,
            "commit": repo.head()}


def choose_language(directory, player: str, code: str, secret: str | None = None, push: bool = False) -> dict:
    """A player's choice of the language they read, as git carries it: moves/NNNN-NAME.language.yaml holding the
    one step `language CODE`, signed like a move (with their secret, or the commit with their SSH key) for the
    current move number, committed (and pushed). The referee records it as `pbem language` does."""
    from ..text import language
    repo, refereed = refereed_clone(directory, None)
    gd, public, seats = published(repo, refereed.commit)
    speak(gd, seats, player)
    seated(gd, player)
    code = language.check(code)
    language.use(code)  # the answer in the language chosen
    signing = commit_signing(repo, secret)
    number = public["move_number"]
    doc = movefile.build(gd.id, number, player, [f"{layout.LANGUAGE_STEP} {code}"], secret)
    relative = layout.language_path(number, player)
    commit_move(repo, relative, movefile.dumps(doc, "../schemas/move.schema.json"), f"language {code} for {player}",
                signing)
    if push:
        push_move(repo, signing)
    return {"game": gd.id, "player": player, "language": code, "file": relative, "commit": repo.head(),
            "pushed": push, "notes": refereed.notes()}


def chosen(answer: dict) -> str:
    """What `pbem git language` answers, in the language chosen."""
    from ..text.language import LANGUAGES
    name = LANGUAGES[answer["language"]][0]
    if answer["pushed"]:
        return _("Committed {path} and pushed it: once the referee has judged it, you read {language}.",
                 path=answer["file"], language=name)
    return _("Committed {path}: push it (git push); once the referee has judged it, you read {language}.",
             path=answer["file"], language=name)


def committed(answer: dict) -> str:
    """What `pbem git move` answers: the file committed, how it is signed, whether it is pushed."""
    how = _("signed with your secret") if answer["signed"] == SIGNED_FILE else _("in a commit signed with your SSH key")
    if answer["encrypted"]:
        done = _("Committed {path} (move {number}, encrypted to the referee, {signed}).", path=answer["file"],
                 number=answer["move_number"], signed=how)
    else:
        done = _("Committed {path} (move {number}, {signed}).", path=answer["file"], number=answer["move_number"],
                 signed=how)
    return done + " " + (_("Pushed.") if answer["pushed"] else _("Push it: git push"))


def takeback_committed(answer: dict, word: str) -> str:
    """What `pbem git takeback` answers: the file committed and what it asks or answers, whether it is pushed."""
    where = {"path": answer["file"], "number": answer["move_number"]}
    if word == engine.TAKEBACK_AGREE:
        done = _("Committed {path} (move {number}): you agree to the takeback asked.", **where)
    elif word == engine.TAKEBACK_DECLINE:
        done = _("Committed {path} (move {number}): you decline the takeback asked; the move stands.", **where)
    else:
        done = _("Committed {path} (move {number}): you ask to take back your last decision.", **where)
    return done + " " + (_("Pushed.") if answer["pushed"] else _("Push it: git push"))


def commit_signing(repo: Repo, secret: str | None) -> bool:
    """Is the commit to be signed with the player's SSH key (no secret given)? UsageError when neither is set up."""
    signing = _ssh_signing(repo) if secret is None else False
    if secret is None and not signing:
        # TRANSLATORS: the commands, options and variable names are typed as they are.
        raise UsageError(lazy("give your secret (PBEM_SECRET or --secret-file), or set up SSH commit signing (git "
                              "config gpg.format ssh; git config user.signingkey ~/.ssh/id_ed25519.pub) with the "
                              "key the organiser registered"))
    return signing


def move_file(gd: engine.GameDir, config: dict, number: int, player: str, texts: list[str],
              secret: str | None) -> tuple[str, str, bool]:
    """(path, content, encrypted) of the move file of `player` answering move `number`: the moves in canonical
    notation (so the file says exactly what the log will), HMAC-signed when a secret is given, encrypted to the
    referee (the recipient of `config`, the first commit's pbem-git.yaml) when one of them is a hidden choice or
    when it may hold steps for later (a queue is private until played, and only the referee can tell whether
    several steps go beyond the turn)."""
    texts = words.canonical_texts(gd.game, texts, gd.players)  # a move in a language's words: the notation's
    try:
        texts = judge.canonical_moves(gd, texts)
    except notation.NotationError as exc:
        raise PbemError(exc.message) from None
    doc = movefile.build(gd.id, number, player, texts, secret)
    text = movefile.dumps(doc, "../schemas/move.schema.json")
    movefile.parse(text, "the new move file")
    hidden = judge.hidden_choice(gd, doc["moves"]) or len(doc["moves"]) > 1
    relative = layout.move_path(number, player, hidden)
    return relative, keys.encrypt(text, [config["referee"]["recipient"]]) if hidden else text, hidden


def commit_move(repo: Repo, relative: str, data: str, message: str, signing: bool = False) -> None:
    """Commit exactly this one new file, byte for byte as written (whatever else is staged stays out of the
    commit). Made with git's plumbing, from the blob of `data`, never from the working tree: a `.gitattributes`
    pulled from a commit the referee has not judged yet (a filter, `working-tree-encoding`, `eol`) then neither
    changes the file nor runs anything, nor does a hook (the file passed the hooks' checks already)."""
    target = repo.path / relative
    if target.parent.is_symlink() or target.exists() or target.is_symlink():
        raise PbemError(lazy("{path} exists already: this move was written before (git status shows it)",
                             path=relative))
    target.parent.mkdir(exist_ok=True)
    target.write_text(data, encoding="utf-8")
    parent = repo.head()
    blob = repo.write_blob(data.encode("utf-8"))
    commit = repo.commit_tree(repo.build_tree(parent, {relative: blob}), [parent], message + "\n",
                              sign_as_configured=signing)
    repo.run("update-ref", "-m", f"pbem git move: {message}", "HEAD", commit, parent)
    repo.add_to_index(relative, blob)


def push_move(repo: Repo, signing: bool, tries: int = PUSH_TRIES) -> None:
    """Push the move commit to the branch's upstream; when someone pushed first (another player, the referee),
    put it on top of what they pushed and push again, as a player would by hand."""
    upstream = repo.run("rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{upstream}", check=False).strip()
    if not upstream or "/" not in upstream:
        raise PbemError(lazy("the move is committed, but this branch has no upstream to push to: git push -u origin "
                             "main"))
    remote = upstream.split("/", 1)[0]
    for _ in range(tries):
        done = repo.run_status("push", "--quiet", "--no-recurse-submodules", remote, "HEAD")
        if done.returncode == 0:
            return
        repo.run("fetch", "--quiet", "--no-recurse-submodules", remote)
        replay_onto(repo, repo.resolve("@{upstream}"), signing)
    raise PbemError(nlazy("the move is committed, but {upstream} kept moving while it was pushed ({count} try): git "
                          "pull --rebase && git push", "the move is committed, but {upstream} kept moving while it "
                          "was pushed ({count} tries): git pull --rebase && git push", tries, upstream=upstream,
                          count=tries))


def _ssh_signing(repo: Repo) -> bool:
    fmt = repo.run("config", "gpg.format", check=False).strip()
    key = repo.run("config", "user.signingkey", check=False).strip()
    return fmt == "ssh" and bool(key)


def view(directory, player: str, identity_file=None, language: str | None = None) -> tuple[dict, list[str]]:
    """The player's view as of the last refereed commit, decrypted with their private key; and notes (commits
    pushed since that the referee has not judged yet)."""
    repo, refereed = refereed_clone(directory, language)
    head = refereed.commit
    gd, _public, config = published(repo, head)
    speak(gd, config, player, language)
    seat = next((p for p in config["players"] if p["name"] == player), None)
    if seat is None:
        seated(gd, player)
    if seat["view"] == "bot":
        raise PbemError(layout.bot_seat(player))
    if seat["view"] != "encrypted":
        raise PbemError(lazy("{player} registered no key: their view comes by mail", player=player))
    relative = layout.view_blob_path(player)
    data = repo.show(head, relative)
    if data is None:
        raise PbemError(lazy("{path}: not in the last refereed commit {commit}", path=relative, commit=head[:10]))
    identity = keys.Identity.from_file(find_identity(identity_file))
    text = identity.decrypt(data, relative)
    doc = yamlio.loads(text, relative)
    validation.check(gd.meta["game"], "player.schema.json", doc, relative)
    if doc["player"] != player or doc["id"] != gd.id:
        raise PbemError(lazy("{path} holds the view of {other} in {other_game}, not {player}'s in {game}",
                             path=relative, other=doc["player"], other_game=doc["id"], player=player, game=gd.id))
    return _with_moves_since(repo, head, gd, doc), refereed.notes()


def _with_moves_since(repo: Repo, commit: str, gd: engine.GameDir, doc: dict) -> dict:
    """The view with the moves since the player's last move, from the public log of the same commit."""
    data = repo.show(commit, engine.LOG)
    if data is None or doc["finished"]:
        return doc
    log = yamlio.loads(data, engine.LOG)
    validation.check(gd.meta["game"], "log.schema.json", log, engine.LOG)
    return engine.since_own_move(doc, log["entries"] or [])


def legal_moves(directory, player: str, identity_file=None, language: str | None = None) -> tuple[dict, list[str]]:
    """What `pbem moves --as PLAYER` answers, from the last refereed commit: who must act and, when it is
    `player`, their legal moves with what each does, decrypted from views/PLAYER.moves.yaml.age with their key (the
    referee wrote them from the position; nobody else can read them). And notes, as `view` gives them."""
    repo, refereed = refereed_clone(directory, language)
    gd, public, config = published(repo, refereed.commit)
    speak(gd, config, player, language)
    seated(gd, player)
    answer = {"game": gd.id, "game_type": gd.meta["game"], "move_number": public["move_number"],
              "to_act": public["to_act"], "player": player, "decision": public["decision"],
              "due": (public.get("clock") or {}).get("due"), "moves": [], "choices": [],
              "whole_turn": turn_goes_on(public, player)}
    if public["finished"] or public["to_act"] != player:
        return answer, refereed.notes()
    doc = _legal_doc(repo, refereed.commit, config, player, identity_file)
    if (doc["game"], doc["player"], doc["move_number"]) != (gd.id, player, public["move_number"]):
        raise PbemError(lazy("{path} holds the moves of {other} at move {other_number} in {other_game}, not "
                             "{player}'s at move {number}", path=layout.legal_blob_path(player), other=doc["player"],
                             other_number=doc["move_number"], other_game=doc["game"], player=player,
                             number=public["move_number"]))
    return {**answer, "moves": doc["moves"], "choices": doc["choices"], "entries": doc["entries"]}, refereed.notes()


def _legal_doc(repo: Repo, commit: str, config: dict, player: str, identity_file) -> dict:
    seat = next(p for p in config["players"] if p["name"] == player)
    if seat["view"] == "bot":
        raise PbemError(layout.bot_seat(player))
    if seat["view"] != "encrypted":
        raise PbemError(lazy("{player} registered no key: their legal moves come by mail with their view",
                             player=player))
    relative = layout.legal_blob_path(player)
    data = repo.show(commit, relative)
    if data is None:
        raise PbemError(lazy("{path}: not in the last refereed commit {commit} (a game whose referee is an earlier "
                             "pbem: the legal moves are in the game's rules.md notation, `pbem games`)",
                             path=relative, commit=commit[:10]))
    identity = keys.Identity.from_file(find_identity(identity_file))
    return layout.load("moves", identity.decrypt(data, relative), relative)


def _legal_if_readable(repo: Repo, commit: str, config: dict, player: str, identity_file, notes: list[str]) -> dict:
    """The player's legal moves when their key is at hand to read them ({} otherwise: the referee judges)."""
    try:
        return _legal_doc(repo, commit, config, player, identity_file)
    except UsageError:
        return {}  # no key found: nothing to check against
    except PbemError as exc:
        notes.append(_("your move was not checked against your legal moves ({error})", error=exc.render()))
        return {}


def check_first_step(gd: engine.GameDir, legal: dict, texts: list[str]) -> None:
    """Refuse a turn whose first step is not one of the player's legal moves (the later steps depend on the
    first: the referee judges them), listing the legal moves with what each does."""
    if not legal.get("entries") or engine.is_resign(texts[0]):
        return
    try:
        first = gd.game.parse_move(texts[0])
    except notation.NotationError as exc:
        raise PbemError(exc.message) from None
    if not notation.is_legal(first, legal["entries"]):
        from ..text.report import game_text
        lines = "\n".join(phrases.legal_lines(legal["choices"], game_type=gd.meta["game"]))
        # TRANSLATORS: {step}: the move as the player wrote it; {decision}: what they are asked; {lines}: a list.
        raise PbemError(lazy("step 1 of your turn ({step}) is not legal now; nothing was committed. Your legal moves "
                             "(move {number}, {decision}):\n{lines}", step=repr(texts[0]), number=legal["move_number"],
                             decision=game_text(gd.meta["game"], legal["decision"]["description"]), lines=lines))


def find_identity(given=None) -> Path:
    """The private key to decrypt with: --identity, PBEM_IDENTITY, or the usual SSH key files."""
    if given:
        return Path(given)
    if os.environ.get("PBEM_IDENTITY"):
        return Path(os.environ["PBEM_IDENTITY"])
    for candidate in DEFAULT_IDENTITIES:
        path = Path(candidate).expanduser()
        if path.is_file():
            return path
    # TRANSLATORS: the option and the variable are typed as they are.
    raise UsageError(lazy("no private key found: give --identity KEYFILE (or PBEM_IDENTITY)"))
