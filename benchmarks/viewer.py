"""The interactive report at scale (SPEC 21): page size, opening, filtering, building.

``python -m benchmarks.viewer [--quick] [--sizes 1000,10000,100000]`` prints one
JSON object with, for each suite size:

- ``page_bytes`` and ``bytes_per_run``: the HTML file ``akit report DIR --html F``
  writes (target: at most 300 bytes per run at 100,000 runs);
- ``read_s``: reading the suite folder (`load_report_input`: ``suite.json`` and
  every record, validated) and ``build_s``: making the page from what was read
  (`report_html`), with their ratio (target: build at most 2x read);
- ``interactive_ms``: from navigation start to the viewer's ``artemiskit-ready``
  performance mark in headless Chromium from ``file://``, opened at the Runs
  view (``#runs``, as a deep link does; target: <= 3 s), and
  ``interactive_overview_ms`` opened at its overview (its charts drawn first);
- ``filter_ms``: each filter over all runs (a verdict, a workflow, a cause, a
  search by id, a sort by duration), from the control's change to two animation
  frames later, so the list is drawn (target: <= 200 ms); ``run_ms``: opening a
  run's view by its link.

The suites are synthesised: records that validate against the record schema
(version 4), in ten workflows with their verdicts, causes, tools, faults and
retries varied, written to a temporary folder with a ``suite.json`` built by the
suite's own bookkeeping. Each size is measured once per sitting (the 100,000-run
page takes a while to write and read); the figures are single measurements.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
import attrs

from artemiskit.records import (
    ExecutionRecord,
    SuiteRecord,
    SuiteSettingsInfo,
    encode_suite_record,
    record_from_dict,
    record_to_dict,
    suite_record_to_dict,
)
from artemiskit.reports import load_report_input, report_html
from artemiskit.reports._inputs import ReportInput, run_key
from artemiskit.suites._record import (
    RunOutcome,
    summarize_workflow,
    target_id,
    totals,
    unit_of,
)
from benchmarks._stats import machine_info

__all__ = [
    "CHROMIUM",
    "measure_page",
    "measure_viewer",
    "render_viewer",
    "synthesized_evidence",
    "synthesized_records",
    "write_suite",
]

CHROMIUM = "/usr/bin/chromium"
SIZES = (1_000, 10_000, 100_000)
WORKFLOWS = 10
_ROOT = Path(__file__).resolve().parent.parent
_DIGEST = "sha256:" + "0" * 64


def _operation(number: int, kind: str, tool: str | None, **more: Any) -> dict[str, Any]:
    return {
        "number": number,
        "kind": kind,
        "status": more.get("status", "succeeded"),
        "tool": tool,
        "attempt": more.get("attempt", 1),
        "reason": more.get("reason"),
    }


def _base(workflow: str) -> dict[str, Any]:
    """A passed run of ``workflow``: three model requests and two tool calls."""
    return {
        "schema": "artemiskit.workflow-record",
        "schema_version": 4,
        "run_id": "0" * 32,
        "attempt_id": "1" * 32,
        "workflow": {"name": workflow, "digest": _DIGEST, "version": 1},
        "target": {
            "provider": "scripted",
            "model": workflow,
            "transport_digest": _DIGEST,
            "provider_retries": 0,
        },
        "environment_kind": "simulated",
        "execution": {
            "status": "completed",
            "reason": "all_turns_completed",
            "started_at": "2026-12-03T12:00:00.000+00:00",
            "finished_at": "2026-12-03T12:00:00.100+00:00",
            "duration_ms": 100,
        },
        "exit_code": 0,
        "budget": {
            "limits": {
                "max_actions": 10,
                "timeout_ms": 60000,
                "max_model_requests": 5,
                "max_tool_calls": 4,
                "max_tokens": 5000,
            },
            "used": {
                "actions": 5,
                "model_requests": 3,
                "tool_calls": 2,
                "input_tokens": 300,
                "output_tokens": 55,
            },
            "usage_measurement": "complete",
            "measured_input_tokens": 300,
            "measured_output_tokens": 55,
            "unmeasured_responses": 0,
            "overshoot_tokens": 0,
        },
        "policy": {"on_denial": "report", "denials": 0, "denial_reasons": {}},
        "tools": [
            {
                "tool": name,
                "calls": 1,
                "succeeded": 1,
                "failed": 0,
                "denied": 0,
                "attempts": 1,
            }
            for name in ("read_file", "write_file")
        ],
        "operations": {
            "total": 5,
            "succeeded": 5,
            "failed": 0,
            "unknown": 0,
            "pending": 0,
            "omitted": 0,
        },
        "state_changes": {
            "count": 1,
            "omitted": 0,
            "entries": [
                {
                    "tool": "write_file",
                    "resource": "file",
                    "before": None,
                    "after": "sha256:" + "a" * 64,
                }
            ],
        },
        "events": {"emitted": 20, "dropped": 0, "readers": 0},
        "cleanup": {
            "status": "complete",
            "reason": None,
            "timeout_ms": 1000,
            "unresolved": 0,
        },
        "preflight": {
            "mode": "off",
            "status": "not_run",
            "reason": None,
            "model_requests": 0,
            "tool_calls": 0,
            "input_tokens": 0,
            "output_tokens": 0,
            "unmeasured_responses": 0,
        },
        "judge": {
            "configured": False,
            "provider": None,
            "model": None,
            "transport_digest": None,
            "max_requests": None,
            "max_tokens": None,
            "timeout_ms": None,
            "requests": 0,
            "input_tokens": 0,
            "output_tokens": 0,
            "usage_measurement": "complete",
        },
        "faults": {
            "declared": 0,
            "injected": 0,
            "unconsumed": 0,
            "by_kind": {},
            "max_attempts": 1,
            "retries": 0,
            "recovered_calls": 0,
            "exhausted_calls": 0,
            "attempts_per_call": {},
        },
        "recovery": {
            "checkpointing": False,
            "attempt_number": 1,
            "resumed_from_attempt": None,
            "checkpoint_status": "none",
            "resumable": False,
            "pause_after_actions": None,
        },
        "task_verification": {
            "status": "passed",
            "reason": "all_requirements_passed",
            "requirements": [
                {
                    "id": "answer-written",
                    "kind": "file",
                    "status": "passed",
                    "reason": "satisfied",
                },
                {
                    "id": "read-once",
                    "kind": "tool_called",
                    "status": "passed",
                    "reason": "satisfied",
                },
            ],
        },
        "verdict": {"status": "passed", "why": None},
        "timeline": {
            "entries": [
                _operation(1, "model_request", None),
                _operation(2, "tool_call", "read_file"),
                _operation(3, "model_request", None),
                _operation(4, "tool_call", "write_file"),
                _operation(5, "model_request", None),
            ],
            "omitted": 0,
        },
    }


def _failed(data: dict[str, Any]) -> None:
    data["exit_code"] = 8
    verification = data["task_verification"]
    verification.update(status="failed", reason="requirement_failed")
    verification["requirements"][0].update(status="failed", reason="missing_content")
    data["verdict"] = {
        "status": "failed",
        "why": {
            "kind": "requirement",
            "id": "answer-written",
            "reason": "missing_content",
            "step": None,
        },
    }


def _retried(data: dict[str, Any]) -> None:
    """A declared tool fault, injected once and recovered by one retry."""
    data["faults"].update(
        declared=1,
        injected=1,
        by_kind={"timeout": {"declared": 1, "injected": 1}},
        max_attempts=2,
        retries=1,
        recovered_calls=1,
        attempts_per_call={"2": 1},
    )
    entries = data["timeline"]["entries"]
    entries[1:2] = [
        _operation(2, "tool_call", "read_file", status="failed", reason="timeout"),
        _operation(2, "tool_call", "read_file", attempt=2),
    ]
    data["tools"][0].update(attempts=2)


def _errored(data: dict[str, Any]) -> None:
    data["execution"].update(status="runtime_failure", reason="provider_unavailable")
    data["exit_code"] = 7
    data["task_verification"] = {
        "status": "unavailable",
        "reason": "execution_incomplete",
        "requirements": [],
    }
    data["verdict"] = {
        "status": "errored",
        "why": {
            "kind": "infrastructure",
            "id": None,
            "reason": "provider_unavailable",
            "step": 3,
        },
    }
    entries = data["timeline"]["entries"][:3]
    entries[2] = _operation(3, "model_request", None, status="failed")
    data["timeline"]["entries"] = entries


def _stopped(data: dict[str, Any]) -> None:
    data["execution"].update(status="budget_exhausted", reason="max_tool_calls")
    data["exit_code"] = 5
    data["verdict"] = {
        "status": "failed",
        "why": {"kind": "stop", "id": None, "reason": "max_tool_calls", "step": 5},
    }
    data["tools"].append(
        {
            "tool": "search_documents",
            "calls": 2,
            "succeeded": 2,
            "failed": 0,
            "denied": 0,
            "attempts": 2,
        }
    )


def _unavailable(data: dict[str, Any]) -> None:
    data["task_verification"].update(status="unavailable", reason="judge_unavailable")
    data["task_verification"]["requirements"][0].update(
        kind="judge", status="unavailable", reason="judge_unavailable"
    )
    data["verdict"] = {
        "status": "unavailable",
        "why": {
            "kind": "requirement",
            "id": "answer-written",
            "reason": "judge_unavailable",
            "step": None,
        },
    }


#: (share of runs, what makes the run so), in order; the rest pass.
_KINDS = (
    (0.12, _failed),
    (0.04, _stopped),
    (0.03, _errored),
    (0.02, _unavailable),
    (0.08, _retried),
)


def _templates(workflow: str) -> list[tuple[float, ExecutionRecord]]:
    """Each kind of run of ``workflow``, validated against the record schema."""
    found = []
    for share, change in (*_KINDS, (1.0, lambda data: None)):
        data = _base(workflow)
        change(data)
        found.append((share, record_from_dict(data)))
    return found


def synthesized_records(
    runs: int, *, workflows: int = WORKFLOWS, seed: int = 0
) -> list[ExecutionRecord]:
    """``runs`` records spread over ``workflows`` workflows, in suite order."""
    chance = random.Random(seed)
    per_workflow = [
        runs // workflows + (1 if n < runs % workflows else 0) for n in range(workflows)
    ]
    found: list[ExecutionRecord] = []
    for number, count in enumerate(per_workflow):
        templates = _templates(f"workflow-{number:02d}")
        for _ in range(count):
            draw = chance.random()
            template = templates[-1][1]
            for share, candidate in templates:
                if draw < share:
                    template = candidate
                    break
                draw -= share
            tokens = chance.randint(200, 4000)
            record = attrs.evolve(
                template,
                run_id=f"{chance.getrandbits(128):032x}",
                attempt_id=f"{chance.getrandbits(128):032x}",
                execution=attrs.evolve(
                    template.execution, duration_ms=chance.randint(20, 20_000)
                ),
                budget=attrs.evolve(
                    template.budget,
                    used=attrs.evolve(
                        template.budget.used,
                        input_tokens=tokens,
                        output_tokens=tokens // 8,
                    ),
                    measured_input_tokens=tokens,
                    measured_output_tokens=tokens // 8,
                ),
            )
            found.append(record)
    return found


def _suite(records: list[ExecutionRecord]) -> tuple[SuiteRecord, list[str]]:
    """The suite record of ``records`` and each record's file, as a suite keeps them."""
    by_workflow: dict[str, list[RunOutcome]] = {}
    files = []
    for record in records:
        mine = by_workflow.setdefault(record.workflow.name, [])
        name = f"runs/{record.workflow.name}/{len(mine) + 1:06d}.record.json"
        files.append(name)
        mine.append(
            RunOutcome(
                workflow=record.workflow.name,
                repetition=len(mine) + 1,
                record=record,
                record_file=name,
                duration_ms=record.execution.duration_ms,
            )
        )
    workflows = [
        summarize_workflow(
            name,
            outcomes[0].record.workflow.digest if outcomes[0].record else _DIGEST,
            target_id("scripted", name),
            outcomes,
        )
        for name, outcomes in by_workflow.items()
    ]
    everything = [o for outcomes in by_workflow.values() for o in outcomes]
    suite = SuiteRecord(
        suite_id="f" * 32,
        started_at="2026-12-03T12:00:00.000Z",
        finished_at="2026-12-03T13:00:00.000Z",
        status="completed",
        reason="all_runs_finished",
        settings=SuiteSettingsInfo(
            repeat=max(len(o) for o in by_workflow.values()),
            concurrency=4,
            executor="local",
            min_pass_rate=1.0,
            max_suite_tokens=None,
            max_errored=0,
        ),
        totals=totals(
            everything, len(everything), sum(o.duration_ms for o in everything)
        ),
        exit_code=7,
        units=tuple(unit_of(entry) for entry in workflows),
        workflows=tuple(workflows),
    )
    return suite, files


