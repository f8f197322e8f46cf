"""Shared pieces of the MCP tests: server entries, workflows, the servers' logs."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from artemiskit.tools import McpServerConfig
from tests._builders import workflow_dict

SERVERS = Path(__file__).with_name("servers.py")


def stdio_server(name: str, kind: str, env: dict[str, str]) -> McpServerConfig:
    """A stdio entry that runs ``servers.py KIND`` with ``env``."""
    return McpServerConfig(
        name=name, command=(sys.executable, str(SERVERS), kind), env=env
    )


def mcp_workflow(tools: list[dict[str, Any]], **changes: Any) -> dict[str, Any]:
    """A workflow (dict) declaring ``tools``, denials reported to the model."""
    return workflow_dict(tools=tools, policy={"on_denial": "report"}, **changes)


def logged(log: Path) -> list[dict[str, Any]]:
    """The calls a server saw, in order (its own log)."""
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text().splitlines()]


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start_http_server(
    kind: str, env: dict[str, str]
) -> tuple[subprocess.Popen[bytes], str]:
    """Start ``servers.py KIND --http PORT`` on 127.0.0.1; return it and its URL.

    Waits (bounded polling of the port, 20 s at most) until it accepts.
    """
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, str(SERVERS), kind, "--http", str(port)],
        env={**_base_env(), **env},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return process, f"http://127.0.0.1:{port}/mcp"
        except OSError:
            if process.poll() is not None:
                break
            time.sleep(0.05)
    process.kill()
    raise RuntimeError("the HTTP MCP server did not start")


def _base_env() -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "PYTHONPATH")}
