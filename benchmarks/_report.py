"""Render ``docs/performance.md`` from the JSON results (never edited by hand)."""

from __future__ import annotations

from typing import Any

from benchmarks.suite_runner import render_share

__all__ = ["render_markdown"]

_GIB = 1024**3


def _f(value: float, digits: int = 1) -> str:
    return f"{value:,.{digits}f}"


def _table(
    header: list[str], rows: list[list[str]], *, numeric: bool = True
) -> list[str]:
    lines = ["| " + " | ".join(header) + " |"]
    aligns = ["---:" if numeric and i else "---" for i in range(len(header))]
    lines.append("|" + "|".join(aligns) + "|")
    lines.extend("| " + " | ".join(row) + " |" for row in rows)
    return lines


def _commit(results: dict[str, Any]) -> str:
    machine = results["machine"]
    commit = machine["git_commit"] or "unknown"
    if machine["engine_tree_modified"]:
        commit += " (sources modified in the working tree)"
    return commit


def _suite_runner(suite: dict[str, Any]) -> list[str]:
    if suite.get("skipped", True):
        return ["Not run: " + suite.get("reason", "skipped") + "."]
    instant = suite["instant"]
    rows = [
        [
            label,
            _f(instant[key]["wall_s"] * 1e3, 0),
            _f(instant[key]["runs_per_s"], 0),
            f"{instant[key]['share_outside_engine']:.0%}"
            if "share_outside_engine" in instant[key]
            else "",
        ]
        for label, key in (
            ("no output folder", "suite_no_output"),
            ("records and `suite.json` written", "suite_with_output"),
            ("written, concurrency 4", "suite_with_output_concurrency_4"),
        )
    ]
    return [
        f"`python -m benchmarks.suite_runner`: {instant['runs']} instant offline "
        "runs of one workflow through `ArtemisKit.run_suite` on the local "
        "executor. The share outside the engine compares the suite's wall time "
        "with the same runs made one after the other as bare engine sessions "
        f"({_f(instant['engine_only_wall_s'] * 1e3, 0)} ms).",
        "",
        *_table(["suite", "wall ms", "runs/s", "outside the engine"], rows),
    ]


def _verdict(met: bool | None) -> str:
    return {True: "met", False: "**missed**", None: "not measured"}[met]


def _machine(results: dict[str, Any]) -> list[str]:
    machine = results["machine"]
    memory = machine["memory_bytes"]
    commit = machine["git_commit"] or "unknown"
    if machine["engine_tree_modified"]:
        commit += " (engine sources modified in the working tree)"
    rows = [
        ["CPU", machine["cpu_model"]],
        ["cores", str(machine["cores"])],
        ["memory", f"{memory / _GIB:.1f} GiB" if memory else "unknown"],
        ["OS", machine["os"]],
        ["Python", f"{machine['python']} ({machine['python_implementation']})"],
        ["ArtemisKit", f"{machine['artemiskit_version']}, commit {commit}"],
        ["date", machine["date"]],
        [
            "load average (1 min)",
            f"{machine['load_average_1min']['start']:.2f} at the start, "
            f"{machine['load_average_1min']['end']:.2f} at the end "
            f"({machine['cores']} cores; other work on the machine shows here)",
        ],
        ["command", f"`{results['command']}`"],
        ["total time", f"{results['elapsed_s']:.0f} s"],
    ]
    return _table(["", ""], rows, numeric=False)


