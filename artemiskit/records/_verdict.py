"""What a run amounts to (SPEC 20): its verdict and the first decisive cause.

One rule, used by the engine for every new record, by the migration of older
records (which derives the status and leaves the cause unrecorded) and by suites:

- ``passed``: verification passed and the run ended cleanly;
- ``failed``: verification failed, or the agent's own conduct stopped the run
  (a policy denial with ``on_denial: stop``, an exhausted budget, the deadline);
- ``errored``: infrastructure ended or spoiled the run (a provider, transport,
  target or environment failure, unmeasured usage under ``max_tokens``, an
  unsupported target, unresolved cleanup, a cancellation);
- ``unavailable``: the run completed (or paused safely) but verification could
  not be decided.

The cause is metadata only: a kind, a requirement id or execution status, a reason
code and the timeline step.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import attrs

from artemiskit._exit_codes import ExitCode

if TYPE_CHECKING:
    from artemiskit.records._verification import TaskVerification

__all__ = [
    "CONDUCT_STOPS",
    "Cause",
    "RunVerdict",
    "VerdictStatus",
    "decide_verdict",
    "lost_run_verdict",
    "verdict_status",
]

VerdictStatus = Literal["passed", "failed", "errored", "unavailable"]

#: Execution statuses that the agent's own conduct causes: a run stopped so failed.
CONDUCT_STOPS = frozenset({"policy_denied", "budget_exhausted", "deadline_exceeded"})

#: Exit codes that mean the run was ended or spoiled from outside the agent.
_ERRORED_EXIT_CODES = frozenset({ExitCode.RUNTIME_FAILURE, ExitCode.CANCELLED})


@attrs.frozen(kw_only=True)
class Cause:
    """The first decisive cause of a run that did not pass (``verdict.why``).

    Attributes:
        kind: ``requirement`` (a declared outcome decided it), ``stop`` (the run
            was stopped: by the agent's conduct, a pause or a cancellation) or
            ``infrastructure`` (a provider, target, environment or cleanup
            failure, or a lost run).
        id: The requirement's id; for a stop or a failure, the execution status
            (``budget_exhausted``, ``runtime_failure``, ...), ``cleanup`` or
            ``run_lost``.
        reason: The reason code.
        step: The number of the last timeline operation when the cause arose;
            ``None`` when it arose after the operations (verification, cleanup)
            or before the first.
    """

    kind: Literal["requirement", "stop", "infrastructure"]
    id: str | None
    reason: str
    step: int | None = None

    @property
    def text(self) -> str:
        """``<id or reason> (<reason code>)``: how every view shows the cause."""
        if self.id is None:
            return self.reason
        return f"{self.id} ({self.reason})"


@attrs.frozen(kw_only=True)
class RunVerdict:
    """What a run amounts to, and why when it did not pass.

    Attributes:
        status: ``passed``, ``failed``, ``errored`` or ``unavailable``.
        why: The first decisive cause; ``None`` for a pass, and for a record
            from before schema version 4 (whose cause was never recorded).
    """

    status: VerdictStatus
    why: Cause | None = None


def verdict_status(
    execution_status: str, exit_code: int, verification: str | None
) -> VerdictStatus:
    """The verdict of a run from its execution status, exit code and verification.

    Args:
        execution_status: The record's ``execution.status``.
        exit_code: The record's SPEC 9 exit code.
        verification: The record's ``task_verification.status`` (``None``: none).
    """
    if execution_status in CONDUCT_STOPS:
        return "failed"
    if exit_code in _ERRORED_EXIT_CODES or execution_status not in (
        "completed",
        "paused",
    ):
        return "errored"
    if execution_status == "paused" or verification is None:
        return "unavailable"
    if verification == "passed":
        return "passed"
    if verification == "failed":
        return "failed"
    return "unavailable"


def decide_verdict(
    *,
    execution_status: str,
    execution_reason: str,
    exit_code: int,
    verification: TaskVerification,
    cleanup_status: str,
    cleanup_reason: str | None,
    step: int | None,
) -> RunVerdict:
    """A new record's verdict and its first decisive cause (SPEC 20).

    Args:
        execution_status: How the execution ended.
        execution_reason: Its reason code.
        exit_code: The attempt's SPEC 9 exit code.
        verification: The task verification.
        cleanup_status: ``complete``, ``unresolved`` or ``not_needed``.
        cleanup_reason: The cleanup's reason code, if any.
        step: The number of the last operation of the run (``None``: none ran).
    """
    status = verdict_status(execution_status, exit_code, verification.status)
    if status == "passed":
        return RunVerdict(status="passed")
    if execution_status in CONDUCT_STOPS:
        why = Cause(
            kind="stop", id=execution_status, reason=execution_reason, step=step
        )
    elif execution_status not in ("completed", "paused"):
        kind: Literal["stop", "infrastructure"] = (
            "stop" if execution_status == "cancelled" else "infrastructure"
        )
        why = Cause(kind=kind, id=execution_status, reason=execution_reason, step=step)
    elif cleanup_status == "unresolved":
        why = Cause(
            kind="infrastructure",
            id="cleanup",
            reason=cleanup_reason or "cleanup_unresolved",
        )
    elif exit_code == ExitCode.CANCELLED:
        why = Cause(kind="stop", id="cancelled", reason=verification.reason)
    elif execution_status == "paused":
        why = Cause(kind="stop", id="paused", reason=execution_reason, step=step)
    else:
        why = _requirement_cause(verification)
    return RunVerdict(status=status, why=why)


def _requirement_cause(verification: TaskVerification) -> Cause:
    """The first requirement (in declaration order) that decided the verification."""
    for requirement in verification.requirements:
        if requirement.status == verification.status:
            return Cause(
                kind="requirement", id=requirement.id, reason=requirement.reason
            )
    return Cause(kind="requirement", id="task_verification", reason=verification.reason)


def lost_run_verdict(reason: str) -> RunVerdict:
    """The verdict of a run that left no record: errored, ``run_lost``."""
    return RunVerdict(
        status="errored", why=Cause(kind="infrastructure", id="run_lost", reason=reason)
    )
