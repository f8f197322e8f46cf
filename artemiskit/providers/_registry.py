"""Provider types by name: the registry a provider entry's ``type`` is built from.

``openai``, ``azure-openai``, ``anthropic`` and ``scripted`` are built in. A host
registers its own type from Python with `register_provider`, or installs a package
that declares one in the entry-point group ``artemiskit.providers`` (the entry
point's name is the type; its object is the `ProviderBuilder`), which
`load_provider_entry_points` registers — the CLI does so before each run.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from importlib.metadata import entry_points
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import urlsplit

import attrs

from artemiskit._common._digests import bytes_digest
from artemiskit._errors import ConfigError, UnsupportedError
from artemiskit.providers._config import ProviderConfig
from artemiskit.providers._digest import credential_digest, transport_digest
from artemiskit.providers._retries import AccountedRetries
from artemiskit.providers._scripted import (
    ScriptCase,
    ScriptedTarget,
    load_script_below,
    parse_script_document,
    script_variants,
)
from artemiskit.providers._shared import SharedTransports
from artemiskit.targets import AgentTarget, TargetRequest, TargetResponse

if TYPE_CHECKING:
    import os

    import httpx

    from artemiskit.targets import ModelRequest

__all__ = [
    "ENTRY_POINT_GROUP",
    "ProviderBuilder",
    "ProviderRequest",
    "ProviderTarget",
    "ScriptVariants",
    "create_provider_target",
    "load_provider_entry_points",
    "load_script_variants",
    "provider_types",
    "register_provider",
    "script_folder",
    "script_key",
]

ENTRY_POINT_GROUP = "artemiskit.providers"
_DIGEST = re.compile(r"sha256:[0-9a-f]{64}")


@attrs.frozen(kw_only=True)
class ProviderRequest:
    """What a provider type builds a target from.

    Attributes:
        entry: The trusted provider entry (credentials, endpoint, headers).
        model: The workflow's model name.
        temperature: The workflow's sampling temperature, if set.
        top_p: The workflow's nucleus sampling bound, if set.
        seed: The workflow's seed, if set.
        base_dir: Where files the entry names resolve (the workflow's folder or
            the fixture root), if known.
        shared: Transports shared with other sessions (a suite's runs): a
            builder that opens connections takes its pool from here, keyed by
            the entry and its transport settings, and leaves it open.
        repetition: Which repetition of a suite this run is (from 1); the
            ``scripted`` type answers with variant (repetition - 1) mod the
            number of variants.
        case: The dataset case the run is of (SPEC 19), or ``None``; the
            ``scripted`` type replays that case's responses, filled from its
            values.
    """

    entry: ProviderConfig
    model: str
    temperature: float | None = None
    top_p: float | None = None
    seed: int | None = None
    base_dir: str | None = None
    shared: SharedTransports | None = None
    repetition: int = 1
    case: ScriptCase | None = None


@attrs.frozen(kw_only=True)
class ProviderTarget:
    """A target built by a provider type, and what evidence says about it.

    Attributes:
        target: The agent the engine drives. If it has an ``aclose()`` coroutine,
            the engine awaits it once the run is over.
        transport_digest: A digest of the effective transport (or script), bound
            into the record and the derived configuration identity.
        label: How failure messages name the target, e.g. ``provider 'local'
            (127.0.0.1:8080)``; ``None`` names it by provider and model.
    """

    target: AgentTarget
    transport_digest: str | None = None
    label: str | None = None


ProviderBuilder = Callable[[ProviderRequest], Awaitable[ProviderTarget]]
"""Builds the target of one provider entry of a type."""


@attrs.frozen
class _ClosingTarget:
    """A target that owns a client to close once the run is over."""

    inner: AgentTarget
    aclose: Callable[[], Awaitable[None]]

    async def respond(self, request: TargetRequest) -> TargetResponse:
        return await self.inner.respond(request)


ScriptVariants = tuple[Any, str]
"""A scripted provider's script: the parsed, checked document and its bytes' digest.

The document is the internal ``ParsedYaml`` of `parse_script_document`;
`script_variants` gives the response lists a run replays (per case, SPEC 19).
"""


def script_folder(
    scripts_dir: str | None, base_dir: str | os.PathLike[str] | None
) -> Path:
    """Where a scripted entry's ``MODEL.script.yaml`` files live."""
    if base_dir is not None and scripts_dir is not None:
        return Path(base_dir) / scripts_dir
    return Path(scripts_dir or base_dir or ".")


def script_key(folder: Path, model: str) -> str:
    """The key a script is shared under by a suite's runs (`SharedTransports`)."""
    return f"scripted:{folder.absolute()}:{model}"


async def load_script_variants(folder: Path, model: str) -> ScriptVariants:
    """Read and parse ``MODEL.script.yaml`` below ``folder``.

    Raises:
        WorkflowError: The script is invalid.
        FileAccessError: It cannot be read.
    """
    _, raw = await load_script_below(folder, model)
    source = str(folder / f"{model}.script.yaml")
    document = parse_script_document(raw.decode("utf-8"), source=source)
    return document, bytes_digest(raw)


async def _scripted(request: ProviderRequest) -> ProviderTarget:
    base = script_folder(request.entry.scripts_dir, request.base_dir)
    model = request.model
    if request.shared is None:
        document, digest = await load_script_variants(base, model)
    else:
        # A suite shares each script, read once when it validated the suite.
        document, digest = await request.shared.get(
            script_key(base, model), lambda: load_script_variants(base, model)
        )
    variants = script_variants(document, request.case)
    script = variants[(request.repetition - 1) % len(variants)]
    return ProviderTarget(
        target=ScriptedTarget(entries=script), transport_digest=digest
    )


async def _openai(request: ProviderRequest) -> ProviderTarget:
    from artemiskit.providers._openai import DEFAULT_BASE_URL, OpenAIClient

    base_url = request.entry.base_url or DEFAULT_BASE_URL
    return await _http_target(request, OpenAIClient, base_url=base_url)


async def _azure_openai(request: ProviderRequest) -> ProviderTarget:
    from artemiskit.providers._openai import (
        DEFAULT_AZURE_API_VERSION,
        AzureOpenAIClient,
    )

    entry = request.entry
    base_url = entry.base_url
    if base_url is None and entry.resource_name is not None:
        base_url = f"https://{entry.resource_name}.openai.azure.com"
    if base_url is None or entry.deployment is None:
        raise ConfigError(
            f"provider {entry.name!r} (azure-openai) needs base_url (or "
            "resource_name) and deployment",
            reason="incomplete_provider",
        )
    return await _http_target(
        request,
        AzureOpenAIClient,
        base_url=base_url,
        url_option="endpoint",
        deployment=entry.deployment,
        api_version=entry.api_version or DEFAULT_AZURE_API_VERSION,
    )


async def _anthropic(request: ProviderRequest) -> ProviderTarget:
    from artemiskit.providers import _anthropic as anthropic

    entry = request.entry
    return await _http_target(
        request,
        anthropic.AnthropicClient,
        base_url=entry.base_url or anthropic.DEFAULT_ANTHROPIC_BASE_URL,
        anthropic_version=entry.anthropic_version
        or anthropic.DEFAULT_ANTHROPIC_VERSION,
        default_max_tokens=entry.default_max_tokens or anthropic.DEFAULT_MAX_TOKENS,
    )


class _HttpClient(Protocol):
    async def complete(self, request: ModelRequest) -> TargetResponse: ...

    async def aclose(self) -> None: ...


async def _http_target(
    request: ProviderRequest,
    client_type: Callable[..., _HttpClient],
    *,
    base_url: str,
    url_option: str = "base_url",
    **options: str | int,
) -> ProviderTarget:
    """The target of an HTTP provider entry: client, digest, label, retries.

    ``options`` are the type's own settings: passed to the client and digested.
    With `ProviderRequest.shared` (a suite), the client sends over the one
    connection pool of the entry and its transport settings.
    """
    from artemiskit.providers._http import new_http_client
    from artemiskit.targets import create_model_client_target

    entry = request.entry
    api_key = entry.resolve_api_key()
    retry = entry.retry
    transport: dict[str, object] = {
        **options,
        "request_timeout_ms": entry.request_timeout_ms,
        "headers": {
            name.lower(): credential_digest(value)
            for name, value in sorted(entry.headers.items())
        },
    }
    if retry is not None:
        # a checkpoint binds the retry policy: it decides what a request may cost
        transport["retry"] = attrs.asdict(retry)
    digest = "sha256:" + transport_digest(
        provider_type=entry.type,
        base_url=base_url,
        api_key=api_key,
        settings=transport,
    )
    http = None
    if request.shared is not None:
        timeout_ms = entry.request_timeout_ms

        async def pool() -> httpx.AsyncClient:
            return new_http_client(timeout_ms)

        http = await request.shared.get(
            f"{entry.type}:{entry.name}:{digest}", pool, close=_close_http
        )
    client = client_type(
        **{url_option: base_url},
        api_key=api_key,
        request_timeout_ms=entry.request_timeout_ms,
        extra_headers=entry.headers,
        http_client=http,
        **options,
    )
    target: AgentTarget = create_model_client_target(
        client,
        model=request.model,
        temperature=request.temperature,
        top_p=request.top_p,
        seed=request.seed,
    )
    if retry is not None:
        target = AccountedRetries(target, retry)
    return ProviderTarget(
        target=_ClosingTarget(target, client.aclose),
        transport_digest=digest,
        label=f"provider {entry.name!r} ({urlsplit(base_url).netloc})",
    )


async def _close_http(client: httpx.AsyncClient) -> None:
    await client.aclose()


_BUILDERS: dict[str, ProviderBuilder] = {
    "anthropic": _anthropic,
    "azure-openai": _azure_openai,
    "openai": _openai,
    "scripted": _scripted,
}


def register_provider(
    type: str,
    builder: ProviderBuilder,
    *,
    replace: bool = False,
) -> None:
    """Register the builder of provider ``type``.

    Args:
        type: The ``type`` of provider entries the builder serves.
        builder: Called for each session (and judge) whose entry has this type.
        replace: Replace an already registered builder (a built-in one too).

    Raises:
        ValueError: ``type`` is already registered and ``replace`` is false.
    """
    if type in _BUILDERS and not replace:
        raise ValueError(f"provider type {type!r} is already registered")
    _BUILDERS[type] = builder


def provider_types() -> tuple[str, ...]:
    """Return the registered provider types, sorted."""
    return tuple(sorted(_BUILDERS))


def load_provider_entry_points() -> tuple[str, ...]:
    """Register every provider type installed in the ``artemiskit.providers`` group.

    Loading twice is harmless: a type already registered with the same builder is
    kept.

    Returns:
        The provider types the installed entry points declare, sorted.

    Raises:
        ConfigError: An entry point cannot be loaded, is not callable, or
            declares a type that is already registered with another builder
            (``invalid_provider_plugin``).
    """
    names = []
    for point in entry_points(group=ENTRY_POINT_GROUP):
        try:
            builder = point.load()
        except Exception as exc:
            raise ConfigError(
                f"provider type {point.name!r} ({point.value}) could not be loaded: "
                f"{type(exc).__name__}",
                reason="invalid_provider_plugin",
            ) from exc
        if not callable(builder):
            raise ConfigError(
                f"provider type {point.name!r} ({point.value}) is not a callable "
                "provider builder",
                reason="invalid_provider_plugin",
            )
        if _BUILDERS.get(point.name, builder) is not builder:
            raise ConfigError(
                f"provider type {point.name!r} ({point.value}) is already registered",
                reason="invalid_provider_plugin",
            )
        _BUILDERS[point.name] = builder
        names.append(point.name)
    return tuple(sorted(names))


async def create_provider_target(request: ProviderRequest) -> ProviderTarget:
    """Build the target of ``request.entry`` with its type's registered builder.

    Args:
        request: The entry, the model and the workflow's sampling parameters.

    Returns:
        The built target with its transport digest and label.

    Raises:
        UnsupportedError: No builder is registered for the entry's type
            (``unsupported_target``).
        ConfigError: The entry lacks what its type needs (e.g. a credential),
            or the builder returned something other than a `ProviderTarget`
            with a well-formed digest (``invalid_provider_plugin``).
    """
    builder = _BUILDERS.get(request.entry.type)
    request.entry.check_variables()
    if builder is None:
        raise UnsupportedError(
            f"provider type {request.entry.type!r} is not supported (registered: "
            f"{', '.join(provider_types())})",
            reason="unsupported_target",
        )
    built = await builder(request)
    if not isinstance(built, ProviderTarget) or not (
        built.transport_digest is None or _DIGEST.fullmatch(built.transport_digest)
    ):
        raise ConfigError(
            f"provider type {request.entry.type!r} built no valid ProviderTarget "
            "(a transport_digest is None or 'sha256:' and 64 lowercase hex digits)",
            reason="invalid_provider_plugin",
        )
    return built
