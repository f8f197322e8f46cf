"""The operation ledger: every model request and tool-call attempt, bounded.

An operation is admitted before the target or tool is invoked and settled after;
one left ``admitted`` means the process stopped mid-call. The ledger keeps the
newest ``limit`` operations and counts older ones as omitted. The engine settles
the operation it admitted last, so settling looks there first: no scan.

In the session state the ledger is three plain fields (``ledger``,
``ledger_omitted``, ``next_operation``), which checkpoints persist as they are;
`Ledger` is the type that reads and advances them together.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import attrs

from artemiskit._common._slots import slot_builder
from artemiskit.engine._state import Operation, Operations

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from artemiskit.engine._state import OperationStatus, SessionState

__all__ = ["MAX_LEDGER", "Ledger", "append_operation"]

#: The ledger keeps this many operations; older ones are counted as omitted.
MAX_LEDGER = 10_000

_operation = slot_builder(Operation)


def append_operation(
    operations: Sequence[Operation],
    omitted: int,
    number: int,
    kind: Literal["model_request", "tool_call"],
    *,
    tool: str | None = None,
    attempt: int = 1,
    limit: int = MAX_LEDGER,
) -> tuple[Operations, int, str]:
    """Append admitted operation ``number``; the operations, omitted count and id.

    A full ledger drops its oldest entries and counts them in the omitted count.
    Appending costs the same however long the ledger is.
    """
    op_id = f"op-{number:06d}"
    if type(operations) is not Operations:
        operations = Operations(operations)
    grown = operations.append(_operation(op_id, kind, "admitted", tool, attempt, None))
    if len(grown) > limit:
        omitted += len(grown) - limit
        grown = grown.drop_first(len(grown) - limit)
    return grown, omitted, op_id


@attrs.frozen(kw_only=True)
class Ledger:
    """Admitted operations, oldest first, with the count of those dropped.

    Attributes:
        operations: The operations kept, oldest first.
        omitted: Operations dropped from the front of a full ledger.
        next_number: The number the next operation gets.
    """

    operations: Operations = attrs.field(factory=Operations)
    omitted: int = 0
    next_number: int = 1

    @classmethod
    def of(cls, state: SessionState) -> Ledger:
        """The ledger held in ``state``."""
        return cls(
            operations=Operations.of(state.ledger),
            omitted=state.ledger_omitted,
            next_number=state.next_operation,
        )

    def fields(self) -> dict[str, Any]:
        """The session-state fields that hold this ledger (for ``attrs.evolve``)."""
        return {
            "ledger": self.operations,
            "ledger_omitted": self.omitted,
            "next_operation": self.next_number,
        }

    def admit(
        self,
        kind: Literal["model_request", "tool_call"],
        *,
        tool: str | None = None,
        attempt: int = 1,
        limit: int = MAX_LEDGER,
    ) -> tuple[Ledger, str]:
        """Append an admitted operation; return the new ledger and its id."""
        operations, omitted, op_id = append_operation(
            self.operations,
            self.omitted,
            self.next_number,
            kind,
            tool=tool,
            attempt=attempt,
            limit=limit,
        )
        ledger = Ledger(
            operations=operations, omitted=omitted, next_number=self.next_number + 1
        )
        return ledger, op_id

    def settle(
        self, op_id: str, status: OperationStatus, reason: str | None = None
    ) -> Ledger:
        """Mark operation ``op_id`` succeeded, failed or unknown.

        The latest operation is found at once; an older one (only ever settled
        when a stopped run marks what it interrupted) by a scan from the end. An
        id no longer kept changes nothing.
        """
        operations = self.operations
        index = len(operations) - 1
        if index < 0 or operations[index].id != op_id:
            index = self._index_of(op_id)
            if index < 0:
                return self
        op = operations[index]
        settled = Operation(
            id=op.id,
            kind=op.kind,
            status=status,
            tool=op.tool,
            attempt=op.attempt,
            reason=reason,
        )
        if index == len(operations) - 1:
            kept = operations.replace_last(settled)
        else:
            kept = Operations((*operations[:index], settled, *operations[index + 1 :]))
        return Ledger(
            operations=kept, omitted=self.omitted, next_number=self.next_number
        )

    def _index_of(self, op_id: str) -> int:
        for index in range(len(self.operations) - 1, -1, -1):
            if self.operations[index].id == op_id:
                return index
        return -1

    def unsettled(self) -> Iterator[Operation]:
        """The operations still ``admitted``, oldest first."""
        return (op for op in self.operations if op.status == "admitted")

    @property
    def total(self) -> int:
        """Every operation ever admitted, kept or omitted."""
        return len(self.operations) + self.omitted
