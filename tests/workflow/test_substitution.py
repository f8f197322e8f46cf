"""Case substitution (SPEC section 19): typed whole values, escapes, refusals."""

from __future__ import annotations

import pytest

from artemiskit._common._substitution import (
    Placeholder,
    TemplateError,
    fixed_placeholder_paths,
    has_placeholder,
    names_in,
    parse_template,
    substitute,
)

CASE = {
    "ticket": "T-1",
    "count": 3,
    "ok": True,
    "order": {"id": "o-9", "items": [1, 2]},
    "nothing": None,
}


def test_whole_value_keeps_the_json_type() -> None:
    assert substitute("{{ count }}", CASE) == 3
    assert substitute("{{ok}}", CASE) is True
    assert substitute("{{ nothing }}", CASE) is None
    assert substitute("{{ order }}", CASE) == {"id": "o-9", "items": [1, 2]}


def test_inside_a_longer_string_non_strings_are_compact_json() -> None:
    assert substitute("n={{ count }}", CASE) == "n=3"
    assert substitute("{{ order }}!", CASE) == '{"id":"o-9","items":[1,2]}!'
    assert substitute("Ticket {{ ticket }}: {{ ok }}", CASE) == "Ticket T-1: true"


def test_dotted_names_reach_into_objects() -> None:
    assert substitute("{{ order.id }}", CASE) == "o-9"
    assert substitute("{{ order.items }}", CASE) == [1, 2]


def test_escaped_braces_are_literal_and_dollar_forms_stay() -> None:
    assert substitute(r"\{{ ticket }}", CASE) == "{{ ticket }}"
    assert substitute(r"a \{{ b {{ ticket }}", CASE) == "a {{ b T-1"
    assert substitute("${HOME} {{ ticket }}", CASE) == "${HOME} T-1"
    assert not has_placeholder(r"\{{ x }}")
    assert has_placeholder(r"\{{ x }} {{")


def test_mappings_lists_and_file_name_keys() -> None:
    value = {"orders/{{ order.id }}.json": ["{{ count }}", "x{{ count }}"], "k": 1}
    assert substitute(value, CASE, keys=True) == {"orders/o-9.json": [3, "x3"], "k": 1}
    assert substitute(value, CASE) == {"orders/{{ order.id }}.json": [3, "x3"], "k": 1}


@pytest.mark.parametrize(
    "text",
    ["{{ a + b }}", "{{ a | upper }}", "{{ }}", "{{ a..b }}", "{{ a", "{{ f(x) }}"],
)
def test_expressions_filters_and_unclosed_braces_are_refused(text: str) -> None:
    with pytest.raises(TemplateError):
        parse_template(text)


def test_a_missing_name_is_named_without_case_values() -> None:
    with pytest.raises(TemplateError, match=r"'order\.sku'") as caught:
        substitute("{{ order.sku }}", CASE)
    assert "o-9" not in str(caught.value)


def test_names_in_collects_keys_and_values() -> None:
    assert names_in({"{{ a }}": ["{{ b.c }}", 1], "x": "y{{ d }}"}) == {"a", "b.c", "d"}
    assert parse_template("x{{ a }}y") == ("x", Placeholder(name="a"), "y")


def test_scanning_is_linear_on_hostile_text() -> None:
    text = "{" * 200_000 + "\\" * 200_000
    with pytest.raises(TemplateError):
        parse_template(text)
    assert parse_template("\\{{" * 100_000) == ("{{" * 100_000,)
    assert has_placeholder("\\{{" * 100_000) is False


def test_placeholders_in_fixed_sections_are_found_by_key_path() -> None:
    document = {
        "target": {"provider": "scripted", "model": "{{ model }}"},
        "tools": [{"name": "read", "allow": {"paths": ["orders/{{ id }}*"]}}],
        "policy": {"{{ k }}": 1},
        "budgets": {"max_turns": 3},
        "conversation": {"turns": [{"user": "{{ ticket }}"}]},
        "environment": {"files": {"a": r"\{{ literal }}"}},
    }
    assert fixed_placeholder_paths(document) == (
        ("target", "model"),
        ("tools", 0, "allow", "paths", 0),
        ("policy", "{{ k }}"),
    )
    assert fixed_placeholder_paths({"target": {"model": r"\{{ x }}"}}) == ()
