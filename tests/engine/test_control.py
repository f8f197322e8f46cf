"""The run control reads the running event loop's own clock, in every run.

The backend's calls are looked up once per backend in a process; the asyncio
clock is the running loop's, so a control started in a later event loop never
reads an earlier loop's clock.
"""

from __future__ import annotations

import asyncio

import anyio
import pytest

from artemiskit.engine._control import RunControl
from artemiskit.engine._recovery import NoCheckpoints


def _started(remaining_s: float) -> RunControl:
    control = RunControl(None, NoCheckpoints())  # type: ignore[arg-type]
    control.start(remaining_s)
    return control


@pytest.mark.parametrize("anyio_backend", ["asyncio", "trio"])
def test_each_event_loop_gets_its_own_clock(anyio_backend: str) -> None:
    async def start() -> tuple[float, float, float]:
        before = anyio.current_time()
        control = _started(60.0)
        after = anyio.current_time()
        if anyio_backend == "asyncio":
            assert control.now == asyncio.get_running_loop().time
        await control.scheduling_point()
        return before, control.deadline - 60.0, after

    for _ in range(2):  # a second loop: the looked-up calls serve it too
        before, started, after = anyio.run(start, backend=anyio_backend)
        assert before <= started <= after


async def test_a_passed_deadline_stops_the_next_admission() -> None:
    control = _started(0.0)
    assert control.stop_now() is not None
    assert _started(60.0).stop_now() is None
