"""What a player sees beyond the reports, in their language: a picture's frame (title band, legend, "(you)", the
final ranking), the site's pages (each game's in its language, `<html lang>` saying which; the index and league
page in the games' common one or `pbem site --language`), and the command line's answers and refusals a player
reads (`pbem notify/pictures/language/vacation/verify/move/queue`). English stays as it was."""
from __future__ import annotations

import html
import re

from pathlib import Path

import pytest

from support import NAMES
from pbem.cli import demo
from pbem.store import yamlio
from pbem.text import language, pictures, pseudo
from pbem.text.sheet import Sheet, text_width, wrap

FRENCH, CHINESE = "fr", "zh-Hant"


def made(pbem, directory, game="coal-baron", own=(), *extra) -> dict:
    """A new game of two players with the languages `own` (alice=fr, ...); the players' secrets."""
    args = ["new", game, directory, "--seed", "face", "--format", "json", *extra]
    for name in NAMES[:2]:
        args += ["--player", name]
    for spec in own:
        args += ["--player-language", spec]
    result = pbem(*args)
    assert result.code == 0, result.err
    return {p["name"]: p["secret"] for p in result.json()["players"]}


def shown(svg: str) -> str:
    """The words of an SVG picture, its entities read."""
    return html.unescape(svg)


# ---------------------------------------------------------------------------------------------- pictures' frames

def test_a_pictures_frame_is_in_the_language_of_the_player_whose_view_it_draws(tmp_path, pbem):
    directory = tmp_path / "spring"
    made(pbem, directory, "coal-baron", [f"alice={FRENCH}", f"bob={CHINESE}"])
    french = shown(pbem("board", directory, "--as", "alice").out)
    assert "Légende" in french and "alice (vous)" in french and "partie spring — ce que voit alice" in french
    assert re.search("Coup 1 : à (alice|bob) de jouer", french) and "Legend" not in french
    chinese = shown(pbem("board", directory, "--as", "bob").out)
    assert "圖例" in chinese and "bob（你）" in chinese and "遊戲 spring — bob 的視角" in chinese
    assert re.search("第 1 步：輪到 (alice|bob)", chinese) and "bob 的視角。第 1 步" in chinese  # its <title>
    public = shown(pbem("board", directory).out)
    assert "Legend" in public and "(you)" not in public and re.search("Move 1: (alice|bob) to act", public)


def test_a_finished_games_picture_gives_the_final_ranking_in_the_language_read(tmp_path, pbem):
    directory = tmp_path / "autumn"
    demo.run("gold-fever", 3, "face", {}, directory, 0, lambda *_: None)
    english = shown(pbem("board", directory).out)
    assert "Final ranking" in english and "the game is over; won by" in english
    french = shown(pbem("board", directory, "--language", "fr").out)
    assert "Classement final" in french and "la partie est finie ; gagnée par" in french
    assert "Final ranking" not in french
    chinese = shown(pbem("board", directory, "--language", "zh-Hant").out)
    assert "最終排名" in chinese and "遊戲結束；由" in chinese


POSITIONS = sorted((Path(__file__).resolve().parents[1] / "pictures" / "positions").glob("*.yaml"))


@pytest.mark.parametrize("position", POSITIONS, ids=lambda path: path.stem)
def test_every_word_of_a_pictures_frame_is_a_message_in_the_pseudo_locale(position, monkeypatch):
    """The title band, the legend's heading and seats, "(you)" and the final ranking: marked messages, names and
    numbers only (the game's own drawing is its own catalogue's)."""
    monkeypatch.setenv(language.PSEUDO_ENV, "1")
    doc = yamlio.loads(position.read_bytes())
    players = pictures.players_of(doc)
    with language.reading(None):
        title, status = pictures.headline(doc)
        frame = Sheet(players, doc.get("player"))
        legend = Sheet(players)
        pictures.draw_legend(legend, frame, 600)
        pictures.final_ranking(legend, doc.get("ranking") or [{"rank": 1, "player": players[0], "score": 3}], 0)
    words = [title, status] + [mark[3] for mark in legend.marks if mark[0] == "text"]
    names = {"pbem", doc["id"], *players}
    assert len(words) > 4 and not pseudo.unmarked("\n".join(words), names)
    assert all(pseudo.OPEN in line for line in (title, status))


def test_a_french_line_never_begins_with_its_colon_or_semicolon():
    text = "Coup 41 : à dave de jouer — acheter une carte ; si vous ne pouvez pas : vendre « des actions »"
    for width in range(40, 400, 7):
        lines = wrap(text, 12, width)
        assert " ".join(lines) == text or width < 80  # (narrower, a word is broken between its letters)
        assert not any(line[0] in ":;»" for line in lines), lines
        assert not any(line.endswith("«") for line in lines), lines


