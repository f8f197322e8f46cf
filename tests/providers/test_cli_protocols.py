"""`akit` against real OpenAI-compatible, Azure and Anthropic servers on 127.0.0.1.

The model's behaviour is scripted once (`_wire.Turn`) and served in each protocol,
so the same workflow must leave the same record everywhere but for the transport
digest; and every provider failure must say which entry, which host, what status.
"""

from __future__ import annotations

import json
import socket
from typing import TYPE_CHECKING, Any

import pytest

from tests._builders import workflow_dict
from tests.checkpoints._processes import comparable as attempt_independent

from ._chat_server import ChatServer, CloseConnection, NeverAnswer, Reply
from ._wire import PROTOCOLS, Protocol, Turn, config_entry, probe_echo, render
from .test_cli_against_server import SECRET, akit, read_record

if TYPE_CHECKING:
    from pathlib import Path

    from ._chat_server import Behaviour

TURNS = [
    Turn(calls=[("call_A1", "read_file", {"path": "docs/policy.md"})]),
    Turn(
        calls=[
            ("call_B2", "write_file", {"path": "out/summary.md", "content": "30 days"})
        ]
    ),
    Turn(text="Done."),
]


def setup(
    folder: Path,
    entry: dict[str, Any],
    workflow: dict[str, Any] | None = None,
) -> tuple[Path, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    data = workflow or workflow_dict(target={"provider": "model", "model": "m1"})
    path = folder / "workflow.yaml"
    path.write_text(json.dumps(data), encoding="utf-8")
    config = folder / "artemis.config.yaml"
    config.write_text(json.dumps({"providers": {"model": entry}}), encoding="utf-8")
    return path, config


def run(
    folder: Path, server: ChatServer, protocol: Protocol, *extra: str, **kw: Any
) -> tuple[Any, dict[str, Any] | None]:
    workflow, config = setup(folder, config_entry(protocol, server), **kw)
    record_path = folder / "record.json"
    done = akit(
        "workflow", "run", workflow, "--config", config, "--output", record_path, *extra
    )
    record = read_record(record_path) if record_path.exists() else None
    return done, record


def comparable(record: dict[str, Any]) -> dict[str, Any]:
    """A record without ids, timings and the transport digest."""
    kept = attempt_independent(record)
    kept["target"] = {
        k: v for k, v in record["target"].items() if k != "transport_digest"
    }
    return kept


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_preflight_then_tool_round_trip(
    tmp_path: Path, chat_server: ChatServer, protocol: Protocol
) -> None:
    chat_server.enqueue(probe_echo(protocol), render(Turn(text="Ok."), protocol))
    chat_server.enqueue(*(render(turn, protocol) for turn in TURNS))
    done, record = run(tmp_path, chat_server, protocol, "--preflight", "--json")
    assert done.returncode == 0, done.stderr
    assert record is not None
    assert record["preflight"]["status"] == "passed"
    assert record["budget"]["used"]["model_requests"] == 5
    assert record["budget"]["used"]["input_tokens"] == 50
    requests = chat_server.requests
    assert len(requests) == 5
    if protocol == "anthropic":
        assert requests[0].path == "/v1/messages"
        assert requests[0].headers["x-api-key"] == SECRET
        results = [
            block
            for message in requests[3].json["messages"]
            for block in message["content"]
            if block.get("type") == "tool_result"
        ]
        assert [block["tool_use_id"] for block in results] == ["call_A1"]
    elif protocol == "azure-openai":
        assert requests[0].path == (
            "/openai/deployments/dep-1/chat/completions?api-version=2024-10-21"
        )
        assert requests[0].headers["api-key"] == SECRET
    else:
        assert requests[0].headers["authorization"] == f"Bearer {SECRET}"
    for text in (done.stdout, done.stderr, json.dumps(record)):
        assert SECRET not in text


def test_preflight_only_against_anthropic(
    tmp_path: Path, chat_server: ChatServer
) -> None:
    chat_server.enqueue(probe_echo("anthropic"), render(Turn(text="Ok."), "anthropic"))
    workflow, config = setup(tmp_path, config_entry("anthropic", chat_server))
    record_path = tmp_path / "preflight.json"
    done = akit(
        "workflow", "preflight", workflow, "--config", config, "--output", record_path
    )
    assert done.returncode == 0, done.stderr
    record = read_record(record_path)
    assert (record["preflight"]["status"], record["preflight"]["tool_calls"]) == (
        "passed",
        1,
    )
    continuation = chat_server.requests[1].json["messages"][-1]["content"]
    assert continuation[0]["type"] == "tool_result"
    assert continuation[0]["tool_use_id"] == "probe_1"


def test_the_same_workflow_leaves_the_same_record_on_every_protocol(
    tmp_path: Path,
) -> None:
    records = {}
    for protocol in PROTOCOLS:
        with ChatServer() as server:
            server.enqueue(*(render(turn, protocol) for turn in TURNS))
            done, record = run(tmp_path / protocol, server, protocol)
            assert done.returncode == 0, done.stderr
            assert record is not None
            records[protocol] = record
    digests = {r["target"]["transport_digest"] for r in records.values()}
    assert len(digests) == 3
    openai, azure, anthropic = (comparable(records[p]) for p in PROTOCOLS)
    assert openai == azure == anthropic


def test_the_judge_works_through_anthropic(
    tmp_path: Path, chat_server: ChatServer
) -> None:
    workflow = workflow_dict(
        outcomes=[
            {"id": "summary", "file": "out/summary.md", "contains": ["30 days"]},
            {"id": "tone", "judge": {"rubric": "Neutral.", "threshold": 0.7}},
        ]
    )
    (tmp_path / "agent.script.yaml").write_text(
        json.dumps(
            {
                "version": 1,
                "responses": [
                    {
                        "tool_calls": [
                            {
                                "name": "write_file",
                                "arguments": {
                                    "path": "out/summary.md",
                                    "content": "30 days",
                                },
                            }
                        ]
                    },
                    {"text": "Done."},
                ],
            }
        ),
        encoding="utf-8",
    )
    path = tmp_path / "workflow.yaml"
    path.write_text(json.dumps(workflow), encoding="utf-8")
    judge = tmp_path / "judge.yaml"
    judge.write_text(
        json.dumps(
            {
                "provider": "claude",
                "model": "claude-judge",
                "providers": {"claude": config_entry("anthropic", chat_server)},
            }
        )
    )
    chat_server.enqueue(render(Turn(text='{"score": 0.9}'), "anthropic"))
    record_path = tmp_path / "record.json"
    done = akit(
        "workflow", "run", path, "--judge-config", judge, "--output", record_path
    )
    assert done.returncode == 0, done.stderr
    record = read_record(record_path)
    assert record["judge"]["requests"] == 1
    assert record["task_verification"]["requirements"][1]["status"] == "passed"
    assert chat_server.requests[0].headers["x-api-key"] == SECRET


@pytest.mark.parametrize("protocol", ["anthropic", "azure-openai"])
def test_missing_usage_under_max_tokens_is_exit_7(
    tmp_path: Path, chat_server: ChatServer, protocol: Protocol
) -> None:
    chat_server.enqueue(render(Turn(text="Done.", usage=None), protocol))
    workflow = workflow_dict(
        target={"provider": "model", "model": "m1"},
        budgets={"max_actions": 10, "timeout_ms": 30000, "max_tokens": 500},
    )
    done, record = run(tmp_path, chat_server, protocol, workflow=workflow)
    assert done.returncode == 7
    assert record is not None
    assert record["budget"]["usage_measurement"] == "unavailable"
    assert chat_server.requests[0].json["max_tokens"] == 500


def messages(content: Any, stop: str | None) -> Reply:
    return Reply(
        body={
            "type": "message",
            "content": content,
            "stop_reason": stop,
            "usage": {"input_tokens": 1, "output_tokens": 1},
        }
    )


TOOL_USE = {
    "type": "tool_use",
    "id": "t1",
    "name": "read_file",
    "input": {"path": "docs/policy.md"},
}


@pytest.mark.parametrize(
    "replies",
    [
        [messages([{"type": "text", "text": "x"}], "because")],
        [messages([{"type": "server_tool_use", "id": "s"}], "end_turn")],
        [messages([TOOL_USE], "tool_use"), messages([TOOL_USE], "tool_use")],
        [messages([TOOL_USE, TOOL_USE], "tool_use")],
    ],
    ids=["unknown-stop-reason", "unknown-block", "reused-id", "repeated-id"],
)
def test_answers_outside_the_messages_protocol_are_exit_2(
    tmp_path: Path, chat_server: ChatServer, replies: list[Reply]
) -> None:
    chat_server.enqueue(*replies)
    done, record = run(tmp_path, chat_server, "anthropic")
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert f"provider 'model' ({chat_server.host})" in done.stderr
    assert "outside the Messages protocol" in done.stderr
    assert record is not None
    assert record["execution"]["reason"] == "invalid_target_response"


ERROR_BODY = {"error": {"type": "some_type", "code": "429", "message": SECRET}}


@pytest.mark.parametrize("protocol", PROTOCOLS)
@pytest.mark.parametrize(
    ("behaviour", "exit_code", "says"),
    [
        (Reply(status=401, body=ERROR_BODY), 1, "HTTP 401, some_type"),
        (Reply(status=404, body=ERROR_BODY), 3, "HTTP 404, some_type"),
        (Reply(status=400, body=ERROR_BODY), 7, "HTTP 400, some_type"),
        (Reply(status=429, body=ERROR_BODY), 7, "HTTP 429, some_type"),
        (Reply(status=500, body=ERROR_BODY), 7, "HTTP 500, some_type"),
        (Reply(status=503, body=b"<html>busy</html>"), 7, "HTTP 503"),
        (Reply(status=200, body=b"not json"), 2, "not valid JSON"),
        (CloseConnection(), 7, "RemoteProtocolError"),
    ],
    ids=["401", "404", "400", "429", "500", "503", "invalid", "dropped"],
)
def test_every_failure_names_entry_host_and_status(
    tmp_path: Path,
    chat_server: ChatServer,
    protocol: Protocol,
    behaviour: Behaviour,
    exit_code: int,
    says: str,
) -> None:
    chat_server.enqueue(behaviour)
    done, record = run(tmp_path, chat_server, protocol)
    assert done.returncode == exit_code, done.stderr
    assert "Traceback" not in done.stderr
    assert f"provider 'model' ({chat_server.host})" in done.stderr
    assert says in done.stderr
    assert len(chat_server.requests) == 1
    for text in (done.stdout, done.stderr, json.dumps(record)):
        assert SECRET not in text
        assert "api-version" not in text
        assert "2024-10-21" not in text


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_unreachable_and_tls_failures_name_entry_and_host(
    tmp_path: Path, chat_server: ChatServer, protocol: Protocol
) -> None:
    port = free_port()
    refused = {
        **config_entry(protocol, chat_server),
        "base_url": f"http://127.0.0.1:{port}/v1",
    }
    workflow, config = setup(tmp_path / "refused", refused)
    done = akit("workflow", "run", workflow, "--config", config)
    assert done.returncode == 7
    assert f"provider 'model' (127.0.0.1:{port})" in done.stderr
    assert "refused the connection" in done.stderr
    tls = {
        **config_entry(protocol, chat_server),
        "base_url": f"https://{chat_server.host}/v1",
    }
    workflow, config = setup(tmp_path / "tls", tls)
    done = akit("workflow", "run", workflow, "--config", config)
    assert done.returncode == 7
    assert f"provider 'model' ({chat_server.host})" in done.stderr
    assert "TLS" in done.stderr
    for text in (done.stdout, done.stderr):
        assert SECRET not in text
        assert "Traceback" not in text


def test_a_deadline_during_an_anthropic_request_closes_the_connection(
    tmp_path: Path, chat_server: ChatServer
) -> None:
    chat_server.enqueue(NeverAnswer())
    workflow = workflow_dict(
        target={"provider": "model", "model": "m1"},
        budgets={"max_actions": 10, "timeout_ms": 5000},
    )
    done, record = run(tmp_path, chat_server, "anthropic", workflow=workflow)
    assert done.returncode == 6
    assert chat_server.wait_for_disconnects(1)
    assert record is not None
    assert record["execution"]["status"] == "deadline_exceeded"
