"""``akit baseline``, ``akit history``, ``akit compare``: stored prompt-response runs.

They read the local store of ``akit run`` (``artemis-runs/`` or
``ARTEMIS_STORAGE_PATH``) and work offline. A RUN argument is a run id or a
manifest file; a workflow record or suite given instead is refused with exit 2.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import anyio
import click

from artemiskit import ArtemisError
from artemiskit.prompt_response import (
    Baseline,
    LocalStorage,
    PromptResponseExitCode,
    baseline_check,
    compare_runs,
    find_config,
    format_cost,
    load_run_settings,
    read_manifest_file,
)
from artemiskit_cli._outputs import check_new_outputs, write_new_file
from artemiskit_cli._params import FiniteFloatRange, PathParam
from artemiskit_cli._render import printable

if TYPE_CHECKING:
    from artemiskit.prompt_response import RunManifest

__all__ = ["baseline", "compare", "history", "load_run"]

CONFIG_OPTION = click.option(
    "--config",
    "config_path",
    type=PathParam(dir_okay=False),
    help="Configuration file (default: the nearest artemis.config.yaml).",
)


def storage_for(config_path: str | None) -> LocalStorage:
    """The store the configuration (or the environment) points at.

    Exits 1 (``error: ...``) when the configuration cannot be read or is invalid.
    """
    found = Path(config_path) if config_path else find_config()
    try:
        settings = anyio.run(load_run_settings, found)
    except ArtemisError as exc:
        _fail(exc.message, 1)
    return LocalStorage(settings.storage_path)


def _fail(message: str, code: int) -> NoReturn:
    click.echo(f"error: {printable(message)}", err=True)
    sys.exit(code)


def load_run(storage: LocalStorage, given: str) -> RunManifest:
    """A stored run by id, or a manifest file; exits 1 or 2 when it cannot."""
    try:
        if os.path.exists(given):
            return read_manifest_file(given)
        return storage.load(given)
    except ValueError as exc:
        _fail(str(exc), 2)
    except ArtemisError as exc:
        _fail(exc.message, 1)
    raise AssertionError("unreachable")


@click.group("baseline")
def baseline() -> None:
    """Set, list, show and remove scenario baselines (one per scenario name)."""


@baseline.command("set")
@click.argument("run_id", metavar="RUN", type=PathParam(readable=False))
@click.option("-s", "--scenario", help="Scenario name (default: the run's).")
@click.option("-t", "--tag", help="A label to keep with the baseline.")
@CONFIG_OPTION
def set_baseline(
    run_id: str, scenario: str | None, tag: str | None, config_path: str | None
) -> None:
    """Make run RUN (an id or a manifest file) its scenario's baseline."""
    storage = storage_for(config_path)
    manifest = load_run(storage, run_id)
    if storage.find(manifest.run_id) is None:
        _fail(f"run {manifest.run_id} is not in the store {storage.base_path}", 1)
    metrics = manifest.metrics
    entry = Baseline(
        scenario=scenario or manifest.config.scenario,
        run_id=manifest.run_id,
        created_at=_now(),
        success_rate=metrics.success_rate,
        median_latency_ms=metrics.median_latency_ms,
        total_tokens=metrics.total_tokens,
        passed_cases=metrics.passed_cases,
        failed_cases=metrics.failed_cases,
        total_cases=metrics.total_cases,
        tag=tag,
    )
    try:
        storage.set_baseline(entry)
    except ArtemisError as exc:
        _fail(exc.message, 1)
    click.echo(printable(f"baseline of {entry.scenario}: {entry.run_id}"), err=True)


def _now() -> str:
    from datetime import UTC, datetime

    stamp = datetime.now(UTC)
    return stamp.strftime("%Y-%m-%dT%H:%M:%S.") + f"{stamp.microsecond // 1000:03d}Z"


def _line(entry: Baseline) -> str:
    tag = f"  [{entry.tag}]" if entry.tag else ""
    return printable(
        f"{entry.scenario}  {entry.run_id}  {entry.success_rate * 100:.1f}%  "
        f"{entry.created_at}{tag}"
    )


@baseline.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON array.")
@CONFIG_OPTION
def list_baselines(as_json: bool, config_path: str | None) -> None:
    """List every baseline, newest first."""
    try:
        entries = storage_for(config_path).baselines()
    except ArtemisError as exc:
        _fail(exc.message, 1)
    if as_json:
        click.echo(json.dumps([e.to_dict() for e in entries], indent=2))
    elif not entries:
        click.echo("No baselines set.")
    for entry in [] if as_json else entries:
        click.echo(_line(entry))


def _find(storage: LocalStorage, identifier: str, by_scenario: bool) -> Baseline:
    found: Baseline | None = None
    try:
        if by_scenario:
            found = storage.baseline(identifier)
        else:
            found = next(
                (b for b in storage.baselines() if b.run_id == identifier), None
            )
    except ArtemisError as exc:
        _fail(exc.message, 1)
    if found is None:
        _fail(f"no baseline for {identifier}", 1)
    return found


