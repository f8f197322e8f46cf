"""Configuration files of the TypeScript ArtemisKit load unchanged (SPEC 5 and 16)."""

from __future__ import annotations

import json
import os
import subprocess
from typing import TYPE_CHECKING

import pytest

from artemiskit import ConfigError
from artemiskit.providers import parse_trusted_config
from tests import _cli
from tests._builders import workflow_dict

from ._wire import Turn, render
from .test_cli_protocols import TURNS

if TYPE_CHECKING:
    from pathlib import Path

    from ._chat_server import ChatServer

KEY = "sk-ant-UPSTREAM-SENTINEL"
UPSTREAM = """\
project: my-project
provider: openai
model: gpt-4o-mini
providers:
  openai:
    apiKey: ${OPENAI_API_KEY}
    defaultModel: gpt-4o-mini
    organization: org-1
    maxRetries: 2
  azure-openai:
    apiKey: ${AZURE_OPENAI_API_KEY}
    resourceName: ${AZURE_OPENAI_RESOURCE}
    deploymentName: ${AZURE_OPENAI_DEPLOYMENT}
    apiVersion: ${AZURE_OPENAI_API_VERSION:-2024-02-15-preview}
  anthropic:
    apiKey: ${ANTHROPIC_API_KEY}
    baseUrl: ${ANTHROPIC_BASE_URL:-https://api.anthropic.com/v1}
    defaultModel: claude-sonnet-4-5
    timeout: 30000
storage:
  type: local
  basePath: ./artemis-runs
scenariosDir: ./scenarios
output:
  format: json
  dir: ./artemis-output
"""
UNSET = (
    "OPENAI_API_KEY",
    "AZURE_OPENAI_API_KEY",
    "AZURE_OPENAI_RESOURCE",
    "AZURE_OPENAI_DEPLOYMENT",
    "AZURE_OPENAI_API_VERSION",
    "ANTHROPIC_BASE_URL",
)


def test_the_upstream_init_file_loads_with_only_one_key_set(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in UNSET:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    config = parse_trusted_config(UPSTREAM, source="artemis.config.yaml")
    claude = config.providers["anthropic"]
    assert (claude.type, claude.api_key, claude.request_timeout_ms) == (
        "anthropic",
        KEY,
        30000,
    )
    assert claude.base_url == "https://api.anthropic.com/v1"
    assert claude.unset_variables == ()
    azure = config.providers["azure-openai"]
    assert azure.type == "azure-openai"
    assert azure.api_version == "2024-02-15-preview"
    assert azure.unset_variables == (
        "AZURE_OPENAI_API_KEY",
        "AZURE_OPENAI_DEPLOYMENT",
        "AZURE_OPENAI_RESOURCE",
    )
    openai = config.providers["openai"]
    assert openai.headers == {"OpenAI-Organization": "org-1"}
    with pytest.raises(ConfigError, match="OPENAI_API_KEY") as caught:
        openai.resolve_api_key()
    assert caught.value.reason == "missing_credential"
    notices = "\n".join(config.notices)
    assert "$.providers.openai.defaultModel" in notices
    assert "$.providers.openai.maxRetries" in notices
    assert "accounted retries are opt-in" in notices
    assert "$.storage" in notices
    assert KEY not in notices + repr(config)


def test_an_unset_variable_outside_the_providers_is_still_an_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("NO_SUCH_IMAGE_VARIABLE", raising=False)
    text = "sandbox:\n  image: ${NO_SUCH_IMAGE_VARIABLE}\n"
    with pytest.raises(ConfigError) as caught:
        parse_trusted_config(text)
    assert "NO_SUCH_IMAGE_VARIABLE is not set" in caught.value.errors[0]


def akit(
    folder: Path, provider: str, server: ChatServer
) -> subprocess.CompletedProcess[str]:
    (folder / "artemis.config.yaml").write_text(UPSTREAM, encoding="utf-8")
    workflow = workflow_dict(target={"provider": provider, "model": "claude-test"})
    (folder / "workflow.yaml").write_text(json.dumps(workflow), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in UNSET}
    env.update(ANTHROPIC_API_KEY=KEY, ANTHROPIC_BASE_URL=server.url)
    return _cli.akit(
        "workflow",
        "run",
        folder / "workflow.yaml",
        "--config",
        folder / "artemis.config.yaml",
        env=env,
    )


def test_the_cli_runs_the_upstream_file_against_anthropic(
    tmp_path: Path, chat_server: ChatServer
) -> None:
    chat_server.enqueue(*(render(turn, "anthropic") for turn in TURNS))
    done = akit(tmp_path, "anthropic", chat_server)
    assert done.returncode == 0, done.stderr
    assert chat_server.requests[0].headers["x-api-key"] == KEY
    assert "ignored upstream key" in done.stderr
    assert KEY not in done.stderr + done.stdout


def test_the_cli_refuses_an_entry_whose_key_is_unset(
    tmp_path: Path, chat_server: ChatServer
) -> None:
    chat_server.enqueue(render(Turn(text="never asked"), "openai"))
    done = akit(tmp_path, "openai", chat_server)
    assert done.returncode == 1
    assert "OPENAI_API_KEY" in done.stderr
    assert "Traceback" not in done.stderr
    assert chat_server.requests == []
