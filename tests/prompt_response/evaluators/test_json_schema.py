"""``json_schema``: the fenced or whole response against the understood subset."""

from __future__ import annotations

from tests.prompt_response.evaluators._helpers import judge

SCHEMA = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "age": {"type": "integer"},
        "tags": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["name", "age"],
}


async def test_a_fenced_block_is_used_and_extra_properties_are_allowed() -> None:
    text = 'Here:\n```json\n{"name": "a", "age": 3, "extra": true}\n```'
    result = await judge(text, {"type": "json_schema", "schema": SCHEMA})
    assert (result.passed, result.reason) == (True, "Response matches JSON schema")


async def test_issues_are_listed_in_the_zod_wording() -> None:
    text = '{"age": 2.5, "tags": ["x", 1]}'
    result = await judge(text, {"type": "json_schema", "schema": SCHEMA})
    assert result.reason == (
        "Schema validation failed: name: Required, "
        "age: Expected integer, received float, "
        "tags.1: Expected string, received number"
    )


async def test_unknown_keywords_are_ignored() -> None:
    schema = {"type": "string", "enum": ["a"], "minLength": 5}
    assert (await judge('"zzz"', {"type": "json_schema", "schema": schema})).passed


async def test_unparseable_json_fails() -> None:
    result = await judge("```JSON\n{}\n```", {"type": "json_schema", "schema": SCHEMA})
    assert result.reason is not None
    assert result.reason.startswith("Failed to parse JSON: ")
    nan = await judge("NaN", {"type": "json_schema", "schema": {"type": "number"}})
    assert not nan.passed