def test_a_chinese_line_never_begins_with_a_full_width_comma_or_stop():
    text = "第 41 步：輪到 dave — 購買一張倉庫卡（可先刷新市場），或建造一座倉庫；兩者都不能時，賣出股份來購買一張卡。"
    for width in range(60, 500, 5):
        lines = wrap(text, 12, width)
        assert "".join(lines).replace(" ", "") == text.replace(" ", "")
        assert not any(line[0] in "，。、；：）" for line in lines), lines
        assert all(text_width(line, 12) <= width or len(line) <= 2 for line in lines), lines


# ---------------------------------------------------------------------------------------------------- the site

def site_root(tmp_path, pbem, languages: list[str]):
    root = tmp_path / "games"
    root.mkdir()
    for number, code in enumerate(languages):
        made(pbem, root / f"cup-{number}", "coal-baron", (), "--language", code)
    return root


def test_each_game_page_is_in_its_games_language_and_says_so(tmp_path, pbem):
    root, out = site_root(tmp_path, pbem, [FRENCH, CHINESE]), tmp_path / "site"
    assert pbem("site", root, out).code == 0
    french, log = (out / "cup-0" / "index.html").read_text(), (out / "cup-0" / "log.html").read_text()
    assert '<html lang="fr">' in french and "La position en toutes lettres" in french
    assert "← toutes les parties" in french and ">journal</a>" in french and "Légende" in french
    assert '<html lang="fr">' in log and "← la partie" in log and "<th>joueur</th>" in log
    chinese = (out / "cup-1" / "index.html").read_text()
    assert '<html lang="zh-Hant">' in chinese and "局面的文字說明" in chinese and "圖例" in chinese
    # the games' languages differ: the index is in English
    index = (out / "index.html").read_text()
    assert '<html lang="en">' in index and "<h1>Our games</h1>" in index and " to act</td>" in index


def test_the_index_is_in_the_games_common_language_or_the_one_asked_for(tmp_path, pbem):
    root, out = site_root(tmp_path, pbem, [FRENCH, FRENCH]), tmp_path / "site"
    assert pbem("site", root, out, "--now", "2026-03-02T12:00:00Z").code == 0
    index = (out / "index.html").read_text()
    assert '<html lang="fr">' in index and "<h1>Nos parties</h1>" in index and "de jouer</td>" in index
    assert "État au lundi 2 mars 2026" in index and "<th>où elle en est</th>" in index
    assert "La ligue : classements et cotes des parties terminées" in index
    assert '<html lang="fr">' in (out / "league.html").read_text()
    assert pbem("site", root, out, "--language", "zh-Hant", "--now", "2026-03-02T12:00:00Z").code == 0
    index = (out / "index.html").read_text()
    assert '<html lang="zh-Hant">' in index and "<h1>我們的遊戲</h1>" in index and "<td>輪到 " in index
    assert "截至 2026年3月2日 12:00 UTC。" in index
    assert '<html lang="zh-Hant">' in (out / "league.html").read_text()
    # the games' own pages stay in their language
    assert '<html lang="fr">' in (out / "cup-0" / "index.html").read_text()


