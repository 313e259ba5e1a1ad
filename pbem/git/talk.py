"""Table talk by git: a player's message is a signed file they commit and push, judged by the referee like a move.

    moves/NNNN-NAME.talk-K.yaml       a message to the table, in the clear (the referee publishes it in talk.yaml
                                      and in its commit's message)
    moves/NNNN-NAME.talk-K.yaml.age   a message to one player, encrypted to the sender's key, the addressee's and
                                      the referee's

NNNN is the move number the game was at, K counts the player's messages at that number (1, 2, ...). The file is
signed as a move is (the player's secret, or a commit signed with their registered SSH key); the signature covers
K, the addressee and the text's digest, so a copy under another name is refused. The referee judges it like a move
(pbem.git.judge) and keeps it with pbem.clock.talk, whose limits are those of every transport: the organiser's
choice (all talk, the table only, none), the length, the day's count, what a reader must not be shown.

A private message is committed only in its sender's encrypted file. The referee is one of its recipients because it
must read the file to judge it (who signed it, for whom, whether the game allows it, the day's count): the blob
stays in the history once pushed, so a copy the referee wrote for the two players alone would protect nothing more.
The referee writes it nowhere else in the repository (its own record is referee/talk.yaml, outside it or in
referee.age); a player without a key of their own gets the message by mail. Talk is no move: it changes no
position, and `pbem git verify` replays the moves only (a talk file is only ever added, like a move file).
"""
from __future__ import annotations

import datetime

from ..clock import talk as talking
from ..contract import PbemError, UsageError
from ..digests import same, sha256
from ..engine import engine
from ..messages import _, lazy
from ..play import trust
from ..store import validation, yamlio
from ..store.gamedir import TALK
from . import keys, layout
from .refereed import last_refereed
from .repo import Repo

FORMAT = "pbem-git-talk/1"
MAX_SEQUENCE = 9999  # a player's messages at one move number (the day's limit comes first)


def step(sequence: int, to: str | None, text: str) -> str:
    """What a talk file's signature covers besides the game, the move number and the player: which of the player's
    messages at that number it is, to whom, and the text's digest."""
    return f"talk {sequence} {'to ' + to if to else 'table'} sha256:{sha256(text.encode('utf-8')).hexdigest()}"


def talk_doc(game_id: str, number: int, player: str, sequence: int, to: str | None, text: str,
             secret: str | None) -> dict:
    """A talk file's content, signed with `secret` when one is given (else the commit is signed)."""
    doc = {"format": FORMAT, "game": game_id, "move_number": number, "player": player, "to": to, "text": text}
    if secret:
        doc["signature"] = trust.sign(secret, game_id, number, player, [step(sequence, to, text)])
    return doc


def recipients(config: dict, referee: str, player: str, to: str) -> list[str]:
    """The keys a private message is encrypted to: the sender's and the addressee's (those who registered one) and
    the referee's (`referee`: the first commit's), which must read it to judge it."""
    registered = {seat["name"]: seat["key"] for seat in config["players"] if seat["key"]}
    return [registered[name] for name in (player, to) if name in registered] + [referee]


def used(repo: Repo, commit: str, number: int, player: str) -> set[int]:
    """The K of every talk file of `player` at move `number` that a commit of `commit`'s history added, kept or
    refused: a K serves once, so a refused message pushed again (the day's limit passed, talk turned on again) is
    refused again, never delivered late."""
    out = repo.run("log", "--no-renames", "--diff-filter=A", "--name-only", "--format=", commit, "--",
                   f"{layout.MOVES}/{number:04d}-{player}.talk-*")
    return {int(named.group("talk")) for named in map(layout.move_name, out.splitlines())
            if named and named.group("talk") and named.group("player") == player}


def next_sequence(repo: Repo, commit: str, number: int, player: str) -> int:
    """The first K of `player` at move `number` that no commit of `commit`'s history used."""
    taken = used(repo, commit, number, player)
    for sequence in range(1, MAX_SEQUENCE + 1):
        if sequence not in taken:
            return sequence
    raise PbemError(lazy("you sent {count} messages at move {number}, the most a file name can count: wait for the "
                         "next move", count=MAX_SEQUENCE, number=number))


