"""Budget rules of SPEC 3.2, as pure functions of the counters and the caps."""

from __future__ import annotations

from typing import TYPE_CHECKING

from artemiskit.engine._stops import stop_for

if TYPE_CHECKING:
    from artemiskit.engine._state import Counters, Stop
    from artemiskit.workflow._model import Budgets

__all__ = [
    "model_request_stop",
    "output_allowance",
    "tool_call_stop",
    "usage_stop",
]


def _exhausted(reason: str) -> Stop:
    return stop_for("budget_exhausted", reason)


def model_request_stop(counters: Counters, budgets: Budgets) -> Stop | None:
    """Why another model request may not be admitted, or ``None`` if it may."""
    if counters.actions >= budgets.max_actions:
        return _exhausted("max_actions")
    caps = budgets.max_model_requests
    if caps is not None and counters.model_requests >= caps:
        return _exhausted("max_model_requests")
    if budgets.max_tokens is not None:
        if counters.usage_measurement != "complete":
            return stop_for("runtime_failure", "usage_unavailable")
        if counters.measured_tokens >= budgets.max_tokens:
            return _exhausted("max_tokens")
    return None


def tool_call_stop(counters: Counters, budgets: Budgets) -> Stop | None:
    """Why another tool call may not be attempted, or ``None`` if it may."""
    if counters.actions >= budgets.max_actions:
        return _exhausted("max_actions")
    caps = budgets.max_tool_calls
    if caps is not None and counters.tool_calls >= caps:
        return _exhausted("max_tool_calls")
    return None


def usage_stop(counters: Counters, budgets: Budgets) -> Stop | None:
    """After a response: stop on unmeasured usage or overshoot under ``max_tokens``."""
    if budgets.max_tokens is None:
        return None
    if counters.usage_measurement != "complete":
        return stop_for("runtime_failure", "usage_unavailable")
    if counters.measured_tokens > budgets.max_tokens:
        return _exhausted("max_tokens_overshoot")
    return None


def output_allowance(
    counters: Counters, budgets: Budgets, max_output_tokens: int | None
) -> int | None:
    """The output allowance of the next request: bounded by the tokens left."""
    if budgets.max_tokens is None:
        return max_output_tokens
    remaining = max(budgets.max_tokens - counters.measured_tokens, 0)
    if max_output_tokens is None:
        return remaining
    return min(max_output_tokens, remaining)
