"""The engine's side of accounted retries: `TargetRequest.retry_admission`.

A target that retries a failed provider request asks the engine first; an admitted
retry is a model request of its own (counted, in the ledger, disclosed), and the
engine refuses one that the budget or the deadline does not allow.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from artemiskit import ArtemisKit, TargetError, TargetRequest, TargetResponse
from artemiskit.records import record_to_dict
from tests._builders import workflow_dict, write_workflow
from tests._runs import USAGE

if TYPE_CHECKING:
    from pathlib import Path


@attrs.define
class RetryingTarget:
    """Fails ``failures`` times, asking the engine before each new attempt."""

    failures: int
    delay_s: float = 0.0
    admitted: list[bool] = attrs.Factory(list)

    async def respond(self, request: TargetRequest) -> TargetResponse:
        assert request.retry_admission is not None
        for _ in range(self.failures):
            allowed = await request.retry_admission(
                "provider_rate_limited", self.delay_s
            )
            self.admitted.append(allowed)
            if not allowed:
                raise TargetError("rate limited", reason="provider_rate_limited")
        return TargetResponse(text="Done.", usage=USAGE)


def budgets(**caps: Any) -> dict[str, Any]:
    return {"max_actions": 20, "timeout_ms": 30000, **caps}


async def test_each_admitted_retry_is_a_counted_model_request(tmp_path: Path) -> None:
    path = write_workflow(tmp_path, workflow_dict(outcomes=[]))
    target = RetryingTarget(failures=2)
    result = await ArtemisKit().run_workflow(workflow=path, target=target)
    record = result.record
    assert target.admitted == [True, True]
    assert record.execution.status == "completed"
    assert record.target.provider_retries == 2
    assert record.budget.used.model_requests == 3
    assert record.budget.used.actions == 3
    assert record.budget.usage_measurement == "complete"
    assert (record.operations.failed, record.operations.succeeded) == (2, 1)
    assert record_to_dict(record)["target"]["provider_retries"] == 2


async def test_no_retry_past_the_model_request_budget(tmp_path: Path) -> None:
    data = workflow_dict(outcomes=[], budgets=budgets(max_model_requests=2))
    path = write_workflow(tmp_path, data)
    target = RetryingTarget(failures=3)
    result = await ArtemisKit().run_workflow(workflow=path, target=target)
    assert target.admitted == [True, False]
    assert result.exit_code == 7
    assert result.record.execution.reason == "provider_rate_limited"
    assert result.record.budget.used.model_requests == 2
    assert result.record.target.provider_retries == 1


async def test_no_retry_whose_wait_ends_past_the_deadline(tmp_path: Path) -> None:
    data = workflow_dict(outcomes=[], budgets=budgets(timeout_ms=10_000))
    path = write_workflow(tmp_path, data)
    target = RetryingTarget(failures=1, delay_s=60.0)
    result = await ArtemisKit().run_workflow(workflow=path, target=target)
    assert target.admitted == [False]
    assert result.exit_code == 7
    assert result.record.target.provider_retries == 0
    assert result.record.budget.used.model_requests == 1
