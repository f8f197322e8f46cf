"""A loopback OpenAI-compatible model for prompt-response tests, and a plugin."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

import anyio
import pytest

from tests.providers._chat_server import ChatServer, Computed, Reply, chat_reply

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from tests.providers._chat_server import RecordedRequest

CORPUS = __import__("pathlib").Path(__file__).parent / "corpus"
PLUGIN = """
from artemiskit.prompt_response import Evaluation


def shout(response, config):
    ok = response.isupper() and len(response) >= config.get("min", 0)
    return Evaluation(passed=ok, score=1.0 if ok else 0.0, reason="loud")
"""


def model_answer(request: RecordedRequest) -> Reply:
    """Answer what follows ``ANSWER:`` in the last message (a judge gets a grade)."""
    last = request.json["messages"][-1]["content"]
    if "RUBRIC:" in last:
        return chat_reply(content='{"score": 0.9, "reason": "fine"}')
    if "Text A (reference)" in last:
        return chat_reply(content='{"score": 0.8, "reason": "close"}')
    found = re.search(r"ANSWER:(.*)", last, re.S)
    text = found.group(1) if found else "no answer"
    usage = {"prompt_tokens": 100, "completion_tokens": 10}
    return chat_reply(content=text, usage=usage)


@pytest.fixture
def model_server() -> Iterator[ChatServer]:
    """A started loopback server that answers every request with `model_answer`."""
    with ChatServer() as server:
        server.enqueue(*[Computed(model_answer)] * 200)
        yield server


@pytest.fixture
def chat_server() -> Iterator[ChatServer]:
    """A started loopback server with nothing scripted yet."""
    with ChatServer() as server:
        yield server


def write_config(folder: Path, url: str, **extra: Any) -> Path:
    """An ``artemis.config.yaml`` with the ``local`` entry at ``url``."""
    data = {"providers": {"local": {"type": "openai", "base_url": url}}, **extra}
    path = folder / "artemis.config.yaml"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def install_plugin(folder: Path) -> Path:
    """A real distribution declaring the ``shout`` evaluator, under ``folder``."""
    site = folder / "site"
    site.mkdir()
    (site / "shout_evaluator.py").write_text(PLUGIN, encoding="utf-8")
    info = site / "shout_evaluator-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: shout-evaluator\nVersion: 1.0\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text(
        "[artemiskit.evaluators]\nshout = shout_evaluator:shout\n", encoding="utf-8"
    )
    return site


class ExpiringTimer:
    """A case timer (`ScenarioRunOptions.timer`) that expires when a test says so.

    A case timeout without waiting for one: the test calls `expire` (or awaits
    `expire_when_hanging`) once the request it wants cut off has reached the server.

    Attributes:
        asked: The timeouts, in seconds, the runner asked for, in order.
    """

    def __init__(self) -> None:
        self.asked: list[float] = []
        self._scopes: list[anyio.CancelScope] = []

    def __call__(self, seconds: float) -> anyio.CancelScope:
        self.asked.append(seconds)
        scope = anyio.CancelScope()
        self._scopes.append(scope)
        return scope

    def expire(self) -> None:
        """Cancel every scope handed out so far: their requests time out."""
        for scope in self._scopes:
            scope.cancel()

    async def expire_when_hanging(self, server: ChatServer) -> None:
        """Expire once ``server`` holds a request it never answers."""
        assert await anyio.to_thread.run_sync(server.wait_for_hanging)
        self.expire()
