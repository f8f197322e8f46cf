"""The one table of exit codes (SPEC section 9) and of how an execution can stop.

Every exit code in the SDK comes from here: the error families name theirs, an
execution's stop takes the code of its status, and a record's code is chosen among
these. A test scans the source and fails on an exit-code literal anywhere else.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING, Final, Literal

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["STOP_EXIT_CODES", "ExecutionStatus", "ExitCode", "PromptResponseExitCode"]

ExecutionStatus = Literal[
    "completed",
    "policy_denied",
    "budget_exhausted",
    "deadline_exceeded",
    "runtime_failure",
    "invalid_evidence",
    "unsupported",
    "cancelled",
    "paused",
]


class ExitCode:
    """The exit codes of SPEC section 9, by meaning (plain ``int`` constants)."""

    #: A verified task pass, or a successful preflight-only probe.
    OK: Final = 0
    #: A file, configuration, output preparation or persistence error.
    FILE_OR_CONFIGURATION: Final = 1
    #: An invalid workflow, option, fixture, target response or refused checkpoint.
    INVALID_INPUT: Final = 2
    #: An unsupported target or environment.
    UNSUPPORTED: Final = 3
    #: A policy denial.
    POLICY_DENIED: Final = 4
    #: An exhausted budget.
    BUDGET_EXHAUSTED: Final = 5
    #: The workflow deadline passed.
    DEADLINE_EXCEEDED: Final = 6
    #: A runtime failure, unavailable or partial measurement, or unresolved cleanup.
    RUNTIME_FAILURE: Final = 7
    #: A valid task failure.
    TASK_FAILED: Final = 8
    #: An invalid or unavailable outcome evaluation.
    EVALUATION_UNAVAILABLE: Final = 9
    #: A confirmed safe checkpoint pause.
    PAUSED: Final = 10
    #: A cancelled execution or evaluation.
    CANCELLED: Final = 130


class PromptResponseExitCode:
    """The exit codes of the prompt-response commands (SPEC 17).

    ``akit run``, ``validate``, ``compare``, ``baseline``, ``history`` and ``init`` keep
    the TypeScript CLI's codes, which CI scripts read; they differ from SPEC 9's.
    """

    #: Every case passed (or the command did what was asked).
    OK: Final = 0
    #: A failed case, a scenario that did not load or run, a regression against the
    #: baseline, a spent budget, or a file that could not be read or written.
    FAILED: Final = 1
    #: A file of the other kind named directly (a workflow, record or suite), or no
    #: scenario file matched (``validate``).
    WRONG_INPUT: Final = 2
    #: Interrupted by SIGINT or SIGTERM; nothing partial was saved.
    INTERRUPTED: Final = 130


#: The exit code of each way an execution stops (``completed`` is a stop only for a
#: preflight-only run; a completed execution's code comes from its verification).
STOP_EXIT_CODES: Final[Mapping[ExecutionStatus, int]] = MappingProxyType(
    {
        "completed": ExitCode.OK,
        "policy_denied": ExitCode.POLICY_DENIED,
        "budget_exhausted": ExitCode.BUDGET_EXHAUSTED,
        "deadline_exceeded": ExitCode.DEADLINE_EXCEEDED,
        "runtime_failure": ExitCode.RUNTIME_FAILURE,
        "invalid_evidence": ExitCode.RUNTIME_FAILURE,
        "unsupported": ExitCode.UNSUPPORTED,
        "cancelled": ExitCode.CANCELLED,
        "paused": ExitCode.PAUSED,
    }
)
