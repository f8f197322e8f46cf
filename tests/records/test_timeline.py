"""The record's timeline: the run's operations in order, metadata only (schema 3)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from artemiskit import WorkflowError
from artemiskit.records import (
    RECORD_SCHEMA_VERSION,
    OperationEntry,
    record_from_dict,
    record_to_dict,
)
from tests._cli import akit

ROOT = Path(__file__).resolve().parents[2]


def _run(workflow: str, output: Path) -> dict[str, Any]:
    done = akit("workflow", "run", workflow, "--output", output, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    record: dict[str, Any] = json.loads(output.read_text("utf-8"))
    return record


def test_the_timeline_holds_every_operation_in_order(tmp_path: Path) -> None:
    record = _run("examples/fault-recovery/workflow.yaml", tmp_path / "r.json")
    assert record["schema_version"] == RECORD_SCHEMA_VERSION == 4
    shown = [
        (e["number"], e["kind"], e["tool"], e["status"], e["attempt"], e["reason"])
        for e in record["timeline"]["entries"]
    ]
    assert shown == [
        (1, "model_request", None, "succeeded", 1, None),
        (2, "tool_call", "read_document", "failed", 1, "fault_unavailable_tool"),
        (3, "tool_call", "read_document", "succeeded", 2, None),
        (4, "model_request", None, "succeeded", 1, None),
        (5, "tool_call", "write_file", "succeeded", 1, None),
        (6, "model_request", None, "succeeded", 1, None),
    ]
    assert record["timeline"]["omitted"] == 0
    assert record["operations"]["total"] == len(shown)
    parsed = record_from_dict(record)
    assert parsed.timeline.entries[1] == OperationEntry(
        number=2,
        kind="tool_call",
        status="failed",
        tool="read_document",
        attempt=1,
        reason="fault_unavailable_tool",
    )
    assert record_to_dict(parsed) == record


def test_a_version_2_record_reads_with_no_operation_kept(tmp_path: Path) -> None:
    record = _run("examples/quickstart/workflow.yaml", tmp_path / "r.json")
    old = {k: v for k, v in record.items() if k not in ("timeline", "verdict")}
    old["target"] = {
        k: v for k, v in record["target"].items() if k not in ("provider_retries", "id")
    }
    old["schema_version"] = 2
    migrated = record_from_dict(old)
    assert migrated.schema_version == RECORD_SCHEMA_VERSION
    assert migrated.timeline.entries == ()
    assert migrated.timeline.omitted == record["operations"]["total"] > 0
    assert migrated.target.provider_retries == 0
    # A version 2 record that claims a timeline is not a valid one.
    assert "timeline" in record
    with pytest.raises(WorkflowError, match="invalid workflow record"):
        record_from_dict({**old, "timeline": record["timeline"]})
