"""A game played by git speaks its players' languages: the repository's README and the referee's commit messages in
the game's language (one history, read by all), refused.yaml's reasons in the language of the player they concern,
`pbem git view`, `moves` and `move` in the reader's own, the git mails in their addressee's; and a player chooses
their language from their clone with a language file, signed like a move and recorded as `pbem language` records
it. An English game reads as it always did."""
from __future__ import annotations

import mailbox

import pytest
import yaml

from gitkit import git, plan
from pbem.contract import PbemError
from pbem.engine import engine
from pbem.git import judge, layout
from pbem.git.gate import pre_receive
from pbem import messages
from pbem.messages import lazy
from pbem.store import yamlio
from pbem.text.language import reading

SEED = "languages-seed"


def first_move(game) -> tuple[int, str, list[str]]:
    (submission,) = plan("coal-baron", game.names, SEED, game.dir.name, limit=1)[0]
    return submission


def last_message(game) -> str:
    return git(game.dir, "log", "-1", "--format=%B")


def test_the_readme_and_the_commit_messages_are_in_the_games_language(club):
    for code, words in (("fr", ("## La position en toutes lettres", "pbem : nouvelle partie club-game de", "Prochain : coup 2.",
                                "## Derniers coups", "pbem : coup 1 joué par")),
                        ("zh-Hant", ("## 局面的文字說明", "pbem：新遊戲 club-game", "下一步：第 2 步。", "## 最近的走法",
                                     "pbem：{player} 下第 1 步"))):
        game = club("coal-baron", 3, seed=SEED, init_args=("--language", code))
        readme, first = (game.dir / "README.md").read_text(), last_message(game)
        assert words[0] in readme and "The position in words" not in readme
        assert first.startswith(words[1]) and "Pbem-Game: club-game" in first  # the trailers stay for programs
        number, player, moves = first_move(game)
        assert game.move(player, "; ".join(moves)).code == 0
        game.referee()
        message, readme = last_message(game), (game.dir / "README.md").read_text()
        assert message.startswith(words[4].format(player=player)) and words[2] in message
        assert words[3] in readme and "Pbem-Move: 2" in message


def test_an_english_game_reads_as_before(club):
    game = club("coal-baron", 3, seed=SEED)
    assert last_message(game).startswith("pbem: new game club-game of Coal Baron\n\nPlayers: alice, bob, carol. "
                                         "Move 1 is next.\n")
    number, player, moves = first_move(game)
    assert game.move(player, "; ".join(moves)).code == 0
    game.referee()
    message = last_message(game)
    assert message.startswith(f"pbem: move 1 by {player}\n\nMove 1 ({player}): {'; '.join(moves)}\nNext: move 2.")
    readme = (game.dir / "README.md").read_text()
    assert "## The position in words" in readme and "## Last moves" in readme and "| # | player | moves |" in readme


def test_a_refusal_in_refused_yaml_is_in_the_language_of_the_player_it_concerns(club):
    game = club("coal-baron", 3, seed=SEED, init_args=("--player-language", "bob=fr",
                                                       "--player-language", "carol=zh-Hant"))
    for name in ("bob", "carol"):  # a move file whose name and content disagree
        game.commit_file(name, f"moves/0001-{name}.yaml", game.signed_move_text(name, 7, ["pass"]))
    game.commit_file("alice", "notes.txt", "hello")  # a player nobody can tell: the game's language
    game.referee()
    reasons = {entry.get("move_file"): entry["reason"]
               for entry in yamlio.load_file(game.dir / layout.REFUSED)["refused"]}
    assert reasons["moves/0001-bob.yaml"] == ("moves/0001-bob.yaml : le fichier indique le coup 7 joué par bob ; son "
                                              "nom doit indiquer la même chose")
    assert reasons["moves/0001-carol.yaml"] == "moves/0001-carol.yaml：檔案內容寫的是 carol 的第 7 步；檔名必須一致"
    assert reasons[None].startswith("it adds notes.txt: a player's commit may only add one move file")
    message = last_message(game)  # the commit's message: every player reads it, in the game's language (English)
    assert "the file says move 7 of bob; its name must say the same" in message


