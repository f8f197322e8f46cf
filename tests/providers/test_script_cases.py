"""Scripts per case (SPEC 19): ``cases:`` replaces the lists, text is substituted."""

from __future__ import annotations

import json

import pytest

from artemiskit import WorkflowError
from artemiskit.providers import ScriptCase
from artemiskit.providers._scripted import parse_script_variants

SCRIPT = """\
version: 1
responses:
  - tool_calls:
      - {name: read_file, arguments: {path: "orders/{{ order_id }}.json"}}
  - text: "Ticket {{ ticket }}: {{ decision }}"
cases:
  special:
    variants:
      - - text: "special {{ ticket }}"
      - - text: second
"""


def _texts(variants: tuple[tuple[object, ...], ...]) -> list[list[object]]:
    return [[getattr(e, "text", None) for e in v] for v in variants]


def test_a_case_without_an_entry_replays_the_top_level_lists_filled_in() -> None:
    case = ScriptCase("t-1", {"order_id": "o-1", "ticket": 7, "decision": "ok"})
    (variant,) = parse_script_variants(SCRIPT, case=case)
    assert json.loads(variant[0].tool_calls[0].arguments) == {"path": "orders/o-1.json"}
    assert variant[1].text == "Ticket 7: ok"


def test_a_case_entry_replaces_the_top_level_lists() -> None:
    case = ScriptCase("special", {"ticket": "T-9"})
    variants = parse_script_variants(SCRIPT, case=case)
    assert _texts(variants) == [["special T-9"], ["second"]]


def test_without_a_case_placeholders_stay_literal() -> None:
    (variant,) = parse_script_variants(SCRIPT)
    assert variant[1].text == "Ticket {{ ticket }}: {{ decision }}"


def test_a_name_the_case_lacks_is_located_without_values() -> None:
    case = ScriptCase("t-2", {"order_id": "SENTINEL-SCRIPT", "ticket": 1})
    with pytest.raises(WorkflowError) as caught:
        parse_script_variants(SCRIPT, source="a.script.yaml", case=case)
    (problem,) = caught.value.problems
    assert problem.path == "$.responses"
    assert "case t-2" in problem.message
    assert "'decision'" in problem.message
    assert "SENTINEL" not in str(caught.value) + problem.message


def test_a_script_with_only_cases_needs_a_case_entry() -> None:
    text = "version: 1\ncases:\n  a: {responses: [{text: hi}]}\n"
    assert _texts(parse_script_variants(text, case=ScriptCase("a", {}))) == [["hi"]]
    with pytest.raises(WorkflowError, match="no responses for this case"):
        parse_script_variants(text, case=ScriptCase("b", {}))
    with pytest.raises(WorkflowError, match="no responses for a run without a case"):
        parse_script_variants(text)


@pytest.mark.parametrize(
    "cases",
    ["[1]", "{a: [1]}", "{a: {responses: [{text: x}], other: 1}}", "{a: {}}"],
)
def test_malformed_case_entries_are_refused(cases: str) -> None:
    with pytest.raises(WorkflowError):
        parse_script_variants(f"version: 1\nresponses: [{{text: x}}]\ncases: {cases}\n")
