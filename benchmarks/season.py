"""A season by mail, simulated: how much mail each preference brings, and whether every player hears of every
move exactly once. Measured against benchmarks/targets.yaml (a long run, not a test).

    python benchmarks/season.py [--games 8] [--seed season] [--days 60]

Seeded games of every title, each with deadlines (72 hours a decision, a reminder 24 hours before, the first
legal move on timeout), played by mail through the referee in one process: a `pbem.mail.commands.Referee` whose
transport keeps the mails instead of sending them, and `pbem tick` every hour. A player answers the mail that asks
them to move (the one that says "your turn", a digest or a reminder) some hours after it arrives, with every
decision of their turn up to new information (the greedy bot decides, from the position); a few are slow and
answer only the reminder, or not at all. Each seat starts with a mail preference (`every`, `turn`, `daily` in
turn round the tables); now and then a player switches by mail, and two seats of the season are handed on
(`pbem replace`, the new holder welcomed by mail).

Reported for each preference, counting every mail a player got while they had it (the welcome included): mails
per player and day of play, per own move (a mail of theirs that played) and per own decision (the steps of their
moves); and for the whole season the moves told twice to a player and the moves never told to one (each mail's
`Move N:` lines against the log of the game). Exit status 1 if a target is missed.

The tests play a shorter season (tests/mail/test_mail_news.py) with the same `Season`.
"""
from __future__ import annotations

import argparse
import collections
import copy
import datetime
import email.policy
import email.utils
import random
import re
import sys
import tempfile
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path

import yaml

from pbem import bots
from pbem.clock import clock, correspondence, handover
from pbem.engine import engine
from pbem.mail import clockmail, commands, welcome
from pbem.rng import Rng
from pbem.store import registry

HERE = Path(__file__).resolve().parent
T0 = datetime.datetime(2026, 1, 5, 7, 0, tzinfo=datetime.timezone.utc)
HOUR = datetime.timedelta(hours=1)
NAMES = ["alice", "bob", "carol", "dave"]
ORGANISER = "referee@club.example"
PREFERENCES = correspondence.NOTIFY
TOLD = re.compile(r"^Move (\d+): ", re.MULTILINE)
ASKED = re.compile(r"^Your turn \(move (\d+)\)", re.MULTILINE)
MOST_STEPS = 12  # decisions a player sends in one mail at most


@dataclass
class Mail:
    at: datetime.datetime
    to: str
    subject: str
    body: str


class Kept:
    """The referee's transport (as pbem.mail.transport's), keeping each mail with the season's time."""

    def __init__(self):
        self.mails: list[Mail] = []
        self.now = T0

    def describe(self) -> str:
        return "kept in memory"

    def prepare(self) -> None:
        """Nothing to check."""

    def hold(self) -> None:
        """Nothing held: each mail is kept at once."""

    def flush(self) -> None:
        """Nothing held."""

    def release(self) -> None:
        """Nothing held."""

    def send(self, messages: list[EmailMessage], once: bool = False) -> list[str]:
        for msg in messages:
            body = msg.get_body(preferencelist=("plain",)).get_content()
            self.mails.append(Mail(self.now, str(msg["To"]), str(msg["Subject"]), body))
        return [str(msg["To"]) for msg in messages]


@dataclass
class Seat:
    name: str
    address: str
    secret: str
    preference: str
    answer_at: datetime.datetime | None = None  # when they will answer the mail that asked them to move
    asked: int | None = None  # the move number that mail asked for
    silent: bool = False  # answers only reminders (and now and then not even those)
    since: datetime.datetime = T0  # on this preference since


@dataclass
class Table:
    gd: engine.GameDir
    seats: dict[str, Seat]
    rnd: random.Random
    over: datetime.datetime | None = None
    started: datetime.datetime = T0


@dataclass
class Tally:
    """What each preference brought: mails, hours of play, own moves and decisions; repeated and lost news."""
    mails: collections.Counter = field(default_factory=collections.Counter)
    kinds: dict = field(default_factory=lambda: collections.defaultdict(collections.Counter))
    hours: collections.Counter = field(default_factory=collections.Counter)
    moves: collections.Counter = field(default_factory=collections.Counter)
    decisions: collections.Counter = field(default_factory=collections.Counter)
    repeated: collections.Counter = field(default_factory=collections.Counter)
    lost: int = 0
    told: dict = field(default_factory=lambda: collections.defaultdict(collections.Counter))


