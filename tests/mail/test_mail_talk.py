"""Table talk by mail, through the mail referee: a `say` line or block alone or with a move, to the table (every
other player, the spectators, the public talk.yaml) or to one seat (that player's mail and the referee's files
only); talk the organiser turned off, and hostile text (control characters, header lines, a huge text), refused
or cleaned with a clear answer."""
from __future__ import annotations

import mailbox

import pytest

from mailkit import body_of, create_game, move_mail, outbox_mails, receive, run_cli, turns_ahead, write_mail
from pbem.clock import correspondence, talk
from pbem.engine import engine
from pbem.mail import ledger, outgoing

FAN = "fan@fans.example"


def say_mail(game, player: str, lines: list[str], **kwargs) -> bytes:
    body = "\n".join([f"Password: {game.secret(player)}", *lines]) + "\n"
    return write_mail(game.address(player), body, kwargs.pop("subject", f"Re: [{game.id}] talk"), **kwargs)


def public_files(game) -> str:
    """Every file of the game directory a player or the public may read (the referee's folder and the views
    aside)."""
    return "".join(p.read_text() for p in game.dir.rglob("*.yaml")
                   if "referee" not in p.parts and "views" not in p.parts)


def test_a_message_to_the_table_reaches_every_other_player_and_the_spectators_and_the_public_talk(tmp_path, smtp):
    game = create_game(tmp_path, "coal-baron", 3)
    assert run_cli("watch", game.dir, "--add", FAN).code == 0
    receive(tmp_path, say_mail(game, "alice", ["say: away this weekend, back Monday"]), smtp)
    mails = smtp.take()
    to = sorted(str(m["To"]) for m in mails)
    assert to == sorted([game.address("alice"), game.address("bob"), game.address("carol"), FAN])
    for msg in mails:
        assert "away this weekend, back Monday" in body_of(msg)
    assert "message sent" in next(m for m in mails if m["To"] == game.address("alice"))["Subject"]
    assert [m["text"] for m in talk.table(game.gd)] == ["away this weekend, back Monday"]
    assert "away this weekend" in (game.dir / "talk.yaml").read_text()


def test_a_private_message_reaches_its_one_reader_and_no_public_file_or_other_mail(tmp_path, smtp):
    game = create_game(tmp_path, "coal-baron", 3)
    assert run_cli("watch", game.dir, "--add", FAN).code == 0
    secret_words = "meet me at the coast, carol knows nothing"
    receive(tmp_path, say_mail(game, "alice", ["say to bob:", secret_words, "end"]), smtp)
    mails = smtp.take()
    holders = sorted(str(m["To"]) for m in mails if secret_words in body_of(m))
    assert holders == sorted([game.address("alice"), game.address("bob")])  # the answer to alice, bob's mail
    assert secret_words not in public_files(game)
    assert [m["text"] for m in talk.heard_by(game.gd, "bob")] == [secret_words]
    assert talk.heard_by(game.gd, "carol") == [] and talk.table(game.gd) == []


def test_a_say_line_with_a_move_plays_the_move_and_tells_the_table(tmp_path, smtp):
    game = create_game(tmp_path, "chartered")
    player, moves = turns_ahead(game, 1)[0]
    other = next(name for name in game.players if name != player)
    receive(tmp_path, move_mail(game, player, [*moves, "say: good luck"]), smtp)
    mails = smtp.take()
    assert engine.status(game.gd)["move_number"] > 1
    assert any("good luck" in body_of(m) and m["To"] == game.address(other) for m in mails)
    assert [m["move_number"] for m in talk.table(game.gd)] == [engine.status(game.gd)["move_number"]]


@pytest.mark.parametrize("allow, line, refusal", [
    ("off", "say: hello", "talk is turned off"),
    ("table", "say to bob: hello", "private messages are turned off")])
