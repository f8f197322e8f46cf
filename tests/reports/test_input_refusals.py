"""`load_report_input` refuses what is not workflow evidence, saying what it is."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest

from artemiskit import WorkflowError
from artemiskit.reports._inputs import load_report_input

if TYPE_CHECKING:
    from pathlib import Path


async def _refusal(paths: list[str]) -> WorkflowError:
    with pytest.raises(WorkflowError) as caught:
        await load_report_input(paths)
    return caught.value


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([1, 2], "a JSON array, not ArtemisKit workflow evidence"),
        ("text", "a JSON str, not ArtemisKit workflow evidence"),
        ({"a": 1}, "a JSON object without a `schema` field, not ArtemisKit evidence"),
        (
            {"schema": "x" * 58},
            f"a JSON file of schema {'x' * 58!r}, not ArtemisKit workflow evidence",
        ),
        (
            {"schema": "x" * 59},
            f"a JSON file of schema '{'x' * 58}…, not ArtemisKit workflow evidence",
        ),
    ],
)
async def test_a_file_that_is_not_evidence_is_refused_with_what_it_is(
    tmp_path: Path, data: Any, message: str
) -> None:
    path = tmp_path / "x.json"
    path.write_text(json.dumps(data), "utf-8")
    error = await _refusal([str(path)])
    assert error.reason == "not_evidence"
    assert error.message == (
        "a report reads a suite folder, a suite.json or workflow record files"
    )
    [problem] = error.problems
    assert (problem.source, problem.message) == (str(path), message)


async def test_a_file_that_is_not_utf8_is_unreadable_evidence(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_bytes(b'{"schema": "\xff"}')
    error = await _refusal([str(path)])
    assert error.reason == "unreadable_evidence"
    assert error.problems[0].source == str(path)


async def test_suites_and_records_together_are_refused(example_suite: Path) -> None:
    record = next((example_suite / "runs").rglob("*.record.json"))
    error = await _refusal([str(example_suite), str(record)])
    assert error.reason == "mixed_evidence"
    assert error.message == (
        "give suites (folders or suite.json files), or record files, not both "
        "(`akit report compare` compares two suites)"
    )


async def test_no_path_is_refused() -> None:
    error = await _refusal([])
    assert error.message == "give a suite folder, a suite.json or record files"


async def test_a_record_outside_the_suite_folder_is_refused_in_its_suite_json(
    suite_copy: Path, tmp_path: Path
) -> None:
    record = suite_copy / "runs" / "answer" / "001.record.json"
    outside = tmp_path / "elsewhere.record.json"
    record.rename(outside)
    record.symlink_to(outside)
    error = await _refusal([str(suite_copy)])
    assert error.reason == "record_outside_suite"
    [problem] = error.problems
    assert problem.source == str(suite_copy / "suite.json")
    assert problem.message == (
        "a run's record 'runs/answer/001.record.json' lies outside the suite folder"
    )


async def test_record_files_make_a_report_with_their_transcripts(
    example_suite: Path,
) -> None:
    records = sorted((example_suite / "runs" / "answer").glob("*.record.json"))
    evidence = await load_report_input(
        [str(r) for r in records], transcripts=str(example_suite / "transcripts")
    )
    assert evidence.kind == "records"
    assert evidence.transcripts is not None
    assert {r.run_id for r in evidence.records.values()} <= set(evidence.transcripts)
    suite = evidence.suite
    assert (suite["suite_id"], suite["status"], suite["reason"]) == (None, None, None)
    assert suite["totals"]["runs_finished"] == len(records) == 5
    [workflow] = suite["workflows"]
    counts = (workflow["name"], workflow["passed"], workflow["failed"])
    assert counts == ("answer", 3, 2)
