"""The catalogues of a domain, made with Babel: extracted from the code, the glossary and meta.yaml, brought up to
date in each language, the glossary's names written in, Simplified Chinese made from the Traditional, compiled to
`.mo`; and their checks (docs/translating.md). A tool for pbem's developers and a plug-in game's author, never run
by a command of pbem (it needs the `i18n` extra: Babel's extraction, OpenCC):

    python -m pbem.text.catalogues update DOMAIN SOURCE_FOLDER     # extract, update each language, compile
    python -m pbem.text.catalogues check DOMAIN SOURCE_FOLDER      # what is missing, fuzzy, obsolete or stale

(`python tools/catalogues.py` does both for every domain of this repository.) The catalogues live in
SOURCE_FOLDER/locale (pbem's: pbem/text/locale): `DOMAIN.pot`, the template, and `<lang>/LC_MESSAGES/DOMAIN.po` and
`.mo` for each language. The `.mo` files are committed with the `.po`: `pip install .` then needs no step of
its own, no Babel and no network, and a test checks that each `.mo` says what its `.po` says.
"""
from __future__ import annotations

import io
import os
import re
import sys
from pathlib import Path

import yaml

from ..messages import OPTION_HELP, PUBLIC_MOVE, QUEUE_HELP, SLOT

TERM = "term:"
# the markers of pbem.messages, as Babel reads them (its defaults: _, gettext, ngettext, pgettext, npgettext, N_)
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2),
            "npgettext": ((1, "c"), 2, 3), "N_": None, "NP_": ((1, "c"), 2),
            "lazy": None, "nlazy": (1, 2), "plazy": ((1, "c"), 2)}
COMMENT_TAGS = ["TRANSLATORS:"]
METHODS = [("**/glossary.yaml", "pbem.text.catalogues:extract_glossary"),
           ("**/meta.yaml", "pbem.text.catalogues:extract_meta"), ("**.py", "python")]
TRANSLATED = {"fr": "fr", "zh-Hant": "zh_Hant"}  # language code -> catalogue folder: translated by people
MADE = {"zh_Hans": ("zh_Hant", "tw2sp")}          # folder -> (the folder it is made from, OpenCC's conversion)
QUEUE_KINDS = ("choices", "conditions", "standing", "disarm")  # meta.yaml `queues:` kinds with a help text each
QUEUE_WHAT = {"turn": "what one turn of the game is, for a queue", "names": "the other names a queue's move may use"}
SLOT_FIELD = re.compile(r"\{([a-z_][a-z0-9_]*)(?::[a-z]+)?\}")
HEADER = "# {domain}: pbem's catalogue (docs/translating.md). Made by `python -m pbem.text.catalogues`.\n#"


def extract_glossary(fileobj, keywords, comment_tags, options):
    """Babel's extractor of a glossary.yaml: each term as `pgettext(term:KIND, id)`, its note and sources as
    comments for the translator."""
    text = fileobj.read().decode("utf-8")
    data = yaml.safe_load(text) or {}
    starts = [number for number, line in enumerate(text.splitlines(), 1) if line.startswith("- id:")]
    for number, spec in zip(starts, data.get("terms", [])):
        notes = [spec["note"]] if spec.get("note") else []
        yield number, "pgettext", (TERM + spec["kind"], str(spec["id"])), notes


def extract_meta(fileobj, keywords, comment_tags, options):
    """Babel's extractor of a meta.yaml: the game's title, what each of its options does (context OPTION_HELP),
    what each decision is (a status tells who must act and
    this), the refusal of a condition on another player's hidden things, the help texts of its queue forms
    (context QUEUE_HELP: a queue's help and notices show them) and the fields of its forms (context SLOT)."""
    text = fileobj.read().decode("utf-8")
    data = yaml.safe_load(text) or {}
    lines = text.splitlines()

    def line_of(value: str) -> int:
        return next((number for number, line in enumerate(lines, 1) if value in line), 1)

    yield line_of("title:"), "gettext", data["title"], ["the game's title"]
    for name, spec in (data.get("options") or {}).items():
        if spec.get("help"):
            yield line_of(f"  {name}:"), "pgettext", (OPTION_HELP, spec["help"]), [f"what the option {name} does "
                                                                                   f"(`pbem games`)"]
    for name, said in (data.get("decisions") or {}).items():
        yield line_of(f"  {name}:"), "gettext", said, [f"what the decision {name} is"]
    queues = data.get("queues") or {}
    for name, spec in (queues.get("conditions") or {}).items():
        if spec.get("hidden"):
            yield line_of(f"    {name}:"), "gettext", spec["hidden"], [f"the refusal of the condition {name} on "
                                                                        f"another player's hidden things"]
    for kind in QUEUE_KINDS:
        for name, spec in (queues.get(kind) or {}).items():
            if spec.get("help"):
                what = f"what the {kind[:-1]} {name} is"
                yield line_of(f"    {name}:"), "pgettext", (QUEUE_HELP, spec["help"]), [what]
    for kind in ("turn", "names"):
        if (queues.get(kind) or {}).get("help"):
            yield line_of(f"  {kind}:"), "pgettext", (QUEUE_HELP, queues[kind]["help"]), [QUEUE_WHAT[kind]]
    for name, spec in (data.get("notation") or {}).items():
        if isinstance(spec, dict) and spec.get("public"):
            yield line_of(f"  {name}:"), "pgettext", (PUBLIC_MOVE, spec["public"]), [
                f"the move {name} as the public log shows it (its hidden choice left out)"]
    for slot, template in slots(data):
        yield line_of(template), "pgettext", (SLOT, slot), [f"what a player writes in <{slot}> of {template}"]


