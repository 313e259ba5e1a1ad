"""Pictures in French and Traditional Chinese read whole, as in English: at each game's largest table and at a
small one, from the public view and a player's, no line of words runs into another, out of the box it sits in or
out of the picture (picturekit.cut_words, measured by the PNG's own fonts); the measure that lays words out is
never narrower than the font draws them; and a picture names what a player reads, never what a player types."""
from __future__ import annotations

import re

import pytest

from support import NAMES
from pbem.play import playout
from pbem.store import registry
from pbem.text import language, pictures, raster, sheet
from picturekit import cut_words, status_doc, word_boxes

LANGUAGES = ("fr", "zh-Hant")


def tables(game: registry.Game) -> list[int]:
    """The largest table and a small one (three seats where the game seats three, else its fewest)."""
    small = 3 if game.min_players <= 3 < game.max_players else game.min_players
    return sorted({small, game.max_players})


CASES = [(game_id, count, {}) for game_id in ("coal-baron", "gold-fever", "chartered", "heartland-hauling")
         for count in tables(registry.get(game_id))]
CASES.append(("coal-baron", 4, {"phase-cards": "on", "overplace": "on"}))  # the longest line of options


def positions(game: registry.Game, count: int, options: dict | None = None) -> list[tuple[int, dict]]:
    """The start and a position a third of the way through a greedy play-out (full boards, long names)."""
    players = NAMES[:count]
    first = playout.start(game, players, options or {}, seed=f"languages-{count}")
    later = [(number, state) for number, (_, _, state) in
             enumerate(playout.steps(game, first, seed=f"languages-{count}", bot_seed="languages"), 2)]
    return [(1, first), later[len(later) // 3]]


@pytest.mark.parametrize("game_id,count,options", CASES)
def test_every_game_reads_whole_in_french_and_chinese_at_a_large_and_a_small_table(game_id, count, options):
    game = registry.get(game_id)
    for number, state in positions(game, count, options):
        for viewer in (None, NAMES[0]):
            doc = status_doc(game, state, number, viewer)
            for code in LANGUAGES:
                with language.reading(code):
                    cut = cut_words(pictures.picture(doc))
                assert not cut, f"{game_id}, {count} players, {code}, move {number}, {viewer or 'public'}: {cut[:3]}"


def test_the_overlap_check_sees_words_run_into_their_neighbours():
    """A header wider than its column (bold `commandes` at 11 points is 74 wide) is caught."""
    drawn = sheet.Sheet(["ann"])
    drawn.text(305, 12, "commandes", bold=True)
    drawn.text(365, 12, "livrées", bold=True)
    picture = pictures.Picture(600, 40, "test", [(0, 0, drawn)])
    assert cut_words(picture) == ["'commandes' and 'livrées' are drawn over each other"]


@pytest.mark.parametrize("words", ["commandes", "extraction 10 actions", "WWW", "Ωμέγα", "Шахта",
                                   "Mine de carol (tuiles éclairées 2, sombres 4)"])
@pytest.mark.parametrize("bold", [False, True])
def test_the_measure_of_bold_words_is_never_narrower_than_the_font_draws_them(words, bold):
    drawn = raster.label(words, 11, bold)[3]
    assert sheet.advance(words, 11, bold) == pytest.approx(drawn, abs=0.5)
    if bold:
        assert sheet.text_width(words, 11, bold=True) >= drawn - 0.1  # (FreeType rounds to 1/64 pixel)


@pytest.mark.parametrize("bold", [False, True])
def test_the_table_of_advances_is_what_the_installed_dejavu_sans_says(bold):
    if raster.family_of("a", bold) != "DejaVu Sans":
        pytest.skip("DejaVu Sans is not installed here")
    font = raster.font("DejaVu Sans", bold, 64)
    table = sheet.advances()[bold]
    assert len(table) > 900  # Latin, Greek, Cyrillic, punctuation, arrows, shapes
    wrong = [c for c, ems in table.items() if abs(ems * 64 - font.getlength(c)) > 1 / 32]
    assert not wrong, f"tools/advances.py read other fonts: {''.join(wrong[:20])}"


def test_the_measure_of_regular_words_is_the_estimate_english_pictures_were_laid_out_with():
    assert sheet.text_width("commandes", 11) == len("commandes") * 11 * sheet.CHAR
    assert sheet.text_width("player", 11, bold=True) == len("player") * 11 * sheet.CHAR  # wider than the font
    assert sheet.text_width("礦坑", 10) == 20


def shown(picture) -> str:
    return " ".join(words for _, words in word_boxes(picture))


@pytest.mark.parametrize("code", ["en", *LANGUAGES])
def test_la_fievre_de_l_or_names_towns_and_cards_as_read_never_as_typed(code):
    game = registry.get("gold-fever")
    count = game.max_players
    for number, state in positions(game, count):
        doc = status_doc(game, state, number, NAMES[0])
        with language.reading(code):
            words = shown(pictures.picture(doc))
        typed = re.findall(r"\b(?:new-london|cold-mountain|takamawok|whiskey-river|san-narciso)(?:-\w+)?", words)
        assert not typed, f"{code}, move {number}: {typed[:5]}"
        assert not re.search(r"\b[a-z]+(?:-[a-z]+)*-\d+\b", words), f"{code}, move {number}: a card's id is shown"


@pytest.mark.parametrize("code", ["en", *LANGUAGES])
def test_heartland_hauling_names_a_discarded_fuel_card_by_the_spaces_it_moves(code):
    game = registry.get("heartland-hauling")
    state = playout.start(game, NAMES[:3], {}, seed="discard")
    doc = status_doc(game, state, 1, None)
    doc["view"]["discard"] = {"fuel-2": 3}
    with language.reading(code):
        words = shown(pictures.picture(doc))
    assert "fuel-2" not in words and "carburant-2" not in words and "燃料-2" not in words
    assert {"en": "3 fuel 2", "fr": "3 carburant 2", "zh-Hant": "燃料 2"}[code] in words


@pytest.mark.parametrize("code", ["en", *LANGUAGES])
def test_coal_baron_names_the_options_played_as_a_player_reads_them(code):
    game = registry.get("coal-baron")
    state = playout.start(game, NAMES[:2], {"phase-cards": "on", "overplace": "on"}, seed="options")
    with language.reading(code):
        words = shown(pictures.picture(status_doc(game, state, 1, None)))
    assert "phase-cards" not in words and "overplace" not in words
    assert {"en": "phase-card variant, overplacing variant", "fr": "variante des cartes de phase",
            "zh-Hant": "階段卡變體"}[code] in words