def test_the_legal_moves_are_never_published_with_a_refusal_in_any_language(club):
    for code in ("en", "fr"):
        game = club("coal-baron", 3, seed=SEED, init_args=("--language", code))
        number, player, _moves = first_move(game)
        legal = engine.legal(engine.open_game(game.game_dir()), player)["moves"]
        game.commit_file(player, f"moves/{number:04d}-{player}.yaml",
                         game.signed_move_text(player, number, ["draft o99"]))
        game.referee()
        (entry,) = yamlio.load_file(game.dir / layout.REFUSED)["refused"]
        listed = {"en": "(listed to you alone: pbem git moves)", "fr": "(listés pour vous seul : pbem git moves)"}
        assert listed[code] in entry["reason"], entry["reason"]
        assert not [move for move in legal if move in entry["reason"]]


def test_git_view_and_moves_answer_in_the_players_own_language(club):
    game = club("coal-baron", 3, seed=SEED, init_args=("--player-language", "alice=fr", "--player-language",
                                                       "bob=zh-Hant"))
    number, player, _moves = first_move(game)
    expected = {"alice": f"Coup {number} : à {player} de jouer", "bob": f"第 {number} 步：輪到 {player}",
                "carol": f"Move {number}: {player} to act"}
    titles = {"alice": "— partie club-game — coup 1 —", "bob": "— 遊戲 club-game — 第 1 步 — bob 的視角",
              "carol": "— game club-game — move 1 — view of carol"}
    for name, words in expected.items():
        moves = game.pbem("git", "moves", game.clones[name], "--as", name, "--identity", game.keys[name])
        assert moves.code == 0 and moves.out.startswith(words), moves.out + moves.err
        view = game.pbem("git", "view", game.clones[name], "--as", name, "--identity", game.keys[name])
        assert view.code == 0 and titles[name] in view.out.splitlines()[0]
    english = game.pbem("git", "moves", game.clones["alice"], "--as", "alice", "--identity", game.keys["alice"],
                        "--language", "en")
    assert english.out.startswith(expected["carol"])
    refused = game.pbem("git", "view", game.clones["alice"], "--as", "alice")  # no key at hand: in French
    assert refused.code == 1 and "aucune clé privée trouvée" in refused.err
    number, player, moves = first_move(game)
    moved = game.pbem("git", "move", game.clones[player], "--as", player, "--text", "; ".join(moves),
                      "--secret-file", game.secret_files[player], "--language", "fr")
    said = " ".join(moved.out.split())  # (the answer is wrapped at 78 columns)
    assert said == (f"moves/{number:04d}-{player}.yaml est commité (coup {number}, signé avec votre secret). "
                    f"Poussez-le : git push")


def test_a_player_chooses_their_language_from_their_clone_with_a_signed_file(club):
    game = club("coal-baron", 3, seed=SEED)
    chosen = game.pbem("git", "language", game.clones["bob"], "fr", "--as", "bob", "--secret-file",
                       game.secret_files["bob"], "--push")
    assert chosen.code == 0, chosen.err
    assert chosen.out.startswith("moves/0001-bob.language.yaml est commité et poussé")  # answered in French
    run = game.referee()
    assert [c["verdict"] for c in run["commits"]] == ["language"]
    assert engine.language_of(engine.open_game(game.game_dir()), "bob") == "fr"  # as `pbem language` records it
    seats = {p["name"]: p for p in yamlio.load_file(game.dir / layout.CONFIG)["players"]}
    assert seats["bob"]["language"] == "fr" and "language" not in seats["alice"]
    assert "bob reads français (fr) from now on." in last_message(game)
    assert (game.dir / "moves/0001-bob.language.yaml").is_file()  # kept: the signed record of the choice
    game.pull("bob")
    moves = game.pbem("git", "moves", game.clones["bob"], "--as", "bob", "--identity", game.keys["bob"])
    assert "à " in moves.out and "to act" not in moves.out
    # the game goes on and its history verifies, the language file in it
    number, player, moves = first_move(game)
    assert game.move(player, "; ".join(moves)).code == 0
    game.referee()
    verified = game.pbem("git", "verify", game.dir, "--referee-dir", game.referee_dir)
    assert verified.code == 0, verified.out + verified.err


