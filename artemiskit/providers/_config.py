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
    ParsedYaml,
    format_path,
    parse_yaml_plain,
    surrogate_problems,
)
from artemiskit._errors import ConfigError, Problem, WorkflowError
from artemiskit.environments.sandbox._config import SandboxConfig
from artemiskit.telemetry._config import TelemetryConfig, parse_telemetry_section
from artemiskit.tools._mcp_config import McpServerConfig, mcp_servers_from

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

__all__ = [
    "RETRY_FAILURES",
    "ProviderConfig",
    "ProviderRetryPolicy",
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
    "timeout",
    "scripts_dir",
    "headers",
    "retry",
    "api_version",
    "apiVersion",
    "deployment",
    "deploymentName",
    "resource_name",
    "resourceName",
    "anthropic_version",
    "default_max_tokens",
    "organization",
}
#: Keys of upstream provider blocks this engine does not use (ignored, with a notice).
UPSTREAM_PROVIDER_KEYS = frozenset(
    {
        "defaultModel",
        "maxRetries",
        "embeddingDeploymentName",
        "modelFamily",
        "underlyingProvider",
        "name",
        "runnableType",
        "captureTraces",
        "captureMessages",
    }
)
_ALIASES = (
    ("apiKey", "api_key"),
    ("baseUrl", "base_url"),
    ("timeout", "request_timeout_ms"),
    ("apiVersion", "api_version"),
    ("deploymentName", "deployment"),
    ("resourceName", "resource_name"),
)
#: The failures an accounted retry may repeat: each proves nothing was processed.
RETRY_FAILURES = ("rate_limited", "overloaded", "connect_refused")
_RETRY_KEYS = {"on", "max_attempts", "max_delay_ms"}
MAX_RETRY_ATTEMPTS = 5
MAX_RETRY_DELAY_MS = 60_000
#: The longest wait before a retry when an entry's ``retry`` leaves it out.
DEFAULT_RETRY_DELAY_MS = 10_000
_TOP_KEYS = ("providers", "sandbox", "mcp_servers", "telemetry")
_SANDBOX_KEYS = {"image", "memory_bytes", "nano_cpus", "pids_limit", "tmpfs_size_bytes"}
_VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")
PROVIDER_TYPES = ("anthropic", "azure-openai", "openai", "scripted")
_PROVIDER_TYPE = re.compile(r"[a-z][a-z0-9_.-]{0,63}")


