"""A judge's answers are checked like any target's; unknown usage is never free."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import attrs
import pytest

from artemiskit import (
    ArtemisKit,
    JudgeSettings,
    TargetError,
    TargetRequest,
    TargetResponse,
    Usage,
)
from artemiskit.records import record_to_dict
from tests._builders import workflow_dict, write_workflow

OUTCOMES = [
    {"id": "summary", "file": "out/summary.md", "contains": ["30 days"]},
    {"id": "tone", "judge": {"rubric": "Neutral.", "threshold": 0.5}},
]


@attrs.define
class Judge:
    """Answers, raises or hangs, as told."""

    behaviour: str
    usage: Any = None

    async def respond(self, request: TargetRequest) -> TargetResponse:
        if self.behaviour == "raise":
            raise TargetError("judge down", reason="provider_server_error")
        if self.behaviour == "hang":
            await anyio.sleep_forever()
        text = '{"score": 0.9}'
        if self.behaviour == "deep":
            text = "[" * 5000 + "]" * 5000
        usage = self.usage
        return TargetResponse(text=text, usage=usage)


async def judged(tmp_path: Path, judge: Judge, timeout_ms: int = 30000) -> Any:
    path = write_workflow(tmp_path, workflow_dict(outcomes=OUTCOMES))
    settings = JudgeSettings(
        target=judge, provider="custom", model="j", timeout_ms=timeout_ms
    )
    result = await ArtemisKit().run_workflow(workflow=path, judge=settings)
    record_to_dict(result.record)  # validates against the shipped schema
    verdicts = {r.id: r for r in result.record.task_verification.requirements}
    return result.record.judge, verdicts["tone"]


@pytest.mark.parametrize(
    "usage",
    [
        Usage(input_tokens=1.5, output_tokens=2),  # type: ignore[arg-type]
        Usage(input_tokens=-1, output_tokens=2),
        Usage(input_tokens=True, output_tokens=2),
        Usage(input_tokens="3", output_tokens=2),  # type: ignore[arg-type]
    ],
)
async def test_malformed_judge_usage_is_unmeasured(
    tmp_path: Path, usage: Usage
) -> None:
    judge, tone = await judged(tmp_path, Judge("answer", usage))
    assert (tone.status, tone.reason) == ("unavailable", "invalid_verdict")
    assert judge.requests == 1
    assert judge.usage_measurement == "unavailable"
    assert (judge.input_tokens, judge.output_tokens) == (0, 0)


async def test_a_failed_judge_request_is_unmeasured(tmp_path: Path) -> None:
    judge, tone = await judged(tmp_path, Judge("raise"))
    assert (tone.status, tone.reason) == ("unavailable", "judge_failure")
    assert judge.usage_measurement == "unavailable"


async def test_a_judge_request_cut_off_by_its_deadline_is_unmeasured(
    tmp_path: Path,
) -> None:
    judge, tone = await judged(tmp_path, Judge("hang"), timeout_ms=1)
    assert (tone.status, tone.reason) == ("unavailable", "judge_timeout")
    assert judge.requests == 1
    assert judge.usage_measurement == "unavailable"


async def test_a_deeply_nested_verdict_is_invalid(tmp_path: Path) -> None:
    judge, tone = await judged(
        tmp_path, Judge("deep", Usage(input_tokens=1, output_tokens=1))
    )
    assert (tone.status, tone.reason) == ("unavailable", "invalid_verdict")
    assert judge.usage_measurement == "complete"
