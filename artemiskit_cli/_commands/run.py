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

from artemiskit import (
    ArtemisError,
    FileAccessError,
    PromptResponseExitCode,
    TrustedConfig,
    WorkflowError,
)
from artemiskit.config import load_judge_config
from artemiskit.prompt_response import (
    LocalStorage,
    RedactionSettings,
    ScenarioOutcome,
    ScenarioRunOptions,
    baseline_check,
    ci_lines,
    ci_summary,
    discover_scenario_files,
    find_config,
    format_cost,
    format_duration,
    junit_export,
    known_secrets,
    load_run_config,
    load_scenario,
    markdown_export,
    redaction_pattern_problem,
    run_scenario,
    security_summary,
)
from artemiskit_cli._commands.validate import shown_path
from artemiskit_cli._outputs import refuse_dash, write_new_file
from artemiskit_cli._render import problem_line

if TYPE_CHECKING:
    from artemiskit.config import JudgeConfig
    from artemiskit.prompt_response import (
        BaselineCheck,
        RunManifest,
        RunSettings,
        Scenario,
    )

__all__ = ["run"]


def _echo(message: str) -> None:
    click.echo(message, err=True)


class _Invocation:
    """Everything one ``akit run`` needs, loaded before any model call."""

    def __init__(
        self,
        settings: RunSettings,
        config: TrustedConfig,
        judge: JudgeConfig | None,
        options: ScenarioRunOptions,
        verbose: bool,
        secrets: tuple[str, ...],
    ) -> None:
        self.settings = settings
        self.config = config
        self.judge = judge
        self.options = options
        self.verbose = verbose
        self.secrets = secrets


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


def _export(manifest: RunManifest, kinds: tuple[str, ...], folder: str) -> None:
    """Write each asked export of ``manifest`` (``--export`` may be repeated)."""
    for kind in kinds:
        if kind == "junit":
            text, suffix = junit_export(manifest), ".xml"
        else:
            text, suffix = markdown_export(manifest), ".md"
        path = Path(folder) / f"{manifest.run_id}{suffix}"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            if path.exists():
                path.unlink()
        except OSError as exc:
            raise FileAccessError(
                f"{folder}: cannot write exports ({exc.strerror})"
            ) from None
        # The export quotes prompts and responses: private, never half-written.
        write_new_file(str(path), text.encode("utf-8"), mode=0o600)
        _echo(f"Exported: {path}")


async def _prepare(
    config_path: str | None,
    judge_path: str | None,
    options: ScenarioRunOptions,
    verbose: bool,
) -> _Invocation:
    found = Path(config_path) if config_path else find_config()
    settings, config = await load_run_config(found)
    if verbose:
        for notice in config.notices:
            _echo(f"notice: {notice}")
    judge = await load_judge_config(judge_path) if judge_path else None
    secrets = known_secrets(config, judge)
    options = attrs.evolve(
        options,
        project=settings.project,
        default_provider=settings.provider,
        default_model=settings.model,
        default_models=settings.default_models,
    )
    return _Invocation(settings, config, judge, options, verbose, secrets)


def _names_a_file(given: str) -> bool:
    return "*" not in given and "?" not in given and os.path.isfile(given)


async def _load_all(
    paths: tuple[str, ...], verbose: bool, secrets: tuple[str, ...]
) -> list[tuple[str, Scenario | None, str | None]]:
    """Every scenario to run (or why it cannot), before any model call.

    A file that is another kind of ArtemisKit file is refused (exit 2) when named
    directly, and skipped with a notice when a folder or glob found it.
    """
    loaded: list[tuple[str, Scenario | None, str | None]] = []
    for given in paths:
        explicit = _names_a_file(given)
        for path in map(shown_path, discover_scenario_files(given)):
            label = os.path.basename(path)
            try:
                scenario = await load_scenario(path, withheld=secrets)
            except WorkflowError as exc:
                if exc.reason == "not_a_scenario":
                    if explicit:
                        raise
                    _echo(f"notice: skipped {exc.message}")
                    continue
                for problem in exc.problems:
                    _echo(problem_line(problem, path))
                loaded.append((label, None, exc.message))
                continue
            except ArtemisError as exc:
                loaded.append((label, None, exc.message))
                continue
            if verbose:
                for notice in scenario.notices:
                    _echo(f"notice: {notice}")
            loaded.append((label, scenario, None))
    return loaded


