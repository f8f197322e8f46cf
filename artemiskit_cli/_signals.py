"""Signals to cancellation: the one way the CLI turns SIGINT/SIGTERM into a cancel.

`akit workflow run`, its suite mode and `akit run` each run their work while a
receiver installed before the work starts hands every signal to a callback (so no
signal falls through to Python's default handler and its traceback).
"""

from __future__ import annotations

import signal
from typing import TYPE_CHECKING, TypeVar

import anyio

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from anyio.abc import TaskGroup, TaskStatus

__all__ = ["CANCELLING_SIGNALS", "run_watching_signals"]

T = TypeVar("T")

#: The signals that cancel what the CLI runs.
CANCELLING_SIGNALS = (signal.SIGINT, signal.SIGTERM)


async def run_watching_signals(
    group: TaskGroup,
    body: Callable[[], Awaitable[T]],
    on_signal: Callable[[signal.Signals], bool],
    *,
    signals: tuple[signal.Signals, ...] = CANCELLING_SIGNALS,
) -> T:
    """Run ``body`` while ``signals`` go to ``on_signal``; its result.

    The receiver runs in ``group`` and is installed before ``body`` starts; it
    ends with ``body``, or once ``on_signal`` returns ``True``.
    """
    watch = anyio.CancelScope()

    async def watcher(*, task_status: TaskStatus[None]) -> None:
        with watch, anyio.open_signal_receiver(*signals) as received:
            task_status.started()
            async for signum in received:
                if on_signal(signal.Signals(signum)):
                    return

    await group.start(watcher)
    try:
        return await body()
    finally:
        watch.cancel()
