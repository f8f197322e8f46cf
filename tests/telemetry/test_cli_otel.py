"""`akit workflow run --otel` and `resume --otel` as a user runs them."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from click.testing import CliRunner

from artemiskit_cli._main import cli
from tests._builders import write_workflow

if TYPE_CHECKING:
    from pathlib import Path

    from tests.telemetry._receiver import Receiver


def _akit(*args: str | Path) -> tuple[int, str]:
    result = CliRunner().invoke(cli, [str(arg) for arg in args])
    return result.exit_code, result.stderr


def test_otel_exports_the_run_and_the_record_counts_it(
    tmp_path: Path, receiver: Receiver
) -> None:
    config = tmp_path / "artemis.config.yaml"
    config.write_text(f"telemetry:\n  otlp_endpoint: {receiver.endpoint}\n")
    record = tmp_path / "record.json"
    code, stderr = _akit(
        "workflow",
        "run",
        write_workflow(tmp_path),
        "--config",
        config,
        "--otel",
        "--output",
        record,
    )
    assert code == 0, stderr
    saved = json.loads(record.read_text())
    assert saved["telemetry"] == {"exported": 6, "dropped": 0}
    assert {
        span.attributes["artemiskit.run_id"]
        for span in receiver.spans()
        if span.name.startswith("invoke_agent")
    } == {saved["run_id"]}


def test_otel_without_a_telemetry_section_is_a_configuration_error(
    tmp_path: Path,
) -> None:
    record = tmp_path / "record.json"
    code, stderr = _akit(
        "workflow", "run", write_workflow(tmp_path), "--otel", "--output", record
    )
    assert code == 1
    assert "telemetry" in stderr
    assert "--config" in stderr
    assert "Traceback" not in stderr
    assert not record.exists()


def test_otel_to_a_collector_that_is_down_keeps_the_exit_code(tmp_path: Path) -> None:
    from tests.telemetry._receiver import closed_port_endpoint

    config = tmp_path / "artemis.config.yaml"
    config.write_text(f"telemetry:\n  otlp_endpoint: {closed_port_endpoint()}\n")
    record = tmp_path / "record.json"
    code, stderr = _akit(
        "workflow",
        "run",
        write_workflow(tmp_path),
        "--config",
        config,
        "--otel",
        "--output",
        record,
    )
    assert code == 0, stderr
    assert json.loads(record.read_text())["telemetry"] == {"exported": 0, "dropped": 6}
    assert "Traceback" not in stderr
