"""`pbem site` gains the league: league.html, linked from the index, with the standings of the finished games and
each player's rating after each game as a small chart (inline SVG drawn by drawsvg); written again only when the
league reads otherwise. It renders in headless Chromium at phone and desk widths."""
from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ElementTree

import pytest

from pbem.cli import demo
from picturekit import DESK, PHONE, chromium, measure, phone_faults

NOW = "2026-03-02T12:00:00Z"


def finished(root, name, seed):
    demo.run("coal-baron", 2, seed, {}, root / name, 0, lambda *_: None, bot="random")


def test_the_site_has_a_league_page_linked_from_the_index_with_a_chart_per_player(tmp_path, pbem):
    root, out = tmp_path / "games", tmp_path / "site"
    root.mkdir()
    finished(root, "first", "one")
    finished(root, "second", "two")
    assert pbem("new", "coal-baron", root / "going", "--player", "ann", "--player", "ben").code == 0
    result = pbem("site", root, out, "--now", NOW)
    assert result.code == 0, result.err
    assert 'href="league.html"' in (out / "index.html").read_text()
    page = (out / "league.html").read_text()
    assert "League of 2 games" in page and "Coal Baron: 2 games" in page and 'href="index.html"' in page
    charts = re.findall(r"<svg .*?</svg>", page, re.S)
    assert len(charts) == 2  # alice and bob, each a line of two ratings
    for chart in charts:
        drawn = ElementTree.fromstring(chart)
        assert drawn.find("{http://www.w3.org/2000/svg}title").text.startswith("Rating of ")
        assert len(re.findall(r"[ML][0-9.]+,[0-9.]+", chart)) >= 2 + 2  # the zero line and the two games
    rows = re.findall(r"<tr><td>(alice|bob)</td><td class=\"n\">2</td>", page)
    assert sorted(rows) == ["alice", "alice", "bob", "bob"]  # in the overall standings and in Coal Baron's
    assert "going" not in page  # a game going on is not the league's (nor a note on its page)
    assert "<script" not in page


def test_the_league_page_is_written_again_only_when_a_game_ends(tmp_path, pbem, monkeypatch):
    import os
    root, out = tmp_path / "games", tmp_path / "site"
    root.mkdir()
    finished(root, "first", "one")
    assert pbem("site", root, out, "--now", NOW).code == 0
    before = (out / "league.html").read_text()
    assert "0 written" in pbem("site", root, out, "--now", NOW).out
    finished(root, "second", "two")
    seen, real = [], os.replace
    monkeypatch.setattr(os, "replace", lambda src, dst, *a, **k: (seen.append(os.path.basename(dst)),
                                                                  real(src, dst, *a, **k))[1])
    assert pbem("site", root, out, "--now", NOW).code == 0
    assert "league.html" in seen and (out / "league.html").read_text() != before


@pytest.mark.skipif(chromium() is None and not os.environ.get("CI"), reason=(
    "Chromium is not installed (Debian's chromium: `.ci/system-setup.sh` installs it, and on CI the test runs)"))
def test_the_league_page_renders_in_headless_chromium_on_a_phone_and_a_desk(tmp_path, pbem):
    """Laid out by the browser at 390 and 1200 CSS pixels: the standings and the charts never make the page scroll
    sideways, and no text is under 12 CSS pixels."""
    root, out = tmp_path / "games", tmp_path / "site"
    root.mkdir()
    for name, seed in (("first", "one"), ("second", "two"), ("third", "three")):
        finished(root, name, seed)
    assert pbem("site", root, out, "--now", NOW).code == 0
    measures = measure({"league": out / "league.html"})
    assert [m["width"] for m in measures] == [PHONE, DESK]
    faults = phone_faults(measures)
    assert not faults, "\n".join(faults)
