"""Trusted host configuration (``artemis.config.yaml``)."""

from __future__ import annotations

from artemiskit.config._config import (
    ProviderConfig,
    SandboxConfig,
    TrustedConfig,
    load_trusted_config,
    parse_trusted_config,
)

__all__ = [
    "ProviderConfig",
    "SandboxConfig",
    "TrustedConfig",
    "load_trusted_config",
    "parse_trusted_config",
]
