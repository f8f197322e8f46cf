"""The one predicate evaluator (SPEC 20): every predicate key, and its reason codes.

Unit tests apply predicates to values; the outcome tests go through
`evaluate_outcomes` with outcomes parsed from workflow text, as the engine does.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from artemiskit import parse_agent_workflow, validate_agent_workflow
from artemiskit.engine._outcomes import evaluate_outcomes
from artemiskit.engine._predicates import (
    expected as expected_predicate,
    failed_check,
    same,
)
from artemiskit.engine._run_evidence import TracedCall
from artemiskit.workflow import RecordOutcome
from artemiskit.workflow._predicates import PREDICATE_KEYS
from tests._builders import workflow_dict
from tests._runs import workflow_of

TOOLS = [
    {"name": "read_file", "allow": {"paths": ["docs/**"]}},
    {"name": "draft_message", "allow": {"recipients": ["*@example.com"]}},
    {"name": "update_record", "allow": {"tables": ["orders"]}},
]


@pytest.mark.parametrize(
    ("predicate", "value", "expected"),
    [
        ({"equals": 100}, 100.0, None),
        ({"equals": 1}, True, "value_differs"),
        ({"equals": {"a": [1, 2]}}, {"a": [1, 2]}, None),
        ({"not_equals": "x"}, "x", "value_equal"),
        ({"one_of": ["open", "closed"]}, "closed", None),
        ({"one_of": ["open", "closed"]}, "triaged", "value_not_listed"),
        ({"contains": "30 days"}, "within 30 days.", None),
        ({"contains": ["a", "z"]}, "abc", "missing_content"),
        ({"contains": [2]}, [1, 2, 3], None),
        ({"contains": "k"}, {"k": 1}, None),
        ({"contains": "x"}, 5, "wrong_type"),
        ({"not_contains": ["refund"]}, "no money back", None),
        ({"not_contains": "refund"}, "a refund", "unwanted_content"),
        ({"matches": "^A-\\d+$"}, "A-17", None),
        ({"matches": "^A-\\d+$"}, "B-17", "pattern_not_matched"),
        ({"matches": "1"}, 1, "wrong_type"),
        ({"gt": 10}, 11, None),
        ({"gt": 10}, 10, "too_small"),
        ({"gte": 10}, 10, None),
        ({"lt": 100}, 100, "too_large"),
        ({"lte": 100}, 100, None),
        ({"gt": 1}, "12", "wrong_type"),
        ({"gt": 0}, True, "wrong_type"),
        ({"length": {"min": 1, "max": 3}}, "abc", None),
        ({"length": {"max": 1}}, [1, 2], "length_out_of_range"),
        ({"length": {"min": 1}}, 7, "wrong_type"),
        ({"json_schema": {"type": "object", "required": ["id"]}}, {"id": 1}, None),
        (
            {"json_schema": {"type": "object", "required": ["id"]}},
            {},
            "schema_mismatch",
        ),
        ({"all": [{"gt": 10}, {"lt": 20}]}, 15, None),
        ({"all": [{"gt": 10}, {"lt": 20}]}, 25, "too_large"),
        ({"any": [{"equals": 1}, {"equals": 2}]}, 2, None),
        ({"any": {"equals": 1}}, 2, "no_alternative_held"),
        ({"not": {"equals": 80}}, 81, None),
        ({"not": [{"equals": 80}, {"equals": 81}]}, 81, "negated_predicate_held"),
        ({"gt": 1, "lt": 5}, 3, None),
    ],
)
def test_each_predicate_holds_or_names_why_not(
    predicate: dict[str, Any], value: Any, expected: str | None
) -> None:
    assert failed_check(predicate, value) == expected


@pytest.mark.parametrize(
    ("predicate", "expected"),
    [
        ({"exists": True}, "value_missing"),
        ({"absent": True}, None),
        ({"equals": None}, "value_missing"),
        ({"not": {"exists": True}}, None),
        ({"any": [{"absent": True}, {"gt": 1}]}, None),
    ],
)
def test_a_missing_value_fails_everything_but_absent(
    predicate: dict[str, Any], expected: str | None
) -> None:
    assert failed_check(predicate, present=False) == expected


def test_json_equality_keeps_booleans_and_numbers_apart() -> None:
    assert same(1, 1.0)
    assert not same(True, 1)
    assert not same([1], {"0": 1})
    assert same((1, 2), [1, 2])


def _entry(tool: str, status: str, arguments: dict[str, Any] | str) -> TracedCall:
    text = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return TracedCall(tool=tool, status=status, arguments=text)  # type: ignore[arg-type]


REFUND_OK = _entry(
    "update_record",
    "succeeded",
    {"table": "orders", "id": "A-1", "fields": {"refund": 40}},
)
REFUND_BIG = _entry(
    "update_record",
    "succeeded",
    {"table": "orders", "id": "A-2", "fields": {"refund": 250}},
)
DENIED_DRAFT = _entry("draft_message", "denied", {"to": "x@evil.test"})
FAILED_READ = _entry("read_file", "failed", {"path": "docs/a.md"})
GARBLED = _entry("update_record", "succeeded", "{not json")


def decide(
    outcome: dict[str, Any],
    trace: tuple[TracedCall, ...],
    final_response: str | None = "done",
    **state: Any,
) -> tuple[str, str]:
    workflow = workflow_of(
        workflow_dict(tools=TOOLS, outcomes=[{"id": "o", **outcome}])
    )
    final_state = {
        "files": {},
        "documents": {},
        "records": {},
        "drafts": [],
        "approvals": [],
        "delegations": [],
        **state,
    }
    verification = evaluate_outcomes(
        workflow.outcomes,
        final_state=final_state,
        trace=trace,
        final_response=final_response,
        trace_complete=True,
    )
    (requirement,) = verification.requirements
    return requirement.status, requirement.reason


TRACE = (FAILED_READ, REFUND_OK, DENIED_DRAFT, REFUND_BIG)


@pytest.mark.parametrize(
    ("outcome", "expected"),
    [
        (
            {"tool_called": "update_record", "arguments": {"id": "A-1"}},
            ("passed", "satisfied"),
        ),
        (
            {"tool_called": "update_record", "arguments": {"id": "A-9"}},
            ("failed", "too_few_calls"),
        ),
        (
            {
                "tool_called": "update_record",
                "arguments": {"fields.refund": {"lte": 100}},
                "max": 1,
            },
            ("passed", "satisfied"),
        ),
        (
            {"tool_called": "update_record", "max": 1},
            ("failed", "too_many_calls"),
        ),
        (
            {
                "tool_not_called": "update_record",
                "arguments": {"fields.refund": {"gt": 100}},
            },
            ("failed", "tool_called"),
        ),
        (
            {
                "tool_not_called": "draft_message",
                "arguments": {"to": {"matches": "evil"}},
            },
            ("passed", "satisfied"),
        ),
        (
            {"tool_not_called": "read_file", "arguments": {"path": "docs/a.md"}},
            ("failed", "tool_called"),
        ),
    ],
)
def test_argument_predicates_count_only_calls_whose_original_arguments_hold(
    outcome: dict[str, Any], expected: tuple[str, str]
) -> None:
    assert decide(outcome, TRACE) == expected


def test_arguments_that_are_not_a_json_object_satisfy_no_argument_predicate() -> None:
    outcome = {"tool_called": "update_record", "arguments": {"id": {"exists": True}}}
    assert decide(outcome, (GARBLED,)) == ("failed", "too_few_calls")
    assert decide({"tool_called": "update_record"}, (GARBLED,)) == (
        "passed",
        "satisfied",
    )


@pytest.mark.parametrize(
    ("steps", "mode", "expected"),
    [
        ([{"tool": "read_file"}, {"tool": "update_record"}], "subsequence", "passed"),
        ([{"tool": "update_record"}, {"tool": "read_file"}], "subsequence", "failed"),
        (
            [{"tool": "read_file", "status": "failed"}, {"tool": "update_record"}],
            "prefix",
            "passed",
        ),
        ([{"tool": "update_record"}], "prefix", "failed"),
        (
            [
                {"tool": "read_file"},
                {"tool": "update_record", "arguments": {"id": "A-1"}},
                {"tool": "draft_message", "status": "denied"},
                {"tool": "update_record", "arguments": {"fields.refund": {"gt": 100}}},
            ],
            "exact",
            "passed",
        ),
        ([{"tool": "read_file"}, {"tool": "update_record"}], "exact", "failed"),
        (
            [{"tool": "draft_message", "status": "succeeded"}],
            "subsequence",
            "failed",
        ),
        (
            [
                {"tool": "update_record", "arguments": {"fields.refund": {"gt": 100}}},
                {"tool": "draft_message"},
            ],
            "subsequence",
            "failed",
        ),
    ],
)
def test_trajectories_in_each_mode(
    steps: list[dict[str, Any]], mode: str, expected: str
) -> None:
    outcome = {"trajectory": {"steps": steps, "mode": mode}}
    status, reason = decide(outcome, TRACE)
    assert status == expected
    assert reason == (
        "satisfied" if expected == "passed" else "trajectory_not_followed"
    )


def test_a_truncated_trace_leaves_trajectories_unavailable() -> None:
    workflow = workflow_of(
        workflow_dict(
            tools=TOOLS,
            outcomes=[{"id": "o", "trajectory": {"steps": [{"tool": "read_file"}]}}],
        )
    )
    verification = evaluate_outcomes(
        workflow.outcomes,
        final_state={"files": {}, "records": {}},
        trace=TRACE,
        final_response=None,
        trace_complete=False,
    )
    assert verification.requirements[0].reason == "trace_truncated"


@pytest.mark.parametrize(
    ("check", "answer", "expected"),
    [
        (
            {"json": {"order.id": "A-1"}},
            '{"order": {"id": "A-1"}}',
            ("passed", "satisfied"),
        ),
        (
            {"json": {"order.total": {"lte": 100}}},
            '{"order": {"total": 250}}',
            ("failed", "too_large"),
        ),
        (
            {"json": {"order.id": "A-1"}},
            '{"order": {}}',
            ("failed", "json_path_missing"),
        ),
        (
            {"json": {"items.1": {"exists": True}}},
            '{"items": [1, 2]}',
            ("passed", "satisfied"),
        ),
        ({"json": {"a": 1}}, "not json", ("failed", "not_json")),
        (
            {"not_contains": "sorry", "length": {"max": 10}},
            "All good.",
            ("passed", "satisfied"),
        ),
        ({"one_of": ["yes", "no"]}, "maybe", ("failed", "value_not_listed")),
    ],
)
def test_final_response_predicates_and_json_paths(
    check: dict[str, Any], answer: str, expected: tuple[str, str]
) -> None:
    assert decide({"final_response": check}, (), final_response=answer) == expected


def test_state_file_and_record_predicates_keep_their_kind_reasons() -> None:
    records = {"orders": {"A-1": {"refund": 40, "status": "refunded"}}}
    assert decide(
        {"state": "records.orders.A-1.refund", "gt": 50}, (), records=records
    ) == ("failed", "too_small")
    assert decide(
        {"state": "records.orders.A-9", "exists": True}, (), records=records
    ) == ("failed", "state_path_missing")
    assert decide(
        {"state": "records.orders.A-1.status", "equals": "x"}, (), records=records
    ) == ("failed", "state_differs")
    fields = {"refund": {"lte": 100}, "status": "refunded"}
    assert decide(
        {"record": {"table": "orders", "id": "A-1"}, "fields": fields},
        (),
        records=records,
    ) == ("passed", "satisfied")
    assert decide(
        {
            "record": {"table": "orders", "id": "A-1"},
            "fields": {"status": {"one_of": ["open"]}},
        },
        (),
        records=records,
    ) == ("failed", "value_not_listed")
    files = {"out/a.md": "Refund: 40 EUR"}
    assert decide(
        {"file": "out/a.md", "matches": "\\d+ EUR", "not_contains": "USD"},
        (),
        files=files,
    ) == ("passed", "satisfied")
    assert decide({"file": "out/b.md", "contains": "x"}, (), files=files) == (
        "failed",
        "file_missing",
    )
    assert decide({"file": "out/a.md", "absent": True}, (), files=files) == (
        "failed",
        "file_present",
    )


#: A child process that evaluates a catastrophic pattern on a long answer.
_PATHOLOGICAL = """
import resource, sys
resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS))
from artemiskit.engine._predicates import failed_check
answer = "a" * 1_000_000 + "!"
print(failed_check({"matches": "^(a+)+$"}, answer))
print(failed_check({"matches": "(a|aa)*b"}, answer))
print(failed_check({"matches": "(a|a)*!$"}, answer))
"""


def test_a_pathological_pattern_on_a_long_answer_is_bounded_work() -> None:
    """A bound on work (CPU seconds, as a resource limit), not on wall time.

    A backtracking engine needs about 2^n steps for ``^(a+)+$`` on n letters
    followed by a mismatch: with n = 1,000,000 it would never finish, and the
    kernel would kill the child at the CPU limit. The linear engine scans the
    text a bounded number of times, so the child finishes well within it (and a
    pattern that does not match is ``failed``, never ``unavailable``).
    """
    limit = 20
    done = subprocess.run(
        [sys.executable, "-c", _PATHOLOGICAL.replace("CPU_SECONDS", str(limit))],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["pattern_not_matched", "pattern_not_matched", "None"]


_JSON: st.SearchStrategy[Any] = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from([*PREDICATE_KEYS, "x", "min", "max"]), inner, max_size=3
        )
    ),
    max_leaves=8,
)


@settings(max_examples=150, deadline=None)
@given(expected=_JSON, actual=_JSON)
def test_any_expected_value_is_refused_or_evaluates_without_raising(
    expected: Any, actual: Any
) -> None:
    """Fuzz: the loader refuses a bad predicate with located problems only, and the
    evaluator applies any predicate it accepted to any value without raising."""
    data = workflow_dict(
        tools=TOOLS,
        outcomes=[
            {"id": "r", "record": {"table": "t", "id": "1"}, "fields": {"f": expected}}
        ],
    )
    problems = validate_agent_workflow(json.dumps(data))
    if problems:
        assert all(p.path and p.line is not None for p in problems)
        return
    outcome = parse_agent_workflow(json.dumps(data)).outcomes[0]
    assert isinstance(outcome, RecordOutcome)
    code = failed_check(expected_predicate(outcome.fields["f"]), actual)
    assert code is None or code.isidentifier()
