"""Every Python snippet of docs/providers.md runs, offline, from the repository root."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ._chat_server import ChatServer, Reply, chat_reply

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "providers.md"
SNIPPETS = re.findall(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)


def run_snippet(code: str, **env: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def quickstart_replies() -> list[Reply]:
    usage = {"prompt_tokens": 100, "completion_tokens": 10}

    def call(call_id: str, name: str, arguments: dict[str, str]) -> Reply:
        return chat_reply(
            tool_calls=[
                {
                    "id": call_id,
                    "type": "function",
                    "function": {"name": name, "arguments": json.dumps(arguments)},
                }
            ],
            usage=usage,
        )

    return [
        call("c1", "read_file", {"path": "docs/refund-policy.md"}),
        call(
            "c2",
            "write_file",
            {"path": "out/summary.md", "content": "Refunds within 30 days."},
        ),
        chat_reply(content="Done: see out/summary.md.", usage=usage),
    ]


def test_the_page_has_snippets() -> None:
    assert len(SNIPPETS) >= 4


@pytest.mark.parametrize(
    "code", SNIPPETS, ids=[f"snippet-{i}" for i in range(len(SNIPPETS))]
)
def test_snippet_runs(code: str, chat_server: ChatServer) -> None:
    if "LOCAL_BASE_URL" not in code:
        output = run_snippet(code)
    else:
        chat_server.enqueue(*quickstart_replies())
        output = run_snippet(code, LOCAL_BASE_URL=chat_server.url)
        assert "requests: 3" in output
        requests = chat_server.requests
        assert len(requests) == 3
        assert requests[2].json["messages"][-1]["tool_call_id"] == "c2"
    if "exit code" in code:
        assert "exit code: 0" in output
