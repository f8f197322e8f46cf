"""Redaction of stored prompts and responses (the TypeScript patterns and order).

Patterns run one after another over the progressively redacted text, so their
order matters (``phone`` runs before ``credit_card``). Redaction touches only what
the manifest stores; evaluators always see the raw response.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import attrs

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = [
    "BUILTIN_PATTERNS",
    "DEFAULT_PATTERNS",
    "Redaction",
    "RedactionSettings",
    "Redactor",
    "effective_redaction",
]

BUILTIN_PATTERNS: dict[str, re.Pattern[str]] = {
    "email": re.compile(r"\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Z|a-z]{2,}\b", re.A),
    "phone": re.compile(
        r"\b(?:\+?1[-.\s]?)?(?:\(?\d{3}\)?[-.\s]?)?\d{3}[-.\s]?\d{4}\b", re.A
    ),
    "credit_card": re.compile(r"\b(?:\d{4}[-\s]?){3}\d{4}\b", re.A),
    "ssn": re.compile(r"\b\d{3}[-\s]?\d{2}[-\s]?\d{4}\b", re.A),
    "api_key": re.compile(
        r"\b(?:sk|pk|api|key)[-_]?(?:[a-zA-Z0-9]+[-_]?){2,}[a-zA-Z0-9]{10,}\b",
        re.A | re.I,
    ),
    "ipv4": re.compile(r"\b(?:\d{1,3}\.){3}\d{1,3}\b", re.A),
    "jwt": re.compile(
        r"\beyJ[A-Za-z0-9\-_]+\.eyJ[A-Za-z0-9\-_]+\.[A-Za-z0-9\-_.+/=]*\b", re.A
    ),
    "aws_key": re.compile(r"\b(?:AKIA|ABIA|ACCA|ASIA)[A-Z0-9]{16}\b", re.A),
    "secrets": re.compile(
        r"""\b(?:password|secret|token|apikey|api_key|auth)\s*[=:]\s*['"]?[^\s'"]+['"]?""",
        re.A | re.I,
    ),
}
DEFAULT_PATTERNS = (
    "email",
    "phone",
    "credit_card",
    "ssn",
    "api_key",
    "aws_key",
    "secrets",
)


@attrs.frozen(kw_only=True)
class RedactionSettings:
    """A ``redaction:`` block (scenario, case or CLI); ``None`` fields are unset.

    Attributes:
        enabled: Whether redaction is on (default off).
        patterns: Built-in names or custom regular expressions.
        redact_prompts: Redact stored prompts (default on).
        redact_responses: Redact stored responses (default on).
        replacement: The replacement text (default ``[REDACTED]``).
    """

    enabled: bool = False
    patterns: tuple[str, ...] | None = None
    redact_prompts: bool | None = None
    redact_responses: bool | None = None
    replacement: str | None = None


@attrs.frozen(kw_only=True)
class Redaction:
    """What redacting one text did.

    Attributes:
        text: The redacted text.
        count: How many matches were replaced.
    """

    text: str
    count: int


def _compile(pattern: str) -> tuple[str, re.Pattern[str]] | None:
    if pattern in BUILTIN_PATTERNS:
        return pattern, BUILTIN_PATTERNS[pattern]
    try:
        return f"custom:{pattern[:20]}", re.compile(pattern)
    except re.error:
        return None


@attrs.frozen(kw_only=True)
class Redactor:
    """Applies the resolved patterns in order.

    Attributes:
        names: The pattern names as the manifest lists them.
        patterns: The compiled patterns, in application order.
        replacement: The replacement text.
        redact_prompts: Whether prompts are redacted.
        redact_responses: Whether responses are redacted.
    """

    names: tuple[str, ...]
    patterns: tuple[re.Pattern[str], ...]
    replacement: str = "[REDACTED]"
    redact_prompts: bool = True
    redact_responses: bool = True

    @classmethod
    def from_settings(cls, settings: RedactionSettings) -> Redactor:
        """Resolve ``settings`` (invalid custom patterns are skipped)."""
        compiled = [
            found
            for pattern in (settings.patterns or DEFAULT_PATTERNS)
            if (found := _compile(pattern)) is not None
        ]
        return cls(
            names=tuple(name for name, _ in compiled),
            patterns=tuple(pattern for _, pattern in compiled),
            replacement="[REDACTED]"
            if settings.replacement is None
            else settings.replacement,
            redact_prompts=settings.redact_prompts is not False,
            redact_responses=settings.redact_responses is not False,
        )

    def redact(self, text: str) -> Redaction:
        """Redact ``text`` pattern by pattern; count every replaced match."""
        count = 0
        for pattern in self.patterns:
            text, replaced = pattern.subn(lambda _m: self.replacement, text)
            count += replaced
        return Redaction(text=text, count=count)


def _merge(
    first: RedactionSettings, *rest: RedactionSettings | None
) -> RedactionSettings:
    merged = first
    for fallback in rest:
        if fallback is None:
            continue
        merged = attrs.evolve(
            merged,
            patterns=merged.patterns if merged.patterns else fallback.patterns,
            redact_prompts=merged.redact_prompts
            if merged.redact_prompts is not None
            else fallback.redact_prompts,
            redact_responses=merged.redact_responses
            if merged.redact_responses is not None
            else fallback.redact_responses,
            replacement=merged.replacement
            if merged.replacement is not None
            else fallback.replacement,
        )
    return merged


def effective_redaction(
    cli: RedactionSettings | None,
    case: RedactionSettings | None,
    scenario: RedactionSettings | None,
) -> RedactionSettings | None:
    """The redaction of one case: CLI, else the case's block, else the scenario's.

    A case block without ``enabled: true`` turns redaction off for that case even
    when the scenario enables it (the TypeScript rule).

    Returns:
        The merged settings, or ``None`` when redaction is off for the case.
    """
    chosen: Sequence[RedactionSettings | None]
    if cli is not None and cli.enabled:
        chosen = (cli, case, scenario)
    elif case is not None:
        chosen = (case, scenario)
    elif scenario is not None and scenario.enabled:
        chosen = (scenario,)
    else:
        return None
    first = chosen[0]
    assert first is not None
    if not first.enabled:
        return None
    return _merge(first, *chosen[1:])
