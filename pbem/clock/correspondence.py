"""Correspondence life: the clock's tick, the organiser's deadline changes, vacations, and each player's address
and mail preferences (a seat handed on is pbem.clock.handover's).

The engine keeps none of these: this layer wraps it. `create` makes a game through the engine's hook that adds
the clock to the state envelope and the addresses, mail preferences and organiser to the secrets; `submit` plays
a turn through the hook that restarts the clock (every transport submits through it). Every other function is
one transaction under the game's lock (engine.writing / engine.commit) and takes the time as `now`
(pbem.clock.clock holds the rules of time; it is imported only where a game has deadlines). A tick is idempotent:
what it did is recorded in the clock record (a reminder sent, a decision restarted at its due time), so a second
tick at the same time finds nothing to do. Overdue decisions are settled from their due times, not from the
tick's: a tick that runs late (cron stopped for a day) leaves the game as ticks on time would have.
"""
from __future__ import annotations

from ..contract import PbemError, UsageError
from ..engine import engine
from ..messages import lazy
from ..store import registry
from . import club, notices

MAX_STEPS = 500  # timeouts settled in one tick: a bound on an automatic flow (the next tick goes on)
NOTIFY = ("every", "turn", "daily")
PICTURES = ("on", "off")  # a player's mails that ask them to act: with the picture of their view, or text only
# a new game's mail preference: only one's turn (a club's quiet choice, docs/email.md); a player recorded without
# one (a game made before) keeps `every`, what it was made with
DEFAULT_NOTIFY = "turn"


# ---------------------------------------------------------------- a new game, a turn

def parse_player(spec: str) -> tuple[str, str | None]:
    """`NAME[:EMAIL]` of the command line: a player's name and address."""
    from ..engine.newgame import check_name
    from .addresses import is_address  # (`new` and `replace` only: a move checks no address)
    name, _, email = spec.partition(":")
    check_name(name)
    if email and not is_address(email):
        raise UsageError(f"player {name}: {email[:80]!r} is not an email address")
    return name, email or None


def create(game_type: str, path, players: list[tuple[str, str | None]], *, organiser: str | None = None,
           deadlines: dict | None = None, notify: dict[str, str] | None = None, **game) -> dict:
    """A new game (engine.create; `game`: the rest of its engine.NewGame, `now` and `bots` included) for players
    given as (name, address or None), with the organiser's address, `deadlines` (a clock record,
    pbem.clock.clock.new_clock, whose first decision starts `now`; its `timeout_bots`: the `[PLAYER=]LEVEL` specs of
    the bots that play overdue moves under the `bot` policy, each seat's search by default) and each player's mail
    preference (`notify`: every, turn, daily); `club_settings` among `game`: (who may watch, what talk it allows),
    pbem.clock.club's, None each for the default."""
    from . import clock
    from .addresses import is_address
    if organiser is not None and not is_address(organiser):
        raise UsageError(f"--organiser {organiser[:80]!r} is not an email address")
    now = clock.moment(game.pop("now", None))
    addresses = dict(players)
    chosen = club.checked_settings(*game.pop("club_settings", (None, None)))

    def extend(env: dict, secrets_doc: dict) -> None:
        if deadlines is not None:
            from ..play import levels  # the bots' levels: a move never needs them
            played = registry.get(env["game"])
            first = played.rules.pending(env["state"])["player"]
            settings = {**deadlines, "timeout_bots": levels.seat_levels(deadlines.get("timeout_bots", ()),
                                                                         env["players"], played)}
            env["clock"] = clock.begin(settings, first, now)
        unknown = sorted(set(notify or {}) - set(addresses))
        if unknown:
            raise UsageError(f"--notify for {', '.join(unknown)}, who does not play")
        for entry in secrets_doc["players"]:
            entry["email"] = addresses[entry["name"]]
            if entry["email"] or entry["name"] in (notify or {}):
                entry["notify"] = (notify or {}).get(entry["name"], DEFAULT_NOTIFY)
        secrets_doc["organiser"] = organiser
        if chosen:
            secrets_doc["club"] = {**club.DEFAULTS, **chosen}

    request = engine.NewGame(game_type, path, [name for name, _ in players], now=now, **game)
    return engine.create(request, extend=extend)


def submit(gd: engine.GameDir, player: str, texts: list[str], *, now=None, **how) -> dict:
    """A turn submitted (engine.submit, with `how`: by, move_number, signature, password, authenticated,
    before_write, may_queue); in a game with deadlines the movers' runs of timeouts end and the next decision
    starts `now` (default: the system clock). The answer says when that decision is due (`due`, None without
    deadlines)."""
    restart = Restart(gd, now)
    return restart.told(engine.submit(gd, player, texts, after_turn=restart, **how))