def say(directory, player: str, text: str, to: str | None = None, secret: str | None = None,
        push: bool = False) -> dict:
    """`pbem git say`: write, sign and commit the player's message (to the table, or encrypted to one player), and
    push it when asked. What the referee will refuse for the text itself (too long, empty) is refused here first."""
    from .player import commit_move, commit_signing, published, push_move, seated, speak
    repo = Repo(directory)
    refereed = last_refereed(repo, repo.head())
    gd, public, seats = published(repo, refereed.commit)
    speak(gd, seats, player)
    seated(gd, player)
    if to is not None:
        to = to.lower()
        if to == player or to not in gd.players:
            raise PbemError(lazy("{to} is not another player of this game: a private message goes to one of "
                                 "{players}.", to=to, players=", ".join(p for p in gd.players if p != player)))
    message, removed = talking.cleaned(text)
    signed_commit = commit_signing(repo, secret)
    number = public["move_number"]
    sequence = next_sequence(repo, repo.head(), number, player)  # (the refereed commit is in its history)
    content = yamlio.dumps(talk_doc(gd.id, number, player, sequence, to, message, secret))
    if to is not None:
        content = keys.encrypt(content, recipients(seats, refereed.referee_recipient, player, to))
    relative = layout.talk_path(number, player, sequence, to is not None)
    commit_move(repo, relative, content, f"talk by {player} (move {number})", signed_commit)
    if push:
        push_move(repo, signed_commit)
    return {"game": gd.id, "move_number": number, "player": player, "to": to, "file": relative,
            "removed": removed, "commit": repo.head(), "pushed": push, "notes": refereed.notes()}


def committed(answer: dict) -> str:
    """What `pbem git say` answers: the file committed, who will read it, whether it is pushed."""
    from ..text import talktext
    if answer["to"] is None:
        done = _("Committed {path}: your message to the table. Once the referee has judged it, it is in talk.yaml "
                 "and in the referee's commit.", path=answer["file"])
    else:
        done = _("Committed {path}: your message to {to} only, encrypted so that only you, {to} and the referee "
                 "can read it.", path=answer["file"], to=answer["to"])
    parts = [done + " " + (_("Pushed.") if answer["pushed"] else _("Push it: git push"))]
    if answer["removed"]:
        parts.append(talktext.cleaned_note(answer["removed"]))
    return "\n".join(parts)


# ---------------------------------------------------------------- the referee's side


def judged(gd: engine.GameDir, path: str, named, data: bytes, encrypted: bool, signed_commit, now=None,
           used_before: set[int] = frozenset()) -> dict:
    """A pushed talk file (`named`: its name's parts; `data`: its text, decrypted) checked and kept: the message as
    pbem.clock.talk recorded it, with its `source` (the file's path). PbemError, with a reason safe to publish
    (never the words of a private message), when it is not the player's message or cannot be said.
    `signed_commit()`: is its commit signed with the player's registered SSH key? `used_before`: the K that earlier
    commits used (`used`)."""
    if int(named.group("talk")) in used_before:
        raise PbemError(lazy("a file of this name was judged before: a message is sent once (`pbem git say` "
                             "names a new one)"))
    try:
        doc = layout.load("talk", data, path)
    except PbemError as exc:
        if encrypted:  # a schema's error can quote the text
            raise PbemError(lazy("not a talk file as `pbem git say` writes it")) from None
        raise PbemError(exc.message or str(exc)) from None
    number, player, sequence = int(named.group("number")), named.group("player"), int(named.group("talk"))
    if doc["game"] != gd.id:
        raise PbemError(lazy("the message is for game {other}, this is {game}", other=repr(doc["game"]),
                             game=repr(gd.id)))
    if (doc["player"], doc["move_number"]) != (player, number):
        raise PbemError(lazy("the file says move {number} of {player}; its name must say the same",
                             number=doc["move_number"], player=doc["player"]))
    if (doc["to"] is not None) != encrypted:
        raise PbemError(lazy("a message to one player is encrypted (.yaml.age), a message to the table is not: "
                             "`pbem git say` writes each so"))
    if number > engine.status(gd)["move_number"]:
        raise PbemError(lazy("made for move {number}, which the game has not reached", number=number))
    if doc.get("signature"):
        secret = next(p["secret"] for p in engine.roster(gd) if p["name"] == player)
        expected = trust.sign(secret, gd.id, number, player, [step(sequence, doc["to"], doc["text"])])
        if not same(expected, doc["signature"]):
            raise PbemError(lazy("bad signature: this message was not signed with {player}'s secret for this game, "
                                 "this move number and this file name (`pbem git say` signs it)", player=player))
    elif not signed_commit():
        raise PbemError(lazy("not signed: sign the file with your secret (`pbem git say` does) or sign the commit "
                             "with your registered SSH key"))
    # kept once, by its file's name, which also names its mails (the same Message-IDs when a run is made again)
    return {**talking.say(gd, player, doc["text"], doc["to"], now, source=path), "source": path}


