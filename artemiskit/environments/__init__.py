"""Environments: where file tools act, chosen by kind from a registry.

`Environment` and `EnvironmentFactory` are the interface every backend implements
(and `artemiskit.testing.EnvironmentConformance` checks). ``simulated`` keeps files in
memory; ``sandbox`` runs each run in a hardened Docker container (aiodocker is
imported only when a container is created).

Names load lazily, as in `artemiskit`: add a new one to ``_EXPORTS``, under
``TYPE_CHECKING`` and to ``__all__``.
"""

from __future__ import annotations

import importlib
import typing

if typing.TYPE_CHECKING:
    from artemiskit.environments._base import (
        MAX_CLEANUP_TIMEOUT_MS,
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
    from artemiskit.environments._simulated import (
        SimulatedEnvironment,
        SimulatedFactory,
    )

__all__ = [
    "CleanupReport",
    "DockerSandboxEnvironment",
    "DockerSandboxFactory",
    "Environment",
    "EnvironmentBuilder",
    "EnvironmentFactory",
    "EnvironmentOptions",
    "MAX_CLEANUP_TIMEOUT_MS",
    "SandboxSettings",
    "SimulatedEnvironment",
    "SimulatedFactory",
    "create_environment_factory",
    "environment_kinds",
    "register_environment",
]

_EXPORTS: dict[str, str] = {
    "MAX_CLEANUP_TIMEOUT_MS": "artemiskit.environments._base",
    "CleanupReport": "artemiskit.environments._base",
    "Environment": "artemiskit.environments._base",
    "EnvironmentFactory": "artemiskit.environments._base",
    "EnvironmentBuilder": "artemiskit.environments._registry",
    "EnvironmentOptions": "artemiskit.environments._registry",
    "create_environment_factory": "artemiskit.environments._registry",
    "environment_kinds": "artemiskit.environments._registry",
    "register_environment": "artemiskit.environments._registry",
    "DockerSandboxEnvironment": "artemiskit.environments._sandbox",
    "DockerSandboxFactory": "artemiskit.environments._sandbox",
    "SandboxSettings": "artemiskit.environments._sandbox_engine",
    "SimulatedEnvironment": "artemiskit.environments._simulated",
    "SimulatedFactory": "artemiskit.environments._simulated",
}


if not typing.TYPE_CHECKING:
    # Hidden from type checkers, which see the imports above and nothing else.
    def __getattr__(name: str) -> typing.Any:
        module = _EXPORTS.get(name)
        if module is None:
            raise AttributeError(
                f"module 'artemiskit.environments' has no attribute {name!r}"
            )
        value = getattr(importlib.import_module(module), name)
        globals()[name] = value
        return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
