"""Render ``docs/performance.md`` from the JSON results (never edited by hand)."""

from __future__ import annotations

from typing import Any

from benchmarks.suite_runner import render_share, share_target

__all__ = ["evaluate_targets", "render_markdown"]

_GIB = 1024**3
_VS_LANGGRAPH = "engine ≥ 10× cheaper per step than LangGraph (no checkpointer)"


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


def evaluate_targets(results: dict[str, Any]) -> list[dict[str, Any]]:
    """The issue's three targets, each with the measured figure and a verdict."""
    targets: list[dict[str, Any]] = []
    per_step = results["per_step"]
    targets.append(
        {
            "name": "per-step overhead at step 500 within 1.5× of step 10",
            "target": "≤ 1.5×",
            "measured": f"{per_step['ratio_last_to_first']:.2f}×",
            "met": per_step["ratio_last_to_first"] <= 1.5,
        }
    )
    peers = results.get("peers", {})
    if peers.get("skipped", True):
        targets.append(
            {
                "name": _VS_LANGGRAPH,
                "target": "≥ 10×",
                "measured": "not measured (" + peers.get("reason", "skipped") + ")",
                "met": None,
            }
        )
    else:
        ratios = peers["langgraph_vs_engine"]["none"]
        worst = min(ratios.values())
        targets.append(
            {
                "name": _VS_LANGGRAPH,
                "target": "≥ 10×",
                "measured": ", ".join(
                    f"step {mark}: {ratio:.1f}×" for mark, ratio in ratios.items()
                ),
                "met": worst >= 10,
            }
        )
    sandbox = results.get("sandbox", {})
    if sandbox.get("skipped", True):
        targets.append(
            {
                "name": "sandbox file operations ≥ 30× cheaper than one docker exec",
                "target": "≥ 30×",
                "measured": "not measured (" + sandbox.get("reason", "skipped") + ")",
                "met": None,
            }
        )
    else:
        ratios = sandbox["exec_vs_sandbox"]
        targets.append(
            {
                "name": "sandbox file operations ≥ 30× cheaper than one docker exec",
                "target": "≥ 30×",
                "measured": ", ".join(f"{op}: {r:.0f}×" for op, r in ratios.items()),
                "met": min(ratios.values()) >= 30,
            }
        )
    if "suite" in results:
        targets.append(share_target(results["suite"]))
    return targets


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
    rows = [
        [f"`{cold['commands'][name]}`", _f(f["median"]), _f(f["p95"]), str(f["n"])]
        for name, f in cold["ms"].items()
    ]
    slowest = ", ".join(
        f"`{entry['module']}` {entry['own_ms']:.1f} ms"
        for entry in cold["slowest_imports_own_ms"][:5]
    )
    heavy = ", ".join(cold["heavy_modules_imported"]) or "none"
    return [
        "Whole-process: each sample starts a fresh interpreter and waits for it to "
        f"exit; the commands are interleaved, {cold['runs']} samples each after "
        "one warm-up. `akit` is run as `python -m artemiskit_cli` so that no "
        "launcher shim is timed.",
        "",
        *_table(["command", "median ms", "p95 ms", "samples"], rows),
        "",
        f"Validation costs {_f(cold['validate_minus_python_ms'])} ms over a bare "
        f"interpreter ({cold['validate_vs_python']:.1f}×). Under `-X importtime` "
        f"it imports {cold['modules_imported']} modules ({_f(cold['import_ms'])} ms "
        f"of import time, inflated by the measurement); the slowest: {slowest}. "
        f"Heavy libraries imported (httpx, aiodocker, aiohttp): **{heavy}**.",
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
    share = sandbox["host_cpu_share"]
    for op, ratio in sandbox["exec_vs_sandbox"].items():
        ours, theirs = ms[f"sandbox {op}"], ms[f"exec {op}"]
        rows.append(
            [
                op,
                _f(ours["median"], 2),
                _f(ours["p95"], 2),
                f"{share[f'sandbox {op}']:.0%}",
                _f(theirs["median"], 1),
                _f(theirs["p95"], 1),
                f"{ratio:.0f}×",
            ]
        )
    ping = ms["sandbox ping"]
    return [
        "In-process, against the real Docker engine and the image "
        f"`{sandbox['image']}`. {sandbox['containers']} sandboxes created one after "
        f"another; in each, {sandbox['ops_per_container']} round trips per "
        "operation through the helper, then "
        f"{sandbox['execs_per_container']} `docker exec` per operation in the same "
        'container (`cat FILE` to read, `sh -c \'printf %s "$1" > "$2"\'` to '
        "write), each exec awaited until its output stream ends.",
        "",
        "“Host CPU share” is the benchmark process's CPU time over the wall time "
        "of those round trips: the rest is spent waiting on Docker and the "
        "container.",
        "",
        *_table(
            [
                "operation",
                "sandbox median ms",
                "sandbox p95 ms",
                "host CPU share",
                "exec median ms",
                "exec p95 ms",
                "exec / sandbox",
            ],
            rows,
        ),
        "",
        *_table(
            ["lifecycle", "median ms", "p95 ms", "samples"],
            [
                [
                    "ready (`DockerSandboxFactory.create`, no files)",
                    _f(ms["ready"]["median"]),
                    _f(ms["ready"]["p95"]),
                    str(ms["ready"]["n"]),
                ],
                [
                    "cleanup (`close`, container confirmed removed)",
                    _f(ms["cleanup"]["median"]),
                    _f(ms["cleanup"]["p95"]),
                    str(ms["cleanup"]["n"]),
                ],
                [
                    "helper ping (no file work: the channel's floor)",
                    _f(ping["median"], 2),
                    _f(ping["p95"], 2),
                    str(ping["n"]),
                ],
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


def _peers(peers: dict[str, Any], per_step: dict[str, Any]) -> list[str]:
    if peers.get("skipped", True):
        return ["Not run: " + peers.get("reason", "skipped") + "."]
    figures = peers["checkpointers"]
    versions = next(iter(figures.values()))["versions"]
    header = ["step", "ArtemisKit median µs"]
    names = {"none": "no checkpointer", "sqlite": "SqliteSaver"}
    for checkpointer in figures:
        header += [
            f"LangGraph {names[checkpointer]} median µs",
            "p95 µs",
            "LangGraph / ArtemisKit",
        ]
    rows = []
    for mark, ours in per_step["marks"].items():
        row = [mark, _f(ours["per_step_us"]["median"])]
        for checkpointer, result in figures.items():
            theirs = result["marks"][mark]["per_step_us"]
            ratio = peers["langgraph_vs_engine"][checkpointer][mark]
            row += [_f(theirs["median"]), _f(theirs["p95"]), f"{ratio:.1f}×"]
        rows.append(row)
    runs = ", ".join(
        f"{names[c]}: {r['runs']} runs (whole run median {_f(r['run_ms']['median'])}"
        " ms)"
        for c, r in figures.items()
    )
    return [
        "Optional and separate from the engine's own figures. "
        + ", ".join(f"{name} {version}" for name, version in versions.items())
        + f" in a throwaway virtual environment ({peers['environment']}); never a "
        "dependency of this project. The same workload: a ReAct loop "
        "(`StateGraph(MessagesState)` with an agent node, a `ToolNode` and "
        "`tools_condition`), a minimal `BaseChatModel` subclass answering "
        "instantly with 2,048 bytes of text and one `read_file` tool call, a tool "
        f"returning 2,048 bytes, {peers['steps']} steps, run with the synchronous "
        "`invoke`. A step is the interval between two model invocations, windows "
        f"as in measure 1. {runs}. The SQLite checkpointer writes to a file in a "
        "temporary directory.",
        "",
        *_table(header, rows),
    ]


def _targets(targets: list[dict[str, Any]]) -> list[str]:
    rows = [
        [t["name"], t["target"], t["measured"], _verdict(t["met"])] for t in targets
    ]
    return _table(
        ["target (issue 6)", "wanted", "measured", "verdict"], rows, numeric=False
    )


def _misses(results: dict[str, Any], targets: list[dict[str, Any]]) -> list[str]:
    lines: list[str] = []
    missed = {t["name"].split()[0]: t for t in targets if t["met"] is False}
    if "per-step" in missed:
        lines += [
            "- **Per-step growth.** The step time grows with the conversation; the "
            "profile above shows which transitions copy state per step.",
        ]
    if "engine" in missed:
        lines += [
            "- **Against LangGraph.** The engine is less than 10× cheaper per "
            "step; see the profile above for where its step time goes.",
        ]
    if "sandbox" in missed and not results["sandbox"].get("skipped", True):
        ms = results["sandbox"]["ms"]
        share = results["sandbox"]["host_cpu_share"]
        ping = ms["sandbox ping"]["median"]
        read = ms["sandbox read 64B"]["median"]
        write = ms["sandbox write 64B"]["median"]
        lines += [
            "- **Sandbox versus exec.** A helper ping, answered by shell builtins "
            f"alone, takes {ping:.2f} ms; a 64 B read takes {read:.2f} ms and a "
            f"64 B write {write:.2f} ms. The difference is the processes the "
            "POSIX-sh helper forks per request inside the container: one "
            "`base64 -w0` to encode a read, a `dd | base64 -d | dd` pipeline to "
            "stream a write (plain paths are checked without any process), not "
            "Python: the host process is on the CPU for only "
            f"{share['sandbox read 64B']:.0%} of a 64 B read's and "
            f"{share['sandbox write 64B']:.0%} of a 64 B write's wall time "
            "(encoding base64, then waiting on the attached stream). At 64 KB the "
            "payload is 87 KB of base64 that busybox decodes or encodes in the "
            "container and Python on the host, carried over the attached stream "
            "in chunks; that work, not the request protocol, keeps 64 KB "
            "operations above the 1/30 mark. A binary-safe framing without base64 "
            "would remove it; not done.",
        ]
    return lines


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
        "python -m benchmarks --quick --skip-sandbox --skip-peers   # a fast look",
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
        *_targets(targets),
        "",
    ]
    misses = _misses(results, targets)
    if misses:
        lines += ["Where a target is missed, why:", "", *misses, ""]
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
        "## 3. `akit scenario validate` cold start",
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
        "## Where the engine's time goes",
        "",
        *_profile(results["profile"]),
        "",
        "## Side by side: LangGraph",
        "",
        *_peers(results["peers"], results["per_step"]),
        "",
        *(
            [
                "## Suites: runs versus bookkeeping",
                "",
                *render_share(results["suite"]),
                "",
            ]
            if "suite" in results
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
        "- Figures move by ±20% between runs on a shared 2-core machine; ratios "
        "measured in the same run (step 500 / step 10, exec / sandbox, LangGraph "
        "/ ArtemisKit) are steadier than absolute times.",
        "- `--quick` runs fewer repetitions (and concurrency up to 100 sessions); "
        "its figures are for a look, not for publishing, so it never writes them "
        "here.",
        "",
    ]
    return "\n".join(lines)
