"""`SessionPlan`: everything one session is made of, checked once, handed down.

The front door (`ArtemisKit`, `create_agent_workflow_session`) composes a plan from
its options, configuration and registries; `SessionPlan.check` refuses a plan that
cannot run before anything is built on it; the session and its driver take the plan
as it is and seed their own state from it. No layer repeats the list of what a
session needs.
"""

from __future__ import annotations

from typing import Literal

import attrs

from artemiskit._errors import SessionStateError, WorkflowError
from artemiskit.checkpoints._store import CheckpointStore
from artemiskit.engine._cassette_port import CassettePort
from artemiskit.engine._judge import JudgeSettings
from artemiskit.engine._ledger import MAX_LEDGER
from artemiskit.engine._preflight import PreflightMode
from artemiskit.engine._scorer_set import NO_SCORERS, ScorerSet
from artemiskit.environments._base import (
    MAX_CLEANUP_TIMEOUT_MS,
    EnvironmentFactory,
    cleanup_bound_ms,
)
from artemiskit.records._record import CaseInfo, TargetInfo
from artemiskit.targets._identity import AGENT_PROVIDER
from artemiskit.targets._protocol import AgentTarget
from artemiskit.telemetry._protocol import RunTelemetry
from artemiskit.tools._catalogue import BUILTIN_CATALOGUE, Catalogue
from artemiskit.tools._mcp_tools import McpToolSet
from artemiskit.workflow._model import ScorerOutcome, Workflow

__all__ = ["SessionPlan", "check_cleanup_timeout"]


@attrs.frozen(kw_only=True, repr=False)
class SessionPlan:
    """What one session runs, on what, under which options (sensitive: no repr).

    Attributes:
        workflow: The validated workflow.
        target: The agent the engine drives (already wrapped by cassettes).
        target_info: Who the record names as the target.
        environment: The factory of the run's fresh environment.
        catalogue: The tools the workflow may declare.
        scorers: The scorers ``scorer`` outcomes may name.
        fixture_root: Where ``environment.fixture`` resolves.
        cleanup_timeout_ms: The drain period asked for (``None``: the
            environment's default); see `cleanup_bound_ms`.
        preflight: Whether and how the target is probed first.
        judge: The judge of ``judge`` outcomes, if one is configured.
        checkpoint_store: Where to checkpoint, if anywhere.
        checkpoint_mode: ``create`` a checkpoint or ``resume`` a paused one.
        configuration_id: The host configuration a checkpoint binds to.
        pause_after_actions: Pause after this many actions of this attempt.
        target_label: How failure messages name the target (default: from
            ``target_info``); see `failure_label`.
        ledger_limit: How many operations the ledger keeps.
        telemetry: This run's telemetry export, if any.
        owns_target: Whether the session closes ``target`` (built for it).
        owns_judge: Whether the session closes the judge's target.
        mcp: The run's MCP tools, if it declares any.
        case: The case of a workflow with cases the run is.
        cassette: The run's cassettes, when it records or replays.
    """

    workflow: Workflow
    target: AgentTarget
    target_info: TargetInfo
    environment: EnvironmentFactory
    catalogue: Catalogue = BUILTIN_CATALOGUE
    scorers: ScorerSet = NO_SCORERS
    fixture_root: str | None = None
    cleanup_timeout_ms: int | None = None
    preflight: PreflightMode = "off"
    judge: JudgeSettings | None = None
    checkpoint_store: CheckpointStore | None = None
    checkpoint_mode: Literal["create", "resume"] = "create"
    configuration_id: str | None = None
    pause_after_actions: int | None = None
    target_label: str | None = None
    ledger_limit: int = MAX_LEDGER
    telemetry: RunTelemetry | None = None
    owns_target: bool = False
    owns_judge: bool = False
    mcp: McpToolSet | None = None
    case: CaseInfo | None = None
    cassette: CassettePort | None = None

    def __repr__(self) -> str:
        """The workflow's name only: never the target, state or options."""
        return f"SessionPlan(workflow={self.workflow.name!r})"

    @property
    def cleanup_bound_ms(self) -> int:
        """The drain period the run uses (`cleanup_bound_ms` of the environment)."""
        return cleanup_bound_ms(
            self.cleanup_timeout_ms, self.environment.default_cleanup_timeout_ms
        )

    @property
    def failure_label(self) -> str:
        """How failure messages name the target."""
        if self.target_label:
            return self.target_label
        info = self.target_info
        if info.provider == AGENT_PROVIDER:
            return f"agent {info.model!r}"
        return f"provider {info.provider!r}, model {info.model!r}"

    def check(self) -> None:
        """Refuse a plan that cannot run, before anything is built on it.

        Raises:
            WorkflowError: The workflow references a fixture and no root was
                given, the cleanup timeout or ledger limit is out of range, it
                declares a tool that is neither built in nor in the catalogue,
                or a ``scorer`` outcome names no registered scorer or breaks
                its ``params_schema``.
            SessionStateError: A checkpoint store without a configuration id
                (``configuration_id_required``).
        """
        workflow = self.workflow
        if workflow.environment.fixture is not None and self.fixture_root is None:
            raise WorkflowError(
                "the workflow references environment.fixture, so a fixture_root is "
                "required",
                reason="fixture_root_required",
            )
        if self.checkpoint_store is not None and self.configuration_id is None:
            raise SessionStateError(
                "checkpointing needs an explicit configuration_id: the engine cannot "
                "look inside the target, so a resume under another target could not "
                "be told apart",
                reason="configuration_id_required",
            )
        check_cleanup_timeout(self.cleanup_timeout_ms)
        limit = self.ledger_limit
        if isinstance(limit, bool) or not (
            isinstance(limit, int) and 1 <= limit <= MAX_LEDGER
        ):
            raise WorkflowError(
                f"ledger_limit must be between 1 and {MAX_LEDGER}",
                reason="invalid_option",
            )
        unknown = [
            tool.name
            for tool in workflow.tools
            if tool.mcp is None and tool.name not in self.catalogue
        ]
        if unknown:
            raise WorkflowError(
                "the workflow declares tools that are neither built in nor "
                f"registered: {', '.join(unknown)} (register them with tools=[...] "
                "or --tools MODULE:ATTR)",
                reason="unknown_tool",
            )
        _check_scorers(workflow, self.scorers)


