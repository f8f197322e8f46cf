"""Suite mode of ``akit workflow run``: many workflows, repetitions, pass rates.

``akit workflow run PATH... --output-dir DIR`` lands here (SPEC 13). Progress goes
to stderr: a live display on a terminal (``rich``, imported only here and only
then), one line per finished run when piped, nothing but errors with ``--quiet``.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import anyio
import click

from artemiskit import (
    ArtemisError,
    ArtemisKit,
    ExitCode,
    FileAccessError,
    load_trusted_config,
)
from artemiskit.records import SuiteRecord, suite_record_to_dict
from artemiskit.suites import (
    EXECUTOR_NAMES,
    SuiteEvent,
    SuiteResult,
    SuiteSession,
    executor_named,
    junit_xml,
    markdown_summary,
)
from artemiskit_cli._outputs import check_new_outputs, refuse_dash, write_new_file
from artemiskit_cli._params import FiniteFloatRange, PathParam
from artemiskit_cli._render import printable
from artemiskit_cli._signals import run_watching_signals
from artemiskit_cli._telemetry import telemetry_of

if TYPE_CHECKING:
    import signal
    from collections.abc import AsyncIterator


__all__ = [
    "SUITE_OPTIONS",
    "is_suite",
    "replay_settings",
    "run_suite_command",
    "suite_options",
]

F = TypeVar("F", bound=Callable[..., Any])

SUITE_OPTIONS = (
    "output_dir",
    "repeat",
    "concurrency",
    "min_pass_rate",
    "max_errored",
    "gate",
    "fail_fast",
    "max_suite_tokens",
    "transcripts",
    "record_cassettes",
    "junit",
    "markdown",
    "quiet",
    "executor",
    "ray_address",
    "sample",
    "seed",
)


def suite_options(command: F) -> F:
    """The options of suite mode (and ``--transcript-output``), in help order."""
    options = [
        click.option(
            "--transcript-output",
            type=PathParam(readable=False, dir_okay=False),
            help="Single run: write the conversation here, mode 0600 (sensitive).",
        ),
        click.option(
            "--output-dir",
            type=PathParam(readable=False, file_okay=False),
            help="Suite mode: a new or empty folder for suite.json and the records.",
        ),
        click.option(
            "--repeat",
            type=click.IntRange(1, 10_000),
            help="Suite mode: runs per workflow (default 1).",
        ),
        click.option(
            "--concurrency",
            type=click.IntRange(1, 1_000),
            help="Suite mode: runs in flight at most (default 4; with --executor "
            "processes, the number of cores).",
        ),
        click.option(
            "--min-pass-rate",
            type=FiniteFloatRange(0, 1),
            help="Suite mode: exit 8 when a workflow's pass rate is below (default 1).",
        ),
        click.option(
            "--gate",
            type=click.Choice(["point", "lower-bound"]),
            help="Suite mode: what --min-pass-rate judges: the pass rate (point, "
            "the default) or its 95% interval's lower bound (lower-bound).",
        ),
        click.option(
            "--max-errored",
            type=click.IntRange(0),
            help="Suite mode: errored runs (lost ones included) tolerated before "
            "exit 7 (default 0).",
        ),
        click.option(
            "--fail-fast",
            is_flag=True,
            default=None,
            help="Suite mode: start no run after the first that did not pass.",
        ),
        click.option(
            "--max-suite-tokens",
            type=click.IntRange(1),
            help="Suite mode: start no run once measured tokens reach T (or usage "
            "was unmeasured).",
        ),
        click.option(
            "--transcripts",
            is_flag=True,
            default=None,
            help="Suite mode: keep every conversation under DIR/transcripts "
            "(0600 files, 0700 folders; sensitive).",
        ),
        click.option(
            "--record-cassettes",
            type=PathParam(readable=False, file_okay=False),
            help="Suite mode: keep every run's model exchanges as a cassette in "
            "this new or empty folder, laid out like runs/ (0600 files, 0700 "
            "folders; sensitive).",
        ),
        click.option(
            "--junit",
            type=PathParam(readable=False, dir_okay=False),
            help="Suite mode: write a JUnit XML report here.",
        ),
        click.option(
            "--markdown",
            type=PathParam(readable=False, dir_okay=False),
            help="Suite mode: write a Markdown summary here.",
        ),
        click.option(
            "--quiet",
            is_flag=True,
            default=None,
            help="Suite mode: print only errors.",
        ),
        click.option(
            "--executor",
            type=click.Choice(EXECUTOR_NAMES),
            help="Suite mode: where runs execute: in this process (local, the "
            "default), in a pool of worker processes, one per core (processes), "
            "or on a Ray cluster (ray).",
        ),
        click.option(
            "--sample",
            type=click.IntRange(1),
            metavar="N",
            help="Suite mode: run a random subset of N cases of each workflow "
            "with cases (reproducible with --seed).",
        ),
        click.option(
            "--seed",
            type=int,
            metavar="S",
            help="Suite mode: the seed of --sample (default 0).",
        ),
        click.option(
            "--ray-address",
            help="Suite mode with --executor ray: the cluster's HOST:PORT "
            "(default: the cluster started on this machine).",
        ),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def replay_settings(options: dict[str, Any]) -> dict[str, Any]:
    """The SDK's replay keywords from the parsed command line.

    Raises:
        click.UsageError: ``--replay-mode`` or ``--replay-until`` without
            ``--replay``.
    """
    if options.get("replay") is None:
        for name in ("replay_mode", "replay_until"):
            if options.get(name) is not None:
                flag = "--" + name.replace("_", "-")
                raise click.UsageError(f"{flag} needs --replay")
        return {}
    return {
        "replay": options["replay"],
        "replay_mode": options.get("replay_mode") or "strict",
        "replay_until": options.get("replay_until"),
    }


def is_suite(paths: tuple[str, ...], given: dict[str, Any]) -> bool:
    """Whether the command line asks for suite mode rather than one run."""
    if any(given.get(name) is not None for name in SUITE_OPTIONS):
        return True
    return len(paths) != 1 or Path(paths[0]).is_dir()


def _percent(value: float | None) -> str:
    return "n/a" if value is None else f"{value * 100:.0f}%"


#: The live table's column of each verdict.
_COLUMNS = {"passed": 0, "failed": 1, "errored": 2, "unavailable": 3}


class _Progress:
    """Counts finished runs for the progress lines and the live display."""

    def __init__(self, session: SuiteSession) -> None:
        self.planned = session.planned
        self.names = session.workflow_names
        self.matrix = session.matrix
        self.finished = 0
        self.passed = 0
        self.failed = 0
        self.errored = 0
        self.unavailable = 0
        self.tokens: int | None = 0
        self.rows: dict[str, list[int]] = {name: [0, 0, 0, 0] for name in self.names}
        self.started = time.monotonic()

    def add(self, event: SuiteEvent) -> None:
        self.finished += 1
        column = _COLUMNS.get(event.verdict or "", 2)
        self.rows[event.workflow or ""][column] += 1
        if event.verdict == "passed":
            self.passed += 1
        elif event.verdict == "failed":
            self.failed += 1
        elif event.verdict == "unavailable":
            self.unavailable += 1
        else:
            self.errored += 1
        if event.input_tokens is None or event.output_tokens is None:
            self.tokens = None
        elif self.tokens is not None:
            self.tokens += event.input_tokens + event.output_tokens

    def line(self, event: SuiteEvent) -> str:
        outcome = event.verdict or "errored"
        if event.verdict != "passed":
            why = "" if event.why is None else f"why: {event.why.text}, "
            outcome += f" ({why}{event.status or 'lost'}, exit {event.exit_code})"
        case = "" if event.case is None else f"[{event.case}]"
        on = f" on {event.target}" if self.matrix and event.target else ""
        return printable(
            f"[{self.finished}/{self.planned}] {event.workflow}{case}{on} "
            f"#{event.repetition:03d}: {outcome}"
        )

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def eta(self) -> str:
        if not self.finished:
            return "?"
        left = self.elapsed() / self.finished * (self.planned - self.finished)
        return f"{left:.0f}s"


async def _piped(events: AsyncIterator[SuiteEvent], progress: _Progress) -> None:
    async for event in events:
        if event.type == "run_finished":
            progress.add(event)
            click.echo(progress.line(event), err=True)


async def _live(events: AsyncIterator[SuiteEvent], progress: _Progress) -> None:
    from rich.console import Console
    from rich.live import Live
    from rich.table import Table
    from rich.text import Text

    def render() -> Table:
        tokens = "unmeasured" if progress.tokens is None else str(progress.tokens)
        table = Table(
            title=(
                f"runs {progress.finished}/{progress.planned}  "
                f"passed {progress.passed}  failed {progress.failed}  "
                f"errored {progress.errored}  "
                f"unavailable {progress.unavailable}  tokens {tokens}  "
                f"elapsed {progress.elapsed():.0f}s  eta {progress.eta()}"
            ),
            title_justify="left",
        )
        for column in (
            "workflow",
            "passed",
            "failed",
            "errored",
            "unavailable",
            "pass rate",
        ):
            table.add_column(column)
        for name, (passed, failed, errored, unavailable) in progress.rows.items():
            judged = passed + failed
            rate = None if judged == 0 else passed / judged
            # A Text is shown as it is: no rich markup (links, styles) in names.
            table.add_row(
                Text(printable(name)),
                str(passed),
                str(failed),
                str(errored),
                str(unavailable),
                _percent(rate),
            )
        return table

    console = Console(stderr=True)
    with Live(render(), console=console, auto_refresh=False) as live:
        async for event in events:
            if event.type == "run_finished":
                progress.add(event)
            live.update(render(), refresh=True)


def _exports_outside(options: dict[str, Any]) -> list[str]:
    """The ``--junit``/``--markdown`` paths outside the output folder.

    They can be checked before the folder is made, so that a refused export
    leaves nothing behind; one inside it only once the folder exists.
    """
    folder = os.path.realpath(options["output_dir"]) + os.sep
    return [
        path
        for path in (options["junit"], options["markdown"])
        if path is not None and not os.path.realpath(path).startswith(folder)
    ]


async def _run(paths: tuple[str, ...], options: dict[str, Any]) -> SuiteResult:
    check_new_outputs(*_exports_outside(options))
    config_path = options["config_path"]
    trusted = None if config_path is None else await load_trusted_config(config_path)
    kit = ArtemisKit(
        config=trusted, tools=options["tools"], scorers=options["scorers"] or ()
    )
    telemetry = telemetry_of(trusted) if options.get("otel") else None
    name = options["executor"] or "local"
    settings = {"address": options["ray_address"]} if name == "ray" else {}
    executor = executor_named(name, **settings)
    concurrency = options["concurrency"]
    if concurrency is None:
        # Processes use every core unless told otherwise.
        concurrency = (os.cpu_count() or 1) if name == "processes" else 4
    session = await kit.create_suite_session(
        executor=executor,
        paths=list(paths),
        output_dir=options["output_dir"],
        repeat=options["repeat"] or 1,
        concurrency=concurrency,
        min_pass_rate=1.0
        if options["min_pass_rate"] is None
        else options["min_pass_rate"],
        max_suite_tokens=options["max_suite_tokens"],
        fail_fast=bool(options["fail_fast"]),
        max_errored=options["max_errored"] or 0,
        gate=options["gate"] or "point",
        targets=list(options.get("chosen") or ()) or None,
        cases=options.get("cases") or None,
        sample=options["sample"],
        seed=options["seed"],
        transcripts=bool(options["transcripts"]),
        record_cassettes=options["record_cassettes"],
        **replay_settings(options),
        judge=options["judge_config"],
        cleanup_timeout_ms=options["cleanup_timeout"],
        telemetry=telemetry,
    )
    check_new_outputs(options["junit"], options["markdown"])
    quiet = bool(options["quiet"])
    error: ArtemisError | None = None
    result: SuiteResult | None = None

    def cancel(signum: signal.Signals) -> bool:
        if not quiet:
            click.echo(
                f"received {signum.name}: cancelling the runs in flight, then "
                "writing suite.json",
                err=True,
            )
        session.cancel()
        return False

    async with anyio.create_task_group() as group:
        if not quiet:
            progress = _Progress(session)
            show = _live if sys.stderr.isatty() else _piped
            # The display ends by itself once the suite closes its event stream.
            group.start_soon(show, session.events(), progress)
        try:
            result = await run_watching_signals(group, session.run, cancel)
        except ArtemisError as exc:
            error = exc
    if error is not None:
        raise error
    assert result is not None
    return result


#: How many causes the summary lists per workflow, most frequent first.
_CAUSES_SHOWN = 3


def suite_summary_lines(
    summary: SuiteRecord, output_dir: str | None = None
) -> list[str]:
    """The suite's closing summary lines (SPEC 21), metadata only.

    The verdict counts, then per workflow its pass rate with its 95% interval,
    its errored and unavailable runs (and the range they leave open), its most
    frequent causes, and the ``akit report`` command that opens the details.
    Names are in bold: `click.echo` drops the styles when stderr is not a
    terminal, so piped output holds no escape sequence.
    """
    totals = summary.totals
    lines = [
        f"suite {summary.status}: {totals.passed} passed, "
        f"{totals.failed} failed, {totals.errored} errored, "
        f"{totals.unavailable} unavailable of {totals.runs_finished} "
        f"finished ({totals.runs_planned} planned)"
    ]
    for workflow in summary.workflows:
        line = (
            f"  {click.style(printable(workflow.name), bold=True)}: "
            f"pass rate {_percent(workflow.pass_rate)} "
            f"({workflow.passed}/{workflow.passed + workflow.failed})"
        )
        interval = workflow.pass_rate_interval
        if interval is not None:
            line += f", 95% interval {_percent(interval.low)}–{_percent(interval.high)}"
        line += f", {workflow.errored} errored, {workflow.unavailable} unavailable"
        spread = workflow.pass_rate_range
        if spread is not None and (workflow.errored or workflow.unavailable):
            line += f": range {_percent(spread.low)}–{_percent(spread.high)}"
        lines.append(line)
        lines += _unit_lines(summary, workflow.name)
        causes = workflow.causes
        for cause in causes[:_CAUSES_SHOWN]:
            lines.append(f"    why: {printable(cause.text)} × {cause.runs}")
        if len(causes) > _CAUSES_SHOWN:
            lines.append(f"    ({len(causes) - _CAUSES_SHOWN} more causes)")
    if output_dir is not None:
        page = os.path.join(output_dir, "report.html")
        command = f"akit report {shlex.quote(output_dir)} --html {shlex.quote(page)}"
        lines.append(f"details: {click.style(printable(command), bold=True)}")
    return lines


def _unit_lines(summary: SuiteRecord, workflow: str) -> list[str]:
    """With several targets, the workflow's runs on each target, a line each."""
    counts: dict[str, list[int]] = {}
    for unit in summary.units:
        if unit.workflow == workflow:
            tally = counts.setdefault(unit.target, [0, 0])
            tally[0] += unit.passed
            tally[1] += unit.failed
    if len(counts) < 2:
        return []
    return [
        f"    on {printable(target)}: pass rate "
        f"{_percent(None if passed + failed == 0 else passed / (passed + failed))} "
        f"({passed}/{passed + failed})"
        for target, (passed, failed) in counts.items()
    ]


