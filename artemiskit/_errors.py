"""The whole ArtemisKit exception tree.

Every failure a user can cause or meet is one of these, so callers can catch a family
and the CLI maps each family to one exit code (SPEC section 9) in one place::

    ArtemisError
    ├── WorkflowError                 invalid workflow, options or fixture      (2)
    │   ├── FixtureError              a referenced fixture is unsafe or invalid (2)
    │   └── CassetteError             a cassette to replay or extend is refused (2)
    ├── ConfigError                   trusted configuration invalid/incomplete  (1)
    │   ├── ToolDefinitionError       a user-defined tool is invalid or clashes (1)
    │   └── ScorerDefinitionError     a custom scorer is invalid or repeats     (1)
    ├── FileAccessError               file unreadable, output or persistence    (1)
    ├── UnsupportedError              target or environment cannot run here     (3)
    ├── RuntimeFailureError           target/environment failed, measurement    (7)
    │   ├── TargetError               the agent target failed                   (7)
    │   └── EnvironmentFailureError   the environment failed unexpectedly       (7)
    ├── InvalidResponseError          the target answered outside protocol      (2)
    │   └── ReplayMismatchError       a replayed run asked what its cassette
    │                                 does not hold, or ran past its end        (2)
    ├── CheckpointError               a checkpoint was refused                  (2)
    ├── SessionStateError             the session API was used out of order     (2)
    └── FileOperationError            a file tool's request was refused; the
                                      model receives it as the tool's error result

Errors that carry several problems (`WorkflowError`, `ConfigError`) list them in
``.errors``, one line each, written like ``must be ≤ 5 @ $.retry.max_attempts
(line 41, column 17)``.

Cancellation is never wrapped: anyio's cancellation exceptions pass through untouched.
A policy denial, an exhausted budget, a passed deadline and a cancellation are not
raised: they stop the execution, and the record says so (``execution.status``,
``exit_code``). The exit codes come from the one table in `artemiskit._exit_codes`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from artemiskit._exit_codes import ExecutionStatus, ExitCode

if TYPE_CHECKING:
    from collections.abc import Sequence

    from artemiskit._problem import Problem

__all__ = [
    "ArtemisError",
    "CassetteError",
    "CheckpointError",
    "ConfigError",
    "EnvironmentFailureError",
    "FileAccessError",
    "FileOperationError",
    "FixtureError",
    "InvalidResponseError",
    "Problem",
    "ReplayMismatchError",
    "RuntimeFailureError",
    "ScorerDefinitionError",
    "SessionStateError",
    "TargetError",
    "ToolDefinitionError",
    "UnsupportedError",
    "WorkflowError",
]


class ArtemisError(Exception):
    """Root of every error ArtemisKit raises on purpose.

    Attributes:
        exit_code: The CLI exit code of SPEC section 9 for this failure family.
        status: The ``execution.status`` of a run this error stops.
        reason: A stable, machine-readable reason code (no user data).
    """

    exit_code: int = ExitCode.RUNTIME_FAILURE
    status: ExecutionStatus = "runtime_failure"
    default_reason: str = "error"

    def __init__(self, message: str, *, reason: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.reason = reason or self.default_reason


class _ProblemListError(ArtemisError):
    """An error that lists every problem found, one line each."""

    def __init__(
        self,
        message: str,
        problems: Sequence[Problem] = (),
        *,
        reason: str | None = None,
    ) -> None:
        super().__init__(message, reason=reason)
        self.problems: tuple[Problem, ...] = tuple(problems)
        self.errors: tuple[str, ...] = tuple(str(p) for p in self.problems)

    def __str__(self) -> str:
        if not self.errors:
            return self.message
        return "\n".join([self.message, *(f"  {line}" for line in self.errors)])


class WorkflowError(_ProblemListError):
    """The workflow file, an option or a fixture breaks the contract (exit 2)."""

    exit_code = ExitCode.INVALID_INPUT
    default_reason = "invalid_workflow"


class FixtureError(WorkflowError):
    """A referenced fixture is missing, unsafe (traversal, symlink) or invalid."""

    default_reason = "invalid_fixture"


class CassetteError(WorkflowError):
    """A cassette to replay or to extend is refused (exit 2), before any tool runs.

    ``reason`` is one of ``cassette_missing``, ``cassette_not_regular``,
    ``cassette_corrupt``, ``cassette_version`` or ``cassette_foreign`` (another
    workflow's, case's or target's), or ``cassette_out_of_step`` (a resumed run's
    cassette does not hold exactly the requests the run already made).
    """

    default_reason = "cassette_corrupt"


class ConfigError(_ProblemListError):
    """Trusted configuration is invalid or a credential is missing (exit 1)."""

    exit_code = ExitCode.FILE_OR_CONFIGURATION
    default_reason = "invalid_configuration"


class ToolDefinitionError(ConfigError):
    """A user-defined tool is invalid, or its name clashes with another tool."""

    default_reason = "invalid_tool"


class ScorerDefinitionError(ConfigError):
    """A custom scorer is invalid, or two scorers share a name."""

    default_reason = "invalid_scorer"


class FileAccessError(ArtemisError):
    """A file could not be read, or an output could not be prepared or written."""

    exit_code = ExitCode.FILE_OR_CONFIGURATION
    default_reason = "file_access_error"


class UnsupportedError(ArtemisError):
    """The target or environment cannot run here (exit 3)."""

    exit_code = ExitCode.UNSUPPORTED
    status = "unsupported"
    default_reason = "unsupported"


class PolicyDeniedError(ArtemisError):
    """A tool call was denied by policy and the workflow stops on denial (exit 4).

    Deprecated: never raised (the record reports the stop); importing it from
    `artemiskit` warns, and it goes away in the next release.
    """

    exit_code = ExitCode.POLICY_DENIED
    status = "policy_denied"
    default_reason = "policy_denied"


class BudgetExhaustedError(ArtemisError):
    """A budget cap was reached before the workflow finished (exit 5).

    Deprecated: never raised (the record reports the stop); importing it from
    `artemiskit` warns, and it goes away in the next release.
    """

    exit_code = ExitCode.BUDGET_EXHAUSTED
    status = "budget_exhausted"
    default_reason = "budget_exhausted"


class DeadlineExceededError(ArtemisError):
    """The workflow's absolute deadline passed (exit 6).

    Deprecated: never raised (the record reports the stop); importing it from
    `artemiskit` warns, and it goes away in the next release.
    """

    exit_code = ExitCode.DEADLINE_EXCEEDED
    status = "deadline_exceeded"
    default_reason = "deadline_exceeded"


class RuntimeFailureError(ArtemisError):
    """The run failed at runtime, or usage could not be measured (exit 7)."""

    exit_code = ExitCode.RUNTIME_FAILURE
    default_reason = "runtime_failure"


class TargetError(RuntimeFailureError):
    """The agent target (model client, script, custom target) failed."""

    default_reason = "target_failure"


class EnvironmentFailureError(RuntimeFailureError):
    """The environment failed in a way no tool result can describe."""

    default_reason = "environment_failure"


class InvalidResponseError(ArtemisError):
    """The target answered outside its protocol (exit 2)."""

    exit_code = ExitCode.INVALID_INPUT
    default_reason = "invalid_target_response"


class ReplayMismatchError(InvalidResponseError):
    """A replayed run made a request its cassette does not answer (exit 2).

    ``reason`` is ``replay_mismatch`` (strict replay: the request at that step
    differs from the recorded one; the message names the step and the fields,
    never their content) or ``cassette_exhausted`` (the run needs more model
    responses than the cassette holds).
    """

    default_reason = "replay_mismatch"


class CheckpointError(ArtemisError):
    """A checkpoint could not be used and was refused (exit 2)."""

    exit_code = ExitCode.INVALID_INPUT
    default_reason = "checkpoint_refused"


class SessionStateError(ArtemisError):
    """The session API was used in a way its current state does not allow."""

    exit_code = ExitCode.INVALID_INPUT
    default_reason = "invalid_session_use"


class SessionCancelledError(ArtemisError):
    """The execution or evaluation was cancelled (exit 130).

    Deprecated: never raised (the record reports the stop); importing it from
    `artemiskit` warns, and it goes away in the next release.
    """

    exit_code = ExitCode.CANCELLED
    status = "cancelled"
    default_reason = "cancelled"


class FileOperationError(ArtemisError):
    """An environment refused a file operation (missing file, size limit, bad path).

    The engine turns it into the tool's error result for the model; it is not a run
    failure. ``reason`` is one of ``not_found``, ``invalid_path``, ``is_directory``,
    ``file_too_large``, ``environment_full``, ``not_a_directory``.
    """

    exit_code = ExitCode.INVALID_INPUT
    default_reason = "file_operation_refused"


def __getattr__(name: str) -> type[Problem]:
    # `Problem` (an attrs class) loads on first use, so that checking a valid file
    # cold, which makes none, never imports attrs.
    if name == "Problem":
        from artemiskit._problem import Problem

        return Problem
    raise AttributeError(f"module 'artemiskit._errors' has no attribute {name!r}")
