"""Readable on a phone: the HTML turn mail, the club's site and the HTML view (`pbem board --format html`, the page
`pbem git view --format html` writes) of every game, laid out by headless Chromium at 390 and 1200 CSS pixels: no
page scrolls sideways (a map drawn in characters scrolls in its own box), the picture is at least 90% of the
window's width (never drawn smaller than its own size, at which its words read: on a phone it scrolls sideways in
its box), no text under 12 CSS pixels; the report's tables are HTML tables and its lists of moves keep each move
whole."""
from __future__ import annotations

import os

import pytest

from support import playable_games
from pbem.cli import demo
from pbem.engine import engine
from pbem.mail import compose
from picturekit import PHONE, chromium, measure, phone_faults

pytestmark = pytest.mark.skipif(chromium() is None and not os.environ.get("CI"), reason=(
    "Chromium is not installed (Debian's chromium: `.ci/system-setup.sh` installs it, and on CI the test runs)"))

MOVES = 30  # far enough into each game that its tables and map hold something


def mail_page(gd: engine.GameDir, folder):
    """The turn mail of the player to act as a mail program shows its HTML part (cid: resolved to the image)."""
    to_act = engine.status(gd)["to_act"]
    _, body = compose.player_report(gd, to_act, None, engine.legal(gd, to_act))
    msg = compose.add_picture(compose.message("referee@club.example", f"{to_act}@club.example", "your turn", body),
                              engine.status(gd, to_act))
    html, image = msg.get_payload()[1].get_payload()
    (folder / "board.png").write_bytes(image.get_content())
    page = folder / "mail.html"
    page.write_text(html.get_content().replace(f"cid:{image['Content-ID'].strip('<>')}", "board.png"))
    return page


def test_every_games_mail_site_and_view_read_on_a_phone_and_a_desk(tmp_path, pbem, monkeypatch):
    monkeypatch.setenv("PBEM_MAIL_PICTURES", "1")
    root = tmp_path / "games"
    root.mkdir()
    pages = {}
    for game in playable_games():
        count = min(max(game.min_players, 3), game.max_players)
        options = {"truck-stops": "on"} if "truck-stops" in game.meta.get("options", {}) else {}
        demo.run(game.id, count, "phone", options, root / game.id, 0, lambda *_: None, stop_after=MOVES)
        gd = engine.open_game(root / game.id)
        to_act = engine.status(gd)["to_act"]  # (a short game may be over: no turn mail, the public view)
        if to_act:
            folder = tmp_path / f"mail-{game.id}"
            folder.mkdir()
            pages[f"{game.id} mail"] = mail_page(gd, folder)
        view = tmp_path / f"view-{game.id}.html"
        seat = ["--as", to_act] if to_act else []
        assert pbem("board", root / game.id, *seat, "--format", "html", "-o", view).code == 0
        pages[f"{game.id} view"] = view
        text = view.read_text()
        assert "<table>" in text and "<pre>" not in text.split("The position in words")[0]
    assert pbem("site", root, tmp_path / "site").code == 0
    pages["site index"] = tmp_path / "site" / "index.html"
    pages.update({f"{game.id} site": tmp_path / "site" / game.id / "index.html" for game in playable_games()})
    measures = measure(pages)
    assert len(measures) == 2 * len(pages)
    faults = phone_faults(measures)
    assert not faults, "\n".join(faults)


def test_the_phone_checks_see_a_page_that_scrolls_a_small_picture_and_small_text(tmp_path):
    bad = tmp_path / "bad.html"
    bad.write_text("<!DOCTYPE html><html><body><div class='picture'><svg width='200' height='100'></svg></div>"
                   "<pre>" + "a long line of a map " * 8 + "</pre><p style='font-size: 9px'>fine print</p>"
                   "</body></html>")
    faults = phone_faults(measure({"bad": bad}, widths=(PHONE,)))
    assert any("scrolls sideways" in f for f in faults) and any("picture is 200 px" in f for f in faults)
    assert any("9px: fine print" in f for f in faults)