def set_queue(gd: engine.GameDir, player: str, texts: list[str], *, now=None, **how) -> dict:
    """A player's queue replaced (engine.set_queue); when it plays at once, the clock restarts as for `submit`."""
    restart = Restart(gd, now)
    return {**engine.set_queue(gd, player, texts, after_turn=restart, **how), "due": restart.due}


class Restart:
    """The clock's hook into a turn (engine.submit's `after_turn`): the movers answered (their run of timeouts
    ends) and the next decision starts now."""

    def __init__(self, gd: engine.GameDir, now):
        self.gd, self.now, self.due = gd, now, None

    def __call__(self, env: dict, state: dict, entries: list[dict]) -> dict:
        if not env.get("clock"):
            return {}
        from . import clock
        record = env["clock"]
        for mover in [entry["player"] for entry in entries if entry["by"] == "player"] or [entries[0]["player"]]:
            record = clock.answered(record, mover)
        pending = engine.to_act(self.gd.game, {"state": state, "recent": entries})  # (an ending is the last entry)
        moment = clock.moment(self.now)
        record = clock.begin(clock.forget_past(record, moment), pending["player"] if pending else None, moment)
        self.due = record["due"]
        return {"clock": record}

    def told(self, result: dict) -> dict:
        """A turn's answer with the next decision's due time (before the mover's queue, as it always was)."""
        queue = result.pop("queue", None)
        return {**result, "due": self.due, "queue": queue}


def _pending_player(game, env: dict) -> str | None:
    """Who must act in the position of envelope `env` ({state, recent}); None once the game is over or ended."""
    pending = engine.to_act(game, env)
    return pending["player"] if pending else None


def _no_clock(gd: engine.GameDir) -> PbemError:
    return UsageError(f"{gd.id} has no deadlines: set one with `pbem deadline {gd.path} --set 72h`")


# ---------------------------------------------------------------- tick

class Settling:
    """The position a tick settles overdue decisions on: the state, who resigned, the players' queue records, the
    next move number, and the log entries and the clock's events so far; the game's components, read if a bot
    searches."""

    __slots__ = ("state", "resigned", "records", "number", "entries", "events", "components")

    def __init__(self, state: dict, resigned: list[str], records: dict, number: int):
        self.state, self.resigned, self.records, self.number = state, resigned, records, number
        self.entries: list[dict] = []
        self.events: list[dict] = []
        self.components = None

    def to_act(self, game) -> str | None:
        return _pending_player(game, {"state": self.state, "recent": self.entries})


def tick(gd: engine.GameDir, now, owe: bool = False) -> dict:
    """Send each reminder whose time has come (recorded, so sent once) and apply the timeout policy to every
    overdue decision. Returns what happened: `events` (remind, late, timeout, resigned), the new log entries as
    the public sees them, and whether anything changed. `owe`: the transport will tell the players, so what the
    change owes them is recorded with it (pbem.clock.notices; `notice`: the record's id)."""
    from . import clock
    from ..text import times
    now = clock.moment(now)
    game = gd.game
    with engine.writing(gd) as env:
        record = env.get("clock")
        result = {"game": gd.id, "events": [], "entries": [], "changed": False, "move_number": env["move_number"]}
        to_act = _pending_player(game, env)
        if not record or to_act is None:
            return {**result, "to_act": to_act, "finished": to_act is None}
        start, record = record, clock.forget_past(record, now)
        play = Settling(env["state"], list(env["resigned"]), dict(env.get("queues") or {}), env["move_number"])
        play.components = engine.components_reader(gd)
        for _ in range(MAX_STEPS):
            player = play.to_act(game)
            event = clock.next_event(record, player, now)
            if event is None:
                break
            if event == "remind":
                record = {**record, "reminded": True}
                play.events.append({"kind": "remind", "player": player, "due": record["due"],
                                    "move_number": play.number})
                break
            record = _settle(gd, env, record, play, player)
        if record == start and not play.entries:  # no move made: the same player is to act
            return {**result, "to_act": to_act, "finished": False}
        public = [engine.public_entry(game, entry) for entry in play.entries]
        owed, also = notices.record(gd, times.iso(now), play.events, public) if owe else (None, None)
        new_env = engine.commit(gd, env, play.state, play.entries, play.resigned, fields={"clock": record},
                                queues=play.records, also=also)
    to_act = _pending_player(game, new_env)
    return {**result, "events": play.events, "entries": public, "changed": True,
            "move_number": new_env["move_number"], "to_act": to_act, "finished": to_act is None,
            "due": record["due"], "notice": owed["id"] if owed else None}