def _per_step(per_step: dict[str, Any]) -> list[str]:
    marks = list(per_step["marks"])
    first_window = per_step["marks"][marks[0]]["window"]
    rows = [
        [
            str(mark),
            f"{figure['window'][0]}–{figure['window'][1]}",
            _f(figure["per_step_us"]["median"]),
            _f(figure["per_step_us"]["p95"]),
            str(figure["per_step_us"]["n"]),
        ]
        for mark, figure in per_step["marks"].items()
    ]
    run = per_step["run_ms"]
    return [
        "In-process. One session of "
        f"{per_step['steps']} steps with an instant custom `AgentTarget` and the "
        "simulated environment; every step is one model request answered with "
        f"{per_step['text_bytes_per_message']:,} bytes of text and one `read_file` "
        f"call on a {per_step['text_bytes_per_message']:,}-byte file, so the "
        "conversation grows by about 4 KB per step. A step's time is the interval "
        "between two consecutive model requests: recording the answer, admitting "
        "and running the tool call, and building the next request. Samples are "
        f"the {first_window[1] - first_window[0] + 1} steps "
        f"around each mark, pooled over {per_step['runs']} runs (after one warm-up "
        "run).",
        "",
        *_table(["step", "window", "median µs", "p95 µs", "samples"], rows),
        "",
        f"Step {marks[-1]} / step {marks[0]} "
        f"(medians): **{per_step['ratio_last_to_first']:.2f}×**. All steps: median "
        f"{_f(per_step['all_steps_us']['median'])} µs, p95 "
        f"{_f(per_step['all_steps_us']['p95'])} µs. Whole run (session creation to "
        f"result, record included): median {_f(run['median'])} ms, p95 "
        f"{_f(run['p95'])} ms.",
    ]


def _checkpointed(per_step: dict[str, Any] | None) -> list[str]:
    if per_step is None:
        return []
    return [
        "### 1b. The same run, checkpointed on every transition",
        "",
        "In-process, the same workload with a `LocalCheckpointStore`: before every "
        "model request and tool call the admitted operation is made durable (a "
        "journal append with fsync), and the state delta at every safe boundary, "
        "so a step costs about four fsyncs. The journal holds deltas, so the cost "
        "of a transition must not grow with the run (compaction into a new "
        "snapshot every 512 entries shows up in p95).",
        "",
        *_per_step(per_step)[2:],
        "",
    ]


def _concurrency(concurrency: dict[str, Any]) -> list[str]:
    rows = [
        [
            sessions,
            _f(figure["wall_ms"]["median"]),
            _f(figure["wall_ms"]["p95"]),
            str(figure["wall_ms"]["n"]),
            f"{figure['vs_one_session']:.2f}×",
            _f(figure["sessions_per_s"], 0),
            _f(figure["engine_ms_per_session"], 2),
        ]
        for sessions, figure in concurrency["levels"].items()
    ]
    return [
        "In-process, one asyncio event loop. N sessions started together in one "
        f"anyio task group; each makes {concurrency['steps_per_session']} model "
        f"requests with {concurrency['model_latency_ms']} ms of simulated latency "
        "(an `anyio.sleep` in the target), all but the last answered with one "
        "`read_file` call, then evaluates its outcome and builds its record. The "
        f"ideal wall time is {concurrency['ideal_one_session_ms']} ms whatever N.",
        "",
        *_table(
            [
                "sessions",
                "wall median ms",
                "wall p95 ms",
                "runs",
                "× one session",
                "sessions/s",
                "extra engine ms per session",
            ],
            rows,
        ),
        "",
        "“Extra engine ms per session” is (wall − one session's wall) / N. While "
        "the sessions' CPU work fits inside the 20 ms waits it hides there, so "
        "at small N this is a lower bound; once the loop is saturated (1000 "
        "sessions here) it is each session's full engine CPU cost: 10 steps, "
        "outcome evaluation and record.",
    ]


def _cold_start(cold: dict[str, Any]) -> list[str]:
    rows = []
    for name, f in cold["ms"].items():
        ratio = cold["vs_python"].get(name)
        shown = (
            f"{ratio['median']:.2f}× ({ratio['min']:.2f}–{ratio['max']:.2f})"
            if ratio
            else "1×"
        )
        rows.append(
            [f"`{cold['commands'][name]}`", _f(f["median"]), _f(f["p95"]), shown]
        )
    slowest = ", ".join(
        f"`{entry['module']}` {entry['own_ms']:.1f} ms"
        for entry in cold["slowest_imports_own_ms"][:5]
    )
    heavy = ", ".join(cold["heavy_modules_imported"]) or "none"
    return [
        "Whole-process: each sample starts a fresh interpreter and waits for it to "
        f"exit; the commands are interleaved, {cold['runs']} rounds after one "
        "warm-up, and each sample is divided by the `python -c pass` sample of "
        "its round (median and range of those ratios). `akit` is run as "
        "`python -m artemiskit_cli` so that no launcher shim is timed.",
        "",
        *_table(["command", "median ms", "p95 ms", "× `python -c pass`"], rows),
        "",
        f"Under `-X importtime` validation imports {cold['modules_imported']} "
        f"modules ({_f(cold['import_ms'])} ms of import time, inflated by the "
        f"measurement); the slowest: {slowest}. The engine, network, Docker or "
        f"report libraries imported: **{heavy}**.",
    ]


