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
    """Keeps a run's events for its spans; never blocks, never grows unbounded.

    `record` is the hub's tap: it runs on every engine event of the run, so it
    keeps the event as it comes (the hub builds a fresh ``fields`` mapping for
    each emit) and builds `RecordedEvent` objects only when asked.
    """

    __slots__ = ("_limit", "_raw", "overflow")

    def __init__(self, limit: int = MAX_RECORDED_EVENTS) -> None:
        self._limit = limit
        self._raw: list[tuple[int, str, Mapping[str, str | int | None]]] = []
        self.overflow = 0

    def record(
        self, at_ns: int, type: str, fields: Mapping[str, str | int | None]
    ) -> None:
        """Keep one event, or count it when the recorder is full."""
        if len(self._raw) < self._limit:
            self._raw.append((at_ns, type, fields))
        else:
            self.overflow += 1

    @property
    def events(self) -> list[RecordedEvent]:
        """The kept events, in order."""
        return [
            RecordedEvent(at_ns=at_ns, type=type, fields=fields)
            for at_ns, type, fields in self._raw
        ]
