"""The engine's contract with a game.

A game is a package: one of pbem's own (`games/<package>/`, installed as `pbem.games.<package>`) or one from a
distribution of its own, registered under the `pbem.games` entry points (pbem.store.registry;
docs/adding-a-game.md walks through one, the example in examples/plugin-game). It holds:

- `meta.yaml`: id, package, title, players {min, max}, rules_version, bot_version, bot_fingerprint, search,
  options, notation, decisions, queues (read without importing any rules code, so `pbem games` stays fast); the
  game's id and rules version are said there only (docs/adding-a-game.md lists every key). `bot_version` is
  raised with any change to the greedy bot (bot.py) that may make it choose otherwise; `search` (optional) tunes
  the search bot: {budget: simulations a decision for `search` alone, rounds: rounds of play before a rollout is
  scored by `estimate` (absent: to the end), decisions: those it weighs (absent: all; a view's `to_act` names the
  decision), version: the search's version for this game, raised with any change to what only its search uses
  (unseen.py, scoring.estimate, these settings) that may make it choose otherwise (absent:
  pbem.play.search.VERSION)};
- `components.yaml`: the game's static data (cards, spaces, tables), validated against the package's
  `schemas/components.schema.json`; a club may pass its own file with `pbem new --components FILE`;
- `schemas/`: `components`, `state`, `public-view` and `player-view` (`.schema.json`), JSON Schema 2020-12. The
  state and public-view schemas extend pbem's base (`base.schema.json`, `$defs/state` and `$defs/view`) with the
  game's own fields, the player-view schema extends the public view (`game-public-view.schema.json#/$defs/public`),
  each closed with `unevaluatedProperties: false`, every object within closed too;
- the contract's six pure functions over plain data (dict, list, str, int, bool; no sets, tuples or floats), which
  pbem builds from the game's modules (pbem.store.gamerules) and the engine calls as `game.rules`:

    setup(players: list[str], options: dict[str, str], components: dict, rng: Rng) -> state
        The whole starting state. It must be self-contained: every later function sees only the state.
        Players are lowercase names in seating order (clockwise). An option that does not fit this player
        count raises PbemError with a message for the organiser.
    pending(state) -> {"player": str, "decision": str, "fresh_info": bool} | None
        Who must act now and which decision (a name from meta.yaml `decisions`); None once the game is over.
        `fresh_info` is true when the decision follows hidden information just shown to that player (draw 5,
        a refilled hand): the engine then ends the submitted turn there, so the player sees it before choosing.
    legal_moves(state, player) -> list[move]
        Every legal move of `player` now ([] when it is not their decision). This is the one place legality is
        decided: the engine checks each submitted move against it, the bots choose from it. An int field may be a
        range {"min": a, "max": b}. A state that is not over always has at least one legal move. The first entry
        is what the referee plays for a player who resigned (the lowest value of a range): put the modest choice
        first where there is one (pass, keep none, end).
    apply(state, player, move, rng) -> state
        Apply one legal move (already checked against legal_moves) and return the new state. The engine passes a
        state nobody else holds (a private copy, or a state it needs no more: one just read, a replay's previous
        position), so the game may change it in place; the state returned must share nothing with module-level
        data. Chance only through `rng` (pbem.rng.Rng).
    view(state, player: str | None) -> dict
        What `player` may see (None: the public). Checked against the game's view schemas, which forbid
        anything not declared, so a private field cannot leak by accident. Its `players` is a list of
        {"name": player, ...} in seating order (the pictures and the web site take the seats from it).
    result(state) -> list[{"player", "score", "rank", "details"}]
        Final ranking once pending() is None (rank 1 is best; tied players share a rank). `details` is an
        ordered mapping of the score's lines for the final report (str -> int | str), with the same keys for
        every player (the report prints them as the columns of one table).

  The game's modules that pbem builds them from (pbem.store.gamerules):

    setup.py      `setup(state, components, rng) -> None`: fills in the starting position. The state it is given
                  already holds what pbem writes first: the game's id (`game`), the rules version (the earliest
                  this pbem plays: meta.yaml's `rules_version` or the first of `earlier_rules_versions`), the
                  players and the options (meta.yaml `state_header` may leave out the id: a game whose stored
                  states were made without it). The state keeps its decisions in `stack` (pbem.decisions).
    decisions.py  `HANDLERS`: the table of the game's decisions by name (the names of meta.yaml `decisions`), each
                  a pbem.decisions.Handler(legal(state, frame), apply(state, frame, move, rng)); and, if the game
                  does anything by itself between decisions, `advance(state, rng) -> None`, run after the setup and
                  after every move until a player must decide (the next turn, dice, production). `pending`,
                  `legal_moves` and `apply` are the top frame's.
    views.py      `view(state, player) -> dict`: the game's own part of a view; pbem writes its first fields
                  (`game`, `rules_version`, `options`). A player's view is the public one plus their own hidden
                  things (under `private` by convention: {"player": name, ...}).
    scoring.py    `is_over(state)`: the one way the game says it is over; `result(state)` as above; and, for the
                  search bot, `estimate(state) -> {player: number}` if the game has one: each player's expected
                  final score before the end (what is under way: cards in hand, cargo, orders half filled), for
                  rollouts stopped early (meta.yaml `search: {rounds: N}`; without it, the score `result` gives as
                  if the game ended now). It reads only positions the search imagined.

  A game written before pbem built the contract brings its own `rules.py` with the six functions and no
  decisions.py: pbem then plays it by that module (and its setup module's RULES_VERSION, if it has one, must be a
  version meta.yaml plays).
- `report.py` with `render(view: dict, viewer: str | None) -> str`: the game's part of a text report (players
  with their public resources, the board; the viewer's private things when viewer is a player), built only from
  a view so nothing hidden can be printed; and `describe(view: dict, move: dict) -> str`: a short phrase saying
  what one legal-move entry (forms included) does — the card's contents, what it costs and gains — built from
  the view of who asked: the mover's own, or the public view when nobody asked as a player (`pbem moves DIR`;
  the mover is then `to_act`'s player), so it must read nothing else; "" when the move's text says it all.
  Optionally `explain_refusal(view: dict, move: dict) -> Message | None`: why a well-formed move is not legal
  now, from the mover's own view, as a clause ("you hold 9 gold, and a bid is never more than your gold"), a lazy
  message (`T.lazy`: the refusal is rendered where its reader's language is known); None leaves it to pbem, which
  says which values the move's word takes now (pbem.play.refusals).
- `draw.py` with `draw(view: dict, viewer: str | None, sheet: pbem.text.sheet.Sheet) -> None`: the game's picture
  of the position, drawn on the sheet from a view only (the public one, or the viewer's with their own hand beside
  the board); pbem.text.pictures adds the title, the move number, who is to act and the legend.
- `bot.py` with `choose(view: dict, legal: list[dict], rnd: random.Random) -> move`: the game's heuristic player
  (`greedy`), deciding from the mover's view only (it may play for a real player, so it must not see hidden
  cards); one concrete legal move, deterministic given `rnd`.
- `unseen.py` with `sample_state(view: dict, components: dict, rnd: random.Random) -> state | None`: a whole
  position the player's `view` could stand for, what it hides (other hands, the deck's order, hidden money...)
  dealt at random from what the view and the components (the game's, or a club's) leave possible, for the search
  bot (pbem.play.search), which must not see the real position. The position's view for that player must be
  `view` again, and its legal moves theirs (a test checks both, for every game). None where the view does not show
  enough to rebuild the decision (a frame the view does not show): the search plays the greedy move there. Pure
  and deterministic given `rnd`, like bot.py; named in the game's own words inside (deal the hands, guess the
  money). A game without it still plays: its search seats are played by its greedy bot.
- `conditions.py`: the game's queue words (pbem.play.queues), one function for each name meta.yaml `queues:` declares:
  a choice form `name(view, legal, **fields) -> move | None` (chosen among the legal moves when the decision
  comes), a condition `name(view, **fields) -> bool`, a disarming event `name(view) -> value` (a standing order is
  disarmed when it reads differently from when the order was armed). Each gets the view its declaration names
  (`reads: public`, or `private`: the player's own), never the state; the module imports nothing.
- `rules.md`: the rules as implemented and every ruling with its reason.

Every game has the same modules, so a reader finds the same thing in the same place in each (a test checks it):
setup.py, decisions.py, views.py, scoring.py (above), report.py, draw.py, bot.py, unseen.py, conditions.py, and
phases/: the game's own modules, named for its phases (an auction, mining, a turn's course) and for what they share
(the board, common helpers).

A move is a dict {"action": <notation key>, <field>: value, ...}; its text form comes from the notation
(pbem.notation). Rule errors never come from apply: a move is either in legal_moves or refused by the engine with
the list of what is legal.
"""
from __future__ import annotations

from .messages import Message


class PbemError(Exception):
    """Bad input (a file, a move, a signature): reported as one clear message, exit code 2, nothing changed.

    The message is a str, or a pbem.messages.Message that each reader gets in their language (`render`); the
    exception's own text (str(), logs, the organiser's output) is always the English one."""

    exit_code = 2

    def __init__(self, message: str | Message = "", *args):
        self.message = message if isinstance(message, Message) else None
        super().__init__(message.english() if isinstance(message, Message) else message, *args)

    def render(self) -> str:
        """The message in the language of the reader now being written to (English for a plain str)."""
        return self.message.render() if self.message is not None else str(self)


class UsageError(PbemError):
    """Wrong use of the command line: exit code 1."""

    exit_code = 1
