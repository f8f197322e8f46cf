"""The ``mcp_servers`` section of the trusted configuration (SPEC 24)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest

from artemiskit import ConfigError, load_trusted_config
from artemiskit.providers import parse_trusted_config
from artemiskit.tools import McpServerConfig

if TYPE_CHECKING:
    from pathlib import Path


def _parse(servers: object) -> dict[str, McpServerConfig]:
    return parse_trusted_config(json.dumps({"mcp_servers": servers})).mcp_servers


def test_stdio_and_http_entries() -> None:
    servers = _parse(
        {
            "notes": {"command": ["python3", "server.py"], "env": {"A": "1"}},
            "search": {"url": "http://127.0.0.1:8931/mcp", "lifetime": "suite"},
        }
    )
    assert servers["notes"].command == ("python3", "server.py")
    assert servers["notes"].transport == "stdio"
    assert servers["notes"].lifetime == "run"
    assert servers["search"].transport == "streamable_http"
    assert servers["search"].lifetime == "suite"
    assert "'1'" not in repr(servers["notes"])  # env values are never shown


@pytest.mark.parametrize(
    ("entry", "where"),
    [
        ({}, "$.mcp_servers.s"),
        ({"command": ["a"], "url": "http://127.0.0.1/mcp"}, "$.mcp_servers.s"),
        ({"command": "python3 server.py"}, "$.mcp_servers.s.command"),
        ({"command": []}, "$.mcp_servers.s.command"),
        ({"url": "ftp://127.0.0.1/"}, "$.mcp_servers.s.url"),
        ({"command": ["a"], "env": {"A": 1}}, "$.mcp_servers.s.env"),
        ({"command": ["a"], "lifetime": "forever"}, "$.mcp_servers.s.lifetime"),
        (
            {"command": ["a"], "startup_timeout_ms": 0},
            "$.mcp_servers.s.startup_timeout_ms",
        ),
        ({"command": ["a"], "shell": True}, "$.mcp_servers.s.shell"),
        ({"url": "http://127.0.0.1/mcp", "cwd": "x"}, "$.mcp_servers.s"),
    ],
)
def test_invalid_entries_name_their_key_path(entry: object, where: str) -> None:
    with pytest.raises(ConfigError) as caught:
        _parse({"s": entry})
    assert caught.value.exit_code == 1
    assert where in {problem.path for problem in caught.value.problems}


def test_a_bad_server_name_and_a_non_mapping_are_refused() -> None:
    with pytest.raises(ConfigError):
        _parse({"1bad": {"command": ["a"]}})
    with pytest.raises(ConfigError):
        _parse(["notes"])


async def test_cwd_resolves_against_the_configuration_files_folder(
    tmp_path: Path,
) -> None:
    path = tmp_path / "artemis.config.yaml"
    path.write_text(
        json.dumps(
            {
                "mcp_servers": {
                    "here": {"command": ["python3", "s.py"]},
                    "sub": {"command": ["python3", "s.py"], "cwd": "servers"},
                    "web": {"url": "http://127.0.0.1:1/mcp"},
                }
            }
        )
    )
    servers = (await load_trusted_config(path)).mcp_servers
    assert servers["here"].cwd == str(tmp_path)
    assert servers["sub"].cwd == str(tmp_path / "servers")
    assert servers["web"].cwd is None
