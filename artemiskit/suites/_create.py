"""Building a suite session: everything is checked before anything runs."""

from __future__ import annotations

import functools
import os
from typing import TYPE_CHECKING

import anyio
import anyio.to_thread
import attrs

from artemiskit._errors import WorkflowError
from artemiskit.providers._judge_config import load_judge_config
from artemiskit.suites._cassettes import prepare_suite_cassettes
from artemiskit.suites._discovery import load_suite_workflows
from artemiskit.suites._executor import LocalExecutor, executor_named
from artemiskit.suites._layout import check_output_dir
from artemiskit.suites._runner import SuiteSession, SuiteSettings, prepare_output_dir
from artemiskit.suites._shipping import named_files, worker_config
from artemiskit.suites._targets import plan_targets

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from artemiskit.engine._judge import JudgeSettings
    from artemiskit.engine._scorer_set import ScorerSet
    from artemiskit.providers._config import TrustedConfig
    from artemiskit.providers._replay import ReplayMode
    from artemiskit.suites._executor import SuiteExecutor
    from artemiskit.suites._factory import SessionFactory
    from artemiskit.targets import TargetChoice
    from artemiskit.telemetry._telemetry import Telemetry
    from artemiskit.tools._catalogue import Catalogue

__all__ = ["create_suite_session"]


async def create_suite_session(
    kit: SessionFactory,
    config: TrustedConfig,
    paths: Sequence[str | os.PathLike[str]],
    *,
    settings: SuiteSettings,
    output_dir: str | os.PathLike[str] | None,
    executor: SuiteExecutor | str | None,
    judge: JudgeSettings | str | os.PathLike[str] | None,
    cleanup_timeout_ms: int | None,
    telemetry: Telemetry | None = None,
    tools: Catalogue | None = None,
    scorers: ScorerSet | None = None,
    remote_kit: Callable[[Callable[[], TrustedConfig]], SessionFactory] | None = None,
    targets: Sequence[TargetChoice] = (),
    record_cassettes: str | os.PathLike[str] | None = None,
    replay: str | os.PathLike[str] | None = None,
    replay_mode: ReplayMode = "strict",
    replay_until: int | None = None,
) -> SuiteSession:
    """Check every workflow, script, fixture and the judge, then prepare the output.

    Workflows are checked against ``tools`` (the kit's catalogue) and
    ``scorers`` (the kit's scorers), the same every run uses. ``executor`` is
    an executor or its name (``local``, ``processes``, ``ray``). Under an
    executor that runs runs out of this process, ``remote_kit`` builds the kit
    on a worker from a configuration without secrets (`worker_config`).
    ``targets`` replace every workflow's own (SPEC 19): every workflow runs on
    each (`plan_targets`).

    Raises:
        WorkflowError: Any workflow, script or fixture is invalid, two share a
            name, or a folder holds none (exit 2; nothing ran).
        WorkflowError: No executor has the name given (``invalid_option``).
        ConfigError: The judge configuration is invalid, or under an executor
            out of this process a used provider entry holds its key inline
            (``inline_key``).
        WorkflowError: A chosen target names an entry the configuration lacks
            (``unknown_target``), or an agent of your own is chosen under an
            executor that runs on other machines (Ray), whose workers cannot
            import it (``agent_not_shippable``); exit 2.
        UnsupportedError: A workflow runs in the sandbox and no Docker Engine
            answers, or the sandbox image is not installed (exit 3; checked
            here, where the runs execute, so that no run starts).
        CassetteError: A cassette to replay is missing, corrupt or another
            run's (exit 2; nothing ran).
        FileAccessError: The output folder (or the cassette folder) exists and
            is not empty, or cannot be created (exit 1).
    """
    if isinstance(paths, str | os.PathLike):
        paths = [paths]
    if executor is None:
        executor = LocalExecutor()
    elif isinstance(executor, str):
        executor = executor_named(executor)
    # a full replay answers every model request from cassettes: no script
    workflows = await load_suite_workflows(
        paths,
        config,
        tools=tools,
        scorers=scorers,
        selection=settings.cases,
        scripts=replay is None or replay_until is not None,
    )
    if executor.placement == "cluster" and any(t.kind == "agent" for t in targets):
        raise WorkflowError(
            "an agent of your own (--agent, targets=) runs on this machine only: "
            f"the {executor.name} executor's workers, on other machines, cannot "
            "import it; use the local or processes executor, or a provider "
            "entry (--target ENTRY:MODEL)",
            reason="agent_not_shippable",
        )
    units = await plan_targets(workflows, targets, config)
    used = {
        unit.item.workflow.target.provider
        for unit in units
        if unit.choice is None or unit.choice.kind == "provider"
    }
    if isinstance(judge, str | os.PathLike):
        judge_config = await load_judge_config(judge)
        if judge_config.provider not in judge_config.providers.providers:
            used.add(judge_config.provider)
    if executor.placement != "cluster" and any(
        item.workflow.environment.kind == "sandbox" for item in workflows
    ):
        await _probe_sandbox_engine(config)
    remote = None
    files: dict[tuple[str, str], dict[str, bytes]] = {}
    if executor.placement != "in_process" and remote_kit is not None:
        # Before anything runs: a used entry with an inline key is refused,
        # and each workflow's files are read once (what every run ships).
        remote = functools.partial(remote_kit, worker_config(config, used))
        for unit in units:
            files[(unit.name, unit.target)] = await anyio.to_thread.run_sync(
                named_files, unit.item, config
            )
    cassettes = await prepare_suite_cassettes(
        units,
        settings.repeat,
        record=None,
        replay=replay,
        mode=replay_mode,
        until=replay_until,
    )
    for given in (output_dir, record_cassettes):
        if given is not None:  # both before either is made
            check_output_dir(given)
    folder = None if output_dir is None else prepare_output_dir(output_dir)
    if record_cassettes is not None:
        recording = await prepare_suite_cassettes(
            units,
            settings.repeat,
            record=record_cassettes,
            replay=None,
            mode=replay_mode,
            until=replay_until,
        )
        assert recording is not None
        cassettes = (
            recording
            if cassettes is None
            else attrs.evolve(cassettes, record=recording.record)
        )
    return SuiteSession(
        kit=kit,
        workflows=workflows,
        targets=units,
        settings=settings,
        output_dir=folder,
        executor=executor,
        judge=judge,
        cleanup_timeout_ms=cleanup_timeout_ms,
        remote_kit=remote,
        remote_files=files,
        telemetry=telemetry,
        mcp_servers=config.mcp_servers,
        cassettes=cassettes,
    )


async def _probe_sandbox_engine(config: TrustedConfig) -> None:
    """Check once that the Docker Engine answers and holds the sandbox image.

    Raises:
        UnsupportedError: It does not (``sandbox_engine_unreachable``,
            ``sandbox_image_missing``), with how to install or start it.
    """
    from artemiskit.environments.sandbox._engine import (
        DEFAULT_SANDBOX_IMAGE,
        open_engine,
    )

    docker = await open_engine(None, config.sandbox.image or DEFAULT_SANDBOX_IMAGE)
    with anyio.CancelScope(shield=True):
        await docker.close()
