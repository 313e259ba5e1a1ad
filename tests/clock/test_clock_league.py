"""`pbem league ROOT`: standings per title and overall and an OpenSkill (Plackett-Luce) rating per player, from
each finished game's published ranking, in the order the games ended; a player is the same person across games by
address or git key, else by seat name; a game not finished, unreadable or hostile is left out with a note; a bad
league file is refused (exit 2)."""
from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import time

import pytest
from openskill.models import PlackettLuce

from pbem.cli import demo
from pbem.clock import league, leaguegames
from pbem.store import yamlio
from pbem.store.gamedir import STATE, STATE_CACHE, STATE_DIGEST, schema_line
from pbem.tables import width

TITLES = {"coal-baron": 3, "gold-fever": 3, "chartered": 2, "heartland-hauling": 2}
PEOPLE = [f"p{n}@club.example" for n in range(12)]


@pytest.fixture(scope="session")
def templates(tmp_path_factory):
    """One finished game of each title, played by random bots through the referee (once a session)."""
    root = tmp_path_factory.mktemp("league-templates")
    for kind, players in TITLES.items():
        demo.run(kind, players, "league", {}, root / kind, 0, lambda *_: None, bot="random")
    return root


def load(path):
    return yamlio.loads(path.read_bytes(), str(path))


def finished_game(templates, root, game_id, kind="coal-baron", ranking=None, emails=None, ended=0, bots=None,
                  holders=True):
    """A finished game directory copied from a bot-played one, its ranking (seat -> (rank, resigned)), its seats'
    addresses and the time it ended set as a test needs them; `bots` (seat -> level): the seats the referee's bots
    hold at the end, in the state and, unless not `holders` (as `pbem new --bot` wrote them before seats had
    one), as their holder in secrets.yaml. The copy's id is its own in every file that names it, the referee's state
    with its checksum too, as the referee writes it."""
    target = root / game_id
    shutil.copytree(templates / kind, target, ignore=shutil.ignore_patterns(".lock", ".txn", "views", "moves"))
    meta = load(target / "game.yaml")
    meta["id"] = game_id
    (target / "game.yaml").write_text(yamlio.dumps(meta))
    state = load(target / STATE)
    state["id"] = game_id
    if bots:
        state["bots"] = {**state.get("bots", {}), **bots}
    text = yamlio.dumps(state, schema_line(STATE, "referee-state.schema.json"))
    (target / STATE).write_text(text)
    (target / STATE_DIGEST).write_text(hashlib.sha256(text.encode()).hexdigest() + "\n")
    (target / STATE_CACHE).unlink(missing_ok=True)  # (the JSON copy of the state as it was)
    public = load(target / "public.yaml")
    public["id"] = game_id
    if ranking:
        public["ranking"] = [{"player": seat, "score": 10 - rank, "rank": rank,
                              "details": {"resigned": "yes"} if resigned else {}}
                             for seat, (rank, resigned) in sorted(ranking.items(), key=lambda item: item[1][0])]
    (target / "public.yaml").write_text(yamlio.dumps(public))
    secrets = load(target / "referee" / "secrets.yaml")
    secrets["id"] = game_id
    for entry in secrets["players"]:
        entry["email"] = (emails or {}).get(entry["name"])
        if holders and entry["name"] in (bots or {}):
            entry["holder"] = "bot"
    (target / "referee" / "secrets.yaml").write_text(yamlio.dumps(secrets))
    os.utime(target / "public.yaml", (1_700_000_000 + ended, 1_700_000_000 + ended))
    return target


def seat(name, rank, resigned=False, ids=None):
    return {"name": name, "rank": rank, "resigned": resigned, "ids": ids or [f"seat:{name}"]}


SMALL_LEAGUE = [
    {"id": "g1", "game": "coal-baron", "title": "Coal Baron", "ended": "2026-01-01T00:00:00+00:00",
     "seats": [seat("ann", 1), seat("ben", 2), seat("cy", 3)]},
    {"id": "g2", "game": "coal-baron", "title": "Coal Baron", "ended": "2026-01-03T00:00:00+00:00",
     "seats": [seat("ben", 1), seat("cy", 1), seat("ann", 3)]},                       # a tie for first
    {"id": "g3", "game": "gold-fever", "title": "La Fièvre de l'Or", "ended": "2026-01-02T00:00:00+00:00",
     "seats": [seat("cy", 1), seat("ann", 2), seat("dee", 3), seat("ben", 4, resigned=True)]},
]