def _sandbox(sandbox: dict[str, Any]) -> list[str]:
    if sandbox.get("skipped", True):
        return [
            "Skipped: " + sandbox.get("reason", "not requested") + ".",
            "",
            "Run `bash scripts/ci-docker.sh` (root) to start a Docker engine and "
            "build the sandbox image, then run the suite again.",
        ]
    ms = sandbox["ms"]
    rows = []
    for op, ratio in sandbox["exec_vs_helper"].items():
        ours, theirs = ms[f"helper {op}"], ms[f"exec {op}"]
        rows.append(
            [
                op,
                _f(ours["median"], 2),
                _f(ours["p95"], 2),
                _f(theirs["median"], 1),
                _f(theirs["p95"], 1),
                f"{ratio['median']:.0f}×",
                f"{ratio['min']:.0f}–{ratio['max']:.0f}×",
                str(ratio["n"]),
            ]
        )
    lifecycle = [
        ("ready (`DockerSandboxFactory.create`, no files)", "ready", 0),
        ("cleanup (`close`, container confirmed removed)", "cleanup", 0),
        ("helper ping (no file work: the channel's floor)", "helper ping", 2),
    ]
    return [
        "In-process, against the real Docker engine and the image "
        f"`{sandbox['image']}`. {sandbox['containers']} sandboxes created one after "
        "another; in each, every operation is timed as "
        f"{sandbox['pairs_per_container']} interleaved pairs: one round trip "
        "through the helper (content as raw length-framed bytes), then the same "
        "operation as one `docker exec` in the same container (`cat FILE` to "
        'read, `sh -c \'printf %s "$1" > "$2"\'` to write), on the exec\'s '
        "clock: created, started, its output read to the end and its exit code "
        "checked. Each pair gives one ratio exec / helper; the table shows their "
        "median and range.",
        "",
        *_table(
            [
                "operation",
                "helper median ms",
                "helper p95 ms",
                "exec median ms",
                "exec p95 ms",
                "exec / helper (pairs)",
                "range",
                "pairs",
            ],
            rows,
        ),
        "",
        *_table(
            ["lifecycle", "median ms", "p95 ms", "samples"],
            [
                [
                    label,
                    _f(ms[key]["median"], digits),
                    _f(ms[key]["p95"], digits),
                    str(ms[key]["n"]),
                ]
                for label, key, digits in lifecycle
            ],
        ),
    ]


def _memory(memory: dict[str, Any]) -> list[str]:
    rows = [
        [label, _f(memory[key]["median"]), _f(memory[key]["p95"])]
        for label, key in (
            ("peak RSS of the process (`VmHWM`)", "peak_rss_mib"),
            ("RSS just before the run (interpreter + imports)", "rss_before_run_mib"),
            ("peak RSS − RSS before the run", "rss_growth_mib"),
            ("tracemalloc peak during the run", "tracemalloc_peak_mib"),
        )
    ]
    return [
        f"Whole-process: each sample is a fresh interpreter running one "
        f"{memory['steps']}-step run of measure 1 "
        f"(`python -m benchmarks._memory`); {memory['runs']} samples for RSS and "
        f"{memory['runs']} more with tracemalloc on (it slows the run, so it is "
        "kept apart).",
        "",
        *_table(["figure", "median MiB", "p95 MiB"], rows),
        "",
        "The resident set grows less than the tracemalloc peak because the "
        "interpreter reuses memory freed after start-up; the tracemalloc peak is "
        "what the run itself allocates at most (the conversation holds about "
        f"{memory['steps'] * 4 / 1024:.1f} MiB of text by the last step).",
    ]


