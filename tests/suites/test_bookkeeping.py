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


def _largest_power_of_two(n: int) -> int:
    return 1 << (n.bit_length() - 1)


async def test_suite_json_lists_each_run_whose_rewrite_was_due_by_its_event(
    tmp_path: Path,
) -> None:
    path = write_member(tmp_path / "suite", "steady", [PASSING_SCRIPT])
    out = tmp_path / "out"
    session = await ArtemisKit().create_suite_session(
        paths=[path], repeat=40, concurrency=1, output_dir=out
    )
    listed: list[tuple[int, int]] = []

    async def watch() -> None:
        async for event in session.events(buffer=100):
            if event.type == "run_finished":
                summary = load_suite_record(out / "suite.json")
                (workflow,) = summary["workflows"]
                assert event.repetition is not None
                listed.append((event.repetition, len(workflow["runs"])))

    async with anyio.create_task_group() as group:
        group.start_soon(watch)
        await anyio.wait_all_tasks_blocked()
        await session.run()
    assert [rep for rep, _ in listed] == list(range(1, 41))
    # Rewrites double (1, 2, 4, 8, ... runs listed); the event of a run that
    # made one due comes after it, so the file lists at least that many.
    for rep, count in listed:
        assert _largest_power_of_two(rep) <= count <= rep
