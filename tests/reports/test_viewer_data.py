"""The data the interactive page embeds, decoded against the suite and its records.

Every run's columns agree with the evidence, a run view lists its record's facts,
and the embedding cannot end its script element.
"""

from __future__ import annotations

import base64
import gzip
import json
from typing import TYPE_CHECKING, Any

import anyio
import pytest

from artemiskit import ArtemisKit
from artemiskit.reports._inputs import load_report_input, run_key
from artemiskit.reports._viewer import (
    COMPRESS_ABOVE,
    VERDICTS,
    embedded_data,
    viewer_data,
)
from tests.reports._evidence import ROOT, akit
from tests.reports.test_target_reports import TARGETS, TRIAGE

if TYPE_CHECKING:
    from pathlib import Path


async def test_each_run_is_one_row_of_columns_that_match_the_evidence(
    example_suite: Path,
) -> None:
    evidence = await load_report_input([str(example_suite)])
    data = viewer_data(evidence)
    strings: list[str] = data["s"]

    def text(index: int) -> str | None:
        return None if index == -1 else strings[index]

    columns: dict[str, list[Any]] = data["r"]
    runs = [(w, run) for w in evidence.suite["workflows"] for run in w["runs"]]
    assert {len(values) for values in columns.values()} == {len(runs)}
    assert [text(i) for i in data["wf"]] == ["answer", "summarize", "triage"]
    for row, (workflow, run) in enumerate(runs):
        record = evidence.records[run_key(workflow["name"], run)]
        assert text(data["wf"][columns["w"][row]]) == workflow["name"]
        assert columns["n"][row] == run["repetition"]
        assert columns["id"][row] == run["run_id"]
        assert text(columns["c"][row]) is None
        assert text(columns["t"][row]) == f"scripted:{workflow['name']}"
        assert VERDICTS[columns["v"][row]] == run["verdict"]
        assert columns["d"][row] == run["duration_ms"]
        assert columns["k"][row] == run["input_tokens"] + run["output_tokens"]
        assert columns["e"][row] == run["exit_code"]
        assert columns["l"][row] == 0
        used = record.budget.used
        assert (columns["a"][row], columns["q"][row], columns["b"][row]) == (
            used.actions,
            used.model_requests,
            used.tool_calls,
        )
        assert columns["x"][row] == 0
        tools = [text(i) for i in data["ts"][columns["o"][row]]]
        assert tools == sorted(t.tool for t in record.tools if t.calls)
        assert data["fs"][columns["f"][row]] == []
        if run["verdict"] == "passed":
            assert columns["y"][row] == -1
        else:
            cause, kind = data["cs"][columns["y"][row]]
            assert (text(cause), text(kind)) == (
                "answer-is-42 (missing_content)",
                "requirement",
            )
    assert "tx" not in data
    assert data["u"][0][:7] == [0, -1, columns["t"][0], 3, 2, 0, 0]


def test_embedded_json_escapes_what_could_end_its_element() -> None:
    encoding, text = embedded_data({"a": "</script><!--&", "b": [1, 2]})
    assert encoding == "json"
    assert text == ('{"a":"\\u003c/script\\u003e\\u003c!--\\u0026","b":[1,2]}')
    assert json.loads(text) == {"a": "</script><!--&", "b": [1, 2]}
    with pytest.raises(ValueError, match="not JSON compliant"):
        embedded_data({"a": float("nan")})


def test_large_data_is_gzip_base64_and_the_same_bytes_every_time() -> None:
    data = {"s": [f"string {n} é" for n in range(COMPRESS_ABOVE // 8)]}
    encoding, text = embedded_data(data)
    assert encoding == "gzip"
    assert embedded_data(data) == (encoding, text)
    assert json.loads(gzip.decompress(base64.b64decode(text))) == data


async def test_a_run_view_lists_its_records_facts(example_suite: Path) -> None:
    evidence = await load_report_input([str(example_suite)])
    data = viewer_data(evidence)
    strings: list[str] = data["s"]
    detail = data["dt"][data["r"]["z"][0]]  # answer, repetition 1
    facts = next(
        part
        for part in detail
        if isinstance(part, list)
        and part
        and all(isinstance(p, list) and len(p) == 2 for p in part)
        and strings[part[0][0]] == "execution"
    )
    shown = {strings[name]: strings[value] for name, value in facts}
    assert list(shown) == [
        "execution",
        "exit code",
        "target",
        "environment",
        "usage measurement",
        "operations",
        "faults",
        "retries",
        "policy denials",
        "cleanup",
        "recovery",
    ]
    assert shown["target"] == "scripted / answer"
    assert shown["exit code"] == "0"
    assert shown["recovery"] == "checkpointing off"


async def test_a_run_whose_record_is_absent_has_no_counts(suite_copy: Path) -> None:
    (suite_copy / "runs" / "answer" / "002.record.json").unlink()
    evidence = await load_report_input([str(suite_copy)])
    columns = viewer_data(evidence)["r"]
    row = 1  # answer, repetition 2
    assert columns["n"][row] == 2
    assert columns["l"][row] == 2  # the record is listed but absent
    assert [columns[key][row] for key in ("a", "q", "b", "o", "f", "z")] == [-1] * 6
    assert columns["x"][row] == 0


def _recovery(data: dict[str, Any]) -> str:
    strings: list[str] = data["s"]
    detail = data["dt"][data["r"]["z"][0]]
    facts = next(
        part
        for part in detail
        if isinstance(part, list)
        and part
        and all(isinstance(p, list) and len(p) == 2 for p in part)
        and strings[part[0][0]] == "execution"
    )
    shown: dict[str, str] = {strings[name]: strings[value] for name, value in facts}
    return shown["recovery"]


def test_a_run_view_says_whether_a_run_is_resumable_or_resumed(
    tmp_path: Path,
) -> None:
    workflow = str(ROOT / "examples" / "flaky" / "workflow.yaml")
    checkpoint = ["--checkpoint-dir", str(tmp_path / "checkpoint")]
    paused, resumed = tmp_path / "paused.json", tmp_path / "resumed.json"
    first = akit(
        "workflow", "run", workflow, *checkpoint,
        "--pause-after-actions", "1", "--output", str(paused),
    )  # fmt: skip
    assert first.returncode == 10, first.stderr
    second = akit("workflow", "resume", workflow, *checkpoint, "--output", str(resumed))
    assert second.returncode == 0, second.stderr
    views = []
    for record in (paused, resumed):
        evidence = anyio.run(load_report_input, [str(record)])
        views.append(_recovery(viewer_data(evidence)))
    assert views == [
        "attempt 1, checkpoint resumable, resumable",
        "attempt 2, checkpoint terminal, resumed",
    ]


async def test_a_run_whose_record_is_absent_keeps_its_own_target(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out"
    await ArtemisKit().run_suite(
        paths=[TRIAGE], output_dir=out, min_pass_rate=0, targets=TARGETS
    )
    gone = sorted(out.rglob("*.record.json"))[-1]
    gone.unlink()
    evidence = await load_report_input([str(out)])
    data = viewer_data(evidence)
    strings: list[str] = data["s"]
    columns = data["r"]
    absent = [row for row, lost in enumerate(columns["l"]) if lost == 2]
    assert len(absent) == 1
    runs = [run for w in evidence.suite["workflows"] for run in w["runs"]]
    assert strings[columns["t"][absent[0]]] == runs[absent[0]]["target"]
    assert {strings[t] for t in columns["t"]} == set(TARGETS)
