"""Pictures of the position: every game draws every player count and option set from the public view and each
player's view, and no picture shows what its view may not (the same leak check as the views'); in every one each
line of words reads whole (none cut short, out of its box or over other words) and the legend names only marks
the picture shows; `pbem board`'s formats and its refusals; a move never imports the drawing libraries."""
from __future__ import annotations

import re
import subprocess
import sys

import pytest

from support import NAMES, game_counts, legal_turn, run_pbem, snapshot, words
from pbem.play import playout
from pbem.store import registry, yamlio
from pbem.text import pictures, sheet, svgout
from picturekit import cut_words, option_cases, status_doc, unshown_legend

POSITIONS = 4  # positions drawn per play-out: the start, two in the middle, the end


def picture_words(svg_text: str) -> set[str]:
    """The words a picture shows: its text elements and its title."""
    shown = re.findall(r"<(?:text|title)[^>]*>(.*?)</(?:text|title)>", svg_text, flags=re.S)
    return words(" ".join(shown).replace("&#x27;", "'").replace("&amp;", "&"))


def labels(game: registry.Game) -> set[str]:
    """The words a picture may show that come from no view: its labels, written in the drawing code (the game's
    draw and report modules, the frame) and the decisions' descriptions."""
    sources = [pictures.__file__, sheet.__file__, game.draw.__file__, game.report.__file__]
    return words(game.meta["decisions"]) | set().union(*(words(open(path).read()) for path in sources))


def check_pictures(game: registry.Game, state: dict, players: list[str], move_number: int) -> None:
    """What no view shows (a deck's order, a card nobody has seen) is in no picture, and each player's private
    words (in their view, in no other view nor the public one) are in no other picture."""
    docs = {viewer: status_doc(game, state, move_number, viewer) for viewer in [None, *players]}
    made = {viewer: pictures.picture(doc) for viewer, doc in docs.items()}
    drawn = {viewer: picture_words(svgout.drawing(made[viewer]).as_svg()) for viewer in docs}
    hidden = words(state) - labels(game) - set().union(*(words(doc["view"]) for doc in docs.values()))
    for viewer, shown in drawn.items():
        assert not hidden & shown, f"the picture of {viewer or 'the public'} shows {sorted(hidden & shown)[:5]}"
    for player in players:
        others = [v for v in docs if v != player]
        private = words(docs[player]["view"]) - set().union(*(words(docs[v]["view"]) for v in others))
        for other in others:
            framed = words({key: value for key, value in docs[other].items() if key != "view"})  # the move number...
            leaked = (private - framed) & drawn[other]
            assert not leaked, f"the picture of {other or 'the public'} shows {player}'s private {sorted(leaked)[:5]}"
    for viewer, picture in made.items():
        cut = cut_words(picture)
        assert not cut, f"{game.id}, the picture of {viewer or 'the public'} at move {move_number}: {cut[:3]}"
        board = picture.layers[2][2]  # the game's own drawing
        assert not unshown_legend(board), f"{game.id}: the legend names {unshown_legend(board)}, not drawn"


