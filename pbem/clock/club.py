"""Club life around a game that is no move of it: who watches (spectators) and what talk the organiser allows.

Like the players' mail preferences, these are the referee's configuration, kept in referee/secrets.yaml and
changed each in a transaction of its own (never in the log: `verify` replays moves, and a spectator or a talk
setting changes no move):

    club:            {watchers: admitted | open, talk: all | table | off}   (absent: admitted, all)
    spectators:      [{email, notify: every | daily, language}]   (language: of their mails; absent: the game's)
    watch_requests:  [{email, action: watch | unwatch | language, token, at, notify, language}]

A spectator is an address, not a seat: they get the public view only (pbem.mail.spectators). The organiser admits
one (`pbem watch DIR --add`); in a game open to watchers anyone may ask by mail, and the subscription (or its end)
is made only when the token mailed to that address comes back from it, as mailing lists confirm theirs: a forged
From can ask, but never receives the token, so it cannot subscribe or unsubscribe someone else.
"""
from __future__ import annotations

from ..contract import PbemError, UsageError
from ..engine import engine
from ..messages import lazy

WATCHERS = ("admitted", "open")
TALK = ("all", "table", "off")
SPECTATOR_NOTIFY = ("every", "daily")
MAX_REQUESTS = 50  # confirmations waiting: the oldest is dropped (its token no longer works) past this many
DEFAULTS = {"watchers": "admitted", "talk": "all"}


def settings(secrets: dict) -> dict:
    """The organiser's choices (a game made before them: admitted watchers, all talk)."""
    return {**DEFAULTS, **(secrets.get("club") or {})}


def checked_settings(watchers: str | None = None, talk: str | None = None) -> dict:
    """The choices given (None: unchanged), refused unless each is one of its words."""
    if watchers is not None and watchers not in WATCHERS:
        raise UsageError(f"--watchers {watchers!r}: write admitted or open")
    if talk is not None and talk not in TALK:
        raise UsageError(f"--talk {talk!r}: write all, table or off")
    return {key: value for key, value in (("watchers", watchers), ("talk", talk)) if value is not None}


def spectators(secrets: dict) -> list[dict]:
    return list(secrets.get("spectators") or [])


def spectator(secrets: dict, address: str) -> dict | None:
    return next((s for s in spectators(secrets) if s["email"].lower() == address.lower()), None)


def plays(secrets: dict, address: str) -> str | None:
    """The seat the address plays in this game, if any."""
    return next((p["name"] for p in secrets["players"] if (p.get("email") or "").lower() == address.lower()), None)


def configure(gd: engine.GameDir, watchers: str | None = None, talk: str | None = None) -> dict:
    """The organiser's choices changed (those given), in one transaction."""
    chosen = checked_settings(watchers, talk)
    return _change(gd, lambda secrets: secrets.__setitem__("club", {**settings(secrets), **chosen}))["club"]


def admit(gd: engine.GameDir, address: str, notify: str = "every") -> dict:
    """A spectator admitted by the organiser (or on a confirmed request): their address and how often they hear."""
    address = _address(address)
    if notify not in SPECTATOR_NOTIFY:
        raise UsageError(f"notify {notify!r}: a spectator gets every or daily")

    def add(secrets: dict) -> None:
        seat = plays(secrets, address)
        if seat is not None:
            raise PbemError(lazy("{address} plays {seat} in this game: a player's own reports already hold "
                                 "everything the public view does, so a player does not watch.",
                                 address=address, seat=seat))
        kept = [s for s in spectators(secrets) if s["email"].lower() != address.lower()]
        secrets["spectators"] = [*kept, {"email": address, "notify": notify}]
    return _change(gd, add)


def dismiss(gd: engine.GameDir, address: str) -> dict:
    """A spectator removed (refused when the address does not watch)."""
    address = _address(address)

    def remove(secrets: dict) -> None:
        if spectator(secrets, address) is None:
            raise PbemError(lazy("{address} does not watch this game.", address=address))
        secrets["spectators"] = [s for s in spectators(secrets) if s["email"].lower() != address.lower()]
    return _change(gd, remove)