def synthesized_evidence(runs: int) -> ReportInput:
    """A suite of ``runs`` synthesised runs, as `load_report_input` would give it."""
    records = synthesized_records(runs)
    typed, _ = _suite(records)
    suite = suite_record_to_dict(typed)
    keyed = {}
    for workflow in suite["workflows"]:
        for run, record in zip(
            workflow["runs"],
            [r for r in records if r.workflow.name == workflow["name"]],
            strict=True,
        ):
            keyed[run_key(workflow["name"], run)] = record
    return ReportInput(kind="suite", suite=suite, records=keyed)


def write_suite(folder: Path, runs: int) -> None:
    """Write a suite folder of ``runs`` synthesised runs (``suite.json``, records)."""
    records = synthesized_records(runs)
    suite, files = _suite(records)
    for record, name in zip(records, files, strict=True):
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(record_to_dict(record)), "utf-8")
    (folder / "suite.json").write_bytes(encode_suite_record(suite))


_FILTERS = """async ([id, value]) => {
    const control = document.getElementById(id);
    const frames = () => new Promise(done =>
        requestAnimationFrame(() => requestAnimationFrame(done)));
    const start = performance.now();
    control.value = value;
    control.dispatchEvent(new Event(control.tagName === "INPUT" ? "input" : "change"));
    await frames();
    const shown = document.getElementById("runs-count").textContent;
    return [performance.now() - start, shown];
}"""

