"""Both built-in environments pass the one shared conformance suite."""

from __future__ import annotations

import pytest

from artemiskit.environments._base import Environment, EnvironmentFactory
from artemiskit.environments._simulated import SimulatedFactory
from artemiskit.environments.sandbox._environment import (
    DockerSandboxEnvironment,
    DockerSandboxFactory,
)
from artemiskit.testing import EnvironmentConformance

from ._docker import run_in_container

# (environment kind, event loop): the sandbox runs on asyncio only.
CASES = [
    pytest.param(("simulated", "asyncio"), id="simulated-asyncio"),
    pytest.param(("simulated", "trio"), id="simulated-trio"),
    pytest.param(
        ("sandbox", "asyncio"), id="sandbox-asyncio", marks=pytest.mark.docker
    ),
]


@pytest.fixture(params=CASES)
def case(request: pytest.FixtureRequest) -> tuple[str, str]:
    kind_and_backend: tuple[str, str] = request.param
    return kind_and_backend


@pytest.fixture
def anyio_backend(case: tuple[str, str]) -> str:
    return case[1]


async def plant_symlink(environment: Environment, link: str, target: str) -> None:
    assert isinstance(environment, DockerSandboxEnvironment)
    code, output = await run_in_container(
        environment.container_id, f'ln -s -- "{target}" "{link}"'
    )
    assert code == 0, output


def suite_for(kind: str) -> EnvironmentConformance:
    factory: EnvironmentFactory
    if kind == "simulated":
        return EnvironmentConformance(factory=SimulatedFactory())
    factory = DockerSandboxFactory()
    return EnvironmentConformance(factory=factory, make_symlink=plant_symlink)


@pytest.mark.parametrize("check", EnvironmentConformance.check_names())
async def test_conformance(case: tuple[str, str], check: str) -> None:
    await suite_for(case[0]).run(check)


def test_check_names_are_listed() -> None:
    names = EnvironmentConformance.check_names()
    assert names == sorted(names)
    assert "check_symlinks" in names
    assert "check_names" not in names
    assert "check_snapshot" in names
