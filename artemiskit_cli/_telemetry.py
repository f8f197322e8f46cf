"""``--otel``: the trusted configuration's collector, as a `Telemetry`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from artemiskit import ConfigError

if TYPE_CHECKING:
    from artemiskit import TrustedConfig
    from artemiskit.telemetry import Telemetry

__all__ = ["telemetry_of"]


def telemetry_of(config: TrustedConfig | None) -> Telemetry:
    """The `Telemetry` that ``--otel`` exports to.

    Raises:
        ConfigError: No ``telemetry:`` section in the configuration, or the
            ``otel`` extra is missing (exit 1, with the install hint).
    """
    if config is None or config.telemetry is None:
        raise ConfigError(
            "--otel needs a `telemetry: {otlp_endpoint: ...}` section in the "
            "trusted configuration given with --config (docs/telemetry.md)",
            reason="telemetry_not_configured",
        )
    from artemiskit.telemetry import Telemetry

    return Telemetry(config.telemetry)
