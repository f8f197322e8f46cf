"""The targets table judges every SPEC 10 target, and says when one was not measured."""

from __future__ import annotations

from typing import Any

from benchmarks._report import _concurrency as _sessions_section, explain_misses
from benchmarks._targets import TARGETS, Target, evaluate_targets

#: The SPEC 10 table's rows, each with how many targets it sets.
SPEC_ROWS = {
    "per step, instant target, no durability": 4,
    "per step with a durable checkpoint": 5,
    "1000 concurrent sessions, 20 ms model latency, 10 steps each": 2,
    "a suite of 1000 instant runs, local executor": 2,
    "a 10,000-case JSONL dataset (SPEC 19)": 3,
    "a replayed suite (SPEC 22), local executor": 1,
    "a CPU-bound scripted suite, processes executor on 2 cores": 1,
    "sandbox file operation (64 B and 64 KB, read and write)": 2,
    "sandbox create → ready / cleanup": 2,
    "`akit scenario validate` cold, `akit --help`": 3,
}


def test_every_spec_target_has_a_row_in_the_spec_order() -> None:
    rows: dict[str, int] = {}
    for target in TARGETS:
        rows[target.measure] = rows.get(target.measure, 0) + 1
    assert rows == SPEC_ROWS
    assert list(rows) == list(SPEC_ROWS)


def test_an_absent_or_skipped_measure_is_not_measured_never_met() -> None:
    judged = evaluate_targets({"sandbox": {"skipped": True, "reason": "no engine"}})
    assert len(judged) == len(TARGETS)
    assert {entry["met"] for entry in judged} == {None}
    sandbox = [e for e in judged if e["measure"].startswith("sandbox file")]
    assert {e["measured"] for e in sandbox} == {"not measured (no engine)"}
    assert any("no `peers` measure" in e["measured"] for e in judged)


def test_a_missing_figure_inside_a_measure_is_not_measured() -> None:
    growth = {"ratio_median": 1.1, "ratio_min": 1.0, "ratio_max": 1.3}
    judged = evaluate_targets({"per_step_checkpointed": {"growth": growth}})
    by_target = {e["target"]: e for e in judged}
    assert by_target["step 500 / step 10 ≤ 1.2"]["met"] is True
    fsyncs = by_target["≤ 2 fsyncs per step"]
    assert fsyncs["met"] is None
    assert "fsyncs_per_step" in fsyncs["measured"]


def _sandbox(helper_ms: float, ratio: float) -> dict[str, Any]:
    ops = ["read 64B", "write 64B"]
    ms = {f"helper {op}": {"median": helper_ms} for op in ops}
    ms |= {"ready": {"median": 300.0}, "cleanup": {"median": 151.0}}
    pairs = {op: {"median": ratio, "min": ratio, "max": ratio} for op in ops}
    return {"operations": ops, "ms": ms, "exec_vs_helper": pairs}


def test_verdicts_follow_the_figures_at_the_bounds() -> None:
    judged = evaluate_targets({"sandbox": _sandbox(2.0, 30.0)})
    by_target = {e["target"]: e["met"] for e in judged}
    assert by_target["median ≤ 2 ms"] is True
    assert by_target["≥ 30× cheaper than one `docker exec`, timed interleaved"]
    assert by_target["create → ready ≤ 400 ms"] is True
    assert by_target["cleanup ≤ 150 ms"] is False
    judged = evaluate_targets({"sandbox": _sandbox(2.01, 29.9)})
    by_target = {e["target"]: e["met"] for e in judged}
    assert by_target["median ≤ 2 ms"] is False
    assert by_target["≥ 30× cheaper than one `docker exec`, timed interleaved"] is False


def test_a_new_target_is_one_row(monkeypatch: Any) -> None:
    extra = Target("new measure", "≥ 1 thing", "things", lambda r: ("2", True))
    monkeypatch.setattr("benchmarks._targets.TARGETS", (*TARGETS, extra))
    judged = evaluate_targets({"things": {"count": 2}})
    assert judged[-1] == {
        "measure": "new measure",
        "target": "≥ 1 thing",
        "measured": "2",
        "met": True,
    }


def test_a_miss_is_explained_or_says_why_not() -> None:
    loop = {"ratio_median": 4.0, "ratio_min": 3.9, "ratio_max": 4.1}
    results: dict[str, Any] = {
        "per_step": {
            "vs_plain_loop": loop,
            "step_us": 80.0,
            "plain_loop_step_us": 20.0,
        },
    }
    targets = evaluate_targets(results)
    (floor,) = [t for t in targets if t["target"].startswith("CPU per step")]
    assert floor["met"] is False
    lines = explain_misses(results, targets)
    assert lines[0] == f"### {floor['target']} (missed)"
    assert "Not explained ('profile')" in lines[2]
    results["profile"] = {
        "steps": 10,
        "total_ms": 10.0,
        "calls": 5000,
        "calls_per_step": 500.0,
        "plain_loop_calls_per_step": 60.0,
        "top_by_own_time": [
            {"function": "engine/x.py:1(f)", "calls": 60, "own_ms": 5.0}
        ],
    }
    lines = explain_misses(results, evaluate_targets(results))
    assert "500 Python calls per step against the loop's 60" in lines[2]
    assert lines[4].startswith("**What would close it:**")