def run_suite_command(paths: tuple[str, ...], options: dict[str, Any]) -> None:
    """Run a suite from the command line and exit with its SPEC 13 code.

    Args:
        paths: Workflow files and folders.
        options: The parsed options of ``akit workflow run``.
    """
    if options["output_dir"] is None:
        raise click.UsageError(
            "suite mode (several paths, a folder, or a suite option) needs "
            "--output-dir DIR"
        )
    single = [
        name
        for name in (
            "output",
            "state_output",
            "transcript_output",
            "record_cassette",
            "checkpoint_dir",
            "pause_after_actions",
            "fixture_root",
        )
        if options.get(name) is not None
    ]
    if options.get("preflight"):
        single.append("preflight")
    if options["executor"] == "ray" and options.get("checkpoint_dir") is not None:
        raise click.UsageError(
            "--checkpoint-dir: checkpointing is refused under the Ray executor"
        )
    if options["executor"] == "processes" and options.get("checkpoint_dir"):
        raise click.UsageError(
            "--checkpoint-dir: checkpointing is refused under the processes executor"
        )
    if single:
        flags = ", ".join("--" + name.replace("_", "-") for name in single)
        raise click.UsageError(f"{flags}: single-run options, not for a suite")
    if options["ray_address"] is not None and options["executor"] != "ray":
        raise click.UsageError("--ray-address needs --executor ray")
    for name in ("output_dir", "record_cassettes", "junit", "markdown"):
        refuse_dash(options[name])  # before the output folder is made
    result = anyio.run(_run, paths, options)
    summary = result.record
    code = result.exit_code
    try:
        if options["junit"] is not None:
            write_new_file(options["junit"], junit_xml(result).encode("utf-8"))
        if options["markdown"] is not None:
            text = markdown_summary(summary)
            write_new_file(options["markdown"], text.encode("utf-8"))
    except FileAccessError as exc:
        click.echo(f"error: {printable(exc.message)}", err=True)
        code = code if code == ExitCode.CANCELLED else exc.exit_code
    if options["as_json"]:
        click.echo(json.dumps(suite_record_to_dict(summary), indent=2))
    if not options["quiet"]:
        for line in suite_summary_lines(summary, options["output_dir"]):
            click.echo(line, err=True)
        click.echo(f"exit code: {code}", err=True)
    sys.exit(code)
