"""The session state: plain, serializable attrs data advanced by named transitions.

Everything a checkpoint needs to continue a run lives here: the conversation, the
cursor, the budget counters, the operation ledger (every model request and tool
call, admitted before it is invoked and settled after), the tool trace, state-change
evidence, policy denials and the detached local state of the non-file tools.
Reprs show positions, counts and statuses, never the conversation or the state.
"""

from __future__ import annotations

from typing import Literal

import attrs

from artemiskit._exit_codes import ExecutionStatus
from artemiskit.engine._faults import FaultSchedule
from artemiskit.engine._preflight import PreflightSummary
from artemiskit.records._verification import StateChange
from artemiskit.targets._protocol import Message, ToolCall
from artemiskit.tools._state import Approval, Delegation, Draft, LocalState

__all__ = [
    "Approval",
    "Counters",
    "Cursor",
    "Delegation",
    "Denial",
    "Draft",
    "ExecutionStatus",
    "LocalState",
    "Operation",
    "OperationStatus",
    "SessionState",
    "Stop",
    "TraceEntry",
]

OperationStatus = Literal["admitted", "succeeded", "failed", "unknown"]


@attrs.frozen(kw_only=True)
class Cursor:
    """Where the run is: the user turn, and the model step within that turn."""

    turn: int = 0
    step: int = 0


@attrs.frozen(kw_only=True)
class Counters:
    """What the run has consumed so far (SPEC 3.2).

    Token sums hold only provider-reported usage; ``unmeasured_responses`` counts
    responses that reported none, so missing usage is never read as zero.
    """

    actions: int = 0
    model_requests: int = 0
    tool_calls: int = 0
    measured_input_tokens: int = 0
    measured_output_tokens: int = 0
    measured_responses: int = 0
    unmeasured_responses: int = 0
    #: Model requests that were accounted retries of a failed one (SPEC 16).
    provider_retries: int = 0

    @property
    def usage_measurement(self) -> Literal["complete", "partial", "unavailable"]:
        """Whether every response so far reported its usage."""
        if self.unmeasured_responses == 0:
            return "complete"
        if self.measured_responses == 0:
            return "unavailable"
        return "partial"

    @property
    def measured_tokens(self) -> int:
        """Input plus output tokens of the responses that reported usage."""
        return self.measured_input_tokens + self.measured_output_tokens


@attrs.frozen(kw_only=True)
class Operation:
    """One ledger entry: a model request or tool-call attempt.

    It is appended as ``admitted`` before the target or tool is invoked and settled
    afterwards; one left ``admitted`` means the process stopped mid-call.
    """

    id: str
    kind: Literal["model_request", "tool_call"]
    status: OperationStatus = "admitted"
    tool: str | None = None
    attempt: int = 1
    reason: str | None = None


@attrs.frozen(kw_only=True)
class TraceEntry:
    """One logical tool call as the model asked for it, with its final result."""

    tool: str
    status: Literal["succeeded", "failed", "denied"]
    attempts: int = 1
    reason: str | None = None


@attrs.frozen(kw_only=True)
class Denial:
    """A tool call refused by policy before any execution."""

    tool: str | None
    reason: str


@attrs.frozen(kw_only=True)
class Stop:
    """Why the execution ended, when it did not simply complete."""

    status: ExecutionStatus
    reason: str
    exit_code: int


@attrs.frozen(kw_only=True, repr=False)
class SessionState:
    """Everything the engine knows about a run, and nothing it could derive.

    Attributes:
        cursor: The turn and step the run is at.
        turn_open: Whether the current turn's user message is already in the
            conversation.
        conversation: Every message so far, system message first.
        pending_calls: Tool calls of the last assistant message still to answer.
        counters: Budget consumption.
        next_operation: The number the next ledger entry gets.
        ledger: Admitted operations, oldest first (bounded; see ``ledger_omitted``).
        ledger_omitted: Operations dropped from a full ledger.
        trace: Logical tool calls, in order.
        changes: State-change evidence of successful writes (bounded).
        changes_omitted: Evidence entries dropped from a full list.
        denials: Policy denials, in order.
        local: Detached local state.
        final_response: The model's last text answer, once a turn completed.
        overshoot_tokens: Tokens used beyond ``max_tokens``, if any.
        stop: Set once the execution stopped for a reason other than completion.
        completed: Set once every turn completed.
        preflight: The probe's result once it ran (never repeated on resume).
        faults: The declared fault schedule and what it did so far.
    """

    cursor: Cursor = Cursor()
    turn_open: bool = False
    conversation: tuple[Message, ...] = ()
    pending_calls: tuple[ToolCall, ...] = ()
    counters: Counters = Counters()
    next_operation: int = 1
    ledger: tuple[Operation, ...] = ()
    ledger_omitted: int = 0
    trace: tuple[TraceEntry, ...] = ()
    changes: tuple[StateChange, ...] = ()
    changes_omitted: int = 0
    denials: tuple[Denial, ...] = ()
    local: LocalState = attrs.field(factory=LocalState)
    final_response: str | None = None
    overshoot_tokens: int = 0
    stop: Stop | None = None
    completed: bool = False
    preflight: PreflightSummary | None = None
    faults: FaultSchedule = attrs.field(factory=FaultSchedule)

    def __repr__(self) -> str:
        return (
            f"SessionState(cursor={self.cursor!r}, "
            f"messages={len(self.conversation)}, "
            f"pending_calls={len(self.pending_calls)}, "
            f"counters={self.counters!r}, "
            f"operations={len(self.ledger) + self.ledger_omitted}, "
            f"completed={self.completed}, stop={self.stop!r})"
        )
