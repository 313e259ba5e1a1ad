"""A fast yes/no check of plain data against pbem's JSON Schemas (the 2020-12 subset they use).

Every move validates the state and every view before writing them; jsonschema's interpreter takes tens of
milliseconds per document, which alone would break the per-move budget (benchmarks/). So each schema is compiled
once into nested closures that answer only "valid or not". When the answer is "not valid", pbem.validation asks
jsonschema itself for the full list of errors with their paths: jsonschema stays the reference, and a test checks
that both agree on every schema, on valid and on broken documents.

A keyword this compiler does not know is an error at compile time, never silently ignored.

A command checks a few documents, which hold only some of the members their schemas allow (a finished game's
ranking, a clock, a player's address): by default a member's schema and a pattern are compiled when a document
first holds them (`deferred`), which halves what a command compiles. `deferred=False` compiles everything at once
(the tests do, so an unknown keyword anywhere is found).
"""
from __future__ import annotations

import math
import re
from typing import Callable

Check = Callable[[object], bool]

ANNOTATIONS = {"$schema", "$id", "$comment", "$defs", "definitions", "title", "description", "default", "examples",
               "format", "deprecated", "readOnly", "writeOnly"}


class SchemaError(ValueError):
    """The schema uses something the compiler does not support."""


def _is_integer(x) -> bool:
    return type(x) is int or (type(x) is float and x.is_integer())


TYPES: dict[str, Check] = {
    "object": lambda x: type(x) is dict,
    "array": lambda x: type(x) is list,
    "string": lambda x: type(x) is str,
    "integer": _is_integer,
    "number": lambda x: type(x) in (int, float),
    "boolean": lambda x: type(x) is bool,
    "null": lambda x: x is None,
}


def _is_number(x) -> bool:
    return type(x) in (int, float)


def _all_of(checks: list[Check]) -> Check:
    """One check passing when each passes (the common counts unrolled: this runs for every node of every file)."""
    if not checks:
        return lambda x: True
    if len(checks) == 1:
        return checks[0]
    if len(checks) == 2:
        first, second = checks
        return lambda x: first(x) and second(x)
    if len(checks) == 3:
        first, second, third = checks
        return lambda x: first(x) and second(x) and third(x)
    checks_tuple = tuple(checks)

    def check(x):
        for one in checks_tuple:
            if not one(x):
                return False
        return True
    return check


def json_equal(a, b) -> bool:
    """Equality as JSON means it: true is not 1, 1 is 1.0."""
    if type(a) is bool or type(b) is bool:
        return type(a) is type(b) and a == b
    if _is_number(a) and _is_number(b):
        return a == b
    if type(a) is not type(b):
        return False
    if type(a) is list:
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b))
    if type(a) is dict:
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    return a == b