def _profile(profile: dict[str, Any]) -> list[str]:
    rows = [
        [
            f"`{entry['function']}`",
            f"{entry['calls']:,}",
            _f(entry["own_ms"]),
            _f(entry["cumulative_ms"]),
        ]
        for entry in profile["top_by_own_time"][:12]
    ]
    evolve = [e for e in profile["top_by_own_time"] if "(evolve)" in e["function"]]
    share = ""
    if evolve:
        calls = evolve[0]["calls"]
        fraction = evolve[0]["own_ms"] / profile["total_ms"]
        share = (
            f" `attrs.evolve` alone takes {fraction:.0%} of all own time "
            f"({calls:,} calls, about {calls / profile['steps']:.0f} "
            "per step: every transition copies the frozen session state, some "
            "several times)."
        )
    return [
        f"cProfile of one {profile['steps']}-step run (measure 1's workload), top "
        f"entries by own time; {_f(profile['total_ms'])} ms in all under the "
        "profiler, which inflates every call alike." + share,
        "",
        *_table(["function", "calls", "own ms", "cumulative ms"], rows),
    ]


def _peers(peers: dict[str, Any]) -> list[str]:
    if peers.get("skipped", True):
        return ["Not run: " + peers.get("reason", "skipped") + "."]
    names = {
        "none": ("LangGraph, no checkpointer", "ArtemisKit, no durability"),
        "sync": (
            'LangGraph, `SqliteSaver`, `durability="sync"`',
            "ArtemisKit, durable checkpoint on every transition",
        ),
    }
    lines = [
        "Optional and separate from the engine's own figures. "
        + ", ".join(f"{name} {version}" for name, version in peers["versions"].items())
        + f" in a throwaway virtual environment ({peers['environment']}); never a "
        "dependency of this project. The same workload: a ReAct loop "
        "(`StateGraph(MessagesState)` with an agent node, a `ToolNode` and "
        "`tools_condition`), a minimal `BaseChatModel` subclass answering "
        "instantly with 2,048 bytes of text and one `read_file` tool call, a tool "
        f"returning 2,048 bytes, {peers['steps']} steps, run with the synchronous "
        "`invoke`. A step is the interval between two model invocations, windows "
        "as in measure 1. Like for like: LangGraph without a checkpointer against "
        "ArtemisKit without durability, and LangGraph's SQLite checkpointer with "
        'synchronous durability (`durability="sync"`, a file in a temporary '
        "directory) against ArtemisKit's durable journal. Each comparison is a "
        "series of interleaved pairs (one LangGraph run in its own interpreter, "
        "then one ArtemisKit run, again and again); each pair gives a ratio "
        "LangGraph / ArtemisKit at every mark.",
    ]
    for variant, figures in peers["variants"].items():
        theirs_name, ours_name = names[variant]
        rows = []
        for mark, theirs in figures["langgraph_per_step_us"].items():
            ours = figures["ours_per_step_us"][mark]
            ratio = peers["pairs"][variant][mark]
            rows.append(
                [
                    mark,
                    _f(ours["median"]),
                    _f(theirs["median"]),
                    f"{ratio['median']:.1f}×",
                    f"{ratio['min']:.1f}–{ratio['max']:.1f}×",
                    str(ratio["n"]),
                ]
            )
        lines += [
            "",
            f"**{theirs_name}** against **{ours_name}**:",
            "",
            *_table(
                [
                    "step",
                    "ArtemisKit median µs",
                    "LangGraph median µs",
                    "LangGraph / ArtemisKit (pairs)",
                    "range",
                    "pairs",
                ],
                rows,
            ),
        ]
    return lines


