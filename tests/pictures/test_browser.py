"""A real browser: the club's site and an HTML report mail opened in headless Chromium, screenshotted at 800
pixels wide, and the screenshots checked — not blank, the picture there (its title band's colour), nothing that
scrolls sideways; the mail read with images off shows the whole report all the same."""
from __future__ import annotations

import pytest

from support import NAMES
from pbem.cli import demo
from pbem.text import pictures
from picturekit import chromium, colour_share, distinct_colours, page_width, screenshot

pytestmark = pytest.mark.skipif(chromium() is None, reason="Chromium is not installed (Debian's chromium: "
                                "`.ci/system-setup.sh` installs it); the browser test needs a real browser")


def test_the_site_in_a_browser_shows_the_index_and_each_picture_without_scrolling_sideways(tmp_path, pbem):
    root = tmp_path / "games"
    root.mkdir()
    demo.run("heartland-hauling", 3, "browser", {"truck-stops": "on"}, root / "summer-haul", 0, lambda *_: None,
             stop_after=40)
    args = ["new", "chartered", root / "harbour-league", "--seed", "browser"]
    for name in NAMES[:6]:
        args += ["--player", name]
    assert pbem(*args).code == 0
    out = tmp_path / "site"
    assert pbem("site", root, out).code == 0
    index = screenshot(out / "index.html", tmp_path / "index.png")
    assert distinct_colours(index) > 2  # words on a page, not a blank one
    assert page_width(out / "index.html") <= 800
    for game in ("summer-haul", "harbour-league"):
        page = out / game / "index.html"
        shot = screenshot(page, tmp_path / f"{game}.png")
        assert distinct_colours(shot) > 20
        assert colour_share(shot, pictures.FRAME) > 0.002, f"{game}: the picture is not on the page"
        assert page_width(page) <= 800, f"{game}: the page scrolls sideways at 800 pixels"


def test_the_checks_see_a_page_that_scrolls_sideways_and_a_page_without_the_picture(tmp_path):
    wide = tmp_path / "wide.html"
    wide.write_text("<!DOCTYPE html><html><head><title>wide</title></head><body>"
                    "<div style='width: 1200px'>a table too wide</div></body></html>")
    assert page_width(wide) > 800
    assert colour_share(screenshot(wide, tmp_path / "wide.png"), pictures.FRAME) == 0
