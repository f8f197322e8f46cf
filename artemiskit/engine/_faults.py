"""Declared faults and bounded retries (SPEC 3.4): a deterministic schedule.

The schedule lives in the session state, so a checkpoint carries it. It sits between
admission (declared → input schema → allow) and execution: only an admitted call
reaches it. ``occurrence`` counts a tool's original (logical) admitted calls, never
retries; declarations for the same tool and occurrence apply, in declaration order,
to that call's attempts 1, 2, 3 ...; each declaration is consumed once.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import attrs

from artemiskit.workflow._model import Fault, FaultKind

__all__ = [
    "RETRYABLE_KINDS",
    "FaultSchedule",
    "ScheduledFault",
    "schedule_from",
]

#: Only these kinds fail before any effect, so only they retry automatically.
RETRYABLE_KINDS: frozenset[str] = frozenset({"unavailable_tool", "timeout"})


@attrs.frozen(kw_only=True)
class ScheduledFault:
    """One declaration and whether it was consumed."""

    id: str
    tool: str
    occurrence: int
    kind: FaultKind
    timeout_ms: int | None = None
    fixture: dict[str, Any] | None = None
    content: str | None = None
    consumed: bool = False


@attrs.frozen(kw_only=True)
class FaultSchedule:
    """The declared faults, the original-call counts, and what happened.

    Attributes:
        faults: Every declaration, in declaration order.
        calls: Original admitted calls per tool so far.
        injected: Injections per fault kind.
        retries: Automatic retries made.
        recovered: Logical calls that failed at least once and then succeeded.
        exhausted: Logical calls that met a fault and ended failed.
        attempts: For calls that met a fault: attempts used (as text) → calls.
    """

    faults: tuple[ScheduledFault, ...] = ()
    calls: dict[str, int] = attrs.field(factory=dict)
    injected: dict[str, int] = attrs.field(factory=dict)
    retries: int = 0
    recovered: int = 0
    exhausted: int = 0
    attempts: dict[str, int] = attrs.field(factory=dict)

    def begin_call(self, tool: str) -> tuple[FaultSchedule, int]:
        """Count one original call of ``tool``; return its occurrence number.

        Without declarations for ``tool`` nothing needs counting, and the schedule
        is returned unchanged (occurrence 0 matches no declaration).
        """
        if not self.faults or not any(fault.tool == tool for fault in self.faults):
            return self, 0
        occurrence = self.calls.get(tool, 0) + 1
        return attrs.evolve(self, calls={**self.calls, tool: occurrence}), occurrence

    def take(
        self, tool: str, occurrence: int
    ) -> tuple[FaultSchedule, ScheduledFault | None]:
        """Consume the next unconsumed declaration for this call, if any."""
        for index, fault in enumerate(self.faults):
            if (
                fault.tool == tool
                and fault.occurrence == occurrence
                and not (fault.consumed)
            ):
                faults = list(self.faults)
                faults[index] = attrs.evolve(fault, consumed=True)
                injected = Counter(self.injected)
                injected[fault.kind] += 1
                return (
                    attrs.evolve(self, faults=tuple(faults), injected=dict(injected)),
                    fault,
                )
        return self, None

    def finish_call(
        self, *, attempts: int, succeeded: bool, faulted: bool
    ) -> FaultSchedule:
        """Record how one logical call that met a fault ended."""
        if not faulted:
            return self
        histogram = Counter(self.attempts)
        histogram[str(attempts)] += 1
        return attrs.evolve(
            self,
            attempts=dict(histogram),
            retries=self.retries + attempts - 1,
            recovered=self.recovered + (1 if succeeded and attempts > 1 else 0),
            exhausted=self.exhausted + (0 if succeeded else 1),
        )


def schedule_from(faults: tuple[Fault, ...]) -> FaultSchedule:
    """The initial schedule of a workflow's declarations.

    Without declarations every run shares one empty schedule: a schedule is
    only ever replaced (``attrs.evolve``), never changed in place.
    """
    if not faults:
        return _NO_FAULTS
    return FaultSchedule(
        faults=tuple(
            ScheduledFault(
                id=f.id,
                tool=f.tool,
                occurrence=f.occurrence,
                kind=f.kind,
                timeout_ms=f.timeout_ms,
                fixture=f.fixture,
                content=f.content,
            )
            for f in faults
        )
    )


_NO_FAULTS = FaultSchedule()