class Compiler:
    """Compiles schemas of one set of documents (name -> schema) that refer to each other by name."""

    def __init__(self, documents: dict[str, dict], deferred: bool = True):
        self.documents, self.deferred = documents, deferred
        self.cache: dict[tuple[str, str], Check] = {}
        self.leaves: dict[tuple, Check] = {}  # the same bounded integer or string is compiled once

    def root(self, name: str) -> Check:
        return self.reference(name, "")

    def reference(self, document: str, pointer: str) -> Check:
        key = (document, pointer)
        if key not in self.cache:
            cell: list[Check] = []
            self.cache[key] = lambda x: cell[0](x)  # stands in while a recursive schema compiles
            target = self.documents[document]
            for part in [p for p in pointer.split("/") if p]:
                target = target[part.replace("~1", "/").replace("~0", "~")]
            cell.append(self.compile(target, document))
            self.cache[key] = cell[0]
        return self.cache[key]

    def compile(self, schema, document: str) -> Check:
        if schema is True:
            return lambda x: True
        if schema is False:
            return lambda x: False
        fused = self.fused(schema, document)
        if fused is not None:
            return fused
        checks: list[Check] = []
        keys = set(schema)
        for keyword in keys - ANNOTATIONS:
            method = getattr(self, "kw_" + keyword.replace("$", ""), None)
            if method is None:
                if keyword in ("additionalProperties", "patternProperties", "then", "else", "maxContains",
                               "minContains"):
                    continue  # handled together with properties / if / contains
                raise SchemaError(f"{document}: keyword {keyword!r} is not supported by pbem.schemacheck")
            check = method(schema[keyword], schema, document)
            if check is not None:
                checks.append(check)
        if "additionalProperties" in schema or "patternProperties" in schema:
            if "properties" not in schema:
                checks.append(self.kw_properties({}, schema, document))
        return _all_of(checks)

    def fused(self, schema: dict, document: str) -> Check | None:
        """The commonest shapes (a typed node with its bounds, a closed object, a list of items) as one closure
        each instead of one per keyword: the same answers, a fraction of the calls."""
        keys = set(schema) - ANNOTATIONS
        kind = schema.get("type")
        if kind == "integer" and keys <= {"type", "minimum", "maximum"}:
            low, high = schema.get("minimum", -math.inf), schema.get("maximum", math.inf)
            key = ("integer", low, high)
            if key not in self.leaves:
                self.leaves[key] = lambda x: (type(x) is int or (type(x) is float and x.is_integer())) \
                    and low <= x <= high
            return self.leaves[key]
        if kind == "string" and keys <= {"type", "pattern", "minLength", "maxLength"}:
            shortest, longest = schema.get("minLength", 0), schema.get("maxLength", math.inf)
            key = ("string", shortest, longest, schema.get("pattern"))
            if key not in self.leaves:
                if "pattern" not in schema:
                    self.leaves[key] = lambda x: type(x) is str and shortest <= len(x) <= longest
                else:
                    search = self.search(schema["pattern"])
                    self.leaves[key] = lambda x: type(x) is str and shortest <= len(x) <= longest \
                        and search(x) is not None
            return self.leaves[key]
        if kind == "object" and keys <= {"type", "properties", "required", "additionalProperties"}:
            members = self.kw_properties(schema.get("properties", {}), schema, document)
            required = frozenset(schema.get("required", ()))
            return lambda x: type(x) is dict and required <= x.keys() and members(x)
        if kind == "array" and keys <= {"type", "items", "minItems", "maxItems"}:
            items = self.kw_items(schema.get("items", True), schema, document)
            fewest, most = schema.get("minItems", 0), schema.get("maxItems", math.inf)
            return lambda x: type(x) is list and fewest <= len(x) <= most and items(x)
        return None

    # ---- applicators
    def kw_ref(self, value, schema, document):
        target, _, pointer = value.partition("#")
        return self.reference(target or document, pointer)

    def search(self, pattern: str):
        """re.compile(pattern).search, compiled when first used if deferred (a pattern takes ~0.1 ms to compile)."""
        if not self.deferred:
            return re.compile(pattern).search
        compiled = []

        def search(text):
            if not compiled:
                compiled.append(re.compile(pattern).search)
            return compiled[0](text)
        return search

    def member(self, named: dict, key: str, schema, document: str) -> Check:
        """The check of one named member, compiled when a document first holds it if deferred: it then takes its
        own place in `named`, so later documents go straight to it."""
        if not self.deferred:
            return self.compile(schema, document)

        def first_use(x):
            check = named[key] = self.compile(schema, document)
            return check(x)
        return first_use

    def kw_properties(self, value, schema, document):
        named: dict[str, Check] = {}
        for key, sub in value.items():
            named[key] = self.member(named, key, sub, document)
        patterns = [(self.search(p), self.compile(sub, document))
                    for p, sub in schema.get("patternProperties", {}).items()]
        extra = schema.get("additionalProperties", True)
        extra_check = None if extra is True else self.compile(extra, document)
        if not patterns:
            get = named.get
            if extra_check is None:
                def check(x):
                    if type(x) is not dict:
                        return True
                    for key, item in x.items():
                        sub = get(key)
                        if sub is not None and not sub(item):
                            return False
                    return True
                return check
            closed = extra is False

            def check(x):
                if type(x) is not dict:
                    return True
                for key, item in x.items():
                    sub = get(key)
                    if sub is None:
                        if closed or not extra_check(item):
                            return False
                    elif not sub(item):
                        return False
                return True
            return check

        def check(x):
            if type(x) is not dict:
                return True
            for key, item in x.items():
                matched = False
                if key in named:
                    matched = True
                    if not named[key](item):
                        return False
                for search, sub in patterns:
                    if search(key):
                        matched = True
                        if not sub(item):
                            return False
                if not matched and extra_check is not None and not extra_check(item):
                    return False
            return True
        return check

    def kw_required(self, value, schema, document):
        names = frozenset(value)
        return lambda x: type(x) is not dict or names <= x.keys()

    def kw_propertyNames(self, value, schema, document):
        sub = self.compile(value, document)
        return lambda x: type(x) is not dict or all(sub(key) for key in x)

    def kw_minProperties(self, value, schema, document):
        return lambda x: type(x) is not dict or len(x) >= value

    def kw_maxProperties(self, value, schema, document):
        return lambda x: type(x) is not dict or len(x) <= value

    def kw_dependentRequired(self, value, schema, document):
        return lambda x: type(x) is not dict or all(all(n in x for n in needs) for key, needs in value.items()
                                                    if key in x)

    def kw_items(self, value, schema, document):
        sub = self.compile(value, document)
        skip = len(schema.get("prefixItems", []))

        def check(x):
            if type(x) is not list:
                return True
            for item in x[skip:] if skip else x:
                if not sub(item):
                    return False
            return True
        return check

    def kw_prefixItems(self, value, schema, document):
        subs = [self.compile(s, document) for s in value]
        return lambda x: type(x) is not list or all(sub(item) for sub, item in zip(subs, x))

    def kw_contains(self, value, schema, document):
        sub = self.compile(value, document)
        low, high = schema.get("minContains", 1), schema.get("maxContains")
        def check(x):
            if type(x) is not list:
                return True
            count = sum(1 for item in x if sub(item))
            return count >= low and (high is None or count <= high)
        return check

    def kw_minItems(self, value, schema, document):
        return lambda x: type(x) is not list or len(x) >= value

    def kw_maxItems(self, value, schema, document):
        return lambda x: type(x) is not list or len(x) <= value

    def kw_uniqueItems(self, value, schema, document):
        if not value:
            return None
        def check(x):
            if type(x) is not list:
                return True
            return all(not json_equal(x[i], x[j]) for i in range(len(x)) for j in range(i + 1, len(x)))
        return check

    def kw_anyOf(self, value, schema, document):
        subs = tuple(self.compile(s, document) for s in value)
        return lambda x: any(sub(x) for sub in subs)

    def kw_allOf(self, value, schema, document):
        subs = tuple(self.compile(s, document) for s in value)
        return lambda x: all(sub(x) for sub in subs)

    def kw_oneOf(self, value, schema, document):
        subs = tuple(self.compile(s, document) for s in value)
        return lambda x: sum(1 for sub in subs if sub(x)) == 1

    def kw_not(self, value, schema, document):
        sub = self.compile(value, document)
        return lambda x: not sub(x)

    def kw_if(self, value, schema, document):
        condition = self.compile(value, document)
        then = self.compile(schema.get("then", True), document)
        otherwise = self.compile(schema.get("else", True), document)
        return lambda x: then(x) if condition(x) else otherwise(x)

    # ---- assertions
    def kw_type(self, value, schema, document):
        names = [value] if isinstance(value, str) else value
        predicates = tuple(TYPES[name] for name in names)
        if len(predicates) == 1:
            return predicates[0]
        return lambda x: any(p(x) for p in predicates)

    def kw_enum(self, value, schema, document):
        if value and all(type(option) is str for option in value):
            options = frozenset(value)
            return lambda x: type(x) is str and x in options
        return lambda x: any(json_equal(x, option) for option in value)

    def kw_const(self, value, schema, document):
        if type(value) is str:
            return lambda x: type(x) is str and x == value
        return lambda x: json_equal(x, value)

    def kw_pattern(self, value, schema, document):
        search = self.search(value)
        return lambda x: type(x) is not str or search(x) is not None

    def kw_minLength(self, value, schema, document):
        return lambda x: type(x) is not str or len(x) >= value

    def kw_maxLength(self, value, schema, document):
        return lambda x: type(x) is not str or len(x) <= value

    def kw_minimum(self, value, schema, document):
        return lambda x: not _is_number(x) or x >= value

    def kw_maximum(self, value, schema, document):
        return lambda x: not _is_number(x) or x <= value

    def kw_exclusiveMinimum(self, value, schema, document):
        return lambda x: not _is_number(x) or x > value

    def kw_exclusiveMaximum(self, value, schema, document):
        return lambda x: not _is_number(x) or x < value

    def kw_multipleOf(self, value, schema, document):
        return lambda x: not _is_number(x) or (x / value).is_integer()
