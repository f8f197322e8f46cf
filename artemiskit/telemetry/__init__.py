"""OpenTelemetry export of runs and suites (SPEC 25), metadata only.

`Telemetry` needs the optional extra ``artemiskit[otel]`` (the OpenTelemetry SDK
and its OTLP protobuf encoding), imported only when one is created; importing this
package imports neither it nor httpx.
"""

from __future__ import annotations

import typing

from artemiskit._common import _exports

if typing.TYPE_CHECKING:
    __all__: list[str]

    from artemiskit.telemetry._config import (
        TelemetryConfig as TelemetryConfig,
    )
    from artemiskit.telemetry._protocol import (
        RunTelemetry as RunTelemetry,
        TelemetrySource as TelemetrySource,
    )
    from artemiskit.telemetry._telemetry import (
        INSTALL_HINT as INSTALL_HINT,
        SuiteTelemetry as SuiteTelemetry,
        Telemetry as Telemetry,
    )

_exports.export_lazily(globals())
