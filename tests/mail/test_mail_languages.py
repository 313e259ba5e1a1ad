"""Each mail in its reader's language: a player's own choice, else the game's; the organiser reads the game's. Real
mails through the real transport (`pbem new --smtp`, `pbem mail receive`, `pbem tick`) to an SMTP server on
127.0.0.1; English mails as they always were, with a Content-Language."""
from __future__ import annotations

import datetime
import email
import email.policy

import pytest

from pbem.contract import PbemError
from pbem.engine import engine
from pbem.mail import refused
from pbem.messages import lazy
from pbem.text import language, times
from mailkit import ORGANISER, body_of, create_game, move_mail, run_cli, write_mail
from support import legal_turn

T0 = "2025-12-01T12:00:00Z"


def at(hours: float) -> str:
    return times.iso(times.parse_time(T0) + datetime.timedelta(hours=hours))


def start(games_root, smtp, *options):
    """Coal Baron for alice (French, the game's language) and bob (Traditional Chinese, his own)."""
    return create_game(games_root, "coal-baron", 2, seed="mail-languages", welcome=smtp.address,
                       options=("--now", T0, "--language", "fr", "--player-language", "bob=zh-Hant", *options))


def receive(games_root, smtp, raw, hours=1) -> str:
    result = run_cli("mail", "receive", "--games", games_root, "--smtp", smtp.address, "--now", at(hours),
                     input=raw)
    assert result.code == 0, result.output
    return result.stdout


def mail_to(mails, name: str):
    (found,) = [m for m in mails if m["To"] == f"{name}@players.example"]
    return found


def command(game, player: str, text: str) -> bytes:
    return write_mail(game.address(player), f"Password: {game.secret(player)}\n{text}\n", f"Re: [{game.id}] {text}")


def test_each_players_welcome_is_in_their_language_with_its_content_language(games_root, smtp):
    start(games_root, smtp)
    mails = smtp.take()
    french, chinese = mail_to(mails, "alice"), mail_to(mails, "bob")
    assert french["Content-Language"] == "fr" and chinese["Content-Language"] == "zh-Hant-TW"
    assert french["Subject"] == "[g1] Coal Baron : bienvenue, votre mot de passe et comment jouer"
    assert chinese["Subject"] == "[g1] 煤炭大亨：歡迎，你的密碼與下棋方式"
    assert "Bienvenue dans Coal Baron, partie g1. Vous jouez alice, contre bob." in body_of(french)
    assert "Ordre de jeu : alice, bob." in body_of(french)
    assert "歡迎來到《煤炭大亨》，遊戲 g1。你以 bob 的身分對戰 alice。" in body_of(chinese)
    assert "Password: " in body_of(chinese)  # the word the referee reads stays as it is read


def test_a_chinese_subject_is_sent_as_rfc_2047_encoded_words_and_reads_back_whole(games_root, smtp):
    start(games_root, smtp)
    chinese = mail_to(smtp.take(), "bob")
    raw = chinese.as_bytes()
    head = raw.split(b"\r\n\r\n", 1)[0] if b"\r\n\r\n" in raw else raw.split(b"\n\n", 1)[0]
    assert head.isascii(), "every header is 7-bit on the wire"
    subject_lines = [line for line in head.decode().splitlines() if line.startswith("Subject:")]
    assert subject_lines and "=?utf-8?" in subject_lines[0].lower()
    again = email.message_from_bytes(raw, policy=email.policy.default)
    assert str(again["Subject"]) == "[g1] 煤炭大亨：歡迎，你的密碼與下棋方式"


def test_a_report_goes_to_each_player_in_their_own_language(games_root, smtp):
    game = start(games_root, smtp)
    smtp.take()
    player, move, number = legal_turn(game.dir)
    receive(games_root, smtp, move_mail(game, player, [move], move_number=number))
    mails = smtp.take()
    french, chinese = mail_to(mails, "alice"), mail_to(mails, "bob")
    assert "Coup 1 : " in body_of(french) and "a joué" in body_of(french)
    assert "第 1 步：" in body_of(chinese) and "下了" in body_of(chinese)
    assert chinese["Content-Language"] == "zh-Hant-TW" and french["Content-Language"] == "fr"