def test_a_language_file_not_signed_by_its_player_is_refused(club):
    game = club("coal-baron", 3, seed=SEED)
    forged = game.signed_move_text("bob", 1, ["language fr"], secret_of="alice")
    game.commit_file("alice", "moves/0001-bob.language.yaml", forged)
    not_a_language = game.signed_move_text("carol", 1, ["language klingon"])
    game.commit_file("carol", "moves/0001-carol.language.yaml", not_a_language)
    run = game.referee()
    assert [c["verdict"] for c in run["commits"]] == ["refused", "refused"]
    assert "bad signature" in run["commits"][0]["reason"]
    assert "not a language pbem speaks" in run["commits"][1]["reason"]
    assert engine.language_of(engine.open_game(game.game_dir()), "bob") == "en"
    assert "language" not in yaml.safe_load((game.dir / layout.CONFIG).read_text())["players"][1]


def test_the_git_mails_are_in_their_addressees_language(club, tmp_path):
    game = club("coal-baron", 3, seed=SEED, keyless=("bob",), init_args=("--player-language", "bob=fr"))
    number, player, moves = first_move(game)
    assert game.move(player, "; ".join(moves)).code == 0
    outbox = tmp_path / "outbox"
    assert game.referee("--outbox", outbox)["mailed"] == ["bob@club.example"]
    (message,) = [mailbox.MaildirMessage(m) for m in mailbox.Maildir(outbox, create=False)]
    body = message.get_payload(decode=True).decode(message.get_content_charset())  # (French: windows-1252)
    assert f"Coup 1 ({player}) :" in body and "Prochain : coup 2." in body  # what the commit did, in French


def test_the_hooks_and_the_gate_answer_in_the_games_language(club, monkeypatch):
    """Neither knows who commits or pushes: a French game's hook and gate answer in French."""
    game = club("coal-baron", 3, seed=SEED, init_args=("--language", "fr"))
    monkeypatch.chdir(game.clones["alice"])
    (game.clones["alice"] / "moves").mkdir()
    (game.clones["alice"] / "moves/0001-alice.yaml").write_text(game.signed_move_text("alice", 9, ["pass"]))
    hooked = game.pbem("git", "check-move", "moves/0001-alice.yaml")
    assert hooked.code == 2 and "le fichier indique le coup 9 joué par alice" in hooked.err
    game.commit_file("alice", "notes.txt", "hello", push=False)
    head = git(game.clones["alice"], "rev-parse", "HEAD").strip()
    old = git(game.clones["alice"], "rev-parse", "HEAD~1").strip()
    git(game.remote, "fetch", "--quiet", game.clones["alice"], "HEAD")  # its objects, as a push brings them
    with pytest.raises(PbemError) as refused:
        pre_receive(game.remote, [f"{old} {head} refs/heads/main"], "main")
    assert str(refused.value).startswith("poussée refusée (pbem) :") and "il ajoute notes.txt" in str(refused.value)


def test_a_published_refusal_loses_the_legal_moves_and_an_encrypted_moves_words_in_every_language():
    error = PbemError(lazy("{text} is not a move of {title}. Did you mean {guesses}? Legal now: {legal}.",
                           text="'draft o11 o12'", title="Coal Baron", guesses=[lazy("'{move}'", move="draft o10")],
                           legal=["draft o10", "draft o13"]))
    for code, hidden in (("en", "(hidden)"), ("fr", "(caché)"), ("zh-Hant", "（隱藏）")):
        with reading(code):
            public = str(judge.public_reason(error, encrypted=True))
            clear = str(judge.public_reason(error, encrypted=False))
        assert "draft" not in public and hidden in public and "pbem git moves" in public
        assert "draft o11 o12" in clear and "o10" not in clear and "o13" not in clear


def test_verify_says_its_checks_in_the_games_language_or_the_one_asked(club):
    game = club("coal-baron", 3, seed=SEED, init_args=("--language", "fr"))
    number, player, moves = first_move(game)
    assert game.move(player, "; ".join(moves)).code == 0
    game.referee()
    said = {(): ("chaîne : 2 commits arbitrés", "coups : 1 fichier de coup", "club-game : vérifiée."),
            ("--language", "zh-Hant"): ("鏈：2 個已裁決提交", "走法：1 個走法檔案", "club-game：驗證通過。")}
    for args, words in said.items():
        verified = game.pbem("git", "verify", game.dir, *args)
        assert verified.code == 0 and all(w in verified.out for w in words), verified.out + verified.err
        assert "chain:" not in verified.out and "verified." not in verified.out
    english = club("coal-baron", 3, seed=SEED)
    verified = game.pbem("git", "verify", english.dir)
    assert verified.code == 0 and verified.out.startswith("chain: 1 refereed commit, ")
    assert verified.out.endswith("club-game: verified.\n")


