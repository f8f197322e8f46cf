"""Budgets at their exact edges (SPEC 3.2), through the SDK.

A cap of N admits exactly N: the run that needs N finishes, the one that needs N + 1
stops with the cap's reason; a token overshoot of a single token is disclosed and
stops new work. Retries are attempts: they spend the same budgets.
"""

from __future__ import annotations

from typing import Any

import pytest

from artemiskit import TargetResponse, Usage
from tests._builders import workflow_dict
from tests._runs import DONE, call, calling, run

READ = call("read_file", {"path": "docs/policy.md"})


def budgets(**caps: int) -> dict[str, Any]:
    return workflow_dict(budgets={"timeout_ms": 30000, **caps}, outcomes=[])


def reads(count: int) -> list[TargetResponse]:
    """``count`` answers that each ask for one read, then ``Done.``."""
    return [calling(READ) for _ in range(count)] + [DONE]


@pytest.mark.parametrize(
    ("cap", "used", "status"),
    [("max_model_requests", 3, "completed"), ("max_actions", 5, "completed")],
)
async def test_a_cap_of_exactly_what_the_run_needs_completes(
    cap: str, used: int, status: str
) -> None:
    # two reads and a final answer: 3 model requests, 2 tool calls, 5 actions
    limits = {"max_actions": 20, cap: used}
    result = await run(budgets(**limits), reads(2))
    assert result.record.execution.status == status
    assert result.record.budget.used.model_requests == 3
    assert result.record.budget.used.actions == 5


@pytest.mark.parametrize(
    ("cap", "limit", "model_requests", "actions"),
    [
        ("max_model_requests", 2, 2, 4),
        ("max_actions", 4, 2, 4),
        ("max_actions", 3, 2, 3),
    ],
)
async def test_one_short_of_what_the_run_needs_stops_at_the_cap(
    cap: str, limit: int, model_requests: int, actions: int
) -> None:
    limits = {"max_actions": 20, cap: limit}
    result = await run(budgets(**limits), reads(2))
    record = result.record
    assert record.execution.status == "budget_exhausted"
    assert record.execution.reason == cap
    assert record.exit_code == 5
    assert record.budget.used.model_requests == model_requests
    assert record.budget.used.actions == actions
    assert record.task_verification.status == "unavailable"


async def test_max_tool_calls_admits_exactly_n() -> None:
    result = await run(budgets(max_actions=20, max_tool_calls=2), reads(2))
    assert result.record.execution.status == "completed"
    assert result.record.budget.used.tool_calls == 2


async def test_max_tool_calls_refuses_call_n_plus_one() -> None:
    three = calling(
        READ,
        call("read_file", {"path": "docs/policy.md"}, call_id="c2"),
        call("read_file", {"path": "docs/policy.md"}, call_id="c3"),
    )
    result = await run(budgets(max_actions=20, max_tool_calls=2), [three])
    record = result.record
    assert record.execution.status == "budget_exhausted"
    assert record.execution.reason == "max_tool_calls"
    assert record.budget.used.tool_calls == 2
    assert [(t.tool, t.calls) for t in record.tools] == [("read_file", 2)]


def used(input_tokens: int, output_tokens: int) -> Usage:
    return Usage(input_tokens=input_tokens, output_tokens=output_tokens)


async def test_tokens_exactly_at_the_cap_are_not_an_overshoot() -> None:
    answers = [
        calling(READ, usage=used(10, 5)),
        TargetResponse(text="Done.", usage=used(10, 5)),
    ]
    result = await run(budgets(max_actions=20, max_tokens=30), answers)
    record = result.record
    assert record.execution.status == "completed"
    assert record.budget.overshoot_tokens == 0
    assert record.budget.used.input_tokens == 20
    assert record.budget.used.output_tokens == 10


async def test_an_overshoot_of_one_token_is_disclosed_and_stops_new_work() -> None:
    answers = [
        calling(READ, usage=used(10, 5)),
        calling(READ, usage=used(10, 6)),
    ]
    result = await run(budgets(max_actions=20, max_tokens=30), answers)
    record = result.record
    assert record.execution.status == "budget_exhausted"
    assert record.execution.reason == "max_tokens_overshoot"
    assert record.budget.overshoot_tokens == 1
    assert record.budget.used.tool_calls == 1  # the second answer's call never ran
    assert record.exit_code == 5


async def test_spent_tokens_stop_the_next_request_before_it_is_sent() -> None:
    answers = [calling(READ, usage=used(20, 10))]
    result = await run(budgets(max_actions=20, max_tokens=30), answers)
    record = result.record
    assert record.execution.status == "budget_exhausted"
    assert record.execution.reason == "max_tokens"
    assert record.budget.used.model_requests == 1
    assert record.budget.overshoot_tokens == 0


async def test_unmeasured_usage_under_max_tokens_stops_as_a_runtime_failure() -> None:
    answers = [calling(READ, usage=None)]
    result = await run(budgets(max_actions=20, max_tokens=1000), answers)
    record = result.record
    assert record.execution.status == "runtime_failure"
    assert record.execution.reason == "usage_unavailable"
    assert record.exit_code == 7
    assert record.budget.usage_measurement != "complete"
    assert record.budget.used.tool_calls == 0


async def test_unmeasured_usage_without_max_tokens_runs_on() -> None:
    answers = [calling(READ, usage=None)]
    result = await run(budgets(max_actions=20), answers)
    assert result.record.execution.status == "completed"
    assert result.record.budget.used.input_tokens is None
    assert result.record.budget.used.output_tokens is None
    assert result.record.budget.usage_measurement != "complete"


async def test_an_overshoot_on_the_final_answer_keeps_the_finished_task() -> None:
    answers = [
        calling(READ, usage=used(10, 5)),
        TargetResponse(text="Done.", usage=used(10, 6)),
    ]
    data = budgets(max_actions=20, max_tokens=30)
    data["outcomes"] = [{"id": "answer", "final_response": {"contains": ["Done"]}}]
    result = await run(data, answers)
    record = result.record
    assert record.execution.status == "completed"
    assert record.budget.overshoot_tokens == 1
    assert record.task_verification.status == "passed"
    assert record.exit_code == 0


async def test_an_overshoot_before_another_turn_refuses_that_turn() -> None:
    data = budgets(max_actions=20, max_tokens=30)
    data["conversation"] = {"turns": [{"user": "One."}, {"user": "Two."}]}
    answers = [TargetResponse(text="First.", usage=used(20, 11))]
    record = (await run(data, answers)).record
    assert record.execution.status == "budget_exhausted"
    assert record.execution.reason == "max_tokens"
    assert record.budget.overshoot_tokens == 1
    assert record.budget.used.model_requests == 1