def test_a_refused_move_is_answered_in_the_senders_language_without_the_english_legal_list(games_root, smtp):
    game = start(games_root, smtp)
    smtp.take()
    player, _move, number = legal_turn(game.dir)
    out = receive(games_root, smtp, move_mail(game, player, ["nothing 99"], move_number=number))
    (answer,) = smtp.take()
    text = body_of(answer)
    expected = {"alice": ("Votre courriel n'a pas été appliqué : la partie g1 est inchangée.", "Vos coups légaux"),
                "bob": ("你的郵件未被採用：遊戲 g1 沒有任何變動。", "你現在的合法走法")}[player]
    assert text.startswith(expected[0]) and expected[1] in text
    wrong = text.split("\n\n")[1]  # what was wrong: the refusal, its one-line list of legal moves cut off
    assert "Légaux maintenant" not in wrong and "現在合法的走法：" not in wrong
    assert "rejected" in out and "not a move of" in out, "the organiser's log stays English"


def test_a_stranger_writing_about_a_game_reads_the_games_language(games_root, smtp):
    start(games_root, smtp)
    smtp.take()
    receive(games_root, smtp, write_mail("eve@elsewhere.example", "Password: x\nbid 2\n", "Re: [g1] move"))
    (answer,) = smtp.take()
    assert answer["Content-Language"] == "fr"
    assert "eve@elsewhere.example n'est l'adresse enregistrée d'aucun joueur de g1." in body_of(answer)


def test_the_answer_to_language_is_in_the_language_just_chosen(games_root, smtp):
    game = start(games_root, smtp)
    smtp.take()
    receive(games_root, smtp, command(game, "alice", "language zh-Hant"))
    (answer,) = smtp.take()
    assert answer["Content-Language"] == "zh-Hant-TW" and "語言 zh-Hant 已記錄" in answer["Subject"]
    assert "從現在起，這局遊戲以繁體中文顯示。" in body_of(answer)


def test_a_reminder_and_its_html_part_are_in_the_readers_language(games_root, smtp, monkeypatch):
    monkeypatch.setenv("PBEM_MAIL_PICTURES", "1")
    game = start(games_root, smtp, "--deadline", "48h", "--reminder", "12h", "--on-timeout", "first-legal")
    smtp.take()
    player = legal_turn(game.dir)[0]
    result = run_cli("tick", games_root, "--now", at(37), "--smtp", smtp.address)
    assert result.code == 0, result.output
    (reminder,) = smtp.take()
    said = {"alice": ("Rappel : l'arbitre attend toujours votre coup 1.", "rappel", "fr"),
            "bob": ("提醒：裁判仍在等你的第 1 步。", "提醒", "zh-Hant-TW")}[player]
    assert body_of(reminder).startswith(said[0]) and said[1] in reminder["Subject"]
    html = reminder.get_body(preferencelist=("html",))
    if html is not None:  # Pillow installed: the picture's HTML part says its language
        assert f'<html lang="{said[2]}">' in html.get_content()


def test_english_mails_are_as_they_were_and_say_so(games_root, smtp):
    create_game(games_root, "coal-baron", 2, seed="mail-languages", welcome=smtp.address, options=("--now", T0))
    welcome = mail_to(smtp.take(), "alice")
    assert welcome["Content-Language"] == "en"
    assert welcome["Subject"] == "[g1] Coal Baron: welcome, your password and how to move"
    text = body_of(welcome)
    assert text.startswith("Welcome to Coal Baron, game g1. You play as alice, against bob.\n\nSeating order: "
                           "alice, bob.\n\nYour password (keep it private;")
    assert "How to move: reply to this mail (keep the [g1] in the subject) and write," in text


@pytest.mark.parametrize("code, choice, ordering", [
    ("en", "(any a..b of w1 w2 ...) means", "(w1 w2 ... in any order) means"),
    ("fr", "(a..b au choix parmi w1 w2 ...) signifie", "(w1 w2 ... dans l'ordre de votre choix) signifie"),
    ("zh-Hant", "（從 w1 w2 ... 中任選 a..b 個）表示", "（w1 w2 ...，順序不拘）表示")])
def test_the_note_on_how_to_write_a_form_shows_it_as_the_legal_moves_write_it_in_the_readers_language(code, choice,
                                                                                                    ordering):
    from pbem.mail.compose import form_note
    with language.reading(code):
        note = form_note(["superpose (any 1 of 4 7 9)", "return (t01 t02 in any order)"], "chartered")
    assert choice in note and ordering in note


