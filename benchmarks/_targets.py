"""Every target of SPEC section 10, judged from one run's results.

`TARGETS` is the one place a target lives: a row names the SPEC 10 measure, what
is wanted, the results key its figures come from, and a judge that reads them.
Adding a target is adding one `Target` here (and, if it needs new figures, the
measure that writes them under ``needs``). A row whose measure is absent or
skipped in a run says so ("not measured") instead of guessing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["TARGETS", "Target", "evaluate_targets"]

Results = dict[str, Any]
#: What a judge returns: the measured figures in words, and met (True/False).
Verdict = tuple[str, bool]


@dataclass(frozen=True)
class Target:
    """One SPEC 10 target.

    Attributes:
        measure: The SPEC 10 row it belongs to.
        wanted: The target in words (``≤ 2 ms``).
        needs: The results key its figures come from.
        judge: Reads ``results[needs]`` (never skipped) and returns the verdict;
            a missing figure inside it raises `KeyError` ("not measured").
    """

    measure: str
    wanted: str
    needs: str
    judge: Callable[[Results], Verdict]


def _ratio(value: float) -> str:
    return f"{value:.2f}×"


def _pairs(summary: dict[str, Any]) -> str:
    """A pair-ratio summary: median and the spread of the pairs."""
    return f"{summary['median']:.1f}× ({summary['min']:.1f}–{summary['max']:.1f})"


def _vs_langgraph(kind: str, marks: tuple[str, ...]) -> Callable[[Results], Verdict]:
    def judge(results: Results) -> Verdict:
        ratios = results["peers"]["pairs"][kind]
        shown = [f"step {mark}: {_pairs(ratios[mark])}" for mark in marks]
        return ", ".join(shown), min(ratios[m]["median"] for m in marks) >= 10

    return judge


def _spread(summary: dict[str, Any], digits: int = 2) -> str:
    """A `benchmarks._pairs.pair_summary`: median ratio and the pairs' range."""
    return (
        f"{summary['ratio_median']:.{digits}f}× ({summary['ratio_min']:.{digits}f}–"
        f"{summary['ratio_max']:.{digits}f})"
    )


def _growth(key: str, bound: float) -> Callable[[Results], Verdict]:
    def judge(results: Results) -> Verdict:
        growth: dict[str, Any] = results[key]["growth"]
        return _spread(growth), growth["ratio_median"] <= bound

    return judge


def _floor(results: Results) -> Verdict:
    step = results["per_step"]
    pairs: dict[str, Any] = step["vs_plain_loop"]
    return (
        f"{_spread(pairs)}: {step['step_us']:,.0f} µs against "
        f"{step['plain_loop_step_us']:,.0f} µs",
        pairs["ratio_median"] <= 2,
    )


def _telemetry_floor(results: Results) -> Verdict:
    export = results["telemetry"]
    pairs: dict[str, Any] = export["vs_plain_loop"]
    off: dict[str, Any] = export["vs_export_off"]
    flush: dict[str, float] = export["flush_ms"]
    return (
        f"{_spread(pairs)}: {export['step_us']:,.0f} µs against "
        f"{export['plain_loop_step_us']:,.0f} µs; {_spread(off)} of export off; "
        f"flush {flush['median']:,.0f} ms (max {flush['max']:,.0f})",
        pairs["ratio_median"] <= 2 and flush["max"] <= 1000,
    )


def _fsyncs(results: Results) -> Verdict:
    count: dict[str, float] = results["per_step_checkpointed"]["fsyncs_per_step"]
    return (
        f"{count['median']:g} (mean {count['mean']:.3f} with compaction)",
        count["median"] <= 2,
    )


def _atomic_write(results: Results) -> Verdict:
    durable = results["per_step_checkpointed"]
    pairs: dict[str, Any] = durable["vs_atomic_write"]
    return (
        f"{_spread(pairs)}: {durable['step_us']:,.0f} µs against "
        f"{durable['atomic_write_us']:,.0f} µs",
        pairs["ratio_median"] <= 3,
    )


