"""A real, scriptable model-provider HTTP/1.1 server on 127.0.0.1 for tests.

It answers whatever path it is asked (Chat Completions, Azure deployment URLs, the
Anthropic Messages API): `_wire` renders one scripted model turn in each protocol.

Standard library only: a `ThreadingHTTPServer` on an ephemeral port, served from a
background thread. Each test queues what the server does with the next requests:

- `Reply`: answer with a status code and a JSON (or raw bytes) body;
- `NeverAnswer`: read the request, answer nothing, and watch the connection until
  the client closes it (recorded as a disconnect);
- `CloseConnection`: read the request and drop the connection without answering;
- `Trickle`: answer one byte at a time, pausing between bytes.

Every request is recorded (method, path, headers, raw and parsed body), so tests can
count requests and inspect what the client sent. Waiting is event-driven:
`wait_for_requests`, `wait_for_hanging`, `wait_for_disconnects` block on a condition
(call them through `anyio.to_thread.run_sync` from async tests).
"""

from __future__ import annotations

import collections
import json
import select
import sys
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable
    from types import TracebackType

__all__ = [
    "ChatServer",
    "CloseConnection",
    "Computed",
    "NeverAnswer",
    "RecordedRequest",
    "Reply",
    "Trickle",
    "chat_reply",
]

WAIT_SECONDS = 30.0  # only bounds a stuck test; nothing waits this long normally
POLL_SECONDS = 0.01  # how often the server threads look at their stop flag


@dataclass(frozen=True)
class Reply:
    """Answer with ``status`` and ``body`` (JSON-encoded unless bytes).

    ``chunked`` sends the body with chunked transfer encoding, without a
    ``Content-Length``, in pieces of 1 MiB. ``headers`` are sent as given.
    """

    body: object = None
    status: int = 200
    content_type: str = "application/json"
    chunked: bool = False
    headers: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Trickle:
    """Answer 200 with ``body`` as JSON, one byte every ``pause_s`` seconds.

    Each byte arrives quickly, so only a deadline on the whole request ends it.
    """

    body: object
    pause_s: float


@dataclass(frozen=True)
class NeverAnswer:
    """Never answer; record a disconnect once the client closes the connection."""


@dataclass(frozen=True)
class CloseConnection:
    """Drop the connection without sending any response."""


@dataclass(frozen=True)
class Computed:
    """Answer with the `Reply` that ``make`` builds from the request received."""

    make: Callable[[RecordedRequest], Reply]


Behaviour = Reply | NeverAnswer | CloseConnection | Computed | Trickle


