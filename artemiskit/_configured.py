"""Targets and judges from trusted configuration, for the SDK front door.

The workflow names the provider and model; the trusted configuration supplies the
credentials and transport settings. Each function here turns the two into what a
session needs: an `AgentTarget` with its transport digest and label, judge
settings, and the configuration identity a checkpoint binds to.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import attrs

from artemiskit._common._digests import json_digest
from artemiskit._errors import (
    ConfigError,
)
from artemiskit.engine._judge import JudgeSettings
from artemiskit.providers import (
    ProviderRequest,
    ScriptCase,
    SharedTransports,
    create_provider_target,
)
from artemiskit.providers._config import ProviderConfig, TrustedConfig
from artemiskit.providers._judge_config import load_judge_config
from artemiskit.targets._protocol import create_model_client_target

if TYPE_CHECKING:
    from collections.abc import Mapping

    from artemiskit.targets._protocol import (
        AgentTarget,
        ModelClient,
    )
    from artemiskit.workflow._model import Workflow


__all__ = [
    "client_target",
    "configured_target",
    "derived_configuration_id",
    "settings_for_judge",
]


def client_target(client: ModelClient, workflow: Workflow) -> AgentTarget:
    parameters = workflow.target.parameters
    return create_model_client_target(
        client,
        model=workflow.target.model,
        temperature=parameters.temperature,
        top_p=parameters.top_p,
        seed=parameters.seed,
    )


async def configured_target(
    workflow: Workflow,
    config: TrustedConfig,
    overrides: Mapping[str, object] | None,
    fixture_root: str | os.PathLike[str] | None,
    *,
    shared: SharedTransports | None = None,
    repetition: int = 1,
    case: ScriptCase | None = None,
) -> tuple[AgentTarget, str | None, str | None]:
    parameters = workflow.target.parameters
    return await _provider_target(
        workflow.target.provider,
        workflow.target.model,
        config,
        overrides,
        fixture_root,
        temperature=parameters.temperature,
        top_p=parameters.top_p,
        seed=parameters.seed,
        shared=shared,
        repetition=repetition,
        case=case,
    )


async def _provider_target(
    name: str,
    model: str,
    config: TrustedConfig,
    overrides: Mapping[str, object] | None,
    fixture_root: str | os.PathLike[str] | None,
    *,
    temperature: float | None = None,
    top_p: float | None = None,
    seed: int | None = None,
    shared: SharedTransports | None = None,
    repetition: int = 1,
    case: ScriptCase | None = None,
) -> tuple[AgentTarget, str | None, str | None]:
    """Build the target of provider entry ``name`` with its type's builder.

    Returns:
        The target, the digest of its transport (or script), and how failure
        messages name it (the entry and the host of its endpoint).
    """
    entry = config.providers.get(name)
    if entry is None:
        if name != "scripted":
            raise _unknown_provider(f"the workflow's provider {name!r}", config)
        entry = ProviderConfig(name="scripted", type="scripted")
    if overrides:
        entry = attrs.evolve(entry, **dict(overrides))  # type: ignore[arg-type]
    built = await create_provider_target(
        ProviderRequest(
            entry=entry,
            model=model,
            temperature=temperature,
            top_p=top_p,
            seed=seed,
            base_dir=None if fixture_root is None else os.fspath(fixture_root),
            shared=shared,
            repetition=repetition,
            case=case,
        )
    )
    return built.target, built.transport_digest, built.label


def _unknown_provider(
    what: str, config: TrustedConfig, *, judge_source: str | None = None
) -> ConfigError:
    """Say which entries exist, and suggest a configuration only when none was given."""
    names = ", ".join(repr(n) for n in sorted(config.providers)) or "none"
    where = "the trusted configuration"
    if config.source is not None:
        where += f" {config.source}"
    if judge_source is not None:
        where = f"the judge configuration {judge_source} or {where}"
    if config.source is None and not config.providers and judge_source is None:
        return ConfigError(
            f"{what} has no entry: no trusted configuration was given (give --config "
            "/ ArtemisKit(config=...)); without one only `scripted` works",
            reason="unknown_provider",
        )
    return ConfigError(
        f"{what} has no entry in {where} (its entries: {names}; `scripted` is "
        "built in)",
        reason="unknown_provider",
    )


async def settings_for_judge(
    judge: JudgeSettings | str | os.PathLike[str], config: TrustedConfig
) -> JudgeSettings:
    if isinstance(judge, JudgeSettings):
        return judge
    judge_config = await load_judge_config(judge)
    providers = TrustedConfig(
        providers={**config.providers, **judge_config.providers.providers},
        sandbox=config.sandbox,
    )
    if judge_config.provider not in providers.providers and (
        judge_config.provider != "scripted"
    ):
        raise _unknown_provider(
            f"the judge's provider {judge_config.provider!r}",
            attrs.evolve(providers, source=config.source),
            judge_source=judge_config.source,
        )
    target, digest, _ = await _provider_target(
        judge_config.provider,
        judge_config.model,
        providers,
        None,
        Path(os.fspath(judge)).parent,
    )
    return JudgeSettings(
        target=target,
        provider=judge_config.provider,
        model=judge_config.model,
        max_requests=judge_config.max_requests,
        max_tokens=judge_config.max_tokens,
        timeout_ms=judge_config.timeout_ms,
        transport_digest=digest,
    )


def derived_configuration_id(transport: str | None, judge: JudgeSettings | None) -> str:
    """A configuration identity derived from the transport and judge digests."""
    judge_part = None
    if judge is not None:
        judge_part = {
            "transport": judge.transport_digest,
            "model": judge.model,
            "limits": [judge.max_requests, judge.max_tokens, judge.timeout_ms],
        }
    return "derived:" + json_digest({"transport": transport, "judge": judge_part})
