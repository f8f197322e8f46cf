"""The bounded pool: run items in order, at most ``limit`` at a time.

One task per slot takes the next item when its last one ends: no task, and no
limiter round trip, per item. Suites, the historical runner and its scenario
files all start their work through it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

import anyio

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Iterable

__all__ = ["run_bounded"]

T = TypeVar("T")


def _always() -> bool:
    return True


async def run_bounded(
    items: Iterable[T],
    run: Callable[[T], Awaitable[None]],
    limit: int,
    *,
    may_start: Callable[[], bool] = _always,
) -> None:
    """Run ``run(item)`` for each item in order, at most ``limit`` at once.

    Args:
        items: What to run, in the order to start it.
        run: Runs one item (an exception ends the pool, as in a task group).
        limit: Items in flight at most (at least 1).
        may_start: Asked right before each start; ``False`` starts nothing more.
    """
    queue = iter(items)

    async def slot() -> None:
        for item in queue:
            if not may_start():
                return
            await run(item)

    async with anyio.create_task_group() as group:
        for _ in range(max(1, limit)):
            group.start_soon(slot)
