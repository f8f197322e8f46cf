"""Targets for cases and the judge, built through the shared provider layer.

A scenario's ``provider`` names an entry of the trusted configuration; without one,
a built-in default entry of that name is used (``openai`` reads ``OPENAI_API_KEY``,
``anthropic`` ``ANTHROPIC_API_KEY``; the TypeScript OpenAI-compatible providers go
through type ``openai``). One target is built per model and closed after the run.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio

from artemiskit._errors import ConfigError, TargetError
from artemiskit.providers import ProviderRequest, create_provider_target
from artemiskit.providers._config import ProviderConfig
from artemiskit.targets import Message, TargetRequest

if TYPE_CHECKING:
    from artemiskit.providers import ProviderTarget
    from artemiskit.providers._config import TrustedConfig
    from artemiskit.providers._judge_config import JudgeConfig
    from artemiskit.targets import TargetResponse

__all__ = ["JudgeGrader", "TargetPool", "known_secrets", "provider_entry"]

_KEY_ENV = {
    "openai": "OPENAI_API_KEY",
    "vercel-ai": "OPENAI_API_KEY",
    "anthropic": "ANTHROPIC_API_KEY",
    "azure-openai": "AZURE_OPENAI_API_KEY",
}
_OPENAI_COMPATIBLE = frozenset(
    {"vercel-ai", "google", "mistral", "cohere", "huggingface", "ollama", "custom"}
)


def provider_entry(name: str, config: TrustedConfig) -> tuple[ProviderConfig, str]:
    """The entry ``name`` names, and where it came from (``config``/``default``)."""
    if name in config.providers:
        return config.providers[name], "config"
    kind = "openai" if name in _OPENAI_COMPATIBLE else name
    return ProviderConfig(
        name=name, type=kind, api_key_env=_KEY_ENV.get(name)
    ), "default"


_MIN_SECRET_CHARS = 6


def known_secrets(
    config: TrustedConfig, judge: JudgeConfig | None = None
) -> tuple[str, ...]:
    """Every credential value a run could send: kept out of all stored text.

    The configured ``api_key`` values, the values of the ``api_key_env``
    variables of every entry (the judge's too) and of the built-in entries'
    variables (``OPENAI_API_KEY`` ...). Values shorter than 6 characters are left
    out: they are not credentials, and removing them would mangle the text.

    Returns:
        The values, longest first (so that a key containing another is removed
        whole).
    """
    entries = list(config.providers.values())
    if judge is not None:
        entries += judge.providers.providers.values()
    found = {entry.api_key for entry in entries}
    names = {entry.api_key_env for entry in entries} | set(_KEY_ENV.values())
    found |= {os.environ.get(name) for name in names if name}
    values = {value for value in found if value and len(value) >= _MIN_SECRET_CHARS}
    return tuple(sorted(values, key=len, reverse=True))


async def _close(built: ProviderTarget) -> None:
    close = getattr(built.target, "aclose", None)
    if close is not None:
        with anyio.CancelScope(shield=True):
            await close()


class TargetPool:
    """The case targets of one run, one per model, built on first use."""

    def __init__(
        self,
        entry: ProviderConfig,
        *,
        temperature: float | None,
        seed: float | None,
        base_dir: Path,
    ) -> None:
        """Remember how to build targets; nothing is built yet."""
        self._entry = entry
        self._temperature = temperature
        self._seed = (
            int(seed) if seed is not None and float(seed).is_integer() else None
        )
        self._base_dir = base_dir
        self._built: dict[str, ProviderTarget] = {}
        self._lock = anyio.Lock()

    async def target(self, model: str) -> ProviderTarget:
        """The target for ``model``.

        Raises:
            ConfigError: The entry lacks a credential or is otherwise unusable.
            UnsupportedError: No provider type of the entry's name is registered.
        """
        async with self._lock:
            if model not in self._built:
                self._built[model] = await create_provider_target(
                    ProviderRequest(
                        entry=self._entry,
                        model=model,
                        temperature=self._temperature,
                        seed=self._seed,
                        base_dir=str(self._base_dir),
                    )
                )
            return self._built[model]

    async def aclose(self) -> None:
        """Close every built target."""
        for built in self._built.values():
            await _close(built)
        self._built.clear()


class JudgeGrader:
    """The judge of ``llm_grader`` and LLM-mode ``similarity``, with its own limits.

    Each grading is one request to the judge's entry and model (an expectation's
    ``model`` overrides it), bounded by ``timeout_ms``; after ``max_requests``
    requests the judge refuses further gradings.
    """

    def __init__(
        self, judge: JudgeConfig, config: TrustedConfig, base_dir: Path
    ) -> None:
        """Resolve the judge's entry from its own providers, else the main config."""
        providers = {**config.providers, **judge.providers.providers}
        entry = providers.get(judge.provider)
        if entry is None:
            if judge.provider != "scripted":
                raise ConfigError(
                    f"the judge's provider {judge.provider!r} is no entry of the judge "
                    "configuration or the configuration",
                    reason="unknown_provider",
                )
            entry = ProviderConfig(name="scripted", type="scripted")
        self._judge = judge
        self._entry = entry
        self._base_dir = Path(judge.source).parent if judge.source else base_dir
        self._pool: dict[str, ProviderTarget] = {}
        self._lock = anyio.Lock()
        self.requests = 0

    async def __call__(self, prompt: str, model: str | None, max_tokens: int) -> str:
        """Ask the judge; return its text.

        Raises:
            TargetError: The judge failed, timed out or its budget is spent.
        """
        async with self._lock:
            if self.requests >= self._judge.max_requests:
                limit = self._judge.max_requests
                raise TargetError(f"the judge's budget of {limit} requests is spent")
            self.requests += 1
            name = model or self._judge.model
            if name not in self._pool:
                self._pool[name] = await create_provider_target(
                    ProviderRequest(
                        entry=self._entry, model=name, base_dir=str(self._base_dir)
                    )
                )
            built = self._pool[name]
        allowance = max_tokens
        if self._judge.max_tokens is not None:
            allowance = min(allowance, self._judge.max_tokens)
        request = TargetRequest(
            messages=(Message(role="user", content=prompt),),
            tools=(),
            max_output_tokens=allowance,
        )
        response: TargetResponse | Any = None
        with anyio.move_on_after(self._judge.timeout_ms / 1000) as scope:
            response = await built.target.respond(request)
        if scope.cancelled_caught:
            raise TargetError(f"the judge timed out after {self._judge.timeout_ms}ms")
        return response.text or ""

    async def aclose(self) -> None:
        """Close the judge's targets."""
        for built in self._pool.values():
            await _close(built)
        self._pool.clear()
