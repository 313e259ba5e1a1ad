"""A club's component data (`pbem new --components`): every name and text a player reads is printable and of a
bounded length, refused at `pbem new` otherwise (exit 2, the field named, nothing made); and a picture bounds its
own size whatever it is given."""
from __future__ import annotations

import copy
import itertools
import json
import re
import subprocess
import sys

import pytest

from pbem.engine import engine
from pbem.store import registry, validation, yamlio
from pbem.text import pictures, sheet, svgout
from pbem.rng import Rng
from picturekit import status_doc
from support import NAMES, SHORT_NAMES

DISPLAYED = ("name", "english", "text", "goods")  # the components' free texts a player reads (ids have patterns)
# Bounds of a picture's cost, asserted: generous against what one costs (a PNG of the longest names renders in a
# tenth of a second of CPU; the whole process peaks near 35 MB, Python and the imports included). CPU time, not
# wall time, so that a busy machine does not fail the test.
MOST_SECONDS, MOST_MEGABYTES = 1.0, 150


def components_schema(game: registry.Game) -> dict:
    return validation.schemas_for(game.id)[validation.game_name("components")]


def players_for(game: registry.Game) -> list[str]:
    return (SHORT_NAMES if game.id in ("chartered", "gold-fever") else NAMES)[:game.min_players]


def new_game(pbem, game: registry.Game, directory, components: dict | None = None):
    args = ["new", game.id, directory]
    for name in players_for(game):
        args += ["--player", name]
    if components is not None:
        path = directory.parent / f"{directory.name}-components.yaml"
        path.write_text(yamlio.dumps(components), encoding="utf-8")
        args += ["--components", path]
    return pbem(*args)


def resolved(schema: dict, root: dict) -> dict:
    while isinstance(schema, dict) and "$ref" in schema:
        schema = root["$defs"][schema["$ref"].rsplit("/", 1)[1]]
    return schema if isinstance(schema, dict) else {}


def string_schemas(schema: dict, root: dict, path: str = "$"):
    """(path, schema) of every string a components schema describes."""
    schema = resolved(schema, root)
    if "string" in (schema.get("type") if isinstance(schema.get("type"), list) else [schema.get("type")]):
        yield path, schema
    for key, child in schema.get("properties", {}).items():
        yield from string_schemas(child, root, f"{path}.{key}")
    for key, child in schema.get("patternProperties", {}).items():
        yield from string_schemas(child, root, f"{path}[{key}]")
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), dict):
            yield from string_schemas(schema[key], root, f"{path}[*]")


def longest_names(game: registry.Game) -> dict:
    """The game's own components with every name and text as long as its schema allows, each one different."""
    root = components_schema(game)
    numbers = itertools.count()

    def filled(node, schema, key=None):
        schema = resolved(schema, root)
        if isinstance(node, dict):
            patterns = schema.get("patternProperties", {})
            for name, value in node.items():
                child = schema.get("properties", {}).get(name) or next(
                    (sub for pattern, sub in patterns.items() if re.search(pattern, name)), None)
                if child is None and isinstance(schema.get("additionalProperties"), dict):
                    child = schema["additionalProperties"]
                node[name] = filled(value, child or {}, name)
        elif isinstance(node, list) and isinstance(schema.get("items"), dict):
            return [filled(value, schema["items"], key) for value in node]
        elif isinstance(node, str) and key in DISPLAYED and "pattern" not in schema:
            number = str(next(numbers))
            return "W" * (schema["maxLength"] - len(number)) + number
        return node
    return filled(copy.deepcopy(game.default_components()), root)


GAMES = [game for game in (registry.get(g) for g in registry.installed())]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_every_string_of_a_games_components_schema_has_a_bounded_length(game):
    root = components_schema(game)
    unbounded = [path for path, schema in string_schemas(root, root)
                 if "maxLength" not in schema and "enum" not in schema and "const" not in schema]
    assert unbounded == []


UNPRINTABLE = [("gold-fever", "towns", 0, "name", "Dawson\x1b[31m", "U+001B"),
               ("gold-fever", "towns", 1, "english", "nul\x00byte", "U+0000"),
               ("heartland-hauling", "locations", 0, "name", "line\x0btab", "U+000B"),
               ("heartland-hauling", "truck_stops", 0, "name", "not\ufffea name", "U+FFFE"),
               ("heartland-hauling", "truck_stops", 1, "text", "half\ud800", "U+D800"),
               ("chartered", "companies", 0, "name", "\u202eevil", "U+202E"),
               ("chartered", "companies", 1, "goods", "del\x7f", "U+007F"),
               ("gold-fever", "events", 0, "name", "c1\x9bcsi", "U+009B")]


@pytest.mark.parametrize("game_id, group, index, field, text, code", UNPRINTABLE,
                         ids=[f"{case[0]}-{case[3]}-{case[5]}" for case in UNPRINTABLE])
def test_a_name_holding_an_unprintable_character_is_refused_at_new_with_the_field_named(pbem, tmp_path, game_id, group,
                                                                                         index, field, text, code):
    game = registry.get(game_id)
    components = game.default_components()
    components[group][index][field] = text
    result = new_game(pbem, game, tmp_path / "club", components)
    assert result.code == 2, result.err
    assert f"$.{group}[{index}].{field} holds {code}" in result.err
    assert text not in result.err  # the character itself is never echoed
    assert not (tmp_path / "club").exists()