def _settle(gd: engine.GameDir, env: dict, record: dict, play: Settling, player: str) -> dict:
    """The overdue decision of `player` settled by the game's policy: one more strike (enough of them in a row
    resign the seat), then the referee waits (late), or plays the timeout's move; then what the referee and the
    queues play after it, and the next decision starts when this one was due. Returns the clock record."""
    from . import clock
    from ..text import times
    due = times.at(record["due"])
    record, out = clock.strike(record, player)
    event = {"player": player, "due": record["due"], "move_number": play.number,
             "strikes": record["strikes"][player], "policy": record["on_timeout"]}
    if out:
        record["strikes"].pop(player)
        play.resigned.append(player)
        play.records.pop(player, None)  # a resigned seat plays the referee's moves, never a queue
        play.entries.append({"number": play.number, "player": player, "by": "referee", "moves": [engine.RESIGN],
                             "chance": [], "reason": f"{event['strikes']} consecutive timeouts"})
        play.events.append({**event, "kind": "resigned", "numbers": [play.number]})
        play.number += 1
    elif record["on_timeout"] == "wait":
        play.events.append({**event, "kind": "late"})
    else:
        at = engine.MoveAt(env["seed"], gd.id, play.number, play.components)
        play.state, entry = engine.timeout_move(gd.game, play.state, player, record["on_timeout"], at,
                                                clock.timeout_level(record, player))
        play.entries.append(entry)
        play.events.append({**event, "kind": "timeout", "numbers": [play.number]})
        play.number += 1
    at = engine.MoveAt(env["seed"], gd.id, play.number, play.components)
    play.state, auto, play.records = engine.referee_turns(gd.game, play.state, env, at, play.resigned, play.records)
    play.entries += auto
    play.number += len(auto)
    return clock.begin(record, play.to_act(gd.game), due)


# ---------------------------------------------------------------- the organiser's changes

class DeadlineChange(engine.Request):
    """What the organiser changes of a game's deadlines (the keywords of `deadline`): the deadline's `length`,
    the `reminder` before it, the policy `on_timeout`, the `timeouts` in a row that resign a seat (or
    `no_timeouts`), more time for players (`extensions`: (player, seconds)), a `pause` or its `resume`, the
    yearly `vacation_days` and the bots of the `bot` policy (`timeout_bots`: `[PLAYER=]LEVEL` specs). Durations in
    seconds; None changes nothing."""

    __slots__ = ("length", "reminder", "on_timeout", "timeouts", "no_timeouts", "extensions", "pause", "resume",
                 "vacation_days", "timeout_bots")
    DEFAULTS = {"length": None, "reminder": None, "on_timeout": None, "timeouts": None, "no_timeouts": False,
                "extensions": (), "pause": False, "resume": False, "vacation_days": None, "timeout_bots": ()}
    length: int | None
    reminder: int | None
    on_timeout: str | None
    timeouts: int | None
    no_timeouts: bool
    extensions: list[tuple[str, int]]
    pause: bool
    resume: bool
    vacation_days: int | None
    timeout_bots: list[str]


def deadline(gd: engine.GameDir, now, **change) -> dict:
    """Change a game's deadlines as `change` says (a DeadlineChange); a game without any gets them (its current
    decision starts now). Returns the clock as the players see it."""
    from . import clock
    from ..text import times
    now, asked = clock.moment(now), DeadlineChange(**change)
    if asked.pause and asked.resume:
        raise UsageError("--pause and --resume together: choose one")
    for player, _ in asked.extensions:
        engine.check_player(gd, player)
    with engine.writing(gd) as env:
        to_act = _pending_player(gd.game, env)
        if to_act is None:
            raise PbemError(f"{gd.id} is over: it has no deadline to change")
        from ..play import levels
        record = env.get("clock")
        if record is None:
            if asked.length is None:
                raise _no_clock(gd)
            record = clock.begin(clock.new_clock(asked.length, asked.reminder, asked.on_timeout or "wait",
                                                 asked.timeouts), to_act, now)
            record["timeout_bots"] = levels.seat_levels([], env["players"], gd.game)
        if asked.timeout_bots:
            before = record.get("timeout_bots") or dict.fromkeys(env["players"], "greedy")
            record = {**record, "timeout_bots": levels.seat_levels(asked.timeout_bots, env["players"], gd.game,
                                                                   before)}
        if asked.vacation_days is not None:  # checked with the other settings by set_deadline
            record = {**record, "vacation_days": asked.vacation_days}
        record = clock.set_deadline(record, to_act, asked.length, asked.reminder, asked.on_timeout, asked.timeouts,
                                    asked.no_timeouts)
        for player, seconds in asked.extensions:
            record = clock.extend(record, to_act, player, seconds)
        if asked.pause:
            record = clock.pause(record, to_act, now)
        if asked.resume:
            record = clock.resume(record, to_act, now)
        engine.commit(gd, env, env["state"], [], env["resigned"], fields={"clock": record})
    return {"game": gd.id, "to_act": to_act, "clock": times.public(record)}


