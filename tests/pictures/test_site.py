"""`pbem site ROOT OUT/`: a static site of a club's games from their public files only — an index with who is to
act and until when, each game's picture, report and log, the final ranking of a finished game; no script; a game
that cannot be read is named and the others are still published."""
from __future__ import annotations

import re
import shutil

from support import NAMES
from pbem.cli import demo


def make_root(tmp_path, pbem):
    """A games root: a finished game of La Fièvre de l'Or and a Coal Baron game with a deadline, just begun."""
    root = tmp_path / "games"
    root.mkdir()
    demo.run("gold-fever", 3, "site", {}, root / "autumn-cup", 0, lambda *_: None)
    args = ["new", "coal-baron", root / "spring-cup", "--seed", "site", "--deadline", "72h",
            "--now", "2026-03-01T12:00:00Z"]
    for name in NAMES[:2]:
        args += ["--player", name]
    assert pbem(*args).code == 0
    return root


def test_the_site_lists_every_game_with_who_is_to_act_and_the_deadline(tmp_path, pbem):
    root = make_root(tmp_path, pbem)
    out = tmp_path / "site"
    result = pbem("site", root, out, "--now", "2026-03-02T12:00:00Z")
    assert result.code == 0, result.err
    index = (out / "index.html").read_text()
    assert 'href="autumn-cup/index.html"' in index and 'href="spring-cup/index.html"' in index
    assert "over, won by" in index
    assert re.search(r"(alice|bob) to act", index) and "must move by Wed 4 Mar 2026 12:00 UTC (in 2 days)" in index
    for game in ("autumn-cup", "spring-cup"):
        page = (out / game / "index.html").read_text()
        assert "<svg" in page and "The position in words" in page and 'href="log.html"' in page
        assert (out / game / "board.svg").read_text().startswith("<?xml")
        assert "<table>" in (out / game / "log.html").read_text()
    finished = (out / "autumn-cup" / "index.html").read_text()
    assert "Final ranking" in finished and "Seed (revealed)" in finished
    for path in out.rglob("*.html"):
        assert "<script" not in path.read_text() and "http" not in path.read_text().replace(
            "http://www.w3.org", "")  # nothing to run, nothing fetched from elsewhere


def test_the_site_is_built_from_the_public_files_alone(tmp_path, pbem):
    root = make_root(tmp_path, pbem)
    public_only = tmp_path / "copy"
    shutil.copytree(root, public_only, symlinks=True)
    for game in public_only.iterdir():
        shutil.rmtree(game / "referee")
        shutil.rmtree(game / "views")
    assert pbem("site", root, tmp_path / "a", "--now", "2026-03-02T12:00:00Z").code == 0
    assert pbem("site", public_only, tmp_path / "b", "--now", "2026-03-02T12:00:00Z").code == 0
    for path in (tmp_path / "a").rglob("*"):
        if path.is_file():
            assert path.read_bytes() == (tmp_path / "b" / path.relative_to(tmp_path / "a")).read_bytes(), path


def test_a_game_that_cannot_be_read_is_named_and_the_others_are_published(tmp_path, pbem):
    root = make_root(tmp_path, pbem)
    public = root / "spring-cup" / "public.yaml"
    public.unlink()
    public.symlink_to(root / "autumn-cup" / "public.yaml")
    result = pbem("site", root, tmp_path / "site")
    assert result.code == 2 and "spring-cup" in result.err and "public.yaml" in result.err
    assert "Traceback" not in result.err
    assert (tmp_path / "site" / "autumn-cup" / "index.html").is_file()
    assert "spring-cup" in (tmp_path / "site" / "index.html").read_text()  # listed as not readable
    assert not (tmp_path / "site" / "spring-cup").exists()


def test_the_site_is_not_written_through_a_link(tmp_path, pbem):
    root = make_root(tmp_path, pbem)
    out = tmp_path / "site"
    out.mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (out / "autumn-cup").symlink_to(elsewhere)
    result = pbem("site", root, out)
    assert result.code == 2 and "link" in result.err
    assert not list(elsewhere.iterdir())


def test_a_missing_root_is_refused(tmp_path, pbem):
    result = pbem("site", tmp_path / "nowhere", tmp_path / "site")
    assert result.code == 2 and "neither a game directory nor a games root" in result.err
