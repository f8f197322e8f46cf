"""A workflow run on another provider entry and model (SPEC 19)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from artemiskit._errors import ConfigError

if TYPE_CHECKING:
    from artemiskit.targets import TargetChoice
    from artemiskit.workflow._model import Workflow

__all__ = ["with_target"]


def with_target(workflow: Workflow, choice: TargetChoice) -> Workflow:
    """``workflow`` run on the provider entry and model ``choice`` names.

    Its target parameters and the rest of its contract stay as they are (the
    contract digest does not change; SPEC 19).

    Raises:
        ConfigError: ``choice`` is an agent, not a provider entry.
    """
    if choice.kind != "provider":
        raise ConfigError(
            f"target {choice.id!r} is an agent, not a provider entry",
            reason="invalid_agent",
        )
    spec = attrs.evolve(workflow.target, provider=choice.provider, model=choice.model)
    return attrs.evolve(workflow, target=spec)
