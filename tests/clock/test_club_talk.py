"""Table talk and spectators on the command line (file play): `pbem say` speaks for a seat only with its player's
secret, a private message stays in the referee's files, talk turned off and hostile text are refused with exit 2
and nothing changed, talk is outside the move record (a game with talk verifies), and `pbem watch` admits and
removes spectators, never a player."""
from __future__ import annotations

import pytest

from pbem.clock import talk
from pbem.engine import engine
from support import Pbem, legal_turn, snapshot


@pytest.fixture
def game(tmp_path):
    pbem = Pbem()
    directory = tmp_path / "g1"
    made = pbem("new", "chartered", directory, "--player", "alice:alice@club.example", "--player",
                "bob:bob@club.example", "--seed", "talk", "--format", "json")
    assert made.code == 0, made.err
    secrets = {p["name"]: p["secret"] for p in made.json()["players"]}
    return pbem, directory, secrets


def public_text(directory) -> str:
    return "".join(p.read_text() for p in directory.rglob("*.yaml") if "referee" not in p.parts)


def test_pbem_say_to_the_table_is_public_and_to_one_seat_stays_in_the_referees_files(game):
    pbem, directory, secrets = game
    assert pbem("say", directory, "--as", "alice", "--secret", secrets["alice"], "hello all").code == 0
    said = pbem("say", directory, "--as", "alice", "--to", "bob", "--secret", secrets["alice"], "just you, bob")
    assert said.code == 0 and "alice to bob only" in said.out
    assert "hello all" in (directory / "talk.yaml").read_text()
    assert "just you, bob" not in public_text(directory)
    assert "just you, bob" in (directory / "referee" / "talk.yaml").read_text()
    assert (directory / "referee" / "talk.yaml").stat().st_mode & 0o077 == 0
    shown_bob = pbem("talk", directory, "--as", "bob")
    assert "hello all" in shown_bob.out and "just you, bob" in shown_bob.out
    shown_public = pbem("talk", directory)
    assert "hello all" in shown_public.out and "just you, bob" not in shown_public.out


def test_pbem_say_with_a_wrong_secret_or_for_no_player_is_refused_and_changes_nothing(game):
    pbem, directory, secrets = game
    before = snapshot(directory)
    wrong = pbem("say", directory, "--as", "alice", "--secret", secrets["bob"], "I am alice")
    assert wrong.code == 2 and "wrong secret for alice" in wrong.err
    nobody = pbem("say", directory, "--as", "zed", "--secret", secrets["bob"], "hi")
    assert nobody.code == 2
    to_self = pbem("say", directory, "--as", "alice", "--to", "alice", "--secret", secrets["alice"], "me")
    assert to_self.code == 2 and "not another player" in to_self.err
    assert snapshot(directory) == before


@pytest.mark.parametrize("allow, extra, refusal", [("off", [], "talk is turned off"),
                                                   ("table", ["--to", "bob"], "private messages are turned off")])
def test_talk_the_organiser_turned_off_is_refused_with_exit_2(game, allow, extra, refusal):
    pbem, directory, secrets = game
    assert pbem("talk", directory, "--allow", allow).code == 0
    before = snapshot(directory)
    refused = pbem("say", directory, "--as", "alice", *extra, "--secret", secrets["alice"], "hello")
    assert refused.code == 2 and refusal in refused.err
    assert snapshot(directory) == before


def test_a_new_game_may_start_with_talk_to_the_table_only(tmp_path):
    pbem = Pbem()
    made = pbem("new", "chartered", tmp_path / "g2", "--player", "alice", "--player", "bob", "--talk", "table",
                "--watchers", "open", "--format", "json")
    assert made.code == 0, made.err
    assert "messages to the table only" in pbem("talk", tmp_path / "g2").out
    assert "open to watchers" in pbem("watch", tmp_path / "g2").out


