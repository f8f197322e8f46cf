"""A stochastic OpenAI-compatible model on 127.0.0.1, and a listener that counts.

`stochastic_model` answers Chat Completions like a sampling model would: its tool
call ids, the summary it writes, its final words and its token counts are drawn at
random on every request, so two recordings of one workflow differ and only a
replay can reproduce a run. `CountingListener` accepts connections on 127.0.0.1
and counts them: a replay pointed at it must leave the count at zero.
"""

from __future__ import annotations

import json
import random
import select
import socket
import threading
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tests._builders import workflow_dict
from tests.providers._chat_server import ChatServer, Computed, Reply, chat_reply

if TYPE_CHECKING:
    from types import TracebackType

    from tests.providers._chat_server import RecordedRequest

__all__ = [
    "CountingListener",
    "ListenerOnPort",
    "config_for",
    "model_workflow",
    "serve_stochastic",
    "stochastic_model",
]

SUMMARIES = ("Refunds within 30 days.", "Refunds within a month.", "30 days, receipt.")


def _call(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": f"call_{uuid.uuid4().hex[:12]}",
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(arguments)},
    }


def _usage() -> dict[str, int]:
    prompt, completion = random.randint(20, 400), random.randint(3, 60)
    return {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
    }


def stochastic_model(request: RecordedRequest) -> Reply:
    """Read the policy, write a randomly worded summary, then say something."""
    messages = request.json["messages"]
    results = sum(1 for message in messages if message["role"] == "tool")
    if results == 0:
        call = _call("read_file", {"path": "docs/policy.md"})
        return chat_reply(tool_calls=[call], usage=_usage())
    if results == 1:
        content = random.choice(SUMMARIES)
        call = _call("write_file", {"path": "out/summary.md", "content": content})
        return chat_reply(tool_calls=[call], usage=_usage())
    words = random.choice(("Done.", "Written.", "Summary saved."))
    return chat_reply(content=words, usage=_usage())


def serve_stochastic(server: ChatServer, requests: int) -> None:
    """Let ``server`` answer the next ``requests`` requests stochastically."""
    server.enqueue(*(Computed(stochastic_model) for _ in range(requests)))


def model_workflow(folder: Path, name: str = "summarize") -> Path:
    """A workflow against the ``local`` provider entry, written into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    data = workflow_dict(name=name, target={"provider": "local", "model": "m1"})
    path = folder / "workflow.yaml"
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return path


def config_for(path: Path, base_url: str) -> Path:
    """A trusted configuration whose ``local`` entry points at ``base_url``."""
    path.write_text(
        json.dumps(
            {
                "providers": {
                    "local": {
                        "type": "openai",
                        "base_url": base_url,
                        "api_key_env": "TEST_REPLAY_KEY",
                        "request_timeout_ms": 20000,
                    }
                }
            }
        ),
        encoding="utf-8",
    )
    return path


class CountingListener:
    """A socket listening on 127.0.0.1 that counts the connections it accepts."""

    def __init__(self) -> None:
        self._socket = socket.socket()
        self._socket.bind(("127.0.0.1", 0))
        self._socket.listen(16)
        self._socket.setblocking(False)
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._accepted = 0
        self._thread = threading.Thread(target=self._serve, daemon=True)

    @property
    def url(self) -> str:
        """A base URL that reaches this listener."""
        return f"http://127.0.0.1:{self._socket.getsockname()[1]}/v1"

    @property
    def accepted(self) -> int:
        """Connections accepted so far."""
        with self._lock:
            return self._accepted

    def _serve(self) -> None:
        while not self._stop.is_set():
            readable, _, _ = select.select([self._socket], [], [], 0.01)
            if readable:
                try:
                    connection, _ = self._socket.accept()
                except BlockingIOError:
                    continue
                with self._lock:
                    self._accepted += 1
                connection.close()

    def __enter__(self) -> CountingListener:
        self._thread.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._stop.set()
        self._thread.join()
        self._socket.close()


class ListenerOnPort(CountingListener):
    """A counting listener bound to a given port (where a stopped server was)."""

    def __init__(self, port: int) -> None:
        super().__init__()
        self._socket.close()
        self._socket = socket.socket()
        self._socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._socket.bind(("127.0.0.1", port))
        self._socket.listen(16)
        self._socket.setblocking(False)
