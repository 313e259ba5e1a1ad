"""What a command does not import (each costs milliseconds at every start, benchmarks/), and what stands in for
it: pbem.digests gives hashlib's and hmac's SHA-256 and HMAC-SHA256; safefiles.path_text gives pathlib's text."""
from __future__ import annotations

import hashlib
import hmac
import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem import digests


@given(st.binary(max_size=300), st.binary(max_size=300))
@settings(max_examples=400, deadline=None)
def test_hmac_sha256_is_hmacs_for_keys_shorter_equal_and_longer_than_a_block(key, message):
    assert digests.hmac_sha256(key, message) == hmac.new(key, message, hashlib.sha256).hexdigest()


def test_hmac_sha256_at_the_block_size_edges():
    for size in (0, 63, 64, 65, 128):
        key = bytes(range(size % 256))[:size] or b""
        assert digests.hmac_sha256(key, b"move 7") == hmac.new(key, b"move 7", hashlib.sha256).hexdigest()


@given(st.binary(max_size=500))
@settings(max_examples=200, deadline=None)
def test_sha256_is_hashlibs(data):
    assert digests.sha256(data).hexdigest() == hashlib.sha256(data).hexdigest()


def test_a_process_that_hashes_much_takes_openssls_sha256_and_its_digests_are_the_same(monkeypatch):
    """`for_many` (a mail batch of more than one message, its workers): hashlib's SHA-256 from then on, five times as
    fast once started; every digest and HMAC as before."""
    monkeypatch.setattr(digests, "sha256", digests.sha256)  # this test process's built-in, put back afterwards
    bundle = bytes(range(256)) * 400
    before = (digests.sha256(bundle).hexdigest(), digests.hmac_sha256(b"the game's key", bundle))
    digests.for_many()
    assert digests.sha256 is hashlib.sha256
    assert (digests.sha256(bundle).hexdigest(), digests.hmac_sha256(b"the game's key", bundle)) == before
    assert before[1] == hmac.new(b"the game's key", bundle, hashlib.sha256).hexdigest()


def test_same_compares_text_and_bytes():
    assert digests.same("abc", "abc") and not digests.same("abc", "abd")
    assert digests.same(b"s3cret", b"s3cret") and not digests.same(b"s3cret", b"s3creT")


def test_a_command_imports_neither_hashlib_nor_pathlib_nor_pyyaml(tmp_path):
    """What every command imports (the CLI, the engine, its files, trust, the game registry, a game's metadata)
    leaves them out. (Only what pbem imports counts: an editable install's import hook has imported pathlib
    before pbem is imported.) Run outside the checkout: `python -c` puts its folder first on sys.path, and the
    checkout's pbem/ is not the installed package."""
    code = ("import sys; before = set(sys.modules); "
            "import pbem.cli.commands, pbem.engine.engine, pbem.store.safefiles, pbem.store.transactions, "
            "pbem.play.trust, pbem.rng, pbem.store.registry; pbem.store.registry.get('coal-baron'); "
            "print(sorted({'hashlib', 'hmac', 'yaml', 'random', 'pathlib'} & (set(sys.modules) - before)))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "[]\n"


def test_a_move_that_draws_nothing_does_not_import_random_and_a_draw_is_the_seeded_generators(tmp_path):
    """The move's generator is made at its first draw (most moves draw nothing): until then `random` is not
    imported; its draws are those of random.Random seeded with SHA-256(seed, game id, number), as ever."""
    code = ("import sys; import pbem.rng; r = pbem.rng.Rng('s', 'g', 7); print('random' in sys.modules); "
            "print(r.shuffle(list(range(10)), 'deck'), r.roll(what='dice'), len(r.outcomes))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    import random
    expected = random.Random(int.from_bytes(hashlib.sha256(b"s\x00g\x007").digest(), "big"))
    deck = list(range(10))
    expected.shuffle(deck)
    dice = [expected.randint(1, 6) for _ in range(2)]
    assert done.stdout == f"False\n{deck} {dice} 2\n"


@given(st.text(alphabet="/.ab", max_size=12).filter(bool))
@settings(max_examples=300, deadline=None)
def test_path_text_is_what_pathlib_writes(text):
    from pathlib import Path

    from pbem.store import safefiles
    assert safefiles.path_text(text) == str(Path(text))
