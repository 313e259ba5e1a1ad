"""The moves the referee's bots make for a seat: a decision that timed out under the `bot` policy, and every
decision of a seat given to a bot (`pbem new --bot`, `pbem replace --bot`).

Each is a move verify can make again: the bot decides from the player's view with a generator seeded from the
game's seed, its id and the move number (never the clock), at the level its log entry names (`bot`: `greedy`,
`search:16` ...), by the bots of the versions its entry names (`bot_version`, the game's meta.yaml one; for the
search also `search_version`, the search's version for that game: pbem.play.search.version). A later pbem whose
bots choose otherwise cannot remake it: verify then checks it as legal and names it in a note (pbem.engine.verify).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import digests
from ..messages import Domain, _, lazy
from ..text.botwords import BY_BOT
from . import levels

if TYPE_CHECKING:
    from ..store.registry import Game
    from .turns import MoveAt

BOT = BY_BOT  # the `by` of a bot seat's log entries (named where players' words for it are read back)
TIMEOUT_LEVEL = "greedy"  # a timeout entry that names no level: made before levels, by the greedy bot


def generator(at: MoveAt):
    """The bots' generator for move `at.number`: SHA-256 of the game's seed, id and the number (the one timeouts
    always drew from, so their entries still verify)."""
    import random
    digest = digests.sha256(f"pbem-timeout-bot\x00{at.seed}\x00{at.game_id}\x00{at.number}".encode()).digest()
    return random.Random(int.from_bytes(digest, "big"))


def choice(game: Game, state: dict, player: str, level: str, at: MoveAt) -> dict:
    """The move a bot of `level` makes for `player`, from the player's view (the search reads the game's
    components from `at`)."""
    legal = game.rules.legal_moves(state, player)
    return levels.decide(game, level, game.rules.view(state, player), legal, generator(at), at.components)


def signed(game: Game, entry: dict, level: str) -> dict:
    """A bot's log entry with what it takes to make the move again: the level as it played and the versions."""
    played = levels.parse_level(level).played(game)
    entry.update(bot=str(played), bot_version=game.bot_version)
    if played.kind == "search":
        from .search import version
        entry["search_version"] = version(game)
    return entry


def remade_by_this_pbem(game: Game, entry: dict) -> bool:
    """Are the bots that made this entry's move the ones of this pbem (same versions), so verify can remake it?"""
    if entry.get("bot_version") != game.bot_version:
        return False
    if levels.parse_level(level_of(entry)).played(game).kind != "search":
        return True
    from .search import version
    return entry.get("search_version") == version(game)


def not_remade_note(game: Game, entry: dict, timeout: bool) -> str:
    """verify's note on a bot's move this pbem's bots do not make again (made by other versions of them): checked
    as legal, not recomputed; in the language being read."""
    from .search import version
    made, search, ours = entry.get("bot_version"), entry.get("search_version"), version(game)
    # TRANSLATORS: {version}: this pbem's version of the game's bot; {made} and {search}: versions of the search.
    versions = lazy("this pbem has version {version}", version=game.bot_version) if search in (None, ours) else \
        lazy("this pbem has version {version}, its search version {made} and this pbem's {search}",
             version=game.bot_version, made=search, search=ours)
    said = {"number": entry["number"], "player": entry["player"], "title": Domain(game.package).stored(game.title),
            "made": made,
            "versions": versions}
    # TRANSLATORS: {title}: the game's title; {made}: the version of its bot that chose the move; {versions}:
    # "this pbem has version 3".
    if made and timeout:
        return _("move {number}: {player}'s timeout move was chosen by version {made} of the {title} bot "
                 "({versions}): checked as legal, not recomputed", **said)
    if made:
        return _("move {number}: {player}'s bot move was chosen by version {made} of the {title} bot ({versions}): "
                 "checked as legal, not recomputed", **said)
    if timeout:
        return _("move {number}: {player}'s timeout move was chosen by an earlier version of the {title} bot "
                 "({versions}): checked as legal, not recomputed", **said)
    return _("move {number}: {player}'s bot move was chosen by an earlier version of the {title} bot ({versions}): "
             "checked as legal, not recomputed", **said)


def level_of(entry: dict) -> str:
    """The level a bot's entry names (an entry made before levels: the greedy bot's)."""
    return entry.get("bot", TIMEOUT_LEVEL)


def seat_level(entry: dict) -> str:
    """The level of a bot seat's entry, public ones included (their reason names it, as seat_entry writes it)."""
    return entry.get("bot") or entry.get("reason", "").removesuffix(" bot")


def seat_entry(game: Game, entry: dict, level: str) -> dict:
    """A bot seat's log entry: by its bot (`by: bot`), the reason naming the level it played at (`search:16
    bot`), signed with what it takes to make it again."""
    entry = signed(game, dict(entry, by=BOT), level)
    entry["reason"] = f"{entry['bot']} bot"
    return entry
