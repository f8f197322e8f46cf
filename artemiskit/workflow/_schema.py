"""JSON Schema validation that reports every independent problem, with positions.

fastjsonschema compiles a schema into fast code but stops at the first error. A valid
document costs one call of the validator compiled from the whole schema (for the
shipped schema, generated ahead of time); only when it fails does `SchemaChecker`
walk the schema alongside the data, checking object and array rules itself and each
leaf with a validator compiled (once, lazily) from that leaf's sub-schema, so that
every independent problem is reported.

The walker understands the subset of JSON Schema our shipped schemas use: ``$ref``
into ``$defs``, ``type``, ``properties``, ``required``, ``additionalProperties``,
``propertyNames``, ``min/maxProperties``, ``items``, ``min/maxItems``, ``oneOf`` over
objects told apart by a required key, and any leaf keyword. Anything else still fails
closed through the compiled validator.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import fastjsonschema

if TYPE_CHECKING:
    from artemiskit._common._yaml import KeyPath, ParsedYaml
    from artemiskit._errors import Problem

__all__ = ["SchemaChecker", "describe_rule", "schema_problems", "standalone"]

Validator = Callable[[Any], Any]

_TYPE_WORDS = {
    "object": "an object (a mapping of keys)",
    "array": "a list",
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "null": "null",
}

#: Human wording of the patterns our schemas use.
PATTERN_RULES = {
    "^[A-Za-z0-9][A-Za-z0-9_.:-]*$": (
        "must start with a letter or digit and use only letters, digits, "
        "'.', '_', ':' and '-'"
    ),
    "^[A-Za-z_][A-Za-z0-9_-]*$": (
        "must start with a letter or '_' and use only letters, digits, '_' and '-'"
    ),
}


def _show(value: Any) -> str:
    return (
        json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value
    )


def describe_rule(rule: str | None, definition: Any) -> str:
    """Say which schema rule was broken, without repeating the offending value.

    Args:
        rule: The JSON Schema keyword (``type``, ``maximum`` ...).
        definition: The keyword's value in the schema.

    Returns:
        A short rule such as ``must be ≤ 5``.
    """
    if rule == "type":
        kinds = definition if isinstance(definition, list) else [definition]
        return "must be " + " or ".join(_TYPE_WORDS.get(k, str(k)) for k in kinds)
    if rule == "enum":
        return "must be one of: " + ", ".join(_show(v) for v in definition)
    if rule == "const":
        return f"must be {_show(definition)}"
    bounds = {
        "minimum": "≥",
        "maximum": "≤",
        "exclusiveMinimum": ">",
        "exclusiveMaximum": "<",
    }
    if rule in bounds:
        return f"must be {bounds[rule]} {definition}"
    if rule in ("minLength", "minItems", "minProperties") and definition == 1:
        return "must not be empty"
    counted = {
        "minLength": ("at least", "characters"),
        "maxLength": ("at most", "characters"),
        "minItems": ("at least", "items"),
        "maxItems": ("at most", "items"),
        "minProperties": ("at least", "keys"),
        "maxProperties": ("at most", "keys"),
    }
    if rule in counted:
        bound, unit = counted[rule]
        return f"must have {bound} {definition} {unit}"
    if rule == "pattern":
        return PATTERN_RULES.get(str(definition), "does not have the required form")
    if rule == "additionalProperties":
        return "is not a known key"
    if rule == "required":
        return "is required"
    return f"breaks the schema rule '{rule}'"


def _resolve_name(name: str, data: Any) -> KeyPath:
    """Turn fastjsonschema's ``data.a.b[2]`` into a key path, guided by the data.

    Keys may contain dots or brackets, so each step matches the longest key of the
    current mapping that fits; the walk stops where the data ends.
    """
    rest = name.removeprefix("data")
    path: list[str | int] = []
    node = data
    while rest:
        if isinstance(node, list) and rest.startswith("["):
            end = rest.find("]")
            if end < 0 or not rest[1:end].isdigit():
                break
            index = int(rest[1:end])
            if index >= len(node):
                break
            path.append(index)
            node, rest = node[index], rest[end + 1 :]
        elif isinstance(node, dict) and rest.startswith("."):
            fits = [
                k
                for k in node
                if rest[1:].startswith(k)
                and (len(rest) == len(k) + 1 or rest[len(k) + 1] in ".[")
            ]
            if not fits:
                break
            key = max(fits, key=len)
            path.append(key)
            node, rest = node[key], rest[len(key) + 1 :]
        else:
            break
    return tuple(path)


def schema_problems(
    validator: Validator,
    data: Any,
    doc: ParsedYaml,
    base_path: KeyPath = (),
) -> list[Problem]:
    """Run one compiled fastjsonschema validator and describe its first error.

    Args:
        validator: A function from ``fastjsonschema.compile``.
        data: The value to validate (the node of ``doc`` at ``base_path``).
        doc: The parsed document, for positions and the source name.
        base_path: Where ``data`` sits in ``doc``.

    Returns:
        An empty list when ``data`` conforms, else one `Problem` naming the key path
        (``$.a.b[2]``), the rule and the line/column, never the value.
    """
    try:
        validator(data)
    except fastjsonschema.JsonSchemaValueException as exc:
        where = (*base_path, *_resolve_name(exc.name or "data", data))
        if exc.rule == "required" and isinstance(exc.value, dict):
            missing = [k for k in exc.rule_definition or () if k not in exc.value]
            return [doc.problem("is required", (*where, k)) for k in missing]
        if exc.rule == "additionalProperties" and isinstance(exc.value, dict):
            known = (exc.definition or {}).get("properties", {})
            return [
                doc.problem("is not a known key", (*where, k), at_key=True)
                for k in exc.value
                if k not in known
            ]
        return [doc.problem(describe_rule(exc.rule, exc.rule_definition), where)]
    return []


def _count_rules_broken(node: Mapping[str, Any], count: int, unit: str) -> list[str]:
    """Return which of ``min<unit>``/``max<unit>`` a collection of ``count`` breaks."""
    broken = []
    if f"min{unit}" in node and count < node[f"min{unit}"]:
        broken.append(f"min{unit}")
    if f"max{unit}" in node and count > node[f"max{unit}"]:
        broken.append(f"max{unit}")
    return broken


def standalone(schema: Mapping[str, Any], node: Mapping[str, Any]) -> dict[str, Any]:
    """The schema fastjsonschema compiles for ``node``: it, plus ``schema``'s ``$defs``.

    Args:
        schema: The whole schema.
        node: The whole schema or one of its sub-schemas.
    """
    return {"$defs": dict(schema.get("$defs", {})), **node}


class SchemaChecker:
    """A shipped JSON Schema, compiled once, that reports every problem.

    Args:
        schema: The whole schema (draft-07, sub-schemas under ``$defs``).
        conforms: Whether a document conforms to the whole schema, when that
            check was generated ahead of time (``_compiled_schema.py``); else the
            whole schema's validator answers it, compiled on first use. Either
            way, the problems of a document that does not conform come from
            validators compiled on first use.
    """

    def __init__(
        self,
        schema: Mapping[str, Any],
        *,
        conforms: Callable[[Any], bool] | None = None,
    ) -> None:
        self._schema = dict(schema)
        self._defs: dict[str, Any] = dict(self._schema.get("$defs", {}))
        self._compiled: dict[int, tuple[Any, Validator]] = {}
        self.conforms = conforms

    def validator(self, node: Mapping[str, Any] | None = None) -> Validator:
        """Return the compiled validator of the schema, or of one of its nodes."""
        node = self._schema if node is None else node
        cached = self._compiled.get(id(node))
        if cached is None:
            compiled = fastjsonschema.compile(standalone(self._schema, node))
            cached = (node, compiled)
            self._compiled[id(node)] = cached
        return cached[1]

    def definition(self, name: str) -> Mapping[str, Any]:
        """Return the sub-schema ``$defs/<name>``."""
        return self._defs[name]  # type: ignore[no-any-return]

    def problems(
        self,
        data: Any,
        doc: ParsedYaml,
        *,
        node: Mapping[str, Any] | None = None,
        base_path: KeyPath = (),
    ) -> list[Problem]:
        """Validate ``data`` against the schema (or ``node``) and list every problem.

        Args:
            data: The value to check.
            doc: The parsed document, for positions and the source name.
            node: A sub-schema (e.g. `definition`); the whole schema by default.
            base_path: Where ``data`` sits in ``doc``.

        Returns:
            Every independent problem; empty when ``data`` conforms.
        """
        return self._collect(
            self._schema if node is None else node, data, base_path, doc
        )

    def _resolve(self, node: Mapping[str, Any]) -> Mapping[str, Any]:
        while "$ref" in node:
            node = self._defs[str(node["$ref"]).removeprefix("#/$defs/")]
        return node

    def _valid(self, node: Mapping[str, Any], data: Any) -> bool:
        if node is self._schema and self.conforms is not None:
            return self.conforms(data)
        try:
            self.validator(node)(data)
        except fastjsonschema.JsonSchemaValueException:
            return False
        return True

    def _collect(
        self, node: Mapping[str, Any], data: Any, path: KeyPath, doc: ParsedYaml
    ) -> list[Problem]:
        if self._valid(node, data):
            return []
        node = self._resolve(node)
        if "oneOf" in node:
            found = self._one_of(node, data, path, doc)
        elif node.get("type") == "object" and isinstance(data, dict):
            found = self._object(node, data, path, doc)
        elif node.get("type") == "array" and isinstance(data, list):
            found = self._array(node, data, path, doc)
        else:
            found = []
        return found or schema_problems(self.validator(node), data, doc, path)

    def _one_of(
        self, node: Mapping[str, Any], data: Any, path: KeyPath, doc: ParsedYaml
    ) -> list[Problem]:
        if not isinstance(data, dict):
            return [doc.problem(describe_rule("type", "object"), path)]
        branches = [self._resolve(b) for b in node["oneOf"]]
        kinds = [[k for k in b.get("required", ()) if k != "id"] for b in branches]
        present = [b for b, ks in zip(branches, kinds, strict=True) if ks[0] in data]
        if len(present) == 1:
            return self._collect(present[0], data, path, doc)
        names = ", ".join(ks[0] for ks in kinds)
        return [doc.problem(f"must have exactly one of the keys: {names}", path)]

    def _object(
        self,
        node: Mapping[str, Any],
        data: dict[str, Any],
        path: KeyPath,
        doc: ParsedYaml,
    ) -> list[Problem]:
        found = [
            doc.problem("is required", (*path, key))
            for key in node.get("required", ())
            if key not in data
        ]
        found.extend(
            doc.problem(describe_rule(rule, node[rule]), path)
            for rule in _count_rules_broken(node, len(data), "Properties")
        )
        props: Mapping[str, Any] = node.get("properties", {})
        extra = node.get("additionalProperties", True)
        names = node.get("propertyNames")
        for key, value in data.items():
            here = (*path, key)
            if names is not None and not self._valid(names, key):
                found.extend(
                    doc.problem(f"key {p.message}", here, at_key=True)
                    for p in schema_problems(self.validator(names), key, doc, here)
                )
            if key in props:
                found.extend(self._collect(props[key], value, here, doc))
            elif extra is False:
                known = ", ".join(props)
                message = f"is not a known key (known keys: {known})"
                found.append(doc.problem(message, here, at_key=True))
            elif isinstance(extra, dict):
                found.extend(self._collect(extra, value, here, doc))
        return found

    def _array(
        self,
        node: Mapping[str, Any],
        data: list[Any],
        path: KeyPath,
        doc: ParsedYaml,
    ) -> list[Problem]:
        found = [
            doc.problem(describe_rule(rule, node[rule]), path)
            for rule in _count_rules_broken(node, len(data), "Items")
        ]
        items = node.get("items")
        if isinstance(items, dict):
            for index, item in enumerate(data):
                found.extend(self._collect(items, item, (*path, index), doc))
        return found