_OPEN_RUN = """async () => {
    const frames = () => new Promise(done =>
        requestAnimationFrame(() => requestAnimationFrame(done)));
    const start = performance.now();
    document.querySelector(".runrow a").click();
    await new Promise(done => addEventListener("hashchange", done, {once: true}));
    await frames();
    const title = document.getElementById("run-title").textContent;
    return [performance.now() - start, title];
}"""


def measure_page(page_path: Path, evidence: ReportInput) -> dict[str, Any]:
    """Open the page in headless Chromium; time to interactive, filters, a run."""
    from playwright.sync_api import sync_playwright

    workflow = evidence.suite["workflows"][1]["name"]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox"]
        )
        try:
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            page = context.new_page()
            page.goto(page_path.as_uri() + "#runs", wait_until="load", timeout=120_000)
            page.wait_for_selector(
                "body[data-ready=true]", state="attached", timeout=120_000
            )
            interactive = page.evaluate(
                "performance.getEntriesByName('artemiskit-ready')[0].startTime"
            )
            filters = {}
            for label, control, value in (
                ("verdict failed", "filter-verdict", "failed"),
                ("all verdicts", "filter-verdict", ""),
                ("a workflow", "filter-workflow", workflow),
                ("all workflows", "filter-workflow", ""),
                ("a cause", "filter-cause", "max_tool_calls (max_tool_calls)"),
                ("all causes", "filter-cause", ""),
                ("search by id", "search", "ab"),
                ("sort by duration", "sort", "duration"),
            ):
                elapsed, shown = page.evaluate(_FILTERS, [control, value])
                filters[label] = {"ms": elapsed, "shown": shown}
            run_ms, title = page.evaluate(_OPEN_RUN)
            context.close()
            # The same page opened at its overview (the charts drawn too).
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            page = context.new_page()
            page.goto(page_path.as_uri(), wait_until="load", timeout=120_000)
            page.wait_for_selector(
                "body[data-ready=true]", state="attached", timeout=120_000
            )
            overview = page.evaluate(
                "performance.getEntriesByName('artemiskit-ready')[0].startTime"
            )
        finally:
            browser.close()
    return {
        "interactive_ms": interactive,
        "interactive_overview_ms": overview,
        "filter_ms": filters,
        "filter_max_ms": max(f["ms"] for f in filters.values()),
        "run_ms": run_ms,
        "run_title": title,
    }


