"""Every record's verdict and its first decisive cause (SPEC 20, record version 4).

Each way a run can end is run for real through the SDK (a replaying target, the
scripted provider, an environment that leaks) and the record must say what it
amounts to: passed, failed (a failed requirement, or the agent's own conduct
stopped it), errored (infrastructure), unavailable (verification undecided).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest

from artemiskit import ArtemisKit, TargetError, TargetRequest, TargetResponse
from artemiskit.records import (
    Cause,
    RunVerdict,
    record_from_dict,
    record_to_dict,
)
from artemiskit.records._verdict import verdict_status
from tests._builders import USAGE, workflow_dict, write_workflow
from tests._environments import DictFactory
from tests._runs import call, calling, run

READ = call("read_file", {"path": "docs/policy.md"})
WRITE = call("write_file", {"path": "out/summary.md", "content": "30 days"})
PASSING = [calling(READ), calling(WRITE)]


async def test_a_verified_run_passed_with_no_cause() -> None:
    record = (await run(workflow_dict(), PASSING)).record
    assert record.verdict == RunVerdict(status="passed", why=None)
    assert record_to_dict(record)["verdict"] == {"status": "passed", "why": None}


async def test_a_failed_requirement_is_the_cause_of_a_failure() -> None:
    data = workflow_dict(
        outcomes=[
            {"id": "read-it", "tool_called": "read_file"},
            {"id": "summary", "file": "out/summary.md", "contains": ["30 days"]},
            {"id": "mail", "tool_not_called": "read_file"},
        ]
    )
    record = (await run(data, [calling(READ)])).record
    assert record.exit_code == 8
    # The first failed requirement in declaration order decides.
    assert record.verdict == RunVerdict(
        status="failed",
        why=Cause(kind="requirement", id="summary", reason="file_missing"),
    )
    assert record.verdict.why is not None
    assert record.verdict.why.text == "summary (file_missing)"


async def test_a_policy_denial_that_stops_the_run_is_a_failure() -> None:
    denied = call("write_file", {"path": "secret/x.md", "content": "x"})
    record = (await run(workflow_dict(), [calling(READ), calling(denied)])).record
    assert record.exit_code == 4
    assert record.verdict.status == "failed"
    assert record.verdict.why == Cause(
        kind="stop",
        id="policy_denied",
        reason=record.execution.reason,
        # The model request that asked for the denied call: operation 3.
        step=3,
    )


async def test_an_exhausted_budget_is_a_failure_never_unavailable() -> None:
    budgets = {"max_actions": 20, "timeout_ms": 30000, "max_tool_calls": 1}
    record = (await run(workflow_dict(budgets=budgets), PASSING)).record
    assert record.exit_code == 5
    assert record.task_verification.status == "unavailable"
    assert record.verdict.status == "failed"
    why = record.verdict.why
    assert why is not None
    assert (why.kind, why.id) == ("stop", "budget_exhausted")
    assert why.reason == record.execution.reason
    assert why.step == record.timeline.entries[-1].number


class _Hanging:
    """A target that never answers: the workflow deadline ends the run."""

    async def respond(self, request: TargetRequest) -> TargetResponse:
        await anyio.sleep_forever()
        raise AssertionError("unreachable")


async def test_the_deadline_is_a_failure() -> None:
    workflow = workflow_dict(budgets={"max_actions": 20, "timeout_ms": 50})
    record = (
        await ArtemisKit().run_workflow(workflow=_parsed(workflow), target=_Hanging())
    ).record
    assert record.exit_code == 6
    assert record.verdict.status == "failed"
    assert record.verdict.why is not None
    assert record.verdict.why.id == "deadline_exceeded"
    assert record.verdict.why.kind == "stop"


class _Failing:
    """A target whose transport fails on the second request."""

    def __init__(self) -> None:
        self.requests = 0

    async def respond(self, request: TargetRequest) -> TargetResponse:
        await anyio.lowlevel.checkpoint()
        self.requests += 1
        if self.requests == 1:
            return calling(READ)
        raise TargetError("the provider answered 503", reason="provider_unavailable")


async def test_a_provider_failure_is_errored_at_its_step() -> None:
    record = (
        await ArtemisKit().run_workflow(
            workflow=_parsed(workflow_dict()), target=_Failing()
        )
    ).record
    assert record.exit_code == 7
    assert record.verdict == RunVerdict(
        status="errored",
        why=Cause(
            kind="infrastructure",
            id="runtime_failure",
            reason="provider_unavailable",
            step=3,
        ),
    )


async def test_an_exhausted_scripted_script_is_errored(tmp_path: Path) -> None:
    script = [{"tool_calls": [READ_ENTRY], "usage": USAGE}]
    path = write_workflow(tmp_path, script=script)
    record = (await ArtemisKit().run_workflow(workflow=path)).record
    assert record.exit_code == 7
    assert record.verdict.status == "errored"
    assert record.verdict.why is not None
    assert record.verdict.why.kind == "infrastructure"
    assert record.verdict.why.reason == "script_exhausted"


READ_ENTRY: dict[str, Any] = {"name": "read_file", "arguments": {"path": "docs/x"}}


async def test_unmeasured_usage_under_max_tokens_is_errored() -> None:
    budgets = {"max_actions": 20, "timeout_ms": 30000, "max_tokens": 1000}
    record = (
        await run(workflow_dict(budgets=budgets), [calling(READ, usage=None)])
    ).record
    assert record.exit_code == 7
    assert record.verdict.status == "errored"
    assert record.verdict.why is not None
    assert record.verdict.why.reason == "usage_unavailable"


async def test_a_verified_run_with_unresolved_cleanup_is_errored_not_passed() -> None:
    result = await run(workflow_dict(), PASSING, environment=DictFactory(leak=True))
    record = result.record
    assert record.task_verification.status == "passed"
    assert record.exit_code == 7
    assert record.verdict == RunVerdict(
        status="errored",
        why=Cause(kind="infrastructure", id="cleanup", reason="resource_left"),
    )


async def test_an_undecided_verification_is_unavailable() -> None:
    outcomes = [
        {"id": "summary", "file": "out/summary.md", "contains": ["30 days"]},
        {"id": "tone", "judge": {"rubric": "Neutral.", "threshold": 0.5}},
    ]
    record = (await run(workflow_dict(outcomes=outcomes), PASSING)).record
    assert record.exit_code == 9
    assert record.verdict.status == "unavailable"
    assert record.verdict.why is not None
    assert (record.verdict.why.kind, record.verdict.why.id) == ("requirement", "tone")


async def test_the_cause_is_metadata_only() -> None:
    sentinel = "SENTINEL-4c1d"
    data = workflow_dict(
        environment={"files": {"docs/policy.md": sentinel}},
        outcomes=[{"id": "said", "final_response": {"contains": [sentinel]}}],
    )
    record = (await run(data, PASSING)).record
    assert record.verdict.status == "failed"
    assert sentinel not in repr(record_to_dict(record)["verdict"])


def _parsed(data: dict[str, Any]) -> Any:
    from tests._runs import workflow_of

    return workflow_of(data)


@pytest.mark.parametrize(
    ("status", "exit_code", "verification", "verdict"),
    [
        ("completed", 0, "passed", "passed"),
        ("completed", 8, "failed", "failed"),
        ("completed", 9, "unavailable", "unavailable"),
        ("completed", 7, "passed", "errored"),
        ("completed", 7, "failed", "errored"),
        ("completed", 130, "unavailable", "errored"),
        ("policy_denied", 4, "unavailable", "failed"),
        ("budget_exhausted", 5, "unavailable", "failed"),
        ("deadline_exceeded", 6, "unavailable", "failed"),
        ("runtime_failure", 7, "unavailable", "errored"),
        ("runtime_failure", 2, "unavailable", "errored"),
        ("invalid_evidence", 7, "unavailable", "errored"),
        ("unsupported", 3, "unavailable", "errored"),
        ("cancelled", 130, "unavailable", "errored"),
        ("paused", 10, "unavailable", "unavailable"),
        ("paused", 7, "unavailable", "errored"),
    ],
)
def test_the_verdict_rule(
    status: str, exit_code: int, verification: str, verdict: str
) -> None:
    assert verdict_status(status, exit_code, verification) == verdict


@pytest.mark.parametrize(
    ("execution", "exit_code", "verification", "expected"),
    [
        (
            {"status": "completed", "reason": "all_turns_completed"},
            0,
            "passed",
            "passed",
        ),
        (
            {"status": "budget_exhausted", "reason": "max_actions"},
            5,
            "unavailable",
            "failed",
        ),
        (
            {"status": "completed", "reason": "all_turns_completed"},
            7,
            "passed",
            "errored",
        ),
    ],
)
async def test_a_version_3_record_reads_with_a_derived_verdict_and_no_cause(
    execution: dict[str, str], exit_code: int, verification: str, expected: str
) -> None:
    current = record_to_dict((await run(workflow_dict(), PASSING)).record)
    old = {k: v for k, v in current.items() if k != "verdict"}
    old["schema_version"] = 3
    # Version 3 predates target identities too.
    old["target"] = {k: v for k, v in current["target"].items() if k != "id"}
    old["execution"] = {**old["execution"], **execution}
    old["exit_code"] = exit_code
    old["task_verification"] = {**old["task_verification"], "status": verification}
    migrated = record_from_dict(old)
    assert migrated.schema_version == 4
    assert migrated.verdict == RunVerdict(status=expected, why=None)  # type: ignore[arg-type]
    # A version 3 record that claims a verdict is not a valid one.
    with pytest.raises(Exception, match="invalid workflow record"):
        record_from_dict({**old, "verdict": current["verdict"]})
