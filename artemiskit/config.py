"""Deprecated: the trusted configuration's parts moved (removed in the next release).

Each part lives with what uses it: `TrustedConfig` and `load_trusted_config` at
the top level (`artemiskit`); the provider entries, their retry policy, the
judge configuration and `parse_trusted_config` in `artemiskit.providers`;
`SandboxConfig` in `artemiskit.environments`; `McpServerConfig` in
`artemiskit.tools`; `TelemetryConfig` in `artemiskit.telemetry`; and the
``MODULE:ATTR`` importers at the top level. Each name below still resolves to
the same object, with a `DeprecationWarning` (docs/migrating.md).
"""

from __future__ import annotations

import typing

from artemiskit._common import _exports

if typing.TYPE_CHECKING:
    __all__: list[str]

    def __getattr__(name: str) -> typing.Any:
        """The deprecated names (each warns on every access), for type checkers."""
        ...


_exports.export_lazily(
    globals(),
    deprecated={
        "RetryPolicy": _exports.Deprecated(
            module="artemiskit.providers",
            attribute="ProviderRetryPolicy",
            message=(
                "artemiskit.config.RetryPolicy is deprecated and will be removed in "
                "the next release: use artemiskit.providers.ProviderRetryPolicy"
            ),
        ),
        **_exports.retired(
            "artemiskit.config",
            {
                "artemiskit": (
                    "TrustedConfig",
                    "import_host_attribute",
                    "import_host_objects",
                    "load_trusted_config",
                ),
                "artemiskit.environments": ("SandboxConfig",),
                "artemiskit.providers": (
                    "JudgeConfig",
                    "ProviderConfig",
                    "ProviderRetryPolicy",
                    "load_judge_config",
                    "parse_judge_config",
                    "parse_trusted_config",
                ),
                "artemiskit.telemetry": ("TelemetryConfig",),
                "artemiskit.tools": ("McpServerConfig",),
            },
        ),
    },
)
