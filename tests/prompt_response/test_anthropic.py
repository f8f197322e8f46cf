"""Prompt-response scenarios against loopback Anthropic (and Azure OpenAI) servers.

The scenario names a trusted provider entry of type ``anthropic``; the runner goes
through the shared provider layer, so requests are Messages API requests (system
prompt apart, ``x-api-key``) and token usage comes from ``input_tokens`` and
``output_tokens``. The same scenario runs through ``akit run`` and through the SDK
on both async backends.
"""

from __future__ import annotations

import json
import os
import re
from typing import TYPE_CHECKING, Any

import anyio
import pytest

from artemiskit import ArtemisKit
from artemiskit.prompt_response import ScenarioRunOptions, manifest_to_json
from artemiskit.providers import parse_trusted_config
from tests._cli import akit
from tests.prompt_response.conftest import ExpiringTimer
from tests.providers._chat_server import ChatServer, Computed, NeverAnswer
from tests.providers._wire import messages_reply

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from tests.providers._chat_server import RecordedRequest, Reply

SENTINEL_KEY = "sk-ant-SENTINEL-KEY-0123456789abcdef"
KEY_ENV = "ARTEMIS_TEST_ANTHROPIC_KEY"
MODEL = "claude-3-5-haiku-latest"
CASE_IDS = ["contains", "exact", "regex", "multi-turn", "not-contains"]

SCENARIO = f"""\
name: claude-corpus
provider: claude
model: {MODEL}
maxTokens: 256
variables:
  company: Acme
  ratio: 1.0
setup:
  systemPrompt: You answer for {{{{company}}}}.
cases:
  - id: contains
    prompt: "ANSWER:Paris is in France"
    expected: {{type: contains, values: [paris, france]}}
  - id: exact
    prompt: "{{{{company}}}} ratio {{{{ratio}}}} ANSWER: 4 "
    expected: {{type: exact, value: "4"}}
  - id: regex
    prompt: "ANSWER:Order 12345 shipped"
    expected: {{type: regex, pattern: "order \\\\d{{5}}", flags: i}}
  - id: multi-turn
    prompt:
      - {{role: user, content: "Hi, I am {{{{company}}}}"}}
      - {{role: assistant, content: Hello}}
      - {{role: user, content: "ANSWER:Welcome back, Acme"}}
    expected: {{type: contains, values: [acme]}}
  - id: not-contains
    prompt: "ANSWER:All fine"
    expected: {{type: not_contains, values: [error]}}
"""


def _last_text(request: RecordedRequest) -> str:
    content = request.json["messages"][-1]["content"]
    if isinstance(content, str):
        return content
    return "".join(b.get("text", "") for b in content if b.get("type") == "text")


def anthropic_answer(request: RecordedRequest) -> Reply:
    """Answer what follows ``ANSWER:`` in the last message, in the Messages API."""
    found = re.search(r"ANSWER:(.*)", _last_text(request), re.S)
    text = found.group(1) if found else "no answer"
    return messages_reply(
        [{"type": "text", "text": text}],
        usage={"input_tokens": 100, "output_tokens": 10},
    )


@pytest.fixture
def anthropic_server() -> Iterator[ChatServer]:
    """A loopback Messages API server answering every request."""
    with ChatServer() as server:
        server.enqueue(*[Computed(anthropic_answer)] * 50)
        yield server


def config_data(url: str, **settings: Any) -> dict[str, Any]:
    entry = {"type": "anthropic", "base_url": url, "api_key_env": KEY_ENV, **settings}
    return {"providers": {"claude": entry}}


def setup_folder(folder: Path, url: str, scenario: str = SCENARIO) -> Path:
    (folder / "artemis.config.yaml").write_text(
        json.dumps(config_data(url)), encoding="utf-8"
    )
    path = folder / "scenarios" / "claude.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(scenario, encoding="utf-8")
    return path


def check_requests(server: ChatServer) -> None:
    """Every request went to the Messages API, with the key and the system prompt."""
    requests = server.requests
    assert len(requests) == len(CASE_IDS)
    for request in requests:
        assert request.path == "/v1/messages"
        assert request.headers["x-api-key"] == SENTINEL_KEY
        assert "authorization" not in request.headers
        assert request.json["model"] == MODEL
        assert request.json["max_tokens"] == 256
        assert request.json["system"] == "You answer for Acme."
        assert all(m["role"] != "system" for m in request.json["messages"])
    texts = sorted(_last_text(r) for r in requests)
    assert "Acme ratio 1 ANSWER: 4 " in texts
    multi = next(r for r in requests if len(r.json["messages"]) == 3)
    assert [m["role"] for m in multi.json["messages"]] == [
        "user",
        "assistant",
        "user",
    ]
    first = multi.json["messages"][0]["content"]
    first_text = first if isinstance(first, str) else first[0]["text"]
    assert first_text == "Hi, I am Acme"


def check_manifest(data: dict[str, Any]) -> None:
    """The manifest of the passing corpus run, field by field where it matters."""
    assert data["config"]["scenario"] == "claude-corpus"
    assert data["config"]["provider"] == "anthropic"
    assert data["config"]["model"] == MODEL
    assert [c["id"] for c in data["cases"]] == CASE_IDS
    failed = [(c["id"], c.get("reason")) for c in data["cases"] if not c["ok"]]
    assert failed == []
    responses = {c["id"]: c["response"] for c in data["cases"]}
    assert responses == {
        "contains": "Paris is in France",
        "exact": " 4 ",
        "regex": "Order 12345 shipped",
        "multi-turn": "Welcome back, Acme",
        "not-contains": "All fine",
    }
    matchers = [c["matcherType"] for c in data["cases"]]
    assert matchers == ["contains", "exact", "regex", "contains", "not_contains"]
    for case in data["cases"]:
        assert case["tokens"] == {"prompt": 100, "completion": 10, "total": 110}
    metrics = data["metrics"]
    assert (metrics["total_cases"], metrics["passed_cases"]) == (5, 5)
    assert metrics["success_rate"] == 1
    assert metrics["total_prompt_tokens"] == 500
    assert metrics["total_completion_tokens"] == 50
    assert metrics["total_tokens"] == 550


