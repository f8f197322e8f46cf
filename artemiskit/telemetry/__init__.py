"""OpenTelemetry export of runs and suites (SPEC 25), metadata only.

`Telemetry` needs the optional extra ``artemiskit[otel]`` (the OpenTelemetry SDK
and its OTLP protobuf encoding), imported only when one is created; importing this
package imports neither it nor httpx.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from artemiskit.telemetry._protocol import RunTelemetry, TelemetrySource

if TYPE_CHECKING:
    from artemiskit.config._telemetry import TelemetryConfig
    from artemiskit.telemetry._telemetry import INSTALL_HINT, SuiteTelemetry, Telemetry

__all__ = [
    "INSTALL_HINT",
    "RunTelemetry",
    "SuiteTelemetry",
    "Telemetry",
    "TelemetryConfig",
    "TelemetrySource",
]


def __getattr__(name: str) -> object:
    if name == "TelemetryConfig":
        from artemiskit.config._telemetry import TelemetryConfig

        return TelemetryConfig
    if name in ("INSTALL_HINT", "SuiteTelemetry", "Telemetry"):
        from artemiskit.telemetry import _telemetry

        return getattr(_telemetry, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