def check_cleanup_timeout(cleanup_timeout_ms: int | None) -> None:
    """Refuse a cleanup drain period outside 1 ms .. `MAX_CLEANUP_TIMEOUT_MS`.

    Raises:
        WorkflowError: It is out of range (``invalid_option``).
    """
    if cleanup_timeout_ms is not None and not (
        1 <= cleanup_timeout_ms <= MAX_CLEANUP_TIMEOUT_MS
    ):
        raise WorkflowError(
            f"cleanup_timeout_ms must be between 1 and {MAX_CLEANUP_TIMEOUT_MS}",
            reason="invalid_option",
        )


def _check_scorers(workflow: Workflow, scorers: ScorerSet) -> None:
    """Refuse ``scorer`` outcomes naming no registered scorer or breaking its schema.

    A workflow loaded without scorers had them unchecked; a session must check.
    """
    for outcome in workflow.outcomes:
        if not isinstance(outcome, ScorerOutcome):
            continue
        scorer = scorers.get(outcome.scorer)
        if scorer is None:
            raise WorkflowError(
                f"outcome {outcome.id!r} names a scorer that is not registered: "
                f"{outcome.scorer!r} (register it with scorers=[...] or --scorers "
                "MODULE:ATTR)",
                reason="unknown_scorer",
            )
        try:
            scorer.params_validator(outcome.params)
        except Exception:  # fastjsonschema's error: the schema's rule, not data
            raise WorkflowError(
                f"outcome {outcome.id!r}: with does not satisfy the params_schema "
                f"of scorer {outcome.scorer!r}",
                reason="invalid_scorer_params",
            ) from None
