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
    from artemiskit.prompt_response._kinds import (
        describe_document as describe_document,
        is_manifest as is_manifest,
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
        Pricing as Pricing,
        estimate_cost as estimate_cost,
        format_cost as format_cost,
    )
    from artemiskit.prompt_response._redaction import (
        RedactionSettings as RedactionSettings,
        redaction_pattern_problem as redaction_pattern_problem,
    )
    from artemiskit.prompt_response._report import (
        REPORT_INSTALL_HINT as REPORT_INSTALL_HINT,
        render_run_report as render_run_report,
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
        compatible_config as compatible_config,
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
        ci_lines as ci_lines,
        ci_summary as ci_summary,
        format_duration as format_duration,
        security_summary as security_summary,
    )
    from artemiskit.prompt_response._targets import (
        known_secrets as known_secrets,
    )
    from artemiskit.prompt_response.evaluators import (
        EXPECTATION_TYPES as EXPECTATION_TYPES,
        Embedder as Embedder,
        Evaluation as Evaluation,
        EvaluationContext as EvaluationContext,
        Grader as Grader,
    )

_exports.export_lazily(globals())
