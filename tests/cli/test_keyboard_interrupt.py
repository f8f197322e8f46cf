"""An agent raising `KeyboardInterrupt`: exit 130 with honest evidence, never a hang.

Real ``akit`` processes (a `KeyboardInterrupt` escaping the CLI would end the test
process too), each with a bounded wait: a child still running after it is killed
and the test fails. A single run exits 130 with its record saying ``cancelled``
(``interrupted``); a suite is cancelled as by Ctrl-C (exit 130, a finished
``suite.json``) on every local executor.
"""

from __future__ import annotations

import json
import uuid
from typing import TYPE_CHECKING

import pytest

from artemiskit.suites import load_suite_record
from tests._builders import write_workflow
from tests._cli import akit_process

if TYPE_CHECKING:
    from pathlib import Path

SENTINEL = "SENTINEL-3b9a-interrupt-text"

AGENT_MODULE = f"""
class Interrupting:
    async def respond(self, request):
        raise KeyboardInterrupt({SENTINEL!r})


def interrupting():
    return Interrupting()
"""

#: Seconds before a child that did not end is killed (the test then fails).
BOUND_S = 60


def _agent(folder: Path) -> str:
    name = f"interrupting_{uuid.uuid4().hex[:12]}"
    (folder / f"{name}.py").write_text(AGENT_MODULE, "utf-8")
    return f"{name}:interrupting"


def test_a_single_run_whose_agent_raises_keyboard_interrupt_exits_130(
    tmp_path: Path,
) -> None:
    path = write_workflow(tmp_path)
    record = tmp_path / "record.json"
    done = akit_process(
        "workflow", "run", path, "--agent", _agent(tmp_path), "--output", record,
        cwd=tmp_path, timeout=BOUND_S,
    )  # fmt: skip
    assert done.returncode == 130, done.stderr
    assert "Traceback" not in done.stderr
    assert SENTINEL not in done.stderr + done.stdout
    saved = json.loads(record.read_text("utf-8"))
    assert saved["exit_code"] == 130
    assert saved["execution"]["status"] == "cancelled"
    assert saved["execution"]["reason"] == "interrupted"
    assert SENTINEL not in record.read_text("utf-8")


@pytest.mark.parametrize("executor", ["local", "processes"])
def test_a_suite_whose_agent_raises_keyboard_interrupt_ends_cancelled(
    tmp_path: Path, executor: str
) -> None:
    path = write_workflow(tmp_path)
    out = tmp_path / "out"
    done = akit_process(
        "workflow", "run", path, "--agent", _agent(tmp_path), "--repeat", "6",
        "--concurrency", "2", "--executor", executor, "--output-dir", out,
        cwd=tmp_path, timeout=BOUND_S,
    )  # fmt: skip
    assert done.returncode == 130, done.stderr
    assert "Traceback" not in done.stderr
    assert SENTINEL not in done.stderr + done.stdout
    summary = load_suite_record(out / "suite.json")
    assert summary["status"] == "cancelled"
    assert summary["exit_code"] == 130
    assert summary["finished_at"] is not None
    # the interrupted run is kept; no run starts after it (on worker processes,
    # a run a worker already held starts cancelled: docs/suites.md#processes)
    assert summary["totals"]["runs_finished"] >= 1
    assert summary["totals"]["runs_not_started"] >= 1
    reasons = []
    for saved in (out / "runs").rglob("*.record.json"):
        record = json.loads(saved.read_text("utf-8"))
        reasons.append(record["execution"]["reason"])
        assert SENTINEL not in saved.read_text("utf-8")
    assert "interrupted" in reasons
    held = {"local": set(), "processes": {"cancelled"}}[executor]
    assert set(reasons) - {"interrupted"} <= held, reasons


HOST_MODULE = f"""
def interrupting_factory():
    raise KeyboardInterrupt({SENTINEL!r})


def exiting_factory():
    raise SystemExit({SENTINEL!r})
"""


@pytest.mark.parametrize(
    ("option", "source", "attribute", "code", "words"),
    [
        # host code that raises while it is imported or makes its agent
        ("--agent", f"raise KeyboardInterrupt({SENTINEL!r})", "x", 130, "interrupted"),
        ("--tools", f"raise KeyboardInterrupt({SENTINEL!r})", "x", 130, "interrupted"),
        ("--agent", HOST_MODULE, "interrupting_factory", 130, "interrupted"),
        ("--agent", f"raise SystemExit({SENTINEL!r})", "x", 1, "(SystemExit)"),
        # (an unimportable --tools or --scorers module is an invalid option)
        ("--tools", f"raise SystemExit({SENTINEL!r})", "x", 2, "(SystemExit)"),
        ("--scorers", f"raise SystemExit({SENTINEL!r})", "x", 2, "(SystemExit)"),
        ("--agent", HOST_MODULE, "exiting_factory", 1, "raised SystemExit"),
    ],
)
def test_host_code_raising_a_base_exception_while_loaded_never_leaks_its_text(
    tmp_path: Path, option: str, source: str, attribute: str, code: int, words: str
) -> None:
    path = write_workflow(tmp_path)
    name = f"host_{uuid.uuid4().hex[:12]}"
    (tmp_path / f"{name}.py").write_text(source, "utf-8")
    done = akit_process(
        "workflow", "run", path, option, f"{name}:{attribute}",
        cwd=tmp_path, timeout=BOUND_S,
    )  # fmt: skip
    assert done.returncode == code, done.stderr
    assert words in done.stderr
    assert SENTINEL not in done.stderr + done.stdout
    assert "Traceback" not in done.stderr
