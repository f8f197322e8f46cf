"""Suites on a real local Ray cluster (SPEC 15): kept few, one cluster per session."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from artemiskit.suites import load_suite_record
from tests._builders import PASSING_SCRIPT, workflow_dict
from tests._cli import AKIT, akit_process
from tests.providers._chat_server import ChatServer, NeverAnswer, chat_reply
from tests.suites._suites import SLOW_SCRIPT, write_member, write_suite
from tests.suites.conftest import LOOPBACK, WORKER_KEY

pytestmark = [pytest.mark.ray, pytest.mark.slow]
ENV = {**os.environ, **LOOPBACK}
ENV.pop("TEST_PROVIDER_KEY", None)
#: What differs between two runs of the same suite: identities and times.
_VOLATILE_TOP = {"suite_id", "started_at", "finished_at"}
_VOLATILE_RUN = {"run_id", "duration_ms"}


def _akit(*arguments: str, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    # A real process: a Ray driver must not start inside the test process.
    return akit_process(*arguments, timeout=timeout, env=ENV)


def _comparable(summary: dict[str, Any]) -> dict[str, Any]:
    kept = {k: v for k, v in summary.items() if k not in _VOLATILE_TOP}
    kept["settings"] = {**kept["settings"], "executor": None}
    kept["totals"] = {**kept["totals"], "duration_ms": None}
    kept["workflows"] = [
        {
            **workflow,
            "runs": [
                {k: v for k, v in run.items() if k not in _VOLATILE_RUN}
                for run in workflow["runs"]
            ],
        }
        for workflow in summary["workflows"]
    ]
    return kept


def test_ray_and_local_give_the_same_suite_record(
    tmp_path: Path, ray_cluster: str
) -> None:
    suite = write_suite(tmp_path)
    common = [str(suite), "--repeat", "3", "--min-pass-rate", "0.5", "--quiet"]
    local = _akit("workflow", "run", *common, "--output-dir", str(tmp_path / "local"))
    ray = _akit(
        "workflow",
        "run",
        *common,
        "--output-dir",
        str(tmp_path / "ray"),
        "--executor",
        "ray",
        "--ray-address",
        ray_cluster,
    )
    assert (local.returncode, ray.returncode) == (0, 0), ray.stderr
    on_ray = load_suite_record(tmp_path / "ray" / "suite.json")
    here = load_suite_record(tmp_path / "local" / "suite.json")
    assert on_ray["settings"]["executor"] == "ray"
    assert _comparable(on_ray) == _comparable(here)
    # The driver wrote every record the workers returned.
    for workflow in on_ray["workflows"]:
        for run in workflow["runs"]:
            record = json.loads((tmp_path / "ray" / run["record"]).read_text("utf-8"))
            assert record["run_id"] == run["run_id"]


def _server_member(root: Path, server: ChatServer) -> Path:
    folder = root / "suite" / "served"
    folder.mkdir(parents=True)
    data = workflow_dict(
        name="served",
        target={"provider": "local", "model": "m-1"},
        outcomes=[{"id": "answered", "final_response": {"contains": ["Done"]}}],
    )
    (folder / "workflow.yaml").write_text(json.dumps(data), "utf-8")
    config = root / "artemis.config.json"
    entry = {
        "type": "openai",
        "base_url": server.url,
        "api_key_env": "TEST_PROVIDER_KEY",
    }
    config.write_text(json.dumps({"providers": {"local": entry}}), "utf-8")
    return config


def _busy_workers() -> list[int]:
    """The Ray workers of this machine running a suite's run right now."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if command.startswith(b"ray::run_on_worker"):
            found.append(int(entry.name))
    return found


def test_a_killed_worker_loses_its_run_which_never_starts_again(
    tmp_path: Path, ray_cluster: str
) -> None:
    with ChatServer() as server:
        # The first request is held until its worker dies; the next answers.
        server.enqueue(NeverAnswer(), chat_reply(content="Done."))
        config = _server_member(tmp_path, server)
        write_member(tmp_path / "suite", "steady", [PASSING_SCRIPT])
        with subprocess.Popen(
            [
                *AKIT,
                "workflow",
                "run",
                str(tmp_path / "suite"),
                "--config",
                str(config),
                "--repeat",
                "2",
                "--concurrency",
                "1",
                "--output-dir",
                str(tmp_path / "out"),
                "--executor",
                "ray",
                "--ray-address",
                ray_cluster,
            ],
            stderr=subprocess.PIPE,
            text=True,
            env=ENV,
        ) as process:
            assert server.wait_for_hanging(1)
            (worker,) = _busy_workers()
            os.kill(worker, signal.SIGKILL)
            _, errors = process.communicate(timeout=180)
        # The held request was the only one of that run: it never started again.
        assert len(server.requests) == 2
        assert server.requests[0].headers["authorization"] == f"Bearer {WORKER_KEY}"
    assert process.returncode == 7, errors
    summary = load_suite_record(tmp_path / "out" / "suite.json")
    runs = {
        (w["name"], r["repetition"]): r for w in summary["workflows"] for r in w["runs"]
    }
    lost = runs[("served", 1)]
    assert (lost["lost"], lost["lost_reason"], lost["record"]) == (
        True,
        "worker_died",
        None,
    )
    assert runs[("served", 2)]["verification"] == "passed"
    assert [runs[("steady", r)]["verification"] for r in (1, 2)] == ["passed"] * 2
    served = next(w for w in summary["workflows"] if w["name"] == "served")
    # Lost runs are left out of the pass rate.
    assert (served["passed"], served["failed"], served["pass_rate"]) == (1, 0, 1.0)
    assert summary["totals"]["runs_lost"] == 1


def test_sigint_on_the_driver_cancels_the_ray_tasks(
    tmp_path: Path, ray_cluster: str
) -> None:
    suite = tmp_path / "suite"
    write_member(suite, "fast", [PASSING_SCRIPT])
    write_member(suite, "slow", [SLOW_SCRIPT])
    out = tmp_path / "out"
    with subprocess.Popen(
        [
            *AKIT,
            "workflow",
            "run",
            str(suite),
            "--output-dir",
            str(out),
            "--executor",
            "ray",
            "--ray-address",
            ray_cluster,
        ],
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
    ) as process:
        assert process.stderr is not None
        for line in process.stderr:
            if "fast #001: passed" in line:
                break
        process.send_signal(signal.SIGINT)
        _, rest = process.communicate(timeout=120)
    assert process.returncode == 130, rest
    assert "Traceback" not in rest
    summary = load_suite_record(out / "suite.json")
    assert summary["status"] == "cancelled"
    slow = next(w for w in summary["workflows"] if w["name"] == "slow")
    (run,) = slow["runs"]
    assert (run["lost"], run["lost_reason"]) == (True, "task_cancelled")


def test_ray_is_imported_only_when_its_executor_is_used() -> None:
    probe = (
        "import sys, artemiskit_cli._main, artemiskit.suites; "
        "from artemiskit.suites import RayExecutor; RayExecutor('127.0.0.1:1'); "
        "assert 'ray' not in sys.modules, 'ray imported'"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
