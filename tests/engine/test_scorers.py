"""Custom scorers (SPEC 20) through the SDK: evidence, failures, records, binding.

A scorer gets read-only copies of the final state, the final response, every tool
call with its original arguments and status (denied ones included) and the
transcript. A scorer that raises, hangs or returns garbage makes its requirement
unavailable with a reason code; nothing of the exception reaches the record.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import anyio
import pytest

from artemiskit import (
    ArtemisKit,
    CheckpointError,
    CheckpointOptions,
    Evidence,
    Score,
    Scorer,
    ScorerDefinitionError,
    WorkflowError,
    create_agent_workflow_session,
)
from artemiskit.records import record_to_dict
from tests._builders import workflow_dict
from tests._runs import ReplayTarget, call, calling, workflow_of

SENTINEL = "SENTINEL-7f3c-scorer-secret"
TOOLS = [
    {"name": "read_file", "allow": {"paths": ["docs/**"]}},
    {"name": "write_file", "allow": {"paths": ["out/*.md"]}},
]
RESPONSES = [
    calling(call("read_file", {"path": "docs/policy.md"})),
    calling(call("write_file", {"path": "secret/x.md", "content": "no"})),
    calling(call("write_file", {"path": "out/summary.md", "content": "30 days"})),
]


def scorer_workflow(*outcomes: dict[str, Any]) -> dict[str, Any]:
    return workflow_dict(
        tools=TOOLS,
        policy={"network": "denied", "on_denial": "report"},
        outcomes=[{"id": f"s{i}", **o} for i, o in enumerate(outcomes)],
    )


async def run_scored(
    scorers: list[Scorer], *outcomes: dict[str, Any], **options: Any
) -> Any:
    workflow = workflow_of(scorer_workflow(*outcomes))
    return await ArtemisKit(scorers=scorers).run_workflow(
        workflow=workflow, target=ReplayTarget(list(RESPONSES)), **options
    )


SEEN: list[tuple[Evidence, Mapping[str, Any]]] = []


async def _spy(evidence: Evidence, params: Mapping[str, Any]) -> Score:
    SEEN.append((evidence, params))
    return Score(status="passed", reason="looked", value=0.75)


SPY = Scorer(name="spy", version="3", handler=_spy)


async def test_a_scorer_gets_read_only_copies_of_the_evidence() -> None:
    SEEN.clear()
    result = await run_scored([SPY], {"scorer": "spy", "with": {"k": [1]}})
    assert result.record.exit_code == 0
    ((evidence, params),) = SEEN
    assert evidence.final_state["files"]["out/summary.md"] == "30 days"
    assert evidence.final_response == "Done."
    calls = [(c.name, c.status) for c in evidence.tool_calls]
    assert calls == [
        ("read_file", "succeeded"),
        ("write_file", "denied"),
        ("write_file", "succeeded"),
    ]
    assert evidence.tool_calls[1].arguments == {"path": "secret/x.md", "content": "no"}
    roles = [m["role"] for m in evidence.transcript]
    assert roles[:3] == ["user", "assistant", "tool"]
    assert roles[-1] == "assistant"
    with pytest.raises(TypeError):
        evidence.final_state["files"]["out/summary.md"] = "changed"
    with pytest.raises(TypeError):
        params["k"] = 2  # type: ignore[index]
    assert params["k"] == (1,)
    assert result.state["files"]["out/summary.md"] == "30 days"
    (requirement,) = result.record.task_verification.requirements
    assert (requirement.status, requirement.reason) == ("passed", "looked")
    entry = record_to_dict(result.record)["task_verification"]["requirements"][0]
    assert entry["scorer"] == {"name": "spy", "version": "3", "value": 0.75}


async def _raises(evidence: Evidence, params: Mapping[str, Any]) -> Score:
    raise RuntimeError(SENTINEL)


async def _hangs(evidence: Evidence, params: Mapping[str, Any]) -> Score:
    await anyio.sleep_forever()
    raise AssertionError("unreachable")


async def _garbage(evidence: Evidence, params: Mapping[str, Any]) -> Any:
    return {"status": "passed", "reason": SENTINEL}


async def _bad_score(evidence: Evidence, params: Mapping[str, Any]) -> Score:
    return Score(status="passed", reason=SENTINEL)  # not a reason code: raises


async def _says_unavailable(evidence: Evidence, params: Mapping[str, Any]) -> Score:
    return Score(status="unavailable", reason="no_ground_truth")


@pytest.mark.parametrize(
    ("handler", "reason"),
    [
        (_raises, "scorer_failed"),
        (_hangs, "scorer_timeout"),
        (_garbage, "invalid_score"),
        (_bad_score, "scorer_failed"),
        (_says_unavailable, "no_ground_truth"),
    ],
)
async def test_a_scorer_that_fails_leaves_its_requirement_unavailable(
    handler: Any, reason: str
) -> None:
    scorer = Scorer(name="flaky", version="1", handler=handler, timeout_ms=50)
    result = await run_scored(
        [scorer], {"scorer": "flaky"}, {"file": "out/summary.md", "exists": True}
    )
    first, second = result.record.task_verification.requirements
    assert (first.status, first.reason) == ("unavailable", reason)
    assert second.status == "passed"
    assert result.record.exit_code == 9
    text = json.dumps(record_to_dict(result.record))
    assert SENTINEL not in text
    assert SENTINEL not in repr(result)


async def test_a_failed_score_fails_the_run() -> None:
    async def fails(evidence: Evidence, params: Mapping[str, Any]) -> Score:
        return Score(status="failed", reason="too_long")

    scorer = Scorer(name="strict", version="1", handler=fails)
    result = await run_scored([scorer], {"scorer": "strict"})
    assert result.record.task_verification.requirements[0].reason == "too_long"
    assert result.record.exit_code == 8


async def test_a_session_refuses_a_scorer_outcome_naming_no_registered_scorer() -> None:
    workflow = workflow_of(scorer_workflow({"scorer": "missing"}))
    with pytest.raises(WorkflowError) as caught:
        create_agent_workflow_session(workflow=workflow, target=ReplayTarget())
    assert caught.value.reason == "unknown_scorer"
    strict = Scorer(
        name="missing",
        version="1",
        handler=_spy,
        params_schema={"type": "object", "required": ["limit"]},
    )
    with pytest.raises(WorkflowError) as caught:
        create_agent_workflow_session(
            workflow=workflow, target=ReplayTarget(), scorers=[strict]
        )
    assert caught.value.reason == "invalid_scorer_params"


@pytest.mark.parametrize(
    "fields",
    [
        {"name": "has space"},
        {"version": ""},
        {"handler": lambda evidence, params: None},
        {"timeout_ms": 0},
        {"params_schema": {"type": "array"}},
        {"params_schema": {"type": "object", "properties": {"a": {"pattern": "x"}}}},
    ],
)
def test_an_invalid_scorer_is_refused_when_it_is_made(fields: dict[str, Any]) -> None:
    with pytest.raises(ScorerDefinitionError):
        Scorer(**{"name": "ok", "version": "1", "handler": _spy, **fields})


def test_two_scorers_may_not_share_a_name() -> None:
    with pytest.raises(ScorerDefinitionError) as caught:
        ArtemisKit(scorers=[SPY, SPY])
    assert caught.value.reason == "scorer_name_clash"


def test_a_score_holds_a_reason_code_and_a_finite_value() -> None:
    with pytest.raises(ValueError, match="reason"):
        Score(status="passed", reason="Has Spaces")
    with pytest.raises(ValueError, match="finite"):
        Score(status="passed", reason="ok", value=float("nan"))
    with pytest.raises(ValueError, match="status"):
        Score(status="maybe", reason="ok")  # type: ignore[arg-type]


async def test_a_resume_under_another_scorer_version_is_refused(
    tmp_path: Path,
) -> None:
    workflow = workflow_of(scorer_workflow({"scorer": "spy"}))
    checkpoints = tmp_path / "checkpoint"
    paused = await ArtemisKit(scorers=[SPY]).run_workflow(
        workflow=workflow,
        target=ReplayTarget(list(RESPONSES)),
        checkpoint=CheckpointOptions(directory=checkpoints, configuration_id="c"),
        pause_after_actions=2,
    )
    assert paused.record.exit_code == 10
    newer = Scorer(name="spy", version="4", handler=_spy)
    with pytest.raises(CheckpointError) as caught:
        await ArtemisKit(scorers=[newer]).run_workflow(
            workflow=workflow,
            target=ReplayTarget(list(RESPONSES)),
            checkpoint=CheckpointOptions(
                directory=checkpoints, mode="resume", configuration_id="c"
            ),
        )
    assert caught.value.reason == "incompatible_checkpoint"
    assert "scorers_digest" in str(caught.value)
