"""Random play-outs of every player count, with and without the variants: they finish, conserve cubes, workers and
money, produce schema-valid states and views, never leak a player's money or drawn cards, and every legal move
seen survives the notation round trip."""
from __future__ import annotations

import json
from importlib import resources

import pytest
from jsonschema import Draft202012Validator

from pbem import bots, notation
from pbem.play import playout
from pbem.store import registry, validation
from support import assert_fits

COLOURS = ("yellow", "brown", "grey", "black")
GAME = registry.get("coal-baron")
PARTS = ("state", "public-view", "player-view", "components")
DRAWS = ("keep_tile", "return_tiles", "keep_order", "return_orders")


def schema(part):
    text = resources.files("pbem.games.coal_baron").joinpath(f"schemas/{part}.schema.json").read_text()
    return json.loads(text)


def errors(part, data):
    """Every violation, by jsonschema over the schemas as pbem resolves them (the game's and pbem's base)."""
    return validation.errors(GAME.id, validation.game_name(part), data)


def keys_of(node):
    if isinstance(node, dict):
        for k, v in node.items():
            yield k
            yield from keys_of(v)
    elif isinstance(node, list):
        for v in node:
            yield from keys_of(v)


def assert_plain(node, path="$"):
    """States hold plain data only: dict, list, str, int, bool, None (no tuples, sets or floats)."""
    assert type(node) in (dict, list, str, int, bool, type(None)), (path, type(node))
    if isinstance(node, dict):
        for k, v in node.items():
            assert type(k) is str, (path, k)
            assert_plain(v, f"{path}.{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            assert_plain(v, f"{path}[{i}]")


class Bookkeeper:
    """Checks each step against the one before: money moves only as the move says, nothing is lost."""

    def __init__(self, state, check_views):
        self.prev = state
        self.check_views = check_views
        self.total_workers = state["components"]["workers"]
        self.steps = 0
        self.views_checked = 0

    def expected_money_change(self, player, move):
        prev = self.prev
        comp = prev["components"]
        card = (prev["phase"] or {}).get("cards", {}).get(player)

        def bonus(domain):
            spec = comp["phase_cards"].get(card)
            return spec["amount"] if spec and spec["domain"] == domain and prev["phase"]["domain"] in (None, domain) \
                else 0

        if move["action"] in ("place", "overplace"):
            name = move["space"][0] if move["action"] == "overplace" else move["space"]
            space = comp["spaces"][name]
            if space["kind"] == "bank":
                return space["amount"] + bonus("money")
            if space["kind"] == "factory":
                return -max(0, comp["tiles"][prev["display"][name]]["cost"] - bonus("factory"))
        if move["action"] == "keep" and prev["stack"][-1]["decision"] == "keep_tile" and move["card"] != "none":
            return -max(0, comp["tiles"][move["card"]]["cost"] - bonus("factory"))
        return 0

    def __call__(self, player, move, state):
        self.steps += 1
        before = {p: pit["money"] for p, pit in self.prev["pits"].items()}
        for p, pit in state["pits"].items():
            change = self.expected_money_change(p, move) if p == player else 0
            assert pit["money"] == before[p] + change, (player, move)
            assert pit["money"] >= 0
            on_board = sum(w.count(p) for w in state["board"].values())
            assert pit["workers"] + on_board + state["canteen"][p] == self.total_workers
        counts = dict(state["supply"])
        for pit in state["pits"].values():
            for c in [c for tn in pit["tunnels"] for c in tn["carts"] if c] + pit["cage"]["cubes"] + pit["storage"] \
                    + [c for o in pit["orders"] for s in o["spots"] for c in s]:
                counts[c] += 1
        assert counts == {c: 16 for c in COLOURS}
        drawn = sum(len(f.get("drawn", f.get("cards", []))) for f in state["stack"]
                    if f["decision"] in ("keep_tile", "return_tiles"))
        face_up = sum(1 for s, x in state["display"].items() if x and state["components"]["spaces"][s]["kind"] ==
                      "factory")
        bought = sum(len(p["tunnels"]) - 4 for p in state["pits"].values())
        assert len(state["tile_deck"]) + face_up + bought + drawn == 48
        orders = list(state["order_deck"]) + [x for s, x in state["display"].items() if x and
                                               state["components"]["spaces"][s]["kind"] == "order"]
        orders += (state["draft"] or {}).get("revealed", [])
        orders += [o["id"] for p in state["pits"].values() for o in p["orders"]]
        orders += [o for p in state["pits"].values() for o in p["delivered"]]
        orders += [c for f in state["stack"] if f["decision"] in ("keep_order", "return_orders")
                   for c in f.get("drawn", f.get("cards", []))]
        assert sorted(orders) == sorted(state["components"]["orders"])  # every order card exactly once
        top = state["stack"][-1]["decision"] if state["stack"] else None
        if self.check_views:
            self.check_round_trip(state)  # every legal move seen, at every step
        if self.check_views and (self.steps % 15 == 0 or top in DRAWS or state["over"]):
            self.views_checked += 1
            # jsonschema (tens of times slower than the compiled check) agrees at the first, every 5th and the last
            self.check_all_views(state, thorough=self.views_checked % 5 == 1 or state["over"])
        self.prev = state

    def check_round_trip(self, state):
        decision = GAME.rules.pending(state)
        if decision is None:
            return
        legal = GAME.rules.legal_moves(state, decision["player"])
        for move in legal:
            concrete = GAME.normalise(bots.first_legal([move]))  # a `set` field's words sorted
            assert GAME.parse_move(GAME.format_move(concrete)) == concrete
            assert notation.is_legal(concrete, [move])

    def check_all_views(self, state, thorough):
        assert_plain(state)
        assert_fits(GAME.id, "state", state, thorough)
        public = GAME.rules.view(state, None)
        assert_fits(GAME.id, "public-view", public, thorough)
        assert "Board:" in GAME.report.render(public, None)
        assert not {"money", "private", "tile_deck", "order_deck"} & set(keys_of(public))
        top = state["stack"][-1] if state["stack"] else None
        for p in state["players"]:
            mine = GAME.rules.view(state, p)
            assert_fits(GAME.id, "player-view", mine, thorough)
            assert mine["private"]["player"] == p and mine["private"]["money"] == state["pits"][p]["money"]
            assert list(keys_of(mine)).count("money") == 1  # only the viewer's own
            drawing = top is not None and top["player"] == p and "drawn" in top or (
                top is not None and top["player"] == p and top["decision"].startswith("return_"))
            assert (mine["private"]["drawn"] is not None) == bool(drawing)
            assert f"Pit of {p}" in GAME.report.render(mine, p)
            stripped = dict(mine)
            del stripped["private"]
            assert stripped == public


CASES = [(n, opts, seed) for n in (2, 3, 4)
         for opts in ({}, {"phase-cards": "on"}, {"overplace": "on"}, {"phase-cards": "on", "overplace": "on"})
         for seed in ("p1", "p2", "p3")]


@pytest.mark.parametrize("players,options,seed", CASES,
                         ids=[f"{n}p-{'-'.join(f'{k}' for k in o) or 'base'}-{s}" for n, o, s in CASES])
def test_random_playout_finishes_and_conserves_everything(players, options, seed):
    names = ["ann", "ben", "cat", "dan"][:players]
    state = playout.start(GAME, names, options, seed=seed)
    book = Bookkeeper(state, check_views=(seed == "p1"))
    for player, move, state in playout.steps(GAME, state, seed=seed, bot_seed=seed):
        book(player, move, state)
    assert GAME.rules.pending(state) is None and state["over"] and state["shift"] == 3
    result = GAME.rules.result(state)
    assert sorted(r["player"] for r in result) == sorted(names)
    for row in result:
        assert row["score"] == row["details"]["total"]
    assert_fits(GAME.id, "public-view", GAME.rules.view(state, None), thorough=True)


def test_schemas_are_valid_draft_2020_12_without_id():
    for part in PARTS:
        s = schema(part)
        Draft202012Validator.check_schema(s)
        assert s["$schema"] == "https://json-schema.org/draft/2020-12/schema" and "$id" not in s


def test_public_view_schema_does_not_declare_private_fields():
    declared = set(keys_of(schema("public-view")))
    assert not {"money", "private", "tile_deck", "order_deck"} & declared
    state = playout.start(GAME, ["ann", "ben"], {}, seed="leak")
    leaked = GAME.rules.view(state, None)
    leaked["private"] = {"player": "ann", "money": 10, "drawn": None}
    assert errors("public-view", leaked)


def test_components_file_is_valid_and_a_broken_one_is_not():
    components = GAME.default_components()
    assert_fits(GAME.id, "components", components, thorough=True)
    components["tiles"]["t01"]["side"] = "half-lit"
    assert errors("components", components)