def slots(meta: dict) -> list[tuple[str, str]]:
    """The fields of a game's move and queue forms (`amount` of `bid {amount:int}`), each with the first form it
    is in: a form shows a field as `<amount>`, the field's name in the reader's language (pbem.text.glossary)."""
    queues = meta.get("queues") or {}
    forms = [spec if isinstance(spec, str) else spec["template"] for spec in (meta.get("notation") or {}).values()]
    forms += [spec["template"] for kind in ("choices", "conditions")
              for spec in (queues.get(kind) or {}).values() if spec.get("template")]
    found: dict[str, str] = {}
    for form in forms:
        for slot in SLOT_FIELD.findall(form):
            found.setdefault(slot, form)
    return list(found.items())


class Domain:
    """A domain's catalogues: its name, the folder its sources are in, and its locale folder."""

    def __init__(self, name: str, source: Path, locale: Path | None = None, glossary: Path | None = None):
        self.name, self.source = name, Path(source)
        self.locale = Path(locale) if locale else self.source / "locale"
        self.glossary_path = Path(glossary) if glossary else self.source / "glossary.yaml"

    @property
    def template_path(self) -> Path:
        return self.locale / f"{self.name}.pot"

    def po(self, folder: str) -> Path:
        return self.locale / folder / "LC_MESSAGES" / f"{self.name}.po"

    def mo(self, folder: str) -> Path:
        return self.locale / folder / "LC_MESSAGES" / f"{self.name}.mo"

    def glossary(self) -> dict:
        path = self.glossary_path
        return (yaml.safe_load(path.read_text(encoding="utf-8")) or {}) if path.is_file() else {}


def template(domain: Domain):
    """The domain's messages as its sources say them now (a Babel Catalog)."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_dir
    catalog = Catalog(project="pbem", domain=domain.name, header_comment=HEADER.format(domain=domain.name),
                      charset="utf-8", fuzzy=False)
    found = extract_from_dir(str(domain.source), METHODS, {}, KEYWORDS, COMMENT_TAGS, strip_comment_tags=True)
    for filename, lineno, message, comments, context in found:
        if "locale" in Path(filename).parts:
            continue
        catalog.add(message, None, [(Path(filename).as_posix(), lineno)], auto_comments=comments, context=context)
    return catalog


def identity(catalog) -> list:
    """What a catalogue's messages are, without their places and dates: id, context, plural."""
    return sorted((str(m.context), str(m.id)) for m in catalog if m.id)


def _read(path: Path, locale=None):
    from babel.messages.pofile import read_po
    with open(path, "rb") as handle:
        return read_po(handle, locale=locale)


def _write_po(catalog, path: Path, **how) -> None:
    from babel.messages.pofile import write_po
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=100, **how)
    _replace(path, _without_dates(buffer.getvalue()))


def _without_dates(data: bytes) -> bytes:
    """A catalogue's text without the dates Babel writes into its header, which change at every run."""
    lines = [line for line in data.split(b"\n") if not line.startswith((b'"POT-Creation-Date:', b'"PO-Revision-Date:'))]
    return b"\n".join(lines)


def _replace(path: Path, data: bytes) -> None:
    """Write a file only when it changes (a catalogue's diff shows its messages, not a run)."""
    if path.is_file() and path.read_bytes() == data:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def glossary_names(domain: Domain, code: str) -> dict[tuple[str, str], str]:
    """{(context, id): name} of the glossary's terms in a language."""
    names = {}
    for spec in domain.glossary().get("terms", []):
        name = (spec.get(code) or {}).get("name")
        if name:
            names[(TERM + spec["kind"], str(spec["id"]))] = str(name)
    return names


def update(domain: Domain) -> None:
    """Extract the template, bring each language's catalogue up to it (obsolete entries dropped, the glossary's
    names written in), make the made languages, compile every `.mo`."""
    from babel.messages.catalog import Catalog
    pot = template(domain)
    _write_po(pot, domain.template_path, omit_header=False)
    for code, folder in TRANSLATED.items():
        path = domain.po(folder)
        catalog = _read(path, folder) if path.is_file() else Catalog(locale=folder, domain=domain.name, fuzzy=False)
        catalog.update(pot, update_header_comment=True)
        catalog.obsolete.clear()
        for (context, term_id), name in glossary_names(domain, code).items():
            message = catalog.get(term_id, context)
            if message is not None:
                message.string, message.flags = name, message.flags - {"fuzzy"}
        _write_po(catalog, path, ignore_obsolete=True, include_previous=True)
    for folder, (origin, conversion) in MADE.items():
        _replace(domain.po(folder), made_po(domain, folder, origin, conversion))
    for folder in [*TRANSLATED.values(), *MADE]:
        _replace(domain.mo(folder), compiled(domain.po(folder)))


