"""Baselines, history and compare over the local store, as CI scripts use them."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest

from tests._cli import akit
from tests.prompt_response.conftest import model_answer, write_config
from tests.prompt_response.test_cli_run import stored, write_scenario
from tests.providers._chat_server import Computed, chat_reply

if TYPE_CHECKING:
    from pathlib import Path

    from tests.providers._chat_server import ChatServer


def run_id_of(done_stderr: str) -> str:
    line = next(x for x in done_stderr.splitlines() if x.startswith("Run ID: "))
    return line.split()[2]


def test_a_worse_run_regresses_against_its_baseline(
    chat_server: ChatServer, tmp_path: Path
) -> None:
    chat_server.enqueue(*[Computed(model_answer)] * 3)
    chat_server.enqueue(Computed(model_answer), *[chat_reply(content="bad")] * 2)
    write_config(tmp_path, chat_server.url)
    write_scenario(tmp_path, "regress", "ok a", "ok b", "ok c")
    good = akit("run", "scenarios", cwd=tmp_path)
    assert good.returncode == 0, good.stderr
    first = run_id_of(good.stderr)
    assert akit("baseline", "set", first, cwd=tmp_path).returncode == 0
    worse = akit("run", "scenarios", "--baseline", "--ci", cwd=tmp_path)
    assert worse.returncode == 1
    assert "ARTEMISKIT_REGRESSION=true" in worse.stdout.splitlines()
    assert "ARTEMISKIT_DELTA_SUCCESS_RATE=-66.67" in worse.stdout.splitlines()
    second = run_id_of(worse.stderr)
    compared = akit("compare", first, second, cwd=tmp_path)
    assert compared.returncode == 1
    assert "regressed  case-1" in compared.stdout
    assert "regressed  case-2" in compared.stdout
    assert "case-0" not in compared.stdout
    report = tmp_path / "compare.json"
    akit("compare", first, second, "--json", report, cwd=tmp_path)
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["summary"]["totalRegressions"] == 2
    assert [row["changeType"] for row in data["caseComparisons"]] == [
        "regressed",
        "regressed",
        "unchanged",
    ]
    same = akit("compare", first, first, cwd=tmp_path)
    assert same.returncode == 0


def test_baseline_list_get_remove(model_server: ChatServer, tmp_path: Path) -> None:
    write_config(tmp_path, model_server.url)
    write_scenario(tmp_path, "keep", "ok")
    assert akit("baseline", "list", cwd=tmp_path).stdout.strip() == "No baselines set."
    assert akit("baseline", "list", "--json", cwd=tmp_path).stdout.strip() == "[]"
    run_id = run_id_of(akit("run", "scenarios", cwd=tmp_path).stderr)
    assert akit("baseline", "set", run_id, "-t", "v1", cwd=tmp_path).returncode == 0
    store = json.loads(
        (tmp_path / "artemis-runs" / ".artemis" / "baselines.json").read_text("utf-8")
    )
    assert store["version"] == "1.0"
    entry = store["baselines"]["keep"]
    assert list(entry) == ["scenario", "runId", "createdAt", "metrics", "tag"]
    assert list(entry["metrics"]) == [
        "successRate",
        "medianLatencyMs",
        "totalTokens",
        "passedCases",
        "failedCases",
        "totalCases",
    ]
    got = akit("baseline", "get", "keep", "--scenario", "--json", cwd=tmp_path)
    assert json.loads(got.stdout)["runId"] == run_id
    assert akit("baseline", "remove", run_id, cwd=tmp_path).returncode == 0
    assert akit("baseline", "get", run_id, cwd=tmp_path).returncode == 1


def test_history_lists_runs_newest_first(
    model_server: ChatServer, tmp_path: Path
) -> None:
    write_config(tmp_path, model_server.url)
    write_scenario(tmp_path, "hist", "ok")
    ids = [run_id_of(akit("run", "scenarios", cwd=tmp_path).stderr) for _ in range(2)]
    (tmp_path / "artemis-runs" / "default" / "junk.json").write_text("{", "utf-8")
    done = akit("history", "--show-cost", cwd=tmp_path)
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert lines[0] == "=== RUN HISTORY ==="
    assert [line.split("  ")[0] for line in lines[1:3]] == ids[::-1]
    assert lines[-1].startswith("Total: $")
    assert len(lines) == 4  # the unreadable file is skipped


def test_foreign_files_are_refused_both_ways(
    model_server: ChatServer, tmp_path: Path
) -> None:
    write_config(tmp_path, model_server.url)
    write_scenario(tmp_path, "own", "ok")
    akit("run", "scenarios", cwd=tmp_path)
    [manifest] = stored(tmp_path)
    record = tmp_path / "run.record.json"
    record.write_text(json.dumps({"schema": "artemiskit.workflow-record"}), "utf-8")
    done = akit("compare", record, manifest, cwd=tmp_path)
    assert done.returncode == 2
    assert "is a workflow record" in done.stderr
    for command in (("scenario", "validate"), ("workflow", "run")):
        refused = akit(*command, manifest, cwd=tmp_path)
        assert refused.returncode == 2
        assert (
            "this is a prompt-response run manifest, not a workflow" in refused.stderr
        )
        scenario = akit(*command, tmp_path / "scenarios" / "own.yaml", cwd=tmp_path)
        assert scenario.returncode == 2
        assert "this is a prompt-response scenario, not a workflow" in scenario.stderr


def test_init_writes_no_env_file_that_nothing_would_read(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("OPENAI_API_KEY=sk-mine", encoding="utf-8")
    done = akit("init", "--yes", "--skip-env", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / ".env").read_text("utf-8") == "OPENAI_API_KEY=sk-mine"
    assert "export OPENAI_API_KEY" in done.stderr
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    assert akit("init", cwd=fresh).returncode == 0
    assert not (fresh / ".env").exists()


def test_init_writes_a_starter_project_in_an_empty_folder(tmp_path: Path) -> None:
    done = akit("init", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    for name in (
        "artemis.config.yaml",
        "scenarios/example.yaml",
        "workflows/example/workflow.yaml",
        "workflows/example/example.script.yaml",
    ):
        assert (tmp_path / name).is_file(), name
    assert (tmp_path / "artemis-runs").is_dir()
    assert akit("validate", "scenarios", cwd=tmp_path).returncode == 0
    workflow = akit("workflow", "run", "workflows/example/workflow.yaml", cwd=tmp_path)
    assert workflow.returncode == 0, workflow.stderr
    (tmp_path / "scenarios" / "example.yaml").write_text("mine", "utf-8")
    again = akit("init", cwd=tmp_path)
    assert again.returncode == 0
    assert (tmp_path / "scenarios" / "example.yaml").read_text("utf-8") == "mine"


@pytest.mark.parametrize(
    "line",
    [
        ("history",),
        ("baseline", "list"),
        ("baseline", "get", "x"),
        ("baseline", "remove", "x", "--force"),
        ("baseline", "set", "x"),
        ("compare", "a", "b"),
    ],
    ids=" ".join,
)
def test_an_unreadable_configuration_is_exit_1_for_every_store_command(
    tmp_path: Path, line: tuple[str, ...]
) -> None:
    """A configuration that is a symbolic link loop: an error, never a traceback."""
    (tmp_path / "loop.yaml").symlink_to("loop.yaml")
    done = akit(*line, "--config", "loop.yaml", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert "error: cannot read configuration file loop.yaml" in done.stderr
    assert "Traceback" not in done.stderr