@attrs.frozen(kw_only=True)
class _Delivery:
    """What happens to each finished run: save, export, baseline check."""

    storage: LocalStorage
    save: bool
    export: tuple[str, ...]
    export_output: str
    with_baseline: bool
    threshold: float
    quiet: bool


async def _run_one(
    invocation: _Invocation,
    item: tuple[str, Scenario | None, str | None],
    delivery: _Delivery,
) -> tuple[ScenarioOutcome, BaselineCheck | None]:
    label, scenario, error = item
    if scenario is None:
        _echo(f"✗ {label}: {error}")
        return ScenarioOutcome(label=label, error=error), None
    if not delivery.quiet:
        _echo(f"Running {scenario.name} ({len(scenario.cases)} cases)")
    try:
        manifest = await run_scenario(
            scenario,
            options=invocation.options,
            config=invocation.config,
            judge=invocation.judge,
        )
    except ArtemisError as exc:
        _echo(f"✗ {label}: {exc.message}")
        return ScenarioOutcome(label=label, error=exc.message), None
    if delivery.quiet:
        metrics = manifest.metrics
        mark = "✓" if manifest.success else "✗"
        _echo(
            f"{mark} {scenario.name}: {metrics.passed_cases}/{metrics.total_cases} "
            f"passed, run {manifest.run_id}"
        )
    else:
        _case_line(manifest, invocation.verbose)
        _panel(manifest)
    if delivery.save:
        _echo(f"Saved: {delivery.storage.save(manifest)}")
    _export(manifest, delivery.export, delivery.export_output)
    check = None
    if delivery.with_baseline:
        check = _check_baseline(delivery.storage, manifest, delivery.threshold)
    return ScenarioOutcome(label=label, manifest=manifest), check


async def _run_all(
    invocation: _Invocation,
    loaded: list[tuple[str, Scenario | None, str | None]],
    delivery: _Delivery,
    parallel: int,
) -> tuple[list[ScenarioOutcome], list[BaselineCheck]]:
    """Run every scenario, ``parallel`` files at a time; results in file order."""
    results: list[tuple[ScenarioOutcome, BaselineCheck | None] | None]
    results = [None] * len(loaded)
    pending = iter(enumerate(loaded))

    async def worker() -> None:
        for index, item in pending:
            results[index] = await _run_one(invocation, item, delivery)

    async with anyio.create_task_group() as group:
        for _ in range(min(parallel, len(loaded))):
            group.start_soon(worker)
    done = [result for result in results if result is not None]
    return [outcome for outcome, _ in done], [c for _, c in done if c is not None]


def _check_baseline(
    storage: LocalStorage, manifest: RunManifest, threshold: float
) -> BaselineCheck | None:
    baseline = storage.baseline(manifest.config.scenario)
    if baseline is None:
        return None
    try:
        before = storage.load(baseline.run_id)
    except (ArtemisError, ValueError) as exc:
        _echo(f"warning: baseline of {manifest.config.scenario}: {exc}")
        return None
    check = baseline_check(before, manifest, threshold)
    verdict = "REGRESSION" if check.has_regression else "no regression"
    _echo(
        f"Baseline {baseline.run_id}: success rate "
        f"{check.success_rate_delta * 100:+.2f}% ({verdict})"
    )
    return check


def _worst(checks: list[BaselineCheck]) -> BaselineCheck | None:
    if not checks:
        return None
    regressed = [c for c in checks if c.has_regression]
    return min(regressed or checks, key=lambda c: c.success_rate_delta)


