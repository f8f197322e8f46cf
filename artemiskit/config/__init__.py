"""Trusted host configuration (``artemis.config.yaml``)."""

from __future__ import annotations

import typing

from artemiskit._common import _exports

if typing.TYPE_CHECKING:
    __all__: list[str]

    from artemiskit._host_objects import (
        import_host_attribute as import_host_attribute,
        import_host_objects as import_host_objects,
    )
    from artemiskit.config._config import (
        ProviderConfig as ProviderConfig,
        ProviderRetryPolicy as ProviderRetryPolicy,
        SandboxConfig as SandboxConfig,
        TrustedConfig as TrustedConfig,
        load_trusted_config as load_trusted_config,
        parse_trusted_config as parse_trusted_config,
    )
    from artemiskit.config._judge import (
        JudgeConfig as JudgeConfig,
        load_judge_config as load_judge_config,
        parse_judge_config as parse_judge_config,
    )
    from artemiskit.config._mcp import (
        McpServerConfig as McpServerConfig,
    )
    from artemiskit.config._telemetry import (
        TelemetryConfig as TelemetryConfig,
    )

_exports.export_lazily(
    globals(),
    deprecated={
        "RetryPolicy": _exports.Deprecated(
            module="artemiskit.config._config",
            attribute="ProviderRetryPolicy",
            message=(
                "artemiskit.config.RetryPolicy is deprecated; use "
                "artemiskit.config.ProviderRetryPolicy"
            ),
        )
    },
)