def library_ratings(games):
    """The same league rated by calling OpenSkill directly, in the order the games ended."""
    model, ratings = PlackettLuce(), {}
    for game in sorted(games, key=lambda g: g["ended"]):
        names = [s["name"] for s in game["seats"]]
        teams = [[ratings.get(name) or model.rating(name=name)] for name in names]
        for name, team in zip(names, model.rate(teams, ranks=[s["rank"] for s in game["seats"]])):
            ratings[name] = team[0]
    return ratings


def test_ratings_are_the_librarys_own_plackett_luce_calculation_in_the_order_games_ended():
    result = league.league(SMALL_LEAGUE)
    expected = library_ratings(SMALL_LEAGUE)
    for row in result["overall"]["standings"]:
        rating = expected[row["player"]]
        assert row["mu"] == pytest.approx(rating.mu, abs=1e-9)
        assert row["sigma"] == pytest.approx(rating.sigma, abs=1e-9)
        assert row["rating"] == pytest.approx(rating.ordinal(), abs=1e-9)
    coal = next(t for t in result["titles"] if t["game"] == "coal-baron")
    alone = library_ratings(SMALL_LEAGUE[:2])
    assert {r["player"]: r["mu"] for r in coal["standings"]} == pytest.approx({n: r.mu for n, r in alone.items()})
    # order matters: g3 ended before g2, so ann's history runs g1, g3, g2
    assert [game for game, _, _ in result["history"]["ann"]] == ["g1", "g3", "g2"]
    assert result["history"]["ann"][-1][2] == pytest.approx(expected["ann"].ordinal())


def test_standings_count_games_wins_shared_first_places_and_resignations():
    rows = {r["player"]: r for r in league.league(SMALL_LEAGUE)["overall"]["standings"]}
    assert (rows["ann"]["games"], rows["ann"]["wins"], rows["ann"]["shared"], rows["ann"]["resigned"]) == (3, 1, 0, 0)
    assert (rows["ben"]["games"], rows["ben"]["wins"], rows["ben"]["shared"], rows["ben"]["resigned"]) == (3, 0, 1, 1)
    assert (rows["cy"]["games"], rows["cy"]["wins"], rows["cy"]["shared"]) == (3, 1, 1)
    assert (rows["dee"]["games"], rows["dee"]["wins"]) == (1, 0)
    ratings = [r["rating"] for r in league.league(SMALL_LEAGUE)["overall"]["standings"]]
    assert ratings == sorted(ratings, reverse=True)


def test_a_game_every_seat_resigned_has_no_winner_though_its_ranking_orders_them():
    game = {"id": "g", "game": "coal-baron", "title": "Coal Baron", "ended": "2026-01-01T00:00:00+00:00",
            "seats": [seat("ann", 1, True), seat("ben", 2, True)]}
    rows = {r["player"]: r for r in league.league([game])["overall"]["standings"]}
    assert rows["ann"]["wins"] == rows["ben"]["wins"] == 0 and rows["ann"]["resigned"] == 1
    assert rows["ann"]["rating"] > rows["ben"]["rating"]  # rated as the ranking says


def test_a_person_is_known_by_address_across_games_not_by_seat_name(templates, tmp_path):
    root = tmp_path / "games"
    root.mkdir()
    finished_game(templates, root, "one", ranking={"alice": (1, False), "bob": (2, False), "carol": (3, False)},
                  emails={"alice": "Ann@Club.example", "bob": "ben@club.example"}, ended=1)
    finished_game(templates, root, "two", ranking={"alice": (3, False), "bob": (1, False), "carol": (2, True)},
                  emails={"alice": "ben@club.example", "bob": "ann@club.example"}, ended=2)
    records, notes = leaguegames.read_games(root)
    assert notes == []
    rows = {r["player"]: r for r in league.league(records)["overall"]["standings"]}
    # ann sat as alice, then as bob: one person, shown by the seat name of her last game; carol (no address) is
    # the same seat name in both games
    assert set(rows) == {"alice", "bob", "carol"}
    assert rows["bob"]["games"] == 2 and rows["bob"]["wins"] == 2          # ann@ won both
    assert rows["alice"]["games"] == 2 and rows["alice"]["wins"] == 0      # ben@
    assert rows["carol"]["games"] == 2 and rows["carol"]["resigned"] == 1
    assert "club.example" not in json.dumps(league.league(records))        # no address is ever shown


