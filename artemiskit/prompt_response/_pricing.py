"""Cost estimates from the pricing table (``pricing.json``, USD per 1,000 tokens).

The lookup follows the TypeScript ``getModelPricing``: the exact model id, then the
id without regard to case, then ordered substring rules, then the default price.
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

import attrs

from artemiskit.prompt_response._js import to_fixed

__all__ = ["Pricing", "estimate_cost", "format_cost", "model_pricing"]


@attrs.frozen(kw_only=True)
class Pricing:
    """A model's price per 1,000 prompt and completion tokens, in USD."""

    prompt_per_1k: float
    completion_per_1k: float


@functools.cache
def _table() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("pricing.json").read_text("utf-8")
    table: dict[str, Any] = json.loads(text)
    return table


def _price(row: dict[str, float]) -> Pricing:
    return Pricing(
        prompt_per_1k=row["promptPer1K"], completion_per_1k=row["completionPer1K"]
    )


def model_pricing(model: str) -> Pricing:
    """The price of ``model`` (the default price for unknown models)."""
    table = _table()
    models: dict[str, dict[str, float]] = table["models"]
    if model in models:
        return _price(models[model])
    lowered = model.lower()
    for name, row in models.items():
        if name.lower() == lowered:
            return _price(row)
    for needle, name in table["substringRules"]:
        if needle in lowered:
            return _price(models[name])
    return _price(table["default"])


def estimate_cost(
    model: str, prompt_tokens: int, completion_tokens: int
) -> tuple[float, float, Pricing]:
    """Return ``(prompt_usd, completion_usd, pricing)`` for the token counts."""
    pricing = model_pricing(model)
    return (
        prompt_tokens / 1000 * pricing.prompt_per_1k,
        completion_tokens / 1000 * pricing.completion_per_1k,
        pricing,
    )


def format_cost(usd: float) -> str:
    """A cost in dollars: ``$0.001200`` under a cent, ``$0.4200``, ``$12.50``.

    The TypeScript ``formatCost`` printed ``$0.1200 cents`` under a cent (a dollar
    sign on a number of cents); the same digits are shown here as dollars.
    """
    if usd < 0.01:
        return f"${to_fixed(usd, 6)}"
    if usd < 1:
        return f"${to_fixed(usd, 4)}"
    return f"${to_fixed(usd, 2)}"
