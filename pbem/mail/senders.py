"""Who wrote a message: the player whose registered address it comes from (whose language its answers are
written in) and, for anything but `help`, whose password it holds; every other sender is refused."""
from __future__ import annotations

from ..contract import PbemError
from ..engine import engine
from ..messages import lazy
from ..play import trust
from .outcome import Reject
from .outgoing import Mailer
from .telling import Handling


def registered(mailer: Mailer, gd: engine.GameDir | None) -> list[dict]:
    """The players of `gd` (their entries in secrets.yaml); none without a game or when they cannot be read."""
    if gd is None:
        return []
    try:
        return mailer.reads.secrets(gd)["players"]
    except PbemError:
        return []


def sender(mailer: Mailer, handling: Handling) -> dict | None:
    """The player whose registered address the message comes from (the first, if one address plays several seats),
    or None: whose language its answers are written in. Reading it proves nothing: the password does."""
    address = handling.incoming.sender
    return next((p for p in registered(mailer, handling.gd) if address and p["email"]
                 and p["email"].lower() == address), None)


def identify(mailer: Mailer, handling: Handling) -> dict:
    """The player who sent it: the From address must be a registered one, and the password must be its."""
    incoming, gd = handling.incoming, handling.gd
    mine = [p for p in mailer.reads.secrets(gd)["players"]
            if p["email"] and p["email"].lower() == incoming.sender]
    if not mine:
        if incoming.sender:
            raise Reject(lazy("{address} is not the registered address of a player of {game}. Write from the "
                              "address you gave the organiser.", address=incoming.sender, game=gd.id))
        raise Reject(lazy("this address is not the registered address of a player of {game}. Write from the "
                          "address you gave the organiser.", game=gd.id))
    if incoming.player:
        named = [p for p in mine if p["name"].lower() == incoming.player.lower()]
        if not named:
            # TRANSLATORS: "Player:" is the line a player writes in their mail: keep it in English.
            raise Reject(lazy("the Player: line names someone who does not play from {address} in {game}",
                              address=incoming.sender, game=gd.id))
        mine = named
    if incoming.command == "help":
        return mine[0]
    if not incoming.password:
        # TRANSLATORS: "Password:" is what the referee reads in a mail: keep it in English.
        raise Reject(lazy("no password: add a line `Password: <your password>` (it is in your welcome mail)."))
    for player in mine:
        if trust.same_secret(player["secret"], incoming.password):
            return player
    raise Reject(lazy("wrong password for {address} in game {game}. It is in your welcome mail; ask the organiser "
                      "if it is lost.", address=incoming.sender, game=gd.id))
