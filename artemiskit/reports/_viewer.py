"""The data the interactive page embeds: every run, compactly (SPEC 21).

Runs are columns of small integers (indexes into one table of strings), so a
filter over 100,000 runs is a loop over typed arrays in the browser. What a run
view shows (its timeline, requirements, budget gauges, outcome) is a *detail*:
identical details are stored once, and most runs of a workflow share theirs.
Large data is gzip-compressed and base64-encoded; the browser inflates it with
its own ``DecompressionStream``. Only what records and ``suite.json`` hold goes
in (metadata only); transcripts only when the report was given them.
"""

from __future__ import annotations

import base64
import gzip
import json
from typing import TYPE_CHECKING, Any

from artemiskit.reports._inputs import run_key
from artemiskit.reports._views import budget_gauges, run_timeline, transcript_steps
from artemiskit.suites import cause_text
from artemiskit.suites._record import target_id, unit_counts

if TYPE_CHECKING:
    from collections.abc import Hashable

    from artemiskit.records import ExecutionRecord
    from artemiskit.reports._inputs import ReportInput

__all__ = ["VERDICTS", "embedded_data", "viewer_data"]

VERDICTS = ("passed", "failed", "errored", "unavailable")
#: Data larger than this (bytes of JSON) is embedded gzip-compressed.
COMPRESS_ABOVE = 32 * 1024


class _Strings:
    """One table of strings; everything else refers to them by index."""

    def __init__(self) -> None:
        self.table: list[str] = []
        self._index: dict[str, int] = {}

    def __call__(self, text: str | None) -> int:
        if text is None:
            return -1
        found = self._index.get(text)
        if found is None:
            found = self._index[text] = len(self.table)
            self.table.append(text)
        return found


class _Interned:
    """Equal values stored once; each gets a stable index."""

    def __init__(self) -> None:
        self.table: list[Any] = []
        self._index: dict[str, int] = {}

    def __call__(self, value: Any) -> int:
        key = json.dumps(value, separators=(",", ":"))
        found = self._index.get(key)
        if found is None:
            found = self._index[key] = len(self.table)
            self.table.append(value)
        return found


def _case_of(run: dict[str, Any], record: ExecutionRecord | None) -> str | None:
    """The run's case id: from its suite entry, else its record; ``None``: no case."""
    given = run.get("case")
    if given is None and record is not None:
        given = getattr(record, "case", None)
    if isinstance(given, dict):
        given = given.get("id")
    if given is not None and not isinstance(given, str):
        given = getattr(given, "id", None)
    return given if isinstance(given, str) else None


def _target_of(
    run: dict[str, Any], record: ExecutionRecord | None, workflow: dict[str, Any]
) -> str | None:
    """The run's target id: suite entry, record (``id`` or provider:model), workflow."""
    given = run.get("target")
    if isinstance(given, dict):
        given = given.get("id")
    if isinstance(given, str):
        return given
    if record is not None:
        named = getattr(record.target, "id", None)
        if isinstance(named, str):
            return named
        return target_id(record.target.provider, record.target.model)
    fallback = workflow.get("target")
    return fallback if isinstance(fallback, str) else None


def _static_key(record: ExecutionRecord) -> Hashable:
    """Everything `_static` reads of a record: records equal in it share a detail."""
    faults = record.faults
    verification = record.task_verification
    return (
        record.timeline,
        record.state_changes,
        record.preflight,
        record.recovery,
        record.cleanup,
        record.operations,
        record.execution.status,
        record.execution.reason,
        record.exit_code,
        record.environment_kind,
        record.budget.usage_measurement,
        record.target.provider,
        record.target.model,
        record.target.provider_retries,
        record.policy.denials,
        tuple(sorted(record.policy.denial_reasons.items())),
        faults.declared,
        faults.injected,
        faults.retries,
        faults.recovered_calls,
        faults.exhausted_calls,
        tuple(sorted((k, v.declared, v.injected) for k, v in faults.by_kind.items())),
        verification.status,
        verification.reason,
        tuple((q.id, q.kind, q.status, q.reason) for q in verification.requirements),
    )


