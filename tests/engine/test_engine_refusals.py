"""Every refusal of a file names the file: whatever is planted where a game file goes (a FIFO, a folder, a link,
a loop, bytes that are not UTF-8, YAML that is not YAML, an alias, the wrong type, nothing, too much, no file),
every command, by the command line and by mail, either works or exits 2 naming that file: never a traceback,
never exit 3, never an answer that points elsewhere ("there is no game here").

The default suite tries each planted kind at each file with one command, in turn (each file meets every command);
PBEM_REFUSALS_ALL=1 (the benchmarks' reliability run) tries every command on every one."""
from __future__ import annotations

import email.policy
import email.utils
import os
import shutil
from email.message import EmailMessage
from pathlib import Path

import pytest

from pbem.clock import correspondence
from pbem.contract import PbemError
from pbem.engine import engine
from pbem.play import movefile
from pbem.store import locks, yamlio
from support import NAMES, Pbem, default_game, legal_turn

ALL = bool(os.environ.get("PBEM_REFUSALS_ALL"))
ORGANISER = "referee@club.example"
FILES = ["game.yaml", "components.yaml", "public.yaml", "log.yaml", "views/{player}.yaml", "referee/state.yaml",
         "referee/log.yaml", "referee/secrets.yaml", "referee/state.sha256", "referee/status.sha256",
         "referee/state.json", "referee/txn.key", "referee/notices.yaml", "schemas/public.schema.json",
         ".txn/COMMIT.json", locks.LOCK]


def plant(path: Path, kind: str, outside: Path) -> None:
    """Put `kind` where `path` is (whatever was there is gone)."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif path.exists() or path.is_symlink():
        path.unlink()
    path.parent.mkdir(parents=True, exist_ok=True)
    original = outside / "original"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    elif kind == "link":
        os.symlink(outside / "target.txt", path)
    elif kind == "loop":
        os.symlink(path.name, path)
    elif kind == "dangling":
        os.symlink(outside / "nowhere", path)
    elif kind == "missing":
        pass
    else:
        data = {"not utf-8": b"\xff\xfe\x00garbage\n", "not yaml": b"a: [\n  - b\n", "alias": None,
                "wrong type": b"- 1\n- 2\n", "empty": b"", "huge": b"#" * (yamlio.MAX_BYTES + 10)}[kind]
        if data is None:  # what was there, with an anchor and an alias added
            data = (original.read_bytes() if original.exists() else b"a: 1\n") + b"zz: &x [1]\nzy: *x\n"
        path.write_bytes(data)


KINDS = ["fifo", "folder", "link", "loop", "dangling", "missing", "not utf-8", "not yaml", "alias", "wrong type",
         "empty", "huge"]


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    """A game three moves in, with addresses; a move file signed by the player to act; its secrets."""
    game = default_game()
    base = tmp_path_factory.mktemp("refusals")
    directory = base / "games" / "g1"
    made = correspondence.create(game.id, directory, [(n, f"{n}@players.example") for n in NAMES[:game.min_players]],
                         seed="refusals", organiser=ORGANISER)
    for _ in range(3):
        player, text, _ = legal_turn(directory)
        engine.submit(engine.open_game(directory), player, [text], by="referee")
    secrets = {p["name"]: p["secret"] for p in made["players"]}
    player, text, number = legal_turn(directory)
    signed = base / "signed.yaml"
    signed.write_text(yamlio.dumps(movefile.sign({"game": "g1", "move_number": number, "player": player,
                                                  "moves": [text]}, secrets[player])))
    return directory, secrets, (player, text, number), signed


def commands(move, signed: Path) -> dict[str, tuple]:
    player, text, number = move
    return {"status": ("status",), "status --as": ("status", "--as", player), "log": ("log",),
            "log --full": ("log", "--full"), "moves": ("moves",), "verify": ("verify",),
            "move --text": ("move", "--as", player, "--text", text, "--move-number", number),
            "move FILE": ("move", "--as", player, signed), "mail move": ("mail", "move"),
            "mail status": ("mail", "status")}


def mail(sender: str, body: str) -> bytes:
    msg = EmailMessage(policy=email.policy.SMTP)
    msg["From"], msg["To"], msg["Subject"] = sender, ORGANISER, "Re: [g1] move"
    msg["Message-ID"] = email.utils.make_msgid("t", domain="players.example")
    msg.set_content(body)
    return msg.as_bytes()


def by_mail(root: Path, secrets: dict, move, what: str) -> tuple[int, str]:
    """A player's mail handled by the referee: (0, the answer's text) or (2, the referee's own refusal)."""
    from pbem.mail.commands import Referee

    class Kept:
        messages: list = []

        def prepare(self):
            pass

        hold = flush = release = prepare

        def send(self, messages, once=False):
            self.messages = self.messages + messages
            return [str(m["To"]) for m in messages]
    player, text, number = move
    body = f"Password: {secrets[player]}\n" + (f"Move-Number: {number}\n{text}\n" if what == "move" else "status\n")
    kept = Kept()
    try:
        outcome = Referee(root, kept).handle(mail(f"{player}@players.example", body))
    except PbemError as exc:
        return 2, str(exc)
    answers = "\n".join(m.get_body(("plain",)).get_content() for m in kept.messages)
    return (2 if outcome.result == "rejected" else 0), answers + outcome.line()


def cases():
    names = list(commands(("p", "t", 1), Path("s")))
    chosen = []
    for index, (relative, kind) in enumerate((r, k) for r in FILES for k in KINDS):
        picked = names if ALL else [names[index % len(names)]]  # each file meets every command
        chosen += [pytest.param(relative, kind, command, id=f"{relative}-{kind}-{command}") for command in picked]
    return chosen


@pytest.mark.parametrize("relative,kind,command", cases())
def test_a_refusal_names_the_file_that_is_wrong(template, tmp_path, relative, kind, command):
    directory, secrets, move, signed = template
    game = tmp_path / "games" / "g1"
    shutil.copytree(directory, game, symlinks=True)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "target.txt").write_text("not the referee's\n")
    relative = relative.format(player=move[0])
    if (game / relative).is_file():
        shutil.copy(game / relative, outside / "original")
    plant(game / relative, kind, outside)
    args = commands(move, signed)[command]
    if args[0] == "mail":
        code, said = by_mail(tmp_path / "games", secrets, move, args[1])
    else:
        result = Pbem()(args[0], game, *args[1:])
        code, said = result.code, result.err
    assert code in (0, 1, 2), said  # never an internal error
    if code == 2:
        assert relative in said, f"{command} with {kind} at {relative}: {said}"
    assert (outside / "target.txt").read_text() == "not the referee's\n"
