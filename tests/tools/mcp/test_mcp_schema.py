"""A server's schema made safe to run on model arguments (no server needed)."""

from __future__ import annotations

import fastjsonschema
import pytest

from artemiskit.tools._mcp_schema import SchemaRefused, linear_validator, schema_digest


def _object(**properties: object) -> dict[str, object]:
    return {"type": "object", "properties": properties}


def test_a_pattern_is_checked_by_the_linear_engine() -> None:
    check = linear_validator(_object(code={"type": "string", "pattern": "^(a+)+$"}))
    check({"code": "aaaa"})
    with pytest.raises(fastjsonschema.JsonSchemaValueException):
        check({"code": "a" * 5000 + "b"})  # would not finish with Python's re


def test_a_pattern_keeps_its_other_rules() -> None:
    schema = _object(
        code={"type": "string", "pattern": "^[a-z]+$", "allOf": [{"maxLength": 3}]}
    )
    check = linear_validator(schema)
    check({"code": "abc"})
    for bad in ("abcd", "ABC"):
        with pytest.raises(fastjsonschema.JsonSchemaValueException):
            check({"code": bad})


@pytest.mark.parametrize(
    ("schema", "why"),
    [
        (_object(a={"$ref": "https://example.invalid/schema.json"}), "outside"),
        (_object(a={"$ref": "file:///etc/passwd"}), "outside"),
        (_object(a={"$id": "https://example.invalid/x", "type": "string"}), "base"),
        (_object(a={"type": "string", "pattern": "^(a)\\1$"}), "linear"),
        ({"type": "object", "patternProperties": {"^x": {}}}, "patternProperties"),
        ({"type": "object", "properties": {"a": {"type": 5}}}, "not a valid"),
    ],
)
def test_unsafe_or_invalid_schemas_are_refused(
    schema: dict[str, object], why: str
) -> None:
    with pytest.raises(SchemaRefused, match=why):
        linear_validator(schema)


def test_local_references_resolve() -> None:
    schema = {
        "type": "object",
        "$defs": {"code": {"type": "string", "pattern": "^x"}},
        "properties": {"a": {"$ref": "#/$defs/code"}},
    }
    check = linear_validator(schema)
    check({"a": "xy"})
    with pytest.raises(fastjsonschema.JsonSchemaValueException):
        check({"a": "y"})


def test_the_digest_covers_both_schemas() -> None:
    one = schema_digest(_object(), None)
    assert one.startswith("sha256:")
    assert one != schema_digest(_object(), _object())
    assert one == schema_digest(_object(), None)
