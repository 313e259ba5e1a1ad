"""YAML as pbem reads and writes it: block style, stable key order, no aliases.

Every file pbem writes starts with a `# yaml-language-server: $schema=...` line so editors validate it.
Reading refuses anchors/aliases (a hostile file could make a tiny text expand into a huge tree), oversized files,
and anything that is not plain data.

PyYAML (libyaml's C loader) reads only text pbem did not write (a move file typed by hand, a club's components):
what pbem wrote is read by `_read_own` below. So PyYAML is imported on its first use, not by every command: its
import costs a sixth of a `pbem move` (benchmarks/).
"""
from __future__ import annotations

import functools
import json
import math
import re

from ..contract import PbemError
from ..messages import lazy
from .safefiles import limit_words, not_utf8, read_bounded, size_words

MAX_BYTES = 4 * 1024 * 1024
MAX_DEPTH = 64
MAX_INT_CHARS = 20  # a 64-bit count has 19 digits; a longer integer is never a count (nor a Python int limit DoS)
MERGE = "tag:yaml.org,2002:merge"


@functools.lru_cache(maxsize=None)
def _loader():
    """libyaml's safe loader, refusing what plain data never needs: an integer longer than any count, a key
    given twice (which value would count?) and merge keys (`<<`). Made on first use (it imports PyYAML)."""
    import yaml
    from yaml.constructor import ConstructorError

    class Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
        def construct_yaml_int(self, node):
            if len(node.value) > MAX_INT_CHARS:
                raise ConstructorError(None, None, f"an integer of {len(node.value)} characters (at most "
                                       f"{MAX_INT_CHARS})", node.start_mark)
            return super().construct_yaml_int(node)

        def construct_mapping(self, node, deep=False):
            first = {}
            for key_node, _ in node.value:
                if key_node.tag == MERGE:
                    raise ConstructorError(None, None, "merge keys (<<) are not allowed", key_node.start_mark)
                if isinstance(key_node, yaml.ScalarNode):  # other keys are refused later (keys must be text)
                    mark = first.setdefault((key_node.tag, key_node.value), key_node.start_mark)
                    if mark is not key_node.start_mark:
                        raise ConstructorError(None, None, f"the key {key_node.value!r:.40} is given twice (first "
                                               f"at line {mark.line + 1})", key_node.start_mark)
            return super().construct_mapping(node, deep)

    Loader.add_constructor("tag:yaml.org,2002:int", Loader.construct_yaml_int)
    return yaml, Loader


# Strings written plain (unquoted) must read back as the same string under YAML 1.1 rules: start with a letter
# or underscore, no characters YAML treats specially, and not a word YAML 1.1 reads as a boolean or null.
PLAIN = re.compile(r"^[A-Za-z_](?:[A-Za-z0-9_ ./+-]*[A-Za-z0-9_./+-])?$")
RESERVED = {"y", "n", "yes", "no", "on", "off", "true", "false", "null"}
# Escaped inside quotes: what YAML does not allow raw, and what it reads as a line break (NEL, U+2028, U+2029).
# Compiled on first need only: its Unicode ranges take milliseconds to compile, and a string Python calls
# printable holds none of these characters (they are all control, separator, surrogate or unassigned), so most
# processes never need it.
NOT_PRINTABLE = "[^\x09\x0a\x0d\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
_SCALARS: dict[str, str] = {}  # each string's text as written: the same words recur in every file of a move
_SCALARS_MAX = 20000


@functools.lru_cache(maxsize=None)
def _not_printable() -> re.Pattern:
    return re.compile(NOT_PRINTABLE)


