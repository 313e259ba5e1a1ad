"""Chartered in French and Chinese: every legal move written in each language's words reads as the same canonical
move, a word of two meanings is refused with its readings, every line of a report fits 78 display columns in every
language at every player count and option set, and the final score's cells are shown in the reader's words (the
golden French and Chinese reports are checked with every game's in test_i18n_reports.py)."""
from __future__ import annotations

import random

import pytest

from pbem import bots
from pbem.contract import PbemError
from pbem.play import playout, words
from pbem.store import registry
from pbem.tables import WIDTH, width
from pbem.text import glossary, language, report
from support import NAMES, random_decisions

CHARTERED = registry.get("chartered")
LANGUAGES = ["fr", "zh-Hant", "zh-Hans"]
TABLES = [(2, {}), (3, {"trades": "wide"}), (4, {}), (6, {"trades": "wide"})]


def in_words(code: str, text: str) -> str:
    return language.translator(code).words("chartered", text)


def sample_moves(players: int, options: dict, seed: str, every: int) -> list[str]:
    """The canonical texts of the legal moves (forms made concrete) of every `every`-th decision of a random game."""
    rnd, found = random.Random(seed), []
    for index, (_, _, legal) in enumerate(random_decisions(CHARTERED, NAMES[:players], options, seed)):
        if index % every == 0:
            found += [CHARTERED.format_move(bots.instantiate(entry, rnd)) for entry in legal]
    return found


@pytest.mark.parametrize("players,options", TABLES, ids=[f"{n}p-{o.get('trades', 'faq')}" for n, o in TABLES])
def test_every_legal_chartered_move_in_each_languages_words_reads_as_the_same_canonical_move(players, options):
    moves = sorted(set(sample_moves(players, options, f"aliases-{players}", every=5)))
    assert len({m.split()[0] for m in moves}) >= 5  # builds, buys, trades, done ...
    for code in LANGUAGES:
        for move in moves:
            written = in_words(code, move)
            assert written != move, (code, move)
            assert words.canonical(CHARTERED, written, NAMES[:players]) == move, (code, written)


def test_the_samples_hold_every_move_of_the_notation():
    seen = {" ".join(move.split()[:2]) if move.startswith(("buy share", "sell share", "buy flag")) else move.split()[0]
            for players, options in TABLES for move in sample_moves(players, options, f"aliases-{players}", every=5)}
    assert seen >= {"build", "raise", "refresh", "buy", "buy share", "sell share", "buy flag", "found", "done"}


@pytest.mark.parametrize("written,canonical", [
    ("construire 17", "build 17"), ("acheter pioche", "buy deck"), ("acheter niveau-2", "buy level-2"),
    ("acheter action or or", "buy share gold gold"), ("Acheter Part thé", "buy share tea"),
    ("vendre action the", "sell share tea"), ("acheter drapeau", "buy flag"), ("rafraîchir", "refresh"),
    ("rafraichir", "refresh"), ("créer café 15 22", "found coffee 15 22"), ("gagnante argent", "survivor silver"),
    ("superposer 17", "raise 17"), ("terminer", "done"), ("passer", "pass"),
    ("建造 17", "build 17"), ("建造17", "build 17"), ("購買牌庫", "buy deck"), ("購買 樓層-2", "buy level-2"),
    ("買 股份 黃金 黃金", "buy share gold gold"), ("購買股份茶", "buy share tea"), ("賣出 股 鴉片", "sell share opium"),
    ("購買旗幟", "buy flag"), ("創立 咖啡 15 22", "found coffee 15 22"), ("存續 白銀", "survivor silver"),
    ("完成", "done"), ("刷新", "refresh"), ("加蓋 17", "raise 17"), ("购买 股份 丝绸", "buy share silk")])
def test_a_chartered_players_own_words_read_as_the_notation(written, canonical):
    assert words.canonical(CHARTERED, written, NAMES[:2]) == canonical


