"""YAML as pbem reads and writes it: libyaml's C loader and dumper, block style, stable key order, no aliases.

Every file pbem writes starts with a `# yaml-language-server: $schema=...` line so editors validate it.
Reading refuses anchors/aliases (a hostile file could make a tiny text expand into a huge tree), oversized files,
and anything that is not plain data.
"""
from __future__ import annotations

import yaml

from .contract import PbemError

Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

MAX_BYTES = 4 * 1024 * 1024
MAX_DEPTH = 64


class _NoAliasDumper(Dumper):
    def ignore_aliases(self, data):  # every repeated object is written out in full: no anchors in pbem files
        return True


def dumps(data, schema: str | None = None) -> str:
    text = yaml.dump(data, Dumper=_NoAliasDumper, default_flow_style=False, sort_keys=False,
                     allow_unicode=True, width=100)
    return (f"# yaml-language-server: $schema={schema}\n" if schema else "") + text


def _check_plain(node, where: str, depth: int, seen: set):
    """Reject shared references (aliases), deep nesting and non-JSON values; iterative in spirit, bounded depth."""
    if depth > MAX_DEPTH:
        raise PbemError(f"{where}: nested more than {MAX_DEPTH} levels deep")
    if isinstance(node, (dict, list)):
        if id(node) in seen:
            raise PbemError(f"{where}: YAML anchors and aliases are not allowed")
        seen.add(id(node))
        items = node.items() if isinstance(node, dict) else enumerate(node)
        for key, value in items:
            if isinstance(node, dict) and not isinstance(key, str):
                raise PbemError(f"{where}: keys must be text, found {key!r}")
            _check_plain(value, f"{where}.{key}" if isinstance(node, dict) else f"{where}[{key}]", depth + 1, seen)
    elif node is not None and not isinstance(node, (str, int, float, bool)):
        raise PbemError(f"{where}: {type(node).__name__} values are not allowed (dates must be quoted)")


def loads(text: str | bytes, source: str = "input"):
    if len(text) > MAX_BYTES:
        raise PbemError(f"{source}: file too large ({len(text)} bytes, at most {MAX_BYTES})")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise PbemError(f"{source}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    try:
        data = yaml.load(text, Loader=Loader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise PbemError(f"{source}: not valid YAML{where}: {problem}") from None
    except RecursionError:
        raise PbemError(f"{source}: nested too deeply") from None
    _check_plain(data, "$", 0, set())
    return data


def load_file(path, source: str | None = None):
    try:
        with open(path, "rb") as handle:
            text = handle.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise PbemError(f"{source or path}: no such file") from None
    except IsADirectoryError:
        raise PbemError(f"{source or path}: is a directory, not a file") from None
    except OSError as exc:
        raise PbemError(f"{source or path}: cannot read ({exc.strerror})") from None
    return loads(text, str(source or path))