def test_a_git_key_and_an_address_on_one_seat_are_one_person(templates, tmp_path):
    root = tmp_path / "games"
    root.mkdir()
    key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKeyOfAnn"
    finished_game(templates, root, "mail", ranking={"alice": (1, False), "bob": (2, False), "carol": (3, False)},
                  emails={"alice": "ann@club.example"}, ended=1)
    repo = finished_game(templates, root, "repo", ranking={"alice": (2, False), "bob": (1, False),
                                                           "carol": (3, False)}, ended=2)
    shutil.rmtree(repo / "referee")   # a clone of a game repository: no referee's folder, a key per seat
    config = {"format": "pbem-git/1", "id": "repo", "game": "coal-baron",
              "referee": {"recipient": "age1" + "q" * 58, "files": "local"},
              "players": [{"name": "bob", "key": key, "view": "encrypted"},
                          {"name": "alice", "key": None, "view": "mail"},
                          {"name": "carol", "key": None, "view": "mail"}]}
    (repo / "pbem-git.yaml").write_text(yamlio.dumps(config))
    finished_game(templates, root, "both", ranking={"alice": (1, False), "bob": (2, False), "carol": (3, False)},
                  emails={"alice": "ann@club.example"}, ended=3)
    both = root / "both"
    (both / "pbem-git.yaml").write_text(yamlio.dumps({**config, "id": "both", "players": [
        {"name": "alice", "key": key, "view": "encrypted"}, {"name": "bob", "key": None, "view": "mail"},
        {"name": "carol", "key": None, "view": "mail"}]}))
    records, notes = leaguegames.read_games(root)
    assert notes == []
    rows = {r["player"]: r for r in league.league(records)["overall"]["standings"]}
    # ann: alice by address in `mail`, bob by key in `repo`, alice by both in `both` (which joins them)
    assert rows["alice"]["games"] == 3 and rows["alice"]["wins"] == 3


def test_unfinished_unreadable_and_hostile_games_are_left_out_each_with_a_note(templates, tmp_path, pbem):
    root = tmp_path / "games"
    root.mkdir()
    finished_game(templates, root, "good", emails={"alice": "ann@club.example"})
    assert pbem("new", "coal-baron", root / "going", "--player", "ann", "--player", "ben").code == 0
    broken = root / "broken"
    broken.mkdir()
    (broken / "game.yaml").write_text("format: [unclosed\n")
    planted = finished_game(templates, root, "planted")
    (planted / "public.yaml").unlink()
    (planted / "public.yaml").symlink_to(templates / "coal-baron" / "public.yaml")
    os.symlink(templates / "gold-fever", root / "linked")
    lied = finished_game(templates, root, "lied")
    public = load(lied / "public.yaml")
    public["ranking"][0]["player"] = "mallory"
    (lied / "public.yaml").write_text(yamlio.dumps(public))
    result = pbem("league", root)
    assert result.code == 0, result.err
    # a note begins at the margin with its game; a long reason (a path) wraps onto indented lines, where it wraps
    # depending on the length of the games root's path
    skipped = [line for line in result.out.splitlines() if line.split(" ", 1)[-1].startswith("skipped:")]
    assert [line.split()[0] for line in skipped] == ["broken", "going", "lied", "linked", "planted"]
    assert "not finished" in result.out and "a link" in result.out and "Traceback" not in result.err
    assert "League of 1 game" in result.out