def _flat_bytes(results: Results) -> Verdict:
    durable = results["per_step_checkpointed"]
    ratio: float = durable["bytes_ratio_last_to_first"]
    per_step = durable["bytes_per_step"]
    last = durable["steps"]
    return (
        f"{per_step['step_10']:,.0f} B at step 10, {per_step[f'step_{last}']:,.0f} B "
        f"at step {last} ({_ratio(ratio)}), mean {per_step['mean']:,.0f} B",
        ratio <= 1.2,
    )


def _sessions_cpu(results: Results) -> Verdict:
    concurrency = results["concurrency"]
    pairs: dict[str, Any] = concurrency["cpu_vs_floor"]
    count = concurrency["sessions"]
    scope = f"{count} sessions" if count >= 1000 else f"only {count} sessions"
    figures = concurrency["vs_one_session"]
    walls = "; ".join(
        f"{words} {_spread(figures[label])}"
        for label, words in (("from_path", "from a file path"), ("loaded", "loaded"))
    )
    floor = concurrency.get("floor")
    if floor is not None:
        walls += f", the plain loop {_spread(floor)}"
    return (
        f"{scope}: {_spread(pairs)}: {pairs['engine_cpu_ms_per_session']:.2f} ms "
        f"against {pairs['floor_cpu_ms_per_session']:.2f} ms of CPU per session "
        f"(wall against one session, for information: {walls})",
        count >= 1000 and pairs["ratio_median"] <= 1.5,
    )


def _memory_per_session(results: Results) -> Verdict:
    per_session: float = results["concurrency"]["memory_per_session_kib"]
    return f"{per_session:,.0f} KiB (tracemalloc)", True


def _suite_rate(results: Results) -> Verdict:
    instant = results["suite_runner"]["instant"]
    kept = instant["suite_with_output"]
    return (
        f"{kept['runs_per_s']:,.0f} runs/s, {kept['share_outside_engine']:.0%} "
        "outside the engine",
        True,
    )


def _suite_core(results: Results) -> Verdict:
    share: float = results["suite"]["share_in_runs"]
    return f"{share:.0%} in runs", share >= 0.8


def _datasets_ratio(results: Results) -> Verdict:
    figures = results["datasets"]
    pairs: dict[str, Any] = figures["validate_vs_parse"]
    return (
        f"{_spread(pairs)}: {pairs['b_median'] * 1000:,.0f} ms against "
        f"{pairs['a_median'] * 1000:,.0f} ms for {figures['cases']:,} cases "
        f"({figures['checks']} full checks)",
        pairs["ratio_median"] <= 3,
    )


#: How much a suite's driver may grow per extra finished run (a run's line in
#: suite.json is kept; its record and transcript are on disk).
_GROWTH_PER_RUN = 1024


def _datasets_memory(results: Results) -> Verdict:
    memory: dict[str, Any] = results["datasets"]["suite_memory"]
    small, large = memory["sizes"]
    growth: float = memory["growth_bytes_per_run"]
    return (
        f"{growth:,.0f} B held per extra finished run (tracemalloc, within a "
        f"{large['units']:,}-run suite); peak RSS "
        f"{small['peak_rss'] / 2**20:,.0f} MiB at {small['units']:,} units, "
        f"{large['peak_rss'] / 2**20:,.0f} MiB at {large['units']:,}",
        growth <= _GROWTH_PER_RUN,
    )


def _datasets_bookkeeping(results: Results) -> Verdict:
    memory: dict[str, Any] = results["datasets"]["suite_memory"]
    figures: dict[str, Any] = memory["bookkeeping"]
    share: float = figures["bookkeeping_share"]
    low, high = figures["bookkeeping_share_spread"]
    return (
        f"{share:.0%} ({low:.0%}-{high:.0%}) of the runs' CPU spent by the suite "
        f"around them, {figures['units']:,} units, {figures['pairs']} pairs",
        share <= 0.10,
    )


def _sandbox_median(results: Results) -> Verdict:
    ms = results["sandbox"]["ms"]
    ops = results["sandbox"]["operations"]
    medians = {op: ms[f"helper {op}"]["median"] for op in ops}
    shown = ", ".join(f"{op}: {value:.2f} ms" for op, value in medians.items())
    return shown, max(medians.values()) <= 2