def test_what_is_refused_before_the_game_is_known_is_in_the_language_asked_else_english(club, tmp_path):
    folder = tmp_path / "not-a-repository"
    folder.mkdir()
    said = {(): "not-a-repository: not a git repository", ("--language", "fr"): "not-a-repository : pas un dépôt git",
            ("--language", "zh-Hant"): "not-a-repository：不是 git 儲存庫"}
    game = club("coal-baron", 3, seed=SEED)
    for args, words in said.items():
        refused = game.pbem("git", "verify", folder, *args)
        assert refused.code == 2 and words in refused.err, refused.err
    git(tmp_path, "init", "--quiet", "empty")
    messages.use(None)  # (an in-process command keeps its language for the next one: a process runs one)
    english = game.pbem("git", "moves", tmp_path / "empty", "--as", "alice")
    assert english.code == 2 and "the repository has no commit yet" in english.err
    empty = game.pbem("git", "moves", tmp_path / "empty", "--as", "alice", "--language", "fr")
    assert empty.code == 2 and "le dépôt n'a encore aucun commit" in empty.err, empty.err
    for args in (["--agree"], []):  # a takeback asked or answered from a clone with no game yet
        messages.use(None)
        asked = game.pbem("git", "takeback", tmp_path / "empty", "--as", "alice", *args, "--language", "zh-Hant")
        assert asked.code == 2 and "the repository" not in asked.err and "儲存庫" in asked.err, asked.err


def test_the_players_hooks_and_the_diffs_log_lines_are_in_the_games_language(club):
    game = club("coal-baron", 3, seed=SEED, init_args=("--language", "fr"))
    hooks = yaml.safe_load((game.dir / layout.PRE_COMMIT).read_text(encoding="utf-8"))["repos"][0]["hooks"]
    assert [hook["name"] for hook in hooks] == ["pbem : fichiers de coup",
                                                "pbem : les joueurs ne commitent que des fichiers de coup"]
    assert hooks[1]["entry"].startswith("un joueur commite un fichier de coup (moves/NNNN-NAME.yaml)")
    assert hooks[0]["entry"] == "pbem git check-move" and hooks[1]["language"] == "fail"
    number, player, moves = first_move(game)
    assert game.move(player, "; ".join(moves)).code == 0
    game.referee()
    diff = game.pbem("git", "diff", game.dir, "--path", "log.yaml")
    assert diff.code == 0 and "\n Journal de club-game (coal-baron, public)\n" in diff.out, diff.out + diff.err
    assert f"+n° 1 {player} : {'; '.join(moves)}" in diff.out


def test_the_diffs_say_a_logs_rolls_and_an_encrypted_view_in_the_readers_language():
    """`git diff` through the textconv: a roll of the log as the game says it (La Fièvre de l'Or's production roll,
    stored in English with its turn), and an encrypted view's line, in the game's language."""
    from pbem.git import textconv
    log = {"format": "pbem-log/1", "id": "g", "game": "gold-fever", "visibility": "public",
           "entries": [{"number": 7, "player": "ann", "by": "referee", "moves": ["produce"],
                        "chance": [{"what": "production roll, turn 2", "result": [3, 5], "public": True}]}]}
    with reading("fr"):
        assert textconv.log_lines(log).splitlines()[1] == \
            "n° 7 ann (arbitre) : produce  [lancer de production, tour 2 : 3, 5]"
        assert textconv._digest(b"x" * 40).startswith("(chiffré, 40 octets, sha256 ")
    with reading("zh-Hant"):
        assert "[生產擲骰，第 2 回合：3、5]" in textconv.log_lines(log)
    assert textconv.log_lines(log).splitlines()[1] == "#7 ann (referee): produce  [production roll, turn 2: 3, 5]"