def vacation(gd: engine.GameDir, player: str, now, start: str | None = None, end: str | None = None,
             cancel: bool = False) -> dict:
    """A player's vacation FROM TO (dates or ISO times), or `cancel` of theirs. Deadlines falling inside it are
    pushed past it (the clock stops for that player meanwhile); everyone sees it. A new vacation is returned as
    `taken` (its span as recorded: from now if it has begun, TO's whole day)."""
    from . import clock
    from ..text import times
    now = clock.moment(now)
    engine.check_player(gd, player)
    with engine.writing(gd) as env:
        record = env.get("clock")
        if record is None:
            raise UsageError(lazy("{game} has no deadlines, so no vacation is needed: nobody's move is ever late",
                                  game=gd.id))
        to_act = _pending_player(gd.game, env)
        if to_act is None:
            raise PbemError(lazy("{game} is over", game=gd.id))
        if cancel:
            record, changed = clock.cancel_vacations(record, player, to_act, now)
            if not changed:
                raise UsageError(lazy("{player} has no vacation to cancel", player=player))
        else:
            if start is None or end is None:
                raise UsageError(lazy("give the vacation's FROM and TO (dates like 2025-12-24, or ISO times)"))
            first, last = clock.parse_span(start, end, now)
            record = clock.take_vacation(clock.forget_past(record, now), player, to_act, first, last)
        engine.commit(gd, env, env["state"], [], env["resigned"], fields={"clock": record})
    result = {"game": gd.id, "player": player, "to_act": to_act, "clock": times.public(record)}
    return result if cancel else {**result, "taken": {"from": times.iso(first), "to": times.iso(last)}}


# ---------------------------------------------------------------- mail preferences

def set_notify(gd: engine.GameDir, player: str, preference: str) -> dict:
    """How often `player` gets mail: every move, only when it is their turn (with what happened since), or a
    daily digest (sent by the tick). Answers to their own mail and the end of the game always reach them."""
    if preference not in NOTIFY:
        raise UsageError(lazy("notify {choice}: one of {choices}", choice=repr(preference), choices=list(NOTIFY)))
    return _set_preference(gd, player, "notify", preference)


def set_pictures(gd: engine.GameDir, player: str, choice: str) -> dict:
    """Whether the mails that ask `player` to act carry the picture of their view (`on`, a new game's default)
    or are text only (`off`)."""
    if choice not in PICTURES:
        raise UsageError(lazy("pictures {choice}: write on or off", choice=repr(choice)))
    return _set_preference(gd, player, "pictures", choice)


def set_language(gd: engine.GameDir, player: str, code: str) -> dict:
    """The language `player` reads from now on (one of pbem.text.language.LANGUAGES, as its `check` reads a code:
    `zh-tw` is zh-Hant); recorded beside their mail preferences. Their reports, mails and refusals follow it; their
    moves may be written in any language's words, and are recorded in the canonical notation."""
    from ..text import language
    return _set_preference(gd, player, "language", language.check(code))


def _set_preference(gd: engine.GameDir, player: str, key: str, value: str) -> dict:
    """A mail preference recorded beside the player's address (secrets.yaml), in a transaction of its own."""
    engine.check_player(gd, player)
    with engine.writing(gd) as env:
        secrets = engine.load_secrets(gd)
        entry = next(p for p in secrets["players"] if p["name"] == player)
        entry[key] = value
        engine.commit(gd, env, env["state"], [], env["resigned"], secrets_doc=secrets)
    return {"game": gd.id, "player": player, key: value}


def pictures_of(entry: dict) -> bool:
    """Does the player want pictures in their mails (secrets.yaml; none recorded: yes)?"""
    return entry.get("pictures", "on") != "off"


def notify_of(entry: dict) -> str:
    """A player's preference as recorded (secrets.yaml); none recorded: `every`, the default of the games made
    before DEFAULT_NOTIFY."""
    return entry.get("notify", "every")


def parse_notify(specs: tuple[str, ...], players: list[str]) -> dict[str, str]:
    """`--notify PREF` (every player) and `--notify PLAYER=PREF`, in order (a later one wins for its players)."""
    chosen = {}
    for spec in specs:
        who, sep, preference = spec.rpartition("=")
        if preference not in NOTIFY:
            raise UsageError(f"--notify {spec!r}: write every, turn or daily (or PLAYER=every|turn|daily)")
        for player in ([who] if sep else players):
            chosen[player] = preference
    return chosen
