"""In-process engine helpers: one instant run, per-step windows, a profile.

Everything here runs inside the benchmark process on one asyncio event loop.
"""

from __future__ import annotations

import cProfile
import io
import pstats
import time
from collections.abc import Awaitable, Callable
from typing import Any

import anyio

from artemiskit import Workflow, create_agent_workflow_session
from benchmarks._stats import summarize
from benchmarks._workload import TEXT_BYTES, InstantTarget, step_workflow

__all__ = [
    "STEP_MARKS",
    "measure_per_step",
    "per_step_marks",
    "profile_run",
    "run_instant",
    "step_window",
]

#: The steps of one long run whose per-step time is reported.
STEP_MARKS = (10, 100, 200, 500)
#: How many consecutive steps make up the window around a mark.
WINDOW = 10


def step_window(mark: int, total: int) -> range:
    """The 1-based steps reported for ``mark``: ``WINDOW`` steps centred on it.

    The window is shifted left so that it never passes the last step.
    """
    first = max(1, mark - WINDOW // 2 + 1)
    last = min(total, first + WINDOW - 1)
    first = max(1, last - WINDOW + 1)
    return range(first, last + 1)


async def run_instant(
    workflow: Workflow, steps: int, *, checkpoint_dir: str | None = None
) -> InstantTarget:
    """Run one session of ``steps`` tool-calling steps and return its target.

    With ``checkpoint_dir`` the session checkpoints every transition into a
    `LocalCheckpointStore` there (a fresh directory per run).

    Raises:
        RuntimeError: The run did not pass (the workload itself is broken).
    """
    target = InstantTarget(steps)
    store = None
    if checkpoint_dir is not None:
        from artemiskit.checkpoints import LocalCheckpointStore

        store = LocalCheckpointStore(checkpoint_dir)
    session = create_agent_workflow_session(
        workflow=workflow,
        target=target,
        checkpoint_store=store,
        configuration_id="benchmark" if store else None,
    )
    result = await session.run()
    if result.exit_code != 0 or target.requests != steps + 1:
        raise RuntimeError(
            f"the benchmark run did not pass: exit {result.exit_code}, "
            f"{result.record.execution.status}/{result.record.execution.reason}, "
            f"{target.requests} model requests"
        )
    return target


async def measure_per_step(
    *, steps: int, runs: int, checkpointed: bool = False
) -> dict[str, Any]:
    """Our time per step at `STEP_MARKS` of one long run (in-process).

    Our side of the LangGraph pairs (``benchmarks._peers``). Each of ``runs`` runs
    (after one discarded warm-up run) is a fresh session of ``steps`` steps; the
    samples of the window around each mark are pooled over the runs.
    ``checkpointed`` makes every admitted operation durable in a
    `LocalCheckpointStore` before it runs.
    """
    import tempfile

    workflow = step_workflow(steps=steps)
    scratch = tempfile.TemporaryDirectory(prefix="akit-bench-")

    def directory(number: int) -> str | None:
        return f"{scratch.name}/run-{number}" if checkpointed else None

    await run_instant(workflow, steps, checkpoint_dir=directory(0))
    pooled: dict[int, list[float]] = {mark: [] for mark in STEP_MARKS}
    everything: list[float] = []
    run_seconds: list[float] = []
    for number in range(1, runs + 1):
        started = time.perf_counter()
        target = await run_instant(workflow, steps, checkpoint_dir=directory(number))
        run_seconds.append(time.perf_counter() - started)
        per_step = target.step_seconds()
        everything.extend(per_step)
        for mark in STEP_MARKS:
            window = step_window(mark, steps)
            pooled[mark].extend(per_step[step - 1] for step in window)
    marks: dict[str, dict[str, Any]] = {}
    for mark, samples in pooled.items():
        window = step_window(mark, steps)
        marks[str(mark)] = {
            "window": [window[0], window[-1]],
            "per_step_us": summarize(samples, scale=1e6),
        }
    first, last = str(STEP_MARKS[0]), str(STEP_MARKS[-1])
    scratch.cleanup()
    return {
        "scope": "in-process",
        "steps": steps,
        "runs": runs,
        "text_bytes_per_message": TEXT_BYTES,
        "marks": marks,
        "all_steps_us": summarize(everything, scale=1e6),
        "run_ms": summarize(run_seconds, scale=1e3),
        "ratio_last_to_first": marks[last]["per_step_us"]["median"]
        / marks[first]["per_step_us"]["median"],
    }


def per_step_marks(runs: list[list[float]]) -> dict[str, Any]:
    """Per-step seconds of several runs as µs around each of `STEP_MARKS`.

    The samples of the window around a mark are pooled over the runs; marks past
    the runs' length are left out.
    """
    steps = min(len(run) for run in runs)
    marks: dict[str, dict[str, Any]] = {}
    for mark in STEP_MARKS:
        if mark > steps:
            continue
        window = step_window(mark, steps)
        samples = [run[step - 1] for run in runs for step in window]
        marks[str(mark)] = {
            "window": [window[0], window[-1]],
            "per_step_us": summarize(samples, scale=1e6),
        }
    first, last = next(iter(marks)), list(marks)[-1]
    return {
        "marks": marks,
        "all_steps_us": summarize([s for run in runs for s in run], scale=1e6),
        "ratio_last_to_first": marks[last]["per_step_us"]["median"]
        / marks[first]["per_step_us"]["median"],
    }


def profile_run(
    run: Callable[[], Awaitable[Any]], steps: int, *, top: int = 15
) -> dict[str, Any]:
    """cProfile one ``steps``-step run: calls per step, the top entries by own time.

    Also counts the asyncio event loop's iterations (``_run_once``) per step: each
    is a turn of the loop, the scheduler's cost on top of the calls.
    """
    profiler = cProfile.Profile()
    profiler.enable()
    anyio.run(run)
    profiler.disable()
    stats = pstats.Stats(profiler, stream=io.StringIO())
    raw: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    entries = []
    for (filename, line, name), (_, calls, own, cumulative, _) in raw.items():
        entries.append(
            {
                "function": f"{_short(filename)}:{line}({name})",
                "calls": calls,
                "own_ms": own * 1e3,
                "cumulative_ms": cumulative * 1e3,
            }
        )
    total = sum(entry["own_ms"] for entry in entries)
    calls = sum(entry["calls"] for entry in entries)
    turns = sum(e["calls"] for e in entries if e["function"].endswith("(_run_once)"))
    entries.sort(key=lambda entry: entry["own_ms"], reverse=True)
    return {
        "steps": steps,
        "total_ms": total,
        "calls": calls,
        "calls_per_step": calls / steps,
        "event_loop_turns_per_step": turns / steps,
        "top_by_own_time": entries[:top],
    }


def _short(filename: str) -> str:
    for marker in ("/artemiskit/", "/site-packages/", "/lib/python"):
        if marker in filename:
            return filename.split(marker, 1)[1]
    return filename
