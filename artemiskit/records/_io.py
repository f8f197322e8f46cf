"""Record (de)serialization, validated against the shipped JSON Schema both ways."""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import TYPE_CHECKING, Any

import fastjsonschema

from artemiskit._common._converter import CONVERTER
from artemiskit._errors import WorkflowError
from artemiskit.records._record import (
    RECORD_SCHEMA,
    RECORD_SCHEMA_VERSION,
    ExecutionRecord,
)
from artemiskit.records._verdict import verdict_status

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

__all__ = [
    "compile_record_validator",
    "record_from_dict",
    "record_schema",
    "record_to_dict",
]

_SCHEMA_FILES = {
    0: "workflow-record.v0.schema.json",
    1: "workflow-record.v1.schema.json",
    2: "workflow-record.v2.schema.json",
    3: "workflow-record.v3.schema.json",
    4: "workflow-record.v4.schema.json",
}


@functools.cache
def record_schema(version: int = RECORD_SCHEMA_VERSION) -> dict[str, Any]:
    """The JSON Schema of record ``version`` as shipped in the package."""
    text = (
        resources.files(__package__).joinpath(_SCHEMA_FILES[version]).read_text("utf-8")
    )
    schema: dict[str, Any] = json.loads(text)
    return schema


@functools.cache
def _validator(version: int) -> Callable[[Any], Any]:
    return fastjsonschema.compile(record_schema(version))


def compile_record_validator(version: int = RECORD_SCHEMA_VERSION) -> None:
    """Compile the validator of record ``version`` now, not at the first record.

    A process that forks workers warms it once for all of them.
    """
    _validator(version)


def record_to_dict(record: ExecutionRecord) -> dict[str, Any]:
    """Unstructure ``record`` and validate it against its schema.

    Raises:
        RuntimeError: The engine built a record its own schema refuses (a bug).
    """
    data: dict[str, Any] = CONVERTER.unstructure(record)
    if data.get("telemetry") is None:  # present only when export was asked for
        data.pop("telemetry", None)
    try:
        _validator(record.schema_version)(data)
    except fastjsonschema.JsonSchemaValueException as exc:
        raise RuntimeError(f"record fails its own schema: {exc.message}") from exc
    return data


def record_from_dict(data: Mapping[str, Any]) -> ExecutionRecord:
    """Read a saved record, refusing other schemas and unknown versions.

    Raises:
        WorkflowError: Not a workflow record, an unknown version, or invalid.
    """
    if data.get("schema") != RECORD_SCHEMA:
        raise WorkflowError(
            "not an ArtemisKit workflow record", reason="not_a_workflow_record"
        )
    version = data.get("schema_version")
    # bool is an int in Python; `true` is no schema version.
    if type(version) is not int or version not in _SCHEMA_FILES:
        raise WorkflowError(
            "unknown workflow record schema_version", reason="unknown_record_version"
        )
    try:
        _validator(version)(dict(data))
    except fastjsonschema.JsonSchemaValueException as exc:
        raise WorkflowError(
            f"invalid workflow record: {exc.rule} rule broken at {exc.name}",
            reason="invalid_record",
        ) from exc
    return CONVERTER.structure(_migrate(dict(data), version), ExecutionRecord)


def _migrate(data: dict[str, Any], version: int) -> dict[str, Any]:
    """Bring a valid record of an older version to the current shape, step by step."""
    if version == 0:
        # The 0.6.1 shape predates task verification, explicit judges and declared
        # faults: nothing was verified, no judge was configured, no fault declared.
        data = {
            **data,
            "task_verification": {
                "status": "unavailable",
                "reason": "predates_task_verification",
                "requirements": [],
            },
            "judge": _NO_JUDGE,
            "faults": _NO_FAULTS,
        }
        version = 1
    if version == 1:
        # Version 1 predates checkpoints: a fresh, non-checkpointed attempt.
        data = {**data, "recovery": _NOT_CHECKPOINTED}
        version = 2
    if version == 2:
        # Version 2 predates the timeline (no operation was kept in order) and
        # accounted provider retries (none could be made).
        omitted = data["operations"]["total"]
        data = {
            **data,
            "timeline": {"entries": [], "omitted": omitted},
            "target": {**data["target"], "provider_retries": 0},
        }
        version = 3
    if version == 3:
        # Version 3 predates verdicts: the status follows from what the record
        # says; the cause was never recorded, so it stays absent.
        status = verdict_status(
            data["execution"]["status"],
            data["exit_code"],
            data["task_verification"]["status"],
        )
        data = {**data, "verdict": {"status": status, "why": None}}
    target = data["target"]
    if target.get("id") is None:
        # Written before target identities (SPEC 19): the provider and model.
        target = {**target, "id": f"{target['provider']}:{target['model']}"}
    return {**data, "target": target, "schema_version": RECORD_SCHEMA_VERSION}


_NO_FAULTS: dict[str, Any] = {
    "declared": 0,
    "injected": 0,
    "unconsumed": 0,
    "by_kind": {},
    "max_attempts": 1,
    "retries": 0,
    "recovered_calls": 0,
    "exhausted_calls": 0,
    "attempts_per_call": {},
}

_NO_JUDGE: dict[str, Any] = {
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
}

_NOT_CHECKPOINTED: dict[str, Any] = {
    "checkpointing": False,
    "attempt_number": 1,
    "resumed_from_attempt": None,
    "checkpoint_status": "none",
    "resumable": False,
    "pause_after_actions": None,
}
