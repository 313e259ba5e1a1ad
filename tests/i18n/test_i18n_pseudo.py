"""Every text a player reads is in the catalogues: each game, through each transport (files, mail, git), played to
its end in the pseudo-locale (PBEM_PSEUDO_LOCALE=1: every translated message comes out marked ⟦…⟧), and every
text a player gets checked by pbem.text.pseudo.unmarked as it arrives: a line holding a word that is neither in a
marked message, nor a name (players, the game's id, its seed, an identifier with a digit such as a card o07),
nor a number, is a string that escaped translation. Each mail's text part also keeps to 78 display columns, every
message lengthened by its marks.

A game is short: a few turns by the bots, then every seat resigns and the referee plays the game out, so the end
of the game (the final ranking, the revealed seed) is read too. CONVERTED lists the (game, transport) pairs whose
texts are all converted; every other pair is xfail(strict=True): when a conversion lands, its pair fails as
"XPASS(strict)" until it is added to CONVERTED (docs/translating.md, "The pseudo-locale test").
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from pbem.engine import engine
from pbem.store import registry
from pbem.tables import width
from pbem.text import language, pseudo
from support import NAMES, Pbem, legal_turn, load_helpers, playable_games

TESTS = Path(__file__).resolve().parents[1]
load_helpers("mailkit", TESTS / "mail")
load_helpers("gitkit", TESTS / "git")

from gitkit import Club, git  # noqa: E402
from mailkit import SmtpSink, body_of, create_game, move_mail, receive  # noqa: E402

TRANSPORTS = ("files", "mail", "git")
CONVERTED = {("coal-baron", "files"), ("chartered", "files"), ("gold-fever", "files"),  # a new game or transport
             ("heartland-hauling", "files"),  # joins once its texts are all converted
             ("coal-baron", "mail"), ("chartered", "mail"), ("gold-fever", "mail"), ("heartland-hauling", "mail"),
             ("coal-baron", "git"), ("chartered", "git"), ("gold-fever", "git"), ("heartland-hauling", "git"),
             ("summit-race", "files"), ("summit-race", "mail"), ("summit-race", "git")}
OPENING_TURNS = 3  # turns the bots play before every seat resigns
SEED = "pseudo-seed"
TRAILER = re.compile(r"^[A-Z][\w-]*: \S+$")  # a git trailer (Pbem-Game: g), for programs, not for players
MARKUP = re.compile(r"(?<=\])\([^()\s]+\)|^```\w*$", re.MULTILINE)  # a Markdown link's target, a fence's language


def cases() -> list:
    return [pytest.param(game.id, transport, id=f"{game.id}-{transport}",
                         marks=() if (game.id, transport) in CONVERTED else
                         pytest.mark.xfail(strict=True, reason="texts not yet converted"))
            for game in playable_games() for transport in TRANSPORTS]


class Reader:
    """The players' eyes: every text they get is checked as it arrives (an unconverted pair fails at its first
    unconverted text, so the xfail pairs cost little)."""

    def __init__(self, game_type: str, game_id: str, players: list[str]):
        self.names = {"pbem", game_id, SEED, *players}
        self.texts = 0

    def read(self, what: str, text: str) -> None:
        found = pseudo.unmarked(text, self.names)
        assert not found, f"{what} holds text outside the catalogues:\n" + "\n".join(found[:8])
        self.texts += 1


@pytest.fixture
def pseudo_locale(monkeypatch):
    monkeypatch.setenv(language.PSEUDO_ENV, "1")


def play_by_files(game_type: str, root: Path) -> tuple[Reader, Path]:
    """`pbem status/moves/move/log` as each player runs them: a few turns, a refused move of each kind a player
    commonly makes (stale, out of turn, not a move), then every seat resigns."""
    run, directory, players = Pbem(), root / "g", NAMES[:registry.get(game_type).min_players]
    args = ["new", game_type, directory, "--seed", SEED]
    for name in players:
        args += ["--player", name]
    assert run(*args).code == 0
    reader = Reader(game_type, directory.name, players)

    def read(*command) -> int:
        result = run(*command)
        reader.read(" ".join(map(str, command[:1] + command[2:])), result.out + result.err)
        return result.code

    for turn in range(OPENING_TURNS):
        player, move, number = legal_turn(directory)
        for name in players:
            read("status", directory, "--as", name)
        read("moves", directory, "--as", player)
        if turn == 0:
            other = next(name for name in players if name != player)
            assert read("move", directory, "--as", other, "--text", move, "--move-number", number) == 2
            assert read("move", directory, "--as", player, "--text", "no such move", "--move-number", number) == 2
        assert read("move", directory, "--as", player, "--text", move, "--move-number", number) == 0
        if turn == 0:
            assert read("move", directory, "--as", player, "--text", move, "--move-number", number) == 2
    while (player := engine.status(engine.open_game(directory))["to_act"]) is not None:
        assert read("move", directory, "--as", player, "--text", "resign") == 0
    for name in players:
        read("status", directory, "--as", name)
    read("log", directory)
    return reader, directory


def play_by_mail(game_type: str, root: Path) -> tuple[Reader, Path]:
    """The mails the referee sends (welcome, each report, a refusal, the game's end): every subject and body."""
    smtp = SmtpSink()
    smtp.controller.start()
    try:
        game = create_game(root, game_type, welcome=smtp.address, seed=SEED)
        reader = Reader(game_type, game.id, list(game.players))

        def read_mails() -> None:
            for mail in smtp.take():
                reader.read(f"the mail {mail['Subject']!r} to {mail['To']}", f"{mail['Subject']}\n{body_of(mail)}")
                # the pseudo-locale lengthens every message: the text part still keeps to 78 display columns
                assert not [line for line in body_of(mail).split("\n") if width(line) > 78], mail["Subject"]

        read_mails()
        for turn in range(OPENING_TURNS):
            player, move, number = legal_turn(game.dir)
            if turn == 0:
                receive(root, move_mail(game, player, ["no such move"], move_number=number), smtp)
                read_mails()
            receive(root, move_mail(game, player, [move], move_number=number), smtp)
            read_mails()
        while (player := game.to_act()) is not None:
            receive(root, move_mail(game, player, ["resign"]), smtp)
            read_mails()
        return reader, game.dir
    finally:
        smtp.controller.stop()


def play_by_git(game_type: str, root: Path) -> tuple[Reader, Path]:
    """What a player of a git game reads: the repository's README.md, the referee's commit messages (their
    trailers aside), `pbem git moves` in their clone."""
    if shutil.which("git") is None or shutil.which("ssh-keygen") is None:
        pytest.skip("git and ssh-keygen are needed (.ci/system-setup.sh installs them)")
    club = Club(root, game_type, registry.get(game_type).min_players, seed=SEED)
    reader = Reader(game_type, club.dir.name, club.names)

    def read_remote() -> None:
        name = club.names[0]
        club.pull(name)
        reader.read("README.md", MARKUP.sub("", (club.clones[name] / "README.md").read_text()))
        message = git(club.clones[name], "log", "-1", "--format=%B")
        reader.read("the referee's commit message", "\n".join(line for line in message.splitlines()
                                                               if not TRAILER.match(line)))

    read_remote()
    for _ in range(OPENING_TURNS):
        player, move, _number = legal_turn(club.game_dir())
        club.pull(player)
        result = club.pbem("git", "moves", club.clones[player], "--as", player)
        reader.read("pbem git moves", result.out + result.err)
        assert club.move(player, move).code == 0
        club.referee()
        read_remote()
    while (player := engine.status(engine.open_game(club.game_dir()))["to_act"]) is not None:
        assert club.move(player, "resign").code == 0
        club.referee()
    read_remote()
    return reader, club.game_dir()


PLAY = {"files": play_by_files, "mail": play_by_mail, "git": play_by_git}


@pytest.mark.parametrize("game_type,transport", cases())
def test_every_text_of_a_whole_game_is_a_translated_message(game_type, transport, pseudo_locale, tmp_path,
                                                           monkeypatch):
    if transport == "git":
        home = tmp_path / "home"
        home.mkdir()
        monkeypatch.setenv("HOME", str(home))
        monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
        (home / ".gitconfig").write_text("[user]\n\tname = Club Member\n\temail = member@club.example\n"
                                         "[init]\n\tdefaultBranch = main\n")
    reader, directory = PLAY[transport](game_type, tmp_path)
    assert reader.texts > 2 * OPENING_TURNS
    assert engine.status(engine.open_game(directory))["finished"]


def test_the_checker_finds_an_english_word_between_marked_messages():
    assert pseudo.unmarked("⟦Ṁóṽé 1⟧ alice 12 o07", {"alice", "o07"}) == []
    found = pseudo.unmarked("⟦Ṁóṽé 1⟧\nalice has 12 carts", {"alice"})
    assert found == ["line 2: 'alice has 12 carts'  ['has', 'carts']"]
    assert pseudo.unmarked("⟦unbalanced", set())[0].endswith("[unbalanced marks]")


def test_the_checker_takes_a_drawings_letters_for_no_words():
    """A map's column letters and the edges drawn with a letter (XXXX, W) are coordinates and marks, not English."""
    assert pseudo.unmarked("    c        d\n+XXXXXXX+\n|⟦Ƒĺíñţ⟧ W", set()) == []
    assert pseudo.unmarked("c6 XXXX road", set()) == ["line 1: 'c6 XXXX road'  ['road']"]
