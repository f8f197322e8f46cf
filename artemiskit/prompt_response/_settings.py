"""The run settings an upstream ``artemis.config.yaml`` holds beside providers.

The trusted configuration loader ignores the TypeScript top-level keys; the
prompt-response runner reads the ones it needs here: ``project``,
``storage.basePath``, ``provider``, ``model`` and ``scenariosDir`` (``${VAR}``
expanded the TypeScript way). The file is discovered like the original did: the
current folder, then each parent, for ``artemis.config.yaml``,
``artemis.config.yml`` and ``artemis.yaml``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from artemiskit._common._reading import read_text_file
from artemiskit._common._yaml import parse_yaml_plain
from artemiskit._errors import ConfigError, WorkflowError
from artemiskit.prompt_response._variables import expand_environment
from artemiskit.providers._config import TrustedConfig, parse_trusted_config

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = [
    "CONFIG_NAMES",
    "RunSettings",
    "compatible_config",
    "find_config",
    "load_run_config",
    "load_run_settings",
]

CONFIG_NAMES = ("artemis.config.yaml", "artemis.config.yml", "artemis.yaml")
_MAX_CONFIG_BYTES = 1024 * 1024


@attrs.frozen(kw_only=True)
class RunSettings:
    """Prompt-response settings of the configuration and the environment.

    Attributes:
        project: ``project`` of the config, else ``ARTEMIS_PROJECT``, else
            ``default``.
        storage_path: ``storage.basePath``, else ``ARTEMIS_STORAGE_PATH``, else
            ``./artemis-runs`` (relative to the current folder).
        provider: The config's default provider.
        model: The config's default model.
        scenarios_dir: Where ``akit run`` without a path looks.
        default_models: ``defaultModel`` of each TypeScript provider block.
    """

    project: str = "default"
    storage_path: str = "./artemis-runs"
    provider: str | None = None
    model: str | None = None
    scenarios_dir: str = "./scenarios"
    default_models: dict[str, str] = attrs.field(factory=dict)


def find_config(start: str | os.PathLike[str] | None = None) -> Path | None:
    """The nearest config file from ``start`` (default: the current folder) upward."""
    folder = Path(start or os.getcwd()).resolve()
    for candidate in (folder, *folder.parents):
        if candidate.parent == candidate:
            break
        for name in CONFIG_NAMES:
            path = candidate / name
            if path.is_file():
                return path
    return None


def _text(data: Mapping[str, Any], key: str) -> str | None:
    value = data.get(key)
    return value if isinstance(value, str) and value else None


_ENTRY_KEYS = {
    "type",
    "base_url",
    "baseUrl",
    "api_key",
    "apiKey",
    "api_key_env",
    "request_timeout_ms",
    "scripts_dir",
    "headers",
}
_OPENAI_COMPATIBLE = {
    "vercel-ai",
    "google",
    "mistral",
    "cohere",
    "huggingface",
    "ollama",
    "custom",
}
_KEY_ENV = {
    "openai": "OPENAI_API_KEY",
    "vercel-ai": "OPENAI_API_KEY",
    "anthropic": "ANTHROPIC_API_KEY",
    "azure-openai": "AZURE_OPENAI_API_KEY",
}


def _compatible_entry(name: str, block: dict[str, Any]) -> dict[str, Any]:
    """A TypeScript provider block as a trusted-config entry (credentials kept)."""
    entry = {
        key: value
        for key, value in block.items()
        if key in _ENTRY_KEYS and value not in ("", None)
    }
    timeout = block.get("timeout")
    if "request_timeout_ms" not in entry and isinstance(timeout, int) and timeout > 0:
        entry["request_timeout_ms"] = timeout
    if "type" not in entry and name in _OPENAI_COMPATIBLE:
        entry["type"] = "openai"
    credentials = {"api_key", "apiKey", "api_key_env"}
    if not credentials & set(entry) and name in _KEY_ENV:
        entry["api_key_env"] = _KEY_ENV[name]
    return entry


def compatible_config(
    text: str, source: str, environ: Mapping[str, str] | None = None
) -> TrustedConfig:
    """The trusted configuration of ``text``, TypeScript configs included.

    A native configuration is parsed as it is. When that fails, the file is read
    the TypeScript way: ``${VAR}`` / ``${VAR:-default}`` expanded (unset: the
    default, else empty), TypeScript-only provider keys (``defaultModel``,
    ``maxRetries``, ...) dropped, empty credentials dropped and the usual key
    variable (``OPENAI_API_KEY`` ...) assumed. If that fails too, the native
    problems are reported.

    Raises:
        ConfigError: The file is neither (exit 1).
    """
    try:
        return parse_trusted_config(text, source=source)
    except ConfigError as native:
        try:
            doc = parse_yaml_plain(text, source=source)
        except WorkflowError:
            raise native from None
        data = expand_environment(
            doc.data if isinstance(doc.data, dict) else {},
            missing=lambda _p, _n: None,
            environ=environ,
        )
        providers = data.get("providers")
        cleaned: dict[str, Any] = {}
        if isinstance(providers, dict):
            cleaned["providers"] = {
                name: _compatible_entry(name, block)
                for name, block in providers.items()
                if isinstance(block, dict)
            }
        if isinstance(data.get("sandbox"), dict):
            cleaned["sandbox"] = data["sandbox"]
        try:
            config = parse_trusted_config(json.dumps(cleaned), source=source)
        except ConfigError:
            raise native from None
        return attrs.evolve(
            config, notices=(*config.notices, "read as a TypeScript configuration")
        )


async def load_run_config(
    path: str | os.PathLike[str] | None, environ: Mapping[str, str] | None = None
) -> tuple[RunSettings, TrustedConfig]:
    """The run settings and provider entries of config ``path`` (``None``: none).

    Raises:
        FileAccessError: The file cannot be read.
        ConfigError: The file is not a configuration.
    """
    settings = await load_run_settings(path, environ)
    if path is None:
        return settings, TrustedConfig()
    source = os.fspath(path)
    text = await read_text_file(
        path,
        what="configuration",
        limit=_MAX_CONFIG_BYTES,
        invalid=lambda problem: ConfigError(
            f"{source}: invalid configuration", [problem]
        ),
    )
    return settings, compatible_config(text, source, environ)


async def load_run_settings(
    path: str | os.PathLike[str] | None, environ: Mapping[str, str] | None = None
) -> RunSettings:
    """Read the run settings of config ``path`` (``None``: no config file).

    Raises:
        FileAccessError: The file cannot be read.
        ConfigError: The file is not YAML or not a mapping.
    """
    env = os.environ if environ is None else environ
    data: dict[str, Any] = {}
    if path is not None:
        source = os.fspath(path)
        text = await read_text_file(
            path,
            what="configuration",
            limit=_MAX_CONFIG_BYTES,
            invalid=lambda problem: ConfigError(
                f"{source}: invalid configuration", [problem]
            ),
        )
        try:
            doc = parse_yaml_plain(text, source=source)
        except WorkflowError as exc:
            raise ConfigError(
                f"{source}: invalid configuration", exc.problems
            ) from None
        if doc.data is not None and not isinstance(doc.data, dict):
            raise ConfigError(f"{source}: invalid configuration (not a mapping)")
        data = expand_environment(
            doc.data or {}, missing=lambda _p, _n: None, environ=env
        )
    storage = data.get("storage") if isinstance(data.get("storage"), dict) else {}
    assert isinstance(storage, dict)
    return RunSettings(
        project=_text(data, "project") or env.get("ARTEMIS_PROJECT") or "default",
        storage_path=_text(storage, "basePath")
        or env.get("ARTEMIS_STORAGE_PATH")
        or "./artemis-runs",
        provider=_text(data, "provider"),
        model=_text(data, "model"),
        scenarios_dir=_text(data, "scenariosDir") or "./scenarios",
        default_models=_default_models(data),
    )


def _default_models(data: Mapping[str, Any]) -> dict[str, str]:
    providers = data.get("providers")
    if not isinstance(providers, dict):
        return {}
    return {
        name: block["defaultModel"]
        for name, block in providers.items()
        if isinstance(block, dict)
        and isinstance(block.get("defaultModel"), str)
        and block["defaultModel"]
    }
