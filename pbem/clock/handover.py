"""A seat handed on (`pbem replace`): to a new player, or to a bot the referee plays.

One transaction under the game's lock, like every change of the correspondence layer (pbem.clock.correspondence):
the seat keeps its name, its new holder gets a new secret, the log records the change, and a bot seat plays at once
when the decision is its.
"""
from __future__ import annotations

from ..contract import PbemError
from ..engine import engine
from ..play import levels, trust
from ..store.gamedir import BOT_HOLDER
from .correspondence import DEFAULT_NOTIFY, parse_player


def _to_act(game, env: dict) -> str | None:
    pending = engine.to_act(game, env)
    return pending["player"] if pending else None


def replace(gd: engine.GameDir, seat: str, holder: str | None, email: str | None, now, bot: str | None = None
            ) -> dict:
    """Hand `seat` to a new player, or to a bot of level `bot` (`holder` None): a new secret (the old one stops
    working), their address, and a log entry. The seat keeps its name in the game (it is in the log, the views'
    file names and every signature); the secrets file records who holds it now and who held it before (with the old
    secret, to check old signatures). A seat that had resigned is played by its new holder from now on; a bot seat
    plays at once when the decision is its (each move logged as its bot's, `by: bot`), and no deadline runs
    against it."""
    from . import clock
    now = clock.moment(now)
    engine.check_player(gd, seat)
    if bot is None:
        parse_player(holder + (f":{email}" if email else ""))
    with engine.writing(gd) as env:
        game = gd.game
        if _to_act(game, env) is None:
            raise PbemError(f"{gd.id} is over: no seat to hand on")
        bots = {name: level for name, level in (env.get("bots") or {}).items() if name != seat}
        if bot is not None:
            bots[seat] = str(levels.parse_level(bot).played(game))
        secrets, entry = _new_holder(gd, env, seat, holder or BOT_HOLDER, email)
        number, to_act = env["move_number"], _to_act(game, env)
        handed = f"the {bots[seat]} bot" if bot is not None else holder  # (read back: pbem.text.botwords.HANDED)
        log_entry = {"number": number, "player": seat, "by": "referee", "moves": [engine.REPLACE], "chance": [],
                     "reason": f"seat handed to {handed}"}
        resigned = [p for p in env["resigned"] if p != seat]
        queues = {name: queue for name, queue in (env.get("queues") or {}).items() if name != seat}  # the old holder's
        at = engine.MoveAt(env["seed"], gd.id, number + 1, engine.components_reader(gd))
        state, auto, queues = engine.referee_turns(game, env["state"], {**env, "bots": bots}, at, resigned, queues)
        fields = {"bots": bots} if bots or env.get("bots") else {}
        record = env.get("clock")
        if record is not None:
            record = clock.answered(record, seat)
            now_to_act = _to_act(game, {"state": state, "recent": [log_entry, *auto]})
            if to_act == seat or auto:  # the new holder gets a whole deadline; after the bot's moves, the next player
                record = clock.begin(record, now_to_act, now)
            fields["clock"] = record
        engine.commit(gd, env, state, [log_entry, *auto], resigned, fields=fields, secrets_doc=secrets, queues=queues)
    return {"game": gd.id, "seat": seat, "holder": handed, "bot": bots.get(seat), "email": email,
            "secret": entry["secret"], "number": number, "to_act": to_act,
            "referee_moves": [engine.public_entry(game, e) for e in auto]}


def _new_holder(gd: engine.GameDir, env: dict, seat: str, holder: str, email: str | None) -> tuple[dict, dict]:
    """The secrets with the seat's new holder (a new secret; the old holder's kept among the former), and the
    seat's entry."""
    secrets = engine.load_secrets(gd)
    entry = next(p for p in secrets["players"] if p["name"] == seat)
    former = {"holder": entry.get("holder", seat), "secret": entry["secret"], "until": env["move_number"]}
    if entry.get("email"):
        former["email"] = entry["email"]
    entry.update({"secret": trust.new_secret(), "email": email, "holder": holder,
                  "former": [*entry.get("former", []), former]})
    entry.pop("notify", None)  # the new holder starts with a new game's preferences, and chooses their own
    entry.pop("pictures", None)
    entry.pop("language", None)  # (the game's language until the new holder chooses)
    if email:
        entry["notify"] = DEFAULT_NOTIFY
    return secrets, entry
