"""The budget type: which cap the next action would hit (SPEC 3.2)."""

from __future__ import annotations

import pytest

from artemiskit.engine._budget import Budget
from artemiskit.engine._state import Counters
from artemiskit.workflow._model import Budgets


def budget(max_output_tokens: int | None = None, **caps: int) -> Budget:
    return Budget(
        caps=Budgets(**{"max_actions": 10, "timeout_ms": 1000, **caps}),
        max_output_tokens=max_output_tokens,
    )


def test_nothing_stops_within_the_caps() -> None:
    rules = budget(max_model_requests=2, max_tool_calls=2, max_tokens=100)
    counters = Counters(actions=2, model_requests=1, tool_calls=1)
    assert rules.model_request_stop(counters) is None
    assert rules.tool_call_stop(counters) is None
    assert rules.usage_stop(counters) is None


@pytest.mark.parametrize(
    ("caps", "counters", "reason"),
    [
        ({}, Counters(actions=10), "max_actions"),
        ({"max_model_requests": 1}, Counters(model_requests=1), "max_model_requests"),
        (
            {"max_tokens": 5},
            Counters(measured_input_tokens=5, measured_responses=1),
            "max_tokens",
        ),
    ],
)
def test_a_model_request_stops_at_its_cap(
    caps: dict[str, int], counters: Counters, reason: str
) -> None:
    stop = budget(**caps).model_request_stop(counters)
    assert stop is not None
    assert (stop.status, stop.reason, stop.exit_code) == ("budget_exhausted", reason, 5)


def test_a_tool_call_stops_at_its_caps() -> None:
    assert budget().tool_call_stop(Counters(actions=10)) is not None
    stop = budget(max_tool_calls=1).tool_call_stop(Counters(tool_calls=1))
    assert stop is not None
    assert (stop.reason, stop.exit_code) == ("max_tool_calls", 5)


def test_unmeasured_usage_under_a_token_cap_is_a_runtime_failure() -> None:
    counters = Counters(unmeasured_responses=1)
    for stop in (
        budget(max_tokens=5).model_request_stop(counters),
        budget(max_tokens=5).usage_stop(counters),
    ):
        assert stop is not None
        assert (stop.status, stop.reason, stop.exit_code) == (
            "runtime_failure",
            "usage_unavailable",
            7,
        )
    assert budget().usage_stop(counters) is None


def test_an_overshoot_of_the_token_cap_stops() -> None:
    over = Counters(measured_output_tokens=6, measured_responses=1)
    stop = budget(max_tokens=5).usage_stop(over)
    assert stop is not None
    assert stop.reason == "max_tokens_overshoot"


@pytest.mark.parametrize(
    ("max_tokens", "max_output_tokens", "used", "allowance"),
    [
        (None, None, 0, None),
        (None, 50, 99, 50),
        (100, None, 30, 70),
        (100, 50, 30, 50),
        (100, 50, 80, 20),
        (100, 50, 120, 0),
    ],
)
def test_the_output_allowance_is_bounded_by_the_tokens_left(
    max_tokens: int | None,
    max_output_tokens: int | None,
    used: int,
    allowance: int | None,
) -> None:
    caps = {} if max_tokens is None else {"max_tokens": max_tokens}
    counters = Counters(measured_input_tokens=used, measured_responses=1)
    assert budget(max_output_tokens, **caps).output_allowance(counters) == allowance