class Season:
    """Games played by mail through one referee, hour by hour."""

    def __init__(self, root: Path, games: list[tuple[str, int]], seed: str, switches_per_day: float = 0.05,
                 handovers: int = 2, silent_share: float = 0.15, preferences: list[str] | None = None,
                 tick_every: int = 1):
        self.root, self.rnd = Path(root), random.Random(seed)
        self.tick_every, self.handed, self.switched = tick_every, 0, 0
        self.kept = Kept()
        self.referee = commands.Referee(self.root, self.kept, now=T0)
        self.now = T0
        self.switch_chance = switches_per_day / 24
        self.tally = Tally()
        self.tables: list[Table] = []
        self.seen = 0
        self.ids = iter(range(1, 10 ** 9))
        preferences = list(preferences or PREFERENCES)
        turn = 0
        for index, (game_type, players) in enumerate(games):
            names = NAMES[:players]
            notify = {}
            for name in names:
                notify[name] = preferences[turn % len(preferences)]
                turn += 1
            self.tables.append(self._start(f"g{index + 1}", game_type, names, notify, f"{seed}-{index}",
                                           silent_share))
        hours = sorted(self.rnd.sample(range(24, 24 * 12), handovers))
        self.handovers = [(T0 + hour * HOUR, self.tables[i % len(self.tables)]) for i, hour in enumerate(hours)]
        self._read_mail()

    def _start(self, game_id: str, game_type: str, names: list[str], notify: dict, seed: str, silent_share: float
               ) -> Table:
        players = [(name, f"{name}@{game_id}.example") for name in names]
        result = correspondence.create(game_type, self.root / game_id, players, seed=seed, organiser=ORGANISER,
                                       deadlines=clock.new_clock(72 * 3600, 24 * 3600, "first-legal", 3),
                                       notify=notify, now=T0)
        gd = engine.open_game(self.root / game_id)
        rnd = random.Random(seed)
        seats = {p["name"]: Seat(p["name"], p["email"], p["secret"], notify[p["name"]],
                                 silent=rnd.random() < silent_share) for p in result["players"]}
        welcome.send_welcome(gd, transport=self.kept)
        return Table(gd, seats, rnd)

    # ------------------------------------------------------------ the season, hour by hour

    def run(self, days: int) -> Tally:
        end = T0 + days * 24 * HOUR
        while self.now < end and any(table.over is None for table in self.tables):
            self.now += HOUR
            self.kept.now = self.referee.now = self.now
            for table in self.tables:
                if table.over is None:
                    self._hour(table)
            for table in self.tables:
                if table.over is None and (self.now - T0) // HOUR % self.tick_every == 0:
                    correspondence.tick(table.gd, self.now, owe=True)  # what it owes, recorded with it
                    clockmail.send_tick(self.referee.mailer, table.gd, self.now)
            self._read_mail()
        self._count_time()
        self._count_news()
        return self.tally

    def _hour(self, table: Table) -> None:
        for when, handed in self.handovers:
            if handed is table and when == self.now:
                self._hand_over(table)
        for seat in table.seats.values():
            if self.rnd.random() < self.switch_chance:
                preference = self.rnd.choice([p for p in PREFERENCES if p != seat.preference])
                self._send(table, seat, [f"notify {preference}"])
                self._time_on(table, seat)
                seat.preference = preference
                self.switched += 1
        doc = engine.status(table.gd)
        seat = table.seats.get(doc["to_act"])
        if seat is not None and seat.answer_at is not None and seat.answer_at <= self.now:
            seat.answer_at = None
            if seat.asked != doc["move_number"]:
                return  # the clock played that decision meanwhile
            moves = self._turn(table, seat.name)
            self._send(table, seat, moves, doc["move_number"])
            self.tally.moves[seat.preference] += 1
            self.tally.decisions[seat.preference] += len(moves)

    def _turn(self, table: Table, player: str) -> list[str]:
        """The decisions of one mail: the player's own in a row, up to new information (the greedy bot's)."""
        game = table.gd.game
        state = engine.load_state(table.gd)["state"]
        rng, moves = Rng("the player does not know the seed", table.gd.id, 0), []
        while len(moves) < MOST_STEPS:
            pending = game.rules.pending(state)
            if pending is None or pending["player"] != player or (moves and pending.get("fresh_info")):
                break
            legal = game.rules.legal_moves(state, player)
            move = bots.decide(game, "greedy", game.rules.view(state, player), legal, table.rnd)
            moves.append(game.format_move(move))
            state = game.rules.apply(copy.deepcopy(state), player, move, rng)
            if rng.outcomes:
                break
        return moves

    def _send(self, table: Table, seat: Seat, lines: list[str], move_number: int | None = None) -> None:
        msg = EmailMessage(policy=email.policy.SMTP)
        msg["From"] = seat.address
        msg["To"] = ORGANISER
        msg["Subject"] = f"Re: [{table.gd.id}] my mail"
        msg["Date"] = email.utils.format_datetime(self.now)
        msg["Message-ID"] = f"<season.{next(self.ids)}@players.example>"
        head = [f"Password: {seat.secret}"] + ([f"Move-Number: {move_number}"] if move_number else [])
        msg.set_content("\n".join(head + lines) + "\n")
        outcome = self.referee.handle(msg.as_bytes())
        if outcome.result not in ("accepted", "command"):
            raise AssertionError(f"{table.gd.id}: {seat.name}'s mail was {outcome.result}: {outcome.detail}")

    def _hand_over(self, table: Table) -> None:
        if engine.status(table.gd)["finished"]:
            return
        seat = table.seats[table.rnd.choice(sorted(table.seats))]
        holder = f"new{next(self.ids)}"
        result = handover.replace(table.gd, seat.name, holder, f"{holder}@{table.gd.id}.example", self.now)
        clockmail.send_handover(table.gd, result, self.kept, self.now)
        self._time_on(table, seat)
        seat.address, seat.secret = result["email"], result["secret"]
        seat.preference, seat.silent, seat.answer_at = correspondence.DEFAULT_NOTIFY, False, None
        self.handed += 1

    # ------------------------------------------------------------ the mails, as the players read them

    def _read_mail(self) -> None:
        fresh, self.seen = self.kept.mails[self.seen:], len(self.kept.mails)
        for mail in fresh:
            found = self._seat_of(mail.to)
            if found is None:
                continue  # the organiser's
            table, seat = found
            self.tally.mails[seat.preference] += 1
            self.tally.kinds[seat.preference][_kind(mail.subject)] += 1
            told = self.tally.told[(table.gd.id, seat.name)]
            for number in TOLD.findall(mail.body):
                told[int(number)] += 1
                self.tally.repeated[seat.preference] += told[int(number)] > 1
            if "game over" in mail.subject and table.over is None:
                table.over = self.now
            asked = ASKED.search(mail.body)
            if asked and seat.answer_at is None and (not seat.silent or "reminder" in mail.subject):
                if seat.silent and table.rnd.random() < 0.3:
                    continue  # not even the reminder: the clock plays for them
                seat.asked = int(asked.group(1))
                seat.answer_at = self.now + answer_delay(table.rnd) * HOUR

    def _seat_of(self, address: str) -> tuple[Table, Seat] | None:
        for table in self.tables:
            for seat in table.seats.values():
                if seat.address == address:
                    return table, seat
        return None

    # ------------------------------------------------------------ counting

    def _time_on(self, table: Table, seat: Seat) -> None:
        """The hours a seat spent on its preference until now (a switch, a hand-over, the end)."""
        since = max(seat.since, table.started)
        until = min(self.now, table.over or self.now)
        self.tally.hours[seat.preference] += max(0.0, (until - since).total_seconds() / 3600)
        seat.since = until

    def _count_time(self) -> None:
        for table in self.tables:
            for seat in table.seats.values():
                self._time_on(table, seat)

    def _count_news(self) -> None:
        self.tally.lost = sum(len(wrong["never"]) for wrong in self.told_wrong().values())

    def unfinished(self) -> list[str]:
        return [table.gd.id for table in self.tables if table.over is None]

    def told_wrong(self) -> dict[tuple[str, str], dict[str, list[int]]]:
        """For each seat of a finished game that was not told every move exactly once: the moves told twice or
        more, and the moves never told."""
        wrong = {}
        for table in self.tables:
            if table.over is None:
                continue
            last = len(engine.read_log(table.gd)["entries"] or [])
            for seat in table.seats.values():
                told = self.tally.told[(table.gd.id, seat.name)]
                twice = sorted(n for n, count in told.items() if count > 1)
                never = [n for n in range(1, last + 1) if n not in told]
                if twice or never:
                    wrong[(table.gd.id, seat.name)] = {"twice": twice, "never": never}
        return wrong


