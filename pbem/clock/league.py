"""A club's league: standings and ratings over finished games, as pure functions of the games' records.

A game's record (pbem.clock.leaguegames reads it from a game directory) is a dict: `id`, `game` (its type),
`title`, `ended` (ISO time of its end: when its public files were last written) and `seats`, one a seat in the
order of the game's final ranking: `name`, `rank` (as the engine published it: ties share a rank, resigned seats
come last, the last to resign first), `resigned`, and `ids`, the identities the seat is known by (`mail:ADDRESS`,
`key:KEY`, or `seat:NAME` for a seat with neither). Seats sharing an identity, across games, are one person.

Ratings are OpenSkill's Plackett-Luce model (each seat a team of one, the game's ranks as they are, ties
included), the games rated in the order they ended; a player's rating shown is the library's ordinal, μ − 3σ, a
cautious estimate that starts at 0 and rises as the games say more. Each title is rated on its own, and all games
together for the overall standings.
"""
from __future__ import annotations

from ..contract import PbemError

WIN, SHARED = "win", "shared"
BOT = "bot:"  # a seat the referee's bot played: `bot:LEVEL`, one entrant a level (`bot:greedy`, `bot:search:16`)


def bot_level(person: str) -> str | None:
    """The level of the referee's bot a league entrant is, or None for a person."""
    return person[len(BOT):] if person.startswith(BOT) else None


def in_order(games: list[dict]) -> list[dict]:
    """The games in the order they ended (the game's id between games that ended at the same time)."""
    return sorted(games, key=lambda g: (g["ended"], g["id"]))


def people(games: list[dict]) -> dict[str, str]:
    """Every identity of every seat -> the person it belongs to (one identity stands for the person): identities
    met on one seat are one person (an address and a key given together join them)."""
    parent: dict[str, str] = {}

    def root(name: str) -> str:
        while parent.setdefault(name, name) != name:
            parent[name] = parent[parent[name]]
            name = parent[name]
        return name

    for game in games:
        for seat in game["seats"]:
            first = root(seat["ids"][0])
            for other in seat["ids"][1:]:
                parent[root(other)] = first
    return {name: root(name) for name in parent}


def person_of(seat: dict, persons: dict[str, str]) -> str:
    return persons[seat["ids"][0]]


def display_names(games: list[dict], persons: dict[str, str]) -> dict[str, str]:
    """Each person's name as the league shows it: the seat name of their last game; a name two people go by is
    numbered after the first (`alice`, `alice (2)`) in the order they first played. No address is ever shown."""
    last, first_seen = {}, []
    for game in in_order(games):
        for seat in game["seats"]:
            person = person_of(seat, persons)
            last[person] = seat["name"]
            if person not in first_seen:
                first_seen.append(person)
    shown, taken = {}, {}
    for person in first_seen:
        name = f"{bot_level(person)} bot" if bot_level(person) else last[person]
        taken[name] = taken.get(name, 0) + 1
        shown[person] = name if taken[name] == 1 else f"{name} ({taken[name]})"
    return shown


def one_person_twice(game: dict, persons: dict[str, str]) -> list[str]:
    """The seats of a game held by a person who holds another seat of it (a game no rating can read)."""
    holders = [person_of(seat, persons) for seat in game["seats"]]
    return [seat["name"] for seat, person in zip(game["seats"], holders) if holders.count(person) > 1]


def outcome(seat: dict, game: dict) -> str | None:
    """`win` (first alone), `shared` (first with others) or None. A resigned seat wins nothing: a game every seat
    resigned has no winner, whatever order its ranking gives them."""
    if seat["resigned"] or seat["rank"] != 1:
        return None
    firsts = sum(1 for other in game["seats"] if other["rank"] == 1 and not other["resigned"])
    return WIN if firsts == 1 else SHARED


def counts(games: list[dict], persons: dict[str, str]) -> dict[str, dict]:
    """Per person: games, wins, shared first places, resignations."""
    table: dict[str, dict] = {}
    for game in games:
        for seat in game["seats"]:
            row = table.setdefault(person_of(seat, persons), {"games": 0, WIN: 0, SHARED: 0, "resigned": 0})
            row["games"] += 1
            result = outcome(seat, game)
            if result:
                row[result] += 1
            row["resigned"] += 1 if seat["resigned"] else 0
    return table


def model():
    """OpenSkill's Plackett-Luce model with its default parameters (μ 25, σ 25/3)."""
    from openskill.models import PlackettLuce
    return PlackettLuce()


def rate(games: list[dict], persons: dict[str, str], rating_model=None) -> tuple[dict, dict]:
    """Rate the games in the order they ended: (each person's rating object at the end, each person's history:
    [(the game's id, when it ended, ordinal after it)])."""
    if not games:
        return {}, {}
    rating_model = rating_model or model()  # (OpenSkill imported only when there is a game to rate)
    ratings, history = {}, {}
    for game in in_order(games):
        holders = [person_of(seat, persons) for seat in game["seats"]]
        teams = [[ratings.get(person) or rating_model.rating(name=person)] for person in holders]
        rated = rating_model.rate(teams, ranks=[seat["rank"] for seat in game["seats"]])
        for person, team in zip(holders, rated):
            ratings[person] = team[0]
            history.setdefault(person, []).append((game["id"], game["ended"], team[0].ordinal()))
    return ratings, history


def standing_rows(games: list[dict], persons: dict[str, str], names: dict[str, str]) -> tuple[list[dict], dict]:
    """The standings of a set of games (rating first, then wins, then name) and the ratings' histories."""
    ratings, history = rate(games, persons)
    rows = [{"player": names[person], WIN + "s": row[WIN], SHARED: row[SHARED], "games": row["games"],
             "resigned": row["resigned"], "rating": ratings[person].ordinal(),
             "mu": ratings[person].mu, "sigma": ratings[person].sigma, "bot": bot_level(person)}
             for person, row in counts(games, persons).items()]
    rows.sort(key=lambda r: (-r["rating"], -r["wins"], r["player"]))
    return rows, {names[person]: steps for person, steps in history.items()}


def league(games: list[dict]) -> dict:
    """The whole league: {games, skipped: [(game, why)], titles: [{game, title, games, standings}], overall:
    {games, standings}, history: {player: [(game, ended, rating)]} (the overall rating after each game)}. A game
    one person holds two seats of is left out, with the reason."""
    persons = people(games)
    skipped, rated = [], []
    for game in in_order(games):
        twice = one_person_twice(game, persons)
        if twice:
            skipped.append((game["id"], twice))
        else:
            rated.append(game)
    names = display_names(rated, persons)
    titles = []
    for kind in sorted({game["game"] for game in rated}):
        of_title = [game for game in rated if game["game"] == kind]
        rows, _ = standing_rows(of_title, persons, names)
        titles.append({"game": kind, "title": of_title[-1]["title"], "games": len(of_title), "standings": rows})
    rows, history = standing_rows(rated, persons, names)
    return {"games": len(rated), "skipped": skipped, "titles": titles,
            "overall": {"games": len(rated), "standings": rows}, "history": history}


def check_record(game: dict) -> None:
    """A record's seats as a ranking has them: each seat once, ranks 1 to the number of seats, some seat first."""
    names = [seat["name"] for seat in game["seats"]]
    ranks = [seat["rank"] for seat in game["seats"]]
    if len(set(names)) != len(names) or not names or min(ranks) != 1 or max(ranks) > len(ranks):
        raise PbemError(f"{game['id']}: its ranking is not one of a finished game")
