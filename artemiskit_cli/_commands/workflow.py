"""``akit workflow``: run a workflow and keep its record."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import anyio
import click

from artemiskit import (
    ArtemisError,
    ArtemisKit,
    CheckpointOptions,
    ExitCode,
    FileAccessError,
    TrustedConfig,
    WorkflowResult,
    load_trusted_config,
)
from artemiskit.environments import MAX_CLEANUP_TIMEOUT_MS, SandboxConfig
from artemiskit.providers import load_provider_entry_points
from artemiskit.records import record_to_dict
from artemiskit.suites import transcript_to_dict
from artemiskit_cli._commands.suite import (
    is_suite,
    replay_settings,
    run_suite_command,
    suite_options,
)
from artemiskit_cli._errors import reports_errors
from artemiskit_cli._outputs import (
    check_apart_from_checkpoint,
    check_new_outputs,
    check_not_input,
    refuse_dash,
    write_new_file,
)
from artemiskit_cli._params import PathParam
from artemiskit_cli._render import describe_event, printable, summarize
from artemiskit_cli._signals import run_watching_signals
from artemiskit_cli._targets import AGENT_OPTION, TARGET_OPTION, chosen_targets
from artemiskit_cli._telemetry import telemetry_of
from artemiskit_cli._tools import SCORERS_OPTION, TOOLS_OPTION

if TYPE_CHECKING:
    import signal
    from collections.abc import AsyncIterator

    from artemiskit import Scorer, SessionEvent, Tool
    from artemiskit.targets import TargetChoice

__all__ = ["workflow"]


F = TypeVar("F", bound=Callable[..., Any])

_WORKFLOW_ARGUMENT = click.argument(
    "workflow_file", metavar="WORKFLOW", type=PathParam(readable=False, dir_okay=False)
)
_CONFIG = click.option(
    "--config",
    "config_path",
    type=PathParam(readable=False, dir_okay=False),
    help="Trusted configuration (artemis.config.yaml); optional for `scripted`.",
)
_OUTPUT = click.option(
    "--output",
    type=PathParam(readable=False, dir_okay=False),
    help="Write the execution record here (a new path).",
)
_JSON = click.option(
    "--json", "as_json", is_flag=True, help="Print the record to stdout."
)
_STATE_OUTPUT = click.option(
    "--state-output",
    type=PathParam(readable=False, dir_okay=False),
    help="Write the final state here, mode 0600 (sensitive working data).",
)
_FIXTURE_ROOT = click.option(
    "--fixture-root",
    type=PathParam(readable=False, file_okay=False),
    help="Where fixtures and scripts resolve (default: the workflow's folder).",
)
_CLEANUP_TIMEOUT = click.option(
    "--cleanup-timeout",
    type=click.IntRange(1, MAX_CLEANUP_TIMEOUT_MS),
    help="Cleanup drain period in ms (default 1000 simulated / 6000 sandbox).",
)
_PREFLIGHT = click.option(
    "--preflight",
    is_flag=True,
    help="Probe the target's tool round trip first; run only if it succeeds "
    "(on resume: give it if the original run had it; it is not repeated).",
)
_JUDGE_CONFIG = click.option(
    "--judge-config",
    type=PathParam(readable=False, dir_okay=False),
    help="Judge configuration for `judge` outcomes (never implicit).",
)
_PAUSE_AFTER_ACTIONS = click.option(
    "--pause-after-actions",
    type=click.IntRange(1),
    help="Pause at the first safe boundary after N actions of this attempt "
    "(needs a checkpoint directory).",
)


_OTEL = click.option(
    "--otel",
    is_flag=True,
    help="Export the run as an OpenTelemetry trace to the configuration's "
    "`telemetry:` collector (needs artemiskit[otel]; metadata only).",
)


_RECORD_CASSETTE = click.option(
    "--record-cassette",
    type=PathParam(readable=False, dir_okay=False),
    help="Single run: keep every model exchange in this new cassette, mode 0600 "
    "(sensitive; on resume, the paused run's cassette, continued).",
)
_REPLAY = click.option(
    "--replay",
    type=PathParam(readable=False),
    help="Answer model requests from this cassette (suite mode: a folder of "
    "cassettes); tools still run for real.",
)
_REPLAY_MODE = click.option(
    "--replay-mode",
    type=click.Choice(["strict", "lenient"]),
    help="With --replay: stop at the first request that differs (strict, the "
    "default) or check only positions (lenient).",
)
_REPLAY_UNTIL = click.option(
    "--replay-until",
    type=click.IntRange(0),
    metavar="K",
    help="With --replay: replay K model responses, then continue live (a fork).",
)


_PATHS_ARGUMENT = click.argument(
    "paths", metavar="PATH...", nargs=-1, required=True, type=PathParam(readable=False)
)


def _execution_options(command: F, argument: Any = _WORKFLOW_ARGUMENT) -> F:
    """The options `run` and `resume` share, in help order."""
    for option in reversed(
        [
            argument,
            _CONFIG,
            _OUTPUT,
            _JSON,
            _STATE_OUTPUT,
            _FIXTURE_ROOT,
            _CLEANUP_TIMEOUT,
            _PREFLIGHT,
            _JUDGE_CONFIG,
            _PAUSE_AFTER_ACTIONS,
            TOOLS_OPTION,
            SCORERS_OPTION,
            _OTEL,
            _RECORD_CASSETTE,
            _REPLAY,
            _REPLAY_MODE,
            _REPLAY_UNTIL,
        ]
    ):
        command = option(command)
    return command


@click.group()
def workflow() -> None:
    """Run workflows against a target and keep metadata-only evidence."""


async def _report_progress(events: AsyncIterator[SessionEvent]) -> None:
    async for event in events:
        line = describe_event(event)
        if line:
            click.echo(line, err=True)


async def _run(
    workflow_file: str,
    *,
    config: str | TrustedConfig | None,
    fixture_root: str | None,
    cleanup_timeout: int | None,
    preflight: bool | Literal["only"] = False,
    judge_config: str | None = None,
    checkpoint: CheckpointOptions | None = None,
    pause_after_actions: int | None = None,
    tools: tuple[Tool, ...] = (),
    scorers: tuple[Scorer, ...] | None = None,
    otel: bool = False,
    target: TargetChoice | None = None,
    case: str | None = None,
    cassettes: dict[str, Any] | None = None,
) -> tuple[WorkflowResult, SandboxConfig]:
    """Run the session, reporting progress; the result and the sandbox settings.

    Provider types installed under the ``artemiskit.providers`` entry-point group
    are registered first, so a configuration entry may name them.
    """
    load_provider_entry_points()
    trusted = (
        config
        if config is None or isinstance(config, TrustedConfig)
        else await load_trusted_config(config)
    )
    if trusted is not None and not isinstance(config, TrustedConfig):
        for notice in trusted.notices:
            click.echo(printable(f"notice: {trusted.source}: {notice}"), err=True)
    kit = ArtemisKit(config=trusted, tools=tools, scorers=scorers or ())
    telemetry = telemetry_of(trusted) if otel else None
    session = await kit.create_workflow_session(
        workflow=workflow_file,
        target=target,
        fixture_root=fixture_root,
        cleanup_timeout_ms=cleanup_timeout,
        preflight=preflight,
        judge=judge_config,
        checkpoint=checkpoint,
        pause_after_actions=pause_after_actions,
        telemetry=telemetry,
        case=case,
        **(cassettes or {}),
    )
    error: ArtemisError | None = None

    def cancel(signum: signal.Signals) -> bool:
        click.echo(f"received {signum.name}: cancelling, then cleaning up", err=True)
        session.cancel()
        return True

    async with anyio.create_task_group() as group:
        group.start_soon(_report_progress, session.events())
        try:
            result = await run_watching_signals(group, session.run, cancel)
        except ArtemisError as exc:
            error = exc
    if error is not None:
        raise error
    return result, SandboxConfig() if trusted is None else trusted.sandbox


@workflow.command("run")
@functools.partial(_execution_options, argument=_PATHS_ARGUMENT)
@click.option(
    "--checkpoint-dir",
    type=PathParam(readable=False, file_okay=False),
    help="Checkpoint into this private directory (explicit; sensitive data).",
)
@TARGET_OPTION
@AGENT_OPTION
@click.option(
    "--case",
    "cases",
    multiple=True,
    metavar="ID",
    help="A workflow with cases: run only this case (repeatable in suite mode; "
    "one without --output-dir is a single run of it).",
)
@suite_options
@reports_errors
def run(
    paths: tuple[str, ...],
    config_path: str | None,
    output: str | None,
    as_json: bool,
    state_output: str | None,
    fixture_root: str | None,
    cleanup_timeout: int | None,
    preflight: bool,
    judge_config: str | None,
    checkpoint_dir: str | None,
    pause_after_actions: int | None,
    tools: tuple[Tool, ...],
    scorers: tuple[Scorer, ...] | None,
    otel: bool,
    record_cassette: str | None,
    replay: str | None,
    replay_mode: str | None,
    replay_until: int | None,
    transcript_output: str | None,
    targets: tuple[TargetChoice, ...],
    agents: tuple[TargetChoice, ...],
    cases: tuple[str, ...],
    **suite: Any,
) -> None:
    """Run a workflow once in a fresh environment; the exit code says what happened.

    With several PATHs, a folder, --output-dir, or several targets, run a suite
    (docs/suites.md); --target/--agent replace the workflow's own target.
    """
    chosen = chosen_targets(targets, agents)
    if is_suite(paths, suite) or len(chosen) > 1:
        options = dict(locals())
        options.update(options.pop("suite"))
        run_suite_command(paths, options)
    (workflow_file,) = paths
    if len(cases) > 1:
        raise click.UsageError(
            "several --case need suite mode (--output-dir); a single run runs one case"
        )
    if pause_after_actions is not None and checkpoint_dir is None:
        raise click.UsageError("--pause-after-actions needs --checkpoint-dir")
    cassettes = replay_settings(locals())
    checkpoint = None
    if checkpoint_dir is not None:
        refuse_dash(checkpoint_dir)
        check_apart_from_checkpoint(
            checkpoint_dir, output, state_output, transcript_output, record_cassette
        )
        checkpoint = CheckpointOptions(directory=checkpoint_dir, mode="create")
    check_new_outputs(output, state_output, transcript_output, record_cassette)
    if record_cassette is not None:
        check_not_input(record_cassette, replay)
        cassettes["record_cassette"] = record_cassette
    result, sandbox = anyio.run(
        lambda: _run(
            workflow_file,
            config=config_path,
            fixture_root=fixture_root,
            cleanup_timeout=cleanup_timeout,
            preflight=preflight,
            judge_config=judge_config,
            checkpoint=checkpoint,
            pause_after_actions=pause_after_actions,
            tools=tools,
            scorers=scorers,
            otel=otel,
            target=chosen[0] if chosen else None,
            case=cases[0] if cases else None,
            cassettes=cassettes,
        )
    )
    _emit(
        result,
        sandbox,
        output=output,
        as_json=as_json,
        state_output=state_output,
        transcript_output=transcript_output,
    )


def _emit(
    result: WorkflowResult,
    sandbox: SandboxConfig,
    *,
    output: str | None,
    as_json: bool,
    state_output: str | None = None,
    transcript_output: str | None = None,
) -> None:
    """Write the record (and state, transcript) where asked, summarize, and exit."""
    record = record_to_dict(result.record)
    encoded = json.dumps(record, indent=2, sort_keys=True).encode("utf-8") + b"\n"
    if output is not None:
        write_new_file(output, encoded)
    code = result.record.exit_code
    state_failure: str | None = None
    if state_output is not None:
        if result.state is None:
            state_failure = "no final snapshot exists"
            if code == ExitCode.OK:
                code = ExitCode.FILE_OR_CONFIGURATION
        else:
            state = json.dumps(result.state, indent=2, ensure_ascii=False)
            try:
                write_new_file(state_output, state.encode("utf-8") + b"\n", mode=0o600)
            except FileAccessError as exc:
                state_failure = str(exc)
                code = exc.exit_code
    if transcript_output is not None:
        transcript = json.dumps(
            transcript_to_dict(result), indent=2, ensure_ascii=False
        ).encode("utf-8")
        try:
            write_new_file(transcript_output, transcript + b"\n", mode=0o600)
        except FileAccessError as exc:
            click.echo(
                f"error: the transcript export failed: {printable(exc.message)}",
                err=True,
            )
            code = exc.exit_code
    if as_json:
        click.echo(encoded.decode("utf-8"), nl=False)
    click.echo(summarize(result.record, result.failure, sandbox=sandbox), err=True)
    if state_failure is not None:
        message = (
            f"error: the requested state export failed: {printable(state_failure)}"
        )
        click.echo(message, err=True)
    sys.exit(code)


@workflow.command("preflight")
@_WORKFLOW_ARGUMENT
@_CONFIG
@_OUTPUT
@_JSON
@_FIXTURE_ROOT
@TOOLS_OPTION
@SCORERS_OPTION
@reports_errors
def preflight(
    workflow_file: str,
    config_path: str | None,
    output: str | None,
    as_json: bool,
    fixture_root: str | None,
    tools: tuple[Tool, ...],
    scorers: tuple[Scorer, ...] | None,
) -> None:
    """Probe WORKFLOW's target only: exit 0 on a tool round trip, else 3."""
    check_new_outputs(output)
    result, sandbox = anyio.run(
        lambda: _run(
            workflow_file,
            config=config_path,
            fixture_root=fixture_root,
            cleanup_timeout=None,
            preflight="only",
            tools=tools,
            scorers=scorers,
        )
    )
    _emit(result, sandbox, output=output, as_json=as_json)