def _pairs(one_ms: float, many_ms: float, cpu_ms: float) -> dict[str, Any]:
    ratio = many_ms / one_ms
    return {
        "one_session_ms": one_ms,
        "sessions_ms": many_ms,
        "cpu_ms_per_pair": cpu_ms * 1001,
        "cpu_ms_per_session": cpu_ms,
        "load_average_1min": 0.5,
        "pairs": 3,
        "a_median": one_ms / 1e3,
        "b_median": many_ms / 1e3,
        "ratio_median": ratio,
        "ratio_min": ratio,
        "ratio_max": ratio,
    }


SESSIONS_TARGET = (
    "CPU per session ≤ 1.5× a plain hand-written loop doing the same work, same sitting"
)


def _cpu_pairs(floor_ms: float, engine_ms: float) -> dict[str, Any]:
    ratio = engine_ms / floor_ms
    return {
        "pairs": 3,
        "a_median": floor_ms,
        "b_median": engine_ms,
        "ratio_median": ratio,
        "ratio_min": ratio,
        "ratio_max": ratio,
        "floor_cpu_ms_per_session": floor_ms,
        "engine_cpu_ms_per_session": engine_ms,
        "load_average_1min": 0.5,
    }


def _concurrency(*, floor: bool) -> dict[str, Any]:
    figures = {label: _pairs(250.0, 1250.0, 1.0) for label in ("from_path", "loaded")}
    concurrency: dict[str, Any] = {
        "sessions": 1000,
        "steps_per_session": 10,
        "model_latency_ms": 20,
        "vs_one_session": figures,
        "memory_per_session_kib": 20.0,
        "cpu_vs_floor": _cpu_pairs(0.5, 1.0),
    }
    if floor:
        concurrency["floor"] = _pairs(250.0, 375.0, 0.25)
        concurrency["engine_cpu_ms_per_session_beyond_floor"] = 0.75
    return concurrency


def test_the_sessions_target_is_cpu_per_session_against_the_plain_loop() -> None:
    results = {"concurrency": _concurrency(floor=True), "machine": {"cores": 2}}
    results["concurrency"]["waits"] = _pairs(250.0, 260.0, 0.1)
    targets = evaluate_targets(results)
    (cpu,) = [t for t in targets if t["target"] == SESSIONS_TARGET]
    assert cpu["met"] is False
    assert cpu["measured"].startswith(
        "1000 sessions: 2.00× (2.00–2.00): 1.00 ms against 0.50 ms of CPU per session"
    )
    assert cpu["measured"].endswith(", the plain loop 1.50× (1.50–1.50))")
    lines = explain_misses(results, targets)
    heading = lines.index(f"### {SESSIONS_TARGET} (missed)")
    why, close = lines[heading + 2], lines[heading + 4]
    assert "0.50 ms per session beyond the loop" in why
    assert "tasks that only wait) takes 0.10 ms per session" in why
    assert close.startswith("**What would close it:** about 0.75 ms of CPU per")
    results["concurrency"]["cpu_vs_floor"] = _cpu_pairs(0.5, 0.7)
    (cpu,) = [t for t in evaluate_targets(results) if t["target"] == SESSIONS_TARGET]
    assert cpu["met"] is True


def test_the_sessions_target_needs_a_thousand_sessions_and_its_figure() -> None:
    results = {"concurrency": _concurrency(floor=False), "machine": {"cores": 2}}
    results["concurrency"]["sessions"] = 100
    results["concurrency"]["cpu_vs_floor"] = _cpu_pairs(0.5, 0.6)
    (cpu,) = [t for t in evaluate_targets(results) if t["target"] == SESSIONS_TARGET]
    assert cpu["met"] is False
    assert cpu["measured"].startswith("only 100 sessions: ")
    assert "plain loop 1" not in cpu["measured"]
    del results["concurrency"]["cpu_vs_floor"]
    (cpu,) = [t for t in evaluate_targets(results) if t["target"] == SESSIONS_TARGET]
    assert cpu["met"] is None
    assert "cpu_vs_floor" in cpu["measured"]


def test_the_sessions_section_shows_the_waits_row_and_the_collector() -> None:
    concurrency = _concurrency(floor=True)
    concurrency["waits"] = _pairs(250.0, 260.0, 0.1)
    for figure in (*concurrency["vs_one_session"].values(), concurrency["floor"]):
        figure["gc_share"] = 0.25
    text = "\n".join(_sessions_section(concurrency))
    assert "| waits alone (no work) | 250.0 | 260.0 |" in text
    assert "the engine (loaded) 25%, the plain loop 25%" in text


def test_a_missed_processes_speedup_is_explained_by_its_cpu_costs() -> None:
    pairs = {"pairs": 3, "a_median": 60.0, "b_median": 60.0}
    figures = {
        "machine_cpus": 2,
        "runs": 400,
        "speedup": {**pairs, "ratio_median": 1.0, "ratio_min": 0.9, "ratio_max": 1.1},
        "steady_speedup": {**pairs, "ratio_median": 1.05},
        "fork_server_start_s": 1.2,
        "processes_start_s": [0.1, 0.1, 0.1],
        "cpu_ms_per_run": {
            "local": 16.0,
            "processes_driver": 1.5,
            "processes_workers": 16.5,
        },
        "projected_speedup": 1.78,
    }
    results = {"suite_processes": figures}
    (judged,) = [
        e for e in evaluate_targets(results) if e["measure"].startswith("a CPU-bound")
    ]
    assert judged["met"] is False
    assert "allow 1.78× on idle cores" in judged["measured"]
    (lines,) = ["\n".join(explain_misses(results, [judged]))]
    assert "1.5 ms in the suite's process" in lines
    assert "allows 1.78× on idle cores" in lines
    assert "Not explained" not in lines
