"""What a suite needs from the facade: one session per run.

Its own module so that the runner and the executors (`_ray`) both name it without
importing each other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import os

    from artemiskit.engine._judge import JudgeSettings
    from artemiskit.engine._session import WorkflowSession
    from artemiskit.providers import SharedTransports
    from artemiskit.providers._replay import ReplayMode
    from artemiskit.records._cassette import Cassette
    from artemiskit.targets import AgentTarget, TargetChoice
    from artemiskit.telemetry import TelemetrySource
    from artemiskit.workflow import Workflow, WorkflowCase

__all__ = ["SessionFactory"]


class SessionFactory(Protocol):
    """What the suite needs from `ArtemisKit`: a session per run.

    Suites sit below the facade in the layers, so they name this protocol
    rather than the facade itself.
    """

    async def create_workflow_session(
        self,
        *,
        workflow: Workflow | WorkflowCase,
        target: AgentTarget | TargetChoice | None,
        fixture_root: str | os.PathLike[str] | None,
        judge: JudgeSettings | str | os.PathLike[str] | None,
        cleanup_timeout_ms: int | None,
        shared_transports: SharedTransports | None,
        repetition: int,
        telemetry: TelemetrySource | None = None,
        record_cassette: str | os.PathLike[str] | bool | None = None,
        replay: str | os.PathLike[str] | Cassette | None = None,
        replay_mode: ReplayMode = "strict",
        replay_until: int | None = None,
    ) -> WorkflowSession:
        """Create one run's session."""
