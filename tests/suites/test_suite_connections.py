"""Runs of one provider entry share one HTTP connection pool per suite (SPEC 13).

Every built-in HTTP provider type (``openai``, ``azure-openai``, ``anthropic``) does.
"""

from __future__ import annotations

import json
from pathlib import Path

import anyio.to_thread
import pytest

from artemiskit import ArtemisKit, TrustedConfig
from artemiskit.providers import ProviderConfig
from tests._builders import workflow_dict
from tests.providers._chat_server import ChatServer
from tests.providers._wire import PROTOCOLS, Protocol, Turn, config_entry, render

pytestmark = pytest.mark.anyio


def _member(root: Path, name: str) -> Path:
    folder = root / name
    folder.mkdir(parents=True)
    data = workflow_dict(
        name=name,
        target={"provider": "local", "model": "m-1"},
        outcomes=[{"id": "answered", "final_response": {"contains": ["Done"]}}],
    )
    path = folder / "workflow.yaml"
    path.write_text(json.dumps(data), "utf-8")
    return path


@pytest.mark.parametrize("protocol", PROTOCOLS)
async def test_runs_of_one_provider_entry_share_one_connection(
    tmp_path: Path, protocol: Protocol
) -> None:
    with ChatServer() as server:
        server.enqueue(*[render(Turn(text="Done.", usage=(3, 2)), protocol)] * 6)
        entry = config_entry(protocol, server)
        del entry["api_key_env"]
        config = TrustedConfig(
            providers={"local": ProviderConfig(name="local", **entry)}
        )
        suite = tmp_path / "suite"
        _member(suite, "first")
        _member(suite, "second")
        result = await ArtemisKit(config=config).run_suite(
            paths=[suite], repeat=3, concurrency=1, output_dir=tmp_path / "out"
        )
        assert result.summary["totals"]["passed"] == 6
        assert len(server.requests) == 6
        assert server.connections == 1
        # The suite closed its pool when it ended.
        assert await anyio.to_thread.run_sync(server.wait_for_ended_connections, 1)
