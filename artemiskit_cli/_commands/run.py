"""``akit run``: the historical prompt-response runner (SPEC 17).

Flags and exit codes follow the TypeScript ``artemiskit run`` (0 when every case
passed; 1 for a failed case, a scenario that did not load or run, a baseline
regression or a spent budget); the deliberate differences are in
docs/migrating.md. Progress goes to stderr; ``--summary json`` prints pure JSON on
stdout. A workflow, record or suite named directly is refused with exit 2;
SIGINT stops the run, saves nothing of the scenario in flight and exits 130.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio
import attrs
import click

from artemiskit import ArtemisError, WorkflowError
from artemiskit.prompt_response import (
    LocalStorage,
    PromptResponseExitCode,
    RedactionSettings,
    ScenarioRunOptions,
    find_config,
    format_cost,
    format_duration,
    load_run_config,
    run_scenarios,
)
from artemiskit.providers import load_judge_config
from artemiskit_cli._outputs import refuse_dash
from artemiskit_cli._params import FiniteFloatRange, PathParam
from artemiskit_cli._render import printable, problem_line
from artemiskit_cli._signals import run_watching_signals

if TYPE_CHECKING:
    from artemiskit import Problem, TrustedConfig
    from artemiskit.prompt_response import (
        BaselineCheck,
        RunManifest,
        RunSettings,
        Scenario,
        ScenariosResult,
    )
    from artemiskit.providers import JudgeConfig

__all__ = ["run"]


def _echo(message: str) -> None:
    """One line on stderr, shown `printable` (names and paths come from files)."""
    click.echo(printable(message), err=True)


def _case_line(manifest: RunManifest, verbose: bool) -> None:
    total = len(manifest.cases)
    for index, case in enumerate(manifest.cases, 1):
        mark = "✓" if case.ok else "✗"
        score = f"{round(case.score * 100)}%"
        _echo(
            f"{mark} {case.id:<24} ({score}) {case.matcher_type} "
            f"{format_duration(case.latency_ms)} [{index}/{total}]"
        )
        if verbose and case.error:
            # Only the runner's own error text: reasons may quote model output.
            _echo(f"    {case.error}")


def _panel(manifest: RunManifest) -> None:
    metrics = manifest.metrics
    _echo("=== TEST RESULTS ===")
    _echo(f"Passed: {metrics.passed_cases}  Failed: {metrics.failed_cases}  Skipped: 0")
    _echo(f"Success Rate: {metrics.success_rate * 100:.1f}%")
    _echo(f"Duration: {format_duration(manifest.duration_ms)}")
    line = (
        f"Run ID: {manifest.run_id} | Median Latency: {metrics.median_latency_ms}ms | "
        f"Tokens: {metrics.total_tokens}"
    )
    if metrics.cost is not None:
        line += f" | Est. Cost: {format_cost(metrics.cost.total_usd)}"
    _echo(line)
    if manifest.redaction is not None:
        _echo(f"Redactions: {manifest.redaction.summary.total_redactions}")


class _Printer:
    """Renders what `run_scenarios` reports, on stderr, as the TypeScript CLI did."""

    def __init__(self, verbose: bool) -> None:
        self.verbose = verbose

    def skipped(self, message: str) -> None:
        _echo(f"notice: skipped {message}")

    def notice(self, message: str) -> None:
        if self.verbose:
            _echo(f"notice: {message}")

    def problem(self, problem: Problem, path: str) -> None:
        _echo(problem_line(problem, path))

    def scenario_started(self, scenario: Scenario) -> None:
        _echo(f"Running {scenario.name} ({len(scenario.cases)} cases)")

    def scenario_finished(self, manifest: RunManifest, *, quiet: bool) -> None:
        if quiet:
            metrics = manifest.metrics
            mark = "✓" if manifest.success else "✗"
            _echo(
                f"{mark} {manifest.config.scenario}: {metrics.passed_cases}/"
                f"{metrics.total_cases} passed, run {manifest.run_id}"
            )
            return
        _case_line(manifest, self.verbose)
        _panel(manifest)

    def scenario_failed(self, label: str, message: str) -> None:
        _echo(f"✗ {label}: {message}")

    def written(self, what: str, path: Path) -> None:
        _echo(f"{what}: {path}")

    def compared(self, check: BaselineCheck) -> None:
        verdict = "REGRESSION" if check.has_regression else "no regression"
        _echo(
            f"Baseline {check.baseline_run_id}: success rate "
            f"{check.success_rate_delta * 100:+.2f}% ({verdict})"
        )

    def warning(self, message: str) -> None:
        _echo(f"warning: {message}")


async def _settings(
    config_path: str | None, judge_path: str | None, verbose: bool
) -> tuple[RunSettings, TrustedConfig, JudgeConfig | None]:
    found = Path(config_path) if config_path else find_config()
    settings, config = await load_run_config(found)
    if verbose:
        for notice in config.notices:
            _echo(f"notice: {notice}")
    judge = await load_judge_config(judge_path) if judge_path else None
    return settings, config, judge


@click.command("run")
@click.argument("paths", nargs=-1, metavar="[PATH]...", type=PathParam(readable=False))
@click.option(
    "-p", "--provider", help="Provider entry to use (overrides the scenario)."
)
@click.option("-m", "--model", help="Model to request (overrides the scenario).")
@click.option(
    "-v", "--verbose", is_flag=True, help="Print failure reasons and notices."
)
@click.option(
    "-t",
    "--tags",
    "tags",
    multiple=True,
    help="Run cases with any of these tags "
    "(repeat the option or separate with commas).",
)
@click.option(
    "--save/--no-save", default=True, help="Save the manifest (default: save)."
)
@click.option(
    "-c",
    "--concurrency",
    type=click.IntRange(1, 256),
    default=1,
    help="Cases in flight per scenario (default 1).",
)
@click.option(
    "--parallel",
    type=click.IntRange(1, 64),
    default=1,
    help="Scenario files run at once (default 1: one after another).",
)
@click.option(
    "--timeout",
    "timeout_ms",
    type=FiniteFloatRange(min=1),
    help="Per-case timeout in ms, for cases that set none.",
)
@click.option(
    "--retries", type=click.IntRange(0, 10), help="Retries for cases that set none."
)
@click.option(
    "--config",
    "config_path",
    type=PathParam(dir_okay=False),
    help="Configuration file (default: the nearest artemis.config.yaml).",
)
@click.option(
    "--judge-config",
    "judge_path",
    type=PathParam(dir_okay=False),
    help="Judge configuration for llm_grader and similarity.",
)
@click.option("--redact", is_flag=True, help="Redact stored prompts and responses.")
@click.option(
    "--redact-patterns",
    multiple=True,
    help="Built-in pattern names or regexes (with --redact).",
)
@click.option("--ci", is_flag=True, help="CI mode: KEY=value summary lines on stdout.")
@click.option(
    "--summary",
    type=click.Choice(["text", "json", "security"]),
    default="text",
    help="Summary format; json and security imply --ci.",
)
@click.option(
    "--baseline",
    "with_baseline",
    is_flag=True,
    help="Compare each run with its scenario's baseline.",
)
@click.option(
    "--threshold",
    type=FiniteFloatRange(0, 1),
    default=0.05,
    help="Regression threshold (default 0.05; 0 means 0).",
)
@click.option(
    "--budget",
    type=FiniteFloatRange(min=0),
    help="Fail when the estimated cost exceeds this many USD.",
)
@click.option(
    "--export",
    type=click.Choice(["markdown", "junit"]),
    multiple=True,
    help="Write a report per run (repeat for both: --export junit --export markdown).",
)
@click.option(
    "--export-output",
    default="./artemis-exports",
    type=PathParam(readable=False),
    help="Folder of exports (default ./artemis-exports).",
)
def run(
    paths: tuple[str, ...],
    provider: str | None,
    model: str | None,
    verbose: bool,
    tags: tuple[str, ...],
    save: bool,
    concurrency: int,
    parallel: int,
    timeout_ms: float | None,
    retries: int | None,
    config_path: str | None,
    judge_path: str | None,
    redact: bool,
    redact_patterns: tuple[str, ...],
    ci: bool,
    summary: str,
    with_baseline: bool,
    threshold: float,
    budget: float | None,
    export: tuple[str, ...],
    export_output: str,
) -> None:
    """Run prompt-response scenario files (files, folders or globs).

    Exit 0 when every case passed; 1 when a case failed, a scenario did not load
    or run, a baseline regressed or the budget was exceeded; 2 for a workflow,
    record or suite named directly; 130 when interrupted.
    """
    split_tags = tuple(t for tag in tags for t in tag.split(",") if t)
    problems = RedactionSettings(patterns=redact_patterns or None).problems()
    if problems:
        raise click.BadParameter(problems[0], param_hint="'--redact-patterns'")
    exports = tuple(dict.fromkeys(export))
    redaction = (
        RedactionSettings(enabled=True, patterns=redact_patterns or None)
        if redact
        else None
    )
    options = ScenarioRunOptions(
        provider=provider,
        model=model,
        tags=split_tags,
        concurrency=concurrency,
        timeout_ms=timeout_ms,
        retries=retries,
        redaction=redaction,
    )
    ci_mode = ci or summary != "text" or os.environ.get("CI") == "true"

    async def body() -> ScenariosResult:
        if exports:
            refuse_dash(export_output)
        settings, config, judge = await _settings(config_path, judge_path, verbose)
        storage = LocalStorage(settings.storage_path)
        if save:  # refuse an unusable store before any model call
            storage.project_folder(settings.project)
        return await run_scenarios(
            paths or (settings.scenarios_dir,),
            options=attrs.evolve(
                options,
                project=settings.project,
                default_provider=settings.provider,
                default_model=settings.model,
                default_models=settings.default_models,
            ),
            config=config,
            judge=judge,
            storage=storage,
            save=save,
            exports=exports,
            export_folder=export_output,
            baseline=with_baseline,
            threshold=threshold,
            budget=budget,
            parallel=parallel,
            progress=_Printer(verbose),
        )

    async def main() -> ScenariosResult:
        """Run ``body``; SIGTERM cancels it as SIGINT does."""
        terminated = False
        done: list[ScenariosResult] = []
        failed: list[Exception] = []
        async with anyio.create_task_group() as group:

            def terminate(signum: signal.Signals) -> bool:
                nonlocal terminated
                terminated = True
                group.cancel_scope.cancel()
                return True

            try:
                done.append(
                    await run_watching_signals(
                        group, body, terminate, signals=(signal.SIGTERM,)
                    )
                )
            except Exception as exc:  # re-raised below, outside the group
                failed.append(exc)
        if failed:
            raise failed[0]
        if terminated or not done:
            raise KeyboardInterrupt
        return done[0]

    try:
        result = anyio.run(main)
    except KeyboardInterrupt:
        _echo("interrupted: the scenario in flight was not saved")
        sys.exit(PromptResponseExitCode.INTERRUPTED)
    except WorkflowError as exc:
        _echo(f"error: {exc.message}")
        if exc.reason == "not_a_scenario":
            sys.exit(PromptResponseExitCode.WRONG_INPUT)
        sys.exit(PromptResponseExitCode.FAILED)
    except ArtemisError as exc:
        _echo(f"error: {exc.message}")
        sys.exit(PromptResponseExitCode.FAILED)
    _report(result, ci_mode, summary)
    sys.exit(result.exit_code)


def _report(result: ScenariosResult, ci_mode: bool, summary: str) -> None:
    outcomes = result.outcomes
    if summary == "json":
        data: Any = result.ci_summary()
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
    elif summary == "security":
        click.echo(json.dumps(result.security_summary(), indent=2))
    elif ci_mode:
        for line in result.ci_lines():
            click.echo(line)
    if len(outcomes) > 1 and not ci_mode:
        passed = sum(1 for o in outcomes if o.success)
        _echo("=== AGGREGATE SUMMARY ===")
        _echo(f"Scenarios: {passed}/{len(outcomes)} passed")
    if result.over_budget:
        _echo(
            f"error: estimated cost {format_cost(result.cost_usd)} exceeds the budget"
        )
