"""What a set of schemas says through its references, known before any document is checked (pbem.store.schemacheck):
the node a `$ref` names, the documents whose references all stay inside the set, and the members a node
evaluates through its `$ref` and `allOf` (what `unevaluatedProperties` leaves: how a game's schema extends pbem's
base and stays closed). Pure: schemas in, answers out."""
from __future__ import annotations


class SchemaError(ValueError):
    """The schema uses something the compiler does not support."""


def resolve(documents: dict[str, dict], document: str, pointer: str):
    """The schema node a $ref names: a document, and a JSON pointer in it."""
    target = documents[document]
    for part in [p for p in pointer.split("/") if p]:
        target = target[part.replace("~1", "/").replace("~0", "~")]
    return target


def evaluated(documents: dict[str, dict], schema, document: str, seen: set | None = None,
              inner: bool = False) -> tuple[set | None, list]:
    """(member names, patterns) a node evaluates, through its `$ref` and `allOf`; (None, []) when an
    additionalProperties (or an inner unevaluatedProperties) evaluates them all. Where an applicator that
    evaluates members only when its branch holds would decide them (anyOf, oneOf, if, dependentSchemas), the
    members are not known before the document: SchemaError."""
    seen = set() if seen is None else seen
    if not isinstance(schema, dict):
        return set(), []
    dynamic = [key for key in ("anyOf", "oneOf", "if", "dependentSchemas") if key in schema]
    if dynamic:
        raise SchemaError(f"{document}: unevaluatedProperties over {dynamic[0]} is not supported by "
                          f"pbem.store.schemacheck (name the members in properties, $ref or allOf)")
    if "additionalProperties" in schema or (inner and "unevaluatedProperties" in schema):
        return None, []
    names, patterns = set(schema.get("properties", {})), list(schema.get("patternProperties", {}))
    parts = [(sub, document) for sub in schema.get("allOf", [])]
    if isinstance(schema.get("$ref"), str):
        target, _, pointer = schema["$ref"].partition("#")
        key = (target or document, pointer)
        if key not in seen:  # a schema that refers back to itself adds nothing new
            seen.add(key)
            parts.append((resolve(documents, *key), key[0]))
    for sub, where in parts:
        more, more_patterns = evaluated(documents, sub, where, seen, inner=True)
        if more is None:
            return None, []
        names |= more
        patterns += more_patterns
    return names, patterns


def referred(schema) -> set[str]:
    """The other documents a schema names in its $refs."""
    if isinstance(schema, dict):
        found = {schema["$ref"].partition("#")[0]} if isinstance(schema.get("$ref"), str) else set()
        return found.union(*(referred(value) for value in schema.values())) - {""}
    if isinstance(schema, list):
        return set().union(*(referred(value) for value in schema))
    return set()


def complete(documents: dict[str, dict]) -> list[str]:
    """The documents whose every $ref, followed to the end, stays inside the set (the common schemas without a
    game's: move.schema.json is complete, public.schema.json is not)."""
    direct = {name: referred(schema) for name, schema in documents.items()}
    found = []
    for name in documents:
        seen, todo = set(), [name]
        while todo:
            current = todo.pop()
            if current not in seen:
                seen.add(current)
                todo += direct.get(current, ())
        if seen <= documents.keys():
            found.append(name)
    return found
