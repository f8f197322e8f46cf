"""The historical prompt-response runner (``akit run``), SPEC 17.

Compatible with the TypeScript ArtemisKit's scenario files, manifests, baselines
and exports.

Scenarios load with `load_scenario`; every problem is listed with its position.
"""

from __future__ import annotations

from artemiskit.prompt_response._discovery import discover_scenario_files
from artemiskit.prompt_response._kinds import describe_document
from artemiskit.prompt_response._redaction import RedactionSettings
from artemiskit.prompt_response._scenario import (
    Case,
    PromptMessage,
    Scenario,
    ScenarioError,
    load_scenario,
    parse_scenario,
)
from artemiskit.prompt_response.evaluators import (
    EXPECTATION_TYPES,
    Evaluation,
    EvaluationContext,
)

__all__ = [
    "EXPECTATION_TYPES",
    "Case",
    "Evaluation",
    "EvaluationContext",
    "PromptMessage",
    "RedactionSettings",
    "Scenario",
    "ScenarioError",
    "describe_document",
    "discover_scenario_files",
    "load_scenario",
    "parse_scenario",
]