def _sandbox_vs_exec(results: Results) -> Verdict:
    ratios = results["sandbox"]["exec_vs_helper"]
    shown = ", ".join(f"{op}: {_pairs(summary)}" for op, summary in ratios.items())
    return shown, min(summary["median"] for summary in ratios.values()) >= 30


def _lifecycle(name: str, bound_ms: float) -> Callable[[Results], Verdict]:
    def judge(results: Results) -> Verdict:
        median: float = results["sandbox"]["ms"][name]["median"]
        return f"{median:,.0f} ms", median <= bound_ms

    return judge


def _cold(command: str) -> Callable[[Results], Verdict]:
    """Judged as installed: ArtemisKit's bytecode cached, like the standard library's.

    ``python -c pass`` runs from cached bytecode; a pip-installed package has its own
    bytecode compiled at install, and any other checkout writes ``__pycache__`` on
    its first run. The figure with every module compiled from source (a
    ``PYTHONDONTWRITEBYTECODE`` checkout) is shown beside it.
    """

    def judge(results: Results) -> Verdict:
        cold = results["cold_start"]
        ratio: dict[str, Any] = cold["vs_python_bytecode"][command]
        source: dict[str, Any] = cold["vs_python"][command]
        shown = (
            f"{_pairs(ratio)} with bytecode cached (as installed); "
            f"{_pairs(source)} compiling every module from source"
        )
        return shown, ratio["median"] <= 2.5

    return judge


def _processes_speedup(results: Results) -> Verdict:
    figures = results["suite_processes"]
    pairs: dict[str, Any] = figures["speedup"]
    return (
        f"{_spread(pairs)} on {figures['machine_cpus']} cores: "
        f"{pairs['b_median']:,.1f} against {pairs['a_median']:,.1f} runs/s "
        f"({figures['runs']} runs with a CPU-heavy scorer, "
        "worker start included; CPU costs allow "
        f"{figures.get('projected_speedup', 0):.2f}× on idle cores)",
        pairs["ratio_median"] >= 1.7,
    )


def _cold_imports(results: Results) -> Verdict:
    heavy: list[str] = results["cold_start"]["heavy_modules_imported"]
    return (", ".join(heavy) or "none"), not heavy


def _replay_rate(results: Results) -> Verdict:
    replay = results["replay"]
    cpu: dict[str, Any] = replay["vs_scripted"]
    wall: dict[str, Any] = replay["vs_scripted_wall"]
    return (
        f"{_spread(cpu, 2)} of the scripted runs per CPU second "
        f"({replay['replayed_runs_per_cpu_s']:,.0f} against "
        f"{replay['scripted_runs_per_cpu_s']:,.0f}); by wall time {_spread(wall, 2)}",
        cpu["ratio_median"] >= 0.8,
    )


_STEP = "per step, instant target, no durability"
_DURABLE = "per step with a durable checkpoint"
_SESSIONS = "1000 concurrent sessions, 20 ms model latency, 10 steps each"
_SUITE = "a suite of 1000 instant runs, local executor"
_PROCESSES = "a CPU-bound scripted suite, processes executor on 2 cores"
_SANDBOX = "sandbox file operation (64 B and 64 KB, read and write)"
_LIFECYCLE = "sandbox create → ready / cleanup"
_COLD = "`akit scenario validate` cold, `akit --help`"
_DATASETS = "a 10,000-case JSONL dataset (SPEC 19)"
_REPLAY = "a replayed suite (SPEC 22), local executor"

