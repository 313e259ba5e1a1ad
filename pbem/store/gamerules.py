"""A game's rules as the engine calls them (`game.rules`): the contract's six functions (pbem/contract.py), built
from the game's own modules (setup.py, decisions.py, views.py, scoring.py), so that a game writes only its own
code. pbem writes the fields every state and view begins with, which its base schema declares
(schemas/common/base.schema.json): a state's game id, rules version, players and options, a view's game id, rules
version and options.

A state records the earliest rules version this pbem plays (meta.yaml `rules_version`, or the first of
`earlier_rules_versions`), the same whichever of them its game was made under, so that the games of an earlier
version replay byte for byte (game.yaml, the log and the status say the game's own version).
"""
from __future__ import annotations

from .. import decisions
from ..viewfields import BotView, lazily

# What pbem writes at the head of a state, unless the game's meta.yaml `state_header` says otherwise (a game whose
# stored states were made with fewer fields keeps them so).
STATE_HEADER = ("game", "rules_version", "players", "options")


class Rules:
    """The contract's six functions over a game's modules; `HANDLERS` is the game's table of decisions."""

    def __init__(self, game, setup, table, views, scoring):
        self.game_id = game.id
        self.state_version = min([game.rules_version, *game.meta.get("earlier_rules_versions", [])])
        self.header = tuple(game.meta.get("state_header", STATE_HEADER))
        self.HANDLERS = table.HANDLERS
        self._advance = getattr(table, "advance", None)
        self._setup, self._views, self._scoring = setup, views, scoring

    def setup(self, players: list[str], options: dict, components: dict, rng) -> dict:
        known = {"game": self.game_id, "rules_version": self.state_version, "players": list(players),
                 "options": dict(options)}
        state = {key: known[key] for key in self.header}
        self._setup.setup(state, components, rng)
        self.advance(state, rng)
        return state

    def imagined(self, view: dict, part: dict) -> dict:
        """A whole state from a game's own `part` of one (what its unseen.py imagines from a player's view, for the
        search bot) under the fields pbem writes first, read from that view (the players from its seats)."""
        known = {"game": self.game_id, "rules_version": view["rules_version"],
                 "players": [seat["name"] for seat in view["players"]], "options": dict(view["options"])}
        return {**{key: known[key] for key in self.header}, **part}

    def advance(self, state: dict, rng) -> None:
        if self._advance is not None:
            self._advance(state, rng)

    def pending(self, state: dict) -> dict | None:
        return decisions.pending(state["stack"], self._scoring.is_over(state))

    def legal_moves(self, state: dict, player: str) -> list[dict]:
        return decisions.legal_moves(self.HANDLERS, state, player, self._scoring.is_over(state))

    def apply(self, state: dict, player: str, move: dict, rng) -> dict:
        decisions.apply(self.HANDLERS, state, move, rng)
        self.advance(state, rng)
        return state

    def view(self, state: dict, player: str | None) -> dict:
        return {**self.view_header(state), **self._views.view(state, player)}

    def view_header(self, state: dict) -> dict:
        """The fields pbem writes at the head of every view."""
        return {"game": self.game_id, "rules_version": state["rules_version"], "options": dict(state["options"])}

    def bot_view(self, state: dict, player: str) -> dict:
        """The view a bot reads in the search's rollouts: `view`'s, each field made when the bot first reads it
        when the game's views.py declares its `FIELDS` or its `fields` (pbem.viewfields), else the whole view."""
        declared = getattr(self._views, "FIELDS", None)  # functions of (state, player, make), made once a process
        if declared is not None:
            return BotView(self.view_header(state), declared, (state, player, lazily))
        fields = getattr(self._views, "fields", None)
        if fields is None:
            return self.view(state, player)
        return BotView(self.view_header(state), fields(state, player, lazily))

    def result(self, state: dict) -> list[dict]:
        return self._scoring.result(state)
