"""`WorkflowResult`: what one execution leaves."""

from __future__ import annotations

from typing import Any

import attrs

from artemiskit.records._record import ExecutionRecord
from artemiskit.targets._protocol import Message

__all__ = ["WorkflowResult"]


@attrs.frozen(kw_only=True, repr=False)
class WorkflowResult:
    """What a run leaves.

    Attributes:
        record: The bounded, metadata-only execution record. Safe to keep.
        state: The final state (SPEC 3.1 layout), or ``None`` when no snapshot could
            be taken. Sensitive working data: never persisted by the SDK.
        transcript: Every conversation message. Sensitive working data.
        failure: What stopped the run, for people: the message of the error or the
            failed preflight probe, naming the target (provider entry and host),
            never a credential or content; ``None`` when nothing failed.
        cassette: The recorded cassette's bytes when the run recorded one
            (SPEC 22), else ``None``. Sensitive working data.
    """

    record: ExecutionRecord
    state: dict[str, Any] | None
    transcript: tuple[Message, ...]
    failure: str | None = attrs.field(default=None, repr=False)
    cassette: bytes | None = attrs.field(default=None, repr=False)

    @property
    def exit_code(self) -> int:
        """The SPEC 9 exit code of this run."""
        return self.record.exit_code

    def __repr__(self) -> str:
        """Identities and statuses only: never the state or the transcript."""
        record = self.record
        return (
            f"WorkflowResult(run_id={record.run_id!r}, "
            f"attempt_id={record.attempt_id!r}, "
            f"status={record.execution.status!r}, "
            f"reason={record.execution.reason!r}, exit_code={record.exit_code}, "
            f"task_verification={record.task_verification.status!r})"
        )
