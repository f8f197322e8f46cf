"""Provider types come from a registry: built-ins, Python, and installed plugins."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from artemiskit import ArtemisKit, ConfigError, TrustedConfig, UnsupportedError
from artemiskit.providers import (
    ProviderConfig,
    ProviderRequest,
    ProviderTarget,
    ScriptedTarget,
    create_provider_target,
    load_provider_entry_points,
    provider_types,
    register_provider,
)
from artemiskit.targets import TargetRequest, TargetResponse, Usage
from tests._builders import PASSING_SCRIPT, workflow_dict, write_workflow
from tests._cli import akit_process

PLUGIN = """
from artemiskit.providers import ProviderTarget
from artemiskit.targets import TargetResponse, Usage


class Answering:
    async def respond(self, request):
        return TargetResponse(
            text="Done by " + MODELS[-1], usage=Usage(input_tokens=1, output_tokens=1)
        )


MODELS = []


async def build(request):
    MODELS.append(request.model)
    return ProviderTarget(target=Answering(), transport_digest="sha256:" + "a" * 64)
"""
PLUGIN_DIGEST = "sha256:" + "a" * 64
MINE = "sha256:" + "b" * 64


def test_built_in_types_are_registered() -> None:
    assert {"openai", "scripted"} <= set(provider_types())


async def test_the_scripted_type_builds_a_scripted_target(tmp_path: Path) -> None:
    write_workflow(tmp_path, script=PASSING_SCRIPT)
    built = await create_provider_target(
        ProviderRequest(
            entry=ProviderConfig(name="scripted", type="scripted"),
            model="agent",
            base_dir=str(tmp_path),
        )
    )
    assert isinstance(built.target, ScriptedTarget)
    assert built.transport_digest is not None
    assert built.transport_digest.startswith("sha256:")


async def test_an_unregistered_type_is_unsupported() -> None:
    with pytest.raises(UnsupportedError, match="'bedrock' is not supported") as info:
        await create_provider_target(
            ProviderRequest(entry=ProviderConfig(name="b", type="bedrock"), model="m")
        )
    assert info.value.reason == "unsupported_target"
    assert info.value.exit_code == 3


def test_a_type_is_registered_once_unless_replaced() -> None:
    async def build(request: ProviderRequest) -> ProviderTarget:
        raise AssertionError

    with pytest.raises(ValueError, match="already registered"):
        register_provider("scripted", build)


class Answering:
    async def respond(self, request: TargetRequest) -> TargetResponse:
        return TargetResponse(
            text="Done.", usage=Usage(input_tokens=1, output_tokens=1)
        )


async def test_a_type_registered_from_python_runs_a_workflow(tmp_path: Path) -> None:
    seen: list[ProviderRequest] = []

    async def build(request: ProviderRequest) -> ProviderTarget:
        seen.append(request)
        return ProviderTarget(target=Answering(), transport_digest=MINE)

    register_provider("in-house", build, replace=True)
    config = TrustedConfig(
        providers={"house": ProviderConfig(name="house", type="in-house")}
    )
    workflow = workflow_dict(
        target={"provider": "house", "model": "m-1", "parameters": {"seed": 7}},
        outcomes=[],
    )
    result = await ArtemisKit(config=config).run_workflow(
        workflow=write_workflow(tmp_path, workflow)
    )
    assert result.record.execution.status == "completed"
    assert result.record.target.provider == "house"
    assert result.record.target.transport_digest == MINE
    assert [(r.model, r.seed, r.entry.name) for r in seen] == [("m-1", 7, "house")]


def _install_plugin(site: Path, entry_point: str) -> None:
    """Install a tiny distribution the way pip would: a module and its dist-info."""
    (site / "akit_echo_provider.py").write_text(PLUGIN, encoding="utf-8")
    info = site / "akit_echo_provider-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: akit-echo-provider\nVersion: 1.0\n",
        encoding="utf-8",
    )
    (info / "entry_points.txt").write_text(
        f"[artemiskit.providers]\n{entry_point}\n", encoding="utf-8"
    )


def _with_site(site: Path) -> dict[str, str]:
    """The environment of a real ``akit`` process that finds the plugin's site."""
    path = os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")]))
    return {**os.environ, "PYTHONPATH": path}


def test_an_installed_entry_point_registers_its_type(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    _install_plugin(site, "echo = akit_echo_provider:build")
    code = textwrap.dedent(
        """
        from artemiskit.providers import load_provider_entry_points, provider_types
        assert "echo" not in provider_types()
        print(load_provider_entry_points())
        assert load_provider_entry_points() == ("echo",)
        assert "echo" in provider_types()
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        env=_with_site(site),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "('echo',)"


def test_the_cli_runs_a_provider_type_from_an_entry_point(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    _install_plugin(site, "echo = akit_echo_provider:build")
    config = tmp_path / "artemis.config.yaml"
    config.write_text(json.dumps({"providers": {"house": {"type": "echo"}}}))
    workflow = workflow_dict(target={"provider": "house", "model": "m-2"}, outcomes=[])
    path = write_workflow(tmp_path, workflow)
    record_path = tmp_path / "record.json"
    done = akit_process(
        "workflow",
        "run",
        path,
        "--config",
        config,
        "--output",
        record_path,
        env=_with_site(site),
    )
    assert "Traceback" not in done.stderr
    record = json.loads(record_path.read_text(encoding="utf-8"))
    assert record["execution"]["status"] == "completed"
    assert record["target"] == {
        "provider": "house",
        "model": "m-2",
        "transport_digest": PLUGIN_DIGEST,
        "provider_retries": 0,
        "id": "house:m-2",
    }


def test_a_broken_entry_point_is_a_config_error(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    _install_plugin(site, "echo = akit_echo_provider:no_such_builder")
    config = tmp_path / "artemis.config.yaml"
    config.write_text(json.dumps({"providers": {"house": {"type": "echo"}}}))
    path = write_workflow(
        tmp_path, workflow_dict(target={"provider": "house", "model": "m"})
    )
    done = akit_process(
        "workflow", "run", path, "--config", config, env=_with_site(site)
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert "provider type 'echo'" in done.stderr
    assert "could not be loaded: AttributeError" in done.stderr


def test_loading_without_plugins_registers_nothing() -> None:
    before = provider_types()
    load_provider_entry_points()
    assert provider_types() == before


async def test_a_malformed_digest_is_refused(tmp_path: Path) -> None:
    async def build(request: ProviderRequest) -> ProviderTarget:
        return ProviderTarget(target=Answering(), transport_digest="sha256:short")

    register_provider("sloppy", build, replace=True)
    with pytest.raises(ConfigError, match="'sloppy' built no valid") as info:
        await create_provider_target(
            ProviderRequest(entry=ProviderConfig(name="s", type="sloppy"), model="m")
        )
    assert info.value.reason == "invalid_provider_plugin"
