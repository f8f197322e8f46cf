"""The judge configuration (``--judge-config``, SDK ``judge=``): explicit only.

A separate trusted file names the judge's own transport and limits::

    provider: local        # an entry of this file's `providers`, else the main config's
    model: judge-model
    max_requests: 4
    max_tokens: 8000
    timeout_ms: 30000
    providers: {...}       # optional, same shape as artemis.config.yaml
"""

from __future__ import annotations

import os
from typing import Any

from artemiskit._common._reading import read_text_file
from artemiskit._common._yaml import parse_yaml_plain, surrogate_problems
from artemiskit._errors import ConfigError, Problem, WorkflowError
from artemiskit.providers._config import (
    MAX_CONFIG_BYTES,
    TrustedConfig,
    build_trusted_config,
    invalid_configuration,
)

__all__ = [
    "DEFAULT_JUDGE_MAX_REQUESTS",
    "DEFAULT_JUDGE_MAX_TOKENS",
    "DEFAULT_JUDGE_TIMEOUT_MS",
    "JudgeConfig",
    "load_judge_config",
    "parse_judge_config",
]

#: The judge's own limits when its configuration leaves them out (the one home of
#: these defaults: `JudgeSettings` takes them too).
DEFAULT_JUDGE_MAX_REQUESTS = 4
DEFAULT_JUDGE_MAX_TOKENS = 8000
DEFAULT_JUDGE_TIMEOUT_MS = 30_000

_WHAT = "judge configuration"
_KEYS = {"provider", "model", "max_requests", "max_tokens", "timeout_ms", "providers"}


class JudgeConfig:
    """A parsed judge configuration: which provider entry and model, and limits."""

    def __init__(
        self,
        *,
        provider: str,
        model: str,
        max_requests: int,
        max_tokens: int | None,
        timeout_ms: int,
        providers: TrustedConfig,
        source: str,
    ) -> None:
        self.provider = provider
        self.model = model
        self.max_requests = max_requests
        self.max_tokens = max_tokens
        self.timeout_ms = timeout_ms
        self.providers = providers
        self.source = source


def parse_judge_config(text: str, *, source: str = "<string>") -> JudgeConfig:
    """Parse a judge configuration.

    Raises:
        ConfigError: It is invalid; every problem is listed (exit 1).
    """
    try:
        doc = parse_yaml_plain(text, source=source)
    except WorkflowError as exc:
        raise invalid_configuration(source, exc.problems, what=_WHAT) from None
    data: Any = doc.data
    problems: list[Problem] = []

    def report(key: str, message: str, *, at_key: bool = False) -> None:
        problems.append(doc.problem(message, (key,), at_key=at_key))

    if not isinstance(data, dict):
        raise invalid_configuration(
            source,
            [Problem(message="must be a mapping", source=source, line=1, column=1)],
            what=_WHAT,
        )
    # The providers block is checked, surrogates included, as a configuration.
    own = {key: value for key, value in data.items() if key != "providers"}
    problems += surrogate_problems(doc, own)
    for key in data:
        if key not in _KEYS:
            report(key, f"unknown key (known: {', '.join(sorted(_KEYS))})", at_key=True)
    for key in ("provider", "model"):
        if not isinstance(data.get(key), str) or not data.get(key):
            report(key, "is required and must be a string")
    limits: dict[str, Any] = {}
    for key, default, maximum in (
        ("max_requests", DEFAULT_JUDGE_MAX_REQUESTS, 1000),
        ("max_tokens", DEFAULT_JUDGE_MAX_TOKENS, 10_000_000),
        ("timeout_ms", DEFAULT_JUDGE_TIMEOUT_MS, 3_600_000),
    ):
        value = data.get(key, default)
        if (
            isinstance(value, bool)
            or not isinstance(value, int)
            or not 1 <= value <= maximum
        ):
            report(key, f"must be an integer 1–{maximum}")
        limits[key] = value
    providers = TrustedConfig()
    if "providers" in data:  # positions stay those of this file
        try:
            providers = build_trusted_config(
                doc, {"providers": data["providers"]}, source
            )
        except ConfigError as exc:
            problems.extend(exc.problems)
    if problems:
        raise invalid_configuration(source, problems, what=_WHAT)
    return JudgeConfig(
        provider=data["provider"],
        model=data["model"],
        providers=providers,
        source=source,
        **limits,
    )


async def load_judge_config(path: str | os.PathLike[str]) -> JudgeConfig:
    """Read and parse a judge configuration file.

    Raises:
        FileAccessError: The file cannot be read (exit 1).
        ConfigError: It is invalid (exit 1).
    """
    text = await read_text_file(
        path,
        what="judge configuration",
        limit=MAX_CONFIG_BYTES,
        invalid=lambda problem: invalid_configuration(
            os.fspath(path), [problem], what=_WHAT
        ),
    )
    return parse_judge_config(text, source=os.fspath(path))
