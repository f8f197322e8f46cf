"""The record's own data: write evidence and the task verification verdicts.

The engine produces these and the record carries them, so they live here: the
record never reaches back into the engine for its field types.
"""

from __future__ import annotations

from typing import Literal

import attrs

__all__ = ["RequirementResult", "StateChange", "TaskVerification", "Verdict"]

Verdict = Literal["passed", "failed", "unavailable"]


@attrs.frozen(kw_only=True)
class StateChange:
    """Evidence of one successful write: digests only, never the content."""

    tool: str
    resource: Literal["file", "record", "draft", "approval", "delegation", "tool_state"]
    before: str | None
    after: str | None


@attrs.frozen(kw_only=True)
class RequirementResult:
    """The verdict on one declared outcome."""

    id: str
    kind: str
    status: Verdict
    reason: str


@attrs.frozen(kw_only=True)
class TaskVerification:
    """The overall verdict and every requirement's."""

    status: Verdict
    reason: str
    requirements: tuple[RequirementResult, ...] = ()