@workflow.command("resume")
@_execution_options
@click.option(
    "--checkpoint-dir",
    required=True,
    type=PathParam(readable=False, file_okay=False),
    help="The directory of the paused run's checkpoint.",
)
@TARGET_OPTION
@reports_errors
def resume(
    workflow_file: str,
    checkpoint_dir: str,
    config_path: str | None,
    output: str | None,
    as_json: bool,
    state_output: str | None,
    fixture_root: str | None,
    cleanup_timeout: int | None,
    preflight: bool,
    judge_config: str | None,
    pause_after_actions: int | None,
    tools: tuple[Tool, ...],
    scorers: tuple[Scorer, ...] | None,
    otel: bool,
    targets: tuple[TargetChoice, ...],
    record_cassette: str | None,
    replay: str | None,
    replay_mode: str | None,
    replay_until: int | None,
) -> None:
    """Continue the paused run in --checkpoint-dir: same run, new attempt.

    A run made with --target resumes only with the same --target: a paused run
    never continues on another model.
    """
    if len(targets) > 1:
        raise click.UsageError("--target: a run resumes on one target")
    cassettes = replay_settings(locals())
    check_apart_from_checkpoint(checkpoint_dir, output, state_output, record_cassette)
    check_new_outputs(output, state_output)
    if record_cassette is not None:
        # the paused run's cassette, continued: not a new output
        check_not_input(record_cassette, replay)
        cassettes["record_cassette"] = record_cassette
    result, sandbox = anyio.run(
        lambda: _run(
            workflow_file,
            config=config_path,
            fixture_root=fixture_root,
            cleanup_timeout=cleanup_timeout,
            preflight=preflight,
            judge_config=judge_config,
            checkpoint=CheckpointOptions(directory=checkpoint_dir, mode="resume"),
            pause_after_actions=pause_after_actions,
            tools=tools,
            scorers=scorers,
            otel=otel,
            target=targets[0] if targets else None,
            cassettes=cassettes,
        )
    )
    _emit(
        result,
        sandbox,
        output=output,
        as_json=as_json,
        state_output=state_output,
    )
