"""The caps a workflow declares (SPEC 3.2), as the contract and the record hold them."""

from __future__ import annotations

import attrs

__all__ = ["Budgets"]


@attrs.frozen(kw_only=True)
class Budgets:
    """Caps on the run (SPEC 3.2); ``None`` means no separate cap.

    The workflow declares them (``artemiskit.workflow.Budgets``) and the record
    repeats them under ``budget.limits``: one type for both.
    """

    max_actions: int
    timeout_ms: int
    max_model_requests: int | None = None
    max_tool_calls: int | None = None
    max_tokens: int | None = None