def _targets(targets: list[dict[str, Any]]) -> list[str]:
    rows = [
        [t["measure"], t["target"], t["measured"], _verdict(t["met"])] for t in targets
    ]
    return _table(
        ["SPEC 10 measure", "target", "measured", "verdict"], rows, numeric=False
    )


def _misses(results: dict[str, Any], targets: list[dict[str, Any]]) -> list[str]:
    """One line per missed or unmeasured target: the figures that explain it."""
    lines: list[str] = []
    for target in targets:
        if target["met"] is True:
            continue
        explanation = _EXPLAIN.get(target["target"])
        why = explanation(results) if explanation is not None else ""
        if not why and target["met"] is None:
            why = target["measured"].removeprefix("not measured (").rstrip(")")
            why = why[:1].upper() + why[1:] + "."
        verdict = "missed" if target["met"] is False else "not measured"
        lines.append(f"- **{target['target']}** ({verdict}). {why}".rstrip())
    return lines


def _explain_sandbox(results: dict[str, Any]) -> str:
    sandbox = results["sandbox"]
    if sandbox.get("skipped", True):
        return ""
    ping = sandbox["ms"]["helper ping"]["median"]
    return (
        f"A helper ping, answered by shell builtins alone, takes {ping:.2f} ms; "
        "the rest of a round trip is the busybox processes the helper starts per "
        "request inside the container (`stat` and one `dd` to send a file, one "
        "`dd` to write one), each a fork on a loaded 2-core machine. The content "
        "itself travels raw (no encoding on either side)."
    )


def _explain_cold(results: dict[str, Any]) -> str:
    cold = results["cold_start"]
    slowest = ", ".join(
        f"`{entry['module']}` {entry['own_ms']:.1f} ms"
        for entry in cold["slowest_imports_own_ms"][:5]
    )
    return (
        f"Validation imports {cold['modules_imported']} modules "
        f"({_f(cold['import_ms'])} ms under `-X importtime`, which inflates it); "
        f"the slowest: {slowest}. None is the engine, network, Docker or report "
        "code any more; what is left is click, attrs, ruamel.yaml, cattrs and "
        "the workflow contract itself, and compiling the workflow's JSON Schema "
        "with fastjsonschema on every run. Shipping the compiled validator of "
        "the built-in schema (regenerated when the catalogue changes) would "
        "remove the compile."
    )


def _explain_cleanup(results: dict[str, Any]) -> str:
    sandbox = results["sandbox"]
    if sandbox.get("skipped", True):
        return ""
    return (
        "`close` ends the helper's input and waits on the engine's `removed` "
        "condition (no kill, no polling), then confirms by label that nothing "
        "is left: nearly all of the time is the Docker engine tearing the "
        "container down (the task's exit, unmounting the tmpfs and the root "
        "file system, removing the container), which grows with the machine's "
        f"load ({results['machine']['load_average_1min']['start']:.1f} on "
        f"{results['machine']['cores']} cores at the start of this run)."
    )


def _explain_engine(results: dict[str, Any]) -> str:
    return (
        "The engine's own profile is under “Where the engine's time goes” below; "
        "the engine hot path is issue 16's engine side."
    )


def _explain_sessions(results: dict[str, Any]) -> str:
    levels = results["concurrency"]["levels"]
    if "1000" not in levels:
        return ""
    cost = levels["1000"]["engine_ms_per_session"]
    return (
        f"At 1000 sessions the loop is saturated: each session costs "
        f"{cost:.2f} ms of engine CPU (10 steps, outcomes, record), so 1000 of "
        "them take longer than the 200 ms the model waits hide."
    )


_EXPLAIN = {
    "≥ 10× cheaper than LangGraph without a checkpointer": _explain_engine,
    "step 500 / step 10 ≤ 1.1": _explain_engine,
    "wall ≤ 2× one session's wall": _explain_sessions,
    "cleanup ≤ 150 ms": _explain_cleanup,
    "median ≤ 2 ms": _explain_sandbox,
    "≥ 30× cheaper than one `docker exec`, timed interleaved": _explain_sandbox,
    "`akit scenario validate` ≤ 2.5× `python -c pass`": _explain_cold,
}


