"""Building a suite session: everything is checked before anything runs."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from artemiskit.config._judge import load_judge_config
from artemiskit.suites._discovery import load_suite_workflows
from artemiskit.suites._runner import SuiteSession, SuiteSettings, prepare_output_dir

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from artemiskit.config import TrustedConfig
    from artemiskit.engine._judge import JudgeSettings
    from artemiskit.scorers._registry import ScorerSet
    from artemiskit.suites._executor import SuiteExecutor
    from artemiskit.suites._runner import SessionFactory
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
    executor: SuiteExecutor | None,
    judge: JudgeSettings | str | os.PathLike[str] | None,
    cleanup_timeout_ms: int | None,
    telemetry: Telemetry | None = None,
    tools: Catalogue | None = None,
    scorers: ScorerSet | None = None,
    remote_kit: Callable[[], SessionFactory] | None = None,
) -> SuiteSession:
    """Check every workflow, script, fixture and the judge, then prepare the output.

    Workflows are checked against ``tools`` (the kit's catalogue) and
    ``scorers`` (the kit's scorers), the same every run uses.

    Raises:
        WorkflowError: Any workflow, script or fixture is invalid, two share a
            name, or a folder holds none (exit 2; nothing ran).
        ConfigError: The judge configuration is invalid.
        FileAccessError: The output folder exists and is not empty, or cannot
            be created (exit 1).
    """
    if isinstance(paths, str | os.PathLike):
        paths = [paths]
    workflows = await load_suite_workflows(paths, config, tools=tools, scorers=scorers)
    if isinstance(judge, str | os.PathLike):
        await load_judge_config(judge)
    folder = None if output_dir is None else prepare_output_dir(output_dir)
    return SuiteSession(
        kit=kit,
        workflows=workflows,
        settings=settings,
        output_dir=folder,
        executor=executor,
        judge=judge,
        cleanup_timeout_ms=cleanup_timeout_ms,
        remote_kit=remote_kit,
        telemetry=telemetry,
        mcp_servers=config.mcp_servers,
    )
