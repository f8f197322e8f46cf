"""`Telemetry`: runs and suites as OpenTelemetry traces (SPEC 25)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from artemiskit._common._extras import install_hint
from artemiskit._errors import ConfigError
from artemiskit.records._record import TelemetryInfo
from artemiskit.telemetry._plan import (
    PlannedSpan,
    TracePosition,
    plan_run,
    span_id_for,
    trace_id_for,
)
from artemiskit.telemetry._recorder import RunRecorder
from artemiskit.telemetry._shipping import SpanShipper

if TYPE_CHECKING:
    from collections.abc import Mapping

    from artemiskit.records._record import ExecutionRecord
    from artemiskit.telemetry._config import TelemetryConfig
    from artemiskit.telemetry._plan import AttributeValue
    from artemiskit.telemetry._protocol import RunTelemetry

__all__ = ["INSTALL_HINT", "SuiteTelemetry", "Telemetry"]

INSTALL_HINT = install_hint("otel")
_EXTRA = (
    "opentelemetry.sdk.trace",
    "opentelemetry.exporter.otlp.proto.common.trace_encoder",
)


def _require_extra() -> None:
    for name in _EXTRA:
        try:
            importlib.import_module(name)
        except ImportError:
            raise ConfigError(
                "OpenTelemetry export needs the `otel` extra "
                f"({name.split('.')[0]} is not installed): {INSTALL_HINT}",
                reason="otel_extra_missing",
            ) from None


class Telemetry:
    """Exports every run it is given as an OpenTelemetry trace, metadata only.

    Pass it as ``telemetry=`` to `ArtemisKit.run_workflow`,
    `ArtemisKit.create_workflow_session` or `ArtemisKit.run_suite`. Each run is a
    trace: a run span with a child span per model request and per tool attempt
    (denials included), named by the GenAI semantic conventions; a suite is one
    trace with the suite span as the root. Prompts, completions, tool arguments
    and results are never exported. Spans go out when the run ends, within a
    1 s bound; what did not make it is counted in ``record.telemetry.dropped``.
    """

    def __init__(self, config: TelemetryConfig) -> None:
        """Prepare export to ``config``'s collector.

        Raises:
            ConfigError: The ``otel`` extra is not installed (exit 1, with the
                install hint).
        """
        _require_extra()
        self.config = config
        self._shipper = SpanShipper(config)

    def __repr__(self) -> str:
        return f"Telemetry({self.config!r})"

    def for_run(self) -> RunTelemetry:
        """Telemetry for one run attempt that is its own trace."""
        return _RunTrace(self._shipper, parent=None)

    def for_suite(self, suite_id: str) -> SuiteTelemetry:
        """Telemetry for a suite: one trace, the suite span its root."""
        return SuiteTelemetry(self, suite_id)


class _RunTrace:
    """One attempt's telemetry: keeps its events, exports its spans at the end."""

    def __init__(self, shipper: SpanShipper, *, parent: TracePosition | None) -> None:
        self._shipper = shipper
        self._parent = parent
        self._recorder = RunRecorder()
        #: Keeps one engine event (bounded; never blocks): the hub calls it.
        self.tap = self._recorder.record

    async def export_run(self, record: ExecutionRecord) -> TelemetryInfo:
        """Export the attempt's spans; say how many went out and how many not."""
        position = self._parent or TracePosition(trace_id=trace_id_for(record.run_id))
        try:
            spans, over = plan_run(record, self._recorder.events, position)
        except Exception:
            return TelemetryInfo(exported=0, dropped=1 + self._recorder.overflow)
        exported = await self._shipper.ship(position.trace_id, spans)
        dropped = len(spans) - exported + over + self._recorder.overflow
        return TelemetryInfo(exported=exported, dropped=dropped)


class SuiteTelemetry:
    """A suite's trace: its runs are children of the suite span."""

    def __init__(self, telemetry: Telemetry, suite_id: str) -> None:
        self._shipper = telemetry._shipper
        self.suite_id = suite_id
        self._position = TracePosition(
            trace_id=trace_id_for(suite_id), parent_id=span_id_for(suite_id)
        )

    def for_run(self) -> RunTelemetry:
        """Telemetry for one run of the suite."""
        return _RunTrace(self._shipper, parent=self._position)

    async def export_suite(
        self,
        *,
        name: str,
        started_ns: int,
        finished_ns: int,
        attributes: Mapping[str, AttributeValue],
        error: str | None,
    ) -> TelemetryInfo:
        """Export the suite span (the trace's root) once the suite has ended."""
        span = PlannedSpan(
            name=name,
            span_id=self._position.parent_id or span_id_for(self.suite_id),
            parent_id=None,
            start_ns=started_ns,
            end_ns=max(finished_ns, started_ns),
            client=False,
            attributes={"artemiskit.suite_id": self.suite_id, **attributes},
            error=error,
        )
        exported = await self._shipper.ship(self._position.trace_id, [span])
        return TelemetryInfo(exported=exported, dropped=1 - exported)
