"""Exit codes (SPEC 9) and record counters that no other test pins down.

Unresolved cleanup turns any success into exit 7, also a preflight-only probe; a
session cancelled before it runs never calls the target; a target reporting
negative usage is never counted as free.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from artemiskit import ArtemisKit, TargetResponse, Usage
from artemiskit.engine import _transitions as t
from artemiskit.engine._evidence import build_record
from artemiskit.engine._outcomes import unavailable_verification
from artemiskit.engine._plan import SessionPlan
from artemiskit.engine._state import SessionState
from artemiskit.environments._simulated import SimulatedFactory
from artemiskit.records import CleanupInfo, EventInfo, TargetInfo
from tests._builders import workflow_dict
from tests._environments import DictFactory
from tests._runs import ReplayTarget, call, calling, run, workflow_of

READ = call("read_file", {"path": "docs/policy.md"})
WRITE = call("write_file", {"path": "out/summary.md", "content": "30 days"})
PASSING = [calling(READ), calling(WRITE)]


@pytest.mark.parametrize("leak", [False, True])
async def test_unresolved_cleanup_turns_a_verified_pass_into_exit_7(
    leak: bool,
) -> None:
    result = await run(workflow_dict(), PASSING, environment=DictFactory(leak=leak))
    record = result.record
    assert record.task_verification.status == "passed"
    assert record.cleanup.status == ("unresolved" if leak else "complete")
    assert record.exit_code == (7 if leak else 0)


async def test_unresolved_cleanup_turns_a_task_failure_into_exit_7() -> None:
    result = await run(workflow_dict(), [], environment=DictFactory(leak=True))
    assert result.record.task_verification.status == "failed"
    assert result.exit_code == 7


@pytest.mark.parametrize("leak", [False, True])
async def test_unresolved_cleanup_turns_a_preflight_only_success_into_exit_7(
    leak: bool,
) -> None:
    result = await run(
        workflow_dict(), [], preflight="only", environment=DictFactory(leak=leak)
    )
    record = result.record
    assert record.preflight.status == "passed"
    assert record.execution.reason == "preflight_only"
    assert record.cleanup.status == ("unresolved" if leak else "complete")
    assert record.exit_code == (7 if leak else 0)


async def test_cancel_before_run_stops_before_the_target_is_called() -> None:
    target = ReplayTarget(PASSING)
    session = await ArtemisKit().create_workflow_session(
        workflow=workflow_of(workflow_dict()), target=target
    )
    session.cancel()
    result = await session.run()
    assert target.requests == []
    assert result.record.execution.status == "cancelled"
    assert result.record.budget.used.model_requests == 0
    assert result.exit_code == 130


def negative(input_tokens: int, output_tokens: int) -> Usage:
    # attrs classes without validators accept this; the engine must not
    return Usage(input_tokens=input_tokens, output_tokens=output_tokens)


@pytest.mark.parametrize(("input_tokens", "output_tokens"), [(-100, 5), (5, -100)])
async def test_negative_usage_is_never_counted_as_free(
    input_tokens: int, output_tokens: int
) -> None:
    data = workflow_dict(
        budgets={"max_actions": 20, "max_tokens": 50, "timeout_ms": 30000},
        outcomes=[],
    )
    lying = TargetResponse(
        tool_calls=(READ,), usage=negative(input_tokens, output_tokens)
    )
    answers = [lying] + [calling(READ)] * 4
    result = await run(data, answers)
    record = result.record
    assert record.execution.status != "completed"
    assert record.exit_code not in (0, 8, 9)
    assert record.budget.used.tool_calls == 0  # the lying answer's call never ran


def test_the_record_counts_an_operation_left_admitted_as_pending() -> None:
    workflow = workflow_of(workflow_dict())
    state, _ = t.admit_operation(SessionState(), kind="model_request")
    state, settled = t.admit_operation(state, kind="tool_call", tool="read_file")
    state = t.settle_operation(state, settled, "succeeded", None)
    now = datetime.now(UTC)
    plan = SessionPlan(
        workflow=workflow,
        target=ReplayTarget(),
        target_info=TargetInfo(provider="scripted", model="agent"),
        environment=SimulatedFactory(),
    )
    record = build_record(
        plan,
        run_id="r",
        attempt_id="a",
        state=state,
        verification=unavailable_verification(
            workflow.outcomes, "execution_incomplete"
        ),
        cleanup=CleanupInfo(status="complete", reason=None, timeout_ms=1000),
        events=EventInfo(emitted=0, dropped=0, readers=0),
        started=now,
        finished=now,
    )
    operations = record.operations
    assert (operations.total, operations.succeeded, operations.pending) == (2, 1, 1)
    assert record.exit_code == 9  # verification unavailable, nothing cancelled
    assert record.preflight.mode == "off"
