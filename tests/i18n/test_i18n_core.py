"""pbem's shared texts of the core in each reader's language: deadlines and dates (CLDR's, through Babel), the
queue notices a player is told (a step dropped, a queue stopped), the refusals raised deep in the store, the engine
and the queues, verify's notes on a bot seat's move, the fields of a form (`cage <niveau>`) and meta.yaml's queue
help texts; French elision ("coup 2 d'alice"); English unchanged."""
from __future__ import annotations

import datetime

import pytest

from pbem.engine import engine
from pbem.messages import OPTION_HELP, QUEUE_HELP, Domain
from pbem.play import botmoves
from pbem.store import registry
from pbem.text import language, phrases, queuenotes, times
from pbem.tables import width
from support import NAMES, Pbem

NOW = datetime.datetime(2026, 11, 29, 10, 0, tzinfo=datetime.timezone.utc)
CLOCK = {"paused": None, "due": "2026-12-01T17:20:00Z", "on_timeout": "first-legal", "deadline": "1d12h",
         "timeouts": 3, "strikes": {"ann": 2},
         "vacations": [{"player": "bob", "from": "2026-11-28T00:00:00Z", "to": "2026-12-03T00:00:00Z"},
                       {"player": "ivy", "from": "2026-12-05T00:00:00Z", "to": "2026-12-09T00:00:00Z"}]}


def clock_lines(code: str) -> list[str]:
    with language.reading(code):
        return times.summary_lines(CLOCK, "ann", NOW)


def test_the_clocks_lines_keep_their_english():
    assert clock_lines("en") == [
        "ann must move by Tue 1 Dec 2026 17:20 UTC (in 2 days); if no move has arrived by then, the referee plays "
        "ann's first legal move (1 day 12 hours a decision).",
        "bob is on vacation until Thu 3 Dec 2026 00:00 UTC.",
        "ivy will be on vacation from Sat 5 Dec 2026 00:00 UTC to Wed 9 Dec 2026 00:00 UTC.",
        "ann has missed 2 deadlines in a row (resigned after 3)."]


def test_a_french_reader_reads_the_deadline_vacations_and_missed_deadlines_in_french():
    assert clock_lines("fr") == [
        "ann doit jouer avant le mardi 1 décembre 2026 à 17:20 UTC (dans 2 jours) ; si aucun coup n'est arrivé "
        "d'ici là, l'arbitre joue le premier coup légal d'ann (1 jour 12 heures par décision).",
        "bob est en vacances jusqu'au jeudi 3 décembre 2026 à 00:00 UTC.",
        "ivy sera en vacances du samedi 5 décembre 2026 à 00:00 UTC au mercredi 9 décembre 2026 à 00:00 UTC.",
        "ann a manqué 2 échéances d'affilée (abandon après 3)."]


def test_a_chinese_reader_reads_the_deadline_with_cldrs_chinese_dates():
    assert clock_lines("zh-Hant") == [
        "ann 必須在 2026年12月1日 17:20 UTC 前行動（2 天後）；屆時若還沒有收到走法，裁判會替 ann 下第一個合法走法"
        "（每個決定 1 天 12 小時）。",
        "bob 休假到 2026年12月3日 00:00 UTC。",
        "ivy 將從 2026年12月5日 00:00 UTC 休假到 2026年12月9日 00:00 UTC。",
        "ann 已連續 2 次逾時（連續 3 次即視為棄權）。"]
    assert clock_lines("zh-Hans")[1] == "bob 休假到 2026年12月3日 00:00 UTC。"


@pytest.mark.parametrize("code,before,after", [("en", "in 1 hour", "3 days ago"), ("fr", "dans 1 heure",
                                                                                     "il y a 3 jours"),
                                               ("zh-Hant", "1 小時後", "3 天前")])
def test_how_far_a_deadline_is_counts_in_the_readers_language(code, before, after):
    with language.reading(code):
        assert times.until("2026-11-29T11:00:00Z", NOW) == before
        assert times.until("2026-11-26T10:00:00Z", NOW) == after


