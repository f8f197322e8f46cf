"""Historical record versions stay readable; unknown versions stay refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from artemiskit import WorkflowError
from artemiskit.records import (
    RECORD_SCHEMA_VERSION,
    record_from_dict,
    record_schema,
    record_to_dict,
)

FIXTURES = Path(__file__).parent / "fixtures"


def saved_0_6_1_record() -> dict[str, Any]:
    """A record of the 0.6.1 shape (schema_version 0), as it was saved then."""
    data: dict[str, Any] = json.loads(
        (FIXTURES / "workflow-record.v0.json").read_text("utf-8")
    )
    return data


def test_fixture_has_the_historical_shape() -> None:
    data = saved_0_6_1_record()
    assert data["schema_version"] == 0
    assert {"task_verification", "judge", "faults", "recovery"}.isdisjoint(data)
    assert set(data) == set(record_schema(0)["properties"])


def test_a_0_6_1_record_reads_as_task_verification_unavailable() -> None:
    data = saved_0_6_1_record()
    record = record_from_dict(data)
    assert record.schema_version == RECORD_SCHEMA_VERSION
    assert record.task_verification.status == "unavailable"
    assert record.task_verification.reason == "predates_task_verification"
    assert record.task_verification.requirements == ()
    assert record.judge.configured is False
    assert record.faults.declared == 0
    assert record.recovery.checkpointing is False
    assert record.recovery.checkpoint_status == "none"
    # What the old record said is kept as it was.
    assert record.run_id == data["run_id"]
    assert record.exit_code == data["exit_code"]
    assert record.execution.status == data["execution"]["status"]
    assert record.budget.used.actions == data["budget"]["used"]["actions"]
    # The migrated record is a valid current record.
    assert record_to_dict(record)["task_verification"]["status"] == "unavailable"


@pytest.mark.parametrize("part", ["task_verification", "judge", "faults"])
def test_a_version_0_record_with_later_sections_is_invalid(part: str) -> None:
    current = record_to_dict(record_from_dict(saved_0_6_1_record()))
    with pytest.raises(WorkflowError, match="invalid workflow record") as caught:
        record_from_dict({**saved_0_6_1_record(), part: current[part]})
    assert caught.value.reason == "invalid_record"


def test_a_version_0_record_cannot_claim_later_exit_codes() -> None:
    with pytest.raises(WorkflowError, match="invalid workflow record"):
        record_from_dict({**saved_0_6_1_record(), "exit_code": 8})


@pytest.mark.parametrize("version", [-1, 99, 1000, "0", 0.0, True, False, None])
def test_unknown_versions_are_refused(version: object) -> None:
    with pytest.raises(WorkflowError, match="unknown workflow record") as caught:
        record_from_dict({**saved_0_6_1_record(), "schema_version": version})
    assert caught.value.reason == "unknown_record_version"


def test_a_version_2_record_reads_as_without_provider_retries() -> None:
    current = record_to_dict(record_from_dict(saved_0_6_1_record()))
    target = {
        k: v
        for k, v in current["target"].items()
        if k not in ("provider_retries", "id")
    }
    # Version 2 predates both the timeline and provider retries.
    version_2 = {
        **{k: v for k, v in current.items() if k not in ("timeline", "verdict")},
        "schema_version": 2,
        "target": target,
    }
    record = record_from_dict(version_2)
    assert record.schema_version == RECORD_SCHEMA_VERSION == 4
    assert record.target.provider_retries == 0
    assert record.timeline.entries == ()
    assert record.timeline.omitted == current["operations"]["total"]
    # A version 2 record that claims provider retries is not a valid one.
    with pytest.raises(WorkflowError, match="invalid workflow record"):
        record_from_dict({**version_2, "target": current["target"]})