def ask(gd: engine.GameDir, address: str, action: str, at: str, notify: str = "every",
        language: str | None = None) -> str:
    """A request to watch (how often: `notify`), to stop watching, or (a spectator) to read the game's mails in
    `language`, from `address` (not yet proved): recorded with a new token, which the caller mails to that address
    and nowhere else. Refused when it could not be granted."""
    import secrets as random_tokens  # here only: a request by mail
    address, token = _address(address), random_tokens.token_urlsafe(18)

    def record(secrets: dict) -> None:
        _grantable(secrets, address, action)
        waiting = [r for r in secrets.get("watch_requests") or [] if r["email"].lower() != address.lower()]
        asked = {"email": address, "action": action, "token": token, "at": at, "notify": notify,
                 **({"language": language} if language else {})}
        secrets["watch_requests"] = [*waiting, asked][-MAX_REQUESTS:]
    _change(gd, record)
    return token


def confirm(gd: engine.GameDir, address: str, token: str) -> str:
    """The request of `address` granted, when `token` is the one mailed to it: its action (watch or unwatch)."""
    import hmac
    address = _address(address)
    done = {}

    def grant(secrets: dict) -> None:
        waiting = secrets.get("watch_requests") or []
        request = next((r for r in waiting if r["email"].lower() == address.lower()
                        and hmac.compare_digest(r["token"].encode(), token.encode())), None)
        if request is None:
            raise PbemError(lazy("this confirmation is not one the referee sent to {address}, or it was used "
                                 "already: send `watch` or `unwatch` again for a new one.", address=address))
        _grantable(secrets, address, request["action"])
        secrets["watch_requests"] = [r for r in waiting if r is not request]
        done["action"] = request["action"]
        if request["action"] == "language":  # the spectator stays where they are, reading another language
            secrets["spectators"] = [{**s, "language": request["language"]} if s["email"].lower() == address.lower()
                                     else s for s in spectators(secrets)]
            return
        kept = [s for s in spectators(secrets) if s["email"].lower() != address.lower()]
        watching = {"email": address, "notify": request.get("notify", "every")}
        secrets["spectators"] = kept + ([watching] if request["action"] == "watch" else [])
    _change(gd, grant)
    return done["action"]


def set_notify(gd: engine.GameDir, address: str, preference: str) -> dict:
    """How often a spectator hears: every move, or one daily digest."""
    if preference not in SPECTATOR_NOTIFY:
        raise UsageError(f"notify {preference!r}: a spectator gets every or daily")

    def switch(secrets: dict) -> None:
        if spectator(secrets, address) is None:
            raise PbemError(lazy("{address} does not watch this game.", address=address))
        secrets["spectators"] = [{**s, "notify": preference} if s["email"].lower() == address.lower() else s
                                 for s in spectators(secrets)]
    return _change(gd, switch)


def _grantable(secrets: dict, address: str, action: str) -> None:
    """Refuse a request that could not be granted: a player asking to watch, a closed game, nothing to stop."""
    seat = plays(secrets, address)
    if action == "watch" and seat is not None:
        raise PbemError(lazy("you play {seat} in this game: your own reports already hold everything a spectator "
                             "sees, and more. There is nothing to watch that you do not get.", seat=seat))
    if action == "watch" and settings(secrets)["watchers"] != "open":
        raise PbemError(lazy("this game is not open to watchers: ask its organiser to admit you."))
    if action in ("unwatch", "language") and spectator(secrets, address) is None:
        raise PbemError(lazy("{address} does not watch this game.", address=address))


def _address(address: str) -> str:
    from .addresses import is_address
    if not is_address(address):
        raise UsageError(f"{address[:80]!r} is not an email address")
    return address


def _change(gd: engine.GameDir, change) -> dict:
    """The secrets changed by `change` (which may refuse: then nothing is written), in one transaction."""
    with engine.writing(gd) as env:
        secrets = engine.load_secrets(gd)
        change(secrets)
        engine.commit(gd, env, env["state"], [], env["resigned"], secrets_doc=secrets)
    return {"game": gd.id, "club": settings(secrets), "spectators": spectators(secrets)}
