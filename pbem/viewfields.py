"""A view declared field by field, so that a bot's view can be built only as far as the bot reads it.

A game's views.py may give, beside `view(state, player)`, `fields(state, player, make)`: the same view as a dict of
its fields in order, each a function of no argument that makes the field's value (`{"board": lambda:
board_view(state), ...}`); a part of a field declared so in turn (a player's part among all the players') is made by
`make` from its own fields (and those of its first fields that cost a mere lookup, made at once: `make(fields,
first)`). A part made many times a view (a company, a pit) declares its fields once, as functions of the same
arguments, and gives `make` those arguments (`make(FIELDS, first, (state, company))`): a rollout then makes no new
function for each field of each part at each decision; so may the whole view (views.py's `FIELDS`, each field a
function of the state, the player and `make`, `private` among them, left out of the view of no player: `whole`).
`built` makes every field: the view players read, written to files and checked against the schemas (`view(state,
player)` is `built(fields(state, player, built))`). `lazily` makes a BotView, each field made when it is first read:
the search bot's rollouts (pbem.play.search) build a view at every decision of every greedy seat, and the greedy bot
reads a few of its fields (Coal Baron's mining steps never look at the board, and a seat reads its own pit of all
the pits): the fields it does not read are never made. The values are the same functions' of the same state, so the
bot decides exactly as from the whole view, as long as the state does not change while it reads (a rollout applies
the move after the bot has chosen it).
"""
from __future__ import annotations

from typing import Callable


def built(fields: dict[str, Callable[..., object]], first: dict | None = None, args: tuple = ()) -> dict:
    """The whole view: `first` (the view's first fields, already made), then every field made (its function called
    with `args`), in order."""
    made = {key: make(*args) for key, make in fields.items()}
    return made if first is None else {**first, **made}


def whole(declared: dict[str, Callable[..., object]], state: dict, player: str | None) -> dict:
    """The view a views.py declares once as `FIELDS` (each field a function of the state, the player and `make`),
    every field made: the player's, or for no player (the public view) every field but their `private` part."""
    fields = declared if player is not None else {key: make for key, make in declared.items() if key != "private"}
    return built(fields, None, (state, player, built))


def lazily(fields: dict[str, Callable[..., object]], first: dict | None = None, args: tuple = ()) -> BotView:
    """A part of a bot's view: `first` as given, then each field made when first read (its function called with
    `args`). A field that costs a lookup (a name, a count) costs less made at once than declared: a function made
    and called for it at every view."""
    return BotView(first or {}, fields, args)


def once(make: Callable[[], object]) -> Callable[[], object]:
    """A function of no argument that calls `make` when first called and then gives what it gave (what several
    fields share, as functools.cache would, without functools' wrapper: made at every view of every rollout)."""
    made = []

    def value():
        if not made:
            made.append(make())
        return made[0]
    return value


def for_bot(make: Callable) -> bool:
    """Is the view `make` makes a bot's? A bot only reads its view, so a game may give a bot's view parts that never
    change in a game (a map's printed cards) shared from one view to the next, where a player's view has its own."""
    return make is lazily


class BotView(dict):
    """A view whose fields are made when first read (`view[key]`, `view.get(key)`, `key in view`), then kept. It
    is a dict, so a field once made is read at a dict's speed; what goes through all its fields (iterating,
    comparing, repr) makes every field first, in the view's order. A bot's view is for reading: json, which reads
    a dict's own storage, does not see the fields not made yet (a view to write is `built`)."""

    __slots__ = ("_fields", "_args")

    def __init__(self, header: dict, fields: dict[str, Callable[..., object]], args: tuple = ()):
        super().__init__(header)
        self._fields, self._args = fields, args

    def __missing__(self, key: str):
        value = self[key] = self._fields[key](*self._args)  # KeyError for a field the view does not have, as a dict's
        return value

    def get(self, key: str, default=None):
        return self[key] if key in self else default

    def __contains__(self, key) -> bool:
        return dict.__contains__(self, key) or key in self._fields

    def whole(self) -> dict:
        """Every field made, in the view's order (the header first): the view `built` makes."""
        return {**{key: dict.__getitem__(self, key) for key in dict.keys(self) if key not in self._fields},
                **{key: self[key] for key in self._fields}}

    def __iter__(self):
        return iter(self.whole())

    def __len__(self) -> int:  # counted from the names: no field is made to be counted
        return len(dict.keys(self) | self._fields.keys())

    def __bool__(self) -> bool:
        return dict.__len__(self) > 0 or bool(self._fields)

    def keys(self):
        return self.whole().keys()

    def values(self):
        return self.whole().values()

    def items(self):
        return self.whole().items()

    def __eq__(self, other) -> bool:
        return self.whole() == (other.whole() if isinstance(other, BotView) else other)

    def __ne__(self, other) -> bool:
        return not self == other

    __hash__ = None

    def __repr__(self) -> str:
        return repr(self.whole())
