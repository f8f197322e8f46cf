"""How an execution stops: a status and a reason, with the exit code of the table.

Every `Stop` the engine records is made here, so its exit code always comes from
`artemiskit._exit_codes` and never from a number written at the stop site.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from artemiskit._exit_codes import STOP_EXIT_CODES
from artemiskit.engine._state import Stop

if TYPE_CHECKING:
    from artemiskit._errors import ArtemisError
    from artemiskit._exit_codes import ExecutionStatus

__all__ = ["INTERRUPTED", "error_stop", "stop_for"]

#: The reason of a run its own code interrupted: a `KeyboardInterrupt` raised by
#: the agent or a tool handler stops the run ``cancelled`` (exit 130), as Ctrl-C
#: would, with a record (never raised: the record reports the stop).
INTERRUPTED = "interrupted"


def stop_for(status: ExecutionStatus, reason: str) -> Stop:
    """The stop with ``status`` and ``reason``, carrying that status's exit code."""
    return Stop(status=status, reason=reason, exit_code=STOP_EXIT_CODES[status])


def error_stop(exc: ArtemisError) -> Stop:
    """The stop an error causes: its family's status, reason and exit code."""
    return Stop(status=exc.status, reason=exc.reason, exit_code=exc.exit_code)