def test_a_french_sentence_elides_de_and_que_before_a_name_that_begins_with_a_vowel():
    entry = {"number": 2, "player": "alice", "moves": ["pass"], "by": "player"}
    with language.reading("fr"):
        assert phrases.referee_move(entry) == "coup 2 d'alice : passer" or \
            phrases.referee_move(entry).startswith("coup 2 d'alice : ")
        assert phrases.referee_move(dict(entry, player="bob")).startswith("coup 2 de bob : ")
        assert times.policy_text("first-legal", "Émile") == "l'arbitre joue le premier coup légal d'Émile"
    with language.reading("en"):
        assert phrases.referee_move(entry) == "move 2 by alice: pass"
    with language.reading("zh-Hant"):
        assert "alice" in phrases.referee_move(entry) and "d'" not in phrases.referee_move(entry)


def gold_fever(tmp_path, *extra) -> tuple[Pbem, object, list[str]]:
    """A 3-player game of La Fièvre de l'Or with `extra` options of `pbem new`, and its seats from the first bidder
    on."""
    pbem, directory = Pbem(), tmp_path / "g"
    args = ["new", "gold-fever", directory, "--seed", "queues", *extra]
    for player in NAMES[:3]:
        args += ["--player", player]
    assert pbem(*args).code == 0
    first = engine.status(engine.open_game(directory))["to_act"]
    return pbem, directory, NAMES[NAMES.index(first):3] + NAMES[:NAMES.index(first)]


def stopped_queue(tmp_path, *extra):
    """The third bidder's queue stops at `take 2` (the card the winner took): their status answers."""
    pbem, directory, (first, second, third) = gold_fever(tmp_path, *extra)
    for player, text in ((first, "bid 1"), (second, "bid 2; take 2"), (third, "pass; take 2; next; take 3"),
                         (first, "pass")):
        result = pbem("move", directory, "--as", player, "--text", text)
        assert result.code == 0, result.err
    return " ".join(pbem("status", directory, "--as", third).out.split())  # (its lines wrapped at 78 columns)


def test_a_stopped_queue_is_told_in_the_players_language_with_the_moves_in_their_words(tmp_path):
    french = stopped_queue(tmp_path, "--language", "fr")
    assert "(note : votre file s'est arrêtée à « prendre 2 », qui n'est pas légal maintenant (prendre une des" in french
    assert "légaux : prendre 1, prendre 3) ; abandonné : prendre 2; prendre 3)" in french


def test_a_stopped_queue_is_told_in_chinese(tmp_path):
    chinese = stopped_queue(tmp_path, "--language", "zh-Hant")
    assert "你的佇列停在「拿取 2」，它現在不合法" in chinese.replace(" ", "").replace("拿取2", "拿取 2")
    assert "已捨棄：" in chinese


def test_a_stopped_queue_keeps_its_english_notice(tmp_path):
    english = stopped_queue(tmp_path)
    assert "(note: your queue stopped at 'take 2', not legal now (take one of the cards on offer (a concession " \
           "is placed, an event acts); legal: take 1, take 3); dropped: take 2; take 3)" in english


def test_a_notice_no_template_reads_is_shown_as_it_was_written():
    with language.reading("fr"):
        assert queuenotes.shown("an older pbem's notice", "gold_fever") == "an older pbem's notice"
        dropped = queuenotes.written(queuenotes.ENDED, next="next", steps="pass; take 2")
        assert queuenotes.shown(dropped, "gold_fever") == (
            "non joué : le tour pour lequel vous l'aviez écrit s'est terminé avant (une étape pour un tour suivant "
            "se place après `ensuite`) : passer; prendre 2")


@pytest.mark.parametrize("code,said", [("fr", "joue pas dans g (joueurs : "), ("zh-Hant", " 沒有參加 g（玩家："),
                                       ("en", "'zed' does not play in g (players: ")])
def test_a_player_who_does_not_play_is_refused_in_the_games_language(tmp_path, code, said):
    pbem, directory, _ = gold_fever(tmp_path, "--language", code)
    result = pbem("status", directory, "--as", "zed")
    assert result.code == 2 and said in result.err


