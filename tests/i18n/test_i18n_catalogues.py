"""The catalogues (pbem.text.catalogues): French and Traditional Chinese complete, no fuzzy or obsolete entry, each
translation with its message's placeholders, the glossaries' names in them, extraction up to date with the code,
Simplified Chinese made from the Traditional by OpenCC, and every committed .mo what its .po says."""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po

from pbem.text import catalogues

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import catalogues as repository_tool  # noqa: E402  (tools/catalogues.py: the repository's domains)

DOMAINS = repository_tool.domains()


def test_pbem_and_coal_baron_have_catalogues():
    assert {"pbem", "coal_baron"} <= {domain.name for domain in DOMAINS}


@pytest.mark.parametrize("domain", DOMAINS, ids=lambda d: d.name)
def test_every_catalogue_is_complete_and_up_to_date(domain):
    assert catalogues.check(domain) == []


def copied(domain: catalogues.Domain, tmp_path: Path) -> catalogues.Domain:
    """A copy of a game's sources and catalogues to break."""
    target = tmp_path / domain.name
    shutil.copytree(domain.source, target, ignore=shutil.ignore_patterns("__pycache__"))
    return catalogues.Domain(domain.name, target)


def coal_baron() -> catalogues.Domain:
    return next(d for d in DOMAINS if d.name == "coal_baron")


def rewrite(path: Path, change) -> None:
    catalog = read_po(open(path, "rb"))
    change(catalog)
    with open(path, "wb") as handle:
        write_po(handle, catalog, width=100)


def test_a_new_message_in_the_code_is_found_missing(tmp_path):
    domain = copied(coal_baron(), tmp_path)
    report = domain.source / "report.py"
    report.write_text(report.read_text() + '\n\ndef later():\n    return _("A sentence nobody translated yet")\n')
    problems = catalogues.check(domain)
    assert any("'A sentence nobody translated yet'" in p and "not in the catalogues" in p for p in problems)


def test_a_fuzzy_or_untranslated_entry_or_a_wrong_placeholder_is_found(tmp_path):
    domain = copied(coal_baron(), tmp_path)

    def damage(catalog):
        catalog.get("Board:").flags.add("fuzzy")
        catalog.get("Options: {options}").string = ""
        catalog.get("storage: {cubes}").string = "stock : {minerais}"
    rewrite(domain.po("fr"), damage)
    problems = "\n".join(catalogues.check(domain))
    assert "'Board:' is fuzzy" in problems and "'Options: {options}' is not translated" in problems
    assert "'storage: {cubes}': its translation 'stock : {minerais}' has placeholders ['minerais']" in problems


def test_an_obsolete_entry_and_a_stale_mo_are_found(tmp_path):
    domain = copied(coal_baron(), tmp_path)
    rewrite(domain.po("zh_Hant"), lambda catalog: catalog.obsolete.update(
        {"gone": catalog.get("Board:")}))
    domain.mo("fr").write_bytes(catalogues.compiled(domain.po("zh_Hant")))
    problems = "\n".join(catalogues.check(domain))
    assert "1 obsolete entries" in problems and "fr/LC_MESSAGES/coal_baron.mo: does not say what its .po says" in problems


def test_a_glossary_name_the_catalogue_does_not_have_is_found(tmp_path):
    domain = copied(coal_baron(), tmp_path)
    glossary = domain.source / "glossary.yaml"
    glossary.write_text(glossary.read_text().replace("name: brouette", "name: chariot"))
    problems = "\n".join(catalogues.check(domain))
    assert "the glossary names 'wheelbarrow' (term:transport) 'chariot', the catalogue 'brouette'" in problems


def test_simplified_chinese_is_what_opencc_makes_of_the_traditional(tmp_path):
    domain = copied(coal_baron(), tmp_path)
    simplified = read_po(open(domain.po("zh_Hans"), "rb"))
    assert simplified.get("Coal Baron").string == "煤炭大亨"
    assert simplified.get("cage", "term:word").string == "流笼"  # 流籠, in the Traditional
    rewrite(domain.po("zh_Hant"), lambda catalog: setattr(catalog.get("Board:"), "string", "主圖板（改）："))
    assert any("not what OpenCC makes of zh_Hant" in p for p in catalogues.check(domain))


def test_a_game_without_catalogues_yet_is_not_a_domain_of_the_repository():
    """A game gets its first catalogues by `mkdir games/<package>/locale` and the update (docs/translating.md)."""
    names = {domain.name for domain in DOMAINS}
    for folder in (ROOT / "games").iterdir():
        if (folder / "meta.yaml").is_file():
            assert (folder.name in names) == (folder / "locale").is_dir()


def test_babel_cfg_maps_what_the_catalogue_tool_extracts():
    """`pybabel extract -F babel.cfg` (docs/translating.md) reads the same files with the same extractors."""
    from babel.messages.frontend import parse_mapping_cfg
    with (ROOT / "babel.cfg").open() as handle:
        methods, _options = parse_mapping_cfg(handle)
    assert sorted(methods) == sorted(catalogues.METHODS)
