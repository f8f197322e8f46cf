"""The processes executor: a pool of worker processes on this machine (issue 29).

Equality with the local executor and the refusals run in-process (the workers
are this test process's children); killing a worker and signalling the driver
need a real ``akit`` process.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio
import pytest

from artemiskit import ArtemisKit, SuiteResult, Tool, WorkflowError
from artemiskit.suites import (
    EXECUTOR_NAMES,
    LocalExecutor,
    PlannedRun,
    ProcessExecutor,
    RayExecutor,
    RunLost,
    executor_named,
    load_suite_record,
)
from artemiskit.tools import ToolResult
from tests._builders import PASSING_SCRIPT, workflow_dict
from tests._cli import AKIT, akit
from tests.providers._chat_server import ChatServer, NeverAnswer, chat_reply
from tests.suites._suites import (
    SLOW_SCRIPT,
    comparable_summary,
    write_member,
    write_suite,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

    from artemiskit import WorkflowResult
    from artemiskit.suites._executor import Placement

#: Record fields that differ between two runs of the same workflow.
_VOLATILE_RECORD = {"run_id", "attempt_id"}
_VOLATILE_EXECUTION = {"started_at", "finished_at", "duration_ms"}
_KEY = "AKIT_PROCESSES_TEST_KEY"
#: Workers read keys from their own environment: the driver's, inherited.
ENV = {**os.environ, _KEY: "sk-processes-test"}


def test_executors_are_chosen_by_name() -> None:
    assert EXECUTOR_NAMES == ("local", "processes", "ray")
    assert isinstance(executor_named("local"), LocalExecutor)
    workers = executor_named("processes", workers=3)
    assert isinstance(workers, ProcessExecutor)
    # Each worker holds the next run ahead of the one it runs.
    assert (workers.name, workers.placement, workers.slots(8)) == (
        "processes",
        "this_machine",
        6,
    )
    assert workers.slots(2) == 4
    ray = executor_named("ray", address="127.0.0.1:1")
    assert isinstance(ray, RayExecutor)
    assert (ray.name, ray.placement, ray.slots(5)) == ("ray", "cluster", 5)
    local = LocalExecutor()
    assert (local.name, local.placement, local.slots(4)) == ("local", "in_process", 4)


class _Recording:
    """An executor of one's own: runs here, loses repetition 2 of ``flaky``."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    @property
    def name(self) -> str:
        return "recording"

    @property
    def placement(self) -> Placement:
        return "in_process"

    def slots(self, concurrency: int) -> int:
        return 1

    async def start(self, runs: Sequence[PlannedRun]) -> None:
        self.calls.append(f"start {len(runs)}")

    async def run(self, planned: PlannedRun) -> WorkflowResult:
        # suite/workflow/target/repetition: the suite id left out
        key = planned.key.split("/", 1)[1]
        self.calls.append(key)
        if key == "flaky/scripted:agent/2":
            raise RunLost("node_died")
        return await planned.run_here()

    def cancel(self) -> None:
        self.calls.append("cancel")

    async def close(self) -> None:
        self.calls.append("close")


@pytest.mark.anyio
async def test_an_executor_of_ones_own_runs_each_planned_run_once(
    tmp_path: Path,
) -> None:
    executor = _Recording()
    result = await ArtemisKit().run_suite(
        paths=[write_suite(tmp_path)], repeat=2, executor=executor, min_pass_rate=0
    )
    # Started once before any run, each run once in plan order, closed once.
    assert executor.calls == [
        "start 4",
        "flaky/scripted:agent/1",
        "steady/scripted:agent/1",
        "flaky/scripted:agent/2",
        "steady/scripted:agent/2",
        "close",
    ]
    assert result.summary["settings"]["executor"] == "recording"
    runs = {
        (w["name"], r["repetition"]): r
        for w in result.summary["workflows"]
        for r in w["runs"]
    }
    assert (runs[("flaky", 2)]["lost"], runs[("flaky", 2)]["lost_reason"]) == (
        True,
        "node_died",
    )
    assert result.summary["totals"]["runs_lost"] == 1
    assert result.exit_code == 7


