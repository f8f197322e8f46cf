"""A denial answered in report mode survives a pause and a resume (SPEC 3.5)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from artemiskit import ArtemisKit, CheckpointOptions
from tests._builders import workflow_dict
from tests._environments import DictFactory
from tests._runs import ReplayTarget, call, calling, workflow_of

if TYPE_CHECKING:
    from pathlib import Path

    from artemiskit import TargetResponse, WorkflowResult

DENIED = call("read_file", {"path": "etc/passwd"})
READ = call("read_file", {"path": "docs/policy.md"}, call_id="c2")


async def _attempt(
    directory: Path,
    mode: str,
    responses: list[TargetResponse],
    pause_after_actions: int | None = None,
) -> WorkflowResult:
    data = workflow_dict(outcomes=[], policy={"on_denial": "report"})
    return await ArtemisKit().run_workflow(
        workflow=workflow_of(data),
        target=ReplayTarget(responses),
        environment=DictFactory(),
        checkpoint=CheckpointOptions(
            directory=directory,
            mode=mode,  # type: ignore[arg-type]
            configuration_id="denial-resume",
        ),
        pause_after_actions=pause_after_actions,
    )


async def test_a_run_paused_after_a_reported_denial_resumes(tmp_path: Path) -> None:
    directory = tmp_path / "ckpt"
    first = await _attempt(directory, "create", [calling(DENIED)], 2)
    assert first.record.execution.status == "paused"
    result = await _attempt(directory, "resume", [calling(READ)])
    record = result.record
    assert record.recovery.attempt_number == 2
    assert record.execution.status == "completed"
    assert [(t.tool, t.denied, t.succeeded, t.attempts) for t in record.tools] == [
        ("read_file", 1, 1, 1)
    ]


async def test_a_pause_between_two_calls_of_one_answer_resumes_the_second(
    tmp_path: Path,
) -> None:
    directory = tmp_path / "ckpt"
    first_read = call("read_file", {"path": "docs/policy.md"}, call_id="c1")
    first = await _attempt(directory, "create", [calling(first_read, READ)], 2)
    assert first.record.execution.status == "paused"
    assert first.record.budget.used.tool_calls == 1
    result = await _attempt(directory, "resume", [])
    record = result.record
    assert record.execution.status == "completed"
    assert record.budget.used.tool_calls == 2
    assert [(t.tool, t.succeeded) for t in record.tools] == [("read_file", 2)]


async def test_a_budget_stop_between_two_calls_of_one_answer_ends_the_run() -> None:
    first_read = call("read_file", {"path": "docs/policy.md"}, call_id="c1")
    data = workflow_dict(
        outcomes=[],
        budgets={"max_actions": 20, "timeout_ms": 30000, "max_tool_calls": 1},
    )
    target = ReplayTarget([calling(first_read, READ)])
    result = await ArtemisKit().run_workflow(workflow=workflow_of(data), target=target)
    record = result.record
    assert (record.execution.status, record.execution.reason) == (
        "budget_exhausted",
        "max_tool_calls",
    )
    assert record.budget.used.tool_calls == 1
    assert len(target.requests) == 1
