"""`akit workflow run/preflight` against a real Chat Completions server on 127.0.0.1."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

from tests import _cli
from tests._builders import workflow_dict

from ._chat_server import (
    ChatServer,
    Computed,
    NeverAnswer,
    RecordedRequest,
    Reply,
    chat_reply,
)

SECRET = "sk-test-SENTINEL-KEY-8d1f2c"
USAGE = {"prompt_tokens": 11, "completion_tokens": 4, "total_tokens": 15}


def setup(
    folder: Path, server: ChatServer, workflow: dict[str, Any] | None = None
) -> tuple[Path, Path]:
    data = workflow or workflow_dict(target={"provider": "local", "model": "m1"})
    path = folder / "workflow.yaml"
    path.write_text(json.dumps(data), encoding="utf-8")
    config = folder / "artemis.config.yaml"
    config.write_text(
        json.dumps(
            {
                "providers": {
                    "local": {
                        "type": "openai",
                        "base_url": server.url,
                        "api_key_env": "TEST_PROVIDER_KEY",
                        "request_timeout_ms": 20000,
                    }
                }
            }
        ),
        encoding="utf-8",
    )
    return path, config


def akit(
    *args: str | Path, key: str | None = SECRET
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "TEST_PROVIDER_KEY"}
    if key is not None:
        env["TEST_PROVIDER_KEY"] = key
    return _cli.akit(*args, env=env)


def tool_call(call_id: str, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": call_id,
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(arguments)},
    }


def echo_probe(request: RecordedRequest) -> Reply:
    prompt = request.json["messages"][-1]["content"]
    nonce = prompt.split("'")[1]
    call = tool_call("probe_1", "artemiskit_probe", {"nonce": nonce})
    return chat_reply(tool_calls=[call], usage=USAGE)


def read_record(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def test_tool_round_trip_and_no_key_leak(
    tmp_path: Path, chat_server: ChatServer
) -> None:
    chat_server.enqueue(
        chat_reply(
            tool_calls=[tool_call("call_A1", "read_file", {"path": "docs/policy.md"})],
            usage=USAGE,
        ),
        chat_reply(
            tool_calls=[
                tool_call(
                    "call_B2",
                    "write_file",
                    {"path": "out/summary.md", "content": "30 days"},
                )
            ],
            usage=USAGE,
        ),
        chat_reply(content="Done.", usage=USAGE),
    )
    workflow, config = setup(tmp_path, chat_server)
    record_path = tmp_path / "record.json"
    done = akit(
        "workflow",
        "run",
        workflow,
        "--config",
        config,
        "--output",
        record_path,
        "--json",
    )
    assert done.returncode == 0, done.stderr
    requests = chat_server.requests
    assert len(requests) == 3
    assert requests[0].headers["authorization"] == f"Bearer {SECRET}"
    second = requests[1].json["messages"]
    tool_messages = [m for m in second if m["role"] == "tool"]
    assert [m["tool_call_id"] for m in tool_messages] == ["call_A1"]
    record = read_record(record_path)
    assert record["target"]["transport_digest"].startswith("sha256:")
    assert record["budget"]["used"]["input_tokens"] == 33
    for text in (done.stdout, done.stderr, record_path.read_text()):
        assert SECRET not in text
        assert "SENTINEL-KEY" not in text


def test_http_500_is_one_request_and_exit_7(
    tmp_path: Path, chat_server: ChatServer
) -> None:
    chat_server.enqueue(Reply(status=500, body={"error": "boom"}))
    workflow, config = setup(tmp_path, chat_server)
    record_path = tmp_path / "record.json"
    done = akit(
        "workflow", "run", workflow, "--config", config, "--output", record_path
    )
    assert done.returncode == 7
    assert len(chat_server.requests) == 1
    record = read_record(record_path)
    assert record["execution"]["status"] == "runtime_failure"
    assert record["budget"]["used"]["model_requests"] == 1


def test_server_that_never_answers_hits_the_deadline(
    tmp_path: Path, chat_server: ChatServer
) -> None:
    chat_server.enqueue(NeverAnswer())
    data = workflow_dict(
        target={"provider": "local", "model": "m1"},
        budgets={"max_actions": 10, "timeout_ms": 5000},
    )
    workflow, config = setup(tmp_path, chat_server, data)
    record_path = tmp_path / "record.json"
    done = akit(
        "workflow", "run", workflow, "--config", config, "--output", record_path
    )
    assert done.returncode == 6
    assert chat_server.wait_for_disconnects(1)
    assert len(chat_server.requests) == 1
    assert read_record(record_path)["execution"]["status"] == "deadline_exceeded"


def test_missing_usage_under_max_tokens_is_exit_7(
    tmp_path: Path, chat_server: ChatServer
) -> None:
    chat_server.enqueue(chat_reply(content="Done."))
    data = workflow_dict(
        target={"provider": "local", "model": "m1"},
        budgets={"max_actions": 10, "timeout_ms": 30000, "max_tokens": 500},
    )
    workflow, config = setup(tmp_path, chat_server, data)
    record_path = tmp_path / "record.json"
    done = akit(
        "workflow", "run", workflow, "--config", config, "--output", record_path
    )
    assert done.returncode == 7
    record = read_record(record_path)
    assert record["budget"]["usage_measurement"] == "unavailable"
    assert record["execution"]["reason"] == "usage_unavailable"


def test_no_key_is_exit_1_with_zero_requests(
    tmp_path: Path, chat_server: ChatServer
) -> None:
    workflow, config = setup(tmp_path, chat_server)
    done = akit("workflow", "run", workflow, "--config", config, key=None)
    assert done.returncode == 1
    assert "TEST_PROVIDER_KEY" in done.stderr
    assert chat_server.requests == []
    assert "Traceback" not in done.stderr


def test_preflight_succeeds_against_a_tool_calling_server(
    tmp_path: Path, chat_server: ChatServer
) -> None:
    workflow, config = setup(tmp_path, chat_server)
    # The probe's nonce is random, so the server echoes it back from the request.
    chat_server.enqueue(Computed(echo_probe), chat_reply(content="Ok.", usage=USAGE))
    record_path = tmp_path / "preflight.json"
    done = akit(
        "workflow", "preflight", workflow, "--config", config, "--output", record_path
    )
    assert done.returncode == 0, done.stderr
    record = read_record(record_path)
    assert record["preflight"]["status"] == "passed"
    assert record["preflight"]["model_requests"] == 2
    assert record["preflight"]["tool_calls"] == 1
    assert record["budget"]["used"]["actions"] == 3
    continuation = chat_server.requests[1].json["messages"]
    assert continuation[-1]["role"] == "tool"
    assert continuation[-1]["tool_call_id"] == "probe_1"


def test_preflight_fails_with_exit_3_against_a_server_without_tools(
    tmp_path: Path, chat_server: ChatServer
) -> None:
    chat_server.enqueue(chat_reply(content="I cannot call tools.", usage=USAGE))
    workflow, config = setup(tmp_path, chat_server)
    record_path = tmp_path / "record.json"
    done = akit(
        "workflow",
        "run",
        workflow,
        "--config",
        config,
        "--preflight",
        "--output",
        record_path,
    )
    assert done.returncode == 3
    record = read_record(record_path)
    assert record["preflight"]["status"] == "failed"
    assert record["preflight"]["reason"] == "no_tool_call"
    assert record["execution"]["status"] == "unsupported"
    assert len(chat_server.requests) == 1
