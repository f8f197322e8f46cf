"""The harness and the preflight selection are part of a checkpoint's binding.

A resume under another native harness, or with another preflight choice than the
original run (issue 28, items 34 and 43), is refused before any model call with
``incompatible_checkpoint``, naming what differs. Each test fails when that part is
dropped from the binding on purpose.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs
import pytest

from artemiskit import (
    ArtemisKit,
    CheckpointError,
    CheckpointOptions,
    TargetRequest,
    TargetResponse,
)
from tests._builders import workflow_dict
from tests._runs import ReplayTarget, call, calling

READ = call("read_file", {"path": "docs/policy.md"})


@attrs.define
class CountingTarget:
    """A `ReplayTarget` that counts every request, the probe's too."""

    inner: ReplayTarget = attrs.Factory(lambda: ReplayTarget([calling(READ)]))
    calls: int = 0

    async def respond(self, request: TargetRequest) -> TargetResponse:
        self.calls += 1
        return await self.inner.respond(request)


async def _pause(directory: Path, **options: Any) -> None:
    result = await ArtemisKit().run_workflow(
        workflow=workflow_dict(outcomes=[]),
        target=CountingTarget(),
        checkpoint=CheckpointOptions(directory=directory, configuration_id="t"),
        pause_after_actions=1,
        **options,
    )
    assert result.record.execution.status == "paused"
    assert result.record.recovery.resumable


async def _refused_resume(directory: Path, **options: Any) -> CheckpointError:
    target = CountingTarget()
    with pytest.raises(CheckpointError) as caught:
        await ArtemisKit().run_workflow(
            workflow=workflow_dict(outcomes=[]),
            target=target,
            checkpoint=CheckpointOptions(
                directory=directory, configuration_id="t", mode="resume"
            ),
            **options,
        )
    assert target.calls == 0  # refused before any model call
    return caught.value


@pytest.mark.parametrize(
    ("original", "resumed"),
    [(True, False), (False, True), (True, "only")],
)
async def test_a_resume_under_another_preflight_choice_is_refused(
    tmp_path: Path, original: Any, resumed: Any
) -> None:
    await _pause(tmp_path / "ckpt", preflight=original)
    error = await _refused_resume(tmp_path / "ckpt", preflight=resumed)
    assert error.reason == "incompatible_checkpoint"
    assert "preflight" in error.message


async def test_a_resume_with_the_same_preflight_choice_continues(
    tmp_path: Path,
) -> None:
    await _pause(tmp_path / "ckpt", preflight=True)
    target = CountingTarget()
    result = await ArtemisKit().run_workflow(
        workflow=workflow_dict(outcomes=[]),
        target=target,
        checkpoint=CheckpointOptions(
            directory=tmp_path / "ckpt", configuration_id="t", mode="resume"
        ),
        preflight=True,
    )
    assert result.record.execution.status == "completed"
    assert result.record.preflight.status == "passed"  # kept, not repeated


async def test_a_resume_under_another_harness_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    await _pause(tmp_path / "ckpt")
    monkeypatch.setattr(
        "artemiskit.engine._checkpointing.HARNESS", "artemiskit-native-engine/999"
    )
    error = await _refused_resume(tmp_path / "ckpt")
    assert error.reason == "incompatible_checkpoint"
    assert "harness" in error.message
