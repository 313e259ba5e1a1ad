"""pbem.memo.Bounded: each answer made once, the store emptied whole at its bound, an object known by itself."""
from __future__ import annotations

from pbem.memo import Bounded


def test_an_answer_is_made_once_and_the_store_is_emptied_whole_at_its_bound():
    made = []
    store = Bounded(2)
    assert store.get("a", lambda: made.append("a") or 1) == 1
    assert store.get("a", lambda: made.append("a again") or 2) == 1
    store.get("b", lambda: made.append("b") or 3)
    store.get("c", lambda: made.append("c") or 4)  # full: emptied, then c kept
    assert list(store.known) == ["c"]
    assert store.get("a", lambda: made.append("a afresh") or 5) == 5
    assert made == ["a", "b", "c", "a afresh"]


def test_an_object_is_known_by_itself_and_its_context_not_by_an_equal_copy():
    store = Bounded(8)
    spaces = {"mine": 1}
    assert store.of(spaces, lambda: "first") == "first"
    assert store.of(spaces, lambda: "again") == "first"
    assert store.of(dict(spaces), lambda: "copy") == "copy"  # an equal object of its own: its own answer
    assert store.of(spaces, lambda: "other side", "alternate") == "other side"  # the context changed
    assert store.of(spaces, lambda: "same", "alternate") == "other side"
