"""Moves in the player's words (pbem.play.words): every legal move written with each language's words reads as
the same canonical move; queue words too; Chinese without spaces; a mixed-language game verifies; an ambiguous
word is refused with its readings; a signed move file is signed over its canonical words."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from pbem import bots
from pbem.clock import correspondence
from pbem.contract import PbemError
from pbem.engine import engine
from pbem.play import movefile, trust, words
from pbem.store import registry
from pbem.text import glossary, language
from support import NAMES, random_decisions

COAL_BARON = registry.get("coal-baron")
LANGUAGES = ["fr", "zh-Hant", "zh-Hans"]
TABLES = [(2, {}), (3, {"phase-cards": "on"}), (4, {"phase-cards": "on", "overplace": "on"})]


def in_words(code: str, text: str, domain: str = "coal_baron") -> str:
    return language.translator(code).words(domain, text)


def sample_moves(players: int, options: dict, seed: str, every: int = 7) -> list[str]:
    """The canonical texts of the legal moves (forms made concrete) of every `every`-th decision of a random game."""
    rnd, found = random.Random(seed), []
    for index, (_, _, legal) in enumerate(random_decisions(COAL_BARON, NAMES[:players], options, seed)):
        if index % every == 0:
            found += [COAL_BARON.format_move(bots.instantiate(entry, rnd)) for entry in legal]
    return found


@pytest.mark.parametrize("players,options", TABLES, ids=[f"{n}p" for n, _ in TABLES])
def test_every_legal_move_in_each_languages_words_reads_as_the_same_canonical_move(players, options):
    moves = sample_moves(players, options, f"aliases-{players}", every=3)
    assert len(set(m.split()[0] for m in moves)) >= 6  # the draft, placements, draws, returns, mining ...
    for code in LANGUAGES:
        for move in moves:
            written = in_words(code, move)
            assert written != move or move.split()[0] in ("train",), (code, move)
            assert words.canonical(COAL_BARON, written, NAMES[:players]) == move, (code, written)


def test_the_samples_hold_every_move_of_the_notation():
    seen = {move.split()[0] for players, options in TABLES
            for move in sample_moves(players, options, f"aliases-{players}", every=3)}
    assert seen >= {"draft", "pick", "place", "pass", "cage", "load", "store", "put", "end", "keep", "return"}


@pytest.mark.parametrize("written,canonical", [
    ("placer extraction-6", "place mining-6"), ("Poser BANQUE-6", "place bank-6"), ("ascenseur 4", "cage 4"),
    ("déplacer noir sur o12", "put black on o12"), ("remettre dessus t22 t24", "return top t22 t24"),
    ("garder aucune", "keep none"), ("remplacer gris sur o12", "substitute grey on o12"),
    ("avec noir stock-jaune", "with black stored-yellow"), ("deplacer noire sur o12", "put black on o12"),
    ("放置 礦場-6", "place mining-6"), ("放置礦場-6", "place mining-6"), ("選取o14", "draft o14"),
    ("流籠4", "cage 4"), ("流籠　４", "cage 4"), ("裝載黑色", "load black"), ("上流籠 黑", "load black"),
    ("用 黑色 儲藏室-黃色", "with black stored-yellow"), ("放置 货运-火车", "place delivery-train"),
    ("选取 o14", "draft o14")])
def test_a_players_own_words_read_as_the_notation(written, canonical):
    assert words.canonical(COAL_BARON, written, NAMES[:2]) == canonical


@pytest.mark.parametrize("written,canonical", [
    ("choisir o14 sinon choisir meilleure", "draft o14 else draft best"),
    ("placer banque-6 si banque-6 libre et non manche 3", "place bank-6 if bank-6 free and not shift 3"),
    ("permanent tour: passer", "standing round: pass"), ("ensuite", "next"), ("annuler", "cancel"),
    ("放置 銀行-6 如果 銀行-6 空 而且 不 輪 3", "place bank-6 if bank-6 free and not shift 3"),
    ("常設 回合: 跳過", "standing round: pass"), ("abandonner", "resign"), ("棄權", "resign"),
    ("placer banque-6 si alice capitaux au moins 5", "place bank-6 if alice money at least 5")])
def test_the_queue_words_have_their_words_too(written, canonical):
    assert words.canonical(COAL_BARON, written, NAMES[:2]) == canonical


def test_a_canonical_move_reads_no_glossary(monkeypatch):
    monkeypatch.setattr(words, "_index", lambda package: pytest.fail("the glossary was read"))
    assert words.canonical(COAL_BARON, "place bank-6", NAMES[:2]) == "place bank-6"
    assert words.canonical(COAL_BARON, "draft o14 else draft best", NAMES[:2]) == "draft o14 else draft best"


@pytest.mark.parametrize("game_id,meanings,text,english,french", [
    ("coal-baron", {"pick", "keep"}, "prendre o14", "keep o14, pick o14", "garder o14, prendre o14"),
    ("heartland-hauling", {"take", "salvage"}, "prendre corn", "salvage corn, take corn",
     "récupérer maïs, prendre maïs")])
def test_a_word_of_two_meanings_is_refused_with_its_readings(monkeypatch, game_id, meanings, text, english, french):
    monkeypatch.setattr(words, "_index", lambda package: {"prendre": meanings})
    with pytest.raises(PbemError) as refused:
        words.canonical(registry.get(game_id), text, NAMES[:2])
    assert str(refused.value) == f"{text!r}: these words name more than one thing; write one of: {english}"
    with language.reading("fr"):
        assert refused.value.render() == f"{text!r} : ces mots désignent plus d'une chose ; écrivez l'un de : {french}"


GLOSSARIES = ["pbem", *sorted(path.parent.name for path in (Path(__file__).resolve().parents[2] / "games").glob(
    "*/glossary.yaml"))]


@pytest.mark.parametrize("domain", GLOSSARIES)
def test_no_glossary_name_is_ambiguous_or_another_terms_word(domain):
    """Within a domain (and with pbem's words), a name or `also` word names one id, and is no other term's id: the
    glossary never makes a move of the notation ambiguous."""
    found = {}
    for owner in {"pbem", domain}:
        for word, ids in glossary.aliases(owner).items():
            found.setdefault(word, set()).update(ids)
    assert not {word: ids for word, ids in found.items() if len(ids) > 1}
    ids = {term.id for owner in {"pbem", domain} for term in glossary.read(owner).terms}
    assert not {word for word, named in found.items() if word in ids and named != {word}}


def play_mixed_game(directory, readers: dict[str, str], seed: str) -> list[str]:
    """A whole game whose players each write in their own language's words (English for `en`): the texts sent."""
    gd = engine.open_game(directory)
    rnd, sent = random.Random(seed), []
    while True:
        legal = engine.legal(gd)
        player = legal["to_act"]
        if player is None:
            return sent
        state = engine.load_state(gd)["state"]
        entry = bots.instantiate(rnd.choice(gd.game.rules.legal_moves(state, player)), rnd)
        text = gd.game.format_move(entry)
        written = in_words(readers[player], text) if readers[player] != "en" else text
        sent.append(written)
        correspondence.submit(gd, player, [written], by="referee", move_number=legal["move_number"])


def test_a_game_in_three_languages_at_one_table_logs_the_notation_and_verifies(new_game):
    directory, _ = new_game("coal-baron", 3, seed="mixed")
    readers = dict(zip(NAMES[:3], ["fr", "zh-Hant", "en"]))
    sent = play_mixed_game(directory, readers, "mixed")
    gd = engine.open_game(directory)
    entries = engine.read_log(gd, full=True)["entries"]
    assert any("放置" in text for text in sent) and any("placer" in text for text in sent)
    assert all(word.isascii() for entry in entries for move in entry["moves"] for word in move.split())
    verified = engine.verify(gd)  # (it raises on a file that differs from the replay)
    assert verified["seed_checked"] and verified["moves"] == len(entries)


def test_a_signed_move_file_in_other_words_is_signed_over_its_canonical_words(new_game, pbem, tmp_path):
    directory, secrets = new_game("coal-baron", 2, seed="signed")
    gd = engine.open_game(directory)
    legal = engine.legal(gd)
    player, move = legal["to_act"], legal["moves"][0]
    french = in_words("fr", move)
    doc = movefile.build(gd.id, legal["move_number"], player, [french], secrets[player], game=COAL_BARON)
    assert doc["moves"] == [move]  # written (and signed) in the notation
    unsigned = movefile.build(gd.id, legal["move_number"], player, [french])
    loose = movefile.sign(unsigned, secrets[player])  # signed over the words as written
    assert loose["moves"] == [french]
    path = tmp_path / "loose.yaml"
    path.write_text(movefile.dumps(loose))
    refused = pbem("move", directory, "--as", player, path)
    assert refused.code == 2 and "bad signature" in refused.err
    by_cli = pbem("sign", path, "--secret", secrets[player], "--game-type", "coal-baron")
    assert by_cli.code == 0 and move in path.read_text()
    accepted = pbem("move", directory, "--as", player, path)
    assert accepted.code == 0, accepted.err
    assert engine.read_log(gd)["entries"][-1]["moves"] == [move]


@pytest.mark.parametrize("written,canonical", [
    ("enchérir jusqu'à 4 sinon passer", "bid up to 4 else pass"), ("enchérir jusqu’à 4", "bid up to 4"),
    ("permanent enchère: enchérir jusqu'à 5 sinon passer", "standing auction: bid up to 5 else pass")])
def test_a_french_elision_reads_as_its_two_words(written, canonical):
    """`jusqu'à` is how French writes `jusque à` (the glossary's `jusqu` and `à`): read as the two words."""
    assert words.canonical(registry.get("gold-fever"), written, NAMES[:3]) == canonical


FULL_WIDTH = "bid\u3000１０"  # `bid 10` as a Chinese or Japanese keyboard types it (ideographic space, digits)


def test_a_move_in_full_width_digits_and_spaces_is_played_and_logged_in_the_notation(new_game, pbem):
    directory, _ = new_game("gold-fever", 3, seed="full-width")
    gd = engine.open_game(directory)
    player = engine.status(gd)["to_act"]
    accepted = pbem("move", directory, "--as", player, "--text", f"{FULL_WIDTH}；next；pass")
    assert accepted.code == 0, accepted.err
    assert engine.read_log(gd)["entries"][0]["moves"] == ["bid 10"]  # (the others' passes are forced after it)
    assert engine.status(gd, player)["queue"]["turns"] == [["pass"]]  # (`；` parts the steps too)


def test_a_move_file_signed_as_typed_in_full_width_forms_checks_and_is_logged_in_the_notation(new_game, pbem,
                                                                                              tmp_path):
    """What a signature covers is the moves in their plain forms: a file holding the moves as the player typed
    them, full-width digits and all, signed so, checks, and the log's plain move checks with the same signature."""
    directory, secrets = new_game("gold-fever", 3, seed="full-width")
    gd = engine.open_game(directory)
    player = engine.status(gd)["to_act"]
    signature = trust.sign(secrets[player], gd.id, 1, player, [FULL_WIDTH])
    assert signature == trust.sign(secrets[player], gd.id, 1, player, ["bid 10"])
    path = tmp_path / "full-width.yaml"
    path.write_text(f"game: {gd.id}\nmove_number: 1\nplayer: {player}\nmoves:\n- {FULL_WIDTH}\n"
                    f"signature: {signature}\n", encoding="utf-8")
    accepted = pbem("move", directory, "--as", player, path)
    assert accepted.code == 0, accepted.err
    entry = engine.read_log(gd, full=True)["entries"][0]
    assert entry["moves"] == ["bid 10"] and entry["signature"] == signature
    trust.check_signature(secrets[player], entry["signature"], gd.id, 1, player, entry["moves"])  # as verify does
    by_cli = pbem("sign", path, "--secret", secrets[player])  # `pbem sign` signs what was typed: the same
    assert by_cli.code == 0 and signature in path.read_text(encoding="utf-8")
