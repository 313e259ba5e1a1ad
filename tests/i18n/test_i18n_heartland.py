"""The Great Heartland Hauling Co. in French and Chinese: every legal move written in each language's words reads as
the same canonical move (the glossary's verbs, goods, places, upgrades, directions; the queue words); every name of
its components is in the glossary; each line of a report within 78 display columns and each legal move's phrase
within 72, in every language, at every player count and option set. (An ambiguous word, its glossary's names
and its golden French and Chinese reports are checked with Coal Baron's: test_i18n_aliases.py,
test_i18n_reports.py.)"""
from __future__ import annotations

import random

import pytest

from pbem import bots
from pbem.play import playout, words
from pbem.store import registry
from pbem.tables import WIDTH, width
from pbem.text import glossary, language, report
from support import NAMES, random_decisions

HAULING = registry.get("heartland-hauling")
DOMAIN = "heartland_hauling"
LANGUAGES = ["fr", "zh-Hant", "zh-Hans"]
TABLES = [(2, {}), (3, {"alternate-routes": "on", "warehouse-mix": "on"}),
          (3, {"truck-stops": "on", "layout": "alt-1"}),
          (4, {"truck-stops": "on", "new-start": "on", "short-haul": "on", "alternate-routes": "2"})]
IDS = ["2p", "3p-routes", "3p-stops", "4p-stops-routes"]


def in_words(code: str, text: str) -> str:
    return language.translator(code).words(DOMAIN, text)


def sample_moves(players: int, options: dict, seed: str, every: int) -> list[str]:
    """The canonical texts of the legal moves (forms made concrete) of every `every`-th decision of a random game."""
    rnd, found = random.Random(seed), []
    for index, (_, _, legal) in enumerate(random_decisions(HAULING, NAMES[:players], options, seed)):
        if index % every == 0:
            found += [HAULING.format_move(bots.instantiate(entry, rnd)) for entry in legal]
    return found


@pytest.fixture(scope="module")
def samples() -> dict[str, list[str]]:
    return {name: sample_moves(players, options, f"aliases-{name}", every=5)
            for name, (players, options) in zip(IDS, TABLES)}


@pytest.mark.parametrize("table", IDS)
def test_every_legal_move_in_each_languages_words_reads_as_the_same_canonical_move(samples, table):
    players = TABLES[IDS.index(table)][0]
    moves = samples[table]
    assert len({move.split()[0] for move in moves}) >= 6  # moves, payments, actions, refills ...
    for code in LANGUAGES:
        for move in moves:
            written = in_words(code, move)
            assert written != move, (code, move)
            assert words.canonical(HAULING, written, NAMES[:players]) == move, (code, written)


def test_the_samples_hold_every_move_of_the_notation_but_the_rare_ones(samples):
    seen = {move.split()[0] for moves in samples.values() for move in moves}
    assert seen >= {"place", "stop", "move", "pay", "buy", "pass", "load", "unload", "discard", "draw", "take"}


@pytest.mark.parametrize("written,canonical", [
    ("déplacer n e", "move n e"), ("rouler ouest sud", "move w s"), ("payer comptant", "pay cash"),
    ("payer comptant et carburant-1", "pay cash and fuel-1"), ("payer carburant-2 carburant-1", "pay fuel-2 fuel-1"),
    ("charger maïs 2", "load corn 2"), ("décharger porcs 3", "unload pigs 3"), ("DECHARGER Porcs 3", "unload pigs 3"),
    ("défausser bétail soja carburant-3", "discard cattle soybeans fuel-3"), ("défausser", "discard"),
    ("remorquer", "tow"), ("remorquer et défausser maïs", "tow and discard corn"), ("piocher", "draw"),
    ("prendre carburant-2", "take fuel-2"), ("récupérer porcs", "salvage pigs"), ("acheter Transpalette", "buy pallet-jack"),
    ("acheter chariot-elevateur", "buy forklift"), ("passer", "pass"), ("placer fort-lee au c6", "place fort-lee at c6"),
    ("poser jericho à d7", "place jericho at d7"), ("arrêt Répartiteur au b7", "stop dispatcher at b7"),
    ("移動 北 東", "move n e"), ("移動北東", "move n e"), ("支付現金和燃料-1", "pay cash and fuel-1"),
    ("裝貨 玉米 2", "load corn 2"), ("裝貨玉米2", "load corn 2"), ("卸貨 豬 3", "unload pigs 3"),
    ("棄牌 牛隻 黃豆 燃料-3", "discard cattle soybeans fuel-3"), ("拖吊", "tow"), ("抽牌", "draw"),
    ("拿取 燃料-2", "take fuel-2"), ("回收 豬隻", "salvage pigs"), ("購買 堆高機", "buy forklift"),
    ("放置 李堡 至 c6", "place fort-lee at c6"), ("設站 調度員 至 b7", "stop dispatcher at b7"),
    ("装货 玉米 2", "load corn 2"), ("购买 堆高机", "buy forklift"), ("移动 西 南", "move w s")])
