"""A loopback OTLP/HTTP trace receiver that decodes what arrives (protobuf).

A real HTTP server on 127.0.0.1 in a thread: tests point `Telemetry` at it and
read back the decoded spans, or make it answer 503 or too late to model a broken
or slow collector.
"""

from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any

import attrs
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
)

if TYPE_CHECKING:
    from collections.abc import Iterator


@attrs.frozen(kw_only=True)
class ReceivedSpan:
    """One decoded span, ids in hex, attributes as plain values."""

    name: str
    trace_id: str
    span_id: str
    parent_id: str
    kind: int
    status_code: int
    attributes: dict[str, Any]
    links: tuple[str, ...]
    service_name: str
    start_ns: int
    end_ns: int


def _value(any_value: Any) -> Any:
    kind = any_value.WhichOneof("value")
    if kind == "array_value":
        return tuple(_value(v) for v in any_value.array_value.values)
    return getattr(any_value, kind) if kind else None


class Receiver:
    """Collects every export request posted to ``/v1/traces``."""

    def __init__(self) -> None:
        self.bodies: list[bytes] = []
        self.paths: list[str] = []
        self.headers: list[dict[str, str]] = []
        self.status = 200
        self.delay_s = 0.0
        self._lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", "0"))
                body = self.rfile.read(length)
                with receiver._lock:
                    receiver.paths.append(self.path)
                    receiver.headers.append(dict(self.headers.items()))
                    if receiver.status == 200:
                        receiver.bodies.append(body)
                if receiver.delay_s:
                    time.sleep(receiver.delay_s)  # the collector is slow, not the test
                self.send_response(receiver.status)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                return

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def endpoint(self) -> str:

        port = self._server.server_address[1]
        return f"http://127.0.0.1:{port}"

    def start(self) -> Receiver:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def spans(self) -> list[ReceivedSpan]:
        with self._lock:
            bodies = list(self.bodies)
        found: list[ReceivedSpan] = []
        for body in bodies:
            request = ExportTraceServiceRequest()
            request.ParseFromString(body)
            for resource_spans in request.resource_spans:
                resource = {
                    a.key: _value(a.value) for a in resource_spans.resource.attributes
                }
                for scope_spans in resource_spans.scope_spans:
                    for span in scope_spans.spans:
                        found.append(
                            ReceivedSpan(
                                name=span.name,
                                trace_id=span.trace_id.hex(),
                                span_id=span.span_id.hex(),
                                parent_id=span.parent_span_id.hex(),
                                kind=span.kind,
                                status_code=span.status.code,
                                attributes={
                                    a.key: _value(a.value) for a in span.attributes
                                },
                                links=tuple(link.span_id.hex() for link in span.links),
                                service_name=str(resource.get("service.name")),
                                start_ns=span.start_time_unix_nano,
                                end_ns=span.end_time_unix_nano,
                            )
                        )
        return found


def closed_port_endpoint() -> str:
    """An endpoint on 127.0.0.1 where nothing listens (a collector that is down)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler)
    port = server.server_address[1]
    server.server_close()
    return f"http://127.0.0.1:{port}"


def receiving() -> Iterator[Receiver]:
    """A started receiver, stopped afterwards (for a fixture)."""
    receiver = Receiver().start()
    try:
        yield receiver
    finally:
        receiver.stop()
