"""The message layer (pbem.messages, pbem.text.language): whole messages with named placeholders, rendered in the
reader's language at the edge, English when no catalogue says otherwise, never failing for a bad translation."""
from __future__ import annotations

import gettext
import io

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

from pbem import messages
from pbem.contract import PbemError
from pbem.messages import Domain, Message, Words
from pbem.text import language


def mo(entries: dict, locale: str = "fr") -> bytes:
    """A compiled catalogue of {msgid or (context, msgid) or (msgid, plural): translation(s)}."""
    catalog = Catalog(locale=locale, domain="test")
    for key, value in entries.items():
        context = None
        if isinstance(key, tuple) and key[0].startswith("ctx:"):
            context, key = key[0][4:], key[1]
        catalog.add(key, value, context=context)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    return buffer.getvalue()


@pytest.fixture
def french(monkeypatch):
    """A French translator whose catalogue of the domain `test` is what the test gives."""
    def make(entries: dict):
        monkeypatch.setattr(language, "catalogue_bytes", lambda domain, folder: mo(entries))
        translator = language.Translator("fr")
        return translator
    return make


def test_english_is_the_msgid_with_its_placeholders_filled_and_loads_no_catalogue():
    t = Domain("test")
    assert t.gettext("Shift {shift} of {shifts}", shift=2, shifts=3) == "Shift 2 of 3"
    assert t.ngettext("{count} cart", "{count} carts", 1, count=1) == "1 cart"
    assert t.ngettext("{count} cart", "{count} carts", 2, count=2) == "2 carts"
    assert t.pgettext("space", "bank") == "bank"
    assert language.translator("en") is None


def test_a_translation_is_filled_in_the_readers_language_and_plurals_follow_its_rules(french):
    translator = french({"Shift {shift} of {shifts}": "Manche {shift} sur {shifts}",
                         ("{count} cart", "{count} carts"): ("{count} berline", "{count} berlines")})
    shift = Message("test", "Shift {shift} of {shifts}", {"shift": 2, "shifts": 3})
    assert shift.render(translator) == "Manche 2 sur 3" and shift.english() == "Shift 2 of 3"
    carts = [Message("test", "{count} cart", {"count": n}, plural="{count} carts", count=n) for n in (0, 1, 2)]
    # French: 0 and 1 are singular (Plural-Forms: n > 1), English: only 1
    assert [c.render(translator) for c in carts] == ["0 berline", "1 berline", "2 berlines"]
    assert [c.english() for c in carts] == ["0 carts", "1 cart", "2 carts"]


def test_a_context_tells_one_english_word_from_another(french):
    translator = french({("ctx:term:space", "factory"): "usine", ("ctx:term:domain", "factory"): "berlines"})
    assert Message("test", "factory", {}, context="term:space").render(translator) == "usine"
    assert Message("test", "factory", {}, context="term:domain").render(translator) == "berlines"
    assert Message("test", "factory", {}, context="term:side").render(translator) == "factory"


def test_a_translation_with_a_wrong_placeholder_falls_back_to_english_for_that_message(french):
    translator = french({"{player} has resigned": "{joueur} a abandonné", "Board:": "Plateau :",
                         "attribute {x}": "{x.__class__}", "broken {x}": "cassé {x"})
    assert Message("test", "{player} has resigned", {"player": "ann"}).render(translator) == "ann has resigned"
    assert Message("test", "Board:", {}).render(translator) == "Plateau :"
    assert Message("test", "attribute {x}", {"x": 1}).render(translator) == "attribute 1"
    assert Message("test", "broken {x}", {"x": 1}).render(translator) == "broken 1"


def test_a_damaged_catalogue_leaves_its_domain_in_english(monkeypatch):
    monkeypatch.setattr(language, "catalogue_bytes", lambda domain, folder: b"\x00not a catalogue at all")
    translator = language.Translator("fr")
    assert Message("test", "Board:", {}).render(translator) == "Board:"
    monkeypatch.setattr(language, "catalogue_bytes", lambda domain, folder: (_ for _ in ()).throw(OSError("gone")))
    assert Message("test", "Board:", {}).render(language.Translator("zh-Hant")) == "Board:"


def test_a_message_holds_messages_lists_and_words_each_rendered_in_the_same_language(french):
    translator = french({"{step}: {error}": "{step} : {error}", "empty move": "coup vide",
                         ("ctx:list separator", ", "): " ; "})
    nested = Message("test", "{step}: {error}", {"step": "x", "error": Message("test", "empty move", {})})
    assert nested.render(translator) == "x : coup vide" and nested.english() == "x: empty move"
    listed = Message("test", "{items}", {"items": ["a", "b"]})
    assert listed.english() == "a, b"
    words = Message("test", "{move}", {"move": Words("pbem", "resign")})
    assert words.english() == "resign"


def test_a_refusal_carries_its_message_to_the_edge_and_stays_english_in_logs():
    with language.reading("fr"):
        error = PbemError(messages.lazy("{player} has already resigned", player="ann"))
        assert error.render() == "ann a déjà abandonné"
    assert str(error) == "ann has already resigned" and error.render() == "ann has already resigned"
    with language.reading("zh-Hant"):
        assert error.render() == "ann 已經棄權了"
    assert PbemError("plain text").render() == "plain text"


def test_an_unknown_language_is_refused_listing_the_supported_ones():
    assert language.check("FR") == "fr" and language.check("zh-tw") == "zh-Hant"
    with pytest.raises(PbemError) as refused:
        language.check("klingon")
    assert exit_code(refused.value) == 2
    assert "'klingon'" in str(refused.value) and "en (English), fr (français), zh-Hant (繁體中文), zh-Hans" in \
        str(refused.value)


def exit_code(error: PbemError) -> int:
    return error.exit_code


def test_dates_are_cldrs_for_each_language_joined_as_a_sentence_says_them():
    import datetime
    moment = datetime.datetime(2026, 12, 1, 17, 20, tzinfo=datetime.timezone.utc)
    assert language.when(moment, "en") == "Tue 1 Dec 2026 17:20 UTC"
    assert language.when(moment, "fr") == "mardi 1 décembre 2026 à 17:20 UTC"  # (CLDR's atTime, not "2026, 17:20")
    assert language.when(moment, "zh-Hant") == "2026年12月1日 17:20 UTC"
    assert language.when(moment, "zh-Hans") == "2026年12月1日 17:20 UTC"


def test_the_catalogues_are_read_by_the_standard_gettext_module():
    translator = language.Translator("fr")
    assert isinstance(translator.catalogue("pbem"), gettext.GNUTranslations)
    assert isinstance(translator.catalogue("coal_baron"), gettext.GNUTranslations)
    assert translator.catalogue("no_such_domain") is None