def render_markdown(results: dict[str, Any]) -> str:
    """The whole ``docs/performance.md`` page."""
    targets = results["targets"]
    lines = [
        "# Performance",
        "",
        "<!-- Generated by `python -m benchmarks`; do not edit by hand. -->",
        "",
        "The engine must never be the bottleneck next to a model (SPEC 10). These "
        "figures come from the benchmark suite in `benchmarks/`, run offline on "
        "the machine below; the raw numbers are in `benchmarks/results/latest.json`."
        " Reproduce them with:",
        "",
        "```sh",
        "python -m benchmarks            # or: python -m nox -s benchmarks",
        "python -m benchmarks --quick --skip-sandbox --skip-peers --skip-suite",
        "```",
        "",
        "A full run rewrites this page and `benchmarks/results/latest.json`. A "
        "`--quick` run never does: it writes both files to the scratch folder "
        "`build/benchmarks-quick/` (ignored by git), or to the folder given with "
        "`--output DIR`, which may not be `docs/` or `benchmarks/results/`.",
        "",
        "Tests never assert on timing; this page is where speed is measured.",
        "",
        "## Machine",
        "",
        *_machine(results),
        "",
        "## Targets",
        "",
        "Every target of SPEC section 10, judged from this run alone, at commit "
        f"{_commit(results)} ({results['machine']['date']}). Ratios are medians "
        "of interleaved pairs (range in brackets).",
        "",
        *_targets(targets),
        "",
    ]
    misses = _misses(results, targets)
    if misses:
        lines += ["Where a target is missed or not measured, why:", "", *misses, ""]
    lines += [
        "## 1. Per-step engine overhead",
        "",
        *_per_step(results["per_step"]),
        "",
        *_checkpointed(results.get("per_step_checkpointed")),
        "## 2. Many sessions at once",
        "",
        *_concurrency(results["concurrency"]),
        "",
        "## 3. Cold start: `akit scenario validate`, `akit --help`",
        "",
        *_cold_start(results["cold_start"]),
        "",
        "## 4. Docker sandbox",
        "",
        *_sandbox(results["sandbox"]),
        "",
        "## 5. Peak memory of a long run",
        "",
        *_memory(results["memory"]),
        "",
        "## 6. Suite runner",
        "",
        *_suite_runner(results.get("suite_runner", {})),
        "",
        "## Where the engine's time goes",
        "",
        *_profile(results["profile"]),
        "",
        "## Side by side: LangGraph",
        "",
        *_peers(results["peers"]),
        "",
        *(
            [
                "## Suites: runs versus bookkeeping",
                "",
                *render_share(results["suite"]),
                "",
            ]
            if not results.get("suite", {"skipped": True}).get("skipped", False)
            else []
        ),
        "## How to read these figures",
        "",
        "- **Median** is the typical cost; **p95** shows the tail (garbage "
        "collection, the scheduler, a busy neighbour). Compare medians across "
        "runs and machines; treat p95 as a warning light.",
        "- **In-process** figures time code inside one running interpreter (no "
        "start-up); **whole-process** figures include starting and ending an "
        "interpreter, as a user or CI job sees them.",
        "- The engine's figures use an *instant* target: they are the cost the "
        "engine adds on top of a real model, whose latency (hundreds of "
        "milliseconds per call) dwarfs them. The 20 ms target of measure 2 stands "
        "for a model's latency so that overlap between sessions shows.",
        "- Figures move by ±20% between runs on a shared 2-core machine, and far "
        "more when the machine is overloaded (see the load average above). Every "
        "comparison is therefore made of interleaved pairs (A, B, A, B, ...: "
        "helper and `docker exec`, each command and `python -c pass`, LangGraph "
        "and ArtemisKit), so drift hits both sides alike; the range of the pair "
        "ratios shows how steady they were.",
        "- `--quick` runs fewer repetitions (and concurrency up to 100 sessions); "
        "its figures are for a look, not for publishing, so it never writes them "
        "here.",
        "",
    ]
    return "\n".join(lines)