def _escape(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def _string(value: str) -> str:
    text = _SCALARS.get(value)
    if text is None:
        if PLAIN.fullmatch(value) and value.lower() not in RESERVED:
            text = value
        else:
            # A JSON string is a valid YAML double-quoted scalar; YAML also wants non-printable characters escaped.
            text = json.dumps(value, ensure_ascii=False)
            if not value.isprintable():
                text = _not_printable().sub(_escape, text)
        if len(_SCALARS) >= _SCALARS_MAX:
            _SCALARS.clear()
        _SCALARS[value] = text
    return text


def _scalar(value) -> str:
    kind = type(value)
    if kind is str:
        return _string(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if kind is int:
        return str(value)
    if kind is float and math.isfinite(value):
        text = repr(value)
        if "." in text:
            return text
        mantissa, _, exponent = text.partition("e")  # 1e-05: YAML 1.1 reads a float only with its dot
        return f"{mantissa}.0e{exponent}"
    raise TypeError(f"cannot write {kind.__name__} values")


def _emit(value, indent: int, out: list[str]) -> None:
    """The lines of a mapping or sequence. The commonest items (a string written before, a whole number) are
    written inline: this runs for every node of every file a move writes."""
    pad = " " * indent
    known = _SCALARS.get  # the text of a string already written (the same words recur in every file of a move)
    if type(value) is dict:
        for key, item in value.items():
            head = pad + (known(key) or _string(str(key))) + ":"
            kind = type(item)
            if kind is str:
                out.append(head + " " + (known(item) or _string(item)))
            elif kind is int:
                out.append(f"{head} {item}")
            elif kind is dict and item:
                out.append(head)
                _emit(item, indent + 2, out)
            elif kind is list and item:
                out.append(head)
                _emit(item, indent, out)  # block sequences sit at their key's indentation, as PyYAML writes them
            else:
                out.append(f"{head} {_block_scalar(item)}")
    else:
        for item in value:
            kind = type(item)
            if kind is str:
                out.append(pad + "- " + (known(item) or _string(item)))
            elif kind is int:
                out.append(f"{pad}- {item}")
            elif (kind is dict or kind is list) and item:
                start = len(out)
                _emit(item, indent + 2, out)
                out[start] = f"{pad}- {out[start][indent + 2:]}"
            else:
                out.append(f"{pad}- {_block_scalar(item)}")


def _block_scalar(value) -> str:
    kind = type(value)
    if kind is dict:
        return "{}"
    if kind is list:
        return "[]"
    return _scalar(value)


def dumps(data, schema: str | None = None) -> str:
    """Block-style YAML of plain data, keys in their order, no anchors; fast (a move writes several files)."""
    lines = []
    if type(data) in (dict, list) and data:
        _emit(data, 0, lines)
    else:
        lines.append(_block_scalar(data))
    return _text(lines, schema)


def _text(lines: list[str], schema: str | None = None) -> str:
    """The text of a file of these lines, under its schema line."""
    head = f"# yaml-language-server: $schema={schema}\n" if schema else ""
    return head + "\n".join(lines) + "\n"


def _check_plain(node, where: str, depth: int, seen: set):
    """Reject shared references (aliases), deep nesting and non-JSON values; iterative in spirit, bounded depth."""
    if depth > MAX_DEPTH:
        raise PbemError(lazy("{where}: nested more than {count} levels deep", where=where, count=MAX_DEPTH))
    if isinstance(node, (dict, list)):
        if id(node) in seen:
            raise PbemError(lazy("{where}: YAML anchors and aliases are not allowed", where=where))
        seen.add(id(node))
        items = node.items() if isinstance(node, dict) else enumerate(node)
        for key, value in items:
            if isinstance(node, dict) and not isinstance(key, str):
                raise PbemError(lazy("{where}: keys must be text, found {key}", where=where, key=repr(key)))
            _check_plain(value, f"{where}.{key}" if isinstance(node, dict) else f"{where}[{key}]", depth + 1, seen)
    elif node is not None and not isinstance(node, (str, int, float, bool)):
        # TRANSLATORS: {kind}: a YAML value's type as Python names it (date, datetime, bytes).
        raise PbemError(lazy("{where}: {kind} values are not allowed (dates must be quoted)", where=where,
                             kind=type(node).__name__))


# ---------------------------------------------------------------- reading what pbem wrote, fast
#
# PyYAML builds every node in Python and tries a dozen patterns on every scalar: 5 to 10 ms for a 15 KB file, read
# several times by each command. Files pbem wrote have one shape (dumps above): block style, two spaces a level,
# scalars in a handful of forms. `_read_own` reads exactly that shape, line by line, and then writes what it read
# with dumps: only if that gives back the very text is the data taken, for then it is what PyYAML reads (what pbem
# writes reads back identical, a tested property). Any other text, a file edited by hand included, goes to PyYAML.

class _NotOwn(Exception):
    """Not text as pbem writes it: read it with PyYAML."""


_SCHEMA_LINE = "# yaml-language-server: $schema="
_WORDS = {"null": None, "true": True, "false": False}
_WHOLE = re.compile(r"-?[0-9]+")
_FRACTION = re.compile(r"-?[0-9]+\.[0-9]+(?:e[-+][0-9]+)?")  # as repr writes a float, and YAML 1.1 reads one
_json_string = json.JSONDecoder().raw_decode


def _own_scalar(text: str):
    if text in _WORDS:
        return _WORDS[text]
    if text == "{}":
        return {}
    if text == "[]":
        return []
    if text[:1] == '"':
        if "\\U" in text:  # an escape JSON does not know: let PyYAML read it
            raise _NotOwn
        value, end = _json_string(text)
        if end != len(text):
            raise _NotOwn
        return value
    if _WHOLE.fullmatch(text) and len(text) <= MAX_INT_CHARS:
        return int(text)
    if _FRACTION.fullmatch(text):
        return float(text)
    if PLAIN.fullmatch(text) and text.lower() not in RESERVED:
        return text
    raise _NotOwn


def _own_key(text: str) -> tuple[str, str | None]:
    """A mapping line's key and what follows `: ` (None when the line ends with the colon)."""
    if text[:1] == '"':
        if "\\U" in text:
            raise _NotOwn
        key, end = _json_string(text)
    else:
        end = text.find(":")
        key = text[:end]
        if end <= 0 or not PLAIN.fullmatch(key) or key.lower() in RESERVED:
            raise _NotOwn
    if end + 1 == len(text) and text[end] == ":":
        return key, None
    if text[end:end + 2] != ": ":
        raise _NotOwn
    return key, text[end + 2:]


def _starts_a_block(item: str) -> bool:
    """Does a sequence item's text begin a mapping or a sequence (rather than being a scalar)?"""
    if item[:2] == "- ":
        return True
    if item[:1] != '"':
        return ":" in item  # plain scalars hold no colon
    try:
        _, end = _json_string(item)
    except ValueError:
        raise _NotOwn from None
    return item[end:end + 1] == ":"


def _own_lines(text: str) -> tuple[list[str], str | None, str]:
    """The lines of data of a text pbem wrote, its schema line's schema, and the text as pbem would write that
    data (without the comments)."""
    if not text.endswith("\n"):
        raise _NotOwn
    lines = text[:-1].split("\n")
    schema = None
    if lines[0].startswith(_SCHEMA_LINE):
        schema = lines.pop(0)[len(_SCHEMA_LINE):]
        if not schema.isprintable():
            raise _NotOwn
    if any(line[:1] == "#" for line in lines):  # whole-line comments (a game's meta.yaml): YAML skips them too
        # ... if they hold nothing YAML reads as a line end (CR, NEL, U+2028...) or refuses (control characters):
        # the rest of such a line is data to YAML, so such a text is PyYAML's to read (or refuse)
        if not all(line.isprintable() for line in lines if line[:1] == "#"):
            raise _NotOwn
        lines = [line for line in lines if line[:1] != "#"]
        text = _text(lines, schema)
    return lines, schema, text


def _read_own(text: str):
    """A text pbem wrote, read by its own block reader (its one style); _NotOwn for anything else."""
    lines, schema, text = _own_lines(text)
    indents = [len(line) - len(line.lstrip(" ")) for line in lines]
    count, at = len(lines), 0

    def block(indent: int, depth: int):
        if depth > MAX_DEPTH // 2:  # deeper than pbem writes: PyYAML says what is wrong
            raise _NotOwn
        return sequence(indent, depth) if lines[at][indent:indent + 2] == "- " else mapping(indent, depth)

    def mapping(indent: int, depth: int) -> dict:
        nonlocal at
        out = {}
        while at < count and indents[at] == indent and lines[at][indent:indent + 2] != "- ":
            key, rest = _own_key(lines[at][indent:])
            if key in out:
                raise _NotOwn
            at += 1
            if rest is not None:
                out[key] = _own_scalar(rest)
            elif at < count and indents[at] == indent and lines[at][indent:indent + 2] == "- ":
                out[key] = sequence(indent, depth + 1)  # a sequence sits at its key's indentation
            elif at < count and indents[at] == indent + 2:
                out[key] = mapping(indent + 2, depth + 1)
            else:
                raise _NotOwn
        return out

    def sequence(indent: int, depth: int) -> list:
        nonlocal at
        out = []
        while at < count and indents[at] == indent and lines[at][indent:indent + 2] == "- ":
            item = lines[at][indent + 2:]
            if _starts_a_block(item):  # its first line shares the dash: read it as if it were indented
                lines[at], indents[at] = " " * (indent + 2) + item, indent + 2
                out.append(block(indent + 2, depth + 1))
            else:
                out.append(_own_scalar(item))
                at += 1
        return out

    try:
        if count == 1 and not _starts_a_block(lines[0]):
            data = _own_scalar(lines[0])
        else:
            data = block(0, 0)
            if at != count:
                raise _NotOwn
    finally:  # the three readers hold one another through this frame's cells: a cycle (with every line of the
        block = mapping = sequence = None  # text) that only the garbage collector would free; broken here
    if dumps(data, schema) != text:  # `lines` is changed while read: `text` is what they were
        raise _NotOwn
    return data


class NotYaml(PbemError):
    """Text that is not YAML at all (its message names the line and column)."""


def loads(text: str | bytes, source: str = "input"):
    if len(text) > MAX_BYTES:
        raise PbemError(lazy("{source}: file too large ({size}; at most {limit})", source=source,
                             size=size_words(len(text)), limit=limit_words(MAX_BYTES)))
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise PbemError(not_utf8(source, exc)) from None
    try:
        return _read_own(text)
    except (_NotOwn, IndexError, ValueError):
        pass
    yaml, loader = _loader()
    try:
        data = yaml.load(text, Loader=loader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        # TRANSLATORS: {problem}: what the YAML reader (PyYAML) says is wrong, in English.
        raise NotYaml(lazy("{source}: not valid YAML at line {line}, column {column}: {problem}", source=source,
                           line=mark.line + 1, column=mark.column + 1, problem=problem) if mark else
                      lazy("{source}: not valid YAML: {problem}", source=source, problem=problem)) from None
    except RecursionError:
        raise PbemError(lazy("{source}: nested too deeply", source=source)) from None
    except (ValueError, OverflowError) as exc:  # a scalar YAML resolves but cannot build: a date like 2024-13-45
        raise PbemError(lazy("{source}: not valid YAML: {problem}", source=source, problem=str(exc)[:200])) from None
    _check_plain(data, f"{source}: $", 0, set())
    return data


def load_file(path, source: str | None = None):
    return loads(read_bounded(path, MAX_BYTES, source), str(source or path))