def test_talk_the_organiser_turned_off_is_refused_clearly_and_nothing_changes(tmp_path, smtp, allow, line,
                                                                               refusal):
    game = create_game(tmp_path, "chartered")
    assert run_cli("talk", game.dir, "--allow", allow).code == 0
    before = game.snapshot()
    player, moves = turns_ahead(game, 1)[0]
    receive(tmp_path, move_mail(game, player, [*moves, line.replace("bob", "alice" if player == "bob" else "bob")]),
            smtp)
    (answer,) = smtp.take()
    assert "not applied" in answer["Subject"] and refusal in body_of(answer)
    assert game.snapshot() == before  # the move was not played either


def test_control_characters_are_taken_out_and_a_header_line_stays_body_text(tmp_path, smtp):
    game = create_game(tmp_path, "chartered")
    receive(tmp_path, say_mail(game, "alice", ["say to bob:", "Bcc: everyone@example.com", "red \x1b[31malert\x07",
                                               "end"]), smtp)
    mails = smtp.take()
    to_bob = next(m for m in mails if m["To"] == game.address("bob"))
    assert to_bob["Bcc"] is None
    assert sorted(str(m["To"]) for m in mails) == sorted([game.address("alice"), game.address("bob")])
    assert "    Bcc: everyone@example.com" in body_of(to_bob)  # indented under who said it: a line of the message
    (kept,) = talk.heard_by(game.gd, "bob")
    assert "\x1b" not in kept["text"] and "\x07" not in kept["text"] and "[31malert" in kept["text"]
    answer = next(m for m in mails if m["To"] == game.address("alice"))
    assert "2 characters that cannot be shown" in body_of(answer)


def test_a_message_too_long_or_a_huge_mail_is_refused_with_its_size(tmp_path, smtp):
    game = create_game(tmp_path, "chartered")
    before = game.snapshot()
    receive(tmp_path, say_mail(game, "alice", ["say: " + "word " * 500]), smtp)
    (answer,) = smtp.take()
    assert "at most 2000" in body_of(answer)
    receive(tmp_path, say_mail(game, "alice", ["say: " + "x" * (1024 * 1024)]), smtp)
    (answer,) = smtp.take()
    assert "not applied" in answer["Subject"] and game.snapshot() == before


def test_a_player_sends_at_most_twenty_messages_a_day(tmp_path, smtp):
    game = create_game(tmp_path, "chartered")
    for number in range(talk.MAX_A_DAY):
        receive(tmp_path, say_mail(game, "alice", [f"say: message {number}"]), smtp)
    smtp.take()
    receive(tmp_path, say_mail(game, "alice", ["say: one too many"]), smtp)
    (answer,) = smtp.take()
    assert "20 messages today" in body_of(answer) and len(talk.table(game.gd)) == talk.MAX_A_DAY


def test_a_move_mail_whose_talk_would_pass_the_days_limit_is_refused_whole_before_the_move(tmp_path, smtp):
    game = create_game(tmp_path, "chartered")
    player, moves = turns_ahead(game, 1)[0]
    for number in range(talk.MAX_A_DAY - 1):
        talk.say(game.gd, player, f"message {number}")
    before = game.snapshot()
    receive(tmp_path, move_mail(game, player, [*moves, "say: one", "say: two"]), smtp)
    (answer,) = smtp.take()
    assert "not applied" in answer["Subject"]
    assert "you sent 19 messages today and your mail holds 2" in " ".join(body_of(answer).split())
    assert game.snapshot() == before  # neither the move nor the first message kept


