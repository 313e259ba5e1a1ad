"""Pictures a player can read at 1×: no label cut short (a card on offer is named whole, wrapped if long), no word
smaller than the minimum type, a legend only for what the picture shows (no "dangerous mine" in a game without
them). Every play-out of every game is checked the same way in test_pictures.py (picturekit.cut_words and
unshown_legend); these are the cases the issue named."""
from __future__ import annotations

from support import NAMES
from pbem.play import playout
from pbem.store import registry
from pbem.text import pictures, sheet
from pbem.games.gold_fever.draw import namer, offer_text
from picturekit import cut_words, status_doc, unshown_legend, word_boxes


def gold_fever(options: dict, seed: str = "legible", players: int = 5) -> tuple[registry.Game, dict]:
    game = registry.get("gold-fever")
    return game, playout.start(game, NAMES[:players], options, seed=seed)


def legend_words(picture) -> list[str]:
    return [words for _, words in picture.layers[2][2].legend]


def shown_words(picture) -> str:
    return " ".join(words for _, words in word_boxes(picture))


def test_a_card_on_offer_is_named_whole_however_long_its_name():
    game, state = gold_fever({})
    doc = status_doc(game, state, 1, None)
    for slot in doc["view"]["turn"]["offer"]:  # the longest names the game has, nuggets and all
        if slot["card"] and slot["card"]["type"] == "concession":
            slot["card"].update(id="new-london-12", town="new-london", number=12, nuggets=5)
    drawn = pictures.picture(doc)
    card = {"type": "concession", "id": "new-london-12", "town": "new-london", "number": 12, "nuggets": 5}
    whole = offer_text(card, False, namer(doc["view"]))
    assert whole == "New London (number 12, 5 nuggets)"  # named as a player reads it, not as typed (new-london-12)
    assert " ".join(whole.split()) in " ".join(shown_words(drawn).split())
    assert "…" not in shown_words(drawn)
    assert cut_words(drawn) == []


def test_no_word_is_drawn_smaller_than_the_minimum_type():
    drawn = sheet.Sheet(["ann"])
    drawn.text(0, 20, "needs 1", size=8)
    drawn.piece(20, 20, "#f0e442", "Y", size=9)  # a piece's letter is three quarters of its size, 6.75
    assert all(mark[4] >= sheet.MIN_TYPE == 10 for mark in drawn.marks if mark[0] == "text")
    for game_id in ("coal-baron", "gold-fever", "chartered", "heartland-hauling"):
        game = registry.get(game_id)
        state = playout.start(game, NAMES[:game.max_players], {}, seed="legible")
        picture = pictures.picture(status_doc(game, state, 1, NAMES[0]))
        sizes = [mark[4] for _, _, layer in picture.layers for mark in layer.marks if mark[0] == "text"]
        assert min(sizes) >= sheet.MIN_TYPE, game_id


def test_the_legend_names_a_dangerous_mine_only_when_the_picture_shows_one():
    game, state = gold_fever({})
    off = pictures.picture(status_doc(game, state, 1, None))
    assert "dangerous mine" not in legend_words(off)
    seed = next(s for s in (f"danger-{n}" for n in range(50))
                if any(slot["card"] and slot["card"].get("dangerous") for slot in
                       game.rules.view(gold_fever({"dangerous-mines": "on"}, s)[1], None)["turn"]["offer"]))
    game, state = gold_fever({"dangerous-mines": "on"}, seed)
    on = pictures.picture(status_doc(game, state, 1, None))
    assert "dangerous mine" in legend_words(on)
    assert unshown_legend(on.layers[2][2]) == []


def test_the_legend_names_only_the_marks_drawn():
    game = registry.get("coal-baron")
    state = playout.start(game, NAMES[:2], {}, seed="legible")
    picture = pictures.picture(status_doc(game, state, 1, None))
    drawn = picture.layers[2][2]
    assert unshown_legend(drawn) == []
    drawn.key(("piece", "#123456", "Z"), "a mark no game draws")
    assert unshown_legend(drawn) == ["a mark no game draws"]  # the check sees a legend entry with nothing drawn


def test_words_without_spaces_wrap_between_characters_and_keep_every_one():
    sentence = "輪到你了：請在礦坑放置工人，然後裝載貨物"  # Chinese writes no spaces between its words
    lines = sheet.wrap(f"Move 12: {sentence}", 12, 120)
    assert len(lines) > 1 and all(sheet.text_width(line, 12) <= 120 for line in lines)
    assert "".join(lines).replace(" ", "") == f"Move12:{sentence}"
    assert sheet.text_width("金", 12) == 12 and sheet.text_width("é", 12) < 12  # a wide character takes an em
