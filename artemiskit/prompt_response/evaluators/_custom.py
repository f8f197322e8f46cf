"""``custom``: an evaluator a package registers in the ``artemiskit.evaluators`` group.

The entry point's name is what ``evaluator:`` names; its object is a callable
``(response, config) -> Evaluation`` (or an awaitable of one), trusted host code
like a provider plugin. A name no installed package registers is a validation
error, not a failing case.
"""

from __future__ import annotations

import inspect
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any

from artemiskit._errors import ConfigError
from artemiskit.prompt_response.evaluators._base import Evaluation, Field

if TYPE_CHECKING:
    from collections.abc import Mapping

    from artemiskit.prompt_response.evaluators._base import EvaluationContext

__all__ = ["ENTRY_POINT_GROUP", "FIELDS", "evaluate", "registered_evaluators"]

ENTRY_POINT_GROUP = "artemiskit.evaluators"
FIELDS = (
    Field(name="evaluator", kind="str", required=True),
    Field(name="config", kind="object"),
)


def registered_evaluators() -> tuple[str, ...]:
    """The names installed packages register in ``artemiskit.evaluators``, sorted."""
    return tuple(
        sorted({point.name for point in entry_points(group=ENTRY_POINT_GROUP)})
    )


def _load(name: str) -> Any:
    for point in entry_points(group=ENTRY_POINT_GROUP, name=name):
        try:
            return point.load()
        except Exception as exc:
            raise ConfigError(
                f"evaluator {name!r} ({point.value}) could not be loaded: "
                f"{type(exc).__name__}",
                reason="invalid_evaluator_plugin",
            ) from exc
    raise ConfigError(
        f"evaluator {name!r} is not registered", reason="unknown_evaluator"
    )


async def evaluate(
    response: str, expected: Mapping[str, Any], context: EvaluationContext
) -> Evaluation:
    """Call the registered evaluator with the response and the ``config`` mapping.

    Raises:
        ConfigError: The evaluator cannot be loaded, or returned something other
            than an `Evaluation` (``invalid_evaluator_plugin``).
    """
    name = expected["evaluator"]
    function = _load(name)
    result = function(response, dict(expected.get("config") or {}))
    if inspect.isawaitable(result):
        result = await result
    if not isinstance(result, Evaluation):
        raise ConfigError(
            f"evaluator {name!r} returned no Evaluation",
            reason="invalid_evaluator_plugin",
        )
    return result
