"""Files a user names (a league file, a private key, a message to the table, a diffed state file, a YAML file)
are read by one bounded reader, pbem.store.safefiles.read_bounded: at most its limit and one byte more are read,
and a larger file is refused with one message naming the file and the limit, as is a missing file or a folder."""
from __future__ import annotations

import io
import sys

import pytest

from pbem.clock import leaguegames
from pbem.contract import PbemError
from pbem.git import keys, textconv
from pbem.store import safefiles, yamlio


class Counting(io.BytesIO):
    """A file that records how much was asked of it."""

    def __init__(self, data: bytes):
        super().__init__(data)
        self.asked = 0

    def read(self, size=-1):
        self.asked += size if size >= 0 else 1 << 40
        return super().read(size)


def test_a_file_over_its_limit_is_refused_and_not_read_beyond_one_byte_more(tmp_path, monkeypatch):
    big = tmp_path / "big.yaml"
    big.write_bytes(b"x" * 5000)
    with pytest.raises(PbemError) as refused:
        safefiles.read_bounded(big, 1024)
    assert str(refused.value) == f"{big}: file too large (more than 1 KB)"
    assert safefiles.read_bounded(big, 5000) == b"x" * 5000
    stdin = Counting(b"y" * 5000)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(stdin))
    with pytest.raises(PbemError) as refused:
        safefiles.read_bounded("-", 1024)
    assert str(refused.value) == "standard input: file too large (more than 1 KB)"
    assert stdin.asked == 1025


def test_a_missing_file_and_a_folder_are_named_as_such(tmp_path):
    with pytest.raises(safefiles.Missing, match="nothing.yaml: no such file"):
        safefiles.read_bounded(tmp_path / "nothing.yaml", 10)
    with pytest.raises(PbemError, match="is a directory, not a file"):
        safefiles.read_bounded(tmp_path, 10)


@pytest.mark.parametrize("reader,limit", [
    (leaguegames.league_file, leaguegames.MOST_LEAGUE_BYTES),
    (keys.Identity.from_file, keys.MAX_IDENTITY_BYTES),
    (yamlio.load_file, yamlio.MAX_BYTES),
])
def test_every_reader_of_a_users_file_refuses_one_too_large_with_the_same_message(tmp_path, reader, limit):
    path = tmp_path / "given.yaml"
    path.write_bytes(b"#" * (limit + 1))
    with pytest.raises(PbemError) as refused:
        reader(path)
    assert str(refused.value) == str(PbemError(safefiles.too_large(str(path), limit)))


def test_the_diff_of_a_state_file_too_large_says_so_in_the_games_language(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # git runs the textconv at the top of the clone, whose game.yaml names the language
    path = tmp_path / "public.yaml"
    path.write_bytes(b"#" * (yamlio.MAX_BYTES + 1))
    assert textconv.convert(path) == f"({path}: file too large (more than 4 MB))\n"
    (tmp_path / "game.yaml").write_text("language: fr\n")
    assert textconv.convert(path) == f"({path} : fichier trop volumineux (plus de 4 Mo))\n"
