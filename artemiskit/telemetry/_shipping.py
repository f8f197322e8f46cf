"""Turning planned spans into OTLP/HTTP protobuf and posting them, bounded.

The OpenTelemetry SDK gives the span model and the protobuf encoding (the
``otel`` extra); the POST itself goes through httpx, asynchronously, so the flush
bound is an ordinary cancel scope on either event loop and nothing is left running
in a thread. Export never raises into a run: any failure counts the spans as
dropped. The collector's answer is never read beyond its status code.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

import anyio

from artemiskit._version import __version__

if TYPE_CHECKING:
    from collections.abc import Sequence

    from artemiskit.telemetry._config import TelemetryConfig
    from artemiskit.telemetry._plan import PlannedSpan

__all__ = ["FLUSH_BOUND_S", "SpanShipper"]

#: How long a run may wait for its spans to be accepted (SPEC 25: 1 s).
FLUSH_BOUND_S = 1.0


class SpanShipper:
    """Posts batches of planned spans to one collector."""

    def __init__(self, config: TelemetryConfig) -> None:
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.util.instrumentation import InstrumentationScope

        self._url = config.traces_url
        self._headers_env = dict(config.headers_env)
        self._resource = Resource.create({"service.name": config.service_name})
        self._scope = InstrumentationScope("artemiskit", __version__)

    def _headers(self) -> dict[str, str]:
        headers = {"content-type": "application/x-protobuf"}
        for header, variable in self._headers_env.items():
            value = os.environ.get(variable)
            if value:
                headers[header] = value
        return headers

    def encode(self, trace_id: int, spans: Sequence[PlannedSpan]) -> bytes:
        """The OTLP ``ExportTraceServiceRequest`` of ``spans`` in one trace."""
        from opentelemetry.exporter.otlp.proto.common.trace_encoder import (
            encode_spans,
        )

        readable = [self._readable(trace_id, span) for span in spans]
        message: Any = encode_spans(readable)
        data: bytes = message.SerializeToString()
        return data

    def _readable(self, trace_id: int, span: PlannedSpan) -> Any:
        from opentelemetry.sdk.trace import ReadableSpan
        from opentelemetry.trace import (
            Link,
            SpanContext,
            SpanKind,
            Status,
            StatusCode,
            TraceFlags,
        )

        def context(span_id: int) -> SpanContext:
            return SpanContext(
                trace_id=trace_id,
                span_id=span_id,
                is_remote=False,
                trace_flags=TraceFlags(TraceFlags.SAMPLED),
            )

        status = (
            Status(StatusCode.ERROR, span.error)
            if span.error is not None
            else Status(StatusCode.UNSET)
        )
        return ReadableSpan(
            name=span.name,
            context=context(span.span_id),
            parent=None if span.parent_id is None else context(span.parent_id),
            resource=self._resource,
            attributes=dict(span.attributes),
            links=[Link(context(link)) for link in span.links],
            kind=SpanKind.CLIENT if span.client else SpanKind.INTERNAL,
            status=status,
            start_time=span.start_ns,
            end_time=span.end_ns,
            instrumentation_scope=self._scope,
        )

    async def ship(self, trace_id: int, spans: Sequence[PlannedSpan]) -> int:
        """Post ``spans``; return how many the collector accepted (all or none).

        Bounded by `FLUSH_BOUND_S` and shielded from the caller's cancellation
        (a cancelled run still reports its spans, at most that much later).
        """
        if not spans:
            return 0
        import httpx

        accepted = False
        with anyio.CancelScope(shield=True), anyio.move_on_after(FLUSH_BOUND_S):
            try:
                body = self.encode(trace_id, spans)
                async with httpx.AsyncClient(
                    trust_env=False,
                    follow_redirects=False,
                    timeout=FLUSH_BOUND_S,
                    transport=httpx.AsyncHTTPTransport(retries=0, trust_env=False),
                ) as client:
                    response = await client.post(
                        self._url, content=body, headers=self._headers()
                    )
                accepted = 200 <= response.status_code < 300
            except Exception:
                accepted = False
        return len(spans) if accepted else 0
