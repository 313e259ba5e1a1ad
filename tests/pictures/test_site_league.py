"""`pbem site` gains the league: league.html, linked from the index, with the standings of the finished games and
each player's rating after each game as a small chart (inline SVG drawn by drawsvg); written again only when the
league reads otherwise. (That the page renders in headless Chromium is the browser harness's check.)"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree

from pbem.cli import demo

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