def test_an_unknown_executor_name_is_refused_with_the_names() -> None:
    with pytest.raises(WorkflowError) as caught:
        executor_named("threads")
    assert caught.value.reason == "invalid_option"
    assert "local, processes, ray" in caught.value.message
    with pytest.raises(ValueError, match="workers"):
        ProcessExecutor(workers=0)


def test_the_cli_refuses_an_unknown_executor_with_exit_2(tmp_path: Path) -> None:
    done = akit(
        "workflow",
        "run",
        write_suite(tmp_path),
        "--output-dir",
        tmp_path / "out",
        "--executor",
        "threads",
    )
    assert done.returncode == 2
    assert "'local', 'processes', 'ray'" in done.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.anyio
async def test_an_unknown_executor_name_in_the_sdk_runs_nothing(tmp_path: Path) -> None:
    with pytest.raises(WorkflowError) as caught:
        await ArtemisKit().run_suite(
            paths=[write_suite(tmp_path)], executor="threads", output_dir=tmp_path / "o"
        )
    assert caught.value.exit_code == 2
    assert not (tmp_path / "o").exists()


def _comparable_record(path: Path) -> dict[str, Any]:
    record = json.loads(path.read_text("utf-8"))
    kept = {k: v for k, v in record.items() if k not in _VOLATILE_RECORD}
    kept["execution"] = {
        k: v for k, v in record["execution"].items() if k not in _VOLATILE_EXECUTION
    }
    return kept


@pytest.mark.anyio
async def test_processes_give_the_same_suite_and_records_as_local(
    tmp_path: Path,
) -> None:
    suite = write_suite(tmp_path)
    results = {}
    for name in ("local", "processes"):
        results[name] = await ArtemisKit().run_suite(
            paths=[suite],
            repeat=3,
            concurrency=2,
            min_pass_rate=0.5,
            transcripts=True,
            executor=name,
            output_dir=tmp_path / name,
        )
    local, processes = results["local"], results["processes"]
    assert (local.exit_code, processes.exit_code) == (0, 0)
    assert processes.summary["settings"]["executor"] == "processes"
    assert processes.summary["totals"]["passed"] == 5
    assert comparable_summary(processes.summary) == comparable_summary(local.summary)
    here = load_suite_record(tmp_path / "processes" / "suite.json")
    assert comparable_summary(here) == comparable_summary(
        load_suite_record(tmp_path / "local" / "suite.json")
    )
    for workflow in here["workflows"]:
        for run in workflow["runs"]:
            mine = _comparable_record(tmp_path / "processes" / run["record"])
            theirs = _comparable_record(tmp_path / "local" / run["record"])
            assert mine == theirs
    transcripts = sorted((tmp_path / "processes" / "transcripts").rglob("*.json"))
    assert len(transcripts) == 6
    assert {path.stat().st_mode & 0o777 for path in transcripts} == {0o600}
    # Each transcript came back from its worker whole: as the local run's.
    for path in transcripts:
        relative = path.relative_to(tmp_path / "processes")
        mine = json.loads(path.read_text("utf-8"))
        theirs = json.loads((tmp_path / "local" / relative).read_text("utf-8"))
        assert mine["messages"]
        assert {**mine, "run_id": None} == {**theirs, "run_id": None}


async def _told(arguments: Any, context: Any) -> ToolResult:
    del arguments, context
    return ToolResult(output={"ok": True})


@pytest.mark.anyio
async def test_what_cannot_travel_to_a_worker_is_refused_before_any_run(
    tmp_path: Path,
) -> None:
    async def handler(arguments: Any, context: Any) -> ToolResult:
        return await _told(arguments, context)

    # A tool defined inside a function cannot be sent to another process.
    local_tool = Tool(
        name="local_only",
        description="Defined in a function.",
        input_schema={"type": "object"},
        output_schema={"type": "object"},
        effect="read",
        handler=handler,
    )
    kit = ArtemisKit(tools=[local_tool])
    with pytest.raises(WorkflowError) as caught:
        await kit.run_suite(
            paths=[write_suite(tmp_path)],
            executor="processes",
            output_dir=tmp_path / "o",
        )
    assert caught.value.reason == "not_shippable"
    assert "local executor" in caught.value.message
    assert not list((tmp_path / "o").rglob("*.record.json"))


