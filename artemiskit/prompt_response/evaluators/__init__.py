"""Expectation types of prompt-response scenarios, one module each.

A ``custom`` expectation names an evaluator registered in the entry-point group
`ENTRY_POINT_GROUP` (``artemiskit.evaluators``): a function of the response and
the expectation's ``config`` that returns an `Evaluation`
(docs/prompt-response.md). Every other name here is the runner's own.
"""

from __future__ import annotations

import typing

from artemiskit._common import _exports

if typing.TYPE_CHECKING:
    __all__: list[str]

    from artemiskit.prompt_response.evaluators._base import (
        Evaluation as Evaluation,
    )
    from artemiskit.prompt_response.evaluators._custom import (
        ENTRY_POINT_GROUP as ENTRY_POINT_GROUP,
    )

_exports.export_lazily(
    globals(),
    deprecated=_exports.retired(
        "artemiskit.prompt_response.evaluators",
        {
            "artemiskit.prompt_response.evaluators._base": (
                "Embedder",
                "EvaluationContext",
                "Grader",
            ),
            "artemiskit.prompt_response.evaluators._registry": (
                "EXPECTATION_TYPES",
                "evaluate_expectation",
                "normalize_expectation",
            ),
        },
        "an internal part of the runner",
    ),
)