def _static(record: ExecutionRecord, strings: _Strings) -> list[Any]:
    """What the run view shows of one record, but its budget gauges."""
    timeline = [
        [strings(e.phase), strings(e.status), strings(e.detail)]
        for e in run_timeline(record)
    ]
    requirements = [
        [strings(q.id), strings(q.kind), strings(q.status), strings(q.reason)]
        for q in record.task_verification.requirements
    ]
    ops = record.operations
    faults = record.faults
    recovery = record.recovery
    facts = [
        ["execution", f"{record.execution.status} ({record.execution.reason})"],
        ["exit code", str(record.exit_code)],
        ["target", f"{record.target.provider} / {record.target.model}"],
        ["environment", record.environment_kind],
        ["usage measurement", record.budget.usage_measurement],
        [
            "operations",
            f"{ops.total} ({ops.succeeded} succeeded, {ops.failed} failed, "
            f"{ops.unknown} unknown, {ops.pending} pending"
            + (f", {ops.omitted} omitted" if ops.omitted else "")
            + ")",
        ],
        [
            "faults",
            f"{faults.injected} injected of {faults.declared} declared"
            if faults.declared
            else "none declared",
        ],
        [
            "retries",
            f"{faults.retries} retries, {faults.recovered_calls} recovered, "
            f"{faults.exhausted_calls} exhausted calls; "
            f"{record.target.provider_retries} accounted provider retries",
        ],
        ["policy denials", str(record.policy.denials)],
        [
            "cleanup",
            record.cleanup.status
            + (f" ({record.cleanup.reason})" if record.cleanup.reason else "")
            + (
                f", {record.cleanup.unresolved} unresolved"
                if record.cleanup.unresolved
                else ""
            ),
        ],
        [
            "recovery",
            f"attempt {recovery.attempt_number}, "
            f"checkpoint {recovery.checkpoint_status}"
            + (", resumed" if recovery.resumed_from_attempt is not None else "")
            + (", resumable" if recovery.resumable else "")
            if recovery.checkpointing
            else "checkpointing off",
        ],
    ]
    verification = record.task_verification
    return [
        timeline,
        requirements,
        [[strings(name), strings(value)] for name, value in facts],
        [strings(verification.status), strings(verification.reason)],
        1 if record.timeline.entries else 0,
    ]


class _Details:
    """Each run's detail, stored once for all runs whose records share it.

    A detail is `_static` with the budget's dimensions and limits third; what a
    run used of them is in its columns (``a``, ``q``, ``b``, ``k``), so runs
    that differ only in their counts and tokens share one detail. `_static` is
    computed once per distinct `_static_key`.
    """

    def __init__(self, strings: _Strings) -> None:
        self.table: list[list[Any]] = []
        self._strings = strings
        self._index: dict[Hashable, int] = {}

    def __call__(self, record: ExecutionRecord) -> int:
        key: Hashable = (_static_key(record), record.budget.limits)
        try:
            found = self._index.get(key)
        except TypeError:  # an unhashable part: compute it, share nothing
            key, found = None, None
        if found is None:
            found = len(self.table)
            static = _static(record, self._strings)
            limits = [
                [self._strings(g.name), -1 if g.limit is None else g.limit]
                for g in budget_gauges(record)
            ]
            self.table.append([static[0], static[1], limits, *static[2:]])
            if key is not None:
                self._index[key] = found
        return found


def _tools(record: ExecutionRecord) -> list[str]:
    return sorted(
        t.tool for t in record.tools if t.calls or t.attempts or t.denied or t.failed
    )


def _faults(record: ExecutionRecord) -> list[str]:
    return sorted(kind for kind, info in record.faults.by_kind.items() if info.injected)


