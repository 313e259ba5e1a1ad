"""A fast yes/no check of plain data against pbem's JSON Schemas (the 2020-12 subset they use).

Every move validates the state and every view before writing them; jsonschema's interpreter takes tens of
milliseconds per document, which alone would break the per-move budget (benchmarks/). So a set of schemas is
translated into the source of a Python module, one small function per schema node that answers only "valid or
not", and that source is compiled by Python. When the answer is "not valid", pbem.store.validation asks jsonschema
itself for the full list of errors with their paths: jsonschema stays the reference, and a test checks that both
agree on every schema, on valid and on broken documents.

Translating and compiling a game's schemas takes longer than a move's own work, so the compiled code is kept
(pbem.store.checkercache) and a command only loads it. The translation is pure: schemas in, Python source out.

A keyword this compiler does not know is an error at compile time, never silently ignored.
"""
from __future__ import annotations

import re
from typing import Callable

from . import schemarefs
from .schemarefs import SchemaError

Check = Callable[[object], bool]

ANNOTATIONS = {"$schema", "$id", "$comment", "$defs", "definitions", "title", "description", "default", "examples",
               "format", "deprecated", "readOnly", "writeOnly"}
FEW = 8  # an object with at most so many named members compares its keys one by one
# keywords read together with another one (properties, if, contains, items)
COMPANIONS = {"additionalProperties", "patternProperties", "then", "else", "maxContains", "minContains",
              "prefixItems"}

# The test of a type, and of "not that type" (a keyword about strings holds for anything that is not a string).
IS = {
    "object": "type({x}) is dict",
    "array": "type({x}) is list",
    "string": "type({x}) is str",
    "integer": "(type({x}) is int or (type({x}) is float and {x}.is_integer()))",
    "number": "type({x}) in (int, float)",
    "boolean": "type({x}) is bool",
    "null": "{x} is None",
}
IS_NOT = {"object": "type({x}) is not dict", "array": "type({x}) is not list", "string": "type({x}) is not str",
          "number": "type({x}) not in (int, float)"}


def json_equal(a, b) -> bool:
    """Equality as JSON means it: true is not 1, 1 is 1.0."""
    if type(a) is bool or type(b) is bool:
        return type(a) is type(b) and a == b
    if type(a) in (int, float) and type(b) in (int, float):
        return a == b
    if type(a) is not type(b):
        return False
    if type(a) is list:
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b))
    if type(a) is dict:
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    return a == b


def _unique(items: list) -> bool:
    return all(not json_equal(items[i], items[j]) for i in range(len(items)) for j in range(i + 1, len(items)))


def _any_equal(x, options: tuple) -> bool:
    return any(json_equal(x, option) for option in options)


def _search(pattern: str):
    """re.compile(pattern).search, compiled when first used (a pattern takes ~0.1 ms; a command meets a few)."""
    compiled = []

    def search(text):
        if not compiled:
            compiled.append(re.compile(pattern).search)
        return compiled[0](text)
    return search


# What the generated module may use besides builtins: exactly these names.
RUNTIME = {"_json_equal": json_equal, "_unique": _unique, "_any_equal": _any_equal, "_search": _search}


class Clause:
    """One condition of a schema node: a Python expression on `{x}` (`text`) or statements on `x` that return False
    when it fails (`lines`, a loop); `kind` is the type it is about (None: any)."""

    def __init__(self, text: str | None = None, kind: str | None = None, lines: list[str] | None = None):
        self.text, self.kind, self.lines = text, kind, lines

    def alone(self) -> str:
        """The clause where the node's type is not known: true for a value of another type."""
        if self.kind is None:
            return self.text
        return f"({IS_NOT[self.kind]} or {self.text})"


