"""What the engine asks of telemetry (SPEC 25): two small protocols, no imports.

The engine only taps its event hub and, before the record is returned, awaits the
export of the run's spans (bounded by the exporter: at most its flush bound). The
OpenTelemetry SDK and everything it needs stay behind `Telemetry`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from collections.abc import Mapping

    from artemiskit.records._record import ExecutionRecord, TelemetryInfo

__all__ = ["RunTelemetry", "TelemetrySource"]


class RunTelemetry(Protocol):
    """Telemetry for one run attempt: sees its events, exports its spans."""

    def tap(
        self, at_ns: int, type: str, fields: Mapping[str, str | int | None]
    ) -> None:
        """Keep one event (never blocks, bounded)."""

    async def export_run(self, record: ExecutionRecord) -> TelemetryInfo:
        """Export the attempt's spans within the flush bound; say what went out."""
        ...


class TelemetrySource(Protocol):
    """Hands out the telemetry of each run (a suite's runs share its trace)."""

    def for_run(self) -> RunTelemetry:
        """Telemetry for a new run attempt."""
        ...