def answer_delay(rnd: random.Random) -> int:
    """Hours before a player answers the mail that asks them to move: mostly within a few hours, now and then the
    next day."""
    return rnd.randint(1, 4) if rnd.random() < 0.7 else rnd.randint(5, 26)


def _kind(subject: str) -> str:
    for word in ("welcome", "game over", "daily digest", "reminder", "overdue", "timeout", "resigned", "notify",
                 "your turn", "to act"):
        if word in subject:
            return word
    return "other"


def season_games(count: int) -> list[tuple[str, int]]:
    """`count` games of every title in turn, 2 to 4 players."""
    games = registry.all_games()
    return [(games[i % len(games)].id, max(games[i % len(games)].min_players, min(4, 2 + i % 3)))
            for i in range(count)]


def report(tally: Tally) -> list[str]:
    lines = [f"  {'preference':10} {'mails':>6} {'player-days':>12} {'a day':>6} {'own moves':>10} {'a move':>7} "
             f"{'decisions':>10} {'a decision':>11} {'repeated':>9}"]
    for preference in PREFERENCES:
        days = tally.hours[preference] / 24
        mails, moves, decisions = tally.mails[preference], tally.moves[preference], tally.decisions[preference]
        lines.append(f"  {preference:10} {mails:6} {days:12.1f} {mails / days if days else 0:6.2f} {moves:10} "
                     f"{mails / moves if moves else 0:7.2f} {decisions:10} "
                     f"{mails / decisions if decisions else 0:11.2f} "
                     f"{tally.repeated[preference]:9}")
    for preference in PREFERENCES:
        kinds = ", ".join(f"{kind} {n}" for kind, n in tally.kinds[preference].most_common())
        lines.append(f"  {preference}: {kinds}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--seed", default="season")
    parser.add_argument("--days", type=int, default=200)
    args = parser.parse_args(argv)
    targets = yaml.safe_load((HERE / "targets.yaml").read_text())
    with tempfile.TemporaryDirectory(prefix="pbem-season-") as folder:
        season = Season(Path(folder), season_games(args.games), args.seed)
        tally = season.run(args.days)
        unfinished = season.unfinished()
    repeated = sum(tally.repeated.values())
    turn_per_decision = tally.mails["turn"] / tally.decisions["turn"] if tally.decisions["turn"] else 0
    print(f"pbem season by mail — {args.games} games, seed {args.seed!r}, "
          f"{'all finished' if not unfinished else 'unfinished: ' + ', '.join(unfinished)}")
    print("\n".join(report(tally)))
    checks = [("moves told twice to a player", repeated, "<=", targets["season_repeated_news"]["target"]),
              ("moves never told to a player", tally.lost, "<=", targets["season_lost_news"]["target"]),
              ("turn: mails per own decision", round(turn_per_decision, 2), "<=",
               targets["season_turn_mails_per_own_decision"]["target"])]
    missed = False
    for what, value, sense, target in checks:
        ok = value <= target
        missed |= not ok
        print(f"  {what:36} {value:8} {sense} {target:<6} {'ok' if ok else 'MISSED'}")
    return 1 if missed or unfinished else 0


if __name__ == "__main__":
    sys.exit(main())
