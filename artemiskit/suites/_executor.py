"""Executors: where a suite's runs execute.

An executor receives the planned jobs in order and a function that runs one job;
it decides how many run at once. It asks ``may_start`` right before each start, so
a suite budget, fail-fast or cancellation stops new starts at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, TypeVar

import anyio

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Sequence

__all__ = ["LocalExecutor", "SuiteExecutor"]

J = TypeVar("J")


class SuiteExecutor(Protocol):
    """Runs a suite's jobs."""

    @property
    def name(self) -> str:
        """The executor's name in ``suite.json`` settings (e.g. ``local``)."""
        ...

    async def execute(
        self,
        jobs: Sequence[J],
        run: Callable[[J], Awaitable[None]],
        may_start: Callable[[], bool],
    ) -> None:
        """Run ``jobs`` in order until done or ``may_start`` says stop.

        ``run`` never raises for a run's own failure; it returns when the job's
        outcome is recorded.
        """
        ...


class LocalExecutor:
    """Runs jobs in this process on an anyio task group.

    Args:
        concurrency: How many runs are in flight at most.

    Raises:
        ValueError: ``concurrency`` is below 1.
    """

    def __init__(self, concurrency: int = 4) -> None:
        if concurrency < 1:
            raise ValueError("concurrency must be at least 1")
        self.concurrency = concurrency

    @property
    def name(self) -> str:
        """``local``."""
        return "local"

    async def execute(
        self,
        jobs: Sequence[J],
        run: Callable[[J], Awaitable[None]],
        may_start: Callable[[], bool],
    ) -> None:
        """Start each job when a slot is free, while ``may_start()`` allows.

        Each slot is one task that takes the next job in order when its run
        ends: no task, and no limiter round trip, per job.
        """
        queue = iter(jobs)
        slots = min(self.concurrency, len(jobs))

        async def slot() -> None:
            for job in queue:
                if not may_start():
                    return
                await run(job)

        async with anyio.create_task_group() as group:
            for _ in range(slots):
                group.start_soon(slot)
