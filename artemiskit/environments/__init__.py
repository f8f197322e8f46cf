"""Environments: where file tools act, chosen by kind from a registry.

`Environment` and `EnvironmentFactory` are the interface every backend implements
(and `artemiskit.testing.EnvironmentConformance` checks). ``simulated`` keeps files in
memory; ``sandbox`` runs each run in a hardened Docker container (aiodocker is
imported only when a container is created).
"""

from __future__ import annotations

from artemiskit.environments._base import (
    CleanupReport,
    Environment,
    EnvironmentFactory,
)
from artemiskit.environments._registry import (
    EnvironmentBuilder,
    EnvironmentOptions,
    create_environment_factory,
    environment_kinds,
    register_environment,
)
from artemiskit.environments._sandbox import (
    DockerSandboxEnvironment,
    DockerSandboxFactory,
)
from artemiskit.environments._sandbox_engine import SandboxSettings
from artemiskit.environments._simulated import SimulatedEnvironment, SimulatedFactory

__all__ = [
    "CleanupReport",
    "DockerSandboxEnvironment",
    "DockerSandboxFactory",
    "Environment",
    "EnvironmentBuilder",
    "EnvironmentFactory",
    "EnvironmentOptions",
    "SandboxSettings",
    "SimulatedEnvironment",
    "SimulatedFactory",
    "create_environment_factory",
    "environment_kinds",
    "register_environment",
]