def commit_lines(kept: list[dict]) -> list[str]:
    """The talk a refereed commit records, in its message: each message to the table in full, a private one only
    as sent (its words and its addressee are for the two players)."""
    from ..text import talktext
    lines = []
    for message in kept:
        if message["to"] is None:
            lines += talktext.message_lines(message)
        else:
            lines.append(_("{player} sent a private message (move {number}).", player=message["from"],
                           number=message["move_number"]))
    return lines


# ---------------------------------------------------------------- a player reading


def heard(directory, player: str, identity_file=None, language: str | None = None) -> tuple[dict, list[str]]:
    """`pbem git talk`: the table's messages (talk.yaml of the last refereed commit) and the private messages the
    player's key opens (sent or received), oldest first; and notes, as `pbem git view` gives them."""
    from .player import find_identity, published, refereed_clone, seated, speak
    repo, refereed = refereed_clone(directory, language)
    gd, _public, config = published(repo, refereed.commit)
    speak(gd, config, player, language)
    seated(gd, player)
    messages = table(repo, refereed.commit, gd)
    seat = next(p for p in config["players"] if p["name"] == player)
    identity = None
    if seat["key"]:
        try:
            identity = keys.Identity.from_file(find_identity(identity_file))
        except UsageError:
            identity = None  # no key at hand: the table's talk only, and a note
        if identity is not None:
            messages += private(repo, refereed.commit, player, identity)
    notes = refereed.notes()
    if seat["key"] and identity is None:
        notes.append(_("no private key found (--identity): your private messages are not shown"))
    messages.sort(key=lambda m: (m["at"], m["move_number"]))
    return {"game": gd.id, "talk": None, "messages": messages}, notes


def table(repo: Repo, commit: str, gd: engine.GameDir) -> list[dict]:
    """The messages to the table a refereed commit publishes (talk.yaml; none before the first)."""
    data = repo.show(commit, TALK)
    if data is None:
        return []
    doc = yamlio.loads(data, TALK)
    validation.check(gd.meta["game"], talking.SCHEMA, doc, TALK)
    return [m for m in doc["messages"] if m["to"] is None]


def private(repo: Repo, commit: str, player: str, identity: keys.Identity) -> list[dict]:
    """The private messages of a refereed commit's tree that `identity` opens and that `player` sent or received;
    each at the time of the commit that added it."""
    found = []
    added = _added_at(repo, commit)
    for path, (_mode, blob) in repo.tree(commit).items():
        named = layout.move_name(path)
        if not (named and named.group("talk") and named.group("age")):
            continue
        try:
            doc = layout.load("talk", identity.decrypt(repo.blob(blob, path), path), path)
            text = talking.cleaned(doc["text"])[0]  # as the referee kept it
        except PbemError:
            continue  # not to this key
        if player in (doc["player"], doc["to"]):
            found.append({"at": added.get(path) or added[""], "from": doc["player"], "to": doc["to"],
                          "move_number": doc["move_number"], "text": text})
    return found


def _added_at(repo: Repo, commit: str) -> dict[str, str]:
    """{path: the time of the newest commit in `commit`'s history that added it} for the talk files, in one git
    log (the commit time of the sender's own commit: when they said it)."""
    from ..text import times
    out = repo.run("log", "--no-renames", "--diff-filter=A", "--name-only", "--format=@%ct", commit, "--",
                   layout.MOVES)
    found, when = {"": _commit_time(repo, commit)}, None
    for line in out.splitlines():
        if line.startswith("@"):
            when = times.iso(datetime.datetime.fromtimestamp(int(line[1:]), datetime.timezone.utc))
        elif line and when:
            found.setdefault(line, when)
    return found


def _commit_time(repo: Repo, commit: str) -> str:
    from ..text import times
    stamp = int(repo.run("log", "-1", "--format=%ct", commit, "--").strip())
    return times.iso(datetime.datetime.fromtimestamp(stamp, datetime.timezone.utc))
