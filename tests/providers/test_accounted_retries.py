"""Accounted retries (SPEC 16): opt-in in the trusted configuration, every attempt
an admitted model request, counted, in the ledger and disclosed in the record.

Each test counts the HTTP requests a real server on 127.0.0.1 received and compares
them with what the record says.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest

from artemiskit import ConfigError
from artemiskit.providers import (
    ProviderRequest,
    ProviderRetryPolicy,
    create_provider_target,
    parse_trusted_config,
)
from tests._builders import workflow_dict

from ._chat_server import ChatServer, Reply
from ._wire import PROTOCOLS, Protocol, config_entry, render
from .test_cli_against_server import SECRET, akit, read_record
from .test_cli_protocols import TURNS, free_port, setup

if TYPE_CHECKING:
    from pathlib import Path

RETRY = {"on": ["rate_limited", "overloaded"], "max_attempts": 3, "max_delay_ms": 5000}


def rate_limited(retry_after: str | None = "0", status: int = 429) -> Reply:
    headers = () if retry_after is None else (("Retry-After", retry_after),)
    body = {"error": {"type": "rate_limit_error", "message": SECRET}}
    return Reply(status=status, body=body, headers=headers)


def run(
    folder: Path,
    server: ChatServer,
    protocol: Protocol = "openai",
    *,
    retry: dict[str, Any] | None = RETRY,
    workflow: dict[str, Any] | None = None,
    **entry: Any,
) -> tuple[Any, dict[str, Any]]:
    settings = config_entry(protocol, server, **entry)
    if retry is not None:
        settings["retry"] = retry
    path, config = setup(folder, settings, workflow)
    record_path = folder / "record.json"
    done = akit("workflow", "run", path, "--config", config, "--output", record_path)
    assert "Traceback" not in done.stderr
    assert SECRET not in done.stderr
    return done, read_record(record_path)


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_without_retry_a_429_is_one_request_and_exit_7(
    tmp_path: Path, chat_server: ChatServer, protocol: Protocol
) -> None:
    chat_server.enqueue(rate_limited())
    done, record = run(tmp_path, chat_server, protocol, retry=None)
    assert done.returncode == 7
    assert len(chat_server.requests) == 1
    assert record["budget"]["used"]["model_requests"] == 1
    assert record["target"]["provider_retries"] == 0
    assert "no retry was made" in done.stderr


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_with_retry_every_attempt_is_an_admitted_request(
    tmp_path: Path, chat_server: ChatServer, protocol: Protocol
) -> None:
    chat_server.enqueue(
        rate_limited(),
        rate_limited(status=529 if protocol == "anthropic" else 503),
        *(render(turn, protocol) for turn in TURNS),
    )
    done, record = run(tmp_path, chat_server, protocol)
    assert done.returncode == 0, done.stderr
    assert len(chat_server.requests) == 5
    used = record["budget"]["used"]
    assert used["model_requests"] == 5
    assert used["actions"] == 7  # 5 model requests and 2 tool calls
    assert used["input_tokens"] == 30  # the refused attempts used nothing
    assert record["budget"]["usage_measurement"] == "complete"
    assert record["target"]["provider_retries"] == 2
    assert record["operations"]["failed"] == 2
    assert record["operations"]["succeeded"] == 5
    assert "model requests 5 (2 accounted provider retries)" in done.stderr


def test_attempts_end_at_max_attempts(tmp_path: Path, chat_server: ChatServer) -> None:
    chat_server.enqueue(rate_limited(), rate_limited(), rate_limited())
    retry = {**RETRY, "max_attempts": 2}
    done, record = run(tmp_path, chat_server, retry=retry)
    assert done.returncode == 7
    assert len(chat_server.requests) == 2
    assert record["budget"]["used"]["model_requests"] == 2
    assert record["target"]["provider_retries"] == 1
    assert record["execution"]["reason"] == "provider_rate_limited"
    assert "2 attempts made" in done.stderr
    assert "retry.max_attempts=2 reached" in done.stderr


@pytest.mark.parametrize(
    ("failure", "retry"),
    [
        (Reply(status=500, body={}), RETRY),
        (Reply(status=502, body={}), RETRY),
        (rate_limited(status=503), {**RETRY, "on": ["rate_limited"]}),
        (rate_limited(), {**RETRY, "on": ["overloaded"]}),
    ],
    ids=["500", "502", "503-not-listed", "429-not-listed"],
)
def test_other_failures_never_retry(
    tmp_path: Path, chat_server: ChatServer, failure: Reply, retry: dict[str, Any]
) -> None:
    chat_server.enqueue(failure, *(render(turn, "openai") for turn in TURNS))
    done, record = run(tmp_path, chat_server, retry=retry)
    assert done.returncode == 7
    assert len(chat_server.requests) == 1
    assert record["target"]["provider_retries"] == 0


def test_a_retry_after_beyond_the_deadline_is_not_waited_for(
    tmp_path: Path, chat_server: ChatServer
) -> None:
    chat_server.enqueue(rate_limited("30"))
    workflow = workflow_dict(
        target={"provider": "model", "model": "m1"},
        budgets={"max_actions": 20, "timeout_ms": 20_000},
    )
    retry = {**RETRY, "max_delay_ms": 60_000}
    done, record = run(tmp_path, chat_server, retry=retry, workflow=workflow)
    # not exit 6: the run did not sit out the deadline, the failure stands
    assert done.returncode == 7, done.stderr
    assert record["execution"]["status"] == "runtime_failure"
    assert record["execution"]["reason"] == "provider_rate_limited"
    assert len(chat_server.requests) == 1
    assert record["target"]["provider_retries"] == 0
    assert "would pass the workflow's deadline or budget" in done.stderr


def test_a_retry_after_beyond_max_delay_is_not_waited_for(
    tmp_path: Path, chat_server: ChatServer
) -> None:
    chat_server.enqueue(rate_limited("6"))
    done, record = run(tmp_path, chat_server)
    assert done.returncode == 7
    assert len(chat_server.requests) == 1
    assert "Retry-After (6 s) exceeds retry.max_delay_ms=5000" in done.stderr
    assert record["target"]["provider_retries"] == 0


def test_the_budget_bounds_the_retries(tmp_path: Path, chat_server: ChatServer) -> None:
    chat_server.enqueue(rate_limited(), rate_limited())
    workflow = workflow_dict(
        target={"provider": "model", "model": "m1"},
        budgets={"max_actions": 20, "timeout_ms": 30_000, "max_model_requests": 2},
    )
    retry = {**RETRY, "max_attempts": 5}
    done, record = run(tmp_path, chat_server, retry=retry, workflow=workflow)
    assert done.returncode == 7
    assert len(chat_server.requests) == 2
    assert record["budget"]["used"]["model_requests"] == 2
    assert record["target"]["provider_retries"] == 1


def test_a_refused_connection_retries_when_listed(
    tmp_path: Path, chat_server: ChatServer
) -> None:
    retry = {"on": ["connect_refused"], "max_attempts": 3, "max_delay_ms": 0}
    base_url = f"http://127.0.0.1:{free_port()}/v1"
    done, record = run(tmp_path, chat_server, retry=retry, base_url=base_url)
    assert done.returncode == 7
    assert record["budget"]["used"]["model_requests"] == 3
    assert record["target"]["provider_retries"] == 2
    assert record["execution"]["reason"] == "provider_connect_refused"
    assert "3 attempts made" in done.stderr


def test_a_workflow_cannot_ask_for_retries(
    tmp_path: Path, chat_server: ChatServer
) -> None:
    workflow = workflow_dict(
        target={"provider": "model", "model": "m1", "retry": RETRY},
    )
    path, config = setup(tmp_path, config_entry("openai", chat_server), workflow)
    done = akit("workflow", "run", path, "--config", config)
    assert done.returncode == 2
    assert "$.target.retry" in done.stderr
    assert "trusted configuration" in done.stderr
    assert chat_server.requests == []


@pytest.mark.parametrize(
    ("retry", "where"),
    [
        ({"on": ["timeout"], "max_attempts": 2}, "$.providers.m.retry.on"),
        ({"on": [], "max_attempts": 2}, "$.providers.m.retry.on"),
        ({"on": ["rate_limited"] * 2, "max_attempts": 2}, "$.providers.m.retry.on"),
        ({"on": ["rate_limited"], "max_attempts": 6}, "max_attempts"),
        ({"on": ["rate_limited"], "max_attempts": True}, "max_attempts"),
        ({"on": ["rate_limited"]}, "max_attempts"),
        (
            {"on": ["rate_limited"], "max_attempts": 2, "max_delay_ms": 60_001},
            "max_delay_ms",
        ),
        ({"on": ["rate_limited"], "max_attempts": 2, "jitter": 1}, "jitter"),
        ("yes", "$.providers.m.retry"),
        (
            {"on": ["rate_limited"], "max_attempts": 2, "type": "scripted"},
            "$.providers.m.retry",
        ),
    ],
)
def test_invalid_retry_policies_are_configuration_errors(
    retry: Any, where: str
) -> None:
    if isinstance(retry, dict):  # a copy: every run of the test shares the parameter
        retry = dict(retry)
    kind = retry.pop("type", "openai") if isinstance(retry, dict) else "openai"
    text = json.dumps({"providers": {"m": {"type": kind, "retry": retry}}})
    with pytest.raises(ConfigError) as caught:
        parse_trusted_config(text, source="artemis.config.yaml")
    assert caught.value.exit_code == 1
    assert any(where in line for line in caught.value.errors)


@pytest.mark.anyio
async def test_the_retry_policy_is_part_of_the_transport_digest() -> None:
    def entry(retry: dict[str, Any] | None) -> Any:
        data: dict[str, Any] = {"type": "anthropic", "api_key": "k"}
        if retry is not None:
            data["retry"] = retry
        text = json.dumps({"providers": {"m": data}})
        return parse_trusted_config(text).providers["m"]

    async def digest(retry: dict[str, Any] | None) -> str | None:
        built = await create_provider_target(
            ProviderRequest(entry=entry(retry), model="c")
        )
        await built.target.aclose()  # type: ignore[attr-defined]
        return built.transport_digest

    assert entry(RETRY).retry == ProviderRetryPolicy(
        on=("rate_limited", "overloaded"), max_attempts=3, max_delay_ms=5000
    )
    digests = {
        await digest(None),
        await digest(RETRY),
        await digest({**RETRY, "max_attempts": 2}),
        await digest({**RETRY, "on": ["overloaded"]}),
    }
    assert len(digests) == 4
    assert await digest(RETRY) == await digest(dict(RETRY))


def test_a_checkpoint_is_not_resumed_under_another_retry_policy(
    tmp_path: Path, chat_server: ChatServer
) -> None:
    chat_server.enqueue(render(TURNS[0], "openai"))
    entry = {**config_entry("openai", chat_server), "retry": RETRY}
    path, config = setup(tmp_path, entry)
    checkpoint = tmp_path / "checkpoint"
    done = akit(
        "workflow",
        "run",
        path,
        "--config",
        config,
        "--checkpoint-dir",
        checkpoint,
        "--pause-after-actions",
        "2",
    )
    assert done.returncode == 10, done.stderr
    other = tmp_path / "other.config.yaml"
    other.write_text(
        json.dumps(
            {"providers": {"model": {**entry, "retry": {**RETRY, "max_attempts": 2}}}}
        )
    )
    refused = akit(
        "workflow", "resume", path, "--config", other, "--checkpoint-dir", checkpoint
    )
    assert refused.returncode == 2, refused.stderr
    assert "configuration_id" in refused.stderr
    assert len(chat_server.requests) == 1
    chat_server.enqueue(*(render(turn, "openai") for turn in TURNS[1:]))
    resumed = akit(
        "workflow", "resume", path, "--config", config, "--checkpoint-dir", checkpoint
    )
    assert resumed.returncode == 0, resumed.stderr
    assert len(chat_server.requests) == 3


def test_the_judge_is_never_retried(tmp_path: Path, chat_server: ChatServer) -> None:
    workflow = workflow_dict(
        outcomes=[{"id": "tone", "judge": {"rubric": "Neutral.", "threshold": 0.5}}]
    )
    (tmp_path / "agent.script.yaml").write_text(
        json.dumps({"version": 1, "responses": [{"text": "Done."}]}), encoding="utf-8"
    )
    path = tmp_path / "workflow.yaml"
    path.write_text(json.dumps(workflow), encoding="utf-8")
    judge = tmp_path / "judge.yaml"
    entry = {**config_entry("anthropic", chat_server), "retry": RETRY}
    judge.write_text(
        json.dumps({"provider": "claude", "model": "j", "providers": {"claude": entry}})
    )
    chat_server.enqueue(rate_limited(), render(TURNS[-1], "anthropic"))
    record_path = tmp_path / "record.json"
    done = akit(
        "workflow", "run", path, "--judge-config", judge, "--output", record_path
    )
    assert done.returncode == 9, done.stderr
    assert len(chat_server.requests) == 1
    record = read_record(record_path)
    assert record["judge"]["requests"] == 1
    assert record["task_verification"]["requirements"][0]["reason"] == "judge_failure"


@pytest.mark.parametrize(
    "retry_after", ["Wed, 21 Oct 2015 07:28:00 GMT", "soon", None, "0"]
)
def test_retry_after_as_a_past_date_or_unreadable_still_retries(
    tmp_path: Path, chat_server: ChatServer, retry_after: str | None
) -> None:
    chat_server.enqueue(
        rate_limited(retry_after), *(render(turn, "openai") for turn in TURNS)
    )
    done, record = run(tmp_path, chat_server)
    assert done.returncode == 0, done.stderr
    assert len(chat_server.requests) == 4
    assert record["target"]["provider_retries"] == 1
