"""The historical prompt-response runner (``akit run``), SPEC 17.

Compatible with the TypeScript ArtemisKit's scenario files, manifests, baselines
and exports. `run_scenarios` does everything ``akit run`` does (load, run, save,
export, compare with baselines, add up the cost, decide the exit code). Or step by
step: load a scenario with `load_scenario`, run it with `run_scenario` (the
`RunManifest` it returns holds prompts and responses: sensitive), keep it with
`LocalStorage`, and export it with `junit_export` or `markdown_export`.
"""

from __future__ import annotations

import typing

from artemiskit._common import _exports

if typing.TYPE_CHECKING:
    __all__: list[str]

    from artemiskit._exit_codes import (
        PromptResponseExitCode as PromptResponseExitCode,
    )
    from artemiskit.prompt_response._compare import (
        baseline_check as baseline_check,
        compare_runs as compare_runs,
    )
    from artemiskit.prompt_response._discovery import (
        discover_scenario_files as discover_scenario_files,
    )
    from artemiskit.prompt_response._exports import (
        junit_export as junit_export,
        markdown_export as markdown_export,
    )
    from artemiskit.prompt_response._invocation import (
        RunProgress as RunProgress,
        ScenariosResult as ScenariosResult,
        run_scenarios as run_scenarios,
    )
    from artemiskit.prompt_response._manifest import (
        CaseRedaction as CaseRedaction,
        CaseResult as CaseResult,
        CIInfo as CIInfo,
        CostInfo as CostInfo,
        EnvironmentInfo as EnvironmentInfo,
        GitInfo as GitInfo,
        Metrics as Metrics,
        PricingInfo as PricingInfo,
        Provenance as Provenance,
        RedactionInfo as RedactionInfo,
        RedactionSummary as RedactionSummary,
        ResolvedConfig as ResolvedConfig,
        RunConfig as RunConfig,
        RunManifest as RunManifest,
        Tokens as Tokens,
        manifest_from_dict as manifest_from_dict,
        manifest_to_dict as manifest_to_dict,
        manifest_to_json as manifest_to_json,
    )
    from artemiskit.prompt_response._pricing import (
        format_cost as format_cost,
    )
    from artemiskit.prompt_response._redaction import (
        RedactionSettings as RedactionSettings,
    )
    from artemiskit.prompt_response._runner import (
        NoCasesError as NoCasesError,
        ScenarioRunOptions as ScenarioRunOptions,
        run_scenario as run_scenario,
    )
    from artemiskit.prompt_response._scenario import (
        Case as Case,
        PromptMessage as PromptMessage,
        Scenario as Scenario,
        ScenarioError as ScenarioError,
        load_scenario as load_scenario,
        parse_scenario as parse_scenario,
    )
    from artemiskit.prompt_response._settings import (
        RunSettings as RunSettings,
        find_config as find_config,
        load_run_config as load_run_config,
        load_run_settings as load_run_settings,
    )
    from artemiskit.prompt_response._storage import (
        Baseline as Baseline,
        LocalStorage as LocalStorage,
        RunSummary as RunSummary,
        is_manifest_file as is_manifest_file,
        read_manifest_file as read_manifest_file,
    )
    from artemiskit.prompt_response._summary import (
        BaselineCheck as BaselineCheck,
        ScenarioOutcome as ScenarioOutcome,
        format_duration as format_duration,
    )
    from artemiskit.prompt_response.evaluators._base import (
        Evaluation as Evaluation,
    )


_PACKAGE = "artemiskit.prompt_response"
_exports.export_lazily(
    globals(),
    deprecated={
        **{
            name: _exports.Deprecated(
                module="artemiskit.reports._run_report",
                message=f"artemiskit.prompt_response.{name} is deprecated; the run "
                f"report shares the reports' renderer: artemiskit.reports.{name}",
            )
            for name in ("REPORT_INSTALL_HINT", "render_run_report")
        },
        **_exports.retired(
            _PACKAGE,
            {
                "artemiskit.prompt_response._summary": (
                    "ci_lines",
                    "ci_summary",
                    "security_summary",
                )
            },
            "call ScenariosResult.{name}() on what run_scenarios returns",
        ),
        **_exports.retired(
            _PACKAGE,
            {"artemiskit.prompt_response._redaction": ("redaction_pattern_problem",)},
            "call RedactionSettings(patterns=...).problems()",
        ),
        **_exports.retired(
            _PACKAGE,
            {
                "artemiskit.prompt_response._kinds": (
                    "describe_document",
                    "is_manifest",
                ),
                "artemiskit.prompt_response._pricing": ("Pricing", "estimate_cost"),
                "artemiskit.prompt_response._settings": ("compatible_config",),
                "artemiskit.prompt_response._targets": ("known_secrets",),
                "artemiskit.prompt_response.evaluators._base": (
                    "Embedder",
                    "EvaluationContext",
                    "Grader",
                ),
                "artemiskit.prompt_response.evaluators._registry": (
                    "EXPECTATION_TYPES",
                ),
            },
            "an internal part of the runner",
        ),
    },
)
