"""A run's events as telemetry keeps them: stamped, bounded, metadata only."""

from __future__ import annotations

from collections.abc import Mapping

import attrs

__all__ = ["MAX_RECORDED_EVENTS", "RecordedEvent", "RunRecorder"]

#: Events kept per attempt; later ones are counted, and their spans dropped.
MAX_RECORDED_EVENTS = 20_000


@attrs.frozen(kw_only=True)
class RecordedEvent:
    """One engine event with its wall-clock time (ns since the epoch)."""

    at_ns: int
    type: str
    fields: Mapping[str, str | int | None]


class RunRecorder:
    """Keeps a run's events for its spans; never blocks, never grows unbounded."""

    def __init__(self, limit: int = MAX_RECORDED_EVENTS) -> None:
        self._limit = limit
        self.events: list[RecordedEvent] = []
        self.overflow = 0

    def __call__(
        self, at_ns: int, type: str, fields: Mapping[str, str | int | None]
    ) -> None:
        """Keep one event, or count it when the recorder is full."""
        if len(self.events) >= self._limit:
            self.overflow += 1
            return
        self.events.append(RecordedEvent(at_ns=at_ns, type=type, fields=dict(fields)))
