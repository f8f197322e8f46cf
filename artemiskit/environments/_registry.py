"""Environment backends by kind: the registry the SDK chooses a factory from.

``simulated`` and ``sandbox`` are built in. A host may register a builder for
another kind or replace a built-in one; the workflow's ``environment.kind`` picks
the builder, which receives the host's `EnvironmentOptions`.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from artemiskit._errors import UnsupportedError
from artemiskit.environments._base import EnvironmentFactory
from artemiskit.environments._simulated import SimulatedFactory
from artemiskit.environments.sandbox._engine import SandboxSettings

__all__ = [
    "EnvironmentBuilder",
    "EnvironmentOptions",
    "create_environment_factory",
    "environment_kinds",
    "register_environment",
]


@attrs.frozen(kw_only=True)
class EnvironmentOptions:
    """The host's settings an environment factory is built from.

    Attributes:
        sandbox: Trusted settings of the Docker sandbox.
        cleanup_timeout_ms: The cleanup bound; ``None`` keeps the kind's default.
    """

    sandbox: SandboxSettings = attrs.Factory(SandboxSettings)
    cleanup_timeout_ms: int | None = None


EnvironmentBuilder = Callable[[EnvironmentOptions], EnvironmentFactory]
"""Builds the factory of one environment kind from the host's options."""


def _simulated(options: EnvironmentOptions) -> EnvironmentFactory:
    return SimulatedFactory()


def _sandbox(options: EnvironmentOptions) -> EnvironmentFactory:
    from artemiskit.environments.sandbox._environment import DockerSandboxFactory

    if options.cleanup_timeout_ms is None:
        return DockerSandboxFactory(options.sandbox)
    return DockerSandboxFactory(
        options.sandbox, cleanup_timeout_ms=options.cleanup_timeout_ms
    )


_BUILDERS: dict[str, EnvironmentBuilder] = {
    "simulated": _simulated,
    "sandbox": _sandbox,
}


def register_environment(
    kind: str, builder: EnvironmentBuilder, *, replace: bool = False
) -> None:
    """Register the builder of environment ``kind``.

    Args:
        kind: The ``environment.kind`` the builder serves.
        builder: Called with the host's `EnvironmentOptions` for each session.
        replace: Replace an already registered builder (a built-in one too).

    Raises:
        ValueError: ``kind`` is already registered and ``replace`` is false.
    """
    if kind in _BUILDERS and not replace:
        raise ValueError(f"environment kind {kind!r} is already registered")
    _BUILDERS[kind] = builder


def environment_kinds() -> tuple[str, ...]:
    """Return the registered environment kinds, sorted."""
    return tuple(sorted(_BUILDERS))


def create_environment_factory(
    kind: str, options: EnvironmentOptions | None = None
) -> EnvironmentFactory:
    """Build the factory of environment ``kind``.

    Args:
        kind: A registered environment kind.
        options: The host's settings (default: the built-in defaults).

    Returns:
        The factory the session creates its environment with.

    Raises:
        UnsupportedError: No builder is registered for ``kind``
            (``unsupported_environment``).
    """
    builder = _BUILDERS.get(kind)
    if builder is None:
        raise UnsupportedError(
            f"environment kind {kind!r} is not registered (registered: "
            f"{', '.join(environment_kinds())})",
            reason="unsupported_environment",
        )
    return builder(options or EnvironmentOptions())
