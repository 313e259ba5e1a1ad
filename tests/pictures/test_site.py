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


# ---------------------------------------------------------------- a site that grows with the club

def written_files(monkeypatch, out) -> list[str]:
    """Every file the site command puts in place under `out` from now on (each is renamed into place)."""
    import os
    from pathlib import Path
    seen, real = [], os.replace

    def replace(src, dst, *args, **kwargs):
        if Path(dst).is_relative_to(out):
            seen.append(str(Path(dst).relative_to(out)))
        return real(src, dst, *args, **kwargs)
    monkeypatch.setattr(os, "replace", replace)
    return seen


def site_files(out) -> dict:
    return {str(path.relative_to(out)): path.read_bytes() for path in out.rglob("*") if path.is_file()
            and path.name != ".pbem-site.json"}


def club(tmp_path, pbem):
    """make_root's two games and two more Coal Baron games without deadlines."""
    root = make_root(tmp_path, pbem)
    for name in ("summer-cup", "winter-cup"):
        args = ["new", "coal-baron", root / name, "--seed", name]
        for player in NAMES[:2]:
            args += ["--player", player]
        assert pbem(*args).code == 0
    return root


NOW = "2026-03-02T12:00:00Z"


def test_a_run_after_one_move_writes_only_that_games_pages_and_the_index(tmp_path, pbem, monkeypatch):
    from support import legal_turn
    root, out = club(tmp_path, pbem), tmp_path / "site"
    assert pbem("site", root, out, "--now", NOW).code == 0
    player, text, _ = legal_turn(root / "summer-cup")
    assert pbem("move", root / "summer-cup", "--as", player, "--text", text).code == 0
    seen = written_files(monkeypatch, out)
    result = pbem("site", root, out, "--now", NOW)
    assert result.code == 0 and "4 games, 14 files, 4 written" in result.out, result.out
    assert sorted(seen) == [".pbem-site.json", "index.html", "summer-cup/board.svg", "summer-cup/index.html",
                            "summer-cup/log.html"]
    index = (out / "index.html").read_text()
    assert re.search(r'href="summer-cup/index.html">summer-cup</a><br>[^<]*</td><td>alice, bob</td><td>2</td>',
                     index), index  # the index tells the move the game is at now
    assert pbem("site", root, tmp_path / "whole", "--now", NOW).code == 0  # the same as a site made afresh
    assert site_files(out) == site_files(tmp_path / "whole")
    seen.clear()
    assert "0 written" in pbem("site", root, out, "--now", NOW).out and seen == []  # nothing changed: nothing


def test_when_the_time_moves_only_the_pages_that_tell_it_are_written_again(tmp_path, pbem, monkeypatch):
    root, out = club(tmp_path, pbem), tmp_path / "site"
    assert pbem("site", root, out, "--now", NOW).code == 0
    seen = written_files(monkeypatch, out)
    later = "2026-03-03T11:00:00Z"  # spring-cup's move is due in 1 day now, not 2: its page says so
    assert pbem("site", root, out, "--now", later).code == 0
    assert sorted(seen) == [".pbem-site.json", "index.html", "spring-cup/index.html"]
    assert re.search(r"\(in\s+1\s+day\)", (out / "spring-cup" / "index.html").read_text())
    assert pbem("site", root, tmp_path / "whole", "--now", later).code == 0
    assert site_files(out) == site_files(tmp_path / "whole")


def test_the_manifest_is_only_a_cache(tmp_path, pbem, monkeypatch):
    """Gone, garbage, of another shape or lying about a game's clock: the games it does not vouch for are written
    again and the site is as one made afresh; a page removed from the site is put back."""
    import json
    root, out = club(tmp_path, pbem), tmp_path / "site"
    assert pbem("site", root, out, "--now", NOW).code == 0
    assert pbem("site", root, tmp_path / "whole", "--now", NOW).code == 0
    manifest = out / ".pbem-site.json"
    good = json.loads(manifest.read_text())
    lying = json.loads(manifest.read_text())
    lying["games"]["spring-cup"]["summary"]["clock"] = {"due": 7}
    lying["games"]["autumn-cup"]["summary"]["players"] = "everyone"
    for text in ["{not json", json.dumps([1, 2]), json.dumps({**good, "version": 99}), json.dumps(lying)]:
        manifest.write_text(text)
        (out / "winter-cup" / "log.html").unlink()
        result = pbem("site", root, out, "--now", NOW)
        assert result.code == 0 and "Traceback" not in result.err, result.err
        assert site_files(out) == site_files(tmp_path / "whole")
    from pbem.cli import site, sitecache
    made, real = [], site.pages_of
    monkeypatch.setattr(site, "pages_of", lambda doc, *args: (made.append(doc["id"]), real(doc, *args))[1])
    assert pbem("site", root, out, "--now", NOW).code == 0 and made == []
    monkeypatch.setattr(sitecache, "renderer", lambda package: "another pbem")  # other code may draw other pages
    assert pbem("site", root, out, "--now", NOW).code == 0
    assert sorted(made) == ["autumn-cup", "spring-cup", "summer-cup", "winter-cup"]  # every game's made again


def test_a_games_table_talk_has_its_page_and_a_private_message_is_on_no_page(tmp_path, pbem):
    root = tmp_path / "games"
    made = pbem("new", "chartered", root / "g1", "--player", "alice", "--player", "bob", "--format", "json")
    secrets = {p["name"]: p["secret"] for p in made.json()["players"]}
    out = tmp_path / "site"
    assert pbem("site", root, out).code == 0
    assert not (out / "g1" / "talk.html").exists() and "talk.html" not in (out / "g1" / "index.html").read_text()
    assert pbem("say", root / "g1", "--as", "alice", "--secret", secrets["alice"], "<b>hi</b> & good luck").code == 0
    assert pbem("say", root / "g1", "--as", "bob", "--to", "alice", "--secret", secrets["bob"], "a secret").code == 0
    assert pbem("site", root, out).code == 0
    talk = (out / "g1" / "talk.html").read_text()
    assert "&lt;b&gt;hi&lt;/b&gt; &amp; good luck" in talk and "alice to the table" in talk
    assert 'href="talk.html"' in (out / "g1" / "index.html").read_text()
    assert not any("a secret" in path.read_text() for path in out.rglob("*.html"))