def test_akit_run_against_the_anthropic_server(
    anthropic_server: ChatServer, tmp_path: Path
) -> None:
    setup_folder(tmp_path, anthropic_server.url)
    env = {**os.environ, KEY_ENV: SENTINEL_KEY}
    done = akit("run", "scenarios", "-v", cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    [path] = sorted((tmp_path / "artemis-runs" / "default").glob("*.json"))
    text = path.read_text(encoding="utf-8")
    check_manifest(json.loads(text))
    check_requests(anthropic_server)
    for output in (text, done.stdout, done.stderr):
        assert SENTINEL_KEY not in output


def test_a_failed_case_against_the_anthropic_server_exits_1(
    anthropic_server: ChatServer, tmp_path: Path
) -> None:
    scenario = SCENARIO.replace("values: [error]", "values: [fine]")
    setup_folder(tmp_path, anthropic_server.url, scenario)
    env = {**os.environ, KEY_ENV: SENTINEL_KEY}
    done = akit("run", "scenarios", "--ci", cwd=tmp_path, env=env)
    assert done.returncode == 1, done.stderr
    assert "ARTEMISKIT_RESULT=FAIL" in done.stdout.splitlines()
    [path] = sorted((tmp_path / "artemis-runs" / "default").glob("*.json"))
    data = json.loads(path.read_text(encoding="utf-8"))
    assert [c["ok"] for c in data["cases"]] == [True, True, True, True, False]
    for output in (json.dumps(data), done.stdout, done.stderr):
        assert SENTINEL_KEY not in output


async def test_the_sdk_runs_the_scenario_against_the_anthropic_server(
    anthropic_server: ChatServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, SENTINEL_KEY)
    path = setup_folder(tmp_path, anthropic_server.url)
    config = parse_trusted_config(json.dumps(config_data(anthropic_server.url)))
    kit = ArtemisKit(config=config)
    manifest = await kit.run_scenario(path, options=ScenarioRunOptions(project="sdk"))
    assert manifest.success
    assert manifest.project == "sdk"
    text = manifest_to_json(manifest)
    check_manifest(json.loads(text))
    check_requests(anthropic_server)
    assert SENTINEL_KEY not in text
    assert SENTINEL_KEY not in repr(manifest)


async def test_a_case_timeout_cuts_off_a_hanging_anthropic_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, SENTINEL_KEY)
    scenario = (
        f"name: hang\nprovider: claude\nmodel: {MODEL}\ncases:\n"
        "  - id: a\n    prompt: 'ANSWER:ok'\n"
        "    expected: {type: contains, values: [ok]}\n    timeout: 2000\n"
    )
    with ChatServer() as server:
        server.enqueue(NeverAnswer())
        path = setup_folder(tmp_path, server.url, scenario)
        config = parse_trusted_config(json.dumps(config_data(server.url)))
        # The case's 2 s pass once the server holds the request (no real wait).
        timer = ExpiringTimer()
        with anyio.fail_after(30):
            async with anyio.create_task_group() as group:
                group.start_soon(timer.expire_when_hanging, server)
                manifest = await ArtemisKit(config=config).run_scenario(
                    path, options=ScenarioRunOptions(timer=timer)
                )
        assert timer.asked == [2.0]
        [case] = manifest.cases
        assert (case.ok, case.error) == (False, "Timeout after 2000ms")
        [request] = server.requests
        assert request.path == "/v1/messages"
        assert request.json["max_tokens"] == 4096  # the entry's default_max_tokens
        assert await anyio.to_thread.run_sync(server.wait_for_disconnects, 1)
        assert SENTINEL_KEY not in manifest_to_json(manifest)


def test_akit_run_against_an_azure_openai_entry(
    model_server: ChatServer, tmp_path: Path
) -> None:
    scenario = SCENARIO.replace("provider: claude", "provider: azure")
    path = tmp_path / "scenarios" / "azure.yaml"
    path.parent.mkdir()
    path.write_text(scenario, encoding="utf-8")
    entry = {
        "type": "azure-openai",
        "base_url": model_server.root,
        "deployment": "dep-1",
        "api_version": "2024-10-21",
        "api_key_env": KEY_ENV,
    }
    (tmp_path / "artemis.config.yaml").write_text(
        json.dumps({"providers": {"azure": entry}}), encoding="utf-8"
    )
    env = {**os.environ, KEY_ENV: SENTINEL_KEY}
    done = akit("run", "scenarios", cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    [stored] = sorted((tmp_path / "artemis-runs" / "default").glob("*.json"))
    text = stored.read_text(encoding="utf-8")
    data = json.loads(text)
    assert data["config"]["provider"] == "azure-openai"
    assert [c["ok"] for c in data["cases"]] == [True] * len(CASE_IDS)
    assert data["metrics"]["total_tokens"] == len(CASE_IDS) * 110
    requests = model_server.requests
    assert len(requests) == len(CASE_IDS)
    for request in requests:
        assert request.path == (
            "/openai/deployments/dep-1/chat/completions?api-version=2024-10-21"
        )
        assert request.headers["api-key"] == SENTINEL_KEY
    for output in (text, done.stdout, done.stderr):
        assert SENTINEL_KEY not in output
