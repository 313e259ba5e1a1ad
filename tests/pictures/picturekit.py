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
