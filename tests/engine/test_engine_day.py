"""A player's day, the engine's part: every legal move described, forced moves played by the referee,
messages that say what they mean, `status` from the referee's state."""
from __future__ import annotations

import copy

import pytest
import yaml

from support import MOST_ENTRIES, NAMES, default_game, legal_turn, playable_games, snapshot, words
from pbem import notation
from pbem.clock import correspondence
from pbem.contract import PbemError
from pbem.engine import engine
from pbem.play import playout, turns
from pbem.store import registry, safefiles
from pbem.tables import DESCRIBED, width
from pbem.text import phrases



def narrow(monkeypatch, game: registry.Game, positions: int, skip: tuple = (), fresh_info: bool = False) -> list:
    """Make the rules allow one move only (the first concrete one) at the next `positions` positions they are
    asked about, other than those in `skip`: a forced decision, on any game. With `fresh_info` those decisions
    also show their player new hidden information. Returns the positions narrowed (filled in as they come)."""
    real_legal, real_pending = game.rules.legal_moves, game.rules.pending
    narrowed, inside = [], []  # `inside`: the rules calling themselves (their own calls go to the real ones)

    def one_move(state) -> list[dict] | None:
        """The one move allowed at this position, if it is (or now becomes) one of the narrowed ones."""
        inside.append(True)
        try:
            decision = real_pending(state)
            concrete = [] if decision is None else [
                m for m in real_legal(state, decision["player"]) if not any(notation.is_form(v) for v in m.values())]
        finally:
            inside.pop()
        if state not in narrowed and concrete and len(narrowed) < positions and state not in skip:
            narrowed.append(copy.deepcopy(state))
        return concrete[:1] if state in narrowed else None

    def legal_moves(state, player):
        if inside:
            return real_legal(state, player)
        decision = pending(state)
        only = one_move(state) if decision and decision["player"] == player else None
        return only if only is not None else real_legal(state, player)

    def pending(state):
        if inside:
            return real_pending(state)
        decision = real_pending(state)
        return {**decision, "fresh_info": True} if fresh_info and one_move(state) is not None else decision

    monkeypatch.setattr(game.rules, "legal_moves", legal_moves)
    monkeypatch.setattr(game.rules, "pending", pending)
    return narrowed


def create(tmp_path, pbem, name="day", game=None, count=None):
    game = game or default_game()
    args = ["new", game.id, tmp_path / name, "--seed", "day", "--format", "json"]
    for player in NAMES[:count or game.min_players]:
        args += ["--player", player]
    result = pbem(*args)
    assert result.code == 0, result.err
    return tmp_path / name, result.json()


def log_entries(directory, full=True):
    return engine.read_log(engine.open_game(directory), full=full)["entries"] or []


# ---------------------------------------------------------------- descriptions

@pytest.mark.parametrize("game", playable_games(), ids=lambda g: g.id)
def test_every_legal_move_of_a_random_game_is_described_from_the_movers_view_and_from_the_public_one(game):
    """The game's report.describe gives each legal-move entry a short phrase (a game without it is a bug) and every
    list stays within the 40-line ceiling of `pbem moves`. Described from the public view (`pbem moves DIR` without
    --as), a phrase says no word that only the mover's view holds, besides the move's own."""
    players = NAMES[:game.max_players]
    code = words(open(game.report.__file__).read())  # the phrases' own words
    state = playout.start(game, players, seed="describe")
    for number, (_, _, state) in enumerate(playout.steps(game, state, seed="describe", bot_seed=1)):
        decision = game.rules.pending(state)
        if decision is None:
            break
        mover = decision["player"]
        legal = game.rules.legal_moves(state, mover)
        assert len(legal) <= MOST_ENTRIES, (decision, len(legal))
        public, own = game.rules.view(state, None), game.rules.view(state, mover)
        private = words(own) - words(public) - code if number % 4 == 0 else set()
        for entry in legal:
            texts = {"own": game.report.describe(own, entry), "public": game.report.describe(public, entry)}
            for text in texts.values():
                assert isinstance(text, str) and "\n" not in text and width(text) <= DESCRIBED, \
                    (game.format_move(entry), text)
            leaked = (words(texts["public"]) & private) - words(game.format_move(entry))
            assert not leaked, f"{game.format_move(entry)}: {texts['public']!r} shows {mover}'s private {sorted(leaked)}"


