"""The record's own data: write evidence and the task verification verdicts.

The engine produces these and the record carries them, so they live here: the
record never reaches back into the engine for its field types.
"""

from __future__ import annotations

from typing import Any, Literal

import attrs

from artemiskit._common._converter import CONVERTER

__all__ = [
    "JudgeEntry",
    "JudgeScores",
    "RequirementResult",
    "ScorerEntry",
    "StateChange",
    "TaskVerification",
    "Verdict",
]

Verdict = Literal["passed", "failed", "unavailable"]


@attrs.frozen(kw_only=True)
class StateChange:
    """Evidence of one successful write: digests only, never the content."""

    tool: str
    resource: Literal["file", "record", "draft", "approval", "delegation", "tool_state"]
    before: str | None
    after: str | None


@attrs.frozen(kw_only=True)
class JudgeScores:
    """The spread of a judge's valid scores over its samples."""

    min: float
    median: float
    max: float


@attrs.frozen(kw_only=True)
class JudgeEntry:
    """How a ``judge`` requirement was judged: kinds seen, samples, score spread.

    Attributes:
        sees: The kinds of context the judge received (never their content).
        samples: How many times the judge was asked.
        scores: Min, median and max of the valid scores; ``None`` when none was.
    """

    sees: tuple[str, ...]
    samples: int
    scores: JudgeScores | None = None


@attrs.frozen(kw_only=True)
class ScorerEntry:
    """Which custom scorer decided a ``scorer`` requirement, and its value."""

    name: str
    version: str | None
    value: float | None = None


@attrs.frozen(kw_only=True)
class RequirementResult:
    """The verdict on one declared outcome.

    ``judge`` and ``scorer`` describe how a ``judge`` or ``scorer`` requirement
    was decided (absent from the record for other kinds).
    """

    id: str
    kind: str
    status: Verdict
    reason: str
    judge: JudgeEntry | None = None
    scorer: ScorerEntry | None = None


@attrs.frozen(kw_only=True)
class TaskVerification:
    """The overall verdict and every requirement's."""

    status: Verdict
    reason: str
    requirements: tuple[RequirementResult, ...] = ()


def _omit_absent_entries(hook: Any) -> Any:
    """Leave ``judge``/``scorer`` out of a requirement that has none."""

    def unstructure(result: RequirementResult) -> dict[str, Any]:
        document: dict[str, Any] = hook(result)
        for key in ("judge", "scorer"):
            if document[key] is None:
                del document[key]
        return document

    return unstructure


CONVERTER.register_unstructure_hook(
    RequirementResult,
    _omit_absent_entries(CONVERTER.get_unstructure_hook(RequirementResult)),
)
