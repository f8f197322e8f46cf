"""A tiny stochastic model behind an OpenAI-compatible endpoint on 127.0.0.1.

It stands in for a real model in the replay example: like a sampling model, its
wording, tool call ids and token counts change from request to request. Standard
library only; `serve()` starts it on a free port in a background thread.
"""

from __future__ import annotations

import json
import random
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["serve"]

SUMMARIES = (
    "Refunds are accepted within 30 days of purchase with a receipt.\n",
    "Refund within 30 days, receipt required.\n",
    "30 days to ask for a refund (bring the receipt).\n",
)


def _call(name: str, arguments: dict[str, str]) -> dict[str, Any]:
    return {
        "id": f"call_{uuid.uuid4().hex[:12]}",
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(arguments)},
    }


def answer(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The next assistant message: read, write a summary, then say so."""
    results = sum(1 for message in messages if message["role"] == "tool")
    message: dict[str, Any] = {"role": "assistant", "content": None}
    if results == 0:
        message["tool_calls"] = [_call("read_file", {"path": "docs/refund-policy.md"})]
    elif results == 1:
        content = random.choice(SUMMARIES)
        arguments = {"path": "out/summary.md", "content": content}
        message["tool_calls"] = [_call("write_file", arguments)]
    else:
        message["content"] = random.choice(("Done.", "Summary written.", "All set."))
    prompt, completion = random.randint(100, 300), random.randint(5, 40)
    return {
        "id": f"chatcmpl-{uuid.uuid4().hex[:8]}",
        "object": "chat.completion",
        "model": "demo-model",
        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
        "usage": {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        },
    }


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        request = json.loads(self.rfile.read(length))
        payload = json.dumps(answer(request["messages"])).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, format: str, *args: Any) -> None:
        del format, args


def serve() -> ThreadingHTTPServer:
    """Start the model on 127.0.0.1 (a free port); ``shutdown()`` stops it."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
