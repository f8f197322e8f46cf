"""What the suite's lean bookkeeping relies on (SPEC 10 suite target, SPEC 13)."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from artemiskit import ArtemisKit
from artemiskit.suites import LocalExecutor, load_suite_record
from tests._builders import PASSING_SCRIPT
from tests.suites._suites import write_member

pytestmark = pytest.mark.anyio


async def test_local_executor_runs_jobs_in_order_on_one_task_per_slot() -> None:
    started: list[int] = []
    tasks: set[int] = set()
    in_flight = 0
    most = 0

    async def run(job: int) -> None:
        nonlocal in_flight, most
        started.append(job)
        tasks.add(anyio.get_current_task().id)
        in_flight += 1
        most = max(most, in_flight)
        # Let every other slot start its next job before this one ends.
        await anyio.wait_all_tasks_blocked()
        in_flight -= 1

    await LocalExecutor(3).execute(list(range(20)), run, lambda: True)
    assert started == list(range(20))
    assert most == 3
    # The runs reuse their slots' tasks: no task (and no limiter) per run.
    assert len(tasks) == 3


async def test_local_executor_asks_before_each_start() -> None:
    started: list[int] = []

    async def run(job: int) -> None:
        started.append(job)
        await anyio.wait_all_tasks_blocked()

    await LocalExecutor(2).execute(list(range(10)), run, lambda: len(started) < 5)
    assert started == [0, 1, 2, 3, 4]


async def test_run_events_follow_the_suite_json_rewrites_in_filing_order(
    tmp_path: Path,
) -> None:
    path = write_member(tmp_path / "suite", "steady", [PASSING_SCRIPT])
    out = tmp_path / "out"
    session = await ArtemisKit().create_suite_session(
        paths=[path], repeat=64, concurrency=4, output_dir=out
    )
    listed: list[int] = []

    async def watch() -> None:
        async for event in session.events(buffer=100):
            if event.type == "run_finished":
                summary = load_suite_record(out / "suite.json")
                (workflow,) = summary["workflows"]
                listed.append(len(workflow["runs"]))

    async with anyio.create_task_group() as group:
        group.start_soon(watch)
        await anyio.wait_all_tasks_blocked()
        await session.run()
    assert len(listed) == 64
    # A rewrite is due once the runs filed since the last one reach those it
    # listed, and events keep the filing order, each after the rewrite its
    # run made due: when the n-th event is seen, the file lists over n / 2.
    for seen, count in enumerate(listed, start=1):
        assert 2 * count > seen
