"""The suite record's schema and encoding: typed record to ``suite.json`` bytes.

Reading a saved ``suite.json`` (with version 1 migrated and the numbers checked
against each other) is `artemiskit.suites.read_suite_record`: migrating a
version-1 file recomputes statistics that belong to suites.
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import TYPE_CHECKING, Any

import attrs
import fastjsonschema

from artemiskit._common._converter import CONVERTER
from artemiskit.records._suite import (
    SUITE_SCHEMA_VERSION,
    SuiteRecord,
    SuiteRunInfo,
    SuiteWorkflowInfo,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

__all__ = [
    "SUITE_SCHEMA_FILES",
    "encode_suite_record",
    "suite_record_schema",
    "suite_record_to_dict",
]

SUITE_SCHEMA_FILES = {
    1: "suite-record.v1.schema.json",
    2: "suite-record.v2.schema.json",
}


@functools.cache
def suite_record_schema(version: int = SUITE_SCHEMA_VERSION) -> dict[str, Any]:
    """The JSON Schema of ``suite.json`` version ``version`` as shipped."""
    text = (
        resources.files(__package__)
        .joinpath(SUITE_SCHEMA_FILES[version])
        .read_text("utf-8")
    )
    schema: dict[str, Any] = json.loads(text)
    return schema


@functools.cache
def _validator() -> Callable[[Any], Any]:
    return fastjsonschema.compile(suite_record_schema())


def suite_record_to_dict(record: SuiteRecord) -> dict[str, Any]:
    """Unstructure ``record`` and validate it against the current schema.

    Raises:
        RuntimeError: The record fails its own schema (a bug).
    """
    data: dict[str, Any] = CONVERTER.unstructure(record)
    try:
        _validator()(data)
    except fastjsonschema.JsonSchemaValueException as exc:
        raise RuntimeError(f"suite record fails its own schema: {exc.message}") from exc
    return data


def encode_suite_record(
    record: SuiteRecord | Mapping[str, Any],
    runs: dict[tuple[Any, ...], str] | None = None,
) -> bytes:
    """``suite.json``'s bytes: a field per line, and each run on a line of its own.

    Every value is encoded compact by the C encoder (an indented dump goes
    through the pure-Python one and costs more than an instant run per run).

    Args:
        record: The suite record (typed, or as plain data).
        runs: Each run entry's encoding by (workflow, case, target,
            repetition), filled as runs are encoded and reused by later
            rewrites (a finished run's entry never changes, so it is neither
            unstructured nor encoded again).
    """
    if isinstance(record, SuiteRecord):
        data: dict[str, Any] = CONVERTER.unstructure(attrs.evolve(record, workflows=()))
        entries = [_workflow_fields(entry) for entry in record.workflows]
    else:
        data = dict(record)
        entries = [
            (dict(entry), entry["name"], entry["runs"])
            for entry in data.get("workflows", ())
        ]
    fields = []
    for key, value in data.items():
        if key == "workflows" and entries:
            text = ",\n".join(_encode_workflow(*entry, runs) for entry in entries)
            text = f"[\n{text}\n  ]"
        else:
            text = json.dumps(value)
        fields.append(f"  {json.dumps(key)}: {text}")
    return ("{\n" + ",\n".join(fields) + "\n}\n").encode("utf-8")


def _workflow_fields(
    entry: SuiteWorkflowInfo,
) -> tuple[dict[str, Any], str, Sequence[SuiteRunInfo]]:
    fields: dict[str, Any] = CONVERTER.unstructure(attrs.evolve(entry, runs=()))
    return fields, entry.name, entry.runs


def _run_key(run: SuiteRunInfo | Mapping[str, Any]) -> tuple[Any, ...]:
    if isinstance(run, SuiteRunInfo):
        return (run.case, run.target, run.repetition)
    return (run.get("case"), run.get("target"), run["repetition"])


def _encode_workflow(
    entry: Mapping[str, Any],
    name: str,
    entry_runs: Sequence[SuiteRunInfo | Mapping[str, Any]],
    runs: dict[tuple[Any, ...], str] | None,
) -> str:
    fields = []
    for key, value in entry.items():
        if key == "runs" and entry_runs:
            lines = []
            for run in entry_runs:
                at = (name, *_run_key(run))
                text = None if runs is None else runs.get(at)
                if text is None:
                    text = json.dumps(CONVERTER.unstructure(run))
                    if runs is not None:
                        runs[at] = text
                lines.append(f"        {text}")
            text = "[\n" + ",\n".join(lines) + "\n      ]"
        else:
            text = json.dumps(value)
        fields.append(f"      {json.dumps(key)}: {text}")
    return "    {\n" + ",\n".join(fields) + "\n    }"