@pytest.mark.parametrize("game", playable_games(), ids=lambda g: g.id)
def test_a_description_without_a_viewer_is_built_from_the_public_view(game, tmp_path, pbem, monkeypatch):
    """`pbem moves DIR` without --as is nobody's own answer: what each move does is described from the public view;
    with --as, from that player's own."""
    directory, _ = create(tmp_path, pbem, game=game)
    gd = engine.open_game(directory)
    public = gd.game.rules.view(engine.load_state(gd)["state"], None)
    monkeypatch.setattr(gd.game.report, "describe", lambda view, move: "public" if view == public else "own")
    anyone = pbem("moves", directory, "--format", "json").json()
    assert anyone["choices"] and {choice["description"] for choice in anyone["choices"]} == {"public"}
    mover = pbem("moves", directory, "--as", anyone["to_act"], "--format", "json").json()
    assert {choice["description"] for choice in mover["choices"]} == {"own"}


def test_moves_json_keeps_the_move_texts_and_adds_choices_with_descriptions(tmp_path, pbem):
    directory, _ = create(tmp_path, pbem)
    data = pbem("moves", directory, "--format", "json").json()
    gd = engine.open_game(directory)
    env = engine.load_state(gd)
    legal = gd.game.rules.legal_moves(env["state"], data["to_act"])
    view = gd.game.rules.view(env["state"], None)  # no --as: the public view
    assert data["moves"] == [gd.game.format_move(m) for m in legal]
    assert data["choices"] == [{"move": gd.game.format_move(m), "description": gd.game.report.describe(view, m)}
                               for m in legal]
    text = []
    for line in pbem("moves", directory).out.splitlines():  # a description too long for its line goes on below it
        if text and line.startswith("   "):
            text[-1] += " " + line.strip()
        else:
            text.append(line)
    for choice in data["choices"]:
        assert any(line.split() == f"{choice['move']} {choice['description']}".split() for line in text), choice
    assert text[-1].split()[0] == "resign"
    assert len([line for line in text if line.startswith("  ")]) == len(data["choices"]) + 1  # the moves, resign


def test_moves_of_a_player_not_to_act_say_they_may_resign(tmp_path, pbem):
    directory, data = create(tmp_path, pbem)
    to_act = pbem("moves", directory, "--format", "json").json()["to_act"]
    other = next(p["name"] for p in data["players"] if p["name"] != to_act)
    result = pbem("moves", directory, "--as", other, "--format", "json").json()
    assert result["moves"] == result["choices"] == []
    assert "may resign at any time" in pbem("moves", directory, "--as", other).out


# ---------------------------------------------------------------- forced moves

def test_a_decision_with_one_concrete_move_is_forced_unless_it_shows_new_information_or_has_a_form():
    assert turns.forced({"fresh_info": False}, [{"action": "take", "count": 2}]) == {"action": "take", "count": 2}
    assert turns.forced({"fresh_info": True}, [{"action": "take", "count": 2}]) is None
    assert turns.forced({"fresh_info": False}, [{"action": "bid", "amount": {"min": 3, "max": 3}}]) is None
    assert turns.forced({"fresh_info": False}, [{"action": "keep", "cards": {"from": ["a"], "min": 1, "max": 1}}]) \
        is None
    assert turns.forced({"fresh_info": False}, [{"action": "pass"}, {"action": "take", "count": 2}]) is None


def test_new_plays_a_forced_first_move_logs_it_by_the_referee_and_says_so(tmp_path, pbem, monkeypatch):
    game = default_game()
    narrowed = narrow(monkeypatch, game, 1)
    (tmp_path / "json").mkdir()
    directory, data = create(tmp_path / "json", pbem, "forced", game)
    assert len(narrowed) == 1
    (entry,) = log_entries(directory)
    player = game.rules.pending(narrowed[0])["player"]
    assert (entry["number"], entry["player"], entry["by"], entry["reason"]) == (1, player, "referee",
                                                                                 turns.ONLY_MOVE)
    assert data["move_number"] == 2 and data["referee_moves"][0]["moves"] == entry["moves"]
    # the same game (same id, seed and players) made again, as text
    text = pbem("new", game.id, tmp_path / "forced", "--seed", "day",
                *sum((["--player", n] for n in NAMES[:game.min_players]), [])).out
    assert f"The referee played move 1 for {player} (only legal move): {entry['moves'][0]}." in text
    status = pbem("status", directory, "--format", "json").json()
    assert status["move_number"] == 2 and status["recent"][0]["reason"] == turns.ONLY_MOVE
    monkeypatch.undo()  # verify replays the log with the real rules: the referee's move was one of theirs
    assert pbem("verify", directory).code == 0


