"""Synthesised ``suite.json`` version 2 files with cases and targets (SPEC 26).

Datasets and target matrices make units per (workflow, case, target); until the
runner writes such suites, compare and the aggregates are tested on files built
here the way SPEC 26 shapes them, validated by the shipped schema on the way.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import TYPE_CHECKING, Any

from artemiskit._common._converter import CONVERTER
from artemiskit.records import SuiteUnitInfo, SuiteWorkflowInfo
from artemiskit.suites import validate_suite_record
from artemiskit.suites._record import unit_counts, with_workflow_aggregates

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

DIGEST = "sha256:" + "a" * 64
OTHER_DIGEST = "sha256:" + "b" * 64

Unit = tuple[str, "str | None", str, str]
"""(workflow, case, target, outcomes): one letter per run, P passed, F failed,
E errored, U unavailable."""

_VERDICT = {"P": "passed", "F": "failed", "E": "errored", "U": "unavailable"}
_EXIT = {"P": 0, "F": 8, "E": 7, "U": 9}


def _run(repetition: int, letter: str) -> dict[str, Any]:
    verdict = _VERDICT[letter]
    why = None
    if verdict == "failed":
        why = {"kind": "requirement", "id": "right", "reason": "mismatch", "step": None}
    elif verdict != "passed":
        why = {"kind": "infrastructure", "id": None, "reason": "oops", "step": None}
    return {
        "repetition": repetition,
        "run_id": f"run-{repetition}",
        "record": None,
        "execution_status": "completed",
        "execution_reason": "finished",
        "verification": verdict if verdict in ("passed", "failed") else "unavailable",
        "exit_code": _EXIT[letter],
        "duration_ms": 1,
        "input_tokens": 10,
        "output_tokens": 5,
        "lost": False,
        "lost_reason": None,
        "verdict": verdict,
        "why": why,
    }


def _counts(letters: str) -> dict[str, Any]:
    seen = Counter(letters)
    return unit_counts(seen["P"], seen["F"], seen["E"], seen["U"])


def synthetic_suite(
    units: Sequence[Unit],
    *,
    digests: dict[str, str] | None = None,
    suite_id: str = "suite-1",
) -> dict[str, Any]:
    """A valid suite.json v2 with these units, its workflows and aggregates."""
    digests = digests or {}
    unit_entries = [
        {
            "workflow": workflow,
            "case": case,
            "target": target,
            "runs": len(letters),
            **_counts(letters),
        }
        for workflow, case, target, letters in units
    ]
    workflows = []
    for name in dict.fromkeys(u[0] for u in units):
        letters = "".join(u[3] for u in units if u[0] == name)
        targets = sorted({u[2] for u in units if u[0] == name})
        workflows.append(
            {
                "name": name,
                "digest": digests.get(name, DIGEST),
                "target": targets[0],
                "runs": [_run(i, x) for i, x in enumerate(letters, start=1)],
                **_counts(letters),
                "requirements": [],
                "failure_reasons": {},
                "causes": [],
                "budget_use": {
                    "actions": None,
                    "model_requests": None,
                    "tool_calls": None,
                    "tokens": None,
                },
            }
        )
    letters = "".join(u[3] for u in units)
    seen = Counter(letters)
    suite = {
        "schema": "artemiskit.suite-record",
        "schema_version": 2,
        "suite_id": suite_id,
        "started_at": "2026-12-03T00:00:00Z",
        "finished_at": "2026-12-03T00:01:00Z",
        "status": "completed",
        "reason": "all_runs_finished",
        "settings": {
            "repeat": 1,
            "concurrency": 1,
            "executor": "local",
            "min_pass_rate": 1.0,
            "max_suite_tokens": None,
            "max_errored": 0,
        },
        "totals": {
            "runs_planned": len(letters),
            "runs_finished": len(letters),
            "runs_not_started": 0,
            "runs_lost": 0,
            "passed": seen["P"],
            "failed": seen["F"],
            "errored": seen["E"],
            "unavailable": seen["U"],
            "input_tokens": 10 * len(letters),
            "output_tokens": 5 * len(letters),
            "usage_measurement": "complete",
            "model_requests": len(letters),
            "tool_calls": 0,
            "duration_ms": len(letters),
        },
        "exit_code": 0,
        "units": unit_entries,
        "workflows": CONVERTER.unstructure(
            with_workflow_aggregates(
                CONVERTER.structure(workflows, list[SuiteWorkflowInfo]),
                CONVERTER.structure(unit_entries, list[SuiteUnitInfo]),
            )
        ),
    }
    return validate_suite_record(suite)


def write_suite(folder: Path, suite: dict[str, Any]) -> Path:
    """Write ``suite`` as ``folder/suite.json``; the folder."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "suite.json").write_text(json.dumps(suite), "utf-8")
    return folder
