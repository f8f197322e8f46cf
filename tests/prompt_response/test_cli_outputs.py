"""Exports and outputs of ``akit run`` and the commands around it.

``--export`` may be repeated (each format asked is written); ``-`` is never an
output path (refused with exit 1 by every command, nothing named ``-`` is made);
``--budget`` alone decides the exit code when every case passed.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from tests._cli import akit
from tests.prompt_response.conftest import write_config
from tests.prompt_response.test_cli_baselines import run_id_of
from tests.prompt_response.test_cli_run import stored, write_scenario

if TYPE_CHECKING:
    from pathlib import Path

    from tests.providers._chat_server import ChatServer


def test_repeated_export_writes_each_format_asked(
    model_server: ChatServer, tmp_path: Path
) -> None:
    write_config(tmp_path, model_server.url)
    write_scenario(tmp_path, "both", "ok")
    done = akit(
        "run",
        "scenarios",
        "--export",
        "junit",
        "--export",
        "markdown",
        "--export",
        "junit",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    run_id = run_id_of(done.stderr)
    written = sorted(p.name for p in (tmp_path / "artemis-exports").iterdir())
    assert written == [f"{run_id}.md", f"{run_id}.xml"]
    assert done.stderr.count("Exported: ") == 2


def test_dash_is_refused_as_an_output_by_every_command(
    model_server: ChatServer, tmp_path: Path
) -> None:
    write_config(tmp_path, model_server.url)
    write_scenario(tmp_path, "dash", "ok")
    first = akit("run", "scenarios", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    run_id = run_id_of(first.stderr)
    assert akit("init", cwd=tmp_path).returncode == 0
    workflow = "workflows/example/workflow.yaml"
    record = tmp_path / "record.json"
    assert (
        akit("workflow", "run", workflow, "--output", record, cwd=tmp_path).returncode
        == 0
    )
    calls = len(model_server.requests)
    for command in (
        ("run", "scenarios", "--export", "junit", "--export-output", "-"),
        ("report", run_id, "--html", "-"),
        ("report", run_id, "--json", "-"),
        ("compare", run_id, run_id, "--json", "-"),
        ("report", record, "--markdown", "-"),
        ("report", record, "--html", "-"),
        ("workflow", "run", workflow, "--output", "-"),
        ("workflow", "run", workflow, "--state-output", "-"),
    ):
        done = akit(*command, cwd=tmp_path)
        assert done.returncode == 1, (command, done.stderr)
        assert "'-' is not an output here" in done.stderr, command
        assert "Traceback" not in done.stderr
        assert not (tmp_path / "-").exists(), command
    assert len(model_server.requests) == calls  # refused before any model call


def test_a_budget_overrun_alone_exits_1(
    model_server: ChatServer, tmp_path: Path
) -> None:
    write_config(tmp_path, model_server.url)
    write_scenario(tmp_path, "spent", "ok", "ok")
    within = akit("run", "scenarios", "--budget", "1", "--no-save", cwd=tmp_path)
    assert within.returncode == 0, within.stderr
    over = akit(
        "run", "scenarios", "--budget", "0.00001", "--summary", "json", cwd=tmp_path
    )
    assert over.returncode == 1, over.stderr
    summary = json.loads(over.stdout)
    assert summary["success"] is True
    assert summary["cases"]["failed"] == 0
    assert "exceeds the budget" in over.stderr
    [path] = stored(tmp_path)
    assert json.loads(path.read_text(encoding="utf-8"))["metrics"]["failed_cases"] == 0