@pytest.mark.parametrize("code,said", [
    ("fr", "YAML non valide à la ligne 2, colonne 1 : "), ("zh-Hant", "第 2 行第 1 欄不是有效的 YAML"),
    ("en", "not valid YAML at line 2, column 1: ")])
def test_a_move_file_that_is_not_yaml_is_refused_in_the_players_language(tmp_path, code, said):
    pbem, directory, (first, _, _) = gold_fever(tmp_path, "--language", code)
    broken = tmp_path / "move.yaml"
    broken.write_text("moves: [bid 1\n")
    result = pbem("move", directory, broken, "--as", first)
    assert result.code == 2 and said in result.err, result.err


def test_a_move_file_too_large_counts_its_bytes_in_the_readers_units(tmp_path):
    from pbem.contract import PbemError
    from pbem.play import movefile
    with pytest.raises(PbemError) as refused:
        movefile.parse("x" * (movefile.MAX_BYTES + 1), "move.yaml")
    assert str(refused.value) == "move.yaml: too large: 65,537 bytes; a move file is at most 64 KB"
    with language.reading("fr"):
        assert refused.value.render() == "move.yaml : trop volumineux : 65,537 octets ; un fichier de coups fait " \
                                         "au plus 64 Ko"
    with language.reading("zh-Hant"):
        assert refused.value.render() == "move.yaml：檔案太大：65,537 位元組；走法檔案最多 64 KB"


def test_a_form_names_its_fields_in_the_readers_language():
    with language.reading("fr"):
        assert language.translator("fr").words("coal_baron", "cage <level>") == "ascenseur <niveau>"
    with language.reading("zh-Hant"):
        assert language.translator("zh-Hant").words("gold_fever", "bid up to <limit>").endswith("<上限>")
    assert str(phrases.Words("coal_baron", "cage <level>")) == "cage <level>"


def test_a_text_that_is_no_move_lists_the_forms_with_their_fields_translated():
    from pbem.notation import NotationError
    with pytest.raises(NotationError) as refused:
        registry.get("gold-fever").parse_move("fly away")
    with language.reading("fr"):
        shown = refused.value.message.render()
    assert "enchérir <montant>" in shown and "<amount>" not in shown and "bid <amount>" in str(refused.value)


def test_the_queue_help_texts_of_meta_yaml_are_in_the_catalogues():
    game = registry.get("coal-baron")
    help_text = game.meta["queues"]["disarm"]["new_shift"]["help"]
    with language.reading("fr"):
        assert Domain(game.package).stored(help_text, QUEUE_HELP) == "une nouvelle manche a commencé"
    with language.reading("zh-Hant"):
        assert Domain(game.package).stored(help_text, QUEUE_HELP) == "新的一輪開始了"


def test_verifys_note_on_a_bot_move_it_cannot_remake_is_in_the_readers_language():
    game = registry.get("coal-baron")
    entry = {"number": 7, "player": "ann", "bot_version": 1}
    with language.reading("en"):
        assert botmoves.not_remade_note(game, entry, timeout=False) == (
            f"move 7: ann's bot move was chosen by version 1 of the Coal Baron bot (this pbem has version "
            f"{game.bot_version}): checked as legal, not recomputed")
    with language.reading("fr"):
        assert botmoves.not_remade_note(game, entry, timeout=True).startswith(
            "coup 7 (délai dépassé, pour ann) : choisi par la version 1 du robot de Coal Baron (ce pbem a la version")
    with language.reading("zh-Hant"):
        assert botmoves.not_remade_note(game, entry, timeout=False).startswith("第 7 步（ann 的電腦走法）：由 煤炭大亨 電腦")


@pytest.mark.parametrize("code,said", [
    ("fr", "ann a déjà des vacances du mardi 1 décembre 2026 à 00:00 UTC au jeudi 3 décembre 2026 à 00:00 UTC : "
           "annulez-les d'abord (vacation cancel)"),
    ("zh-Hant", "ann 已經有一段從 2026年12月1日 00:00 UTC 到 2026年12月3日 00:00 UTC 的休假：請先取消它"),
    ("en", "ann already has a vacation from Tue 1 Dec 2026 00:00 UTC to Thu 3 Dec 2026 00:00 UTC: cancel it first")])
