"""Words a French or a Chinese player reads that must read as their language, never as an id or a broken
sentence: a decision that named an option by its `key=value`, a fragment glued into parentheses, a Chinese word cut
in two by a space (`至 少`), a queue form's help left in English in the mail's help, a chance outcome shown as the
log's YAML list, a hidden move's public form in English, a card shown by its id."""
from __future__ import annotations

import re

import pytest

from pbem.engine import engine
from pbem.messages import Words
from pbem.play import words
from pbem.store import registry
from pbem.text import language, report
from support import playable_games

LANGUAGES = ("fr", "zh-Hant")
KEY_VALUE = re.compile(r"\b[a-z][a-z-]*=[a-z0-9]")
GLUED = re.compile(r"\([^()]*: (?:or|ou)\b|（[^（）]*：或")


@pytest.mark.parametrize("game", [g.id for g in playable_games()])
def test_no_decision_names_an_option_by_its_id_or_holds_a_glued_fragment(game):
    kind = registry.get(game)
    for code in ("en", *LANGUAGES):
        with language.reading(code):
            for name, said in kind.meta.get("decisions", {}).items():
                shown = report.game_text(game, said)
                assert not KEY_VALUE.search(shown) and not GLUED.search(shown), (code, name, shown)


@pytest.mark.parametrize("game, step, joined", [
    ("chartered", "buy share gold if bob money at least 200", "至少"),
    ("chartered", "buy share gold if price gold at most 80", "至多"),
    ("gold-fever", "bid up to 6", "最多到"),
    ("coal-baron", "place bank-6 if alice money at least 5", "至少"),
    ("heartland-hauling", "move n if alice money at least 20", "至少"),
])
def test_a_chinese_word_of_two_english_ones_is_written_whole_and_reads_back(game, step, joined):
    """`at least` is 至少 in Chinese, one word: shown without a space between its characters (never `至 少`), and
    what is shown reads back as the same step."""
    kind = registry.get(game)
    with language.reading("zh-Hant"):
        shown = Words(kind.package, step).render()
    assert joined in shown and f"{joined[0]} {joined[1:]}" not in shown, shown
    assert words.canonical(kind, shown, ["alice", "bob"]) == step


def test_the_mails_help_says_each_queue_form_in_the_readers_language(new_game):
    """The help by mail lists the game's queue forms with what each does: in French and in Chinese, never the
    English of meta.yaml (its texts are translated with the context `queue help`)."""
    from pbem.mail import helptext
    directory, _ = new_game("chartered", 2)
    gd = engine.open_game(directory)
    english = helptext.queue_help(gd)
    assert "the player has at least that many florins" in english
    for code, said in (("fr", "le joueur a au moins ce nombre de florins"),
                       ("zh-Hant", "該玩家至少有這麼多弗羅林")):
        with language.reading(code):
            shown = helptext.queue_help(gd)
        assert said in shown and "the player has at least" not in shown and "companies merged" not in shown, shown


@pytest.mark.parametrize("code, dice, cards", [
    ("en", "production roll, turn 4: 1, 5", "corn, pigs"),
    ("fr", "lancer de production, tour 4 : 1, 5", "maïs, porcs"),
    ("zh-Hant", "生產擲骰，第 4 回合：1、5", "玉米、豬隻"),
])
def test_a_chance_outcome_is_said_in_words_never_as_the_logs_list(code, dice, cards):
    with language.reading(code):
        told = report.chance_line("gold_fever", [{"what": "production roll, turn 4", "result": [1, 5]}]) + \
            report.chance_line("heartland_hauling", [{"what": "discard pile shuffled into a new deck",
                                                      "result": ["corn", "pigs"]}])
    assert dice in told and cards in told and "[1, 5]" not in told and "'corn'" not in told, told


@pytest.mark.parametrize("code, said", [("fr", "remettre les autres cartes sous la pioche"),
                                        ("zh-Hant", "將其餘的牌放回牌庫底部")])
def test_a_hidden_moves_public_form_reads_in_the_readers_language(code, said):
    """Coal Baron's log shows `return the other cards to the bottom of the deck` for the order a player chose
    (hidden): a sentence of the game's catalogue, not words of the notation left half in English."""
    with language.reading(code):
        shown = Words("coal_baron", "return the other cards to the bottom of the deck").render()
    assert shown == said


def test_chartered_market_and_gold_fever_events_are_named_in_the_readers_words():
    chartered, gold_fever = registry.get("chartered").report, registry.get("gold-fever").report
    view = {"market": ["level-3", "12"], "costs": {"card": 50, "refresh": 50}, "deck_count": 3, "supply": 40,
            "played": 2}
    event = {"id": "expropriation-1", "type": "event", "kind": "expropriation", "name": "Expropriation"}
    with language.reading("zh-Hant"):
        market = chartered.market_text(view)
        offered = gold_fever.card_text(event, False)
    assert "樓層-3" in market and "level" not in market, market
    assert offered == "徵收令-1", offered
