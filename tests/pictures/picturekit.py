"""Helpers of the picture and report tests: the option sets of each game, and status documents built in memory."""
from __future__ import annotations

from support import NAMES, playable_games
from pbem.contract import PbemError
from pbem.play import playout
from pbem.store import registry


def option_sets(game: registry.Game) -> list[dict]:
    """Each option at each of its values (the others at their defaults), and every option off its default."""
    declared = game.meta.get("options", {})
    sets = [{key: value} for key, spec in declared.items() for value in spec["choices"] if value != spec["default"]]
    if len(declared) > 1:
        sets.append({key: next(c for c in spec["choices"] if c != spec["default"]) for key, spec in declared.items()})
    return sets


def option_cases():
    """(game id, player count, options) for every option set, at a player count the set fits."""
    cases = []
    for game in playable_games():
        for options in option_sets(game):
            for count in range(game.min_players, game.max_players + 1):
                try:
                    playout.start(game, NAMES[:count], options, seed="fits")
                except PbemError:
                    continue
                cases.append((game.id, count, options))
                break
    return cases


def status_doc(game: registry.Game, state: dict, move_number: int, viewer: str | None) -> dict:
    """The status document the engine would publish for this position, built in memory."""
    pending = game.rules.pending(state)
    doc = {"game": game.id, "title": game.title, "id": "picture-test", "move_number": move_number,
           "finished": pending is None, "view": game.rules.view(state, viewer), "recent": []}
    if pending is None:
        doc["ranking"] = game.rules.result(state)
    else:
        doc["decision"] = {"player": pending["player"], "decision": pending["decision"],
                           "description": game.meta["decisions"][pending["decision"]]}
    if viewer:
        doc["player"] = viewer
    return doc


# ------------------------------------------------------------------------------------------ a real browser

BROWSER_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--hide-scrollbars"]


def chromium() -> str | None:
    """Debian's chromium (.ci/system-setup.sh installs it), or None where it is absent."""
    import shutil
    return shutil.which("chromium") or shutil.which("chromium-browser")


def browse(page, *args: str, images: bool = True, timeout: float = 90) -> str:
    """Run headless Chromium on a local page with a fresh profile; its standard output."""
    import subprocess
    import tempfile
    with tempfile.TemporaryDirectory() as profile:
        command = [chromium(), *BROWSER_FLAGS, f"--user-data-dir={profile}", *args]
        if not images:
            command.append("--blink-settings=imagesEnabled=false")
        result = subprocess.run([*command, page.as_uri()], capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout


def screenshot(page, shot, width: int = 800, height: int = 1400, images: bool = True):
    """The page as a person sees it in an 800-pixel-wide window: a PIL image."""
    from PIL import Image
    browse(page, f"--window-size={width},{height}", f"--screenshot={shot}", images=images)
    return Image.open(shot).convert("RGB")


def page_width(page, width: int = 800) -> int:
    """How wide the page lays out in a window `width` pixels wide (more than `width`: it scrolls sideways). Measured
    on a copy of the page with a line of script that writes the width into the title (the page itself has none)."""
    import re
    probe = page.with_name(f".probe-{page.name}")
    probe.write_text(page.read_text().replace(
        "</body>", "<script>document.title = 'width=' + document.documentElement.scrollWidth;</script></body>"))
    dom = browse(probe, f"--window-size={width},1000", "--dump-dom", "--virtual-time-budget=2000")
    probe.unlink()
    return int(re.search(r"<title>width=(\d+)</title>", dom).group(1))


def colour_share(image, colour: str, tolerance: int = 12) -> float:
    """The share of the image's pixels within `tolerance` of `colour` (#rrggbb) on every channel."""
    target = tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
    data = list(getattr(image, "get_flattened_data", image.getdata)())
    near = sum(1 for pixel in data if all(abs(a - b) <= tolerance for a, b in zip(pixel, target)))
    return near / len(data)


def distinct_colours(image) -> int:
    return len(image.getcolors(maxcolors=1 << 20) or [])


# ------------------------------------------------------------------------------------------ legibility

def word_boxes(picture) -> list[tuple[tuple[float, float, float, float], str]]:
    """Each line of words of a picture with the box it covers as the PNG draws it: its real advance in its font
    (pbem.text.raster), from its cap height to its descent."""
    from pbem.text import raster
    boxes = []
    for dx, dy, sheet in picture.layers:
        for _, x, y, words, size, anchor, bold, _ in (m for m in sheet.marks if m[0] == "text"):
            advance = raster.label(words, size, bold)[3]
            left = dx + x - {"start": 0, "middle": advance / 2, "end": advance}[anchor]
            boxes.append(((left, dy + y - size * 0.76, left + advance, dy + y + size * 0.24), words))
    return boxes


def holders(picture) -> list[tuple[float, float, float, float]]:
    """The boxes words may sit in: every rectangle and every round mark's square (the background's aside)."""
    found = []
    for dx, dy, sheet in picture.layers[1:]:
        for mark in sheet.marks:
            if mark[0] == "rect":
                found.append((dx + mark[1], dy + mark[2], dx + mark[1] + mark[3], dy + mark[2] + mark[4]))
            elif mark[0] == "shape":
                _, _, x, y, r, *_ = mark
                found.append((dx + x - r, dy + y - r, dx + x + r, dy + y + r))
    return found


def cut_words(picture) -> list[str]:
    """The words a reader cannot read whole: cut short (…), running out of the box they sit in (the smallest
    rectangle or mark holding their middle) or out of the picture, or drawn over other words."""
    boxes, found = word_boxes(picture), []
    frames = holders(picture)
    for (x0, y0, x1, y1), words in boxes:
        if words.endswith("…"):
            found.append(f"{words!r} is cut short")
        middle = ((x0 + x1) / 2, (y0 + y1) / 2)
        inside = [f for f in frames if f[0] <= middle[0] <= f[2] and f[1] <= middle[1] <= f[3]]
        if inside:
            frame = min(inside, key=lambda f: (f[2] - f[0]) * (f[3] - f[1]))
            if x0 < frame[0] - 1 or x1 > frame[2] + 1:
                found.append(f"{words!r} runs out of its box")
        if x0 < -1 or x1 > picture.width + 1:
            found.append(f"{words!r} runs out of the picture")
    boxes.sort()
    for i, ((x0, y0, x1, y1), words) in enumerate(boxes):
        for (a0, b0, a1, b1), other in boxes[i + 1:]:
            if a0 >= x1 - 0.5:
                break
            if b0 < y1 - 1 and y0 < b1 - 1:
                found.append(f"{words!r} and {other!r} are drawn over each other")
    return found


def unshown_legend(sheet) -> list[str]:
    """The legend's entries whose mark the drawing does not show (a legend names only what the picture uses)."""
    marks = sheet.marks
    texts = [m[3] for m in marks if m[0] == "text"]
    tokens = {token for text in texts for token in text.split()}
    fills = {(m[5].lower(), m[0]) for m in marks if m[0] in ("rect", "shape")}

    def shown(spec) -> bool:
        if spec[0] == "piece":
            return (spec[1].lower(), "shape") in fills and spec[2] in texts
        if spec[0] == "swatch":
            return any(m[0] == "rect" and m[5].lower() == spec[1].lower() and m[8] == spec[3] for m in marks)
        if spec[0] == "ring":
            return any(m[0] == "shape" and m[1] == "circle" and m[5].lower() == "#ffffff" for m in marks)
        if spec[0] == "glyph":  # (one of the abbreviations it explains)
            return any(token in tokens for token in spec[1].split())
        return True
    return [words for spec, words in sheet.legend if not shown(spec)]