@pytest.mark.parametrize("text, says", [
    ("format: pbem-league/1\ngames: [one]\nseason: 3\n", "season"),                   # an unknown field
    ("format: pbem-league/1\ngames: [../elsewhere]\n", "games[0]"),                   # a path out of ROOT
    ("format: pbem-league/1\ngames: [one, one]\n", "listed twice"),
    ("games: [one\n", "league.yaml"),                                                  # not YAML
    ("format: pbem-league/1\nname: \"a\\u202eb\"\ngames: [one]\n", "name"),          # a bidi control
])
def test_a_bad_league_file_is_refused_with_the_reason_and_exit_2(tmp_path, pbem, text, says):
    (tmp_path / "games").mkdir()
    (tmp_path / "league.yaml").write_text(text)
    result = pbem("league", tmp_path / "games", "--file", tmp_path / "league.yaml")
    assert result.code == 2 and says in result.err and "Traceback" not in result.err


def test_a_league_file_counts_only_the_games_it_lists_and_shows_its_name(templates, tmp_path, pbem):
    root = tmp_path / "games"
    root.mkdir()
    finished_game(templates, root, "one", ranking={"alice": (1, False), "bob": (2, False), "carol": (3, False)})
    finished_game(templates, root, "two", ranking={"alice": (3, False), "bob": (2, False), "carol": (1, False)})
    (tmp_path / "league.yaml").write_text("format: pbem-league/1\nname: Spring season\ngames: [two, gone]\n")
    result = pbem("league", root, "--file", tmp_path / "league.yaml", "--format", "json")
    assert result.code == 0, result.err
    data = result.json()
    assert data["league"] == "Spring season" and data["games"] == 1
    assert {row["player"]: row["wins"] for row in data["overall"]["standings"]} == {"carol": 1, "alice": 0, "bob": 0}
    assert data["skipped"] == [{"game": "gone", "reason": "no game directory of that name"}]


def test_text_fits_78_columns_in_every_language_and_csv_has_a_row_per_player_and_scope(templates, tmp_path, pbem):
    root = tmp_path / "games"
    root.mkdir()
    long_name = {"alice": "a" * 30 + "@club.example"}
    finished_game(templates, root, "one", emails=long_name)
    finished_game(templates, root, "two", kind="chartered")
    for code in ("en", "fr", "zh-Hant", "zh-Hans"):
        result = pbem("league", root, "--language", code)
        assert result.code == 0, result.err
        assert max(width(line) for line in result.out.splitlines()) <= 78, code
    rows = pbem("league", root, "--format", "csv").out.splitlines()
    assert rows[0] == "scope,player,games,wins,shared,resigned,rating,mu,sigma"
    scopes = [row.split(",")[0] for row in rows[1:]]
    # alice with an address and alice without one are two people: the second is shown numbered
    assert scopes.count("coal-baron") == 3 and scopes.count("chartered") == 2 and scopes.count("overall") == 4
    assert any(row.startswith("overall,alice (2),") for row in rows)


def test_french_and_chinese_standings_are_in_their_own_words(templates, tmp_path, pbem):
    root = tmp_path / "games"
    root.mkdir()
    finished_game(templates, root, "one")
    french = pbem("league", root, "--language", "fr").out
    chinese = pbem("league", root, "--language", "zh-Hant").out
    english = pbem("league", root).out
    assert "rating" in english and "rating" not in french and "rating" not in chinese
    assert "League of 1 game" in english and "League" not in french and "League" not in chinese


def many_games(templates, root, count):
    """`count` finished games of the four titles, copied from bot-played ones, their rankings shuffled among
    twelve people by address, each ending a minute after the last."""
    rnd = random.Random(36)
    kinds = list(TITLES)
    for number in range(count):
        kind = kinds[number % len(kinds)]
        seats = load(templates / kind / "game.yaml")["players"]
        order = rnd.sample(seats, len(seats))
        ranking = {name: (place, False) for place, name in enumerate(order, 1)}
        if number % 11 == 0:
            ranking[order[-1]] = (len(seats), True)                   # the last one resigned
        elif number % 7 == 0:
            ranking[order[1]] = (1, False)                            # a tie for first
        emails = dict(zip(seats, rnd.sample(PEOPLE, len(seats))))
        finished_game(templates, root, f"g{number:03d}", kind, ranking, emails, ended=60 * number)


