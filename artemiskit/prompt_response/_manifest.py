"""The run manifest, field for field as the TypeScript ArtemisKit wrote it.

Every class here is frozen attrs data. `manifest_to_dict` gives the JSON object in
the original key order (manifest keys snake_case, case keys camelCase), leaving out
absent fields instead of writing ``null``; `manifest_from_dict` reads one back
(unknown keys are ignored, as the original reader did).
"""

from __future__ import annotations

import json
import re
import types
import typing
from typing import Any

import attrs

__all__ = [
    "CIInfo",
    "CaseRedaction",
    "CaseResult",
    "CostInfo",
    "EnvironmentInfo",
    "GitInfo",
    "Metrics",
    "PricingInfo",
    "Provenance",
    "RedactionInfo",
    "RedactionSummary",
    "ResolvedConfig",
    "RunConfig",
    "RunManifest",
    "Tokens",
    "manifest_from_dict",
    "manifest_to_dict",
    "manifest_to_json",
]

MANIFEST_VERSION = "1.0"


def _key(name: str) -> Any:
    return {"key": name}


@attrs.frozen(kw_only=True)
class RunConfig:
    """``config``: what ran."""

    scenario: str
    provider: str
    model: str | None = None
    temperature: float | None = None
    seed: float | None = None


@attrs.frozen(kw_only=True)
class ResolvedConfig:
    """``resolved_config``: the provider settings in effect and where each came from."""

    provider: str
    model: str | None = None
    base_url: str | None = None
    timeout: float | None = None
    max_retries: int | None = None
    source: dict[str, str] = attrs.field(factory=dict)


@attrs.frozen(kw_only=True)
class PricingInfo:
    """The prices a cost estimate used, USD per 1,000 tokens."""

    prompt_per_1k: float
    completion_per_1k: float


@attrs.frozen(kw_only=True)
class CostInfo:
    """``metrics.cost``: the estimated cost of the run."""

    total_usd: float
    prompt_cost_usd: float
    completion_cost_usd: float
    model: str
    pricing: PricingInfo


@attrs.frozen(kw_only=True)
class Metrics:
    """``metrics``: counts, latencies, tokens and cost."""

    success_rate: float
    total_cases: int
    passed_cases: int
    failed_cases: int
    median_latency_ms: float
    p95_latency_ms: float
    total_prompt_tokens: int
    total_completion_tokens: int
    total_tokens: int
    cost: CostInfo | None = None


@attrs.frozen(kw_only=True)
class GitInfo:
    """``git``: the repository state the run started from."""

    commit: str
    branch: str
    dirty: bool
    remote: str | None = None


@attrs.frozen(kw_only=True)
class CIInfo:
    """``provenance.ci``: the CI job."""

    provider: str
    build_id: str
    build_url: str | None = None


@attrs.frozen(kw_only=True)
class Provenance:
    """``provenance``: who ran it, and in which CI job."""

    run_by: str
    run_reason: str | None = None
    ci: CIInfo | None = None


@attrs.frozen(kw_only=True)
class Tokens:
    """A case's token usage."""

    prompt: int = 0
    completion: int = 0
    total: int = 0


@attrs.frozen(kw_only=True)
class CaseRedaction:
    """What redaction did to one case."""

    redacted: bool
    prompt_redacted: bool = attrs.field(metadata=_key("promptRedacted"))
    response_redacted: bool = attrs.field(metadata=_key("responseRedacted"))
    redaction_count: int = attrs.field(metadata=_key("redactionCount"))


@attrs.frozen(kw_only=True, repr=False)
class CaseResult:
    """One case's result (``cases[]``); holds the prompt and response as stored."""

    id: str
    name: str | None = None
    ok: bool
    score: float
    matcher_type: str = attrs.field(metadata=_key("matcherType"))
    reason: str | None = None
    latency_ms: float = attrs.field(metadata=_key("latencyMs"))
    tokens: Tokens
    prompt: Any
    response: str
    expected: dict[str, Any]
    tags: tuple[str, ...] = ()
    error: str | None = None
    redaction: CaseRedaction | None = None

    def __repr__(self) -> str:
        return f"CaseResult(id={self.id!r}, ok={self.ok}, score={self.score!r})"


@attrs.frozen(kw_only=True)
class EnvironmentInfo:
    """``environment``: the interpreter and machine (Python, not Node)."""

    python_version: str
    platform: str
    arch: str


@attrs.frozen(kw_only=True)
class RedactionSummary:
    """Counts of redacted prompts, responses and matches."""

    prompts_redacted: int = attrs.field(metadata=_key("promptsRedacted"))
    responses_redacted: int = attrs.field(metadata=_key("responsesRedacted"))
    total_redactions: int = attrs.field(metadata=_key("totalRedactions"))


@attrs.frozen(kw_only=True)
class RedactionInfo:
    """``redaction``: the run's redaction settings and what they did."""

    enabled: bool
    patterns_used: tuple[str, ...] = attrs.field(metadata=_key("patternsUsed"))
    replacement: str
    summary: RedactionSummary