@dataclass(frozen=True)
class RecordedRequest:
    """One request as the server received it (header names lower-cased)."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes
    json: Any = field(default=None)


def chat_reply(
    *,
    content: str | None = None,
    tool_calls: list[dict[str, Any]] | None = None,
    usage: dict[str, Any] | None = None,
) -> Reply:
    """A well-formed Chat Completions answer."""
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls is not None:
        message["tool_calls"] = tool_calls
    body: dict[str, Any] = {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "model": "test-model",
        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
    }
    if usage is not None:
        body["usage"] = usage
    return Reply(body=body)


class _QuietServer(ThreadingHTTPServer):
    """A client that hangs up mid-answer is expected here, not a test failure.

    It counts the connections it accepted and those that ended (the client
    closed them, or the server did), for tests of connection sharing.
    """

    accepted = 0
    on_change: Callable[[], None] = staticmethod(lambda: None)

    def get_request(self) -> Any:
        request = super().get_request()
        self.accepted += 1
        return request

    def shutdown_request(self, request: Any) -> None:
        super().shutdown_request(request)
        self.on_change()

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class ChatServer:
    """The server; use as a context manager (starts and stops it)."""

    def __init__(self) -> None:
        self._behaviours: collections.deque[Behaviour] = collections.deque()
        self._requests: list[RecordedRequest] = []
        self._hanging = 0
        self._disconnects = 0
        self._changed = threading.Condition()
        self._stopping = threading.Event()
        self._httpd = _QuietServer(("127.0.0.1", 0), self._handler_class())
        self._httpd.daemon_threads = True
        self._ended = 0
        self._httpd.on_change = self._connection_ended
        self._thread = threading.Thread(
            target=self._httpd.serve_forever,
            kwargs={"poll_interval": POLL_SECONDS},
            name="chat-server",
            daemon=True,
        )

    @property
    def url(self) -> str:
        """The base URL to give the client, ending in ``/v1``."""
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    @property
    def root(self) -> str:
        """The server's root URL (an Azure OpenAI resource endpoint)."""
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    @property
    def host(self) -> str:
        """``127.0.0.1:PORT``, as error messages name the server."""
        return f"127.0.0.1:{self._httpd.server_address[1]}"

    @property
    def requests(self) -> list[RecordedRequest]:
        """A copy of the requests received so far."""
        with self._changed:
            return list(self._requests)

    @property
    def disconnects(self) -> int:
        """How many `NeverAnswer` connections the client closed."""
        with self._changed:
            return self._disconnects

    @property
    def connections(self) -> int:
        """How many TCP connections the server accepted so far."""
        return self._httpd.accepted

    def wait_for_ended_connections(self, count: int) -> bool:
        """Block until ``count`` connections ended; ``False`` on a stuck test."""
        return self._wait(lambda: self._ended >= count)

    def _connection_ended(self) -> None:
        with self._changed:
            self._ended += 1
            self._changed.notify_all()

    def enqueue(self, *behaviours: Behaviour) -> None:
        """Script the next requests, in order."""
        with self._changed:
            self._behaviours.extend(behaviours)

    def wait_for_requests(self, count: int) -> bool:
        """Block until ``count`` requests arrived; ``False`` on a stuck test."""
        return self._wait(lambda: len(self._requests) >= count)

    def wait_for_hanging(self, count: int = 1) -> bool:
        """Block until ``count`` `NeverAnswer` requests are being held."""
        return self._wait(lambda: self._hanging >= count)

    def wait_for_disconnects(self, count: int = 1) -> bool:
        """Block until the client closed ``count`` held connections."""
        return self._wait(lambda: self._disconnects >= count)

    def _wait(self, predicate: Any) -> bool:
        with self._changed:
            return bool(self._changed.wait_for(predicate, timeout=WAIT_SECONDS))

    def __enter__(self) -> ChatServer:
        self._thread.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join()

    def _next(self, request: RecordedRequest) -> Behaviour:
        with self._changed:
            self._requests.append(request)
            self._changed.notify_all()
            if self._behaviours:
                return self._behaviours.popleft()
        return Reply(status=500, body={"error": {"code": "unscripted_request"}})

    def _hold(self, handler: BaseHTTPRequestHandler) -> None:
        """Keep a request unanswered until the client closes the connection."""
        with self._changed:
            self._hanging += 1
            self._changed.notify_all()
        connection = handler.connection
        while not self._stopping.is_set():
            readable, _, _ = select.select([connection], [], [], POLL_SECONDS)
            if readable:
                try:
                    data = connection.recv(1024)
                except OSError:
                    data = b""
                if not data:
                    with self._changed:
                        self._disconnects += 1
                        self._changed.notify_all()
                    break
        handler.close_connection = True

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                self._serve()

            def do_GET(self) -> None:
                self._serve()

            def log_message(self, format: str, *args: Any) -> None:
                del format, args

            def _serve(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                try:
                    parsed = json.loads(body) if body else None
                except ValueError:
                    parsed = None
                request = RecordedRequest(
                    method=self.command,
                    path=self.path,
                    headers={k.lower(): v for k, v in self.headers.items()},
                    body=body,
                    json=parsed,
                )
                behaviour = server._next(request)
                if isinstance(behaviour, Computed):
                    behaviour = behaviour.make(request)
                if isinstance(behaviour, NeverAnswer):
                    server._hold(self)
                elif isinstance(behaviour, CloseConnection):
                    self.close_connection = True
                elif isinstance(behaviour, Trickle):
                    self._trickle(behaviour)
                else:
                    self._reply(behaviour)

            def _trickle(self, trickle: Trickle) -> None:
                payload = json.dumps(trickle.body).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                try:
                    for byte in payload:
                        if server._stopping.wait(trickle.pause_s):
                            break
                        self.wfile.write(bytes([byte]))
                        self.wfile.flush()
                except OSError:
                    pass  # the client gave up, as the test expects
                self.close_connection = True

            def _reply(self, reply: Reply) -> None:
                if isinstance(reply.body, bytes):
                    payload = reply.body
                else:
                    payload = json.dumps(reply.body).encode()
                self.send_response(reply.status)
                self.send_header("Content-Type", reply.content_type)
                for name, value in reply.headers:
                    self.send_header(name, value)
                if not reply.chunked:
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                    return
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                step = 1024 * 1024
                for start in range(0, len(payload), step):
                    piece = payload[start : start + step]
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
                self.wfile.write(b"0\r\n\r\n")

        return Handler