def test_hostile_text_is_cleaned_or_refused_with_a_clear_answer(game, tmp_path):
    pbem, directory, secrets = game
    said = pbem("say", directory, "--as", "alice", "--secret", secrets["alice"], "a\x1b[2Jb\u202ec\u0000d")
    assert said.code == 0 and "3 characters that cannot be shown" in said.out
    assert [m["text"] for m in talk.table(engine.open_game(directory))] == ["a[2Jbcd"]
    before = snapshot(directory)
    long = pbem("say", directory, "--as", "alice", "--secret", secrets["alice"], "x" * (talk.MAX_CHARS + 1))
    assert long.code == 2 and "at most 2000" in long.err
    huge = tmp_path / "huge.txt"
    huge.write_bytes(b"y" * (talk.MAX_BYTES + 10))
    refused = pbem("say", directory, "--as", "alice", "--secret", secrets["alice"], "--file", huge)
    assert refused.code == 2 and "huge.txt: file too large (more than 1 MB)" in refused.err
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\xff\xfe\x00")
    assert pbem("say", directory, "--as", "alice", "--secret", secrets["alice"], "--file", binary).code == 2
    empty = pbem("say", directory, "--as", "alice", "--secret", secrets["alice"], " \x07 ")
    assert empty.code == 2 and "empty" in empty.err
    assert snapshot(directory) == before


def test_talk_is_outside_the_move_record_and_a_game_with_talk_verifies(game):
    pbem, directory, secrets = game
    assert pbem("say", directory, "--as", "alice", "--secret", secrets["alice"], "good luck").code == 0
    player, move, number = legal_turn(directory)
    assert pbem("move", directory, "--as", player, "--text", move).code == 0
    assert pbem("say", directory, "--as", "bob", "--to", "alice", "--secret", secrets["bob"], "thanks").code == 0
    log = engine.read_log(engine.open_game(directory))["entries"]
    assert len(log) >= 1 and not any("good luck" in str(entry) for entry in log)
    verified = pbem("verify", directory)
    assert verified.code == 0, verified.out + verified.err
    first, second = talk.heard_by(engine.open_game(directory), "alice")
    assert first["move_number"] == number and second["move_number"] > number  # said at the position it was


def test_the_organiser_admits_and_removes_spectators_but_never_seats_a_player_among_them(game):
    pbem, directory, _ = game
    assert pbem("watch", directory, "--add", "fan@fans.example", "--notify", "daily").code == 0
    shown = pbem("watch", directory, "--format", "json").json()
    assert shown["spectators"] == [{"email": "fan@fans.example", "notify": "daily"}]
    player = pbem("watch", directory, "--add", "bob@club.example")
    assert player.code == 2 and "plays bob" in player.err
    bad = pbem("watch", directory, "--add", "not an address")
    assert bad.code == 1 and "not an email address" in bad.err
    assert pbem("watch", directory, "--remove", "fan@fans.example").code == 0
    assert pbem("watch", directory, "--format", "json").json()["spectators"] == []
    again = pbem("watch", directory, "--remove", "fan@fans.example")
    assert again.code == 2 and "does not watch" in again.err


def test_what_say_talk_and_watch_print_is_in_the_catalogues(game, monkeypatch):
    from pbem.text import pseudo
    monkeypatch.setenv("PBEM_PSEUDO_LOCALE", "1")  # every translated message comes out marked
    pbem, directory, secrets = game
    names = {"alice", "bob", directory.name, "fan@fans.example"}
    assert pbem("watch", directory, "--add", "fan@fans.example").code == 0
    outputs = [pbem("say", directory, "--as", "alice", "--secret", secrets["alice"], "hi \x07").out,
               pbem("talk", directory, "--as", "bob").out, pbem("watch", directory).out]
    refused = pbem("say", directory, "--as", "alice", "--secret", secrets["alice"], "x" * (talk.MAX_CHARS + 1))
    for text in [*outputs, refused.err.removeprefix("pbem: ")]:
        assert not pseudo.unmarked(text.replace("hi", "").replace("every", ""), names), text


def test_pbem_status_shows_the_latest_table_talk_and_only_the_players_own_private_messages(game):
    pbem, directory, secrets = game
    assert "talk" not in pbem("status", directory, "--format", "json").json()  # a game without talk: none
    assert "latest talk" not in pbem("status", directory).out
    for number in range(1, 5):
        assert pbem("say", directory, "--as", "alice", "--secret", secrets["alice"], f"table line {number}").code == 0
    assert pbem("say", directory, "--as", "alice", "--to", "bob", "--secret", secrets["alice"], "just bob").code == 0
    for reader in ("alice", "bob"):
        shown = pbem("status", directory, "--as", reader).out
        assert "The latest talk" in shown and "just bob" in shown
        assert "table line 1" not in shown and all(f"table line {n}" in shown for n in (2, 3, 4))
    public = pbem("status", directory, "--format", "json").json()["talk"]
    assert [m["text"] for m in public] == [f"table line {n}" for n in (2, 3, 4)]
    assert "just bob" not in pbem("status", directory).out