@pytest.mark.parametrize("written,canonical", [
    ("acheter action or si prix or au plus 80 sinon terminer", "buy share gold if price gold at most 80 else done"),
    ("acheter 14 si alice détient 14", "buy 14 if alice holds 14"),
    ("acheter niveau-2 si niveau-2 dans marché sinon acheter pioche", "buy level-2 if level-2 in market else buy deck"),
    ("rafraîchir si alice florins au moins 150", "refresh if alice money at least 150"),
    ("acheter action thé si thé créée", "buy share tea if tea founded"),
    ("permanent échanges: terminer", "standing trades: done"),
    ("購買 股份 黃金 如果 價格 黃金 至 多 80 否則 完成", "buy share gold if price gold at most 80 else done"),
    ("購買 14 如果 alice 持有 14", "buy 14 if alice holds 14"),
    ("刷新 如果 alice 資金 至 少 150", "refresh if alice money at least 150"),
    ("購買 股份 茶葉 如果 茶葉 已創立", "buy share tea if tea founded"), ("常設 交易: 完成", "standing trades: done")])
def test_chartered_queue_words_have_their_words_too(written, canonical):
    assert words.canonical(CHARTERED, written, NAMES[:2]) == canonical


def test_a_chartered_word_of_two_meanings_is_refused_with_its_readings(monkeypatch):
    index = {"acquerir": {"buy", "sell"}, "action": {"share"}, "or": {"gold"}}
    monkeypatch.setattr(words, "_index", lambda package: index)
    with pytest.raises(PbemError) as refused:
        words.canonical(CHARTERED, "acquérir action or", NAMES[:2])
    assert str(refused.value) == "'acquérir action or': these words name more than one thing; write one of: " \
                                 "buy share gold, sell share gold"
    with language.reading("zh-Hant"):
        assert refused.value.render().endswith("購買 股份 黃金、賣出 股份 黃金")


def test_the_glossary_names_every_word_of_the_notation_and_every_company():
    """Each word of meta.yaml's notation and queue templates, and each company's id, has a term in fr and zh-Hant."""
    terms = {term.id: term for term in glossary.read("chartered").terms}
    meta = CHARTERED.meta
    templates = [*meta["notation"].values(), *(c["template"] for c in meta["queues"]["conditions"].values())]
    wanted = {word for text in templates for word in text.split() if not word.startswith("{")}
    wanted |= set(meta["queues"]["standing"]) | {"deck", "level"}
    wanted |= {company["id"] for company in CHARTERED.default_components()["companies"]}
    assert wanted <= set(terms), wanted - set(terms)
    for word in wanted:
        assert terms[word].names["fr"] and terms[word].names["zh-Hant"], word
        assert terms[word].where["zh-Hant"] == "pbem", word  # no Chinese rulebook of this title


def status_docs(players: int, options: dict, every: int):
    """Status documents of a bot game seen by its first player, every `every`-th move, and the final one."""
    state = playout.start(CHARTERED, NAMES[:players], options, seed=f"width-{players}")
    index = 0
    for index, (_, _, state) in enumerate(playout.steps(CHARTERED, state, seed="w", bot_seed="w")):
        if index % every == 0:
            yield doc_of(state, index)
    yield doc_of(state, index)


def doc_of(state: dict, index: int) -> dict:
    pending = CHARTERED.rules.pending(state)
    doc = {"game": CHARTERED.id, "id": "width", "title": CHARTERED.title, "move_number": index, "player": NAMES[0],
           "view": CHARTERED.rules.view(state, NAMES[0]), "finished": pending is None, "recent": [],
           "seed": "width", "seed_commitment": "0" * 64}
    if pending is None:
        doc["ranking"] = CHARTERED.rules.result(state)
    else:
        doc["decision"] = {"player": pending["player"],
                           "description": CHARTERED.meta["decisions"][pending["decision"]]}
    return doc


