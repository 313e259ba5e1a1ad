"""A fast yes/no check of plain data against pbem's JSON Schemas (the 2020-12 subset they use).

Every move validates the state and every view before writing them; jsonschema's interpreter takes tens of
milliseconds per document, which alone would break the per-move budget (benchmarks/). So each schema is compiled
once into nested closures that answer only "valid or not". When the answer is "not valid", pbem.validation asks
jsonschema itself for the full list of errors with their paths: jsonschema stays the reference, and a test checks
that both agree on every schema, on valid and on broken documents.

A keyword this compiler does not know is an error at compile time, never silently ignored.
"""
from __future__ import annotations

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

    def __init__(self, documents: dict[str, dict]):
        self.documents = documents
        self.cache: dict[tuple[str, str], Check] = {}

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
        if not checks:
            return lambda x: True
        if len(checks) == 1:
            return checks[0]
        checks_tuple = tuple(checks)
        return lambda x: all(check(x) for check in checks_tuple)

    # ---- applicators
    def kw_ref(self, value, schema, document):
        target, _, pointer = value.partition("#")
        return self.reference(target or document, pointer)

    def kw_properties(self, value, schema, document):
        named = {key: self.compile(sub, document) for key, sub in value.items()}
        patterns = [(re.compile(p), self.compile(sub, document))
                    for p, sub in schema.get("patternProperties", {}).items()]
        extra = schema.get("additionalProperties", True)
        extra_check = None if extra is True else self.compile(extra, document)

        def check(x):
            if type(x) is not dict:
                return True
            for key, item in x.items():
                matched = False
                if key in named:
                    matched = True
                    if not named[key](item):
                        return False
                for pattern, sub in patterns:
                    if pattern.search(key):
                        matched = True
                        if not sub(item):
                            return False
                if not matched and extra_check is not None and not extra_check(item):
                    return False
            return True
        return check

    def kw_required(self, value, schema, document):
        names = tuple(value)
        return lambda x: type(x) is not dict or all(name in x for name in names)

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
        return lambda x: type(x) is not list or all(sub(item) for item in x[skip:])

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
        return lambda x: any(json_equal(x, option) for option in value)

    def kw_const(self, value, schema, document):
        return lambda x: json_equal(x, value)

    def kw_pattern(self, value, schema, document):
        search = re.compile(value).search
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
