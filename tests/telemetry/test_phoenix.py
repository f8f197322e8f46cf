"""A suite exported to a real Arize Phoenix server, read back through its REST API.

Phoenix (``scripts/phoenix-env.sh`` installs it in its own virtualenv) is started on
127.0.0.1 by the fixture. Without it these tests skip, except with ``CI=true``,
where they fail: CI must run them.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from artemiskit import ArtemisKit
from artemiskit.telemetry import Telemetry, TelemetryConfig
from artemiskit.telemetry._plan import trace_id_for
from tests._builders import USAGE, workflow_dict, write_workflow
from tests._venv_servers import ServerProcess, free_port, require, venv_executable

if TYPE_CHECKING:
    from collections.abc import Iterator

# a cold Phoenix imports a lot before it listens
pytestmark = [pytest.mark.timeout(300), pytest.mark.slow]

SERVER = venv_executable("ARTEMISKIT_PHOENIX_VENV", "phoenix", "phoenix")
START_SECONDS = 240.0
SENTINEL = "PHOENIX-SENTINEL-51c0"


class Phoenix(ServerProcess):
    """A started Phoenix server on 127.0.0.1."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        env = {
            "PATH": os.environ.get("PATH", ""),
            "HOME": str(folder),
            "PHOENIX_HOST": "127.0.0.1",
            "PHOENIX_PORT": str(self.port),
            "PHOENIX_GRPC_PORT": str(free_port()),
            "PHOENIX_WORKING_DIR": str(folder),
            "PHOENIX_TELEMETRY_ENABLED": "false",
        }
        super().__init__([str(SERVER), "serve"], cwd=folder, env=env)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def wait_ready(self) -> bool:
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                if httpx.get(f"{self.url}/healthz", timeout=2).status_code == 200:
                    return True
            except httpx.HTTPError:
                pass
            time.sleep(0.5)
        return False

    def spans(self) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = []
        cursor: str | None = None
        while True:
            params: dict[str, Any] = {"limit": 1000}
            if cursor:
                params["cursor"] = cursor
            answer = httpx.get(
                f"{self.url}/v1/projects/default/spans", params=params, timeout=10
            )
            if answer.status_code == 404:  # no span arrived yet: no project
                return []
            answer.raise_for_status()
            page = answer.json()
            found.extend(page["data"])
            cursor = page.get("next_cursor")
            if not cursor:
                return found

    def trace(self, trace_id: str, count: int) -> list[dict[str, Any]]:
        """The spans of one trace, once ``count`` arrived (ingestion is async)."""
        in_trace: list[dict[str, Any]] = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            in_trace = [s for s in self.spans() if s["context"]["trace_id"] == trace_id]
            if len(in_trace) >= count:
                break
            time.sleep(0.5)
        return in_trace


@pytest.fixture(scope="module")
def phoenix(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Phoenix]:
    require(SERVER, what="Phoenix server", script="scripts/phoenix-env.sh")
    started = Phoenix(tmp_path_factory.mktemp("phoenix"))
    try:
        if not started.wait_ready():
            output = started.last_output()
            pytest.fail(f"Phoenix did not start:\n{output}", pytrace=False)
        yield started
    finally:
        started.stop()


def _suite(folder: Path) -> Path:
    for name, script in (
        ("passes", None),
        ("fails", [{"text": f"{SENTINEL}-completion", "usage": USAGE}]),
    ):
        (folder / name).mkdir(parents=True)
        data = workflow_dict(
            name=name,
            conversation={"turns": [{"user": f"{SENTINEL}-prompt"}]},
        )
        write_workflow(folder / name, data, script)
    return folder


async def test_a_suite_in_phoenix_has_a_run_span_per_run_with_usage_and_verdicts(
    tmp_path: Path, phoenix: Phoenix
) -> None:
    result = await ArtemisKit().run_suite(
        paths=_suite(tmp_path / "suite"),
        repeat=2,
        telemetry=Telemetry(TelemetryConfig(otlp_endpoint=phoenix.url)),
    )
    exported = result.summary["totals"]["telemetry"]
    assert exported["dropped"] == 0
    trace = f"{trace_id_for(result.summary['suite_id']):032x}"
    in_trace = phoenix.trace(trace, exported["exported"])
    assert len(in_trace) == exported["exported"]
    (suite,) = [span for span in in_trace if span["name"] == "artemiskit suite"]
    assert suite["parent_id"] is None
    assert suite["attributes"]["artemiskit.suite_id"] == result.summary["suite_id"]
    runs = [span for span in in_trace if span["name"].startswith("invoke_agent ")]
    assert len(runs) == 4
    assert {run["parent_id"] for run in runs} == {suite["context"]["span_id"]}
    verdicts = sorted(
        (
            run["attributes"]["artemiskit.workflow.name"],
            run["attributes"]["artemiskit.verdict"],
        )
        for run in runs
    )
    assert verdicts == [
        ("fails", "failed"),
        ("fails", "failed"),
        ("passes", "passed"),
        ("passes", "passed"),
    ]
    for run in runs:
        children = [s for s in in_trace if s["parent_id"] == run["context"]["span_id"]]
        chats = [s for s in children if s["name"].startswith("chat ")]
        assert chats
        for chat in chats:
            assert (
                chat["attributes"]["gen_ai.usage.input_tokens"] == USAGE["input_tokens"]
            )
            assert (
                chat["attributes"]["gen_ai.usage.output_tokens"]
                == USAGE["output_tokens"]
            )
        if run["attributes"]["artemiskit.workflow.name"] == "passes":
            tools = {
                s["attributes"]["gen_ai.tool.name"]
                for s in children
                if s["name"].startswith("execute_tool ")
            }
            assert tools == {"read_file", "write_file"}
    assert SENTINEL not in json.dumps(in_trace)
