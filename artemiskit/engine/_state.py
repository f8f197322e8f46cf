"""The session state: plain, serializable attrs data advanced by named transitions.

Everything a checkpoint needs to continue a run lives here: the conversation, the
cursor, the budget counters, the operation ledger (every model request and tool
call, admitted before it is invoked and settled after), the tool trace, state-change
evidence, policy denials and the detached local state of the non-file tools.
Reprs show positions, counts and statuses, never the conversation or the state.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Literal, TypeVar, overload

import attrs

from artemiskit._common._converter import CONVERTER
from artemiskit._exit_codes import ExecutionStatus
from artemiskit.engine._faults import FaultSchedule
from artemiskit.engine._preflight import PreflightSummary
from artemiskit.records._verification import StateChange
from artemiskit.targets._protocol import Message, ToolCall
from artemiskit.workflow._local_state import Approval, Delegation, Draft, LocalState

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
    "Operations",
    "SessionState",
    "Stop",
    "TraceEntry",
]

OperationStatus = Literal["admitted", "succeeded", "failed", "unknown"]
T = TypeVar("T")


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


_new_view = object.__new__


class Operations(Sequence[Operation]):
    """The ledger's operations: an immutable sequence, cheap to grow at its end.

    A run appends an operation before every invocation and settles it after, so
    copying a tuple for each would make every step cost the length of the run.
    Here appending, replacing the last item and dropping from the front cost
    O(1) (amortized): every view shares one list of items, of which a view shows
    a window and keeps its own last item. A view never sees a change: the shared
    list only grows past the end of the view that appends, and a view that is
    not at the end copies its window before appending.
    """

    __slots__ = ("_items", "_last", "_length", "_start")

    _items: list[Operation]
    _start: int
    _length: int
    _last: Operation | None

    def __init__(self, operations: Iterable[Operation] = ()) -> None:
        items = list(operations)
        last = items.pop() if items else None
        self._set(items, 0, len(items) + (last is not None), last)

    def _set(
        self, items: list[Operation], start: int, length: int, last: Operation | None
    ) -> None:
        self._items = items
        self._start = start
        self._length = length
        self._last = last

    @classmethod
    def _view(
        cls, items: list[Operation], start: int, length: int, last: Operation | None
    ) -> Operations:
        view = cls.__new__(cls)
        view._items = items
        view._start = start
        view._length = length
        view._last = last
        return view

    @classmethod
    def of(cls, operations: Iterable[Operation]) -> Operations:
        """``operations`` as `Operations` (the same object when it already is)."""
        return operations if isinstance(operations, Operations) else cls(operations)

    @property
    def last(self) -> Operation | None:
        """The last operation, if there is one."""
        return self._last

    def append(self, operation: Operation) -> Operations:
        """A new sequence with ``operation`` added at the end."""
        view = _new_view(Operations)  # `_view`, unrolled: a step appends twice
        view._last = operation
        last = self._last
        if last is None:
            view._items = []
            view._start = 0
            view._length = 1
            return view
        items, start = self._items, self._start
        length = self._length
        end = start + length - 1
        if len(items) != end:  # another view appended here first: branch off
            items = items[start:end]
            start = 0
        items.append(last)
        view._items = items
        view._start = start
        view._length = length + 1
        return view

    def replace_last(self, operation: Operation) -> Operations:
        """A new sequence whose last item is ``operation`` (it must have one)."""
        if self._last is None:
            raise IndexError("no operation to replace")
        view = _new_view(Operations)
        view._items = self._items
        view._start = self._start
        view._length = self._length
        view._last = operation
        return view

    def drop_first(self, count: int) -> Operations:
        """A new sequence without its first ``count`` items."""
        count = min(count, self._length)
        if count <= 0:
            return self
        if count == self._length:
            return Operations()
        start, length = self._start + count, self._length - count
        items = self._items
        if start > len(items) // 2:  # let the dropped prefix go
            items = items[start : start + length - 1]
            start = 0
        return Operations._view(items, start, length, self._last)

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> Operation: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Operation, ...]: ...

    def __getitem__(self, index: int | slice) -> Operation | tuple[Operation, ...]:
        if isinstance(index, slice):  # costs the slice's length, not the ledger's
            return tuple(self[i] for i in range(*index.indices(self._length)))
        length = self._length
        if index < 0:
            index += length
        if not 0 <= index < length:
            raise IndexError("operation index out of range")
        if index == length - 1:
            assert self._last is not None
            return self._last
        return self._items[self._start + index]

    def __iter__(self) -> Iterator[Operation]:
        if self._last is None:
            return
        yield from itertools.islice(
            self._items, self._start, self._start + self._length - 1
        )
        yield self._last

    def __reversed__(self) -> Iterator[Operation]:
        for index in range(self._length - 1, -1, -1):
            yield self[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Operations | tuple):
            return len(self) == len(other) and tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"Operations({len(self)} operations)"


def _unstructure_operations(operations: Iterable[Operation]) -> list[Any]:
    return [CONVERTER.unstructure(op, Operation) for op in operations]


def _structure_operations(data: Any, _: Any) -> Operations:
    return Operations(CONVERTER.structure(data, tuple[Operation, ...]))


CONVERTER.register_unstructure_hook(Operations, _unstructure_operations)
CONVERTER.register_structure_hook(Operations, _structure_operations)


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
    ledger: Operations = attrs.field(factory=Operations)
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
