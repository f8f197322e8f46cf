"""Only declared `unavailable_tool` / `timeout` faults retry; nothing else ever does.

An environment failure or an interrupted operation may have had an effect, so it is
never attempted again, even with ``retry.max_attempts`` > 1 and a retryable fault
declared for another call.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio
import attrs

from artemiskit import ArtemisKit, EnvironmentFailureError, FileOperationError
from artemiskit.environments import CleanupReport
from artemiskit.records import record_to_dict
from tests._builders import workflow_dict, write_workflow

if TYPE_CHECKING:
    from collections.abc import Mapping

READ = {"tool_calls": [{"name": "read_file", "arguments": {"path": "docs/policy.md"}}]}
WRITE = {
    "tool_calls": [
        {"name": "write_file", "arguments": {"path": "out/a.md", "content": "x"}}
    ]
}

#: A retryable fault on another tool, and retries allowed.
RETRIES = {
    "faults": [
        {"id": "w", "tool": "write_file", "occurrence": 1, "kind": "unavailable_tool"}
    ],
    "retry": {"max_attempts": 3},
}


@attrs.define
class BrokenEnvironment:
    """Files in a dict; every ``read_file`` is an environment failure."""

    files: dict[str, str]
    reads: int = 0

    @property
    def kind(self) -> str:
        return "simulated"

    @property
    def supports_checkpoint(self) -> bool:
        return False

    async def read_file(self, path: str) -> str:
        self.reads += 1
        raise EnvironmentFailureError("the environment broke", reason="broken")

    async def list_files(self, directory: str | None = None) -> list[str]:
        return sorted(self.files)

    async def write_file(self, path: str, content: str) -> None:
        self.files[path] = content

    async def delete_file(self, path: str) -> None:
        if self.files.pop(path, None) is None:
            raise FileOperationError("no such file", reason="file_not_found")

    async def snapshot(self) -> dict[str, str]:
        return dict(self.files)

    async def restore(self, files: Mapping[str, str]) -> None:
        self.files = dict(files)

    async def close(self) -> CleanupReport:
        return CleanupReport(status="complete")


@attrs.define
class BrokenFactory:
    """Hands out one `BrokenEnvironment` and keeps it for inspection."""

    created: list[BrokenEnvironment] = attrs.Factory(list)

    @property
    def kind(self) -> str:
        return "simulated"

    @property
    def supports_checkpoint(self) -> bool:
        return False

    @property
    def default_cleanup_timeout_ms(self) -> int:
        return 1000

    async def create(
        self, *, run_id: str, files: Mapping[str, str]
    ) -> BrokenEnvironment:
        environment = BrokenEnvironment(dict(files))
        self.created.append(environment)
        return environment


async def test_environment_failure_is_never_retried(tmp_path: Path) -> None:
    script: list[dict[str, Any]] = [READ, {"text": "never"}]
    path = write_workflow(tmp_path, workflow_dict(**RETRIES), script)
    factory = BrokenFactory()
    result = await ArtemisKit().run_workflow(workflow=path, environment=factory)
    record = result.record
    assert factory.created[0].reads == 1
    assert record.execution.status == "runtime_failure"
    assert record.execution.reason == "broken"
    assert result.exit_code == 7
    assert record.budget.used.tool_calls == 1
    assert record.faults.retries == 0
    assert record.operations.unknown == 1
    record_to_dict(record)


async def test_an_interrupted_retryable_fault_is_never_retried(tmp_path: Path) -> None:
    fault = {
        "id": "slow",
        "tool": "read_file",
        "occurrence": 1,
        "kind": "timeout",
        "timeout_ms": 60000,
    }
    workflow = workflow_dict(faults=[fault], retry={"max_attempts": 3})
    path = write_workflow(tmp_path, workflow, [READ, {"text": "never"}])
    session = await ArtemisKit().create_workflow_session(workflow=path)
    events = session.events()

    async def cancel_once_injected() -> None:
        async for event in events:
            if event.type == "fault_injected":
                await anyio.wait_all_tasks_blocked()
                session.cancel()

    async with anyio.create_task_group() as group:
        group.start_soon(cancel_once_injected)
        result = await session.run()
    record = result.record
    assert record.execution.status == "cancelled"
    assert result.exit_code == 130
    assert record.budget.used.tool_calls == 1
    assert record.faults.retries == 0
    assert record.operations.unknown == 1
    assert record.operations.total == 2  # one model request, one tool attempt


async def test_an_interrupted_tool_call_is_never_retried(tmp_path: Path) -> None:
    path = write_workflow(tmp_path, workflow_dict(**RETRIES), [WRITE, READ])
    session = await ArtemisKit().create_workflow_session(workflow=path)
    events = session.events()

    async def cancel_at_second_tool_attempt() -> None:
        attempts = 0
        async for event in events:
            if event.type == "operation_admitted" and event.tool == "write_file":
                attempts += 1
                if attempts == 2:  # the retry after the declared fault
                    session.cancel()

    async with anyio.create_task_group() as group:
        group.start_soon(cancel_at_second_tool_attempt)
        result = await session.run()
    record = result.record
    assert record.execution.status == "cancelled"
    assert record.budget.used.tool_calls == 2  # the faulted attempt, the retry
    assert record.operations.failed == 1
    assert record.operations.unknown == 1
    assert result.state is not None
    assert "out/a.md" not in result.state["files"]


async def test_a_failed_tool_call_is_answered_not_retried(tmp_path: Path) -> None:
    missing = {
        "tool_calls": [{"name": "read_file", "arguments": {"path": "docs/none.md"}}]
    }
    workflow = workflow_dict(outcomes=[], **RETRIES)
    path = write_workflow(tmp_path, workflow, [missing, {"text": "Done."}])
    result = await ArtemisKit().run_workflow(workflow=path)
    record = result.record
    assert record.execution.status == "completed"
    assert record.budget.used.tool_calls == 1
    assert record.faults.retries == 0
    assert (record.tools[0].failed, record.tools[0].attempts) == (1, 1)
    assert [m.is_error for m in result.transcript if m.role == "tool"] == [True]
