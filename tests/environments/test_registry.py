"""Environment factories come from a registry keyed by ``environment.kind``."""

from __future__ import annotations

from pathlib import Path

import pytest

from artemiskit import ArtemisKit, UnsupportedError
from artemiskit.environments import (
    DockerSandboxFactory,
    EnvironmentFactory,
    EnvironmentOptions,
    SandboxSettings,
    SimulatedFactory,
    create_environment_factory,
    environment_kinds,
    register_environment,
)
from tests._builders import PASSING_SCRIPT, write_workflow
from tests._environments import DictFactory


def test_built_in_kinds_are_registered() -> None:
    assert environment_kinds() == ("sandbox", "simulated")
    assert isinstance(create_environment_factory("simulated"), SimulatedFactory)
    assert create_environment_factory("simulated").supports_checkpoint is True


def test_sandbox_factory_gets_the_hosts_options() -> None:
    settings = SandboxSettings(image="my-image:1", pids_limit=32)
    factory = create_environment_factory(
        "sandbox", EnvironmentOptions(sandbox=settings, cleanup_timeout_ms=2_500)
    )
    assert isinstance(factory, DockerSandboxFactory)
    assert factory.settings == settings
    assert factory.default_cleanup_timeout_ms == 2_500
    default = create_environment_factory("sandbox")
    assert isinstance(default, DockerSandboxFactory)
    assert default.settings == SandboxSettings()
    assert default.default_cleanup_timeout_ms == 6_000


def test_unknown_kind_is_unsupported() -> None:
    with pytest.raises(UnsupportedError, match="'vm' is not registered") as caught:
        create_environment_factory("vm")
    assert caught.value.reason == "unsupported_environment"


def test_a_kind_is_registered_once_unless_replaced() -> None:
    with pytest.raises(ValueError, match="already registered"):
        register_environment("simulated", lambda options: SimulatedFactory())


async def test_a_replaced_builder_serves_the_workflows_kind(tmp_path: Path) -> None:
    custom = DictFactory()
    seen: list[EnvironmentOptions] = []

    def build(options: EnvironmentOptions) -> EnvironmentFactory:
        seen.append(options)
        return custom

    register_environment("simulated", build, replace=True)
    try:
        result = await ArtemisKit().run_workflow(
            workflow=write_workflow(tmp_path, script=PASSING_SCRIPT),
            cleanup_timeout_ms=1_234,
        )
    finally:
        register_environment(
            "simulated", lambda options: SimulatedFactory(), replace=True
        )
    assert result.record.execution.status == "completed"
    assert len(custom.created) == 1
    assert custom.created[0].files["out/summary.md"] == "30 days"
    assert [options.cleanup_timeout_ms for options in seen] == [1_234]
    assert isinstance(create_environment_factory("simulated"), SimulatedFactory)