def _one_size(runs: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="akit-viewer-") as scratch:
        folder = Path(scratch) / "suite"
        write_suite(folder, runs)
        started = time.perf_counter()
        evidence = anyio.run(lambda: load_report_input([str(folder)]))
        read_s = time.perf_counter() - started
        started = time.perf_counter()
        page = report_html(evidence)
        build_s = time.perf_counter() - started
        page_path = Path(scratch) / "report.html"
        page_path.write_text(page, "utf-8")
        size = page_path.stat().st_size
        browser = measure_page(page_path, evidence)
    return {
        "runs": runs,
        "page_bytes": size,
        "bytes_per_run": size / runs,
        "read_s": read_s,
        "build_s": build_s,
        "build_vs_read": build_s / read_s,
        **browser,
    }


def measure_viewer(sizes: tuple[int, ...] = SIZES) -> dict[str, Any]:
    """Every figure of the module docstring, for each size."""
    return {
        "scope": "synthesised suites in 10 workflows; headless Debian Chromium "
        "from file://; single measurements",
        "machine": machine_info(_ROOT),
        "sizes": [_one_size(runs) for runs in sizes],
    }


def render_viewer(figures: dict[str, Any]) -> list[str]:
    """The figures as the Markdown of ``docs/performance.md``'s viewer section."""
    machine = figures["machine"]
    rows = []
    for size in figures["sizes"]:
        rows.append(
            f"| {size['runs']:,} | {size['page_bytes'] / 1e6:,.2f} MB "
            f"| {size['bytes_per_run']:,.0f} | {size['interactive_ms']:,.0f} "
            f"| {size['interactive_overview_ms']:,.0f} "
            f"| {size['filter_max_ms']:,.0f} | {size['run_ms']:,.0f} "
            f"| {size['read_s']:,.2f} | {size['build_s']:,.2f} "
            f"| {size['build_vs_read']:.2f}× |"
        )
    return [
        "`python -m benchmarks.viewer`: `akit report DIR --html F` on synthesised "
        "suites (records that validate against the record schema, ten workflows, "
        "passed, failed, stopped, errored and unavailable runs, faults and "
        "retries), the page opened from `file://` in headless Debian Chromium "
        f"on {machine['cpu_model']} ({machine['cores']} cores), Python "
        f"{machine['python']}, at commit {machine['git_commit'] or 'unknown'} "
        f"({machine['date']}). Single measurements.",
        "",
        "Targets (SPEC 21): at most 300 bytes per run at 100,000 runs; "
        "interactive in at most 3 s; a filter over all runs in at most 200 ms; "
        "the page built in at most 2× the time to read the records.",
        "",
        "| runs | page | bytes per run | interactive at Runs (ms) "
        "| interactive at overview (ms) | slowest filter (ms) "
        "| open a run (ms) | read (s) | build (s) | build / read |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        *rows,
        "",
        "Interactive: from navigation start to the viewer's `artemiskit-ready` "
        "mark (the data inflated, parsed and the first view drawn), opened at "
        "`#runs` (as a deep link does) and at the overview (its charts drawn "
        "first). A filter: "
        "from the control's change to two animation frames later (verdict, "
        "workflow, cause, a search by run id, a sort by duration; the slowest "
        "is shown). Read: `load_report_input` on the suite folder (`suite.json` "
        "and every record, validated); build: `report_html` on what was read.",
    ]


def main(argv: list[str] | None = None) -> int:
    """Measure and print the JSON (``--markdown``: the docs section instead)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1,000 runs only")
    parser.add_argument("--sizes", help="comma-separated suite sizes")
    parser.add_argument(
        "--markdown", action="store_true", help="print the docs section too"
    )
    arguments = parser.parse_args(argv)
    sizes: tuple[int, ...] = SIZES
    if arguments.sizes:
        sizes = tuple(int(size) for size in arguments.sizes.split(","))
    elif arguments.quick:
        sizes = (1_000,)
    figures = measure_viewer(sizes)
    sys.stdout.write(json.dumps(figures, indent=2) + "\n")
    if arguments.markdown:
        sys.stdout.write("\n".join(render_viewer(figures)) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
