"""Trusted host configuration (``artemis.config.yaml``)."""

from __future__ import annotations

from artemiskit.config._config import (
    ProviderConfig,
    RetryPolicy,
    SandboxConfig,
    TrustedConfig,
    load_trusted_config,
    parse_trusted_config,
)
from artemiskit.config._judge import JudgeConfig, load_judge_config, parse_judge_config
from artemiskit.config._mcp import McpServerConfig
from artemiskit.config._telemetry import TelemetryConfig

__all__ = [
    "JudgeConfig",
    "McpServerConfig",
    "ProviderConfig",
    "RetryPolicy",
    "SandboxConfig",
    "TelemetryConfig",
    "TrustedConfig",
    "load_judge_config",
    "load_trusted_config",
    "parse_judge_config",
    "parse_trusted_config",
]
