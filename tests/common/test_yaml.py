"""`parse_yaml`: plain data, positions, refused constructs, the schema helpers."""

from __future__ import annotations

import math

import attrs
import fastjsonschema
import pytest

from artemiskit import WorkflowError
from artemiskit._common._yaml import format_path, parse_yaml_plain
from artemiskit.workflow import parse_yaml
from artemiskit.workflow._schema import SchemaChecker, describe_rule, schema_problems


def test_plain_data_and_positions() -> None:
    doc = parse_yaml("a: 1\nb:\n  - x\n  - {c: 017, d: yes, e: .nan}\n", source="f")
    assert doc.data["a"] == 1
    assert doc.data["b"][0] == "x"
    inner = doc.data["b"][1]
    assert inner["c"] == 17
    assert inner["d"] == "yes"  # YAML 1.2: not a boolean
    assert math.isnan(inner["e"])
    assert type(doc.data) is dict
    assert type(doc.data["b"]) is list
    assert doc.position(("b", 1, "d")) == (4, 17)
    assert doc.key_position(("b", 1, "d")) == (4, 14)
    assert doc.position(("b", 9, "zz")) == (3, 3)  # nearest ancestor
    assert doc.position(()) == (1, 1)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("v: 0x1F", 31),
        ("v: 0o17", 15),
        ("v: 1_000", 1000),
        ("v: -5", -5),
        ("v: 1e3", 1000.0),
        ("v: -.inf", -math.inf),
        ("v: ~", None),
        ("v:", None),
        ("v: True", True),
        ("v: 'true'", "true"),
        ("v: on", "on"),
        ("v: ${X}", "${X}"),
    ],
)
def test_scalars_follow_yaml_1_2(text: str, value: object) -> None:
    assert parse_yaml(text).data["v"] == value


@pytest.mark.parametrize(
    ("text", "rule", "path", "line"),
    [
        ("a: 1\na: 2\n", "duplicate key", "$.a", 2),
        ("a: !!str 1", "tags", "$.a", 1),
        ("a: !custom {}", "tags", "$.a", 1),
        ("a: &x 1\nb: 2", "anchors", "$.a", 1),
        ("a: [1]\nb: *x", "aliases", "$.b", 2),
        ("<<: {a: 1}", "merge keys", "$", 1),
        ("1: a", "keys must be strings", "$", 1),
        ("null: a", "keys must be strings", "$", 1),
        ("? [a]\n: b", "keys must be strings", "$", 1),
        ("---\na: 1\n---\nb: 2\n", "exactly one YAML document", "$", 3),
        ("a: 1" + "0" * 5000, "too large", "$.a", 1),
        ("[" * 100 + "]" * 100, "levels deep", "$", 1),
        ("\ta: 1", "YAML syntax error", "$", 1),
    ],
)
def test_refused(text: str, rule: str, path: str, line: int) -> None:
    with pytest.raises(WorkflowError) as caught:
        parse_yaml(text, source="f.yaml")
    (problem,) = caught.value.problems
    assert rule in problem.message
    assert problem.path.startswith(path)
    assert problem.line == line
    assert problem.source == "f.yaml"


def test_control_characters_are_refused_without_echo() -> None:
    with pytest.raises(WorkflowError) as caught:
        parse_yaml("a: secret\x00value")
    assert "secret" not in str(caught.value)


def test_format_path_quotes_odd_keys() -> None:
    assert format_path(("a", 2, "b_c-d")) == "$.a[2].b_c-d"
    assert format_path(("files", "docs/a.md")) == '$.files["docs/a.md"]'
    assert format_path(('q"',)) == '$["q\\""]'
    assert format_path(("\ud800", "a\nb")) == '$["\\ud800"]["a\\u000ab"]'


def test_schema_problems_helper_names_the_path_not_the_value() -> None:
    doc = parse_yaml_plain("outer:\n  items:\n    - {n: 1}\n    - {n: SECRET}\n")
    validator = fastjsonschema.compile(
        {
            "type": "object",
            "properties": {
                "items": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {"n": {"type": "integer"}},
                    },
                }
            },
        }
    )
    (problem,) = schema_problems(validator, doc.data["outer"], doc, ("outer",))
    assert problem.path == "$.outer.items[1].n"
    assert problem.message == "must be an integer"
    assert (problem.line, problem.column) == (4, 11)
    assert "SECRET" not in str(problem)
    assert schema_problems(validator, {"items": []}, doc) == []


def test_checker_reports_required_and_unknown_keys() -> None:
    checker = SchemaChecker(
        {
            "type": "object",
            "properties": {"a": {"type": "string"}, "b": {"$ref": "#/$defs/b"}},
            "required": ["a", "b"],
            "additionalProperties": False,
            "$defs": {"b": {"type": "integer", "maximum": 3}},
        }
    )
    doc = parse_yaml_plain("x: 1\ny: 2\n")
    found = {
        (p.path, p.message.split(" (")[0]) for p in checker.problems(doc.data, doc)
    }
    assert found == {
        ("$.a", "is required"),
        ("$.b", "is required"),
        ("$.x", "is not a known key"),
        ("$.y", "is not a known key"),
    }
    doc = parse_yaml_plain("a: s\nb: 9\n")
    (problem,) = checker.problems(doc.data, doc)
    assert (problem.path, problem.message) == ("$.b", "must be ≤ 3")


@pytest.mark.parametrize(
    ("rule", "definition", "text"),
    [
        ("type", "integer", "must be an integer"),
        ("type", ["string", "null"], "must be a string or null"),
        ("enum", ["a", "b"], "must be one of: a, b"),
        ("const", True, "must be true"),
        ("minimum", 1, "must be ≥ 1"),
        ("exclusiveMaximum", 2, "must be < 2"),
        ("minLength", 1, "must not be empty"),
        ("maxItems", 32, "must have at most 32 items"),
        ("pattern", "^x$", "does not have the required form"),
        ("uniqueItems", True, "breaks the schema rule 'uniqueItems'"),
    ],
)
def test_describe_rule(rule: str, definition: object, text: str) -> None:
    assert describe_rule(rule, definition) == text


def test_a_document_s_repr_names_its_source_never_its_data() -> None:
    doc = parse_yaml("api_key: SENTINEL-SECRET\n", source="config.yaml")
    assert "SENTINEL" not in repr(doc)
    assert "config.yaml" in repr(doc)


def test_the_public_document_is_an_attrs_class_with_positions() -> None:
    doc = parse_yaml("a:\n  b: 1\n", source="f.yaml")
    assert attrs.has(type(doc))
    assert doc.data == {"a": {"b": 1}}
    assert doc.position(("a", "b")) == (2, 6)
    assert doc.key_position(("a", "b")) == (2, 3)
    problem = doc.problem("must be a string", ("a", "b"))
    assert (problem.source, problem.line, problem.column) == ("f.yaml", 2, 6)