def test_the_legal_moves_are_cut_from_a_refusal_by_their_placeholder_in_any_language():
    error = PbemError(lazy("{step}: {error}", step="step 1", error=lazy(
        "{step} is not legal now: {why}. Your decision: {decision}. Legal now: {legal}.", step="bid 9",
        why="too much", decision="bid", legal=["bid 1", "pass"])))
    assert refused.without_legal(error) == "step 1: bid 9 is not legal now: too much. Your decision: bid."
    with language.reading("fr"):
        french = refused.without_legal(error)
    with language.reading("zh-Hant"):
        chinese = refused.without_legal(error)
    assert french.endswith("Votre décision : bid.") and "bid 1" not in french
    assert chinese.endswith("你的決定：bid。") and "bid 1" not in chinese
    assert refused.without_legal(PbemError("plain. Legal now: a, b")) == "plain."


def test_cutting_the_legal_moves_keeps_the_pseudo_locales_marks_balanced(monkeypatch):
    from pbem.text import pseudo
    monkeypatch.setenv(language.PSEUDO_ENV, "1")
    error = PbemError(lazy("{text} is not a move of {title}. Legal now: {legal}.", text="'x'", title="T",
                           legal=["a"]))
    with language.reading("fr"):
        shown = refused.without_legal(error)
    assert shown.startswith("⟦") and shown.endswith(".⟧") and pseudo.unmarked(shown, {"x", "T"}) == []


ANSWERS = {  # a command, and what its answer says to alice (French, the game's) and to bob (his Chinese)
    "help": ("Pour jouer : répondez à ce courriel", "如何下棋：回覆這封郵件"),
    "queue": ("Rien n'est en file.", "佇列是空的。"),
    "notify daily": ("Votre préférence de courriel est maintenant `daily`.", "你的郵件偏好現在是 `daily`。"),
    "pictures off": ("Images désactivées : vos courriels sont en texte seul.", "圖片已關閉：你的郵件只有文字。"),
    "vacation 2025-12-05 2025-12-06": ("Vos vacances du ", "的休假已記錄；其他玩家看得到。"),
}


@pytest.mark.parametrize("text", list(ANSWERS))
def test_the_answer_to_a_command_is_in_its_senders_language(games_root, smtp, text):
    game = start(games_root, smtp, "--deadline", "48h")
    smtp.take()
    for name, said in zip(("alice", "bob"), ANSWERS[text]):
        receive(games_root, smtp, command(game, name, text))
        (answer,) = smtp.take()
        assert said in body_of(answer), (name, body_of(answer)[:400])


def test_a_timeout_notice_is_in_the_late_players_language(games_root, smtp):
    game = start(games_root, smtp, "--deadline", "48h", "--on-timeout", "first-legal")
    smtp.take()
    player = legal_turn(game.dir)[0]
    result = run_cli("tick", games_root, "--now", at(49), "--smtp", smtp.address)
    assert result.code == 0, result.output
    notice = mail_to(smtp.take(), player)
    said = {"alice": ("coup 1, délai dépassé : l'arbitre a joué pour vous",
                      "l'arbitre joue donc votre premier coup légal pour cette décision"),
            "bob": ("第 1 步，逾時：裁判替你下了", "所以裁判替這個決定下了你的第一個合法走法")}[player]
    assert said[0] in notice["Subject"] and said[1] in body_of(notice)


def test_a_new_holder_of_a_seat_reads_the_games_language_until_they_choose(games_root, smtp):
    game = start(games_root, smtp, "--deadline", "48h")
    smtp.take()
    result = run_cli("replace", game.dir, "--seat", "bob", "--by", "zoe:zoe@players.example", "--now", at(1),
                     "--smtp", smtp.address)
    assert result.code == 0, result.output
    (welcome,) = smtp.take()
    assert welcome["Content-Language"] == "fr" and "bienvenue, vous jouez bob" in welcome["Subject"]
    assert "Vous reprenez la place bob à partir du coup" in " ".join(body_of(welcome).split())