def made_po(domain: Domain, folder: str, origin: str, conversion: str) -> bytes:
    """A language's catalogue made from another's by OpenCC (Simplified Chinese from the Traditional, Taiwan's
    phrases to the mainland's); placeholders are ASCII, which OpenCC leaves alone."""
    import opencc
    converter = opencc.OpenCC(conversion)
    catalog = _read(domain.po(origin), folder)
    catalog.locale = folder
    for message in catalog:
        if message.id and message.string:
            strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
            converted = [converter.convert(text) for text in strings]
            message.string = tuple(converted) if isinstance(message.string, (list, tuple)) else converted[0]
    buffer = io.BytesIO()
    from babel.messages.pofile import write_po
    write_po(buffer, catalog, width=100, ignore_obsolete=True)
    note = f"# Made from {origin}/LC_MESSAGES/{domain.name}.po by OpenCC ({conversion}): do not edit.\n".encode()
    return note + _without_dates(buffer.getvalue())


def compiled(po_path: Path) -> bytes:
    """The `.mo` of a `.po`, the same bytes at every run (the dates Babel would stamp in its header are fixed)."""
    import datetime
    from babel.messages.mofile import write_mo
    catalog = _read(po_path)
    catalog.creation_date = catalog.revision_date = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    return buffer.getvalue()


def check(domain: Domain) -> list[str]:
    """Everything wrong with a domain's catalogues: a template behind the code, a message missing, fuzzy or
    obsolete in a language, a translation whose placeholders are not its message's, a glossary name the catalogue
    does not have, a made language or a `.mo` that does not say what its source says."""
    problems = []
    if not domain.template_path.is_file():
        return [f"{domain.template_path}: no template (run the update)"]
    stored, now = identity(_read(domain.template_path)), identity(template(domain))
    for context, msgid in sorted(set(now) - set(stored)):
        problems.append(f"{domain.name}: {msgid!r} (context {context}) is not in the catalogues: run the update")
    for context, msgid in sorted(set(stored) - set(now)):
        problems.append(f"{domain.name}: {msgid!r} (context {context}) is no longer in the code: run the update")
    for code, folder in TRANSLATED.items():
        problems += language_problems(domain, code, folder, now)
    for folder, (origin, conversion) in MADE.items():
        if not domain.po(folder).is_file() or domain.po(folder).read_bytes() != made_po(domain, folder, origin,
                                                                                        conversion):
            problems.append(f"{domain.po(folder)}: not what OpenCC makes of {origin}: run the update")
    for folder in [*TRANSLATED.values(), *MADE]:
        problems += mo_problems(domain, folder)
    return problems


def language_problems(domain: Domain, code: str, folder: str, expected: list) -> list[str]:
    from ..messages import placeholders
    path = domain.po(folder)
    if not path.is_file():
        return [f"{path}: missing"]
    catalog = _read(path, folder)
    problems = [f"{path}: {len(catalog.obsolete)} obsolete entries"] if catalog.obsolete else []
    if identity(catalog) != expected:
        problems.append(f"{path}: its messages are not the template's: run the update")
    for message in catalog:
        if not message.id:
            continue
        where = f"{path}: {str(message.id if isinstance(message.id, str) else message.id[0])!r}"
        strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
        if "fuzzy" in message.flags:
            problems.append(f"{where} is fuzzy")
        if not all(strings):
            problems.append(f"{where} is not translated")
            continue
        ids = message.id if isinstance(message.id, (list, tuple)) else [message.id]
        wanted = set().union(*(placeholders(text) for text in ids))
        for text in strings:
            try:
                named = placeholders(text)
            except ValueError:
                named = None
            if named is None or not named <= wanted or (len(ids) == 1 and named != wanted):
                problems.append(f"{where}: its translation {text!r} has placeholders {sorted(named or [])}, "
                                f"the message {sorted(wanted)}")
    names = glossary_names(domain, code)
    for (context, term_id), name in names.items():
        message = catalog.get(term_id, context)
        if message is None or message.string != name:
            problems.append(f"{path}: the glossary names {term_id!r} ({context}) {name!r}, the catalogue "
                            f"{message.string if message else None!r}: run the update")
    return problems


def mo_problems(domain: Domain, folder: str) -> list[str]:
    import gettext
    mo = domain.mo(folder)
    if not mo.is_file():
        return [f"{mo}: missing: run the update"]
    committed = gettext.GNUTranslations(io.BytesIO(mo.read_bytes()))._catalog
    fresh = gettext.GNUTranslations(io.BytesIO(compiled(domain.po(folder))))._catalog
    return [] if committed == fresh else [f"{mo}: does not say what its .po says: run the update"]


def main(argv: list[str]) -> int:
    if len(argv) != 3 or argv[0] not in ("update", "check"):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 1
    domain = Domain(argv[1], Path(argv[2]))
    if argv[0] == "update":
        update(domain)
    problems = check(domain)
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
