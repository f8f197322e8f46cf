"""Outcome evaluation (SPEC 3.3): every requirement kind, every verdict, the overall.

Unit tests call `evaluate_outcomes` with outcomes parsed from workflow text and a
final state in the SPEC 3.1 layout; the last tests check the same rules end to end
through the SDK, where they decide the exit code.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from artemiskit.engine._outcomes import evaluate_outcomes, unavailable_verification
from artemiskit.engine._run_evidence import TracedCall
from artemiskit.records import RequirementResult
from tests._builders import workflow_dict
from tests._runs import call, calling, run, workflow_of

FILES = {"out/summary.md": "Refunds within 30 days.", "docs/a.md": "x"}
RECORDS = {"tickets": {"T-1": {"status": "closed", "owner": "ops"}}}
DRAFTS = [{"id": "draft-1", "to": "ops@example.com", "status": "draft"}]


def outcomes(*specs: dict[str, Any]) -> tuple[Any, ...]:
    data = workflow_dict(
        outcomes=[{"id": f"o{i}", **spec} for i, spec in enumerate(specs)]
    )
    return workflow_of(data).outcomes


def final_state(**changes: Any) -> dict[str, Any]:
    state: dict[str, Any] = {
        "files": dict(FILES),
        "documents": {},
        "records": RECORDS,
        "drafts": DRAFTS,
        "approvals": [],
        "delegations": [],
    }
    state.update(changes)
    return state


def evaluate(
    *specs: dict[str, Any],
    trace: tuple[TracedCall, ...] = (),
    final_response: str | None = "All done: 30 days.",
    trace_complete: bool = True,
    judged: dict[str, Any] | None = None,
    **state: Any,
) -> Any:
    return evaluate_outcomes(
        outcomes(*specs),
        final_state=final_state(**state),
        trace=trace,
        final_response=final_response,
        trace_complete=trace_complete,
        decided=None
        if judged is None
        else {
            key: RequirementResult(id=key, kind="judge", status=status, reason=reason)
            for key, (status, reason) in judged.items()
        },
    )


def verdict(spec: dict[str, Any], **kwargs: Any) -> tuple[str, str]:
    verification = evaluate(spec, **kwargs)
    (requirement,) = verification.requirements
    return requirement.status, requirement.reason


def entry(tool: str, status: str) -> TracedCall:
    return TracedCall(tool=tool, status=status)  # type: ignore[arg-type]


SUCCEEDED = entry("read_file", "succeeded")
FAILED = entry("read_file", "failed")
DENIED = entry("read_file", "denied")
PASSED = ("passed", "satisfied")


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ({"file": "out/summary.md", "exists": True}, PASSED),
        ({"file": "out/missing.md", "exists": True}, ("failed", "file_missing")),
        ({"file": "out/summary.md", "contains": ["30 days", "Refunds"]}, PASSED),
        (
            {"file": "out/summary.md", "contains": ["30 days", "60 days"]},
            ("failed", "missing_content"),
        ),
        ({"file": "out/summary.md", "equals": "Refunds within 30 days."}, PASSED),
        (
            {"file": "out/summary.md", "equals": "Refunds within 30 days"},
            ("failed", "content_differs"),
        ),
        ({"file": "out/summary.md", "matches": r"\d+ days"}, PASSED),
        (
            {"file": "out/summary.md", "matches": r"\d+ weeks"},
            ("failed", "pattern_not_matched"),
        ),
        ({"file": "out/missing.md", "absent": True}, PASSED),
        ({"file": "out/summary.md", "absent": True}, ("failed", "file_present")),
        ({"file": "./out//summary.md", "contains": ["30"]}, PASSED),
        (
            {"file": "out/missing.md", "contains": ["30 days"]},
            ("failed", "file_missing"),
        ),
    ],
)
def test_file_requirements(spec: dict[str, Any], expected: tuple[str, str]) -> None:
    assert verdict(spec) == expected


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ({"record": {"table": "tickets", "id": "T-1"}}, PASSED),
        (
            {
                "record": {"table": "tickets", "id": "T-1"},
                "fields": {"status": "closed"},
            },
            PASSED,
        ),
        (
            {
                "record": {"table": "tickets", "id": "T-1"},
                "fields": {"status": "closed", "owner": "ops"},
            },
            PASSED,
        ),
        (
            {"record": {"table": "tickets", "id": "T-1"}, "fields": {"status": "open"}},
            ("failed", "fields_differ"),
        ),
        (
            {
                "record": {"table": "tickets", "id": "T-1"},
                "fields": {"status": "closed", "owner": "sales"},
            },
            ("failed", "fields_differ"),
        ),
        (
            {"record": {"table": "tickets", "id": "T-1"}, "fields": {"priority": 1}},
            ("failed", "fields_differ"),
        ),
        ({"record": {"table": "tickets", "id": "T-9"}}, ("failed", "record_missing")),
        ({"record": {"table": "users", "id": "T-1"}}, ("failed", "record_missing")),
    ],
)
def test_record_requirements(spec: dict[str, Any], expected: tuple[str, str]) -> None:
    assert verdict(spec) == expected


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ({"state": "records.tickets.T-1.status", "equals": "closed"}, PASSED),
        (
            {"state": "records.tickets.T-1.status", "equals": "open"},
            ("failed", "state_differs"),
        ),
        ({"state": "drafts.0.status", "equals": "draft"}, PASSED),
        (
            {"state": "drafts.1.status", "equals": "draft"},
            ("failed", "state_path_missing"),
        ),
        (
            {"state": "drafts.first.status", "equals": "draft"},
            ("failed", "state_path_missing"),
        ),
        (
            {"state": "records.tickets.T-2", "equals": None},
            ("failed", "state_path_missing"),
        ),
        ({"state": "approvals", "equals": []}, PASSED),
        ({"state": "records.tickets.T-1", "equals": RECORDS["tickets"]["T-1"]}, PASSED),
    ],
)
def test_state_requirements(spec: dict[str, Any], expected: tuple[str, str]) -> None:
    assert verdict(spec) == expected


@pytest.mark.parametrize(
    ("spec", "trace", "expected"),
    [
        ({"tool_called": "read_file"}, (), ("failed", "too_few_calls")),
        ({"tool_called": "read_file"}, (SUCCEEDED,), PASSED),
        ({"tool_called": "read_file"}, (FAILED,), ("failed", "too_few_calls")),
        ({"tool_called": "read_file"}, (DENIED,), ("failed", "too_few_calls")),
        (
            {"tool_called": "read_file"},
            (entry("write_file", "succeeded"),),
            ("failed", "too_few_calls"),
        ),
        (
            {"tool_called": "read_file", "min": 2},
            (SUCCEEDED,),
            ("failed", "too_few_calls"),
        ),
        (
            {"tool_called": "read_file", "min": 2},
            (SUCCEEDED, FAILED, SUCCEEDED),
            PASSED,
        ),
        ({"tool_called": "read_file", "max": 1}, (), PASSED),
        ({"tool_called": "read_file", "max": 1}, (SUCCEEDED, FAILED), PASSED),
        (
            {"tool_called": "read_file", "max": 1},
            (SUCCEEDED, SUCCEEDED),
            ("failed", "too_many_calls"),
        ),
        ({"tool_called": "read_file", "min": 0}, (), PASSED),
        ({"tool_called": "read_file", "min": 1, "max": 1}, (SUCCEEDED,), PASSED),
        (
            {"tool_called": "read_file", "min": 1, "max": 1},
            (SUCCEEDED, SUCCEEDED),
            ("failed", "too_many_calls"),
        ),
    ],
)
def test_tool_called_counts_successful_calls(
    spec: dict[str, Any], trace: tuple[TracedCall, ...], expected: tuple[str, str]
) -> None:
    assert verdict(spec, trace=trace) == expected


@pytest.mark.parametrize(
    ("trace", "expected"),
    [
        ((), PASSED),
        ((entry("write_file", "succeeded"),), PASSED),
        ((DENIED,), PASSED),
        ((SUCCEEDED,), ("failed", "tool_called")),
        ((FAILED,), ("failed", "tool_called")),
        ((DENIED, FAILED), ("failed", "tool_called")),
    ],
)
def test_tool_not_called_fails_for_any_call_that_ran(
    trace: tuple[TracedCall, ...], expected: tuple[str, str]
) -> None:
    assert verdict({"tool_not_called": "read_file"}, trace=trace) == expected


@pytest.mark.parametrize(
    "spec",
    [
        {"tool_called": "read_file"},
        {"tool_called": "read_file", "max": 3},
        {"tool_not_called": "read_file"},
    ],
)
@pytest.mark.parametrize("trace", [(), (SUCCEEDED,)])
def test_trace_assertions_on_a_truncated_trace_are_unavailable(
    spec: dict[str, Any], trace: tuple[TracedCall, ...]
) -> None:
    result = verdict(spec, trace=trace, trace_complete=False)
    assert result == ("unavailable", "trace_truncated")


def test_a_truncated_trace_leaves_other_kinds_evaluated() -> None:
    assert verdict(OK, trace_complete=False) == PASSED


@pytest.mark.parametrize(
    ("check", "response", "expected"),
    [
        ({"contains": ["30 days"]}, "All done: 30 days.", PASSED),
        (
            {"contains": ["30 days", "60"]},
            "All done: 30 days.",
            ("failed", "missing_content"),
        ),
        ({"matches": r"^All"}, "All done: 30 days.", PASSED),
        (
            {"matches": r"^Done"},
            "All done: 30 days.",
            ("failed", "pattern_not_matched"),
        ),
        ({"contains": ["x"]}, None, ("failed", "no_final_response")),
    ],
)
def test_final_response_requirements(
    check: dict[str, Any], response: str | None, expected: tuple[str, str]
) -> None:
    spec = {"final_response": check}
    assert verdict(spec, final_response=response) == expected


JUDGE = {"judge": {"rubric": "Accurate.", "threshold": 0.7}}


def test_judge_without_a_judge_is_unavailable() -> None:
    assert verdict(JUDGE) == ("unavailable", "judge_not_configured")


@pytest.mark.parametrize(
    "judged", [("passed", "score_met"), ("failed", "score_below_threshold")]
)
def test_judge_verdicts_are_taken_as_given(judged: tuple[str, str]) -> None:
    assert verdict(JUDGE, judged={"o0": judged}) == judged


def test_a_verdict_for_another_judge_id_leaves_this_one_unavailable() -> None:
    result = verdict(JUDGE, judged={"other": ("passed", "score_met")})
    assert result == ("unavailable", "judge_not_configured")


OK = {"file": "out/summary.md", "exists": True}
BAD = {"file": "out/missing.md", "exists": True}
UNKNOWN = {"tool_called": "read_file"}  # unavailable on a truncated trace


@pytest.mark.parametrize(
    ("specs", "status", "reason"),
    [
        ((OK,), "passed", "all_requirements_passed"),
        ((OK, OK), "passed", "all_requirements_passed"),
        ((BAD,), "failed", "requirement_failed"),
        ((OK, BAD), "failed", "requirement_failed"),
        ((UNKNOWN,), "unavailable", "requirement_unavailable"),
        ((OK, UNKNOWN), "unavailable", "requirement_unavailable"),
        ((UNKNOWN, BAD), "failed", "requirement_failed"),
        ((BAD, UNKNOWN), "failed", "requirement_failed"),
        ((OK, UNKNOWN, BAD), "failed", "requirement_failed"),
    ],
)
def test_overall_failed_beats_unavailable_beats_passed(
    specs: tuple[dict[str, Any], ...], status: str, reason: str
) -> None:
    verification = evaluate(*specs, trace_complete=False)
    assert (verification.status, verification.reason) == (status, reason)
    assert [r.id for r in verification.requirements] == [
        f"o{i}" for i in range(len(specs))
    ]


def test_no_outcomes_is_unavailable_never_passed() -> None:
    verification = evaluate_outcomes(
        (),
        final_state=final_state(),
        trace=(),
        final_response="Done.",
        trace_complete=True,
    )
    assert verification.status == "unavailable"
    assert verification.reason == "no_outcomes_declared"
    assert verification.requirements == ()


def test_requirements_name_their_kind() -> None:
    verification = evaluate(
        OK,
        {"record": {"table": "tickets", "id": "T-1"}},
        {"state": "approvals", "equals": []},
        {"tool_called": "read_file", "min": 0},
        {"tool_not_called": "write_file"},
        {"final_response": {"contains": ["30"]}},
        JUDGE,
    )
    assert [r.kind for r in verification.requirements] == [
        "file",
        "record",
        "state",
        "tool_called",
        "tool_not_called",
        "final_response",
        "judge",
    ]


def test_an_incomplete_execution_makes_every_requirement_unavailable() -> None:
    verification = unavailable_verification(outcomes(OK, BAD), "execution_incomplete")
    assert verification.status == "unavailable"
    assert verification.reason == "execution_incomplete"
    assert [(r.id, r.kind, r.status, r.reason) for r in verification.requirements] == [
        ("o0", "file", "unavailable", "execution_incomplete"),
        ("o1", "file", "unavailable", "execution_incomplete"),
    ]


# End to end: the same rules decide the run's verdict and exit code.

MISSING = call("read_file", {"path": "docs/missing.md"})


async def test_a_call_that_ran_and_failed_breaks_tool_not_called() -> None:
    data = workflow_dict(outcomes=[{"id": "no-read", "tool_not_called": "read_file"}])
    result = await run(data, [calling(MISSING)])
    record = result.record
    assert record.execution.status == "completed"
    assert [
        (r.id, r.status, r.reason) for r in record.task_verification.requirements
    ] == [("no-read", "failed", "tool_called")]
    assert record.exit_code == 8


async def test_failed_and_unavailable_requirements_exit_8_not_9() -> None:
    data = workflow_dict(
        outcomes=[
            {"id": "tone", **JUDGE},
            {"id": "summary", "file": "out/summary.md", "exists": True},
        ]
    )
    result = await run(data, [])
    assert result.record.task_verification.status == "failed"
    assert result.exit_code == 8


async def test_only_unavailable_requirements_exit_9() -> None:
    data = workflow_dict(outcomes=[{"id": "tone", **JUDGE}])
    result = await run(data, [])
    assert result.record.task_verification.status == "unavailable"
    assert result.exit_code == 9


async def test_a_workflow_without_outcomes_exits_9() -> None:
    result = await run(workflow_dict(outcomes=[]), [])
    assert result.record.execution.status == "completed"
    assert result.record.task_verification.status == "unavailable"
    assert result.exit_code == 9


async def test_tool_called_without_bounds_needs_one_successful_call() -> None:
    data = workflow_dict(outcomes=[{"id": "read", "tool_called": "read_file"}])
    never = await run(data, [])
    assert never.exit_code == 8
    failed = await run(data, [calling(MISSING)])
    assert failed.exit_code == 8
    read = await run(data, [calling(call("read_file", {"path": "docs/policy.md"}))])
    assert read.exit_code == 0


@pytest.mark.parametrize(
    "path", ["out/summary.md", "./out//summary.md", "out/./summary.md"]
)
def test_a_file_path_built_in_python_is_normalized_too(path: str) -> None:
    # a Workflow built in Python skips the loader's normalization
    (loaded,) = outcomes({"file": "out/summary.md", "contains": ["30 days"]})
    verification = evaluate_outcomes(
        (attrs.evolve(loaded, file=path),),
        final_state=final_state(),
        trace=(),
        final_response=None,
        trace_complete=True,
    )
    assert verification.status == "passed"
