"""Trusted host configuration, ``artemis.config.yaml`` (SPEC 5).

Unlike a workflow, the configuration is trusted: it holds credentials and transport
settings, and any string value may be written ``${NAME}`` to read an environment
variable. Upstream ArtemisKit keys are accepted: ``apiKey``/``baseUrl`` as aliases,
unrelated top-level keys ignored with a notice.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Any

import attrs

from artemiskit._common._reading import read_text_file
from artemiskit._common._yaml import (
    YamlDocument,
    format_path,
    parse_yaml,
    surrogate_problems,
)
from artemiskit._errors import ConfigError, Problem, WorkflowError
from artemiskit.environments._sandbox_engine import DEFAULT_SANDBOX_IMAGE, install_hint

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

__all__ = [
    "ProviderConfig",
    "SandboxConfig",
    "TrustedConfig",
    "build_trusted_config",
    "invalid_configuration",
    "load_trusted_config",
    "parse_trusted_config",
]

MAX_CONFIG_BYTES = 1024 * 1024
#: Top-level keys of upstream ArtemisKit configs that this engine does not use.
UPSTREAM_KEYS = frozenset(
    {
        "project",
        "scenariosDir",
        "storage",
        "output",
        "ci",
        "provider",
        "model",
        "redaction",
        "defaults",
        "reporting",
        "judge",
    }
)
_PROVIDER_KEYS = {
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
_SANDBOX_KEYS = {"image", "memory_bytes", "nano_cpus", "pids_limit", "tmpfs_size_bytes"}
_VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
PROVIDER_TYPES = ("openai", "scripted")
_PROVIDER_TYPE = re.compile(r"[a-z][a-z0-9_.-]{0,63}")


@attrs.frozen(kw_only=True)
class ProviderConfig:
    """One provider entry.

    Attributes:
        name: The entry name a workflow's ``target.provider`` refers to.
        type: The provider type: ``openai``, ``scripted`` or one the host
            registered (defaults to the entry name).
        base_url: The endpoint, for ``openai``.
        api_key: A literal key (discouraged); never shown in any output.
        api_key_env: The environment variable holding the key.
        request_timeout_ms: Per-request timeout.
        scripts_dir: For ``scripted``: where ``MODEL.script.yaml`` files live.
        headers: Extra HTTP headers (trusted).
    """

    name: str
    type: str
    base_url: str | None = None
    api_key: str | None = attrs.field(default=None, repr=False)
    api_key_env: str | None = None
    request_timeout_ms: int = 60_000
    scripts_dir: str | None = None
    headers: dict[str, str] = attrs.field(factory=dict, repr=False)

    def resolve_api_key(self) -> str | None:
        """The credential, from ``api_key`` or ``api_key_env``.

        Raises:
            ConfigError: ``api_key_env`` names a variable that is not set.
        """
        if self.api_key is not None:
            return self.api_key
        if self.api_key_env is None:
            return None
        value = os.environ.get(self.api_key_env)
        if not value:
            raise ConfigError(
                f"provider {self.name!r} needs the environment variable "
                f"{self.api_key_env} to hold its API key, and it is not set",
                reason="missing_credential",
            )
        return value


@attrs.frozen(kw_only=True)
class SandboxConfig:
    """The trusted sandbox settings: which image, and resource limits.

    ``None`` keeps the sandbox's default (the image: ``artemiskit-sandbox:busybox``).
    """

    image: str | None = None
    memory_bytes: int | None = None
    nano_cpus: int | None = None
    pids_limit: int | None = None
    tmpfs_size_bytes: int | None = None

    def install_hint(self) -> str:
        """Say how to install this configuration's image (it is never pulled).

        Returns:
            Text naming the image, with plain shell commands that build it from
            Debian's ``busybox-static`` and ``docker import`` (nothing from the
            ArtemisKit repository is needed).
        """
        return install_hint(self.image or DEFAULT_SANDBOX_IMAGE)


@attrs.frozen(kw_only=True)
class TrustedConfig:
    """The whole trusted configuration.

    Attributes:
        providers: Provider entries by name.
        sandbox: Sandbox settings.
        notices: Keys that were ignored (upstream keys this engine does not use).
        source: Where the configuration came from.
    """

    providers: dict[str, ProviderConfig] = attrs.field(factory=dict)
    sandbox: SandboxConfig = SandboxConfig()
    notices: tuple[str, ...] = ()
    source: str | None = None


def _expand(
    value: Any, path: tuple[str | int, ...], problems: list[tuple[Any, str]]
) -> Any:
    if isinstance(value, str):

        def replace(match: re.Match[str]) -> str:
            name = match.group(1)
            if name not in os.environ:
                problems.append((path, f"environment variable {name} is not set"))
                return ""
            return os.environ[name]

        return _VARIABLE.sub(replace, value)
    if isinstance(value, dict):
        return {k: _expand(v, (*path, k), problems) for k, v in value.items()}
    if isinstance(value, list):
        return [_expand(v, (*path, i), problems) for i, v in enumerate(value)]
    return value


def _unknown(known: Iterable[str]) -> str:
    return f"unknown key (known: {', '.join(sorted(known))})"


def invalid_configuration(
    source: str, problems: Sequence[Problem], *, what: str = "configuration"
) -> ConfigError:
    """The error for an invalid configuration file, naming the file.

    Args:
        source: The file (or ``<string>``).
        problems: Every problem found.
        what: ``configuration`` or ``judge configuration``.
    """
    count = len(problems)
    noun = "problem" if count == 1 else "problems"
    return ConfigError(f"{source}: invalid {what} ({count} {noun})", problems)


def _positive_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def _provider(
    name: str, raw: Any, path: tuple[str | int, ...], report: Any
) -> ProviderConfig | None:
    if not isinstance(raw, dict):
        report(path, "must be a mapping")
        return None
    for key in raw:
        if key not in _PROVIDER_KEYS:
            report((*path, key), _unknown(_PROVIDER_KEYS), at_key=True)
    entry = dict(raw)
    for alias, key in (("apiKey", "api_key"), ("baseUrl", "base_url")):
        if alias in entry:
            if key in entry:
                report((*path, alias), f"give either {alias} or {key}, not both")
            entry[key] = entry.pop(alias)
    kind = entry.get("type", name)
    if not isinstance(kind, str) or not _PROVIDER_TYPE.fullmatch(kind):
        report(
            (*path, "type"),
            f"must be a provider type name (built in: {', '.join(PROVIDER_TYPES)}; "
            "others are registered by the host)",
        )
    for key in ("base_url", "api_key", "api_key_env", "scripts_dir"):
        if key in entry and not isinstance(entry[key], str):
            report((*path, key), "must be a string")
    if "api_key" in entry and "api_key_env" in entry:
        report((*path, "api_key"), "give either api_key or api_key_env, not both")
    timeout = entry.get("request_timeout_ms", 60_000)
    if not _positive_int(timeout) or timeout > 3_600_000:
        report((*path, "request_timeout_ms"), "must be an integer 1–3600000")
        timeout = 60_000
    headers = entry.get("headers", {})
    if not isinstance(headers, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in headers.items()
    ):
        report((*path, "headers"), "must map header names to strings")
        headers = {}
    return ProviderConfig(
        name=name,
        type=str(kind),
        base_url=entry.get("base_url"),
        api_key=entry.get("api_key"),
        api_key_env=entry.get("api_key_env"),
        request_timeout_ms=timeout,
        scripts_dir=entry.get("scripts_dir"),
        headers=dict(headers),
    )


def build_trusted_config(
    doc: YamlDocument, data: Mapping[str, Any], source: str
) -> TrustedConfig:
    """Check and build a configuration from parsed data (positions from ``doc``).

    Raises:
        ConfigError: The configuration is invalid (exit 1).
    """
    problems: list[Problem] = []

    def report(
        path: tuple[str | int, ...], message: str, *, at_key: bool = False
    ) -> None:
        problems.append(doc.problem(message, path, at_key=at_key))

    problems += surrogate_problems(doc, data)
    if problems:
        raise invalid_configuration(source, problems)
    notices: list[str] = []
    for key in data:
        if key in UPSTREAM_KEYS:
            notices.append(f"ignored upstream key {format_path((key,))}")
        elif key not in ("providers", "sandbox"):
            report((key,), _unknown({"providers", "sandbox"}), at_key=True)
    expansion: list[tuple[Any, str]] = []
    expanded = _expand(
        {k: v for k, v in data.items() if k not in UPSTREAM_KEYS}, (), expansion
    )
    for path, message in expansion:
        report(path, message)
    problems += surrogate_problems(doc, expanded)  # a variable's undecodable bytes
    providers: dict[str, ProviderConfig] = {}
    raw_providers = expanded.get("providers", {})
    if not isinstance(raw_providers, dict):
        report(("providers",), "must be a mapping of provider entries")
        raw_providers = {}
    for name, raw in raw_providers.items():
        entry = _provider(name, raw, ("providers", name), report)
        if entry is not None:
            providers[name] = entry
    sandbox = SandboxConfig()
    raw_sandbox = expanded.get("sandbox", {})
    if not isinstance(raw_sandbox, dict):
        report(("sandbox",), "must be a mapping")
    else:
        for key, value in raw_sandbox.items():
            if key not in _SANDBOX_KEYS:
                report(("sandbox", key), _unknown(_SANDBOX_KEYS), at_key=True)
            elif key == "image" and not isinstance(value, str):
                report(("sandbox", key), "must be a string")
            elif key != "image" and not _positive_int(value):
                report(("sandbox", key), "must be a positive integer")
        if not problems:
            sandbox = SandboxConfig(
                **{k: v for k, v in raw_sandbox.items() if k in _SANDBOX_KEYS}
            )
    if problems:
        raise invalid_configuration(source, problems)
    return TrustedConfig(
        providers=providers, sandbox=sandbox, notices=tuple(notices), source=source
    )


def parse_trusted_config(text: str, *, source: str = "<string>") -> TrustedConfig:
    """Parse a trusted configuration.

    Raises:
        ConfigError: The configuration is invalid; every problem is listed with its
            line, column and key path (exit 1).
    """
    try:
        doc = parse_yaml(text, source=source)
    except WorkflowError as exc:
        raise invalid_configuration(source, exc.problems) from None
    data = doc.data if doc.data is not None else {}
    if not isinstance(data, dict):
        raise invalid_configuration(
            source,
            [Problem(message="must be a mapping", source=source, line=1, column=1)],
        )
    return build_trusted_config(doc, data, source)


async def load_trusted_config(path: str | os.PathLike[str]) -> TrustedConfig:
    """Read and parse ``artemis.config.yaml``.

    Raises:
        FileAccessError: The file cannot be read (exit 1).
        ConfigError: The configuration is invalid (exit 1).
    """
    text = await read_text_file(
        path,
        what="configuration",
        limit=MAX_CONFIG_BYTES,
        invalid=lambda problem: invalid_configuration(os.fspath(path), [problem]),
    )
    return parse_trusted_config(text, source=os.fspath(path))