@click.command("run")
@click.argument("paths", nargs=-1, metavar="[PATH]...")
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
    type=click.FloatRange(min=1),
    help="Per-case timeout in ms, for cases that set none.",
)
@click.option(
    "--retries", type=click.IntRange(0, 10), help="Retries for cases that set none."
)
@click.option(
    "--config",
    "config_path",
    type=click.Path(dir_okay=False),
    help="Configuration file (default: the nearest artemis.config.yaml).",
)
@click.option(
    "--judge-config",
    "judge_path",
    type=click.Path(dir_okay=False),
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
    type=click.FloatRange(0, 1),
    default=0.05,
    help="Regression threshold (default 0.05; 0 means 0).",
)
@click.option(
    "--budget",
    type=click.FloatRange(min=0),
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
    for pattern in redact_patterns:
        problem = redaction_pattern_problem(pattern)
        if problem is not None:
            raise click.BadParameter(
                f"{pattern[:40]!r} {problem}", param_hint="'--redact-patterns'"
            )
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

    async def body() -> tuple[list[ScenarioOutcome], list[BaselineCheck]]:
        if exports:
            refuse_dash(export_output)
        invocation = await _prepare(config_path, judge_path, options, verbose)
        if save:  # refuse an unusable store before any model call
            LocalStorage(invocation.settings.storage_path).project_folder(
                invocation.settings.project
            )
        loaded = await _load_all(
            paths or (invocation.settings.scenarios_dir,), verbose, invocation.secrets
        )
        if not loaded:
            raise _NothingToRun
        delivery = _Delivery(
            storage=LocalStorage(invocation.settings.storage_path),
            save=save,
            export=exports,
            export_output=export_output,
            with_baseline=with_baseline,
            threshold=threshold,
            quiet=parallel > 1 and len(loaded) > 1,
        )
        return await _run_all(invocation, loaded, delivery, parallel)

    async def main() -> tuple[list[ScenarioOutcome], list[BaselineCheck]]:
        """Run ``body``; SIGTERM cancels it as SIGINT does."""
        terminated = False
        done: list[tuple[list[ScenarioOutcome], list[BaselineCheck]]] = []
        failed: list[Exception] = []
        async with anyio.create_task_group() as group:

            async def watch() -> None:
                nonlocal terminated
                with anyio.open_signal_receiver(signal.SIGTERM) as signals:
                    async for _ in signals:
                        terminated = True
                        group.cancel_scope.cancel()
                        return

            async def work() -> None:
                try:
                    done.append(await body())
                except Exception as exc:  # re-raised below, outside the group
                    failed.append(exc)
                finally:
                    group.cancel_scope.cancel()

            group.start_soon(watch)
            group.start_soon(work)
        if failed:
            raise failed[0]
        if terminated or not done:
            raise KeyboardInterrupt
        return done[0]

    try:
        outcomes, checks = anyio.run(main)
    except KeyboardInterrupt:
        _echo("interrupted: the scenario in flight was not saved")
        sys.exit(PromptResponseExitCode.INTERRUPTED)
    except _NothingToRun:
        _echo("error: no scenario files found")
        sys.exit(PromptResponseExitCode.FAILED)
    except WorkflowError as exc:
        if exc.reason == "not_a_scenario":
            _echo(f"error: {exc.message}")
            sys.exit(PromptResponseExitCode.WRONG_INPUT)
        _echo(f"error: {exc.message}")
        sys.exit(PromptResponseExitCode.FAILED)
    except ArtemisError as exc:
        _echo(f"error: {exc.message}")
        sys.exit(PromptResponseExitCode.FAILED)
    worst = _worst(checks)
    cost = sum(
        o.manifest.metrics.cost.total_usd
        for o in outcomes
        if o.manifest is not None and o.manifest.metrics.cost is not None
    )
    spent = (budget, cost) if budget is not None and cost > budget else None
    over_budget = spent is not None
    _report(outcomes, worst, ci_mode, summary, spent)
    failed = any(not o.success for o in outcomes)
    regressed = any(c.has_regression for c in checks)
    sys.exit(1 if failed or regressed or over_budget else 0)


class _NothingToRun(Exception):
    pass


def _report(
    outcomes: list[ScenarioOutcome],
    worst: BaselineCheck | None,
    ci_mode: bool,
    summary: str,
    budget: tuple[float, float] | None,
) -> None:
    if summary == "json":
        data: Any = ci_summary(outcomes, worst)
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
    elif summary == "security":
        click.echo(json.dumps(security_summary(outcomes), indent=2))
    elif ci_mode:
        for line in ci_lines(outcomes, worst, budget):
            click.echo(line)
    if len(outcomes) > 1 and not ci_mode:
        passed = sum(1 for o in outcomes if o.success)
        _echo("=== AGGREGATE SUMMARY ===")
        _echo(f"Scenarios: {passed}/{len(outcomes)} passed")
    if budget is not None:
        _echo(f"error: estimated cost {format_cost(budget[1])} exceeds the budget")
