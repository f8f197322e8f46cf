"""Runs, tool round trips and preflight through a real LiteLLM proxy on 127.0.0.1.

The proxy (``scripts/litellm-env.sh`` installs it in its own virtualenv) serves a
mock tool-calling model (`artemis_handler`) through its real HTTP layer and
serialization, and LiteLLM's own mock errors. Without the proxy these tests skip,
except with ``CI=true``, where they fail: CI must run them.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests._builders import workflow_dict
from tests._venv_servers import ServerProcess, free_port, require, venv_executable
from tests.providers.test_cli_against_server import akit, read_record

if TYPE_CHECKING:
    from collections.abc import Iterator

# the first test also waits for the proxy to start
pytestmark = [pytest.mark.timeout(300), pytest.mark.gateway, pytest.mark.slow]

PROXY = venv_executable("ARTEMISKIT_LITELLM_VENV", "litellm", "litellm")
MASTER_KEY = "sk-LITELLM-MASTER-SENTINEL"
HERE = Path(__file__).parent
START_SECONDS = 240.0  # a cold proxy imports a lot; nothing waits this long normally
MOCK_ERROR = {"model": "openai/gpt-4o-mini", "api_key": "x"}
PROXY_CONFIG: dict[str, Any] = {
    "model_list": [
        {"model_name": "agent", "litellm_params": {"model": "artemis-mock/agent"}},
        {
            "model_name": "limited",
            "litellm_params": {**MOCK_ERROR, "mock_response": "litellm.RateLimitError"},
        },
        {
            "model_name": "broken",
            "litellm_params": {
                **MOCK_ERROR,
                "mock_response": "litellm.InternalServerError",
            },
        },
    ],
    "litellm_settings": {
        "num_retries": 0,
        "custom_provider_map": [
            {"provider": "artemis-mock", "custom_handler": "artemis_handler.handler"}
        ],
    },
    "router_settings": {"num_retries": 0},
    "general_settings": {"master_key": "os.environ/ARTEMIS_LITELLM_KEY"},
}


class Proxy(ServerProcess):
    """A started LiteLLM proxy on 127.0.0.1."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        config = folder / "litellm.yaml"
        config.write_text(json.dumps(PROXY_CONFIG), encoding="utf-8")
        env = {
            "PATH": os.environ.get("PATH", ""),
            "HOME": os.environ.get("HOME", "/tmp"),
            "PYTHONPATH": str(HERE),
            "LITELLM_LOCAL_MODEL_COST_MAP": "True",
            "ARTEMIS_LITELLM_KEY": MASTER_KEY,
        }
        argv = [str(PROXY), "--config", str(config), "--host", "127.0.0.1"]
        super().__init__(
            [*argv, "--port", str(self.port), "--num_workers", "1"],
            cwd=HERE,
            env=env,
            ready_marks=("Uvicorn running on", "Application startup complete"),
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"


@pytest.fixture(scope="module")
def proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Proxy]:
    require(PROXY, what="LiteLLM proxy", script="scripts/litellm-env.sh")
    started = Proxy(tmp_path_factory.mktemp("litellm"))
    try:
        started.ready.wait(START_SECONDS)
        if started.process.poll() is not None or not started.ready.is_set():
            output = started.last_output()
            pytest.fail(f"the LiteLLM proxy did not start:\n{output}", pytrace=False)
        yield started
    finally:
        started.stop()


def run(
    folder: Path, proxy: Proxy, model: str, *options: str, **entry: Any
) -> tuple[subprocess.CompletedProcess[str], dict[str, Any] | None]:
    folder.mkdir(parents=True, exist_ok=True)
    workflow = folder / "workflow.yaml"
    data = workflow_dict(target={"provider": "gateway", "model": model})
    workflow.write_text(json.dumps(data), encoding="utf-8")
    config = folder / "artemis.config.yaml"
    gateway = {
        "type": "openai",
        "base_url": proxy.url,
        "api_key_env": "TEST_PROVIDER_KEY",
        "request_timeout_ms": 60000,
        **entry,
    }
    config.write_text(json.dumps({"providers": {"gateway": gateway}}))
    record_path = folder / "record.json"
    command = options[0] if options and options[0] == "preflight" else "run"
    rest = options[1:] if command == "preflight" else options
    done = akit(
        "workflow",
        command,
        workflow,
        "--config",
        config,
        "--output",
        record_path,
        *rest,
        key=MASTER_KEY,
    )
    assert "Traceback" not in done.stderr
    for text in (done.stdout, done.stderr):
        assert MASTER_KEY not in text
    record = read_record(record_path) if record_path.exists() else None
    if record is not None:
        assert MASTER_KEY not in json.dumps(record)
    return done, record


def test_preflight_and_a_tool_round_trip_through_the_proxy(
    tmp_path: Path, proxy: Proxy
) -> None:
    done, record = run(tmp_path / "run", proxy, "agent", "--preflight")
    assert done.returncode == 0, done.stderr
    assert record is not None
    assert record["preflight"]["status"] == "passed"
    assert record["budget"]["used"]["model_requests"] == 5
    assert record["budget"]["used"]["input_tokens"] == 50
    assert record["task_verification"]["status"] == "passed"
    done, record = run(tmp_path / "preflight", proxy, "agent", "preflight")
    assert done.returncode == 0, done.stderr
    assert record is not None
    assert record["preflight"]["tool_calls"] == 1


def test_a_rate_limit_behind_the_proxy_names_its_type(
    tmp_path: Path, proxy: Proxy
) -> None:
    done, record = run(tmp_path, proxy, "limited")
    assert done.returncode == 7
    assert f"provider 'gateway' (127.0.0.1:{proxy.port})" in done.stderr
    assert "(HTTP 429, throttling_error)" in done.stderr
    assert record is not None
    assert record["execution"]["reason"] == "provider_rate_limited"


def test_accounted_retries_through_the_proxy(tmp_path: Path, proxy: Proxy) -> None:
    retry = {"on": ["rate_limited"], "max_attempts": 2, "max_delay_ms": 60000}
    done, record = run(tmp_path, proxy, "limited", retry=retry)
    assert done.returncode == 7
    assert record is not None
    assert record["budget"]["used"]["model_requests"] == 2
    assert record["target"]["provider_retries"] == 1
    assert "2 attempts made" in done.stderr


@pytest.mark.parametrize(
    ("model", "says"),
    [("no-such-model", "HTTP 400"), ("broken", "HTTP 500")],
)
def test_how_other_failures_surface_behind_the_proxy(
    tmp_path: Path, proxy: Proxy, model: str, says: str
) -> None:
    done, _ = run(tmp_path, proxy, model)
    # an unknown model is HTTP 400 behind LiteLLM: exit 7, not 3 (docs/providers.md)
    assert done.returncode == 7
    assert f"provider 'gateway' (127.0.0.1:{proxy.port})" in done.stderr
    assert says in done.stderr
