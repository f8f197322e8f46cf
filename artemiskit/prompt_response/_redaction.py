r"""Redaction of stored prompts and responses (the TypeScript patterns and order).

Patterns run one after another over the progressively redacted text, so their
order matters (``phone`` runs before ``credit_card``). Redaction touches only what
the manifest stores; evaluators always see the raw response. Every pattern, built-in
or custom, runs in linear time (RE2: ``\d``, ``\w`` and ``\b`` are ASCII as in
JavaScript); a custom pattern RE2 cannot take is refused, not skipped.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from artemiskit._common._matching import (
    LinearPattern,
    PatternSyntaxError,
    compile_linear,
)
from artemiskit._errors import ConfigError
from artemiskit.prompt_response.evaluators._regex import compile_js_regex

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = [
    "BUILTIN_PATTERNS",
    "DEFAULT_PATTERNS",
    "Redaction",
    "RedactionSettings",
    "Redactor",
    "effective_redaction",
    "redaction_pattern_problem",
    "withhold_secrets",
]

BUILTIN_PATTERNS: dict[str, LinearPattern] = {
    "email": compile_linear(r"\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Z|a-z]{2,}\b"),
    "phone": compile_linear(
        r"\b(?:\+?1[-.\s]?)?(?:\(?\d{3}\)?[-.\s]?)?\d{3}[-.\s]?\d{4}\b"
    ),
    "credit_card": compile_linear(r"\b(?:\d{4}[-\s]?){3}\d{4}\b"),
    "ssn": compile_linear(r"\b\d{3}[-\s]?\d{2}[-\s]?\d{4}\b"),
    "api_key": compile_linear(
        r"\b(?:sk|pk|api|key)[-_]?(?:[a-zA-Z0-9]+[-_]?){2,}[a-zA-Z0-9]{10,}\b",
        ignore_case=True,
    ),
    "ipv4": compile_linear(r"\b(?:\d{1,3}\.){3}\d{1,3}\b"),
    "jwt": compile_linear(
        r"\beyJ[A-Za-z0-9\-_]+\.eyJ[A-Za-z0-9\-_]+\.[A-Za-z0-9\-_.+/=]*\b"
    ),
    "aws_key": compile_linear(r"\b(?:AKIA|ABIA|ACCA|ASIA)[A-Z0-9]{16}\b"),
    "secrets": compile_linear(
        r"""\b(?:password|secret|token|apikey|api_key|auth)\s*[=:]\s*['"]?[^\s'"]+['"]?""",
        ignore_case=True,
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

    def problems(self) -> list[str]:
        """Why patterns of these settings cannot run (never raises).

        Returns:
            One line per unusable pattern (its first 40 characters, quoted, and
            why), in order; empty when every pattern is a built-in name or a
            usable regular expression.
        """
        found = []
        for pattern in self.patterns or ():
            problem = redaction_pattern_problem(pattern)
            if problem is not None:
                found.append(f"{pattern[:40]!r} {problem}")
        return found


@attrs.frozen(kw_only=True)
class Redaction:
    """What redacting one text did.

    Attributes:
        text: The redacted text.
        count: How many matches were replaced.
    """

    text: str
    count: int


def _compile(pattern: str) -> tuple[str, LinearPattern]:
    if pattern in BUILTIN_PATTERNS:
        return pattern, BUILTIN_PATTERNS[pattern]
    problem = redaction_pattern_problem(pattern)
    if problem is not None:
        raise ConfigError(f"redaction pattern {pattern[:20]!r} {problem}")
    return f"custom:{pattern[:20]}", compile_js_regex(pattern)


def redaction_pattern_problem(pattern: str) -> str | None:
    """Why a redaction pattern (a built-in name or a regex) cannot run, or ``None``."""
    if pattern in BUILTIN_PATTERNS:
        return None
    try:
        compile_js_regex(pattern)
    except PatternSyntaxError as exc:
        return (
            f"is neither a built-in pattern name nor a usable regular expression: {exc}"
        )
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
    patterns: tuple[LinearPattern, ...]
    replacement: str = "[REDACTED]"
    redact_prompts: bool = True
    redact_responses: bool = True

    @classmethod
    def from_settings(cls, settings: RedactionSettings) -> Redactor:
        """Resolve ``settings``.

        Raises:
            ConfigError: A custom pattern cannot run (scenario validation refuses
                it first: see `redaction_pattern_problem`); nothing is skipped.
        """
        compiled = [
            _compile(pattern) for pattern in settings.patterns or DEFAULT_PATTERNS
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
            spans = list(pattern.spans(text))
            if not spans:
                continue
            count += len(spans)
            pieces, cursor = [], 0
            for start, end in spans:
                pieces += [text[cursor:start], self.replacement]
                cursor = end
            pieces.append(text[cursor:])
            text = "".join(pieces)
        return Redaction(text=text, count=count)


def withhold_secrets(text: str, secrets: Sequence[str]) -> str:
    """``text`` with every known secret value replaced by ``[REDACTED]``.

    Args:
        text: Any text about to be stored, exported or printed.
        secrets: The credential values (longest first: see `known_secrets`).
    """
    for secret in secrets:
        if secret in text:
            text = text.replace(secret, "[REDACTED]")
    return text


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
