"""A suite's driver keeps nothing of a finished run (SPEC 19).

With an output folder, a finished run's record, result, transcript and its line
of ``suite.json`` are on disk only: the number of records and run entries alive
in the driver stays bounded by the runs in flight, and the memory Python holds
does not grow with the runs that finished. `SuiteResult` then reads
``suite.json`` and each record back when asked: the same summary and records as
the files, in the same order and with the same verdicts as a suite that wrote
nothing.
"""

from __future__ import annotations

import gc
import json
import tracemalloc
from pathlib import Path
from typing import Any

import anyio
import pytest

from artemiskit import ArtemisKit
from artemiskit.engine import _evidence, _tool_tables
from artemiskit.engine._result import WorkflowResult
from artemiskit.records import ExecutionRecord, SuiteRunInfo, record_from_dict
from artemiskit.suites import load_suite_record

pytestmark = pytest.mark.anyio

WORKFLOW = """\
version: 1
name: echo
dataset: cases.jsonl
target: {provider: scripted, model: agent}
conversation: {turns: [{user: "{{ question }}"}]}
budgets: {max_actions: 5, timeout_ms: 60000}
outcomes: [{id: said, final_response: {contains: "{{ expected }}"}}]
"""
SCRIPT = (
    'version: 1\nresponses: [{text: "{{ question }}", '
    "usage: {input_tokens: 1, output_tokens: 1}}]\n"
)


def _suite(folder: Path, cases: int) -> Path:
    """A dataset workflow of ``cases`` instant cases; every fifth one fails."""
    folder.mkdir(parents=True, exist_ok=True)
    rows = (
        json.dumps(
            {"id": f"c{n:04d}", "question": f"q {n}", "expected": f"q {n}"}
            if n % 5
            else {"id": f"c{n:04d}", "question": f"q {n}", "expected": "never"}
        )
        for n in range(cases)
    )
    (folder / "cases.jsonl").write_text("\n".join(rows) + "\n", encoding="utf-8")
    (folder / "workflow.yaml").write_text(WORKFLOW, encoding="utf-8")
    for model in ("agent", "other"):
        (folder / f"{model}.script.yaml").write_text(SCRIPT, encoding="utf-8")
    return folder / "workflow.yaml"


def _settle() -> None:
    """Empty the engine's bounded caches of expanded workflows, and collect.

    They keep up to a few hundred of the latest cases' workflows whatever the
    number of runs (a saw-tooth, not a growth): emptied, what is left is what
    the finished runs left in the driver.
    """
    _evidence._DIGESTS.clear()
    _tool_tables._TABLES.clear()
    gc.collect()


def _alive(kind: type) -> int:
    gc.collect()
    return sum(1 for item in gc.get_objects() if type(item) is kind)


async def test_the_driver_holds_no_record_of_a_finished_run(tmp_path: Path) -> None:
    runs, concurrency = 150, 4
    workflow = _suite(tmp_path / "suite", runs)
    session = await ArtemisKit().create_suite_session(
        paths=[workflow],
        output_dir=tmp_path / "out",
        concurrency=concurrency,
        min_pass_rate=0,
    )
    events = session.events(buffer=runs + 8)
    alive: dict[int, tuple[int, int]] = {}

    async def watch() -> None:
        finished = 0
        async for event in events:
            if event.type == "run_finished":
                finished += 1
                if finished in (30, runs):
                    alive[finished] = (_alive(ExecutionRecord), _alive(WorkflowResult))

    async with anyio.create_task_group() as group:
        group.start_soon(watch)
        result = await session.run()
    assert result.summary["totals"]["runs_finished"] == runs
    # at most the runs in flight (and the one just filed) hold a record:
    # never one per finished run
    for records, results in alive.values():
        assert records <= 2 * concurrency
        assert results <= 2 * concurrency
    assert alive[runs][0] <= alive[30][0] + concurrency


async def test_a_finished_run_leaves_no_memory_in_the_driver(tmp_path: Path) -> None:
    runs, concurrency = 240, 4
    # traced from `early` on; the growth is measured from `middle` to `late`,
    # once the driver's bounded parts (the folders it remembers) are full
    early, middle, late = 40, 110, 230
    workflow = _suite(tmp_path / "suite", runs)
    session = await ArtemisKit().create_suite_session(
        paths=[workflow],
        output_dir=tmp_path / "out",
        concurrency=concurrency,
        min_pass_rate=0,
    )
    events = session.events(buffer=runs + 8)
    held: list[int] = []
    entries: list[int] = []

    async def watch() -> None:
        finished = 0
        async for event in events:
            if event.type != "run_finished":
                continue
            finished += 1
            if finished == early:
                # what the runs from here on leave behind is traced
                _settle()
                tracemalloc.start()
            elif finished in (middle, late):
                _settle()
                entries.append(_alive(SuiteRunInfo))
                held.append(tracemalloc.get_traced_memory()[0])

    try:
        async with anyio.create_task_group() as group:
            group.start_soon(watch)
            result = await session.run()
    finally:
        tracemalloc.stop()
    assert result.summary["totals"]["runs_finished"] == runs
    # no run's entry of suite.json is held (each is on disk): at most the runs
    # in flight have one
    assert max(entries) <= 2 * concurrency
    # and the memory Python holds does not grow with the runs that finished
    # (a run's entry and its line alone held over 1 KiB): a bound far below
    # one entry a run
    growth = (held[1] - held[0]) / (late - middle)
    assert growth < 128, f"{growth:.0f} B held per finished run"


@pytest.mark.parametrize("targets", [None, ["scripted:agent", "scripted:other"]])
async def test_a_written_suite_result_reads_the_same_runs_back(
    tmp_path: Path, targets: list[str] | None
) -> None:
    workflow = _suite(tmp_path / "suite", 12)
    options: dict[str, Any] = {"repeat": 2, "min_pass_rate": 0}
    if targets is not None:
        options["targets"] = targets
    kit = ArtemisKit()
    written = await kit.run_suite(
        paths=[workflow], output_dir=tmp_path / "out", **options
    )
    kept = await kit.run_suite(paths=[workflow], **options)

    out = tmp_path / "out"
    assert written.summary == load_suite_record(out / "suite.json")
    assert (written.exit_code, written.status) == (kept.exit_code, kept.status)
    planned = 12 * 2 * (1 if targets is None else 2)
    # every fifth case fails: c0000, c0005, c0010
    assert written.summary["totals"]["failed"] == planned // 4
    assert len(written.runs) == len(kept.runs) == planned

    def identity(run: Any) -> tuple[Any, ...]:
        assert run.result is not None
        return (
            run.workflow,
            run.case,
            run.target,
            run.repetition,
            run.result.record.verdict.status,
            run.result.record.target.id,
        )

    # the same runs, in the same order, with the same verdicts
    assert [identity(run) for run in written.runs] == [
        identity(run) for run in kept.runs
    ]
    # each read from its record file, as written
    listed = {
        run["run_id"]: run["record"]
        for entry in written.summary["workflows"]
        for run in entry["runs"]
    }
    for run in written.runs:
        assert run.result is not None
        record = run.result.record
        data = json.loads((out / listed[record.run_id]).read_text("utf-8"))
        assert record == record_from_dict(data)
        assert run.result.state is None
    assert [identity(run) for run in written.runs[:3]] == [
        identity(run) for run in kept.runs[:3]
    ]
    assert "runs=" in repr(written)