#: Every SPEC 10 target, in the SPEC's order.
TARGETS: tuple[Target, ...] = (
    Target(
        _STEP,
        "≥ 10× cheaper than LangGraph without a checkpointer",
        "peers",
        _vs_langgraph("none", ("10", "100", "500")),
    ),
    Target(_STEP, "step 500 / step 10 ≤ 1.1", "per_step", _growth("per_step", 1.1)),
    Target(
        _STEP,
        "CPU per step within 2× of a plain-Python loop (same parsing, policy, "
        "encoding)",
        "per_step",
        _floor,
    ),
    Target(
        _STEP,
        "with OpenTelemetry export on (SPEC 25): CPU per step still within 2× of "
        "the plain loop, and at most 1 s added per run",
        "telemetry",
        _telemetry_floor,
    ),
    Target(_DURABLE, "≤ 2 fsyncs per step", "per_step_checkpointed", _fsyncs),
    Target(
        _DURABLE,
        "≤ 3× one atomic write + fsync + rename of the same bytes",
        "per_step_checkpointed",
        _atomic_write,
    ),
    Target(
        _DURABLE,
        "step 500 / step 10 ≤ 1.2",
        "per_step_checkpointed",
        _growth("per_step_checkpointed", 1.2),
    ),
    Target(
        _DURABLE,
        "≥ 10× cheaper than LangGraph's SQLite checkpointer (durability "
        '"sync") at step 200',
        "peers",
        _vs_langgraph("sync", ("200",)),
    ),
    Target(
        _DURABLE,
        "bytes written per step stay flat",
        "per_step_checkpointed",
        _flat_bytes,
    ),
    Target(
        _SESSIONS,
        "CPU per session ≤ 1.5× a plain hand-written loop doing the same work, "
        "same sitting",
        "concurrency",
        _sessions_cpu,
    ),
    Target(
        _SESSIONS, "memory per session reported", "concurrency", _memory_per_session
    ),
    Target(
        _SUITE,
        "runs per second reported, with the share outside the engine",
        "suite_runner",
        _suite_rate,
    ),
    Target(_SUITE, "≥ 80% of one core spent in runs", "suite", _suite_core),
    Target(
        _DATASETS,
        "expanding and validating every case ≤ 3× parsing the dataset alone",
        "datasets",
        _datasets_ratio,
    ),
    Target(
        _DATASETS,
        "a suite's driver memory does not grow with finished runs (≤ 1 KiB per run)",
        "datasets",
        _datasets_memory,
    ),
    Target(
        _DATASETS,
        "suite bookkeeping ≤ 10% of a scripted run's CPU at 10,000 units",
        "datasets",
        _datasets_bookkeeping,
    ),
    Target(
        _REPLAY,
        "≥ 80% of the scripted provider's runs per second, same sitting",
        "replay",
        _replay_rate,
    ),
    Target(
        _PROCESSES,
        "≥ 1.7× one process's runs per second (issue 29)",
        "suite_processes",
        _processes_speedup,
    ),
    Target(_SANDBOX, "median ≤ 2 ms", "sandbox", _sandbox_median),
    Target(
        _SANDBOX,
        "≥ 30× cheaper than one `docker exec`, timed interleaved",
        "sandbox",
        _sandbox_vs_exec,
    ),
    Target(_LIFECYCLE, "create → ready ≤ 400 ms", "sandbox", _lifecycle("ready", 400)),
    Target(_LIFECYCLE, "cleanup ≤ 150 ms", "sandbox", _lifecycle("cleanup", 150)),
    Target(
        _COLD,
        "`akit scenario validate` ≤ 2.5× `python -c pass`",
        "cold_start",
        _cold("akit scenario validate"),
    ),
    Target(
        _COLD,
        "`akit --help` ≤ 2.5× `python -c pass`",
        "cold_start",
        _cold("akit --help"),
    ),
    Target(
        _COLD,
        "no engine, network, Docker or report library imported by validation",
        "cold_start",
        _cold_imports,
    ),
)


def evaluate_targets(results: Results) -> list[dict[str, Any]]:
    """Judge every target of `TARGETS` from one run's ``results``.

    Returns:
        One entry per target: ``measure``, ``target``, ``measured`` (words) and
        ``met`` (``True``, ``False``, or ``None`` when not measured in this run).
    """
    judged = []
    for target in TARGETS:
        entry: dict[str, Any] = {"measure": target.measure, "target": target.wanted}
        source = results.get(target.needs)
        if not isinstance(source, dict) or source.get("skipped", False):
            reason = (
                source.get("reason", "skipped")
                if isinstance(source, dict)
                else f"no `{target.needs}` measure in this run"
            )
            judged.append(
                {**entry, "measured": f"not measured ({reason})", "met": None}
            )
            continue
        try:
            measured, met = target.judge(results)
        except KeyError as missing:
            measured = f"not measured (no figure {missing} in `{target.needs}`)"
            judged.append({**entry, "measured": measured, "met": None})
            continue
        judged.append({**entry, "measured": measured, "met": met})
    return judged
