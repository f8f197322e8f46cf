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
from tests.suites._suites import (
    SLOW_SCRIPT,
    comparable_summary,
    write_member,
    write_suite,
)
from tests.suites.conftest import DRIVER_TOKEN, LOOPBACK, WORKER_KEY, WORKER_TOKEN

pytestmark = [pytest.mark.ray, pytest.mark.slow]
ENV = {**os.environ, **LOOPBACK, "TEST_HEADER_TOKEN": DRIVER_TOKEN}
ENV.pop("TEST_PROVIDER_KEY", None)


def _akit(*arguments: str, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    # A real process: a Ray driver must not start inside the test process.
    return akit_process(*arguments, timeout=timeout, env=ENV)


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
    assert comparable_summary(on_ray) == comparable_summary(here)
    # The driver wrote every record the workers returned.
    for workflow in on_ray["workflows"]:
        for run in workflow["runs"]:
            record = json.loads((tmp_path / "ray" / run["record"]).read_text("utf-8"))
            assert record["run_id"] == run["run_id"]


def _server_member(root: Path, server: ChatServer, **entry_settings: Any) -> Path:
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
        "headers": {"X-Token": "${TEST_HEADER_TOKEN}"},
        **entry_settings,
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
    tmp_path: Path, ray_cluster: str, ray_worker_tmp: Path
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
        for request in server.requests:
            # The key and the header token came from the worker's environment.
            assert request.headers["authorization"] == f"Bearer {WORKER_KEY}"
            assert request.headers["x-token"] == WORKER_TOKEN
    # The killed worker's run folder was removed by a later run: only the
    # (empty) folder of run folders is left.
    left = [
        path.relative_to(ray_worker_tmp).as_posix()
        for pattern in ("akit-ray*", "akit-ray*/*")
        for path in ray_worker_tmp.glob(pattern)
    ]
    assert left == [f"akit-ray-{os.getuid()}"]
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


#: The driver as `akit`, with Ray imported first (so Ray's import-time settings
#: are Ray's own): its fatal-signal handler must still not take SIGTERM.
AKIT_AFTER_RAY = [
    sys.executable,
    "-c",
    "import ray, sys; from artemiskit_cli._main import main; main()",
]


@pytest.mark.parametrize(
    ("signum", "driver"),
    [
        (signal.SIGINT, AKIT),
        (signal.SIGTERM, AKIT),
        (signal.SIGTERM, AKIT_AFTER_RAY),
    ],
    ids=["sigint", "sigterm", "sigterm-ray-imported-first"],
)
def test_a_signal_on_the_driver_cancels_the_ray_tasks(
    tmp_path: Path, ray_cluster: str, signum: signal.Signals, driver: list[str]
) -> None:
    suite = tmp_path / "suite"
    write_member(suite, "fast", [PASSING_SCRIPT])
    write_member(suite, "slow", [SLOW_SCRIPT])
    out = tmp_path / "out"
    with subprocess.Popen(
        [
            *driver,
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
        process.send_signal(signum)
        _, rest = process.communicate(timeout=120)
    assert process.returncode == 130, rest
    assert "Traceback" not in rest
    # Ray's fatal-signal handler did not see the signal (it prints a stack
    # dump, then aborts the driver 3 s later).
    assert "received at time" not in rest
    assert f"received {signum.name}: cancelling" in rest
    summary = load_suite_record(out / "suite.json")
    assert summary["status"] == "cancelled"
    assert summary["finished_at"] is not None
    slow = next(w for w in summary["workflows"] if w["name"] == "slow")
    (run,) = slow["runs"]
    assert (run["lost"], run["lost_reason"]) == (True, "task_cancelled")


def test_ctrl_c_force_cancels_a_run_stuck_in_a_model_call(
    tmp_path: Path, ray_cluster: str
) -> None:
    with ChatServer() as server:
        # The model call is held for as long as the client keeps it open; the
        # provider would wait ten minutes for it.
        server.enqueue(NeverAnswer())
        config = _server_member(tmp_path, server, request_timeout_ms=600_000)
        with subprocess.Popen(
            [
                *AKIT,
                "workflow",
                "run",
                str(tmp_path / "suite"),
                "--config",
                str(config),
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
            process.send_signal(signal.SIGINT)
            # A bounded wait: a driver waiting on the held call would still be
            # waiting (Ray's graceful cancel does not reach it for about 30 s).
            _, errors = process.communicate(timeout=20)
            # The worker holding the call was ended: the call was dropped.
            assert server.wait_for_disconnects(1)
        assert len(server.requests) == 1
    assert process.returncode == 130, errors
    assert "Traceback" not in errors
    summary = load_suite_record(tmp_path / "out" / "suite.json")
    assert summary["status"] == "cancelled"
    (run,) = summary["workflows"][0]["runs"]
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