def test_a_league_of_200_finished_games_of_every_title_is_computed_within_2_seconds(templates, tmp_path):
    root = tmp_path / "games"
    root.mkdir()
    many_games(templates, root, 200)
    started = time.process_time()
    records, notes = leaguegames.read_games(root)
    result = league.league(records)
    spent = time.process_time() - started
    assert notes == [] and result["games"] == 200
    assert {t["game"] for t in result["titles"]} == set(TITLES)
    assert sum(t["games"] for t in result["titles"]) == 200
    assert len(result["overall"]["standings"]) == len(PEOPLE)
    assert spent <= 2.0, f"{spent:.2f} s of CPU for 200 games"


def test_every_text_of_the_league_is_a_translated_message(templates, tmp_path, pbem, monkeypatch):
    """In the pseudo-locale every word of the report is inside a marked message but the players' and games'
    names and the numbers (pbem.text.pseudo)."""
    from pbem.text.pseudo import unmarked
    root = tmp_path / "games"
    root.mkdir()
    finished_game(templates, root, "one", ranking={"alice": (1, False), "bob": (1, False), "carol": (3, True)})
    assert pbem("new", "coal-baron", root / "going", "--player", "ann", "--player", "ben").code == 0
    monkeypatch.setenv("PBEM_PSEUDO_LOCALE", "1")
    result = pbem("league", root)
    assert result.code == 0 and "⟦" in result.out
    assert unmarked(result.out, ["alice", "bob", "carol", "one", "going"]) == []


@pytest.mark.parametrize("holders", [True, False], ids=["holder bot", "made before seats had a holder"])
def test_a_bot_seat_of_a_copied_finished_game_is_its_bot_in_the_league_holder_or_not(templates, tmp_path, holders):
    """The seat a bot holds at the end of a game copied under a new id is that bot (its level from the referee's
    state, which names the copy), whether secrets.yaml names the bot as its holder or the game was made by `pbem
    new --bot` before it did (read from the state, the files left as that pbem wrote them); the person who sat
    under the same seat name in another game is someone else."""
    root = tmp_path / "games"
    root.mkdir()
    finished_game(templates, root, "one", ranking={"alice": (2, False), "bob": (3, False), "carol": (1, False)},
                  emails={"alice": PEOPLE[0], "bob": PEOPLE[1]}, bots={"carol": "greedy"}, holders=holders, ended=1)
    finished_game(templates, root, "two", ranking={"alice": (1, False), "bob": (2, False), "carol": (3, False)},
                  emails={"alice": PEOPLE[0], "bob": PEOPLE[1]}, ended=2)
    before = {path: path.read_bytes() for path in root.rglob("*") if path.is_file()}
    records, notes = leaguegames.read_games(root)
    assert notes == []
    rows = {r["player"]: r for r in league.league(records)["overall"]["standings"]}
    assert set(rows) == {"alice", "bob", "carol", "greedy bot"}
    bot = rows["greedy bot"]
    assert bot["games"] == 1 and bot["wins"] == 1 and bot["bot"] == "greedy"
    assert rows["carol"]["games"] == 1 and rows["carol"]["wins"] == 0 and rows["carol"]["bot"] is None
    assert {path: path.read_bytes() for path in root.rglob("*") if path.is_file()} == before


def _resign(pbem, game_dir, seats, monkeypatch):
    secrets = {p["name"]: p["secret"] for p in load(game_dir / "referee" / "secrets.yaml")["players"]}
    for name in seats:
        monkeypatch.setenv("PBEM_SECRET", secrets[name])
        result = pbem("move", game_dir, "--as", name, "--text", "resign")
        assert result.code == 0, result.err