def viewer_data(evidence: ReportInput) -> dict[str, Any]:
    """Every run of ``evidence`` in the viewer's compact form.

    Returns:
        ``s`` (strings), ``wf`` (workflow names), ``r`` (run columns; ``l``
        is 1 for a lost run, 2 for a record listed but absent; ``a``, ``q``,
        ``b`` and ``k`` the actions, model requests, tool calls and tokens
        used), ``ts`` /
        ``fs`` (tool and fault sets), ``dt`` (details), ``cs`` (causes:
        text, kind), ``u`` (units with their counts and Wilson interval), and
        ``tx`` (transcripts by run index) only with transcripts.
    """
    strings = _Strings()
    tool_sets = _Interned()
    fault_sets = _Interned()
    details = _Details(strings)
    causes = _Interned()
    columns: dict[str, list[Any]] = {
        key: []
        for key in (
            "w",
            "n",
            "id",
            "c",
            "t",
            "v",
            "y",
            "d",
            "k",
            "a",
            "o",
            "f",
            "x",
            "e",
            "z",
            "l",
            "q",
            "b",
        )
    }
    units: dict[tuple[int, int, int], list[int]] = {}
    transcripts: dict[str, Any] = {}
    verdict_index = {name: number for number, name in enumerate(VERDICTS)}
    workflows = evidence.suite["workflows"]
    for w_index, workflow in enumerate(workflows):
        name = workflow["name"]
        for run in workflow["runs"]:
            record = evidence.records.get(run_key(name, run))
            verdict = verdict_index.get(run["verdict"], 2)
            case = strings(_case_of(run, record))
            target = strings(_target_of(run, record, workflow))
            tokens = (
                -1
                if run["input_tokens"] is None or run["output_tokens"] is None
                else run["input_tokens"] + run["output_tokens"]
            )
            why = run["why"]
            cause = (
                -1
                if run["verdict"] == "passed"
                else causes(
                    [
                        strings(cause_text(why)),
                        strings(None if why is None else why["kind"]),
                    ]
                )
            )
            columns["w"].append(w_index)
            columns["n"].append(run["repetition"])
            columns["id"].append(run["run_id"] or "")
            columns["c"].append(case)
            columns["t"].append(target)
            columns["v"].append(verdict)
            columns["y"].append(cause)
            columns["d"].append(run["duration_ms"])
            columns["k"].append(tokens)
            columns["e"].append(run["exit_code"])
            columns["l"].append(
                1 if run["lost"] else 2 if record is None and run["record"] else 0
            )
            if record is None:
                for key in ("a", "q", "b", "o", "f", "z"):
                    columns[key].append(-1)
                columns["x"].append(0)
            else:
                columns["a"].append(record.budget.used.actions)
                columns["q"].append(record.budget.used.model_requests)
                columns["b"].append(record.budget.used.tool_calls)
                columns["o"].append(tool_sets([strings(t) for t in _tools(record)]))
                columns["f"].append(fault_sets([strings(f) for f in _faults(record)]))
                columns["x"].append(
                    record.faults.retries + record.target.provider_retries
                )
                columns["z"].append(details(record))
            counts = units.setdefault((w_index, case, target), [0, 0, 0, 0])
            counts[verdict] += 1
            if evidence.transcripts is not None and record is not None:
                found = evidence.transcripts.get(record.run_id)
                transcripts[str(len(columns["w"]) - 1)] = (
                    None
                    if found is None
                    else [
                        [
                            s.role,
                            s.content,
                            [list(call) for call in s.tool_calls],
                            s.is_error,
                        ]
                        for s in transcript_steps(found)
                    ]
                )
    unit_rows = []
    for (w_index, case, target), counts in units.items():
        stats = unit_counts(*counts)
        interval = stats["pass_rate_interval"]
        unit_rows.append(
            [
                w_index,
                case,
                target,
                *counts,
                stats["pass_rate"],
                None if interval is None else interval["low"],
                None if interval is None else interval["high"],
            ]
        )
    data: dict[str, Any] = {
        "s": strings.table,
        "wf": [strings(w["name"]) for w in workflows],
        "r": columns,
        "ts": tool_sets.table,
        "fs": fault_sets.table,
        "dt": details.table,
        "cs": causes.table,
        "u": unit_rows,
    }
    if evidence.transcripts is not None:
        data["tx"] = transcripts
    return data


def embedded_data(data: dict[str, Any]) -> tuple[str, str]:
    r"""The data as the page embeds it: its encoding (``json`` or ``gzip``) and text.

    JSON is written with ``<``, ``>`` and ``&`` as ``\u`` escapes, so no string can
    end the ``<script type="application/json">`` element that holds it; gzip data is
    base64, which holds none of them. The gzip stream has no time stamp, so the
    same evidence gives the same bytes.
    """
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    raw = text.encode("utf-8")
    if len(raw) <= COMPRESS_ABOVE:
        return "json", text
    packed = gzip.compress(raw, compresslevel=6, mtime=0)
    return "gzip", base64.b64encode(packed).decode("ascii")