@attrs.frozen(kw_only=True)
class ProviderRetryPolicy:
    """Accounted retries of one provider entry (SPEC 16), opt-in and trusted.

    Each retry is an admitted model request of its own: counted against
    ``max_model_requests`` and ``max_actions``, in the ledger, and disclosed in the
    record (``target.provider_retries``).

    Attributes:
        on: The failures that retry, a subset of ``rate_limited`` (HTTP 429),
            ``overloaded`` (HTTP 503 or 529) and ``connect_refused`` (refused
            before anything was sent). Nothing else ever retries.
        max_attempts: Attempts per model request, the first included (1 to 5).
        max_delay_ms: The longest wait before a retry (0 to 60,000). A server's
            ``Retry-After`` longer than this (or than the workflow's deadline
            allows) is not waited for: the failure stands.
    """

    on: tuple[str, ...]
    max_attempts: int
    max_delay_ms: int = DEFAULT_RETRY_DELAY_MS


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
        retry: Accounted retries, or ``None`` (nothing retries).
        api_version: For ``azure-openai``: the ``api-version`` query parameter.
        deployment: For ``azure-openai``: the deployment name.
        resource_name: For ``azure-openai`` without ``base_url``: the resource,
            giving ``https://{resource_name}.openai.azure.com``.
        anthropic_version: For ``anthropic``: the ``anthropic-version`` header.
        default_max_tokens: For ``anthropic``: ``max_tokens`` when a workflow
            sets no output allowance.
        unset_variables: ``${NAME}`` variables of this entry that were not set;
            using the entry is then a configuration error, loading the file is not
            (an upstream config may name providers a host does not use).
    """

    name: str
    type: str
    base_url: str | None = None
    api_key: str | None = attrs.field(default=None, repr=False)
    api_key_env: str | None = None
    request_timeout_ms: int = 60_000
    scripts_dir: str | None = None
    headers: dict[str, str] = attrs.field(factory=dict, repr=False)
    retry: ProviderRetryPolicy | None = None
    api_version: str | None = None
    deployment: str | None = None
    resource_name: str | None = None
    anthropic_version: str | None = None
    default_max_tokens: int | None = None
    unset_variables: tuple[str, ...] = ()

    def resolve_api_key(self) -> str | None:
        """The credential, from ``api_key`` or ``api_key_env``.

        Raises:
            ConfigError: ``api_key_env`` names a variable that is not set, or the
                entry uses ``${NAME}`` variables that are not set.
        """
        self.check_variables()
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

    def check_variables(self) -> None:
        """Refuse to use an entry whose ``${NAME}`` variables are not all set.

        Raises:
            ConfigError: Some are not set (``missing_credential``).
        """
        if self.unset_variables:
            names = ", ".join(self.unset_variables)
            raise ConfigError(
                f"provider {self.name!r} uses environment variables that are not "
                f"set: {names}",
                reason="missing_credential",
            )


@attrs.frozen(kw_only=True)
class TrustedConfig:
    """The whole trusted configuration.

    Attributes:
        providers: Provider entries by name.
        sandbox: Sandbox settings.
        telemetry: Where ``--otel`` exports traces (SPEC 25), if configured.
        mcp_servers: MCP servers by name (SPEC 24): trusted host code that
            workflows may use tools of.
        notices: Keys that were ignored (upstream keys this engine does not use).
        source: Where the configuration came from.
        unexpanded: For a configuration read from text, its ``providers`` and
            ``sandbox`` as written, before ``${NAME}`` expansion: what a remote
            worker rebuilds the configuration from, with its own environment
            (never shown; ``None`` for a configuration built in code).
    """

    providers: dict[str, ProviderConfig] = attrs.field(factory=dict)
    sandbox: SandboxConfig = attrs.field(factory=SandboxConfig)
    telemetry: TelemetryConfig | None = None
    mcp_servers: dict[str, McpServerConfig] = attrs.field(factory=dict)
    notices: tuple[str, ...] = ()
    source: str | None = None
    unexpanded: dict[str, Any] | None = attrs.field(default=None, repr=False, eq=False)


def _expand(
    value: Any, path: tuple[str | int, ...], problems: list[tuple[Any, str]]
) -> Any:
    """Expand ``${NAME}`` and ``${NAME:-default}`` in every string.

    An unset (or empty) variable with a default takes the default; one without is
    reported as a problem at ``path``.
    """
    if isinstance(value, str):

        def replace(match: re.Match[str]) -> str:
            name, default = match.group(1), match.group(2)
            found = os.environ.get(name)
            if found:
                return found
            if default is not None:
                return default
            if name not in os.environ:
                problems.append((path, f"environment variable {name} is not set"))
            return ""

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
    name: str,
    raw: Any,
    path: tuple[str | int, ...],
    report: Any,
    notices: list[str],
) -> ProviderConfig | None:
    if not isinstance(raw, dict):
        report(path, "must be a mapping")
        return None
    entry = {}
    for key, value in raw.items():
        if key in UPSTREAM_PROVIDER_KEYS:
            notices.append(f"ignored upstream key {format_path((*path, key))}")
            if key == "maxRetries":
                notices.append(
                    f"{format_path(path)}: no transport retries are made; accounted "
                    "retries are opt-in with `retry:` (docs/providers.md)"
                )
        elif key not in _PROVIDER_KEYS:
            report((*path, key), _unknown(_PROVIDER_KEYS), at_key=True)
        else:
            entry[key] = value
    for alias, key in _ALIASES:
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
    for key in (
        "base_url",
        "api_key",
        "api_key_env",
        "scripts_dir",
        "api_version",
        "deployment",
        "resource_name",
        "anthropic_version",
        "organization",
    ):
        if key in entry and not isinstance(entry[key], str):
            report((*path, key), "must be a string")
    if "api_key" in entry and "api_key_env" in entry:
        report((*path, "api_key"), "give either api_key or api_key_env, not both")
    timeout = entry.get("request_timeout_ms", 60_000)
    if not _positive_int(timeout) or timeout > 3_600_000:
        report((*path, "request_timeout_ms"), "must be an integer 1–3600000")
        timeout = 60_000
    default_max_tokens = entry.get("default_max_tokens")
    if default_max_tokens is not None and not _positive_int(default_max_tokens):
        report((*path, "default_max_tokens"), "must be a positive integer")
    headers = entry.get("headers", {})
    if not isinstance(headers, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in headers.items()
    ):
        report((*path, "headers"), "must map header names to strings")
        headers = {}
    headers = dict(headers)
    if kind == "scripted" and "retry" in entry:
        report((*path, "retry"), "a scripted provider makes no requests to retry")
    if isinstance(entry.get("organization"), str) and entry["organization"]:
        headers.setdefault("OpenAI-Organization", entry["organization"])
    return ProviderConfig(
        name=name,
        type=str(kind),
        base_url=entry.get("base_url") or None,
        api_key=entry.get("api_key"),
        api_key_env=entry.get("api_key_env"),
        request_timeout_ms=timeout,
        scripts_dir=entry.get("scripts_dir"),
        headers=headers,
        retry=_retry(entry.get("retry"), (*path, "retry"), report),
        api_version=entry.get("api_version") or None,
        deployment=entry.get("deployment") or None,
        resource_name=entry.get("resource_name") or None,
        anthropic_version=entry.get("anthropic_version") or None,
        default_max_tokens=default_max_tokens,
    )


def _retry(
    raw: Any, path: tuple[str | int, ...], report: Any
) -> ProviderRetryPolicy | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        report(path, "must be a mapping with on, max_attempts and max_delay_ms")
        return None
    for key in raw:
        if key not in _RETRY_KEYS:
            report((*path, key), _unknown(_RETRY_KEYS), at_key=True)
    on = raw.get("on")
    if (
        not isinstance(on, list)
        or not on
        or not all(isinstance(item, str) and item in RETRY_FAILURES for item in on)
        or len(set(on)) != len(on)
    ):
        report(
            (*path, "on"),
            "must list distinct failures among " + ", ".join(RETRY_FAILURES),
        )
        on = []
    attempts = raw.get("max_attempts")
    if (
        not isinstance(attempts, int)
        or isinstance(attempts, bool)
        or not 1 <= attempts <= MAX_RETRY_ATTEMPTS
    ):
        report((*path, "max_attempts"), f"must be an integer 1–{MAX_RETRY_ATTEMPTS}")
        attempts = 1
    delay = raw.get("max_delay_ms", DEFAULT_RETRY_DELAY_MS)
    if (
        not isinstance(delay, int)
        or isinstance(delay, bool)
        or not 0 <= delay <= MAX_RETRY_DELAY_MS
    ):
        report((*path, "max_delay_ms"), f"must be an integer 0–{MAX_RETRY_DELAY_MS}")
        delay = 0
    return ProviderRetryPolicy(on=tuple(on), max_attempts=attempts, max_delay_ms=delay)


def build_trusted_config(
    doc: ParsedYaml, data: Mapping[str, Any], source: str
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
        elif key not in _TOP_KEYS:
            report((key,), _unknown(_TOP_KEYS), at_key=True)
    expansion: list[tuple[Any, str]] = []
    expanded = _expand(
        {k: v for k, v in data.items() if k not in UPSTREAM_KEYS}, (), expansion
    )
    unset: dict[Any, list[str]] = {}
    for path, message in expansion:
        if len(path) >= 3 and path[0] == "providers":
            # used only if the entry is: an upstream file names every provider
            unset.setdefault(path[1], []).append(message.split()[2])
        else:
            report(path, message)
    problems += surrogate_problems(doc, expanded)  # a variable's undecodable bytes
    providers: dict[str, ProviderConfig] = {}
    raw_providers = expanded.get("providers", {})
    if not isinstance(raw_providers, dict):
        report(("providers",), "must be a mapping of provider entries")
        raw_providers = {}
    for name, raw in raw_providers.items():
        entry = _provider(name, raw, ("providers", name), report, notices)
        if entry is not None:
            missing = tuple(sorted(set(unset.get(name, ()))))
            providers[name] = attrs.evolve(entry, unset_variables=missing)
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
    telemetry = None
    if "telemetry" in expanded:
        telemetry = parse_telemetry_section(expanded["telemetry"], report)
    mcp_servers: dict[str, McpServerConfig] = {}
    if "mcp_servers" in expanded:
        folder = None
        if not source.startswith("<"):
            folder = os.path.dirname(os.path.abspath(source))
        mcp_servers = mcp_servers_from(
            expanded["mcp_servers"],
            lambda path, message: report(path, message),
            folder=folder,
        )
    if problems:
        raise invalid_configuration(source, problems)
    return TrustedConfig(
        providers=providers,
        sandbox=sandbox,
        telemetry=telemetry,
        mcp_servers=mcp_servers,
        notices=tuple(notices),
        source=source,
        unexpanded={k: v for k, v in data.items() if k in ("providers", "sandbox")},
    )


def parse_trusted_config(text: str, *, source: str = "<string>") -> TrustedConfig:
    """Parse a trusted configuration.

    Raises:
        ConfigError: The configuration is invalid; every problem is listed with its
            line, column and key path (exit 1).
    """
    try:
        doc = parse_yaml_plain(text, source=source)
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
