"""The players' guides (docs/guide.md, guide.fr.md, guide.zh-Hant.md) cannot rot: every example they show is
read here as pbem reads it. Their examples are fenced blocks with a class:

- `pbem-moves GAME`: one move a line, `WRITTEN → NOTATION` (the French and Chinese guides: the player's words and
  the canonical move they read as) or the notation alone (the English guide);
- `pbem-mail GAME`: a whole mail a player writes (its password a stand-in for the real one);
- `pbem-watch GAME`: a mail a friend without a seat writes to watch the game (no password; a `confirm` line's
  token a stand-in for the one the referee mails back);
- `pbem-shell [GAME]`: pbem commands a player runs;
- `pbem-words GAME` (the translated guides): every word of the game's glossary in the guide's language.

Each move must read as the notation the guide says, each mail command (talk and a spectator's request among them)
must be answered by the mail referee of a real game (not refused), each shell command must be one pbem's command
line takes, and the three guides must show the same moves of every game, every form of each game's notation among
them."""
from __future__ import annotations

import email.policy
import re
import shlex
import sys
from pathlib import Path

import click
import pytest

from pbem.cli.commands import cli
from pbem.clock import club
from pbem.engine import engine
from pbem.mail import moves as mail_moves, parse, talkmail
from pbem.notation import NotationError, split_steps
from pbem.play import plans, words
from pbem.store import registry
from pbem.text import glossary, language
from support import load_helpers

load_helpers("mailkit", Path(__file__).parents[1] / "mail")

from mailkit import create_game, run_cli, write_mail  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import guide_words  # noqa: E402  (tools/guide_words.py: each game's table of words, from its glossary)

