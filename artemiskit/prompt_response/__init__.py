"""The historical prompt-response runner (``akit run``), SPEC 17.

Compatible with the TypeScript ArtemisKit's scenario files, manifests, baselines
and exports. `run_scenarios` does everything ``akit run`` does (load, run, save,
export, compare with baselines, add up the cost, decide the exit code). Or step by
step: load a scenario with `load_scenario`, run it with `run_scenario` (the
`RunManifest` it returns holds prompts and responses: sensitive), keep it with
`LocalStorage`, and export it with `junit_export` or `markdown_export`.
"""

from __future__ import annotations

from artemiskit.prompt_response._compare import baseline_check, compare_runs
from artemiskit.prompt_response._discovery import discover_scenario_files
from artemiskit.prompt_response._exports import junit_export, markdown_export
from artemiskit.prompt_response._invocation import (
    RunProgress,
    ScenariosResult,
    run_scenarios,
)
from artemiskit.prompt_response._kinds import describe_document, is_manifest
from artemiskit.prompt_response._manifest import (
    CaseRedaction,
    CaseResult,
    CIInfo,
    CostInfo,
    EnvironmentInfo,
    GitInfo,
    Metrics,
    PricingInfo,
    Provenance,
    RedactionInfo,
    RedactionSummary,
    ResolvedConfig,
    RunConfig,
    RunManifest,
    Tokens,
    manifest_from_dict,
    manifest_to_dict,
    manifest_to_json,
)
from artemiskit.prompt_response._pricing import Pricing, estimate_cost, format_cost
from artemiskit.prompt_response._redaction import (
    RedactionSettings,
    redaction_pattern_problem,
)
from artemiskit.prompt_response._runner import (
    NoCasesError,
    ScenarioRunOptions,
    run_scenario,
)
from artemiskit.prompt_response._scenario import (
    Case,
    PromptMessage,
    Scenario,
    ScenarioError,
    load_scenario,
    parse_scenario,
)
from artemiskit.prompt_response._settings import (
    RunSettings,
    compatible_config,
    find_config,
    load_run_config,
    load_run_settings,
)
from artemiskit.prompt_response._storage import (
    Baseline,
    LocalStorage,
    RunSummary,
    read_manifest_file,
)
from artemiskit.prompt_response._summary import (
    BaselineCheck,
    ScenarioOutcome,
    ci_lines,
    ci_summary,
    format_duration,
    security_summary,
)
from artemiskit.prompt_response._targets import known_secrets
from artemiskit.prompt_response.evaluators import (
    EXPECTATION_TYPES,
    Embedder,
    Evaluation,
    EvaluationContext,
    Grader,
)

__all__ = [
    "Baseline",
    "BaselineCheck",
    "CIInfo",
    "Case",
    "CaseRedaction",
    "CaseResult",
    "CostInfo",
    "EXPECTATION_TYPES",
    "Embedder",
    "EnvironmentInfo",
    "Evaluation",
    "EvaluationContext",
    "GitInfo",
    "Grader",
    "LocalStorage",
    "Metrics",
    "NoCasesError",
    "Pricing",
    "PricingInfo",
    "PromptMessage",
    "Provenance",
    "RedactionInfo",
    "RedactionSettings",
    "RedactionSummary",
    "ResolvedConfig",
    "RunConfig",
    "RunManifest",
    "RunProgress",
    "RunSettings",
    "RunSummary",
    "Scenario",
    "ScenarioError",
    "ScenarioOutcome",
    "ScenarioRunOptions",
    "ScenariosResult",
    "Tokens",
    "baseline_check",
    "ci_lines",
    "ci_summary",
    "compare_runs",
    "compatible_config",
    "describe_document",
    "discover_scenario_files",
    "estimate_cost",
    "find_config",
    "format_cost",
    "format_duration",
    "is_manifest",
    "junit_export",
    "known_secrets",
    "load_run_config",
    "load_run_settings",
    "load_scenario",
    "manifest_from_dict",
    "manifest_to_dict",
    "manifest_to_json",
    "markdown_export",
    "parse_scenario",
    "read_manifest_file",
    "redaction_pattern_problem",
    "run_scenario",
    "run_scenarios",
    "security_summary",
]