@pytest.mark.anyio
async def test_telemetry_is_refused_under_the_processes_executor(
    tmp_path: Path,
) -> None:
    from artemiskit.telemetry import Telemetry, TelemetryConfig

    with pytest.raises(WorkflowError) as caught:
        await ArtemisKit().run_suite(
            paths=[write_suite(tmp_path)],
            executor=ProcessExecutor(),
            telemetry=Telemetry(TelemetryConfig(otlp_endpoint="http://127.0.0.1:9")),
        )
    assert caught.value.reason == "invalid_option"
    assert "processes executor" in caught.value.message


def _children(pid: int) -> list[int]:
    """The worker processes of the driver ``pid``.

    Workers are forked from the driver's fork server (its child, running
    ``multiprocessing.forkserver``): the server's children.
    """
    parents: dict[int, int] = {}
    commands: dict[int, bytes] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            commands[int(entry.name)] = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        parents[int(entry.name)] = int(stat.rpartition(")")[2].split()[1])
    servers = {
        child
        for child, parent in parents.items()
        if parent == pid and b"forkserver" in commands.get(child, b"")
    }
    return sorted(child for child, parent in parents.items() if parent in servers)


def _gone(pids: list[int]) -> bool:
    """Whether every process of ``pids`` has ended (bounded polling)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if not any(Path(f"/proc/{pid}").exists() for pid in pids):
            return True
        time.sleep(0.05)
    return False


def _served_member(root: Path, server: ChatServer) -> Path:
    folder = root / "suite" / "served"
    folder.mkdir(parents=True)
    data = workflow_dict(
        name="served",
        target={"provider": "local", "model": "m-1"},
        outcomes=[{"id": "answered", "final_response": {"contains": ["Done"]}}],
    )
    (folder / "workflow.yaml").write_text(json.dumps(data), "utf-8")
    config = root / "artemis.config.json"
    entry = {"type": "openai", "base_url": server.url, "api_key_env": _KEY}
    config.write_text(json.dumps({"providers": {"local": entry}}), "utf-8")
    return config


@pytest.mark.slow
def test_a_killed_worker_loses_its_run_which_never_starts_again(
    tmp_path: Path,
) -> None:
    with ChatServer() as server:
        # The first request is held until its worker dies; the next answers.
        server.enqueue(NeverAnswer(), chat_reply(content="Done."))
        config = _served_member(tmp_path, server)
        write_member(tmp_path / "suite", "steady", [PASSING_SCRIPT])
        arguments = [
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
            "processes",
        ]
        with subprocess.Popen(
            [*AKIT, *arguments], stderr=subprocess.PIPE, text=True, env=ENV
        ) as process:
            assert server.wait_for_hanging(1)
            (worker,) = _children(process.pid)
            os.kill(worker, signal.SIGKILL)
            _, errors = process.communicate(timeout=120)
            workers = _children(process.pid)
        # The held request was the only one of that run: it never started again.
        assert len(server.requests) == 2
    assert process.returncode == 7, errors
    assert workers == []
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
    assert summary["status"] == "completed"
    assert summary["totals"]["runs_lost"] == 1
    # The killed worker's scratch folder was removed by a later run.
    scratch = Path(tempfile.gettempdir()) / f"akit-processes-{os.getuid()}"
    assert not list(scratch.glob(f"run-{worker}-*"))


def _served_pair(root: Path, server: ChatServer) -> Path:
    """Two workflows of one served target: ``held`` runs first, ``queued`` next."""
    config = _served_member(root, server)
    served = root / "suite" / "served"
    for name in ("held", "queued"):
        folder = root / "pair" / name
        folder.mkdir(parents=True)
        data = json.loads((served / "workflow.yaml").read_text("utf-8"))
        (folder / "workflow.yaml").write_text(json.dumps({**data, "name": name}))
    return config


@pytest.mark.anyio
async def test_a_run_held_behind_a_killed_workers_run_starts_on_another_worker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker holds the next run ahead: killed, that run never started there.

    ``held`` hangs on its model request on the only worker, which holds
    ``queued`` ahead (two slots per worker). The worker is killed: ``held``
    said it started, so it is lost and never started again; ``queued`` never
    started (its worker never said so), so it runs once, on a new worker.
    """
    monkeypatch.setenv(_KEY, ENV[_KEY])
    with ChatServer() as server:
        server.enqueue(NeverAnswer(), chat_reply(content="Done."))
        config = _served_pair(tmp_path, server)
        session = await ArtemisKit(config=config).create_suite_session(
            paths=[tmp_path / "pair"],
            concurrency=1,
            executor=ProcessExecutor(workers=1),
            output_dir=tmp_path / "out",
        )
        handed = anyio.Event()

        async def watch() -> None:
            async for event in session.events():
                if event.type == "run_started" and event.workflow == "queued":
                    handed.set()

        async with anyio.create_task_group() as group:
            group.start_soon(watch)
            done: list[SuiteResult] = []

            async def run() -> None:
                done.append(await session.run())

            group.start_soon(run)
            await handed.wait()
            assert await anyio.to_thread.run_sync(server.wait_for_hanging, 1)
            # `queued` was handed to the executor, which sent it to the worker.
            await anyio.wait_all_tasks_blocked()
            (worker,) = _children(os.getpid())
            os.kill(worker, signal.SIGKILL)
        # One request each: `held` never started again, `queued` started once.
        assert len(server.requests) == 2
    (result,) = done
    assert result.exit_code == 7
    runs = {w["name"]: w["runs"][0] for w in result.summary["workflows"]}
    assert (runs["held"]["lost"], runs["held"]["lost_reason"]) == (True, "worker_died")
    assert (runs["queued"]["lost"], runs["queued"]["verification"]) == (
        False,
        "passed",
    )
    assert result.summary["totals"]["runs_lost"] == 1
    assert _gone([worker])


