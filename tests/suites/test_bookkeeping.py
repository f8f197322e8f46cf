"""What the suite's lean bookkeeping relies on (SPEC 10 suite target, SPEC 13)."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest

from artemiskit import ArtemisKit
from artemiskit._common._pool import run_bounded
from artemiskit.suites import load_suite_record
from artemiskit.suites._runner import _sync_tree
from tests._builders import PASSING_SCRIPT
from tests.suites._suites import FAILING_SCRIPT, write_member

pytestmark = pytest.mark.anyio


async def test_the_bounded_pool_runs_jobs_in_order_on_one_task_per_slot() -> None:
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

    await run_bounded(list(range(20)), run, 3)
    assert started == list(range(20))
    assert most == 3
    # The runs reuse their slots' tasks: no task (and no limiter) per run.
    assert len(tasks) == 3


async def test_the_bounded_pool_asks_before_each_start() -> None:
    started: list[int] = []

    async def run(job: int) -> None:
        started.append(job)
        await anyio.wait_all_tasks_blocked()

    await run_bounded(list(range(10)), run, 2, may_start=lambda: len(started) < 5)
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


def _run_lines(text: str) -> dict[tuple[str, int], str]:
    """Each run's line in a ``suite.json``, by (workflow, repetition)."""
    found = {}
    workflow = ""
    for line in text.splitlines():
        if line.startswith('      "name": '):
            workflow = json.loads(line.removeprefix('      "name": ').rstrip(","))
        elif line.startswith('        {"repetition": '):
            run = json.loads(line.strip().rstrip(","))
            found[workflow, run["repetition"]] = line.strip().rstrip(",")
    return found


async def test_suite_json_holds_a_field_per_line_and_a_run_per_line(
    tmp_path: Path,
) -> None:
    suite = tmp_path / "suite"
    write_member(suite, "flaky", [PASSING_SCRIPT, FAILING_SCRIPT])
    write_member(suite, "steady", [PASSING_SCRIPT])
    out = tmp_path / "out"
    session = await ArtemisKit().create_suite_session(
        paths=[suite], repeat=12, concurrency=3, output_dir=out
    )
    snapshots: list[str] = []

    async def watch() -> None:
        async for event in session.events(buffer=100):
            if event.type == "run_finished":
                snapshots.append((out / "suite.json").read_text("utf-8"))

    async with anyio.create_task_group() as group:
        group.start_soon(watch)
        await anyio.wait_all_tasks_blocked()
        result = await session.run()
    text = (out / "suite.json").read_text("utf-8")
    assert json.loads(text) == result.summary == load_suite_record(out / "suite.json")
    lines = text.splitlines()
    assert lines[0] == "{"
    assert lines[1] == '  "schema": "artemiskit.suite-record",'
    # Every run on a line of its own, in the order of the summary.
    final = _run_lines(text)
    assert list(final) == [
        (w["name"], r["repetition"])
        for w in result.summary["workflows"]
        for r in w["runs"]
    ]
    for workflow in result.summary["workflows"]:
        for run in workflow["runs"]:
            assert json.loads(final[workflow["name"], run["repetition"]]) == run
    # A finished run's entry never changes: every rewrite wrote it the same.
    assert len(snapshots) == 24
    for snapshot in snapshots:
        for key, line in _run_lines(snapshot).items():
            assert final[key] == line


def test_the_sync_without_syncfs_reaches_read_only_files_and_folders(
    tmp_path: Path,
) -> None:
    # Where syncfs(2) is missing (not Linux) every file and folder the runs
    # wrote is synced one by one; a record is read-only to its owner.
    run = tmp_path / "w" / "run-1"
    run.mkdir(parents=True)
    record = run / "record.json"
    record.write_text("{}", "utf-8")
    record.chmod(0o400)
    run.chmod(0o500)
    try:
        _sync_tree(tmp_path)
    finally:
        run.chmod(0o700)
    assert record.read_text("utf-8") == "{}"
