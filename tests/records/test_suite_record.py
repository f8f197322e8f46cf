"""The typed suite record: exactly ``suite.json`` version 2, and its one loader.

The attrs classes hold what the shipped schema allows, key for key and in the
order a suite writes; a written file reads and encodes to its own bytes; a bad
file is refused by the one loader with the file named (exit 2).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs
import pytest

from artemiskit import WorkflowError
from artemiskit.records import (
    BudgetUseInfo,
    CauseCount,
    PassRateInterval,
    RequirementCounts,
    SuiteRecord,
    SuiteRunInfo,
    SuiteSettingsInfo,
    SuiteTargetInfo,
    SuiteTotals,
    SuiteUnitInfo,
    SuiteWorkflowInfo,
    UsePercentiles,
    encode_suite_record,
    suite_record_to_dict,
)
from artemiskit.suites import (
    read_suite_record,
    suite_record_from_dict,
    suite_record_schema,
)
from tests._cli import akit

GOLDEN = Path(__file__).parents[1] / "suites" / "fixtures" / "golden"
GOLDENS = sorted(GOLDEN.glob("*.suite.json"))


def _object(schema: dict[str, Any]) -> dict[str, Any]:
    """The object branch of a ``oneOf: [null, object]`` (or the schema itself)."""
    for branch in schema.get("oneOf", ()):
        if branch.get("type") == "object":
            return dict(branch)
    return schema


_V2 = suite_record_schema(2)
_WORKFLOW = _V2["properties"]["workflows"]["items"]
_PARTS = [
    (SuiteRecord, _V2),
    (SuiteSettingsInfo, _V2["properties"]["settings"]),
    (SuiteTotals, _V2["properties"]["totals"]),
    (SuiteUnitInfo, _V2["properties"]["units"]["items"]),
    (SuiteTargetInfo, _V2["properties"]["targets"]["items"]),
    (SuiteWorkflowInfo, _WORKFLOW),
    (SuiteRunInfo, _WORKFLOW["properties"]["runs"]["items"]),
    (RequirementCounts, _WORKFLOW["properties"]["requirements"]["items"]),
    (CauseCount, _WORKFLOW["properties"]["causes"]["items"]),
    (BudgetUseInfo, _WORKFLOW["properties"]["budget_use"]),
    (
        UsePercentiles,
        _object(_WORKFLOW["properties"]["budget_use"]["properties"]["tokens"]),
    ),
    (PassRateInterval, _object(_WORKFLOW["properties"]["pass_rate_interval"])),
]


@pytest.mark.parametrize(
    ("cls", "schema"), _PARTS, ids=lambda p: getattr(p, "__name__", "")
)
def test_each_part_has_exactly_the_keys_of_its_schema(
    cls: type[Any], schema: dict[str, Any]
) -> None:
    fields = {field.name for field in attrs.fields(cls)}
    assert fields == set(schema["properties"])
    # A key the schema requires is a field without a default... or one whose
    # None is written (never omitted); optional keys default to None.
    for field in attrs.fields(cls):
        if field.name not in schema.get("required", ()):
            assert field.default is None, field.name


@pytest.mark.parametrize("golden", GOLDENS, ids=lambda p: p.name)
def test_a_written_suite_json_reads_and_encodes_to_its_own_bytes(golden: Path) -> None:
    record = read_suite_record(golden)
    assert isinstance(record, SuiteRecord)
    assert encode_suite_record(record) == golden.read_bytes()
    # The plain data is the file's, key for key and in order.
    data = suite_record_to_dict(record)
    assert json.dumps(data) == json.dumps(json.loads(golden.read_text("utf-8")))
    assert suite_record_from_dict(data) == record


def test_keys_a_suite_leaves_out_stay_out() -> None:
    record = read_suite_record(GOLDEN / "plain.suite.json")
    data = suite_record_to_dict(record)
    assert "targets" not in data["settings"]  # each workflow ran its own target
    assert "telemetry" not in data["totals"]
    run = data["workflows"][0]["runs"][0]
    assert "case" not in run
    assert "target" not in run
    assert data["settings"]["gate"] == "lower-bound"
    typed = record.workflows[0].runs[0]
    assert typed.case is None
    assert typed.target is None


def test_an_integer_min_pass_rate_keeps_its_bytes() -> None:
    text = (GOLDEN / "matrix.suite.json").read_text("utf-8")
    text = text.replace('"min_pass_rate": 0.5', '"min_pass_rate": 0')
    record = suite_record_from_dict(json.loads(text))
    assert record.settings.min_pass_rate == 0
    assert encode_suite_record(record).decode("utf-8") == text


def test_a_suite_record_that_fails_its_schema_is_a_bug_not_a_file() -> None:
    record = read_suite_record(GOLDEN / "plain.suite.json")
    broken = attrs.evolve(record, suite_id="")
    with pytest.raises(RuntimeError, match="fails its own schema"):
        suite_record_to_dict(broken)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            '{"schema": "artemiskit.suite-record", "schema_version": 2, "x": 1e400}',
            "too large",
        ),
        ('{"schema": "artemiskit.suite-record", "schema_version": 2}', "must contain"),
        (
            '{"schema": "artemiskit.suite-record", "schema_version": 7}',
            "schema_version",
        ),
        ("[1, 2]", "not an ArtemisKit suite record"),
        ('{"schema": "artemiskit.suite-record", "x": NaN}', "invalid suite record"),
    ],
)
def test_a_bad_suite_json_is_refused_with_its_file_named(
    tmp_path: Path, text: str, said: str
) -> None:
    folder = tmp_path / "suite"
    folder.mkdir()
    path = folder / "suite.json"
    path.write_text(text, "utf-8")
    with pytest.raises(WorkflowError, match=said) as caught:
        read_suite_record(path)
    assert [p.source for p in caught.value.problems] == [str(path)]
    done = akit("plan", "--suite", folder, "--detect", "0.1")
    assert done.returncode == 2
    assert done.stderr.startswith(f"{path}:")
    assert said in done.stderr
    assert "Traceback" not in done.stderr


def test_inconsistent_numbers_are_refused_with_the_json_path(tmp_path: Path) -> None:
    data = json.loads((GOLDEN / "plain.suite.json").read_text("utf-8"))
    data["workflows"][1]["pass_at_k"].pop("1")
    path = tmp_path / "suite.json"
    path.write_text(json.dumps(data), "utf-8")
    with pytest.raises(WorkflowError, match=r"\$\.workflows\[1\]\.pass_at_k") as caught:
        read_suite_record(path)
    assert caught.value.reason == "inconsistent_suite_record"
