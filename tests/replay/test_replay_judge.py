"""Judge calls are recorded, marked, and replayed like model calls (SPEC 22)."""

from __future__ import annotations

import random
from pathlib import Path

import attrs
import pytest

from artemiskit import ArtemisKit, JudgeSettings, TargetRequest, TargetResponse, Usage
from artemiskit.records import load_cassette
from tests._builders import workflow_dict, write_workflow

from ._compare import comparable

pytestmark = pytest.mark.anyio

OUTCOMES = [
    {"id": "summary", "file": "out/summary.md", "contains": ["30 days"]},
    {"id": "tone", "judge": {"rubric": "Neutral.", "threshold": 0.5, "samples": 3}},
]


@attrs.define
class StochasticJudge:
    """Scores at random, as a sampling judge model would; counts its calls."""

    calls: int = 0

    async def respond(self, request: TargetRequest) -> TargetResponse:
        self.calls += 1
        score = random.choice((0.2, 0.6, 0.9))
        return TargetResponse(
            text=f'{{"score": {score}}}',
            usage=Usage(input_tokens=random.randint(5, 50), output_tokens=4),
        )


async def test_judge_calls_are_recorded_marked_and_replayed(tmp_path: Path) -> None:
    from artemiskit.records import record_to_dict

    workflow = write_workflow(tmp_path, workflow_dict(outcomes=OUTCOMES))
    cassette = tmp_path / "run.cassette.jsonl"
    live = StochasticJudge()
    settings = JudgeSettings(target=live, provider="custom", model="j")
    kit = ArtemisKit()
    recorded = await kit.run_workflow(
        workflow=workflow, judge=settings, record_cassette=cassette
    )
    loaded = await load_cassette(cassette)
    assert [e.step for e in loaded.of_kind("judge")] == [1, 2, 3]
    assert loaded.exchanges[-1].kind == "judge"
    assert live.calls == 3

    offline = StochasticJudge()
    replayed = await kit.run_workflow(
        workflow=workflow,
        judge=attrs.evolve(settings, target=offline),
        replay=cassette,
    )
    assert offline.calls == 0  # every judge answer came from the cassette
    assert comparable(record_to_dict(replayed.record)) == comparable(
        record_to_dict(recorded.record)
    )