def test_talk_another_mail_left_no_room_for_is_never_dropped_silently_the_move_stands(tmp_path, smtp, monkeypatch):
    """The talk of a move mail is checked before the move and kept after it: if another mail of the same player
    uses up the day's messages in between, the move is played and the player is told which message was not
    delivered and why; nobody else receives it and no file keeps it."""
    game = create_game(tmp_path, "chartered")
    player, moves = turns_ahead(game, 1)[0]
    other = next(name for name in game.players if name != player)
    submit = correspondence.submit

    def racing_submit(*args, **kwargs):  # the move is played; meanwhile the player's other mails talk all day
        played = submit(*args, **kwargs)
        for number in range(talk.MAX_A_DAY):
            talk.say(game.gd, player, f"meanwhile {number}")
        return played

    monkeypatch.setattr(correspondence, "submit", racing_submit)
    receive(tmp_path, move_mail(game, player, [*moves, f"say to {other}:", "see you on the coast", "end"]), smtp)
    mails = smtp.take()
    assert engine.status(game.gd)["move_number"] > 1  # the move stands
    (told,) = [m for m in mails if "message not delivered" in m["Subject"]]
    assert told["To"] == game.address(player)
    text = " ".join(body_of(told).split())
    assert "Your move is played, but the message below was not delivered" in text
    assert "you sent 20 messages today" in text and f"To {other} only: see you on the coast" in text
    assert not any("see you on the coast" in body_of(m) for m in mails if m is not told)
    assert all("see you on the coast" not in m["text"] for m in talk.heard_by(game.gd, other))


class Killed(BaseException):
    """The process dies here (nothing below it runs, nothing catches it)."""


def told(outbox, words: str) -> dict[str, int]:
    """How many mails of the outbox each recipient got with `words` in them."""
    found = {}
    for to, mails in outbox_mails(outbox).items():
        found[to] = sum(words in mail for mail in mails)
    return found


def test_a_talk_mail_handled_again_after_a_run_killed_before_its_record_is_kept_and_mailed_once(tmp_path,
                                                                                                 monkeypatch):
    """The run kept the message and mailed it, and died before recording the mail handled: the next run meets the
    same mail, keeps nothing new (a message is kept once from its mail) and mails no reader again."""
    game = create_game(tmp_path, "coal-baron", 3)
    assert run_cli("watch", game.dir, "--add", FAN).code == 0
    raw = say_mail(game, "alice", ["say: away this weekend, back Monday"], message_id="<away@players.example>")
    outbox = tmp_path / "outbox"
    put = ledger.Ledger.put

    def dies_at_the_mails_record(self, key, record):
        if key == "<away@players.example>":
            raise Killed()
        put(self, key, record)
    monkeypatch.setattr(ledger.Ledger, "put", dies_at_the_mails_record)
    with pytest.raises(Killed):
        receive(tmp_path, raw, outbox=outbox)
    monkeypatch.undo()
    assert receive(tmp_path, raw, outbox=outbox).code == 0
    got = told(outbox, "away this weekend, back Monday")
    assert {to: got[to] for to in (game.address("bob"), game.address("carol"), FAN)} == {
        game.address("bob"): 1, game.address("carol"): 1, FAN: 1}
    assert [m["text"] for m in talk.table(game.gd)] == ["away this weekend, back Monday"]
    assert (game.dir / "talk.yaml").read_text().count("away this weekend") == 1


def test_the_talk_of_a_move_mail_whose_run_died_before_its_mails_is_kept_and_told_once_on_recovery(tmp_path,
                                                                                                   monkeypatch):
    """Killed after the move and its talk were kept, before any mail went: the next run recovers the mail (its move
    applied) and tells the talk, once, to the table."""
    game = create_game(tmp_path, "chartered")
    player, moves = turns_ahead(game, 1)[0]
    others = [name for name in game.players if name != player]
    raw = move_mail(game, player, [*moves, "say: good luck"])
    outbox = tmp_path / "outbox"
    monkeypatch.setattr(outgoing.Mailer, "send", lambda *args: (_ for _ in ()).throw(Killed()))
    with pytest.raises(Killed):
        receive(tmp_path, raw, outbox=outbox)
    monkeypatch.undo()
    assert not (outbox / "new").is_dir() or not mailbox.Maildir(outbox, create=False).keys()
    number = engine.status(game.gd)["move_number"]
    assert receive(tmp_path, raw, outbox=outbox).code == 0
    assert engine.status(game.gd)["move_number"] == number  # the move not played again
    got = told(outbox, "good luck")
    assert [got.get(game.address(name)) for name in others] == [1] * len(others)
    assert [m["text"] for m in talk.table(game.gd)] == ["good luck"]
