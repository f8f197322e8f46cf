"""What ``akit run`` must never write: redacted text, credentials, expanded secrets.

Redaction covers every stored or exported string that can quote model text (an
``exact`` reason quotes the answer; every message of a conversation); the values of
configured credentials never appear in any output, even when a provider echoes
them in its error code; and a scenario never receives a secret from ``${VAR}``.
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Any

import pytest

from tests._cli import akit
from tests.prompt_response.conftest import write_config
from tests.providers._chat_server import ChatServer, Computed, Reply, chat_reply

if TYPE_CHECKING:
    import subprocess
    from pathlib import Path

    from tests.providers._chat_server import RecordedRequest

KEY_ENV = "ARTEMIS_TEST_ECHO_KEY"
SENTINEL_KEY = "sk-ECHOED-SENTINEL-0123456789abcdef"
EMAIL = "sentinel.person@example.org"


def _run(
    folder: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``akit run scenarios ARGS`` in ``folder`` (in-process, tests/_cli.py)."""
    environ = {**os.environ, **(env or {})}
    return akit("run", "scenarios", *args, cwd=folder, env=environ)


def _write_scenario(folder: Path, data: dict[str, Any]) -> None:
    path = folder / "scenarios" / "s.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")


def _outputs(folder: Path, done: subprocess.CompletedProcess[str]) -> list[str]:
    texts = [done.stdout, done.stderr]
    for pattern in ("artemis-runs/**/*.json", "artemis-exports/*"):
        texts += [p.read_text(encoding="utf-8") for p in folder.glob(pattern)]
    return texts


def test_an_exact_reason_quoting_the_answer_is_redacted_in_manifest_and_exports(
    model_server: ChatServer, tmp_path: Path
) -> None:
    write_config(tmp_path, model_server.url)
    _write_scenario(
        tmp_path,
        {
            "name": "reasons",
            "provider": "local",
            "model": "m",
            "cases": [
                {
                    "id": "quoted",
                    "prompt": f"ANSWER:mail {EMAIL} now",
                    "expected": {"type": "exact", "value": "4"},
                }
            ],
        },
    )
    done = _run(tmp_path, "--redact", "--export", "junit", "--export", "markdown")
    assert done.returncode == 1, done.stderr
    [manifest_path] = (tmp_path / "artemis-runs" / "default").glob("*.json")
    [case] = json.loads(manifest_path.read_text(encoding="utf-8"))["cases"]
    assert case["reason"] == 'Expected "4", got "mail [REDACTED] now"'
    assert case["redaction"]["redactionCount"] == 2  # prompt and response only
    exports = sorted(p.suffix for p in (tmp_path / "artemis-exports").iterdir())
    assert exports == [".md", ".xml"]
    for text in _outputs(tmp_path, done):
        assert EMAIL not in text


def test_every_message_of_a_conversation_is_redacted(
    model_server: ChatServer, tmp_path: Path
) -> None:
    write_config(tmp_path, model_server.url)
    _write_scenario(
        tmp_path,
        {
            "name": "turns",
            "provider": "local",
            "model": "m",
            "redaction": {"enabled": True, "patterns": ["email"]},
            "cases": [
                {
                    "id": "chat",
                    "prompt": [
                        {"role": "system", "content": f"owner {EMAIL}"},
                        {"role": "user", "content": f"I am {EMAIL}"},
                        {"role": "assistant", "content": f"Hello {EMAIL}"},
                        {"role": "user", "content": "ANSWER:ok"},
                    ],
                    "expected": {"type": "contains", "values": ["ok"]},
                }
            ],
        },
    )
    done = _run(tmp_path)
    assert done.returncode == 0, done.stderr
    [manifest_path] = (tmp_path / "artemis-runs" / "default").glob("*.json")
    [case] = json.loads(manifest_path.read_text(encoding="utf-8"))["cases"]
    assert [m["content"] for m in case["prompt"]] == [
        "owner [REDACTED]",
        "I am [REDACTED]",
        "Hello [REDACTED]",
        "ANSWER:ok",
    ]
    assert case["redaction"]["redactionCount"] == 3
    assert EMAIL in json.dumps(model_server.requests[0].json)  # sent as written


def _error_echoing(header: str, anthropic: bool) -> Computed:
    def make(request: RecordedRequest) -> Reply:
        key = request.headers[header].removeprefix("Bearer ")
        error = {"type": key} if anthropic else {"code": key, "type": key}
        body = {"type": "error", "error": {**error, "message": "no"}}
        return Reply(status=400, body=body)

    return Computed(make)


@pytest.mark.parametrize(
    ("kind", "header"),
    [
        ("openai", "authorization"),
        ("azure-openai", "api-key"),
        ("anthropic", "x-api-key"),
    ],
)
def test_a_provider_error_code_echoing_the_key_never_reaches_any_output(
    kind: str, header: str, tmp_path: Path
) -> None:
    with ChatServer() as server:
        server.enqueue(*[_error_echoing(header, kind == "anthropic")] * 4)
        entry: dict[str, Any] = {"type": kind, "api_key_env": KEY_ENV}
        if kind == "azure-openai":
            entry |= {
                "base_url": server.root,
                "deployment": "d",
                "api_version": "2024-10-21",
            }
        else:
            entry["base_url"] = server.url if kind == "openai" else server.root
        (tmp_path / "artemis.config.yaml").write_text(
            json.dumps({"providers": {"echo": entry}}), encoding="utf-8"
        )
        _write_scenario(
            tmp_path,
            {
                "name": "echo",
                "provider": "echo",
                "model": "m",
                "cases": [
                    {
                        "id": "a",
                        "prompt": "hi",
                        "expected": {"type": "contains", "values": ["x"]},
                    }
                ],
            },
        )
        done = _run(
            tmp_path,
            "-v",
            "--ci",
            "--retries",
            "1",
            "--export",
            "junit",
            "--export",
            "markdown",
            env={KEY_ENV: SENTINEL_KEY},
        )
        assert len(server.requests) == 2
    assert done.returncode == 1, done.stderr
    assert "(HTTP 400)" in done.stderr
    texts = _outputs(tmp_path, done)
    assert len(texts) == 5  # stdout, stderr, manifest, JUnit, Markdown
    for text in texts:
        assert SENTINEL_KEY not in text
        assert SENTINEL_KEY[3:] not in text