def page_words(page: Path) -> str:
    """What a reader of a page reads: its text, without its markup, style and pictures (checked on their own)."""
    text = re.sub(r"<(svg|style)\b.*?</\1>", " ", page.read_text(), flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", "\n", text))


def test_every_word_of_the_site_is_a_message_in_the_pseudo_locale(tmp_path, pbem, monkeypatch):
    """The index, each game's page and log, the league page: marked messages, names and numbers only (a game with
    no deadline: the clock's sentences are pbem.text.times')."""
    monkeypatch.setenv(language.PSEUDO_ENV, "1")
    root, out = tmp_path / "games", tmp_path / "site"
    demo.run("gold-fever", 3, "face", {}, root / "autumn", 0, lambda *_: None)
    made(pbem, root / "spring")
    assert pbem("site", root, out).code == 0
    pages = sorted(out.rglob("*.html"))
    assert len(pages) == 6
    for page in pages:
        found = pseudo.unmarked(page_words(page), {"pbem", "autumn", "spring", "face", *NAMES[:3]})
        assert not found, f"{page.relative_to(out)}: " + "\n".join(found[:5])


def test_an_unknown_site_language_is_refused_with_the_languages_listed(tmp_path, pbem):
    result = pbem("site", site_root(tmp_path, pbem, [FRENCH]), tmp_path / "site", "--language", "xx")
    assert result.code == 2 and "fr (français)" in result.err and not (tmp_path / "site").exists()


# ------------------------------------------------------------------------------------- the command line's answers

@pytest.mark.parametrize("code,said", [
    (None, ["g: alice gets a daily digest by mail.", "g: alice's mails are text only.",
            "g: alice gets mail at every move.", "g: alice's mails carry a picture of the board."]),
    (FRENCH, ["g : alice reçoit un résumé quotidien par courriel.", "g : alice reçoit des courriels en texte seul.",
              "g : alice reçoit un courriel à chaque coup.", "g : alice reçoit des courriels avec une image du "
              "plateau."]),
    (CHINESE, ["g：alice 每天收到一封摘要郵件。", "g：alice 的郵件只有文字。", "g：alice 每一步都會收到郵件。",
               "g：alice 的郵件附上圖板的圖片。"])])
def test_a_players_preferences_are_answered_in_their_language(tmp_path, pbem, code, said):
    directory = tmp_path / "g"
    made(pbem, directory, "coal-baron", [f"alice={code}"] if code else [])
    assert pbem("notify", directory, "daily", "--as", "alice").out == said[0] + "\n"
    assert pbem("pictures", directory, "off", "--as", "alice").out == said[1] + "\n"
    assert pbem("notify", directory, "every", "--as", "alice").out == said[2] + "\n"
    assert pbem("pictures", directory, "on", "--as", "alice").out == said[3] + "\n"
    assert pbem("notify", directory, "turn", "--as", "bob").out.startswith("g: bob gets mail when it is their turn")


def test_the_language_command_answers_in_the_language_chosen(tmp_path, pbem):
    directory = tmp_path / "g"
    made(pbem, directory)
    assert pbem("language", directory, "zh-Hant", "--as", "bob").out == "g：bob 現在使用的語言是 zh-Hant（繁體中文）。\n"
    assert pbem("language", directory, "en", "--as", "bob").out == "g: bob reads en (English).\n"
    refused = pbem("language", directory, "klingon", "--as", "bob")
    assert refused.code == 2 and "zh-Hant (繁體中文)" in refused.err


def test_a_vacation_is_answered_in_the_players_language(tmp_path, pbem):
    directory = tmp_path / "g"
    made(pbem, directory, "coal-baron", [f"bob={FRENCH}"], "--deadline", "72h", "--now", "2026-03-01T12:00:00Z")
    result = pbem("vacation", directory, "--as", "bob", "2026-03-10", "2026-03-12", "--now", "2026-03-01T13:00:00Z")
    assert result.code == 0, result.err
    assert result.out.startswith("g : délai de 3d par décision ; en cas de retard : attendre ; congés jusqu'à 14 ")
    english = pbem("deadline", directory, "--now", "2026-03-01T13:00:00Z")  # the organiser's: in English
    assert english.out.startswith("g: deadline 3d a decision; on timeout: wait; vacations up to 14 days a year.")


@pytest.mark.parametrize("code,said", [(None, "g: verified, 0 moves replayed; identical to the replay: "),
                                       (FRENCH, "g : vérifiée, 0 coup rejoué ; identiques à la partie rejouée : "),
                                       (CHINESE, "g：已驗證，重播了 0 步；與重播結果相同：")])
def test_verify_answers_in_the_language_read(tmp_path, pbem, code, said):
    directory = tmp_path / "g"
    made(pbem, directory)
    result = pbem("verify", directory, *(["--language", code] if code else []))
    assert result.code == 0 and result.out.startswith(said), result.out


@pytest.mark.parametrize("code,played,verified", [
    (None, "#8 bob (the referee: only legal move): take 3  [production roll, turn 1: 2, 6]",
     "Verified: 9 moves replayed from the seed; files identical."),
    (FRENCH, "n° 8 bob (l'arbitre : seul coup légal) : prendre 3  [lancer de production, tour 1 : 2, 6]",
     "Vérifié : 9 coups rejoués depuis la graine ; fichiers identiques."),
    (CHINESE, "#8 bob（裁判：唯一合法走法）：拿取 3  [生產擲骰，第 1 回合：2、6]",
     "已驗證：以種子重播 9 步，檔案完全相同。")])
def test_a_demo_is_played_in_the_language_asked_for(tmp_path, pbem, code, played, verified):
    directory = tmp_path / "demo-gold-fever"  # the game a demo without --dir plays
    result = pbem("demo", "gold-fever", "--players", "3", "--moves", "8", "--dir", directory,
                  *(["--language", code] if code else []))
    lines = result.out.splitlines()
    assert result.code == 0 and played in lines and verified in lines, result.out
    assert pbem("status", directory).out.split("\n", 1)[0] in lines  # the game's language is the demo's


def test_every_word_of_a_demo_is_a_message_in_the_pseudo_locale(tmp_path, pbem, monkeypatch):
    monkeypatch.setenv(language.PSEUDO_ENV, "1")
    result = pbem("demo", "gold-fever", "--players", "3", "--moves", "8", "--language", FRENCH)
    assert result.code == 0 and not pseudo.unmarked(result.out, {"pbem", *NAMES[:3]})


def test_a_demo_in_a_language_pbem_does_not_speak_is_refused(tmp_path, pbem):
    result = pbem("demo", "gold-fever", "--language", "xx", "--dir", tmp_path / "g")
    assert result.code == 2 and "not a language pbem speaks" in result.err and not (tmp_path / "g").exists()


def test_a_move_file_for_another_game_is_refused_in_the_players_language(tmp_path, pbem):
    secrets = made(pbem, tmp_path / "other")
    made(pbem, tmp_path / "g", "coal-baron", [f"alice={CHINESE}", f"bob={CHINESE}"])
    turn = pbem("moves", tmp_path / "other", "--format", "json").json()
    move = turn["moves"][0]
    signed = tmp_path / "move.yaml"
    player = turn["to_act"]
    assert pbem("sign", "--secret", secrets[player], "--game", "other", "--move-number", turn["move_number"],
                "--as", player, "--text", move, "-o", signed).code == 0
    refused = pbem("move", tmp_path / "g", signed, "--as", player)
    assert refused.code == 2 and "這個走法屬於遊戲 'other'，這裡是 'g'" in refused.err
    assert pbem("language", tmp_path / "g", "en", "--as", player).code == 0
    refused = pbem("move", tmp_path / "g", signed, "--as", player)
    assert "the move is for game 'other', this is 'g'" in refused.err


def test_every_word_of_the_players_commands_answers_is_a_message_in_the_pseudo_locale(tmp_path, pbem, monkeypatch):
    monkeypatch.setenv(language.PSEUDO_ENV, "1")
    directory = tmp_path / "g"
    made(pbem, directory)
    answers = [pbem("notify", directory, choice, "--as", "alice") for choice in ("every", "turn", "daily")]
    answers += [pbem("pictures", directory, choice, "--as", "alice") for choice in ("on", "off")]
    answers += [pbem("language", directory, "fr", "--as", "alice"), pbem("language", directory, "xx", "--as", "bob"),
                pbem("verify", directory), pbem("move", directory, tmp_path / "nothing.yaml", "--as", "bob")]
    for answer in answers:
        assert answer.out or answer.err
        assert not pseudo.unmarked(answer.out + answer.err, {"pbem", "g", "fr", "xx", *NAMES[:2]})


def test_sign_answers_in_the_language_asked_for(tmp_path, pbem):
    secrets = made(pbem, tmp_path / "g")
    turn = pbem("moves", tmp_path / "g", "--format", "json").json()
    args = ["sign", "--secret", secrets[turn["to_act"]], "--game", "g", "--move-number", turn["move_number"], "--as",
            turn["to_act"], "--text", turn["moves"][0], "-o", tmp_path / "move.yaml"]
    assert pbem(*args).err == f"signed {tmp_path / 'move.yaml'}\n"
    assert pbem(*args, "--language", "zh-Hant").err == f"已簽署 {tmp_path / 'move.yaml'}\n"
    assert pbem(*args, "--language", "fr").err == f"{tmp_path / 'move.yaml'} signé\n"
    refused = pbem("sign", tmp_path / "move.yaml", "--secret-file", tmp_path / "none", "--language", "fr")
    assert refused.code == 2 and f"{tmp_path / 'none'} : illisible (" in refused.err


def test_an_internal_error_is_told_in_the_players_language(tmp_path, pbem, monkeypatch, capsys):
    from pbem.cli import commands
    from pbem.engine import engine
    made(pbem, tmp_path / "g", "coal-baron", [f"alice={CHINESE}"])

    def broken(*args, **kwargs):
        raise RuntimeError("boom")
    monkeypatch.setattr(engine, "status_with_notes", broken)
    monkeypatch.delenv("PBEM_DEBUG", raising=False)
    capsys.readouterr()
    assert commands.main(["status", str(tmp_path / "g"), "--as", "alice"]) == 3
    assert "pbem: 內部錯誤（RuntimeError: boom）；遊戲檔案沒有改變。" in capsys.readouterr().err
    assert commands.main(["status", str(tmp_path / "g"), "--as", "bob"]) == 3
    assert "pbem: internal error (RuntimeError: boom); the game files are unchanged." in capsys.readouterr().err


def test_a_games_table_talk_page_is_in_its_games_language(tmp_path, pbem):
    root, out = tmp_path / "games", tmp_path / "site"
    secrets = made(pbem, root / "cup", "coal-baron", (), "--language", FRENCH)
    assert pbem("say", root / "cup", "--as", "alice", "--secret", secrets["alice"], "bonne chance").code == 0
    assert pbem("site", root, out).code == 0
    talk = (out / "cup" / "talk.html").read_text()
    assert '<html lang="fr">' in talk and "— partie cup — messages de la table</h1>" in talk
    assert "← la partie" in talk and "alice à la table" in talk and "bonne chance" in talk
    assert '<a href="talk.html">messages de la table</a>' in (out / "cup" / "index.html").read_text()
