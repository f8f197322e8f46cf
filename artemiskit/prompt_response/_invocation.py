"""`run_scenarios`: everything ``akit run`` does, as one SDK call.

Load every scenario a path names (before any model call), run them ``parallel``
files at a time, save each manifest, write the exports asked for, compare with the
baselines, add up the estimated cost, and decide the exit code, the TypeScript
contract: 1 for a failed case, a scenario that did not load or run, a regression or
a spent budget, else 0. What a command prints along the way goes to a `RunProgress`
(the CLI renders it; SDK callers may pass none).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import attrs

from artemiskit._common._pool import run_bounded
from artemiskit._errors import ArtemisError, ConfigError, FileAccessError, WorkflowError
from artemiskit._exit_codes import PromptResponseExitCode
from artemiskit.prompt_response._compare import baseline_check
from artemiskit.prompt_response._discovery import discover_scenario_files
from artemiskit.prompt_response._exports import junit_export, markdown_export
from artemiskit.prompt_response._runner import ScenarioRunOptions, run_scenario
from artemiskit.prompt_response._scenario import load_scenario
from artemiskit.prompt_response._storage import LocalStorage, write_private_file
from artemiskit.prompt_response._summary import (
    BaselineCheck,
    ScenarioOutcome,
    ci_lines,
    ci_summary,
    security_summary,
)
from artemiskit.prompt_response._targets import known_secrets

if TYPE_CHECKING:
    from collections.abc import Sequence

    from artemiskit._problem import Problem
    from artemiskit.prompt_response._manifest import RunManifest
    from artemiskit.prompt_response._scenario import Scenario
    from artemiskit.providers._config import TrustedConfig
    from artemiskit.providers._judge_config import JudgeConfig

__all__ = ["EXPORT_FORMATS", "RunProgress", "ScenariosResult", "run_scenarios"]

#: The ``exports`` `run_scenarios` writes: ``<run_id>.xml`` and ``<run_id>.md``.
EXPORT_FORMATS = {"junit": ".xml", "markdown": ".md"}


class RunProgress(Protocol):
    """Told what happens during `run_scenarios`, to show it (no-ops are fine)."""

    def skipped(self, message: str) -> None:
        """A file a folder or glob found is not a scenario, and is skipped."""

    def notice(self, message: str) -> None:
        """An ignored key, an unset or withheld variable (``--verbose`` shows them)."""

    def problem(self, problem: Problem, path: str) -> None:
        """One problem of a scenario that did not load."""

    def scenario_started(self, scenario: Scenario) -> None:
        """A scenario begins (not called when several files run at once)."""

    def scenario_finished(self, manifest: RunManifest, *, quiet: bool) -> None:
        """A scenario ran; ``quiet`` when several files run at once."""

    def scenario_failed(self, label: str, message: str) -> None:
        """A scenario did not load, run, save or export."""

    def written(self, what: str, path: Path) -> None:
        """A file was written (``what``: ``Saved`` or ``Exported``)."""

    def compared(self, check: BaselineCheck) -> None:
        """A run was compared with its baseline."""

    def warning(self, message: str) -> None:
        """Something was skipped (a baseline run that could not be read)."""


class _Silent:
    def skipped(self, message: str) -> None:
        pass

    def notice(self, message: str) -> None:
        pass

    def problem(self, problem: Problem, path: str) -> None:
        pass

    def scenario_started(self, scenario: Scenario) -> None:
        pass

    def scenario_finished(self, manifest: RunManifest, *, quiet: bool) -> None:
        pass

    def scenario_failed(self, label: str, message: str) -> None:
        pass

    def written(self, what: str, path: Path) -> None:
        pass

    def compared(self, check: BaselineCheck) -> None:
        pass

    def warning(self, message: str) -> None:
        pass


@attrs.frozen(kw_only=True)
class ScenariosResult:
    """What one `run_scenarios` call did.

    Attributes:
        outcomes: One per scenario file, in file order.
        checks: The baseline comparisons made.
        cost_usd: The summed estimated cost of every run.
        budget: The budget given, if any.
    """

    outcomes: tuple[ScenarioOutcome, ...]
    checks: tuple[BaselineCheck, ...] = ()
    cost_usd: float = 0.0
    budget: float | None = None

    @property
    def worst(self) -> BaselineCheck | None:
        """The comparison to show: the worst regression, else the smallest delta."""
        if not self.checks:
            return None
        regressed = [c for c in self.checks if c.has_regression]
        return min(regressed or self.checks, key=lambda c: c.success_rate_delta)

    @property
    def over_budget(self) -> bool:
        """Whether the estimated cost went over the budget (strictly)."""
        return self.budget is not None and self.cost_usd > self.budget

    @property
    def exit_code(self) -> int:
        """1 for a failed scenario, a regression or a spent budget; else 0."""
        failed = any(not outcome.success for outcome in self.outcomes)
        regressed = any(check.has_regression for check in self.checks)
        if failed or regressed or self.over_budget:
            return PromptResponseExitCode.FAILED
        return PromptResponseExitCode.OK

    def ci_summary(self) -> dict[str, Any]:
        """The ``--summary json`` object of ``akit run``.

        Returns:
            The TypeScript CLI's JSON summary: scenarios, cases, duration, tokens,
            cost, one entry per run, and the worst baseline comparison if any.
        """
        return ci_summary(self.outcomes, self.worst)

    def ci_lines(self) -> list[str]:
        """The ``ARTEMISKIT_*=value`` lines of ``akit run --ci``.

        Returns:
            One ``KEY=value`` line each, budget lines included when it was spent.
        """
        spent = None
        if self.budget is not None and self.over_budget:
            spent = (self.budget, self.cost_usd)
        return ci_lines(self.outcomes, self.worst, spent)

    def security_summary(self) -> dict[str, Any]:
        """The ``--summary security`` object of ``akit run``.

        Returns:
            The overall risk, the success rate, the failed cases by risk bucket
            and the recommendations.
        """
        return security_summary(self.outcomes)


def _shown(path: str) -> str:
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative


def _names_a_file(given: str) -> bool:
    return "*" not in given and "?" not in given and os.path.isfile(given)


_Loaded = tuple[str, "Scenario | None", "str | None"]


async def _load_all(
    paths: Sequence[str], secrets: tuple[str, ...], progress: RunProgress
) -> list[_Loaded]:
    loaded: list[_Loaded] = []
    for given in paths:
        explicit = _names_a_file(given)
        for path in map(_shown, discover_scenario_files(given)):
            label = os.path.basename(path)
            try:
                scenario = await load_scenario(path, withheld=secrets)
            except WorkflowError as exc:
                if exc.reason == "not_a_scenario":
                    if explicit:
                        raise
                    progress.skipped(exc.message)
                    continue
                for problem in exc.problems:
                    progress.problem(problem, path)
                loaded.append((label, None, exc.message))
                continue
            except ArtemisError as exc:
                loaded.append((label, None, exc.message))
                continue
            for notice in scenario.notices:
                progress.notice(notice)
            loaded.append((label, scenario, None))
    return loaded


@attrs.frozen(kw_only=True)
class _Delivery:
    storage: LocalStorage | None
    save: bool
    exports: tuple[str, ...]
    export_folder: Path
    with_baseline: bool
    threshold: float
    quiet: bool


def _export(manifest: RunManifest, delivery: _Delivery, progress: RunProgress) -> None:
    for kind in delivery.exports:
        text = junit_export(manifest) if kind == "junit" else markdown_export(manifest)
        path = delivery.export_folder / f"{manifest.run_id}{EXPORT_FORMATS[kind]}"
        # The export quotes prompts and responses: private, never half-written.
        write_private_file(path, text, what="export")
        progress.written("Exported", path)


def _check_baseline(
    storage: LocalStorage,
    manifest: RunManifest,
    threshold: float,
    progress: RunProgress,
) -> BaselineCheck | None:
    baseline = storage.baseline(manifest.config.scenario)
    if baseline is None:
        return None
    try:
        before = storage.load(baseline.run_id)
    except (ArtemisError, ValueError) as exc:
        progress.warning(f"baseline of {manifest.config.scenario}: {exc}")
        return None
    check = baseline_check(before, manifest, threshold)
    progress.compared(check)
    return check


async def _run_one(
    item: _Loaded,
    *,
    options: ScenarioRunOptions,
    config: TrustedConfig | None,
    judge: JudgeConfig | None,
    delivery: _Delivery,
    progress: RunProgress,
) -> tuple[ScenarioOutcome, BaselineCheck | None]:
    label, scenario, error = item
    if scenario is None:
        progress.scenario_failed(label, error or "")
        return ScenarioOutcome(label=label, error=error), None
    if not delivery.quiet:
        progress.scenario_started(scenario)
    try:
        manifest = await run_scenario(
            scenario, options=options, config=config, judge=judge
        )
    except ArtemisError as exc:
        progress.scenario_failed(label, exc.message)
        return ScenarioOutcome(label=label, error=exc.message), None
    progress.scenario_finished(manifest, quiet=delivery.quiet)
    check = None
    try:
        if delivery.storage is not None and delivery.save:
            progress.written("Saved", delivery.storage.save(manifest))
        _export(manifest, delivery, progress)
        if delivery.with_baseline and delivery.storage is not None:
            check = _check_baseline(
                delivery.storage, manifest, delivery.threshold, progress
            )
    except ArtemisError as exc:  # the store or an export: this scenario failed
        progress.scenario_failed(label, exc.message)
        return ScenarioOutcome(label=label, error=exc.message), None
    return ScenarioOutcome(label=label, manifest=manifest), check


async def run_scenarios(
    paths: Sequence[str | os.PathLike[str]],
    *,
    options: ScenarioRunOptions | None = None,
    config: TrustedConfig | None = None,
    judge: JudgeConfig | None = None,
    storage: LocalStorage | None = None,
    save: bool = True,
    exports: Sequence[str] = (),
    export_folder: str | os.PathLike[str] = "artemis-exports",
    baseline: bool = False,
    threshold: float = 0.05,
    budget: float | None = None,
    parallel: int = 1,
    progress: RunProgress | None = None,
) -> ScenariosResult:
    """Run the scenario files ``paths`` name, as ``akit run`` does.

    Every file is loaded before any model call; a workflow, record or suite named
    directly is refused, and one found in a folder is skipped with a notice.

    Args:
        paths: Files, folders or globs.
        options: The run's settings (provider, model, tags, redaction ...).
        config: The trusted configuration holding provider entries.
        judge: The judge for ``llm_grader`` and ``similarity``.
        storage: The store: where manifests are saved and baselines are read
            (``None``: nothing is saved or compared).
        save: Save each manifest in ``storage`` (``False``: ``--no-save``; the
            baselines are still read).
        exports: Formats to write per run: ``junit``, ``markdown``.
        export_folder: Where exports go.
        baseline: Compare each run with its scenario's baseline in ``storage``.
        threshold: The success-rate drop that counts as a regression.
        budget: The most the runs may cost together (USD, estimated).
        parallel: Scenario files run at once.
        progress: Told what happens (the CLI prints it).

    Returns:
        Every outcome, comparison and the cost; `ScenariosResult.exit_code` is the
        exit code of ``akit run``.

    Raises:
        ScenarioError: A path names a workflow, record or suite directly (reason
            ``not_a_scenario``).
        FileAccessError: A path names nothing, or no scenario file was found.
        ConfigError: An export format is unknown.
    """
    unknown = [kind for kind in exports if kind not in EXPORT_FORMATS]
    if unknown:
        raise ConfigError(f"unknown export format {unknown[0]!r}")
    options = options or ScenarioRunOptions()
    told = progress or _Silent()
    loaded = await _load_all(
        [os.fspath(p) for p in paths],
        known_secrets(config or _no_config(), judge),
        told,
    )
    if not loaded:
        raise FileAccessError("no scenario files found", reason="no_scenarios")
    delivery = _Delivery(
        storage=storage,
        save=save,
        exports=tuple(dict.fromkeys(exports)),
        export_folder=Path(export_folder),
        with_baseline=baseline,
        threshold=threshold,
        quiet=parallel > 1 and len(loaded) > 1,
    )
    results: list[tuple[ScenarioOutcome, BaselineCheck | None] | None]
    results = [None] * len(loaded)

    async def run_file(entry: tuple[int, _Loaded]) -> None:
        index, item = entry
        results[index] = await _run_one(
            item,
            options=options,
            config=config,
            judge=judge,
            delivery=delivery,
            progress=told,
        )

    await run_bounded(enumerate(loaded), run_file, min(max(1, parallel), len(loaded)))
    done = [result for result in results if result is not None]
    outcomes = tuple(outcome for outcome, _ in done)
    cost = sum(
        o.manifest.metrics.cost.total_usd
        for o in outcomes
        if o.manifest is not None and o.manifest.metrics.cost is not None
    )
    return ScenariosResult(
        outcomes=outcomes,
        checks=tuple(check for _, check in done if check is not None),
        cost_usd=cost,
        budget=budget,
    )


def _no_config() -> TrustedConfig:
    from artemiskit.providers._config import TrustedConfig

    return TrustedConfig()
