"""Every example and every docs snippet runs as a user would run it.

- every ``examples/**/workflow.yaml`` through ``akit workflow run`` (exit 0) and
  ``akit scenario validate`` (exit 0); sandbox workflows are docker-marked and use
  the sandbox image through a trusted configuration file;
- every ``examples/*.py`` and ``examples/*/run.py`` script (exit 0).

A workflow that declares user-defined tools gets them with ``--tools`` (`TOOLS_FOR`),
one with custom scorers ``--scorers`` (`SCORERS_FOR`), one with a judge
``--judge-config`` (`JUDGE_FOR`).

Every fenced block of ``README.md`` and ``docs/*.md`` is exercised in
``test_docs_blocks.py``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests._cli import AKIT
from tests.environments._docker import SANDBOX_IMAGE

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT_S = 120

WORKFLOWS = sorted(ROOT.glob("examples/**/workflow.yaml"))
SCRIPTS = sorted(
    p
    for p in [*ROOT.glob("examples/*.py"), *ROOT.glob("examples/*/run.py")]
    if p.name != "__init__.py"
)
#: The ``--tools`` reference of each example workflow with user-defined tools.
TOOLS_FOR = {
    "examples/custom_tool/workflow.yaml": "examples.custom_tool.order_tools:TOOLS",
}
#: The ``--scorers`` reference of each example workflow with ``scorer`` outcomes.
SCORERS_FOR = {
    "examples/support_agent/workflow.yaml": (
        "examples.support_agent.support_scorers:SCORERS"
    ),
}
#: The ``--judge-config`` of each example workflow with ``judge`` outcomes.
JUDGE_FOR = {
    "examples/support_agent/workflow.yaml": "examples/support_agent/judge.yaml",
}
#: The cassette each example workflow against a real model replays (offline).
REPLAY_FOR = {
    "examples/replay/workflow.yaml": (
        "examples/replay/cassettes/replay-demo/001.cassette.jsonl"
    ),
}
#: The trusted configuration of each example workflow that needs one (MCP servers).
CONFIG_FOR = {
    "examples/mcp/workflow.yaml": "examples/mcp/artemis.config.yaml",
}
FENCE = re.compile(r"^```([\w-]*)[^\n]*\n(.*?)^```[ \t]*$", re.S | re.M)


def rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def is_sandbox(workflow: Path) -> bool:
    return re.search(r"^\s+kind:\s*sandbox\b", workflow.read_text(), re.M) is not None


def run(
    command: list[str], *, stdin: str | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    # the MCP example's configuration starts its server with $PYTHON
    return subprocess.run(
        command,
        cwd=ROOT,
        input=stdin,
        env={**os.environ, "PYTHON": sys.executable, **(env or {})},
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        check=False,
    )


def outcome(done: subprocess.CompletedProcess[str]) -> str:
    return f"exit {done.returncode}\nstdout:\n{done.stdout}\nstderr:\n{done.stderr}"


def tools_options(workflow: Path) -> list[str]:
    options = []
    for option, table in (("--tools", TOOLS_FOR), ("--scorers", SCORERS_FOR)):
        spec = table.get(rel(workflow))
        options += [] if spec is None else [option, spec]
    return options


def judge_options(workflow: Path) -> list[str]:
    judge = JUDGE_FOR.get(rel(workflow))
    return [] if judge is None else ["--judge-config", judge]


def workflow_params() -> list[object]:
    return [
        pytest.param(
            path,
            id=rel(path),
            marks=[pytest.mark.docker] if is_sandbox(path) else [],
        )
        for path in WORKFLOWS
    ]


def test_there_is_something_to_run() -> None:
    assert len(WORKFLOWS) >= 3
    assert {p.name for p in SCRIPTS} >= {
        "sdk_custom_target.py",
        "sdk_run.py",
        "custom_model_client.py",
        "run.py",
    }
    assert set(TOOLS_FOR) | set(SCORERS_FOR) | set(JUDGE_FOR) <= {
        rel(p) for p in WORKFLOWS
    }
    assert set(CONFIG_FOR) | set(REPLAY_FOR) <= {rel(p) for p in WORKFLOWS}
    assert any(is_sandbox(p) for p in WORKFLOWS)


@pytest.mark.parametrize("workflow", workflow_params())
def test_example_workflow_validates(workflow: Path) -> None:
    done = run([*AKIT, "scenario", "validate", str(workflow), *tools_options(workflow)])
    assert done.returncode == 0, outcome(done)


@pytest.mark.parametrize("workflow", workflow_params())
def test_example_workflow_runs_and_passes(workflow: Path, tmp_path: Path) -> None:
    record_path = tmp_path / "record.json"
    command = [*AKIT, "workflow", "run", str(workflow), "--output", str(record_path)]
    command += tools_options(workflow) + judge_options(workflow)
    if rel(workflow) in REPLAY_FOR:
        command += ["--replay", REPLAY_FOR[rel(workflow)]]
    if rel(workflow) in CONFIG_FOR:
        command += ["--config", str(ROOT / CONFIG_FOR[rel(workflow)])]
    if is_sandbox(workflow):
        config = tmp_path / "artemis.config.yaml"
        config.write_text(json.dumps({"sandbox": {"image": SANDBOX_IMAGE}}))
        command += ["--config", str(config)]
    done = run(command)
    assert done.returncode == 0, outcome(done)
    record = json.loads(record_path.read_text())
    assert record["execution"]["status"] == "completed"
    assert record["task_verification"]["status"] == "passed"
    assert record["cleanup"]["status"] == "complete"


def test_readme_quickstart_command(tmp_path: Path) -> None:
    """The README's first command block is the quickstart, and it exits 0."""
    first = FENCE.search((ROOT / "README.md").read_text())
    assert first is not None
    command = first.group(2).strip()
    assert command == (
        "python3 -m pip install -e . && "
        "akit workflow run examples/quickstart/workflow.yaml"
    )
    console = shutil.which("akit")
    akit = [console] if console else AKIT
    done = run([*akit, "workflow", "run", "examples/quickstart/workflow.yaml"])
    assert done.returncode == 0, outcome(done)
    assert "task verification: passed" in done.stderr


@pytest.mark.parametrize("script", SCRIPTS, ids=[rel(p) for p in SCRIPTS])
def test_example_script_runs(script: Path) -> None:
    done = run([sys.executable, str(script)])
    assert done.returncode == 0, outcome(done)
    assert "Traceback" not in done.stderr


def test_pytest_project_runs_its_workflows_and_its_test(tmp_path: Path) -> None:
    """examples/pytest_project: two workflow items and one hand-written test pass."""
    project = tmp_path / "pytest_project"
    shutil.copytree(ROOT / "examples" / "pytest_project", project)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "tests", "--akit", "workflows", "-v"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        check=False,
    )
    assert done.returncode == 0, outcome(done)
    for item in (
        "tests/test_by_hand.py::test_the_summary_passes_three_times PASSED",
        "workflows/refund-summary/workflow.yaml::refund-summary PASSED",
        "workflows/ticket-lookup/workflow.yaml::ticket-lookup PASSED",
    ):
        assert item in done.stdout, outcome(done)
    assert " 3 passed" in done.stdout, outcome(done)