@attrs.frozen(kw_only=True, repr=False)
class RunManifest:
    """A prompt-response run manifest (``artemis-runs/<project>/<run_id>.json``).

    A manifest stores prompts and responses (the historical contract): treat the
    file as sensitive. Its ``repr`` shows identities and counts only.
    """

    version: str = MANIFEST_VERSION
    run_id: str
    project: str
    start_time: str
    end_time: str
    duration_ms: float
    config: RunConfig
    resolved_config: ResolvedConfig | None = None
    metrics: Metrics
    git: GitInfo
    provenance: Provenance
    cases: tuple[CaseResult, ...]
    environment: EnvironmentInfo
    redaction: RedactionInfo | None = None
    type: str | None = None

    def __repr__(self) -> str:
        return (
            f"RunManifest(run_id={self.run_id!r}, scenario={self.config.scenario!r}, "
            f"passed={self.metrics.passed_cases}/{self.metrics.total_cases})"
        )

    @property
    def success(self) -> bool:
        """Whether every case passed (and there was at least one)."""
        return self.metrics.total_cases > 0 and self.metrics.failed_cases == 0


def _dump(value: Any) -> Any:
    if attrs.has(type(value)):
        out: dict[str, Any] = {}
        for field in attrs.fields(type(value)):
            item = getattr(value, field.name)
            if item is None:
                continue
            out[field.metadata.get("key", field.name)] = _dump(item)
        return out
    if isinstance(value, tuple | list):
        return [_dump(item) for item in value]
    if isinstance(value, dict):
        return {k: _dump(v) for k, v in value.items()}
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)  # JavaScript writes 1.0 as 1
    return value


def manifest_to_dict(manifest: RunManifest) -> dict[str, Any]:
    """The manifest as its JSON object (original key order, absent fields left out)."""
    data: dict[str, Any] = _dump(manifest)
    return data


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def manifest_to_json(manifest: RunManifest) -> str:
    """The manifest file's text: 2-space JSON, no trailing newline.

    A lone surrogate (a model may send one) is written as a JSON unicode escape,
    as JavaScript's ``JSON.stringify`` does, so the text always encodes as UTF-8.
    """
    text = json.dumps(manifest_to_dict(manifest), indent=2, ensure_ascii=False)
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _attrs_class(annotation: Any) -> type | None:
    if isinstance(annotation, type) and attrs.has(annotation):
        return annotation
    if (
        isinstance(annotation, types.UnionType)
        or typing.get_origin(annotation) is typing.Union
    ):
        for option in typing.get_args(annotation):
            if isinstance(option, type) and attrs.has(option):
                return option
    return None


_SCALARS: dict[Any, Any] = {
    str: str,
    bool: bool,
    int: int,
    float: (int, float),
}


def _scalar_fits(annotation: Any, value: Any) -> bool:
    options = (
        typing.get_args(annotation)
        if isinstance(annotation, types.UnionType)
        or typing.get_origin(annotation) is typing.Union
        else (annotation,)
    )
    for option in options:
        accepted = _SCALARS.get(option)
        if accepted is None:
            return True  # Any, dict[...]: not a scalar field
        if isinstance(value, bool) and option is not bool:
            continue
        if isinstance(value, accepted):
            return True
    return False


def _load(cls: type, data: Any) -> Any:
    if not isinstance(data, dict):
        raise ValueError(f"{cls.__name__} must be an object")
    hints = typing.get_type_hints(cls)
    values: dict[str, Any] = {}
    for field in attrs.fields(cls):
        key = field.metadata.get("key", field.name)
        if key not in data or data[key] is None:
            continue
        raw = data[key]
        annotation = hints[field.name]
        nested = _attrs_class(annotation)
        if nested is not None:
            values[field.name] = _load(nested, raw)
        elif typing.get_origin(annotation) is tuple:
            (item_type, _) = typing.get_args(annotation)
            nested_item = _attrs_class(item_type)
            if not isinstance(raw, list):
                raise ValueError(f"{cls.__name__}.{key} must be a list")
            if nested_item is None and not all(isinstance(i, str) for i in raw):
                raise ValueError(f"{cls.__name__}.{key} must list strings")
            values[field.name] = tuple(
                _load(nested_item, item) if nested_item else item for item in raw
            )
        elif typing.get_origin(annotation) is dict and not isinstance(raw, dict):
            raise ValueError(f"{cls.__name__}.{key} must be an object")
        elif not _scalar_fits(annotation, raw):
            raise ValueError(f"{cls.__name__}.{key} has the wrong type")
        else:
            values[field.name] = raw
    return cls(**values)


def manifest_from_dict(data: Any) -> RunManifest:
    """Read a manifest's JSON object.

    Raises:
        ValueError: ``data`` is not a manifest (a field is missing or malformed).
    """
    try:
        manifest: RunManifest = _load(RunManifest, data)
    except (TypeError, KeyError, attrs.exceptions.NotAnAttrsClassError) as exc:
        raise ValueError(f"not a run manifest: {type(exc).__name__}") from None
    return manifest
