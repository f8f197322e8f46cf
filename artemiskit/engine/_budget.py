"""Budget rules of SPEC 3.2: what the counters allow next, under the workflow's caps."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from artemiskit.engine._stops import stop_for
from artemiskit.workflow._model import Budgets

if TYPE_CHECKING:
    from artemiskit.engine._state import Counters, Stop

__all__ = ["Budget"]


def _exhausted(reason: str) -> Stop:
    return stop_for("budget_exhausted", reason)


@attrs.frozen(kw_only=True)
class Budget:
    """A run's caps, and the stop each next action would hit, if any.

    Attributes:
        caps: The workflow's ``budgets``.
        max_output_tokens: The target's own output cap per request, if any.
    """

    caps: Budgets
    max_output_tokens: int | None = None

    def model_request_stop(self, counters: Counters) -> Stop | None:
        """Why another model request may not be admitted, or ``None`` if it may."""
        caps = self.caps
        if counters.actions >= caps.max_actions:
            return _exhausted("max_actions")
        if caps.max_model_requests is not None and (
            counters.model_requests >= caps.max_model_requests
        ):
            return _exhausted("max_model_requests")
        if caps.max_tokens is not None:
            if counters.usage_measurement != "complete":
                return stop_for("runtime_failure", "usage_unavailable")
            if counters.measured_tokens >= caps.max_tokens:
                return _exhausted("max_tokens")
        return None

    def tool_call_stop(self, counters: Counters) -> Stop | None:
        """Why another tool call may not be attempted, or ``None`` if it may."""
        caps = self.caps
        if counters.actions >= caps.max_actions:
            return _exhausted("max_actions")
        if caps.max_tool_calls is not None and (
            counters.tool_calls >= caps.max_tool_calls
        ):
            return _exhausted("max_tool_calls")
        return None

    def usage_stop(self, counters: Counters) -> Stop | None:
        """After a response: stop on unmeasured usage or overshoot of ``max_tokens``."""
        if self.caps.max_tokens is None:
            return None
        if counters.usage_measurement != "complete":
            return stop_for("runtime_failure", "usage_unavailable")
        if counters.measured_tokens > self.caps.max_tokens:
            return _exhausted("max_tokens_overshoot")
        return None

    def output_allowance(self, counters: Counters) -> int | None:
        """The output allowance of the next request: bounded by the tokens left."""
        if self.caps.max_tokens is None:
            return self.max_output_tokens
        remaining = max(self.caps.max_tokens - counters.measured_tokens, 0)
        if self.max_output_tokens is None:
            return remaining
        return min(self.max_output_tokens, remaining)
