"""A `ResumableTarget` learns, on resume, how many requests earlier attempts made."""

from __future__ import annotations

from pathlib import Path

from artemiskit import ArtemisKit, CheckpointOptions, TargetRequest, TargetResponse
from artemiskit.targets import AgentTarget, ResumableTarget
from tests._builders import workflow_dict
from tests._environments import DictFactory
from tests._runs import ReplayTarget, call, calling, workflow_of

READ = call("read_file", {"path": "docs/policy.md"})
WRITE = call("write_file", {"path": "out/summary.md", "content": "30 days"})
SCRIPT = [calling(READ), calling(WRITE)]


class CountingTarget(ReplayTarget):
    """Answers from ``SCRIPT`` at the position the engine says it resumes from."""

    def __init__(self) -> None:
        super().__init__([])
        self.resumed_after: list[int] = []
        self.position = 0

    def resume_after(self, model_requests: int) -> None:
        self.resumed_after.append(model_requests)
        self.position = model_requests

    async def respond(self, request: TargetRequest) -> TargetResponse:
        self.position += 1
        if self.position <= len(SCRIPT):
            return SCRIPT[self.position - 1]
        return await super().respond(request)


async def _attempt(directory: Path, mode: str, target: AgentTarget) -> str:
    result = await ArtemisKit().run_workflow(
        workflow=workflow_of(workflow_dict()),
        target=target,
        environment=DictFactory(),
        checkpoint=CheckpointOptions(
            directory=directory,
            mode=mode,  # type: ignore[arg-type]
            configuration_id="resumable-tests",
        ),
        pause_after_actions=1 if mode == "create" else None,
    )
    return result.record.execution.status


def test_the_protocol_is_structural() -> None:
    assert isinstance(CountingTarget(), ResumableTarget)
    assert not isinstance(ReplayTarget(), ResumableTarget)


async def test_a_resumed_run_continues_where_the_target_left_off(
    tmp_path: Path,
) -> None:
    first = CountingTarget()
    assert await _attempt(tmp_path / "ckpt", "create", first) == "paused"
    assert first.resumed_after == []
    second = CountingTarget()
    assert await _attempt(tmp_path / "ckpt", "resume", second) == "completed"
    assert second.resumed_after == [1]
    assert second.position == 3