def test_a_chain_of_forced_moves_after_a_turn_is_played_in_turn_and_reported(tmp_path, pbem, monkeypatch):
    game = default_game()
    directory, _ = create(tmp_path, pbem)
    player, text, number = legal_turn(directory)
    start = engine.load_state(engine.open_game(directory))["state"]
    narrowed = narrow(monkeypatch, game, 3, skip=(start,))
    result = pbem("move", directory, "--as", player, "--text", text)
    assert result.code == 0, result.err
    entries = log_entries(directory)
    assert [(e["number"], e["by"], e.get("reason")) for e in entries] == \
        [(1, "referee", None)] + [(n, "referee", turns.ONLY_MOVE) for n in (2, 3, 4)]
    assert len(narrowed) == 3
    played = "; ".join(f"move {e['number']} for {e['player']} (only legal move): {e['moves'][0]}" for e in entries[1:])
    following = pbem("status", directory, "--format", "json").json()
    assert result.out == (f"Accepted move 1 by {player}: {text}. The referee played {played}. "
                          f"Next: {following['to_act']} (move 5).\n")
    monkeypatch.undo()
    assert pbem("verify", directory).code == 0


def test_a_forced_decision_that_shows_new_information_is_left_to_its_player(tmp_path, pbem, monkeypatch):
    game = default_game()
    narrow(monkeypatch, game, 1, fresh_info=True)
    directory, data = create(tmp_path, pbem, "fresh", game)
    assert data["referee_moves"] == [] and data["move_number"] == 1
    assert log_entries(directory) == []


def test_games_created_before_forced_moves_leave_them_to_their_players(tmp_path, monkeypatch):
    """Old games in progress keep the rule they were created under (their state has no `forced_moves`)."""
    game = default_game()
    narrow(monkeypatch, game, 1)
    created = correspondence.create(game.id, tmp_path / "old", [(n, None) for n in NAMES[:game.min_players]], seed="day",
                                    forced_moves=False)
    assert created["referee_moves"] == []
    env = engine.load_state(engine.open_game(tmp_path / "old"))
    assert "forced_moves" not in env and env["move_number"] == 1


def test_the_referee_gives_up_a_chain_longer_than_its_step_cap_and_nothing_changes(tmp_path, pbem, monkeypatch):
    game = default_game()
    directory, _ = create(tmp_path, pbem)
    player, text, _ = legal_turn(directory)
    start = engine.load_state(engine.open_game(directory))["state"]
    narrow(monkeypatch, game, 3, skip=(start,))
    monkeypatch.setattr(turns, "AUTOPILOT_LIMIT", 2)
    before = snapshot(directory)
    result = pbem("move", directory, "--as", player, "--text", text)
    assert result.code == 2 and "played 2 moves in a row" in result.err
    assert snapshot(directory) == before


def test_moves_the_referee_plays_for_a_resigned_player_are_reported_with_the_reason(tmp_path, pbem):
    directory, _ = create(tmp_path, pbem)
    player, _, _ = legal_turn(directory)
    quitter = next(name for name in engine.open_game(directory).players if name != player)
    assert pbem("move", directory, "--as", quitter, "--text", "resign").code == 0
    for _ in range(40):
        player, text, _ = legal_turn(directory)
        result = pbem("move", directory, "--as", player, "--text", text, "--format", "json").json()
        resigned = [e for e in result["referee_moves"] if e["reason"] == turns.RESIGNED]
        if resigned:
            break
    else:
        pytest.fail("the resigned player never had a turn")
    assert resigned[0]["number"] == result["number"] + 1
    out = phrases.referee_moves(result["referee_moves"])
    assert f"move {resigned[0]['number']} for {resigned[0]['player']} (resigned): " in out


def test_the_sentence_about_the_referees_moves_lists_six_and_counts_the_rest():
    entries = [{"number": n, "player": "bob", "reason": "resigned", "moves": ["pass"]} for n in range(10, 19)]
    text = phrases.referee_moves(entries)
    assert text.startswith("The referee played move 10 for bob (resigned): pass; move 11")
    assert "move 16" not in text and text.endswith("and 3 more moves (see `pbem log`).")
    assert phrases.referee_moves([]) == ""


# ---------------------------------------------------------------- wording

def test_an_illegal_step_is_named_by_its_place_in_the_turn_not_as_a_move_number(tmp_path, pbem):
    directory, _ = create(tmp_path, pbem)
    player, text, _ = legal_turn(directory)
    words = text.split()
    illegal = " ".join(words[:-1] + ["nowhere"]) if len(words) > 1 else text
    gd = engine.open_game(directory)
    try:
        move = gd.game.parse_move(illegal)
    except notation.NotationError:
        pytest.skip(f"no well-formed illegal move derived from {text!r}")
    if notation.is_legal(move, gd.game.rules.legal_moves(engine.load_state(gd)["state"], player)):
        pytest.skip(f"{illegal!r} is legal")
    alone = pbem("move", directory, "--as", player, "--text", illegal)
    assert alone.code == 2 and f"pbem: '{illegal}' is not legal now" in alone.err
    turn = pbem("move", directory, "--as", player, "--text", f"{illegal}; {text}")
    assert f"pbem: step 1 of your turn ('{illegal}') is not legal now" in turn.err
    assert "move 1" not in turn.err.split(". Legal:")[0]


