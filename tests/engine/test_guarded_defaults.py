"""Behaviour that was implemented but untested (issue 28, item 34).

Each test fails when its behaviour is broken on purpose:

- the deadline covers environment creation and the preflight probe (both are
  cancelled by it, not left to run past it);
- a simulated run's cleanup bound defaults to 1,000 ms;
- a fault's occurrence counts only calls that passed admission: a denied call
  consumes nothing.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import anyio
import attrs

from artemiskit import ArtemisKit, TargetRequest, TargetResponse
from artemiskit.records import record_to_dict
from tests._builders import workflow_dict
from tests._environments import DictFactory
from tests._runs import ReplayTarget, call, calling, run

#: Long enough never to matter when the deadline works; ends a broken test.
GUARD_S = 30
SHORT = {"max_actions": 10, "timeout_ms": 100}


@attrs.define
class HangingFactory(DictFactory):
    """Creates nothing: waits until cancelled, and says whether it was."""

    cancelled: bool = False

    async def create(self, *, run_id: str, files: Mapping[str, str]) -> Any:
        try:
            await anyio.sleep_forever()
        except anyio.get_cancelled_exc_class():
            self.cancelled = True
            raise
        raise AssertionError("unreachable")


@attrs.define
class HangingProbeTarget:
    """Never answers the preflight probe; says whether it was cancelled."""

    cancelled: bool = False

    async def respond(self, request: TargetRequest) -> TargetResponse:
        try:
            await anyio.sleep_forever()
        except anyio.get_cancelled_exc_class():
            self.cancelled = True
            raise
        raise AssertionError("unreachable")


async def test_the_deadline_covers_environment_creation() -> None:
    factory = HangingFactory()
    with anyio.move_on_after(GUARD_S):
        result = await ArtemisKit().run_workflow(
            workflow=workflow_dict(outcomes=[], budgets=SHORT),
            target=ReplayTarget(),
            environment=factory,
            cleanup_timeout_ms=50,
        )
    record = result.record
    assert (record.execution.status, record.execution.reason) == (
        "deadline_exceeded",
        "timeout_ms",
    )
    assert factory.cancelled  # the deadline reached the creation itself
    assert record.cleanup.status == "not_needed"
    assert record.budget.used.model_requests == 0


async def test_the_deadline_covers_the_preflight_probe() -> None:
    target = HangingProbeTarget()
    with anyio.move_on_after(GUARD_S):
        result = await ArtemisKit().run_workflow(
            workflow=workflow_dict(outcomes=[], budgets=SHORT),
            target=target,
            preflight=True,
            cleanup_timeout_ms=50,
        )
    record = result.record
    assert record.execution.status == "deadline_exceeded"
    assert target.cancelled  # the deadline reached the probe's request
    (probe,) = record.timeline.entries
    assert (probe.status, probe.reason) == ("unknown", "interrupted")


async def test_a_simulated_runs_cleanup_bound_defaults_to_1000_ms() -> None:
    result = await run(workflow_dict(outcomes=[]))
    assert result.record.cleanup.timeout_ms == 1000
    chosen = await run(workflow_dict(outcomes=[]), cleanup_timeout_ms=250)
    assert chosen.record.cleanup.timeout_ms == 250


async def test_a_denied_call_does_not_consume_a_faults_occurrence() -> None:
    data = workflow_dict(
        outcomes=[],
        policy={"on_denial": "report"},
        faults=[
            {
                "id": "first-read",
                "tool": "read_file",
                "occurrence": 1,
                "kind": "unavailable_tool",
            }
        ],
    )
    target = ReplayTarget(
        [
            calling(call("read_file", {"path": "secret/keys.md"}, call_id="c1")),
            calling(call("read_file", {"path": "docs/policy.md"}, call_id="c2")),
        ]
    )
    result = await ArtemisKit().run_workflow(workflow=data, target=target)
    record = record_to_dict(result.record)
    assert record["policy"]["denial_reasons"] == {"path_not_allowed": 1}
    assert record["faults"]["injected"] == 1
    answers = [m for m in target.requests[-1].messages if m.role == "tool"]
    codes = [json.loads(m.content or "")["error"]["code"] for m in answers]
    assert codes == ["policy_denied", "fault_unavailable_tool"]