def test_a_vacation_that_overlaps_another_is_refused_in_the_players_language(tmp_path, code, said):
    """The refusal as a transport renders it for its reader (`pbem vacation` and the mail `vacation` command call
    pbem.clock.correspondence.vacation where the player's language is set)."""
    from pbem.clock import correspondence
    from pbem.contract import PbemError
    pbem, directory = Pbem(), tmp_path / "g"
    assert pbem("new", "gold-fever", directory, "--player", "ann", "--player", "bob", "--player", "cid",
                "--deadline", "3d", "--now", "2026-11-29T10:00:00Z").code == 0
    now = "2026-11-29T10:00:00Z"
    correspondence.vacation(engine.open_game(directory), "ann", now, "2026-12-01", "2026-12-02")
    with language.reading(code), pytest.raises(PbemError) as refused:
        correspondence.vacation(engine.open_game(directory), "ann", now, "2026-12-02", "2026-12-04")
    with language.reading(code):
        assert said in refused.value.render()
    assert str(refused.value).startswith("ann already has a vacation from Tue 1 Dec 2026 00:00 UTC to ")  # (logs)


def _edit(directory, relative: str, old: str, new: str) -> None:
    path = directory / relative
    path.write_text(path.read_text().replace(old, new, 1))


BROKEN_BY_HAND = {  # a game directory changed outside pbem, and what a French game's player is told (in French)
    "state": (lambda d: (d / "referee" / "state.yaml").open("a").write("# edited\n"),
              "referee/state.yaml a été modifié hors de pbem (il ne correspond pas à la somme de contrôle"),
    "game.yaml": (lambda d: _edit(d, "game.yaml", "short-game: ", "short-game: x"),
                  "game.yaml ne décrit pas l'état de l'arbitre (options diffèrent) : il a été modifié hors de pbem"),
    "game type": (lambda d: _edit(d, "game.yaml", "game: gold-fever", "game: go-fish"),
                  "le jeu 'go-fish' n'est pas installé ici (les jeux installés : chartered, "),
    "rules": (lambda d: _edit(d, "game.yaml", "rules_version: ", "rules_version: 9"),
              "g a été créée avec la version 9"),
}


@pytest.mark.parametrize("broken", list(BROKEN_BY_HAND))
def test_a_game_directory_changed_by_hand_is_refused_in_the_readers_language(tmp_path, broken):
    pbem, directory, (first, _, _) = gold_fever(tmp_path, "--language", "fr")
    BROKEN_BY_HAND[broken][0](directory)
    result = pbem("move", directory, "--as", first, "--text", "bid 1", "--language", "fr")
    assert result.code == 2
    assert BROKEN_BY_HAND[broken][1] in " ".join(result.err.split()), result.err


def test_every_games_options_say_what_they_do_in_each_language(tmp_path):
    """`pbem games --language CODE`: what each option of each game does (meta.yaml `options:`, from the game's own
    catalogue), its headings in the language; the options' names and values, which --option takes, as they are."""
    pbem = Pbem()
    for code in language.LANGUAGES:
        if code == "en":
            continue
        result = pbem("games", "--language", code)
        assert result.code == 0, result.err
        assert max(width(line) for line in result.out.splitlines()) <= 78, code
        shown = "".join(result.out.split())  # (a Chinese line wraps between characters: compared without spaces)
        for game in registry.all_games():
            for key, spec in game.meta.get("options", {}).items():
                with language.reading(code):
                    said = Domain(game.package).stored(spec["help"], OPTION_HELP)
                assert said != spec["help"], (code, game.id, key)  # translated
                assert "".join(said.split()) in shown and f"{key}={'|'.join(spec['choices'])}" in shown
    french = " ".join(pbem("games", "--language", "fr").out.split())
    assert "options de gold-fever (--option CLÉ=VALEUR) : short-game=off|on (par défaut off) à 3 joueurs seulement, " \
           "la partie courte de l'édition anglaise" in french