def test_a_players_own_words_read_as_the_notation(written, canonical):
    players = NAMES[:3]
    assert words.canonical(HAULING, written, players) == canonical


@pytest.mark.parametrize("written,canonical", [
    ("charger maximum maïs sinon défausser", "load most corn else discard"), ("payer carburant", "pay fuel"),
    ("prendre carburant", "take fuel"), ("piocher si alice détient maïs", "draw if alice holds corn"),
    ("payer comptant si bob argent au moins 20", "pay cash if bob money at least 20"),
    ("prendre carburant-3 si carburant-3 face visible", "take fuel-3 if fuel-3 face up"),
    ("décharger maximum porcs si non bob transporte porcs", "unload most pigs if not bob carries pigs"),
    ("permanent amélioration: passer", "standing upgrade: pass"), ("permanent plein: piocher", "standing refill: draw"),
    ("裝貨 最多 玉米 否則 棄牌", "load most corn else discard"), ("支付 燃料", "pay fuel"),
    ("抽牌 如果 alice 持有 玉米", "draw if alice holds corn"), ("支付 現金 如果 bob 資金 至 少 20",
                                                           "pay cash if bob money at least 20"),
    ("拿取 燃料-3 如果 燃料-3 正面 朝上 而且 不 bob 載有 豬隻",
     "take fuel-3 if fuel-3 face up and not bob carries pigs"),
    ("常設 升級: 跳過", "standing upgrade: pass"), ("常設 補牌: 抽牌", "standing refill: draw")])
def test_the_queue_words_have_their_words_too(written, canonical):
    assert words.canonical(HAULING, written, NAMES[:2]) == canonical


def test_every_name_a_player_reads_is_in_the_glossary_in_each_language():
    """The goods, places, upgrades and road features of the components, and the notation's words, each have a
    French and a Traditional Chinese name: the French from the French rules or marked pbem's, the Chinese pbem's."""
    terms = {(term.kind, term.id): term for term in glossary.read(DOMAIN).terms}
    components = HAULING.default_components()
    wanted = {("good", good["id"]) for good in components["goods"]} | \
             {("colour", good["colour"]) for good in components["goods"]} | \
             {("location", loc["id"]) for loc in components["locations"]} | \
             {("location", components["centre"]["id"])} | \
             {("upgrade", stop["id"]) for stop in components["truck_stops"]} | \
             {("feature", feature) for feature in components["road_features"]} | \
             {("direction", way) for way in "nesw"}
    assert wanted <= set(terms)
    for term in terms.values():
        assert term.names["fr"] and term.names["zh-Hant"], term.id
        assert term.where["fr"] and term.where["zh-Hant"] == "pbem", term.id


def report_lines(players: int, options: dict, seed: str, every: int = 29):
    """Each line of the report of every `every`-th position of a game the bots play, in each language."""
    state = playout.start(HAULING, NAMES[:players], options, seed=seed)
    for index, (_, _, state) in enumerate(playout.steps(HAULING, state, seed=seed, bot_seed=seed)):
        if index % every:
            continue
        doc = {"game": HAULING.id, "id": "width", "title": HAULING.title, "move_number": index,
               "player": NAMES[0], "view": HAULING.rules.view(state, NAMES[0]), "finished": False,
               "decision": {"player": NAMES[0], "description": HAULING.meta["decisions"]["refill"]}, "recent": []}
        for code in ["en", *LANGUAGES]:
            with language.reading(code):
                yield code, index, report.status_text(doc)


@pytest.mark.parametrize("table", IDS)
def test_every_line_of_a_heartland_report_fits_78_columns_in_every_language(table):
    players, options = TABLES[IDS.index(table)]
    for code, index, text in report_lines(players, options, f"width-{table}"):
        wide = [line for line in text.splitlines() if width(line) > WIDTH]
        assert not wide, (code, index, wide[0], width(wide[0]))


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_legal_moves_phrase_fits_72_columns_in_every_language(code):
    seen = set()
    for players, options in TABLES:
        for state, decision, legal in random_decisions(HAULING, NAMES[:players], options, f"phrases-{players}"):
            view = HAULING.rules.view(state, decision["player"])
            with language.reading(code):
                phrases = [(entry, HAULING.report.describe(view, entry)) for entry in legal]
            for entry, text in phrases:
                assert text and width(text) <= 72, (HAULING.format_move(entry), text)
                seen.add(entry["action"])
    assert seen >= {"place", "stop", "move", "cash", "fuel", "buy", "pass", "load", "unload", "discard", "draw",
                    "take"}
