"""La Fièvre de l'Or in the players' languages: every legal move written in each language's words reads as the same
canonical move (cards and towns whose ids hold a `-` too), queue words, an ambiguous word refused with its readings;
every line of a report within 78 display columns in every language at every
player count and option set; the legal moves described in the reader's language (the golden French and Chinese
reports are checked with every game's in test_i18n_reports.py)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml

from pbem import bots
from pbem.contract import PbemError
from pbem.engine import engine
from pbem.play import playout, words
from pbem.store import registry
from pbem.tables import WIDTH, width
from pbem.text import glossary, language, phrases, report
from support import NAMES, random_decisions

GOLD_FEVER = registry.get("gold-fever")
ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "gold-fever"
LANGUAGES = ["fr", "zh-Hant", "zh-Hans"]
TABLES = [(3, {"short-game": "on", "bank-takes-the-rest": "on"}), (4, {"dangerous-mines": "on"}), (5, {})]


def in_words(code: str, text: str) -> str:
    return language.translator(code).words("gold_fever", text)


def sample_moves(players: int, options: dict, seed: str, every: int = 2) -> list[str]:
    """The canonical texts of the legal moves (forms made concrete) of every `every`-th decision of a random game."""
    rnd, found = random.Random(seed), []
    for index, (_, _, legal) in enumerate(random_decisions(GOLD_FEVER, NAMES[:players], options, seed)):
        if index % every == 0:
            found += [GOLD_FEVER.format_move(bots.instantiate(entry, rnd)) for entry in legal]
    return found


@pytest.mark.parametrize("players,options", TABLES, ids=[f"{n}p" for n, _ in TABLES])
def test_every_legal_move_in_each_languages_words_reads_as_the_same_canonical_move(players, options):
    moves = sample_moves(players, options, f"gf-aliases-{players}")
    assert {"bid", "pass", "take"} <= {m.split()[0] for m in moves}
    for code in LANGUAGES:
        for move in moves:
            written = in_words(code, move)
            assert code == "fr" or written != move, (code, move)  # (French keeps saloon, mustang, dynamite)
            assert words.canonical(GOLD_FEVER, written, NAMES[:players]) == move, (code, written)


def test_the_samples_hold_the_events_moves():
    seen = {move.split()[0] for players, options in TABLES for seed in ("a", "b", "c")
            for move in sample_moves(players, options, f"gf-events-{seed}-{players}", every=1)}
    assert seen >= {"bid", "pass", "take", "dynamite", "holdup", "saloon"}


@pytest.mark.parametrize("written,canonical", [
    ("enchérir 3", "bid 3"), ("ENCHERIR 3", "bid 3"), ("surenchérir 4", "bid 4"), ("passer", "pass"),
    ("prendre 2", "take 2"), ("choisir 2", "take 2"), ("télégraphe 1 5", "telegraph 1 5"),
    ("dynamite cold-mountain-9", "dynamite cold-mountain-9"), ("hold-up bob 7", "holdup bob 7"),
    ("braquage bob 7", "holdup bob 7"), ("exproprier takamawok-5", "expropriate takamawok-5"),
    ("filles takamawok-saloon-1", "girls takamawok-saloon-1"), ("gouverneur new-london", "governor new-london"),
    ("filon san-narciso-9", "vein san-narciso-9"),
    ("出價 3", "bid 3"), ("出價3", "bid 3"), ("跳過", "pass"), ("拿取２", "take 2"), ("电报 1 5", "telegraph 1 5"),
    ("炸藥 冷山-9", "dynamite cold-mountain-9"), ("炸藥冷山-9", "dynamite cold-mountain-9"),
    ("搶劫 bob 7", "holdup bob 7"), ("徵收 塔卡馬沃克-5", "expropriate takamawok-5"),
    ("酒館 威士忌河", "saloon whiskey-river"), ("女郎 塔卡馬沃克-酒館-1", "girls takamawok-saloon-1"),
    ("州長 新倫敦", "governor new-london"), ("礦脈 聖納西索-9", "vein san-narciso-9")])
def test_a_players_own_words_read_as_the_notation(written, canonical):
    assert words.canonical(GOLD_FEVER, written, NAMES[:3]) == canonical


@pytest.mark.parametrize("written,canonical", [
    ("enchérir jusque à 6 sinon passer", "bid up to 6 else pass"),
    ("prendre meilleure", "take best"),
    ("prendre 2 si nouveau-filon-1 proposée", "take 2 if new-vein-1 offered"),
    ("prendre 1 si filles-de-saloon-1 proposée", "take 1 if saloon-girls-1 offered"),
    ("prendre 3 si attaque-de-la-diligence-1 proposée", "take 3 if stagecoach-robbery-1 offered"),
    ("enchérir 4 si alice or au moins 5 et non bob maire de takamawok",
     "bid 4 if alice gold at least 5 and not bob mayor of takamawok"),
    ("passer si haute enchérir au plus 4", "pass if high bid at most 4"),
    ("permanent enchère: enchérir jusque à 5 sinon passer", "standing auction: bid up to 5 else pass"),
    ("permanent mustang: passer", "standing mustang: pass"),
    ("出價 最多 到 6 否則 跳過", "bid up to 6 else pass"), ("拿取 最佳", "take best"),
    ("拿取 2 如果 新礦脈-1 供選", "take 2 if new-vein-1 offered"),
    ("出價 4 如果 alice 黃金 至 少 5 而且 不 bob 市長 於 塔卡馬沃克",
     "bid 4 if alice gold at least 5 and not bob mayor of takamawok"),
    ("常設 拍賣: 出價 最多 到 5 否則 跳過", "standing auction: bid up to 5 else pass"),
    ("常設 電報: 跳過", "standing telegraph: pass")])
def test_the_queue_words_have_their_words_too(written, canonical):
    assert words.canonical(GOLD_FEVER, written, NAMES[:3]) == canonical


def test_a_card_made_of_several_terms_is_named_term_by_term():
    assert in_words("fr", "take 1 if saloon-girls-1 offered") == "prendre 1 si filles-de-saloon-1 proposée"
    assert in_words("zh-Hant", "girls takamawok-saloon-2") == "女郎 塔卡馬沃克-酒館-2"
    assert in_words("zh-Hant", "dynamite cold-mountain-12") == "炸藥 冷山-12"
    assert in_words("zh-Hans", "take 2 if card-shark-1 offered") == "拿取 2 如果 老千-1 供选"


def test_a_canonical_move_reads_no_glossary(monkeypatch):
    monkeypatch.setattr(words, "_index", lambda package: pytest.fail("the glossary was read"))
    assert words.canonical(GOLD_FEVER, "bid up to 6 else pass", NAMES[:3]) == "bid up to 6 else pass"


def test_a_word_of_two_meanings_is_refused_with_its_readings(monkeypatch):
    index = {word: set(ids) for word, ids in glossary.aliases("gold_fever").items()}
    index["prendre"] = {"take", "bid"}  # as if one French word named two moves
    monkeypatch.setattr(words, "_index", lambda package: index)
    with pytest.raises(PbemError) as refused:
        words.canonical(GOLD_FEVER, "prendre 2", NAMES[:3])
    assert str(refused.value) == "'prendre 2': these words name more than one thing; write one of: bid 2, take 2"
    with language.reading("zh-Hant"):
        assert refused.value.render().endswith("出價 2、拿取 2")


def test_every_event_kind_and_town_of_the_components_has_a_name_in_each_language():
    components = yaml.safe_load((ROOT / "games" / "gold_fever" / "components.yaml").read_text())
    named = {term.id: term for term in glossary.read("gold_fever").terms}
    for kind in [event["kind"] for event in components["events"]] + [town["id"] for town in components["towns"]]:
        assert kind in named and all(named[kind].names[code] for code in ("fr", "zh-Hant")), kind


@pytest.mark.parametrize("code", ["en", *LANGUAGES])
@pytest.mark.parametrize("players,options", TABLES, ids=[f"{n}p" for n, _ in TABLES])
def test_every_line_of_a_gold_fever_report_and_move_fits_78_columns_in_every_language(code, players, options):
    state = playout.start(GOLD_FEVER, NAMES[:players], options, seed=f"gf-width-{players}")
    for index, (_, _, state) in enumerate(playout.steps(GOLD_FEVER, state, seed="w", bot_seed="w")):
        if index % 11 and GOLD_FEVER.rules.pending(state) is not None:
            continue
        view = GOLD_FEVER.rules.view(state, NAMES[0])
        doc = {"game": GOLD_FEVER.id, "id": "width", "title": GOLD_FEVER.title, "move_number": index,
               "player": NAMES[0], "view": view, "finished": False, "recent": [],
               "decision": {"player": NAMES[0], "description": "bid more than the highest bid (never more than "
                            "your gold) or pass; a passer is out of this auction"}}
        with language.reading(code):
            text = report.status_text(doc)
            pending = GOLD_FEVER.rules.pending(state)
            if pending:  # the legal moves as a player reads them (pbem.text.phrases.legal_lines: described, wrapped)
                mover_view = GOLD_FEVER.rules.view(state, pending["player"])
                choices = [{"move": GOLD_FEVER.format_move(move), "description": GOLD_FEVER.report.describe(mover_view,
                                                                                                          move)}
                           for move in GOLD_FEVER.rules.legal_moves(state, pending["player"])]
                text += "\n".join(phrases.legal_lines(choices, game_type=GOLD_FEVER.id))
        wide = [line for line in text.splitlines() if width(line) > WIDTH]
        assert not wide, (code, index, wide[0], width(wide[0]))


def test_the_moves_are_described_in_the_readers_language():
    gd = engine.open_game(EXAMPLES / "gf-4p-in-progress")
    state = engine.load_state(gd)["state"]
    mover = GOLD_FEVER.rules.pending(state)["player"]
    view = GOLD_FEVER.rules.view(state, mover)
    bid = next(move for move in GOLD_FEVER.rules.legal_moves(state, mover) if move["action"] == "bid")
    assert GOLD_FEVER.report.describe(view, bid).startswith("open the auction (you hold 8)")
    with language.reading("fr"):
        assert GOLD_FEVER.report.describe(view, bid).startswith("ouvrir l'enchère (vous avez 8)")
    with language.reading("zh-Hant"):
        assert GOLD_FEVER.report.describe(view, bid).startswith("開始拍賣（你有 8）")