def test_a_bot_seat_counts_as_the_referees_bot_at_its_level_never_as_a_person_of_its_seat_name(tmp_path, pbem,
                                                                                               monkeypatch):
    """A seat the referee's bot holds at the end (`pbem new --bot`, `pbem replace --bot`) is that bot in the league:
    one entrant a level, shown as the bot in the reader's words, never merged with a person who sat under the
    same seat name; the game counts for everyone at the table."""
    root = tmp_path / "games"
    root.mkdir()
    for game_id, players, bot in (("g1", ["ann", "bob", "cy"], "cy"), ("g2", ["ann", "bob", "dan"], None),
                                  ("g3", ["ann", "bob", "cy"], None)):
        args = [arg for name in players for arg in ("--player", name)] + (["--bot", f"{bot}=greedy"] if bot else [])
        assert pbem("new", "gold-fever", root / game_id, *args, "--seed", game_id).code == 0
    assert pbem("replace", root / "g2", "--seat", "dan", "--bot", "greedy").code == 0  # from the organiser's hand
    for game_id, humans in (("g1", ["ann", "bob"]), ("g2", ["ann", "bob"]), ("g3", ["ann", "bob", "cy"])):
        _resign(pbem, root / game_id, humans, monkeypatch)
    records, notes = leaguegames.read_games(root)
    assert notes == []
    rows = {r["player"]: r for r in league.league(records)["overall"]["standings"]}
    assert set(rows) == {"ann", "bob", "cy", "greedy bot"}
    assert rows["greedy bot"]["games"] == 2 and rows["greedy bot"]["bot"] == "greedy"
    assert rows["cy"]["games"] == 1 and rows["cy"]["bot"] is None  # the person cy of g3, not the bot of g1
    assert rows["ann"]["games"] == 3
    french = pbem("league", root, "--language", "fr").out
    assert "robot glouton" in french and "greedy bot" not in french
    assert "貪婪電腦" in pbem("league", root, "--language", "zh-Hant").out


@pytest.mark.parametrize("players", [2, 4])
def test_when_every_seat_resigned_the_last_to_resign_ranks_first_and_the_league_rates_them_so(tmp_path, pbem,
                                                                                               monkeypatch, players):
    """The referee's ruling (README, "The referee's rulings"): resigned seats rank below those who played on, the
    last to resign first; a game every seat resigned has no winner in the league, and is rated in that order."""
    root = tmp_path / "games"
    names = ["ann", "bob", "cy", "dee"][:players]
    args = [arg for name in names for arg in ("--player", name)]
    assert pbem("new", "coal-baron", root / "g", *args, "--seed", "leavers").code == 0
    order = names[1:] + names[:1]  # bob resigns first, ann last
    _resign(pbem, root / "g", order, monkeypatch)
    ranking = load(root / "g" / "public.yaml")["ranking"]
    assert [(row["player"], row["rank"]) for row in ranking] == [(name, rank) for rank, name in
                                                                 enumerate(order[::-1], 1)]
    assert pbem("verify", root / "g").code == 0
    records, notes = leaguegames.read_games(root)
    assert notes == []
    rows = {r["player"]: r for r in league.league(records)["overall"]["standings"]}
    assert all(rows[name]["wins"] == rows[name]["shared"] == 0 and rows[name]["resigned"] == 1 for name in names)
    ratings = [rows[name]["rating"] for name in order[::-1]]
    assert ratings == sorted(ratings, reverse=True) and ratings[0] > ratings[-1]


def test_a_game_made_before_the_ruling_keeps_its_resigned_seats_in_the_order_they_resigned(tmp_path, pbem,
                                                                                           monkeypatch):
    """A game made under the referee's rulings 1 (games made before the ruling: game.yaml says none) ranks its
    resigned seats in the order they resigned, as it did when it was played, and verifies."""
    from pbem.engine import newgame
    monkeypatch.setattr(newgame, "RULINGS", 1)
    game_dir = tmp_path / "g"
    assert pbem("new", "coal-baron", game_dir, "--player", "ann", "--player", "bob", "--seed", "leavers").code == 0
    _resign(pbem, game_dir, ["bob", "ann"], monkeypatch)
    assert [row["player"] for row in load(game_dir / "public.yaml")["ranking"]] == ["bob", "ann"]
    assert pbem("verify", game_dir).code == 0
    meta = load(game_dir / "game.yaml")
    (game_dir / "game.yaml").write_text(yamlio.dumps({**meta, "rulings": 2}))  # not what the referee's state says
    refused = pbem("verify", game_dir)
    assert refused.code == 2 and "rulings" in refused.err, refused.err