class Generator:
    """Translates one set of schemas (file name -> schema) that refer to each other by file name."""

    def __init__(self, documents: dict[str, dict]):
        self.documents = documents
        self.functions: list[str] = []            # the source of every function, in order
        self.aliases: list[str] = []              # rN = cM: the function of each $ref, after the functions
        self.constants: list[str] = []            # NAME = value lines, after those
        self.by_body: dict[str, str] = {}         # a function's body -> its name (the same check is made once)
        self.by_value: dict[str, str] = {}        # a constant's source -> its name
        self.refs: dict[tuple[str, str], str] = {}  # (document, pointer) -> the function checking it
        self.roots: dict[str, str] = {}

    # ---- the module
    def source(self, names) -> str:
        """The module's source: a function per check, then ROOTS, the check of each named document."""
        for name in names:
            self.roots[name] = self.reference(name, "")
        table = ", ".join(f"{name!r}: {function}" for name, function in self.roots.items())
        return "\n".join(self.functions + self.aliases + self.constants + [f"ROOTS = {{{table}}}", ""])

    def constant(self, prefix: str, value_source: str) -> str:
        if value_source not in self.by_value:
            self.by_value[value_source] = f"{prefix}{len(self.by_value)}"
            self.constants.append(f"{self.by_value[value_source]} = {value_source}")
        return self.by_value[value_source]

    def function(self, body: list[str]) -> str:
        """The name of a function `(x) -> bool` with these lines as its body."""
        text = "\n".join("    " + line for line in body)
        if text not in self.by_body:
            name = f"c{len(self.by_body)}"
            self.by_body[text] = name
            self.functions.append(f"def {name}(x):\n{text}\n")
        return self.by_body[text]

    def as_function(self, expression: str) -> str:
        """A function name for a check given as an expression on {x} (itself, when it is a call of one)."""
        match = re.fullmatch(r"([cr]\d+)\(\{x\}\)", expression)
        return match.group(1) if match else self.function([f"return {expression.format(x='x')}"])

    def reference(self, document: str, pointer: str) -> str:
        """The function checking a schema named by $ref (reserved first: a schema may refer to itself)."""
        key = (document, pointer)
        if key not in self.refs:
            name = self.refs[key] = f"r{len(self.refs)}"
            target = schemarefs.resolve(self.documents, document, pointer)
            self.aliases.append(f"{name} = {self.as_function(self.node(target, document))}")
        return self.refs[key]

    # ---- a schema node as an expression on {x}
    def node(self, schema, document: str) -> str:
        if schema is True:
            return "True"
        if schema is False:
            return "False"
        clauses: list[Clause] = []
        for keyword in schema:
            if keyword in ANNOTATIONS or keyword in COMPANIONS or keyword == "type":
                continue
            method = getattr(self, "kw_" + keyword.replace("$", ""), None)
            if method is None:
                raise SchemaError(f"{document}: keyword {keyword!r} is not supported by pbem.store.schemacheck")
            clauses += method(schema[keyword], schema, document)
        if ("additionalProperties" in schema or "patternProperties" in schema) and "properties" not in schema:
            clauses += self.kw_properties({}, schema, document)
        if "prefixItems" in schema and "items" not in schema:
            clauses += self.kw_items(True, schema, document)
        kinds = schema.get("type")
        kinds = [] if kinds is None else [kinds] if isinstance(kinds, str) else kinds
        one = kinds[0] if len(kinds) == 1 else None
        texts = [IS[kinds[0]] if one else "(" + " or ".join(IS[kind] for kind in kinds) + ")"] if kinds else []
        loops = []
        for c in clauses:
            if one is not None and c.kind is not None and c.kind != one and (c.kind, one) != ("number", "integer"):
                continue  # a keyword about another type holds for every value this node's type lets through
            known = one is not None and c.kind is not None  # the type is known: no guard
            if c.lines is None:
                texts.append(c.text if known else c.alone())
            elif known:
                loops += c.lines
            else:
                loops += [f"if {IS[c.kind].format(x='x')}:"] + ["    " + line for line in c.lines]
        if loops:  # one function: the expressions first, then the loops
            head = ["if not (" + " and ".join(texts).format(x="x") + "):", "    return False"] if texts else []
            return self.function(head + loops + ["return True"]) + "({x})"
        if not texts:
            return "True"
        return texts[0] if len(texts) == 1 else "(" + " and ".join(texts) + ")"

    def call(self, schema, document: str, variable: str) -> str:
        """The check of `schema` on a local variable of a generated function."""
        return self.node(schema, document).format(x=variable)

    # ---- applicators
    def kw_ref(self, value, schema, document):
        target, _, pointer = value.partition("#")
        return [Clause(self.reference(target or document, pointer) + "({x})")]

    def kw_properties(self, value, schema, document):
        patterns = [(self.constant("S", f"_search({p!r})"), self.call(sub, document, "v"))
                    for p, sub in schema.get("patternProperties", {}).items()]
        extra = schema.get("additionalProperties", True)
        if not value and not patterns and extra is True:
            return []
        if len(value) <= FEW and not patterns:
            return [Clause(kind="object", lines=self.few_members(value, extra, document))]
        named = {key: self.as_function(self.node(sub, document)) for key, sub in value.items()}
        members = self.constant("P", "{" + ", ".join(f"{key!r}: {f}" for key, f in named.items()) + "}")
        body = ["for k, v in x.items():", f"    f = {members}.get(k)"]
        if not patterns:
            if extra is True:
                body += ["    if f is not None and not f(v):", "        return False"]
            elif extra is False:
                body += ["    if f is None or not f(v):", "        return False"]
            else:
                body += [f"    if not ({self.call(extra, document, 'v')} if f is None else f(v)):",
                         "        return False"]
        else:
            body += ["    matched = f is not None", "    if matched and not f(v):", "        return False"]
            for search, check in patterns:
                body += [f"    if {search}(k):", "        matched = True", f"        if not {check}:",
                         "            return False"]
            if extra is not True:
                body += [f"    if not matched and not {self.call(extra, document, 'v')}:", "        return False"]
        return [Clause(kind="object", lines=body)]

    def few_members(self, value, extra, document) -> list[str]:
        """An object with few named members: each key compared in turn and its member checked in place (faster
        than a table of functions for a handful of keys)."""
        if not value:  # only additionalProperties
            return ["for v in x.values():", f"    if not {self.call(extra, document, 'v')}:", "        return False"]
        body, word = ["for k, v in x.items():"], "if"
        for key, sub in value.items():
            body += [f"    {word} k == {key!r}:", f"        if not {self.call(sub, document, 'v')}:",
                     "            return False"]
            word = "elif"
        if extra is not True:
            body += ["    else:", f"        if not {self.call(extra, document, 'v')}:",
                     "            return False"]
        return body

    def kw_unevaluatedProperties(self, value, schema, document):
        """The members no `properties`, `patternProperties` or `additionalProperties` of this node evaluated, nor
        of what its `$ref` and `allOf` lead to (how a game's schema extends pbem's base, which stays open): known
        here, before any document is seen. Where an applicator that evaluates members only when its branch
        holds would decide them (anyOf, oneOf, if, dependentSchemas), the compiler refuses the schema."""
        names, patterns = schemarefs.evaluated(self.documents, schema, document)
        if names is None or value is True:
            return []  # an additionalProperties on the way evaluated every member
        known = self.constant("K", f"frozenset({tuple(sorted(names))!r})")
        if value is False and not patterns:
            return [Clause(f"{{x}}.keys() <= {known}", "object")]
        searches = [self.constant("S", f"_search({p!r})") for p in patterns]
        matched = " or ".join([f"k in {known}", *(f"{s}(k)" for s in searches)])
        body = ["for k, v in x.items():", f"    if not ({matched}) and not {self.call(value, document, 'v')}:",
                "        return False"]
        return [Clause(kind="object", lines=body)]

    def kw_required(self, value, schema, document):
        return [Clause(f"{self.constant('K', f'frozenset({tuple(value)!r})')} <= {{x}}.keys()", "object")]

    def kw_propertyNames(self, value, schema, document):
        body = ["for k in x:", f"    if not {self.call(value, document, 'k')}:", "        return False"]
        return [Clause(kind="object", lines=body)]

    def kw_minProperties(self, value, schema, document):
        return [Clause(f"len({{x}}) >= {value!r}", "object")]

    def kw_maxProperties(self, value, schema, document):
        return [Clause(f"len({{x}}) <= {value!r}", "object")]

    def kw_dependentRequired(self, value, schema, document):
        needs = [f"({key!r} not in {{x}} or {self.constant('K', f'frozenset({tuple(names)!r})')} <= {{x}}.keys())"
                 for key, names in value.items()]
        return [Clause(" and ".join(needs), "object")] if needs else []

    def kw_items(self, value, schema, document):
        skip = len(schema.get("prefixItems", []))
        clauses = []
        if skip:
            checks = [self.call(sub, document, f"x[{i}]") for i, sub in enumerate(schema["prefixItems"])]
            body = [line for i, check in enumerate(checks) for line in (f"if len(x) > {i} and not {check}:",
                                                                         "    return False")]
            clauses.append(Clause(kind="array", lines=body))
        if value is not True:
            body = [f"for v in {'x[%d:]' % skip if skip else 'x'}:", f"    if not {self.call(value, document, 'v')}:",
                    "        return False"]
            clauses.append(Clause(kind="array", lines=body))
        return clauses

    def kw_contains(self, value, schema, document):
        low, high = schema.get("minContains", 1), schema.get("maxContains")
        count = f"sum(1 for v in x if {self.call(value, document, 'v')})"
        test = f"{low!r} <= n" + (f" <= {high!r}" if high is not None else "")
        return [Clause(self.function([f"n = {count}", f"return {test}"]) + "({x})", "array")]

    def kw_minItems(self, value, schema, document):
        return [Clause(f"len({{x}}) >= {value!r}", "array")]

    def kw_maxItems(self, value, schema, document):
        return [Clause(f"len({{x}}) <= {value!r}", "array")]

    def kw_uniqueItems(self, value, schema, document):
        return [Clause("_unique({x})", "array")] if value else []

    def kw_anyOf(self, value, schema, document):
        return [Clause("(" + " or ".join(self.node(s, document) for s in value) + ")")]

    def kw_allOf(self, value, schema, document):
        return [Clause("(" + " and ".join(self.node(s, document) for s in value) + ")")]

    def kw_oneOf(self, value, schema, document):
        return [Clause("((" + ") + (".join(self.node(s, document) for s in value) + ") == 1)")]

    def kw_not(self, value, schema, document):
        return [Clause(f"not {self.node(value, document)}")]

    def kw_if(self, value, schema, document):
        condition = self.node(value, document)
        then, otherwise = (self.node(schema.get(k, True), document) for k in ("then", "else"))
        return [Clause(f"({then} if {condition} else {otherwise})")]

    # ---- assertions
    def kw_enum(self, value, schema, document):
        if value and all(type(option) is str for option in value):
            options = self.constant("K", f"frozenset({tuple(value)!r})")
            return [Clause(f"(type({{x}}) is str and {{x}} in {options})")]
        return [Clause(f"_any_equal({{x}}, {self.constant('K', repr(tuple(value)))})")]

    def kw_const(self, value, schema, document):
        if type(value) is str:  # nothing but a string equals a string
            return [Clause(f"{{x}} == {self.constant('K', repr(value))}")]
        return [Clause(f"_json_equal({{x}}, {self.constant('K', repr(value))})")]

    def kw_pattern(self, value, schema, document):
        return [Clause(f"{self.constant('S', f'_search({value!r})')}({{x}}) is not None", "string")]

    def kw_minLength(self, value, schema, document):
        return [Clause(f"len({{x}}) >= {value!r}", "string")]

    def kw_maxLength(self, value, schema, document):
        return [Clause(f"len({{x}}) <= {value!r}", "string")]

    def kw_minimum(self, value, schema, document):
        return [Clause(f"{{x}} >= {value!r}", "number")]

    def kw_maximum(self, value, schema, document):
        return [Clause(f"{{x}} <= {value!r}", "number")]

    def kw_exclusiveMinimum(self, value, schema, document):
        return [Clause(f"{{x}} > {value!r}", "number")]

    def kw_exclusiveMaximum(self, value, schema, document):
        return [Clause(f"{{x}} < {value!r}", "number")]

    def kw_multipleOf(self, value, schema, document):
        return [Clause(f"({{x}} / {value!r}).is_integer()", "number")]


def generate(documents: dict[str, dict]) -> str:
    """The source of a module whose ROOTS maps each complete document's name to its check."""
    return Generator(documents).source(schemarefs.complete(documents))


def load(code) -> dict[str, Check]:
    """Run a compiled module (a code object of generate's source): the check of each document, by name."""
    namespace = {"__builtins__": __builtins__, **RUNTIME}
    exec(code, namespace)
    return namespace["ROOTS"]


def compile_checks(documents: dict[str, dict]):
    """generate, then Python's compile: the code object that `load` runs."""
    return compile(generate(documents), "<pbem.store.schemacheck>", "exec")


class Compiler:
    """The checks of one set of schemas (name -> schema), compiled in this process (nothing kept)."""

    def __init__(self, documents: dict[str, dict]):
        self.checks = load(compile_checks(documents))

    def root(self, name: str) -> Check:
        return self.checks[name]