@baseline.command("get")
@click.argument("identifier")
@click.option(
    "-s",
    "--scenario",
    "by_scenario",
    is_flag=True,
    help="IDENTIFIER is a scenario name, not a run id.",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@CONFIG_OPTION
def get_baseline(
    identifier: str, by_scenario: bool, as_json: bool, config_path: str | None
) -> None:
    """Show the baseline of run IDENTIFIER (or of a scenario with --scenario)."""
    entry = _find(storage_for(config_path), identifier, by_scenario)
    click.echo(json.dumps(entry.to_dict(), indent=2) if as_json else _line(entry))


@baseline.command("remove")
@click.argument("identifier")
@click.option(
    "-s",
    "--scenario",
    "by_scenario",
    is_flag=True,
    help="IDENTIFIER is a scenario name, not a run id.",
)
@click.option("-f", "--force", is_flag=True, help="Do not ask for confirmation.")
@CONFIG_OPTION
def remove_baseline(
    identifier: str, by_scenario: bool, force: bool, config_path: str | None
) -> None:
    """Remove the baseline of run IDENTIFIER (or of a scenario with --scenario)."""
    storage = storage_for(config_path)
    entry = _find(storage, identifier, by_scenario)
    if (
        not force
        and sys.stdin.isatty()
        and not click.confirm(f"Remove the baseline of {entry.scenario}?")
    ):
        _fail("not removed", 1)
    try:
        storage.remove_baseline(entry.scenario)
    except ArtemisError as exc:
        _fail(exc.message, 1)
    click.echo(printable(f"removed the baseline of {entry.scenario}"), err=True)


@click.command("history")
@click.option("-p", "--project", help="Only this project.")
@click.option("-s", "--scenario", help="Only this scenario.")
@click.option(
    "-l",
    "--limit",
    type=click.IntRange(min=1),
    default=20,
    help="At most this many runs (default 20).",
)
@click.option("--show-cost", is_flag=True, help="Add the estimated cost and a total.")
@CONFIG_OPTION
def history(
    project: str | None,
    scenario: str | None,
    limit: int,
    show_cost: bool,
    config_path: str | None,
) -> None:
    """List stored runs, newest first."""
    storage = storage_for(config_path)
    try:
        runs = storage.runs(project=project, scenario=scenario, limit=limit)
    except ArtemisError as exc:
        _fail(exc.message, 1)
    if not runs:
        click.echo("No runs found.")
        return
    click.echo("=== RUN HISTORY ===")
    total = 0.0
    for item in runs:
        fields = [item.run_id, item.scenario, f"{item.success_rate * 100:.1f}%"]
        if show_cost:
            cost = item.estimated_cost_usd
            total += cost or 0
            fields.append(format_cost(cost) if cost is not None else "-")
        fields.append(item.created_at)
        click.echo(printable("  ".join(fields)))
    if show_cost:
        click.echo(f"Total: {format_cost(total)}")


@click.command("compare")
@click.argument("base", metavar="BASELINE", type=PathParam(readable=False))
@click.argument("current", metavar="CURRENT", type=PathParam(readable=False))
@click.option(
    "--threshold",
    type=FiniteFloatRange(0, 1),
    default=0.05,
    help="Regression threshold (default 0.05; 0 means 0).",
)
@click.option(
    "--json",
    "json_path",
    type=PathParam(dir_okay=False),
    help="Write the comparison data (per case) to this new file.",
)
@CONFIG_OPTION
def compare(
    base: str,
    current: str,
    threshold: float,
    json_path: str | None,
    config_path: str | None,
) -> None:
    """Compare two runs (ids or manifest files); exit 1 when CURRENT regressed."""
    storage = storage_for(config_path)
    try:
        check_new_outputs(json_path)
    except ArtemisError as exc:
        _fail(exc.message, 1)
    before, after = load_run(storage, base), load_run(storage, current)
    data = compare_runs(before, after)
    check = baseline_check(before, after, threshold)
    rows = [
        (
            "Success Rate",
            before.metrics.success_rate * 100,
            after.metrics.success_rate * 100,
            "%",
        ),
        (
            "Median Latency",
            before.metrics.median_latency_ms,
            after.metrics.median_latency_ms,
            "ms",
        ),
        ("Total Tokens", before.metrics.total_tokens, after.metrics.total_tokens, ""),
    ]
    click.echo(f"{'metric':<16}{'baseline':>12}{'current':>12}{'delta':>12}")
    for name, old, new, unit in rows:
        click.echo(
            f"{name:<16}{old:>11.1f}{unit or ' '}{new:>11.1f}{unit or ' '}"
            f"{new - old:>+11.1f}{unit or ' '}"
        )
    for row in data["caseComparisons"]:
        if row["changeType"] != "unchanged":
            click.echo(printable(f"{row['changeType']:<10} {row['caseId']}"))
    summary = data["summary"]
    click.echo(
        f"regressed {summary['totalRegressions']}, improved "
        f"{summary['totalImprovements']}, new {summary['casesAdded']}, removed "
        f"{summary['casesRemoved']}, unchanged {summary['totalUnchanged']}"
    )
    if json_path is not None:
        try:
            text = json.dumps(data, indent=2, ensure_ascii=False)
            write_new_file(json_path, text.encode("utf-8"), mode=0o600)
        except ArtemisError as exc:
            _fail(exc.message, 1)
    if check.has_regression:
        click.echo(
            f"REGRESSION: success rate {check.success_rate_delta * 100:+.2f}% "
            f"(threshold {threshold * 100:.2f}%)",
            err=True,
        )
        sys.exit(PromptResponseExitCode.FAILED)