def play_and_draw(game_id: str, count: int, options: dict, seed: str) -> int:
    game = registry.get(game_id)
    players = NAMES[:count]
    positions = [(1, playout.start(game, players, options, seed=seed))]
    for number, (_, _, state) in enumerate(playout.steps(game, positions[0][1], seed=seed, bot_seed=seed), 2):
        positions.append((number, state))
    picks = {0, len(positions) // 3, 2 * len(positions) // 3, len(positions) - 1}
    for index in sorted(picks)[:POSITIONS]:
        number, state = positions[index]
        check_pictures(game, state, players, number)
    assert game.rules.pending(positions[-1][1]) is None
    return len(picks)


@pytest.mark.parametrize("game_id,count", game_counts())
def test_every_game_and_player_count_draws_every_view_without_showing_another_players_secrets(game_id, count):
    assert play_and_draw(game_id, count, {}, f"pic-{count}")


@pytest.mark.parametrize("game_id,count,options", option_cases())
def test_every_option_set_draws_every_view_without_showing_another_players_secrets(game_id, count, options):
    assert play_and_draw(game_id, count, options, "pic-options")


def test_the_leak_check_catches_a_picture_that_shows_the_deck_or_a_private_card(monkeypatch):
    """A draw module that drew from the state would be caught: the public picture showing the tile deck's next
    tiles, or alice's picture showing the tiles drawn for bob alone."""
    table = registry.get("coal-baron")
    players = NAMES[:2]
    state = playout.start(table, players, {}, seed="leaky")
    original = table.draw.draw

    def deck_shown(view, viewer, sheet):
        original(view, viewer, sheet)
        if viewer is None:
            sheet.text(0, 0, " ".join(state["tile_deck"][:3]))
    monkeypatch.setattr(table.draw, "draw", deck_shown)
    with pytest.raises(AssertionError, match="the picture of the public shows"):
        check_pictures(table, state, players, 1)

    view_of_bob = table.rules.view(state, "bob")
    bob_only = {"private": {**view_of_bob["private"], "money": 4321}}

    def peeking(view, viewer, sheet):
        original(view, viewer, sheet)
        if viewer == "alice":
            sheet.text(0, 0, f"bob has {bob_only['private']['money']}")
    monkeypatch.setattr(table.draw, "draw", peeking)
    monkeypatch.setattr(table.rules, "view", lambda s, p, real=table.rules.view: (
        {**real(s, p), **bob_only} if p == "bob" else real(s, p)))
    with pytest.raises(AssertionError, match="the picture of alice shows bob's private"):
        check_pictures(table, state, players, 1)


def test_a_picture_has_the_move_number_who_is_to_act_and_a_legend_with_every_seat():
    doc = yamlio.loads(open(_position("gold-fever-4p"), "rb").read())
    svg_text = pictures.svg(doc)
    shown = " ".join(re.findall(r"<text[^>]*>(.*?)</text>", svg_text))
    assert f"Move {doc['move_number']}: {doc['decision']['player']} to act" in shown
    assert "Legend" in shown
    for player in doc["view"]["players"]:
        assert player["name"] in shown
    # each seat has its own shape as well as its own colour (circle, square, polygons), and its letter
    assert len({sheet.SEAT_SHAPES[i] for i in range(len(doc["view"]["players"]))}) == len(doc["view"]["players"])


def test_seat_letters_are_unique_even_when_names_share_their_first_letters():
    assert sheet.seat_letters(["anna", "anton", "bob"]) == {"anna": "Ann", "anton": "Ant", "bob": "Bob"}
    assert sheet.seat_letters(["ann", "bob"]) == {"ann": "A", "bob": "B"}


def _position(name):
    from pathlib import Path
    return Path(__file__).parent / "positions" / f"{name}.yaml"


# ------------------------------------------------------------------------------------------------ pbem board

def test_board_writes_svg_html_and_png_of_a_players_view(new_game, pbem, tmp_path):
    directory, _ = new_game("coal-baron", 2)
    svg = pbem("board", directory, "--as", "alice")
    assert svg.code == 0, svg.err
    assert svg.out.startswith("<?xml") and "view of alice" in svg.out
    page = tmp_path / "board.html"
    assert pbem("board", directory, "--format", "html", "-o", page).code == 0
    html = page.read_text()
    assert "<svg" in html and "<pre>" in html and "<script" not in html
    png = tmp_path / "board.png"
    assert pbem("board", directory, "--format", "png", "-o", png).code == 0
    assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_board_on_a_missing_or_hostile_game_directory_is_refused_with_exit_2(new_game, pbem, tmp_path):
    missing = pbem("board", tmp_path / "nowhere")
    assert missing.code == 2 and "not a pbem game directory" in missing.err
    directory, _ = new_game("gold-fever", 3)
    before = snapshot(directory)
    stranger = pbem("board", directory, "--as", "mallory")
    assert stranger.code == 2 and "does not play" in stranger.err
    (directory / "public.yaml").unlink()
    (directory / "public.yaml").symlink_to("/etc/passwd")
    linked = pbem("board", directory)
    assert linked.code == 2 and "public.yaml" in linked.err and "Traceback" not in linked.err
    (directory / "public.yaml").unlink()
    (directory / "public.yaml").write_bytes(before["public.yaml"])
    (directory / "game.yaml").write_text("type: [unclosed\n")
    broken = pbem("board", directory)
    assert broken.code == 2 and "game.yaml" in broken.err and "Traceback" not in broken.err


def test_board_refuses_to_write_a_png_to_a_terminal_and_says_what_to_do(new_game, tmp_path):
    directory, _ = new_game("chartered", 2)
    script = ("import pty, os, sys\n"
              "pid, fd = pty.fork()\n"
              "if pid == 0:\n"
              f"    os.execvp({sys.executable!r}, [{sys.executable!r}, '-m', 'pbem.cli', 'board', "
              f"{str(directory)!r}, '--format', 'png'])\n"
              "out = b''\n"
              "while True:\n"
              "    try:\n"
              "        chunk = os.read(fd, 4096)\n"
              "    except OSError:\n"
              "        break\n"
              "    if not chunk:\n"
              "        break\n"
              "    out += chunk\n"
              "_, status = os.waitpid(pid, 0)\n"
              "print(os.waitstatus_to_exitcode(status)); print(out.decode(errors='replace'))\n")
    # started outside the checkout: `python -c` puts its folder first on sys.path, and the checkout's pbem/ is not
    # the installed package
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    code, _, shown = result.stdout.partition("\n")
    assert code == "1" and "give -o FILE" in shown


def test_a_move_and_a_status_never_import_the_drawing_libraries(new_game, tmp_path):
    directory, _ = new_game("coal-baron", 2)
    player, text, number = legal_turn(directory)
    code = ("import sys\n"
            "from pbem.cli.commands import main\n"
            f"assert main(['move', {str(directory)!r}, '--as', {player!r}, '--text', {text!r}, '--move-number', "
            f"'{number}']) == 0\n"
            f"assert main(['status', {str(directory)!r}]) == 0\n"
            "print(sorted({'drawsvg', 'jinja2', 'PIL', 'pbem.text.pictures', 'pbem.text.raster', "
            "'pbem.text.svgout'} & set(sys.modules)))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                            cwd=tmp_path)  # outside the checkout, as above
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "[]"


def test_board_subprocess_prints_svg_on_standard_output(new_game):
    directory, _ = new_game("heartland-hauling", 2)
    result = run_pbem("board", str(directory))
    assert result.returncode == 0 and result.stdout.startswith(b"<?xml") and b"</svg>" in result.stdout