@pytest.mark.anyio
async def test_a_cancelled_suite_cancels_the_run_a_worker_holds_ahead(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The run held ahead starts cancelled: a cancelled record, no request."""
    monkeypatch.setenv(_KEY, ENV[_KEY])
    with ChatServer() as server:
        server.enqueue(NeverAnswer(), NeverAnswer())
        config = _served_pair(tmp_path, server)
        session = await ArtemisKit(config=config).create_suite_session(
            paths=[tmp_path / "pair"],
            concurrency=1,
            executor=ProcessExecutor(workers=1),
            output_dir=tmp_path / "out",
        )
        handed = anyio.Event()

        async def watch() -> None:
            async for event in session.events():
                if event.type == "run_started" and event.workflow == "queued":
                    handed.set()

        async with anyio.create_task_group() as group:
            group.start_soon(watch)
            done: list[SuiteResult] = []

            async def run() -> None:
                done.append(await session.run())

            group.start_soon(run)
            await handed.wait()
            assert await anyio.to_thread.run_sync(server.wait_for_hanging, 1)
            await anyio.wait_all_tasks_blocked()
            session.cancel()
        assert len(server.requests) == 1
    (result,) = done
    assert result.exit_code == 130
    assert result.summary["status"] == "cancelled"
    runs = {w["name"]: w["runs"][0] for w in result.summary["workflows"]}
    for name in ("held", "queued"):
        assert (runs[name]["lost"], runs[name]["execution_status"]) == (
            False,
            "cancelled",
        )
        assert (tmp_path / "out" / runs[name]["record"]).is_file()


class _EndsItsProcess:
    """An agent whose copy ends the process that receives it (exit status 3)."""

    version = "1.0"

    async def respond(self, request: Any) -> Any:
        raise AssertionError("never runs")

    def __reduce__(self) -> tuple[Any, ...]:
        return (os._exit, (3,))


@pytest.mark.anyio
async def test_runs_of_a_worker_that_dies_before_starting_any_are_lost(
    tmp_path: Path,
) -> None:
    """Runs are sent elsewhere only when their worker had worked: no endless retry.

    Each worker dies as the first run reaches it, before it starts anything:
    every run is lost (``worker_died``) and the suite ends.
    """
    result = await ArtemisKit().run_suite(
        paths=[write_suite(tmp_path)],
        targets={"doomed": _EndsItsProcess()},
        executor=ProcessExecutor(workers=1),
        output_dir=tmp_path / "out",
    )
    assert result.exit_code == 7
    runs = [r for w in result.summary["workflows"] for r in w["runs"]]
    assert [(r["lost"], r["lost_reason"]) for r in runs] == [(True, "worker_died")] * 2
    assert not list((tmp_path / "out").rglob("*.record.json"))


def _not_importable_here() -> None:
    raise ModuleNotFoundError("a module only the suite's process has")


class _CannotArrive:
    """An agent whose copy cannot be rebuilt where it arrives."""

    version = "1.0"

    async def respond(self, request: Any) -> Any:
        raise AssertionError("never runs")

    def __reduce__(self) -> tuple[Any, ...]:
        return (_not_importable_here, ())


@pytest.mark.anyio
async def test_a_run_a_worker_cannot_rebuild_fails_there_and_the_worker_goes_on(
    tmp_path: Path,
) -> None:
    """Its data names what the worker cannot import: lost (``task_failed``).

    The worker never starts it, answers for it in its turn and serves the
    suite's next run.
    """
    result = await ArtemisKit().run_suite(
        paths=[write_suite(tmp_path)],
        targets={"gone": _CannotArrive()},
        repeat=2,
        executor=ProcessExecutor(workers=1),
        output_dir=tmp_path / "out",
    )
    assert result.exit_code == 7
    runs = [r for w in result.summary["workflows"] for r in w["runs"]]
    assert [(r["lost"], r["lost_reason"]) for r in runs] == [(True, "task_failed")] * 4


@pytest.mark.slow
@pytest.mark.parametrize("to_group", [False, True], ids=["driver", "process-group"])
def test_ctrl_c_cancels_the_runs_and_leaves_no_worker(
    tmp_path: Path, to_group: bool
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
            "--concurrency",
            "2",
            "--executor",
            "processes",
        ],
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
        # Its own process group: a Ctrl-C on a terminal reaches the whole group.
        start_new_session=True,
    ) as process:
        assert process.stderr is not None
        for line in process.stderr:
            if "fast #001: passed" in line:
                break
        workers = _children(process.pid)
        assert workers
        if to_group:
            os.killpg(process.pid, signal.SIGINT)
        else:
            process.send_signal(signal.SIGINT)
        _, rest = process.communicate(timeout=120)
    assert process.returncode == 130, rest
    assert "Traceback" not in rest
    assert "received SIGINT: cancelling" in rest
    assert _gone(workers)
    summary = load_suite_record(out / "suite.json")
    assert summary["status"] == "cancelled"
    slow = next(w for w in summary["workflows"] if w["name"] == "slow")
    (run,) = slow["runs"]
    # The worker cancelled its run, which kept its (cancelled) record.
    assert (run["lost"], run["execution_status"]) == (False, "cancelled")
    assert (out / run["record"]).is_file()


def _same_outputs(here: Path, there: Path) -> None:
    """Two suite folders hold the same suite.json and records (ids, times aside)."""
    mine = load_suite_record(here / "suite.json")
    assert comparable_summary(mine) == comparable_summary(
        load_suite_record(there / "suite.json")
    )
    records = sorted(p.relative_to(here) for p in here.rglob("*.record.json"))
    assert records == sorted(p.relative_to(there) for p in there.rglob("*.record.json"))
    assert records
    for relative in records:
        assert _comparable_record(here / relative) == _comparable_record(
            there / relative
        )


@pytest.mark.anyio
async def test_cases_of_a_dataset_run_on_workers_as_they_run_locally(
    tmp_path: Path,
) -> None:
    """Each worker gets the unit's case expanded; records and suite.json equal."""
    from tests.suites.test_dataset_suites import SENTINEL, every_text, suite_folder

    path = suite_folder(tmp_path, cases=4)
    for name in ("local", "processes"):
        result = await ArtemisKit().run_suite(
            paths=[path],
            repeat=2,
            concurrency=2,
            min_pass_rate=0,
            cases=["c-1", "c-2", "c-4"],
            executor=name,
            output_dir=tmp_path / name,
        )
        assert result.summary["settings"]["executor"] == name
    _same_outputs(tmp_path / "processes", tmp_path / "local")
    summary = load_suite_record(tmp_path / "processes" / "suite.json")
    units = {u["case"]: (u["passed"], u["failed"]) for u in summary["units"]}
    assert units == {"c-1": (2, 0), "c-2": (0, 2), "c-4": (2, 0)}
    assert SENTINEL not in every_text(tmp_path / "processes")


@pytest.mark.anyio
async def test_a_target_matrix_with_agents_runs_on_workers_as_it_runs_locally(
    tmp_path: Path,
) -> None:
    """Provider entries and agents of one's own (importable by name) travel."""
    from tests.suites.test_target_matrix import Support, _suite, support_bot

    suite = _suite(tmp_path)
    for name in ("local", "processes"):
        await ArtemisKit().run_suite(
            paths=[suite],
            repeat=2,
            min_pass_rate=0,
            targets=["scripted:agent", "scripted:weak"],
            executor=name,
            output_dir=tmp_path / name / "entries",
        )
        await ArtemisKit().run_suite(
            paths=[suite],
            repeat=2,
            targets={"support-bot": support_bot, "scripted": Support()},
            executor=name,
            output_dir=tmp_path / name / "agents",
        )
    for kind in ("entries", "agents"):
        _same_outputs(tmp_path / "processes" / kind, tmp_path / "local" / kind)
    records = [
        json.loads(p.read_text("utf-8"))
        for p in (tmp_path / "processes" / "agents").rglob("*.record.json")
    ]
    assert len(records) == 8
    assert {r["target"]["id"] for r in records} == {"support-bot", "scripted"}
    assert {r["target"]["version"] for r in records} == {"1.0"}
    weak = load_suite_record(tmp_path / "processes" / "entries" / "suite.json")
    assert [u["target"] for u in weak["units"]] == [
        "scripted:agent",
        "scripted:weak",
    ] * 2


class _Unpicklable:
    """An agent holding a lock: it cannot be sent to another process."""

    def __init__(self) -> None:
        import threading

        self.lock = threading.Lock()

    async def respond(self, request: Any) -> Any:
        raise AssertionError("never runs")


@pytest.mark.anyio
async def test_an_agent_that_cannot_travel_is_refused_before_any_run(
    tmp_path: Path,
) -> None:
    with pytest.raises(WorkflowError) as caught:
        await ArtemisKit().run_suite(
            paths=[write_suite(tmp_path)],
            targets={"held": _Unpicklable()},
            executor="processes",
            output_dir=tmp_path / "o",
        )
    assert caught.value.reason == "not_shippable"
    assert not list((tmp_path / "o").rglob("*.record.json"))


@pytest.mark.anyio
async def test_workers_take_the_drivers_environment_of_each_suite(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A key set after the fork server started still reaches the workers.

    Workers fork from a server started once per process; each takes the
    driver's environment when it starts, as a spawned process inherits it.
    """
    await ArtemisKit().run_suite(
        paths=[write_suite(tmp_path / "first")], executor="processes"
    )
    monkeypatch.setenv(_KEY, "sk-set-after-the-server-started")
    with ChatServer() as server:
        server.enqueue(chat_reply(content="Done."))
        config = _served_member(tmp_path, server)
        result = await ArtemisKit(config=config).run_suite(
            paths=[tmp_path / "suite"], executor="processes"
        )
        (request,) = server.requests
    assert result.exit_code == 0, result.summary["totals"]
    assert request.headers["authorization"] == "Bearer sk-set-after-the-server-started"
    # Without an output folder the suite keeps each run's whole result: its
    # state and transcript came back from the worker with its record.
    (run,) = result.runs
    assert run.result is not None
    assert run.result.state is not None
    assert [m.role for m in run.result.transcript][-1] == "assistant"
