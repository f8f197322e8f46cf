"""Environments: where file tools act, chosen by kind from a registry.

`Environment` and `EnvironmentFactory` are the interface every backend implements
(and `artemiskit.testing.EnvironmentConformance` checks). ``simulated`` keeps files in
memory; ``sandbox`` runs each run in a hardened Docker container (aiodocker is
imported only when a container is created).

Names load lazily, as in `artemiskit`: add a new one to ``_EXPORTS``, under
``TYPE_CHECKING`` and to ``__all__``.
"""

from __future__ import annotations

import typing

from artemiskit._common import _exports

if typing.TYPE_CHECKING:
    __all__: list[str]

    from artemiskit.environments._base import (
        MAX_CLEANUP_TIMEOUT_MS as MAX_CLEANUP_TIMEOUT_MS,
        CleanupReport as CleanupReport,
        Environment as Environment,
        EnvironmentFactory as EnvironmentFactory,
    )
    from artemiskit.environments._registry import (
        EnvironmentBuilder as EnvironmentBuilder,
        EnvironmentOptions as EnvironmentOptions,
        create_environment_factory as create_environment_factory,
        environment_kinds as environment_kinds,
        register_environment as register_environment,
    )
    from artemiskit.environments._simulated import (
        SimulatedEnvironment as SimulatedEnvironment,
        SimulatedFactory as SimulatedFactory,
    )
    from artemiskit.environments.sandbox._config import (
        SandboxConfig as SandboxConfig,
    )
    from artemiskit.environments.sandbox._engine import (
        SandboxSettings as SandboxSettings,
    )
    from artemiskit.environments.sandbox._environment import (
        DockerSandboxEnvironment as DockerSandboxEnvironment,
        DockerSandboxFactory as DockerSandboxFactory,
    )

_exports.export_lazily(globals())