def test_an_azure_status_repeated_as_the_code_is_not_printed_twice(
    tmp_path: Path,
) -> None:
    with ChatServer() as server:
        server.enqueue(Reply(status=401, body={"error": {"code": "401"}}))
        entry = {
            "type": "azure-openai",
            "base_url": server.root,
            "deployment": "d",
            "api_version": "2024-10-21",
            "api_key_env": KEY_ENV,
        }
        (tmp_path / "artemis.config.yaml").write_text(
            json.dumps({"providers": {"az": entry}}), encoding="utf-8"
        )
        _write_scenario(
            tmp_path,
            {
                "name": "az",
                "provider": "az",
                "model": "m",
                "cases": [
                    {
                        "id": "a",
                        "prompt": "hi",
                        "expected": {"type": "contains", "values": ["x"]},
                    }
                ],
            },
        )
        done = _run(tmp_path, "-v", env={KEY_ENV: SENTINEL_KEY})
    assert done.returncode == 1
    assert "(HTTP 401)" in done.stderr
    assert "(HTTP 401, 401)" not in done.stderr


def test_a_model_that_repeats_the_key_has_it_withheld_from_the_manifest(
    chat_server: ChatServer, tmp_path: Path
) -> None:
    def echo_key(request: RecordedRequest) -> Reply:
        key = request.headers["authorization"].removeprefix("Bearer ")
        return chat_reply(content=f"your key is {key}")

    chat_server.enqueue(Computed(echo_key))
    write_config(tmp_path, chat_server.url)
    config = json.loads((tmp_path / "artemis.config.yaml").read_text("utf-8"))
    config["providers"]["local"]["api_key_env"] = KEY_ENV
    (tmp_path / "artemis.config.yaml").write_text(json.dumps(config), "utf-8")
    _write_scenario(
        tmp_path,
        {
            "name": "leak",
            "provider": "local",
            "model": "m",
            "cases": [
                {
                    "id": "a",
                    "prompt": "hi",
                    "expected": {"type": "exact", "value": "no"},
                }
            ],
        },
    )
    done = _run(tmp_path, "--export", "junit", env={KEY_ENV: SENTINEL_KEY})
    assert done.returncode == 1, done.stderr
    [manifest_path] = (tmp_path / "artemis-runs" / "default").glob("*.json")
    [case] = json.loads(manifest_path.read_text(encoding="utf-8"))["cases"]
    assert case["response"] == "your key is [REDACTED]"
    for text in _outputs(tmp_path, done):
        assert SENTINEL_KEY not in text


def test_a_scenario_never_expands_a_secret_into_stored_text(
    model_server: ChatServer, tmp_path: Path
) -> None:
    write_config(tmp_path, model_server.url)
    config = json.loads((tmp_path / "artemis.config.yaml").read_text("utf-8"))
    config["providers"]["local"]["api_key_env"] = KEY_ENV
    (tmp_path / "artemis.config.yaml").write_text(json.dumps(config), "utf-8")
    _write_scenario(
        tmp_path,
        {
            "name": "expand",
            "provider": "local",
            "model": "m",
            "cases": [
                {
                    "id": "named",
                    "prompt": "ANSWER:k=${SENTINEL_API_KEY} t=${A_TOKEN:-none}",
                    "expected": {"type": "contains", "values": ["${MY_PASSWORD_X}"]},
                },
                {
                    "id": "holder",
                    "prompt": "ANSWER:${HOLDER} ${PLAIN}",
                    "expected": {"type": "contains", "values": ["${HOLDER}"]},
                },
            ],
        },
    )
    env = {
        KEY_ENV: SENTINEL_KEY,
        "SENTINEL_API_KEY": "sentinel-named-value-1",
        "A_TOKEN": "sentinel-token-value-2",
        "MY_PASSWORD_X": "sentinel-password-value-3",
        "HOLDER": f"prefix-{SENTINEL_KEY}",  # holds the configured key
        "PLAIN": "plain-value-ok",
    }
    done = _run(tmp_path, "-v", env=env)
    [manifest_path] = (tmp_path / "artemis-runs" / "default").glob("*.json")
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    named, holder = manifest["cases"]
    assert named["prompt"] == "ANSWER:k= t=none"
    assert named["expected"]["values"] == [""]
    assert holder["prompt"] == "ANSWER: plain-value-ok"
    texts = [
        *_outputs(tmp_path, done),
        *(json.dumps(r.json) for r in model_server.requests),
    ]
    for text in texts:
        for value in (*list(env.values())[:5], SENTINEL_KEY):
            assert value not in text
    notices = [line for line in done.stderr.splitlines() if "may hold a secret" in line]
    assert len(notices) == 5