def test_the_end_of_the_game_is_told_to_each_player_in_their_language_and_to_the_organiser_in_the_games(
        games_root, smtp):
    game = start(games_root, smtp)
    smtp.take()
    while (player := game.to_act()) is not None:
        receive(games_root, smtp, move_mail(game, player, ["resign"]))
    mails = smtp.take()
    last = {name: [m for m in mails if m["To"] == address][-1]
            for name, address in (("alice", "alice@players.example"), ("bob", "bob@players.example"),
                                  ("organiser", ORGANISER))}
    assert "La partie est finie. La graine est révélée : mail-languages" in body_of(last["alice"])
    assert "遊戲結束。種子已公開：mail-languages" in body_of(last["bob"])
    assert last["organiser"]["Content-Language"] == "fr" and "partie finie" in last["organiser"]["Subject"]


def test_the_help_by_mail_names_the_queue_words_and_resign_in_its_readers_language(games_root, smtp):
    """The queue's words and `resign` have names in each language's glossary, which the referee reads: the help
    says those; the commands read only in English (status, moves, help, queue) stay as they are."""
    game = start(games_root, smtp)
    smtp.take()
    said = {"alice": ["`ensuite` entre deux tours", "`A sinon B`", "`A si CONDITION`", "`permanent MOT: ÉTAPE`",
                      "status, moves, help, abandonner ;", "`A sinon B sinon C`", "`A si CONDITION et non CONDITION`",
                      "`permanent MOT: annuler`", "choisir meilleure : la commande révélée",
                      "<case> libre : aucun ouvrier"],  # a form and what it does, as French punctuation sets them
            "bob": ["`下一回合`", "`A 否則 B`", "`A 如果 條件`", "`常設 名稱: 步驟`", "help、棄權；",
                    "`A 如果 條件 而且 不 條件`", "`常設 名稱: 取消`"]}
    for name in ("alice", "bob"):
        receive(games_root, smtp, command(game, name, "help"))
        (answer,) = smtp.take()
        body = " ".join(body_of(answer).split())
        for words in said[name]:
            assert words in body, (name, words, body[:1500])
        assert "`next`" not in body and "`A else B`" not in body and ", resign" not in body


def test_a_french_player_resigns_by_mail_with_the_word_the_help_gives(games_root, smtp):
    game = start(games_root, smtp)
    smtp.take()
    receive(games_root, smtp, command(game, "alice", "abandonner"))
    assert engine.load_state(engine.open_game(game.dir))["resigned"] == ["alice"]


def _folder_for_the_checksum(game) -> None:
    (game.dir / "referee" / "state.sha256").unlink()
    (game.dir / "referee" / "state.sha256").mkdir()


BROKEN = {  # a game directory broken by hand, and what its French and its Chinese player are told of it
    "state": (lambda game: (game.dir / "referee" / "state.yaml").open("a").write("# edited\n"),
              {"alice": "a été modifié hors de pbem", "bob": "在 pbem 之外被修改過"}),
    "a folder for a file": (_folder_for_the_checksum, {"alice": "state.sha256 : n'est pas un fichier ordinaire",
                                                       "bob": "state.sha256：不是一般檔案"}),
}


@pytest.mark.parametrize("broken", list(BROKEN))
def test_a_broken_game_directory_is_refused_in_the_players_language(games_root, smtp, broken):
    """What a player is told when the referee's files were changed by hand (pbem.store's refusals), in their
    language. (A game.yaml that cannot be read names no language: that refusal is in English.)"""
    game = start(games_root, smtp)
    smtp.take()
    player, move, number = legal_turn(game.dir)
    BROKEN[broken][0](game)
    receive(games_root, smtp, move_mail(game, player, [move], move_number=number))
    (answer,) = smtp.take()
    assert BROKEN[broken][1][player] in " ".join(body_of(answer).split()), body_of(answer)[:600]


def test_a_move_mailed_in_full_width_digits_and_spaces_is_played_and_logged_in_the_notation(games_root, smtp):
    """A Chinese or Japanese keyboard types `１０`, `；` and an ideographic space: read as their plain forms."""
    game = create_game(games_root, "gold-fever", 3, seed="full-width", welcome=smtp.address)
    smtp.take()
    player = game.to_act()
    receive(games_root, smtp, move_mail(game, player, ["bid\u3000１０；next；pass"], move_number=1))
    assert engine.read_log(game.gd)["entries"][0]["moves"] == ["bid 10"]
    assert engine.status(game.gd, player)["queue"]["turns"] == [["pass"]]
    answer = body_of(next(mail for mail in smtp.take() if mail["To"] == game.address(player)))
    assert "bid 10" in answer and "１" not in answer
