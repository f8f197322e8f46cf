"""A suite exported as one trace: the suite span the root, each run its child."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest

from artemiskit import ArtemisKit, WorkflowError
from artemiskit.suites import RayExecutor
from artemiskit.telemetry import Telemetry, TelemetryConfig
from tests._builders import USAGE, workflow_dict, write_workflow

if TYPE_CHECKING:
    from pathlib import Path

    from tests.telemetry._receiver import Receiver


def _suite_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "suite"
    write_workflow(_mk(folder / "passes"))
    failing = workflow_dict(name="fails")
    write_workflow(_mk(folder / "fails"), failing, [{"text": "No.", "usage": USAGE}])
    return folder


def _mk(folder: Path) -> Path:
    folder.mkdir(parents=True)
    return folder


async def test_a_suite_is_one_trace_and_its_totals_count_the_spans(
    tmp_path: Path, receiver: Receiver
) -> None:
    output = tmp_path / "out"
    result = await ArtemisKit().run_suite(
        paths=_suite_folder(tmp_path),
        output_dir=output,
        repeat=2,
        telemetry=Telemetry(TelemetryConfig(otlp_endpoint=receiver.endpoint)),
    )
    spans = receiver.spans()
    assert len({span.trace_id for span in spans}) == 1
    (suite,) = [span for span in spans if span.name == "artemiskit suite"]
    assert suite.parent_id == ""
    assert suite.attributes["artemiskit.suite_id"] == result.summary["suite_id"]
    assert suite.attributes["artemiskit.suite.runs_finished"] == 4
    assert suite.attributes["artemiskit.exit_code"] == result.exit_code == 8
    runs = [span for span in spans if span.name.startswith("invoke_agent ")]
    assert len(runs) == 4
    assert {span.parent_id for span in runs} == {suite.span_id}
    verdicts = sorted(
        (
            run.attributes["artemiskit.workflow.name"],
            run.attributes["artemiskit.verdict"],
        )
        for run in runs
    )
    assert verdicts == [
        ("fails", "failed"),
        ("fails", "failed"),
        ("test-workflow", "passed"),
        ("test-workflow", "passed"),
    ]
    run_ids = {span.span_id for span in runs}
    children = [span for span in spans if span.parent_id in run_ids]
    assert len(children) == len(spans) - 5
    saved = json.loads((output / "suite.json").read_text())
    assert saved["totals"]["telemetry"] == {"exported": len(spans), "dropped": 0}
    records = sorted((output / "runs").glob("*/*.record.json"))
    assert len(records) == 4
    shipped = [json.loads(path.read_text())["telemetry"] for path in records]
    assert sum(item["exported"] for item in shipped) == len(spans) - 1
    assert all(item["dropped"] == 0 for item in shipped)


async def test_without_telemetry_suite_json_has_no_telemetry_totals(
    tmp_path: Path,
) -> None:
    output = tmp_path / "out"
    await ArtemisKit().run_suite(paths=_suite_folder(tmp_path), output_dir=output)
    saved = json.loads((output / "suite.json").read_text())
    assert "telemetry" not in saved["totals"]


async def test_telemetry_with_the_ray_executor_is_refused_before_anything_runs(
    tmp_path: Path,
) -> None:
    with pytest.raises(WorkflowError, match="with the ray executor"):
        await ArtemisKit().create_suite_session(
            paths=_suite_folder(tmp_path),
            executor=RayExecutor(address="127.0.0.1:1"),
            telemetry=Telemetry(TelemetryConfig(otlp_endpoint="http://127.0.0.1:1")),
        )