def test_a_name_longer_than_the_schema_allows_is_refused_at_new_with_the_field_named(pbem, tmp_path):
    game = registry.get("gold-fever")
    components = longest_names(game)
    components["towns"][2]["name"] += "W"
    result = new_game(pbem, game, tmp_path / "club", components)
    assert result.code == 2 and "$.towns[2].name" in result.err and "too long" in result.err
    assert not (tmp_path / "club").exists()


RENDER = """
import json, resource, sys, time
from pbem.store import yamlio
from pbem.text import pictures


def peak_megabytes():
    # this process's own peak: Linux keeps ru_maxrss across exec, so it may be the parent's (a pytest worker's)
    try:
        with open("/proc/self/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:")) / 1024
    except (OSError, StopIteration):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / (1 << 20 if sys.platform == "darwin" else 1024)


doc = yamlio.loads(open(sys.argv[1], "rb").read())
started = time.process_time()
png = pictures.png(doc)
seconds = time.process_time() - started
print(json.dumps({"seconds": seconds, "megabytes": peak_megabytes(), "png": png[:8].hex(), "size": len(png)}))
"""


def render_cost(doc: dict, tmp_path) -> dict:
    """A picture of `doc` rendered to PNG in a process of its own: its CPU seconds, the process's peak memory."""
    path = tmp_path / "doc.yaml"
    path.write_text(yamlio.dumps(doc), encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", RENDER, str(path)], capture_output=True, text=True, timeout=120,
                          cwd=tmp_path)  # not the checkout, whose pbem/ is not the installed package
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("game", [g for g in GAMES if longest_names(g) != g.default_components()], ids=lambda g: g.id)
def test_a_game_with_the_longest_names_its_schema_allows_draws_in_a_second_and_150_mb(pbem, tmp_path, game):
    directory = tmp_path / "club"
    result = new_game(pbem, game, directory, longest_names(game))
    assert result.code == 0, result.err
    gd = engine.open_game(directory)
    doc = engine.status(gd, gd.players[0])
    cost = render_cost(doc, tmp_path)
    assert cost["png"] == b"\x89PNG\r\n\x1a\n".hex()
    assert cost["seconds"] < MOST_SECONDS and cost["megabytes"] < MOST_MEGABYTES, cost


def test_a_picture_bounds_its_own_size_whatever_names_it_is_given(tmp_path):
    """Names of 10,000 characters, past any schema (a view built by hand): every line of text is cut, the drawing
    stays within its bounds, and the PNG costs what any does."""
    game = registry.get("gold-fever")
    components = game.default_components()
    for number, town in enumerate(components["towns"]):
        town["name"] = town["english"] = f"{number}" + "W" * 10_000
    state = game.rules.setup(SHORT_NAMES[:3], game.resolve_options({}), components, Rng("seed", "t", 0))
    doc = status_doc(game, state, 1, SHORT_NAMES[0])
    doc["decision"]["description"] = "W" * 10_000
    drawing = pictures.picture(doc)
    assert drawing.width <= pictures.MAX_WIDTH and drawing.height <= pictures.MAX_HEIGHT
    texts = [mark[3] for _, _, layer in drawing.layers for mark in layer.marks if mark[0] == "text"]
    assert texts and max(len(text) for text in texts) <= sheet.MAX_LABEL
    shown = re.findall(r"<text[^>]*>([^<]*)</text>", svgout.drawing(drawing).as_svg())
    assert shown and max(len(text) for text in shown) <= sheet.MAX_LABEL
    cost = render_cost(doc, tmp_path)
    assert cost["seconds"] < MOST_SECONDS and cost["megabytes"] < MOST_MEGABYTES, cost


def test_the_title_and_the_status_take_three_lines_each_at_most_the_last_one_marked_as_cut():
    band = sheet.Sheet([])
    pictures.title_band(band, "Title " * 2_000, "W" * 10_000, 600)
    title = [mark[3] for mark in band.marks if mark[4] == 16]
    status = [mark[3] for mark in band.marks if mark[4] == 12]
    assert len(title) == len(status) == 3
    assert title[-1].endswith(" …") and status[-1].endswith(" …")
    assert all(sheet.text_width(line, 12) <= 600 - 2 * pictures.MARGIN for line in status)


def test_a_text_wrapped_into_lines_is_cut_at_max_text_characters_and_never_more_lines():
    """A name of 10,000 characters in a game's wrapped text (a card's, a discard pile's) takes the lines of
    MAX_TEXT characters, not 10,000 characters' worth."""
    drawn = sheet.Sheet([])
    lines = drawn.lines(0, 20, "W" * 10_000, 300, size=10)
    shown = "".join(mark[3] for mark in drawn.marks)
    assert len(shown) == sheet.MAX_TEXT and shown.endswith("…")
    assert lines == len(drawn.marks) < 30


def test_a_game_made_before_the_bounds_with_longer_names_still_plays_and_verifies(pbem, tmp_path, monkeypatch):
    from pbem.engine import newgame
    game = registry.get("gold-fever")
    components = game.default_components()
    components["towns"][0]["name"] = "W" * 60  # allowed by the pbem that made the game
    monkeypatch.setattr(newgame, "load_components", lambda game, path: yamlio.load_file(path))
    assert new_game(pbem, game, tmp_path / "club", components).code == 0
    monkeypatch.undo()
    assert pbem("status", tmp_path / "club").code == 0
    verified = pbem("verify", tmp_path / "club")
    assert verified.code == 0, verified.err