DOCS = Path(__file__).parents[2] / "docs"
GUIDES = {"en": "guide.md", "fr": "guide.fr.md", "zh-Hant": "guide.zh-Hant.md"}
GAMES = ["coal-baron", "chartered", "gold-fever", "heartland-hauling"]
PLAYERS = ["alice", "bob", "carol", "dave"]
BLOCK = re.compile(r"^```(pbem-[a-z]+)[ \t]*([a-z-]*)[ \t]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
ARROW = "→"
NOW = "2026-12-01T12:00:00Z"  # the mails' time (the guides' vacation is in the future then)
QUEUE_WORDS = {"next", "else", "if", "and", "not", "standing", "cancel"}


def blocks(code: str, kind: str) -> list[tuple[str, str]]:
    """(game, text) of each block of that kind in the guide of that language, in order."""
    text = (DOCS / GUIDES[code]).read_text(encoding="utf-8")
    return [(game, body) for found, game, body in BLOCK.findall(text) if found == kind]


def shown_moves(code: str) -> list[tuple[str, str, str]]:
    """(game, written, notation) of every line of the guide's move blocks."""
    shown = []
    for game, body in blocks(code, "pbem-moves"):
        for line in filter(None, (line.strip() for line in body.splitlines())):
            written, _, canonical = (part.strip() for part in line.partition(ARROW))
            shown.append((game, written, canonical or written))
    return shown


def reads(game: registry.Game, text: str) -> bool:
    return text == "resign" or plans.reads_as_item(game, text, PLAYERS)


@pytest.mark.parametrize("code", list(GUIDES))
def test_every_move_a_guide_shows_reads_as_the_notation_it_names(code):
    shown = shown_moves(code)
    assert {game for game, _, _ in shown} == set(GAMES)
    for game_id, written, canonical in shown:
        game = registry.get(game_id)
        assert reads(game, canonical), (code, game_id, canonical)
        assert words.canonical(game, written, PLAYERS) == canonical, (code, game_id, written)
        if code != "en":  # a translated guide shows each move in its language's words (some are the notation's)
            assert written != canonical or language.translator(code).words(game.package, canonical) == canonical, \
                (code, written)


def test_the_three_guides_show_the_same_moves_of_every_game():
    shown = {code: sorted({(game, canonical) for game, _, canonical in shown_moves(code)}) for code in GUIDES}
    assert shown["fr"] == shown["en"]
    assert shown["zh-Hant"] == shown["en"]


def test_the_guides_show_every_form_of_each_games_notation_and_every_queue_word():
    shown = shown_moves("en")
    for game_id in GAMES:
        game = registry.get(game_id)
        actions = set()
        for _, _, canonical in (entry for entry in shown if entry[0] == game_id):
            try:
                actions.add(game.parse_move(canonical)["action"])
            except NotationError:  # a queue's step: not a move by itself
                continue
        assert actions == set(game.meta["notation"]), (game_id, set(game.meta["notation"]) - actions)
    used = {word.rstrip(":") for _, _, canonical in shown for word in canonical.split()}
    assert used >= QUEUE_WORDS


def own_words(package: str, code: str) -> set[str]:
    """The words of one language for the terms of a game's glossary and pbem's own (names and `also` words),
    folded; zh-Hant's glossary names are Traditional Chinese."""
    found = set()
    for domain in ("pbem", package):
        for term in glossary.read(domain).terms:
            found |= {glossary.fold(word) for word in [term.names.get(code), *term.also.get(code, [])] if word}
    return found


@pytest.mark.parametrize("code", ["fr", "zh-Hant"])
def test_a_translated_guide_writes_its_languages_glossary_words(code):
    """Every word (or `-` part of one) of a translated guide's moves that is some language's word for a term is
    this language's word for it (its name or an `also`): a French guide writing `bid`, or `出價` for a French
    reader, would teach the wrong words."""
    for game_id, written, _ in shown_moves(code):
        package = registry.get(game_id).package
        known = set(glossary.aliases(package)) | set(glossary.aliases("pbem"))
        own = own_words(package, code)
        for word in written.replace(":", " ").split():
            for piece in [word, *word.split("-")] if glossary.fold(word) not in known else [word]:
                folded = glossary.fold(piece)
                assert folded not in known or folded in own, (code, written, piece)


@pytest.mark.parametrize("code", ["fr", "zh-Hant"])
def test_a_translated_guides_table_of_words_is_its_games_glossary(code):
    """Each game's table of words (`pbem-words GAME`: the language's words, then the notation) lists every term of
    the game's glossary with the names and `also` words the glossary gives, in its order (tools/guide_words.py
    writes them)."""
    tables = blocks(code, "pbem-words")
    assert sorted(game for game, _ in tables) == sorted(GAMES)
    for game_id, body in tables:
        shown = []
        for line in body.splitlines():
            written, _, term = (part.strip() for part in line.partition(ARROW))
            shown.append(([word.strip() for word in re.split(r"[,、]", written)], term))
        assert shown == guide_words.rows(code, game_id), f"{game_id}: run python tools/guide_words.py"


def mail_kind(body: str, game_id: str) -> str:
    """What the referee takes a mail for: talk alone (`say`), an admin line, `resign` (in any language's word), a
    command, a queue (in any language's words) or a move (with talk or not), in a game of `game_id`."""
    incoming = parse.Incoming(message_id="<x@y>", sender="", subject="", references=[])
    said, incoming.lines = talkmail.take([line.strip() for line in body.splitlines()
                                          if line.strip() and not parse.FIELD_LINE.match(line)])
    if said and not incoming.lines:
        return "say"
    steps = [piece for line in incoming.lines for piece in split_steps(line)]
    if incoming.admin:
        return "admin"
    if [words.canonical(registry.get(game_id), step, PLAYERS) for step in steps] == ["resign"]:
        return "resign"
    if incoming.command:
        return "command"
    return "queue" if mail_moves.queue_only(registry.get(game_id), PLAYERS, steps) is not None else "move"


@pytest.mark.parametrize("code", list(GUIDES))
def test_every_mail_a_guide_shows_is_answered_by_the_mail_referee(code, tmp_path):
    """A command, an admin line, a queue or `resign` is sent from alice's address, with her password, to a new game
    of the block's type (with deadlines: a vacation is refused where nothing is ever late), and must be answered,
    not refused; a mail of moves (for a position the guide does not build) must hold moves that read."""
    mails = blocks(code, "pbem-mail")
    kinds = {mail_kind(body, game_id) for game_id, body in mails}
    assert kinds >= {"admin", "command", "queue", "move", "resign", "say"}, kinds
    for index, (game_id, body) in enumerate(mails):
        assert body.startswith("Password: "), body
        if mail_kind(body, game_id) == "move":
            game = registry.get(game_id)
            _, lines = talkmail.take([line for line in body.splitlines()[1:] if not parse.FIELD_LINE.match(line)])
            for step in (piece for line in lines for piece in split_steps(line)):
                assert reads(game, words.canonical(game, step, PLAYERS)), (code, step)
            continue
        game = create_game(tmp_path, game_id, 3, game_id=f"g{index}", options=("--deadline", "72h", "--now", NOW))
        mine = re.sub(r"^Password: \S+", f"Password: {game.secret('alice')}", body)
        result = run_cli("mail", "receive", "--games", tmp_path, "--outbox", tmp_path / "outbox", "--now", NOW,
                         input=write_mail(game.address("alice"), mine, f"Re: [{game.id}] turn"))
        assert result.code == 0 and result.output.startswith(("command:", "accepted:")), (code, body, result.output)


def test_the_three_guides_show_the_same_mail_commands():
    def commands(code):
        return sorted(kind if kind in ("resign", "say") else body.splitlines()[-1].split()[0]
                      for game_id, body in blocks(code, "pbem-mail")
                      if (kind := mail_kind(body, game_id)) in ("admin", "command", "resign", "say"))
    assert commands("fr") == commands("en") and commands("zh-Hant") == commands("en")


def last_token(outbox: Path) -> str:
    """The token of the newest mail in the outbox (a Maildir) that holds a `confirm` line."""
    mails = (found for found in outbox.rglob("*") if found.is_file())
    for path in sorted(mails, key=lambda found: found.stat().st_mtime_ns, reverse=True):
        msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        found = re.search(r"^\s*confirm (\S+)", msg.get_body(preferencelist=("plain",)).get_content(), re.MULTILINE)
        if found:
            return found.group(1)
    raise AssertionError("no mail of the referee holds a token")


@pytest.mark.parametrize("code", list(GUIDES))
def test_a_friends_mails_a_guide_shows_make_them_a_spectator(code, tmp_path):
    """The guide's spectator mails are sent in order, from a stranger's address, to a new game open to watchers
    (a `confirm` line with the token the referee mailed back): each is answered, and the friend then watches, in
    the language the guide asks for."""
    friend, outbox = "friend@example.org", tmp_path / "outbox"
    shown = blocks(code, "pbem-watch")
    assert [body.split()[0] for _, body in shown] == ["watch", "confirm", "language", "confirm"]
    game = create_game(tmp_path, shown[0][0], 3, options=("--watchers", "open", "--now", NOW))
    for _, body in shown:
        assert "Password" not in body
        sent = re.sub(r"^confirm \S+", lambda _: f"confirm {last_token(outbox)}", body, flags=re.MULTILINE)
        result = run_cli("mail", "receive", "--games", tmp_path, "--outbox", outbox, "--now", NOW,
                         input=write_mail(friend, sent, f"[{game.id}] watch"))
        assert result.code == 0 and result.output.startswith("command:"), (code, body, result.output)
    (watching,) = club.spectators(engine.load_secrets(game.gd))
    assert watching["email"] == friend and watching["language"] == shown[2][1].split()[1]  # (the guide's `language`)


def command_lines(code: str) -> list[tuple[str, list[str]]]:
    """(game, argv) of every `pbem` command of the guide's shell blocks (variables set before it left out)."""
    found = []
    for game, body in blocks(code, "pbem-shell"):
        for line in body.replace("\\\n", " ").splitlines():
            argv = shlex.split(line, comments=True)
            while argv and re.fullmatch(r"[A-Z_]+=.*", argv[0]):
                argv = argv[1:]
            if argv:
                assert argv[0] == "pbem", (code, line)
                found.append((game, argv[1:]))
    return found


def click_parses(argv: list[str]) -> None:
    """The command line takes these words: each group resolves its command, each command its options and
    arguments (nothing runs)."""
    command, parent, name = cli, None, "pbem"
    while True:
        ctx = command.make_context(name, list(argv), parent=parent)
        if not isinstance(command, click.Group):
            return
        name, command, argv = command.resolve_command(ctx, ctx._protected_args + ctx.args)
        parent = ctx


@pytest.mark.parametrize("code", list(GUIDES))
def test_every_command_a_guide_shows_is_one_pbem_takes(code):
    lines = command_lines(code)
    assert len(lines) >= 10
    for game_id, argv in lines:
        click_parses(argv)
        if game_id and "--text" in argv:
            game = registry.get(game_id)
            for step in argv[argv.index("--text") + 1].split(";"):
                assert reads(game, words.canonical(game, step.strip(), PLAYERS)), (code, step)


def test_the_three_guides_show_the_same_commands():
    def shown(code):
        return sorted(tuple(argv[:2]) if argv[0] == "git" else (argv[0],) for _, argv in command_lines(code))
    assert shown("fr") == shown("en") and shown("zh-Hant") == shown("en")


def test_the_three_guides_have_the_same_sections():
    """One guide's section (a `##` or `###` heading) has its counterpart, in the same place, in each other."""
    def outline(code):
        text = (DOCS / GUIDES[code]).read_text(encoding="utf-8")
        return [len(found) for found in re.findall(r"^(#{2,3}) ", text, re.MULTILINE)]
    assert outline("fr") == outline("en") and outline("zh-Hant") == outline("en")