def test_a_move_number_ahead_of_the_game_is_not_called_stale(tmp_path, pbem):
    directory, _ = create(tmp_path, pbem)
    player, text, _ = legal_turn(directory)
    ahead = pbem("move", directory, "--as", player, "--text", text, "--move-number", 9)
    assert ahead.code == 2 and "stale" not in ahead.err and "only at move 1" in ahead.err
    pbem("move", directory, "--as", player, "--text", text)
    player, text, _ = legal_turn(directory)
    behind = pbem("move", directory, "--as", player, "--text", text, "--move-number", 1)
    assert behind.code == 2 and "stale move" in behind.err


def test_words_that_are_no_move_get_the_legal_moves_and_resign_is_alone_in_its_turn(tmp_path, pbem):
    directory, _ = create(tmp_path, pbem)
    player, text, _ = legal_turn(directory)
    garbage = pbem("move", directory, "--as", player, "--text", "fly to the moon")
    assert garbage.code == 2 and "'fly to the moon' is not a move of" in garbage.err
    assert text in garbage.err.split("Legal now:")[1] and "the forms are" not in garbage.err
    later = pbem("move", directory, "--as", player, "--text", f"{text}; next; fly to the moon")
    assert later.code == 2 and "resign" in later.err.split("the forms are:")[1].replace(",", " ").split()
    mixed = pbem("move", directory, "--as", player, "--text", f"{text}; resign")
    assert mixed.code == 2 and "is a turn of its own" in mixed.err


def test_counts_are_singular_for_one(tmp_path, pbem):
    directory, _ = create(tmp_path, pbem)
    player, text, _ = legal_turn(directory)
    pbem("move", directory, "--as", player, "--text", text)
    assert "verified, 1 move replayed;" in pbem("verify", directory).out
    assert phrases.plural(0, "move") == "0 moves" and phrases.plural(2, "mail") == "2 mails"


def test_a_huge_move_file_is_measured_in_megabytes_from_a_file_and_from_standard_input(tmp_path, pbem):
    from support import run_pbem
    directory, _ = create(tmp_path, pbem)
    huge = tmp_path / "huge.yaml"
    huge.write_bytes(b"#" * (10 * 1024 * 1024) + b"\n")
    from_file = run_pbem("move", directory, "--as", "alice", huge)
    from_stdin = run_pbem("move", directory, "--as", "alice", "-", input=huge.read_bytes())
    for result in (from_file, from_stdin):
        assert result.returncode == 2
        assert b"10.0 MB; a move file is at most 64 KB" in result.stderr, result.stderr
    assert str(safefiles.size_words(65537)) == "65,537 bytes"


# ---------------------------------------------------------------- status from the referee's state

def test_status_shows_the_referees_position_and_names_a_hand_edited_public_file(tmp_path, pbem):
    directory, _ = create(tmp_path, pbem)
    truth = pbem("status", directory, "--format", "json").json()
    public = directory / "public.yaml"
    doc = yaml.safe_load(public.read_text())
    doc["move_number"] = 77
    public.write_text(yaml.safe_dump(doc))
    result = pbem("status", directory, "--format", "json")
    assert result.code == 0 and result.json() == truth
    assert "public.yaml differs from what the referee wrote ($.move_number: stored 77" in result.err
    view = directory / "views" / "alice.yaml"
    view.unlink()
    mine = pbem("status", directory, "--as", "alice", "--format", "json")
    assert mine.code == 0 and mine.json()["player"] == "alice" and "alice.yaml is missing" in mine.err
    assert pbem("status", directory).err.count("differs") == 1  # text output too


def test_status_of_a_public_copy_reads_its_files(tmp_path, pbem):
    import shutil
    directory, _ = create(tmp_path, pbem)
    copy_dir = tmp_path / "copy"
    shutil.copytree(directory, copy_dir, ignore=shutil.ignore_patterns("referee"))
    result = pbem("status", copy_dir, "--format", "json")
    assert result.code == 0 and result.err == "" and result.json()["move_number"] == 1


def test_status_of_a_game_without_status_digests_reads_the_state_and_verify_checks_the_digests(tmp_path, pbem):
    directory, _ = create(tmp_path, pbem)
    truth = pbem("status", directory, "--format", "json").json()
    digests = directory / engine.STATUS_DIGESTS
    recorded = digests.read_text()
    assert "  public.yaml\n" in recorded and "  views/alice.yaml\n" in recorded
    digests.unlink()  # as in a game started before the digests were kept
    older = pbem("status", directory, "--format", "json")
    assert older.code == 0 and older.err == "" and older.json() == truth
    assert engine.STATUS_DIGESTS not in pbem("verify", directory, "--format", "json").json()["checked"]
    digests.write_text(recorded.replace(recorded[:8], "00000000", 1))
    assert "referee/status.sha256: not the digests" in pbem("verify", directory).err