@pytest.mark.parametrize("code", ["en", "fr", "zh-Hant", "zh-Hans"])
@pytest.mark.parametrize("players,options", TABLES, ids=[f"{n}p-{o.get('trades', 'faq')}" for n, o in TABLES])
def test_every_line_of_a_chartered_report_fits_78_columns_in_every_language(code, players, options):
    finished = False
    for doc in status_docs(players, options, every=53):
        with language.reading(code):
            text = report.status_text(doc)
        wide = [line for line in text.splitlines() if width(line) > WIDTH]
        assert not wide, (code, doc["move_number"], wide[0], width(wide[0]))
        finished = finished or doc["finished"]
    assert finished


@pytest.mark.parametrize("code,shares,flags,cards", [
    ("en", "1 opium x 200 + 2 gold x 50 = 300", "opium flag 4 x 200 = 800", "3 x -20 = -60"),
    ("fr", "1 opium x 200 + 2 or x 50 = 300", "drapeau opium 4 x 200 = 800", "3 x -20 = -60"),
    ("zh-Hant", "1 鴉片 x 200 + 2 黃金 x 50 = 300", "鴉片旗幟 4 x 200 = 800", "3 x -20 = -60")])
def test_the_final_scores_cells_are_shown_in_the_readers_words(code, shares, flags, cards):
    """The results keep the English (`1 opium x 200`); the ranking shows each cell in the reader's words."""
    stored = {"florins": 5620, "shares": "1 opium x 200 + 2 gold x 50 = 300", "flags": "opium flag 4 x 200 = 800",
              "cards in hand": "3 x -20 = -60", "total": 6620}
    with language.reading(code):
        shown = {key: CHARTERED.report.score_cell(key, value) for key, value in stored.items()}
        text = report.ranking([{"rank": 1, "player": "alice", "score": 6620, "details": stored}], "chartered")
    assert shown == {"florins": 5620, "shares": shares, "flags": flags, "cards in hand": cards, "total": 6620}
    assert flags.split()[0] in text and "5620" in text
    assert CHARTERED.report.score_cell("shares", "0") == "0"  # nothing held: the number as stored


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_chartered_move_description_fits_78_columns_in_every_language(code):
    seen = set()
    for index, (state, decision, legal) in enumerate(random_decisions(CHARTERED, NAMES[:4], {}, "described")):
        if index % 3:
            continue
        view = CHARTERED.rules.view(state, decision["player"])
        with language.reading(code):
            for entry in legal:
                text = CHARTERED.report.describe(view, entry)
                assert width(text) <= 78, (code, CHARTERED.format_move(entry), text)
                seen.add(entry["action"])
    assert seen >= {"build", "buy", "refresh", "buy_share", "done", "found"}


@pytest.mark.parametrize("code,heads", [("en", ["value", "share price", "companies"]),
                                        ("fr", ["valeur", "prix de l'action", "compagnies"]),
                                        ("zh-Hant", ["市值", "股價", "公司"])])
def test_the_stock_board_table_has_a_header_like_the_others_in_each_language(code, heads):
    """A row a step under a header and its rule: the capitalisation, the share price, the companies standing there
    (in the example game, gold, opium and tea at 30 and pepper at 60), within 78 columns."""
    from pathlib import Path
    from pbem.engine import engine
    gd = engine.open_game(Path(__file__).resolve().parents[2] / "examples" / "chartered" / "ch-5p-in-progress")
    with language.reading(code):
        text = report.status_text(engine.status(gd))
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.split() == [w for head in heads for w in head.split()]) - 1
    assert set(lines[at + 2]) == {"-", " "} and lines[at + 2].count(" -") == 2  # the rule under three heads
    steps = engine.status(gd)["view"]["stock_board"]
    rows = [line.split(None, 2) for line in lines[at + 3:at + 3 + len(steps)]]
    assert [(int(row[0]), int(row[1])) for row in rows] == [(s["value"], s["price"]) for s in steps]
    codes = {"en": ("GLD, OPI, TEA", "PEP"), "fr": ("OR, OPI, THE", "POI"), "zh-Hant": ("金、鴉、茶", "椒")}[code]
    assert (rows[0][2], rows[1][2]) == codes and all(len(row) == 2 for row in rows[2:])
    assert all(width(line) <= WIDTH for line in lines[at:at + 3 + len(steps)])
