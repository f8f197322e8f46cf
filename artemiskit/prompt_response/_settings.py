"""The run settings an upstream ``artemis.config.yaml`` holds beside providers.

The trusted configuration loader ignores the TypeScript top-level keys; the
prompt-response runner reads the ones it needs here: ``project``,
``storage.basePath``, ``provider``, ``model`` and ``scenariosDir`` (``${VAR}``
expanded the TypeScript way). The file is discovered like the original did: the
current folder, then each parent, for ``artemis.config.yaml``,
``artemis.config.yml`` and ``artemis.yaml``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from artemiskit._common._reading import read_text_file
from artemiskit._common._yaml import parse_yaml
from artemiskit._errors import ConfigError, WorkflowError
from artemiskit.prompt_response._variables import expand_environment

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["CONFIG_NAMES", "RunSettings", "find_config", "load_run_settings"]

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
    """

    project: str = "default"
    storage_path: str = "./artemis-runs"
    provider: str | None = None
    model: str | None = None
    scenarios_dir: str = "./scenarios"


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
            doc = parse_yaml(text, source=source)
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
    )
