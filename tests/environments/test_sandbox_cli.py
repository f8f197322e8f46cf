"""The Docker sandbox end to end through ``akit workflow run`` (issue 5).

Real engine, real ``python -m artemiskit_cli`` subprocesses, no mocks. Every run's
containers are found by the run-id label (``io.artemiskit.run-id``, next to
``io.artemiskit.sandbox=1``), so these tests do not see containers of runs that other
tests start at the same time. Nothing waits on a clock: a run is interrupted only
after the progress line that proves it reached the wanted point.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio
import pytest
from ruamel.yaml import YAML

from artemiskit import ArtemisKit, load_trusted_config
from artemiskit._errors import UnsupportedError
from artemiskit.environments import SandboxConfig
from artemiskit.environments.sandbox._engine import install_hint
from artemiskit.environments.sandbox._environment import (
    DEFAULT_SANDBOX_IMAGE,
    RUN_ID_LABEL,
    SANDBOX_LABEL,
    DockerSandboxFactory,
)
from tests._cli import AKIT, akit_process

from ._docker import SANDBOX_IMAGE, labelled_containers, remove_labelled

if TYPE_CHECKING:
    from collections.abc import Iterator

ROOT = Path(__file__).resolve().parents[2]
QUICKSTART = ROOT / "examples" / "quickstart"
SANDBOX_QUICKSTART = ROOT / "examples" / "sandbox-quickstart"
TIMEOUT_S = 120
RUN_STARTED = re.compile(r"^run (\S+) started$", re.M)
#: Words of the install hint that must reach stderr on exit 3 (the CLI prints the
#: same text as the factory's `install_hint`, which the record cannot carry).
HINT_WORDS = ("never pulled", "scripts/ci-docker.sh", "docker import", "sandbox.image")
#: The plain commands of the hint that build a busybox image without the repository.
RECIPE = (
    "    apt-get download busybox-static\n",
    "    dpkg-deb -x busybox-static_*.deb pkg\n",
    "    cp pkg/bin/busybox rootfs/bin/busybox\n",
    "    tar -C rootfs --numeric-owner --owner=0 --group=0 -cf rootfs.tar .\n",
)


def _yaml() -> YAML:
    yaml = YAML()
    yaml.width = 4096
    return yaml


def sandbox_quickstart(
    tmp_path: Path,
    *,
    image: str = SANDBOX_IMAGE,
    kind: str = "sandbox",
    extra_files: int = 0,
    faults: list[dict[str, Any]] | None = None,
    delays_ms: dict[int, int] | None = None,
) -> tuple[Path, Path]:
    """Copy examples/quickstart (``kind: sandbox``); return (workflow, config).

    Args:
        tmp_path: Where the copy and the trusted configuration go.
        image: ``sandbox.image`` of the configuration.
        kind: ``environment.kind`` of the copy.
        extra_files: Initial files added under ``docs/extra/``.
        faults: A ``faults:`` list for the workflow.
        delays_ms: ``delay_ms`` per script entry index.
    """
    folder = tmp_path / "quickstart"
    shutil.copytree(QUICKSTART, folder)
    yaml = _yaml()
    workflow_path = folder / "workflow.yaml"
    workflow = yaml.load(workflow_path)
    workflow["environment"]["kind"] = kind
    for number in range(extra_files):
        workflow["environment"]["files"][f"docs/extra/{number:03}.md"] = "extra\n"
    if faults is not None:
        workflow["faults"] = faults
    yaml.dump(workflow, workflow_path)
    if delays_ms:
        script_path = folder / "quickstart.script.yaml"
        script = yaml.load(script_path)
        for index, delay in delays_ms.items():
            script["responses"][index]["delay_ms"] = delay
        yaml.dump(script, script_path)
    config = tmp_path / "artemis.config.yaml"
    config.write_text(f"sandbox:\n  image: {json.dumps(image)}\n", "utf-8")
    return workflow_path, config


def akit(
    *args: str | Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    # A real process: these tests check what a user's process leaves (containers).
    return akit_process(
        *args, cwd=ROOT, env={**os.environ, **(env or {})}, timeout=TIMEOUT_S
    )


def outcome(code: int | None, stderr: str) -> str:
    return f"exit {code}\nstderr:\n{stderr}"


def containers_of(run_id: str) -> list[str]:
    """Ids of the containers labelled with ``run_id`` (stopped ones too)."""
    return anyio.run(labelled_containers, run_id)


class Runs:
    """The run ids a test started; their containers are removed at teardown."""

    def __init__(self) -> None:
        self.ids: list[str] = []

    def started(self, stderr: str) -> str:
        """Note the run id of the ``run … started`` progress line and return it."""
        match = RUN_STARTED.search(stderr)
        assert match is not None, f"no `run … started` line:\n{stderr}"
        self.ids.append(match[1])
        return match[1]


@pytest.fixture
def runs() -> Iterator[Runs]:
    started = Runs()
    yield started
    for run_id in started.ids:
        anyio.run(remove_labelled, run_id)


def read_record(path: Path) -> dict[str, Any]:
    record: dict[str, Any] = json.loads(path.read_text("utf-8"))
    return record


def test_the_label_constants_are_the_documented_ones() -> None:
    assert SANDBOX_LABEL == "io.artemiskit.sandbox"
    assert RUN_ID_LABEL == "io.artemiskit.run-id"
    assert "io.artemiskit.sandbox=1" in (ROOT / "docs" / "sandbox.md").read_text()


@pytest.mark.docker
def test_quickstart_passes_in_the_sandbox_end_to_end(
    tmp_path: Path, runs: Runs
) -> None:
    workflow, config = sandbox_quickstart(tmp_path)
    record_path = tmp_path / "record.json"
    state_path = tmp_path / "state.json"
    done = akit(
        "workflow",
        "run",
        workflow,
        "--config",
        config,
        "--output",
        record_path,
        "--state-output",
        state_path,
    )
    run_id = runs.started(done.stderr)
    assert done.returncode == 0, outcome(done.returncode, done.stderr)
    assert "Traceback" not in done.stderr
    assert "environment ready" in done.stderr
    record = read_record(record_path)
    assert record["run_id"] == run_id
    assert record["exit_code"] == 0
    assert record["environment_kind"] == "sandbox"
    assert record["execution"]["status"] == "completed"
    assert record["task_verification"]["status"] == "passed"
    assert record["cleanup"] == {
        "status": "complete",
        "reason": None,
        "timeout_ms": 6000,
        "unresolved": 0,
    }
    state = json.loads(state_path.read_text("utf-8"))
    assert state["files"] == {
        "docs/refund-policy.md": (
            "# Refund policy\n"
            "Refunds are accepted within 30 days of purchase with a receipt.\n"
        ),
        "out/summary.md": (
            "Refunds are accepted within 30 days of purchase with a receipt.\n"
        ),
    }
    assert containers_of(run_id) == []


@pytest.mark.docker
def test_the_sandbox_example_runs_with_its_own_configuration(
    tmp_path: Path, runs: Runs
) -> None:
    """examples/sandbox-quickstart runs as its header says, with its config file."""
    config_path = SANDBOX_QUICKSTART / "artemis.config.yaml"
    config = anyio.run(load_trusted_config, config_path)
    assert config.sandbox is not None
    assert config.sandbox.image == DEFAULT_SANDBOX_IMAGE
    if SANDBOX_IMAGE != DEFAULT_SANDBOX_IMAGE:
        pytest.skip(f"ARTEMISKIT_SANDBOX_IMAGE={SANDBOX_IMAGE}: the example's differs")
    record_path = tmp_path / "record.json"
    done = akit(
        "workflow",
        "run",
        SANDBOX_QUICKSTART / "workflow.yaml",
        "--config",
        config_path,
        "--output",
        record_path,
    )
    run_id = runs.started(done.stderr)
    assert done.returncode == 0, outcome(done.returncode, done.stderr)
    record = read_record(record_path)
    assert record["environment_kind"] == "sandbox"
    assert record["cleanup"]["status"] == "complete"
    assert containers_of(run_id) == []


def _interrupt(
    command: list[str], ready: re.Pattern[str], runs: Runs
) -> tuple[int, str]:
    """Start ``command``, SIGTERM it once stderr shows ``ready``; (exit, stderr)."""
    seen: list[str] = []
    with subprocess.Popen(
        command, cwd=ROOT, stderr=subprocess.PIPE, text=True
    ) as process:
        assert process.stderr is not None
        for line in process.stderr:
            seen.append(line)
            if ready.search(line):
                break
        else:
            process.wait(timeout=TIMEOUT_S)
            pytest.fail(outcome(process.returncode, "".join(seen)))
        runs.started("".join(seen))
        process.send_signal(signal.SIGTERM)
        _, rest = process.communicate(timeout=TIMEOUT_S)
    return process.returncode, "".join(seen) + rest


@pytest.mark.docker
@pytest.mark.parametrize(
    ("faults", "delays_ms", "ready"),
    [
        pytest.param(
            # The first read_file attempt waits 60 s (a declared `timeout` fault):
            # the tool call is admitted and in flight when SIGTERM arrives.
            [
                {
                    "id": "slow-read",
                    "tool": "read_file",
                    "occurrence": 1,
                    "kind": "timeout",
                    "timeout_ms": 60000,
                }
            ],
            None,
            r"admitted: read_file$",
            id="during-a-tool-call",
        ),
        pytest.param(
            # The model request after the read takes 60 s (`delay_ms`).
            None,
            {1: 60000},
            r"op-000003 admitted: model request$",
            id="during-a-model-request",
        ),
    ],
)
def test_sigterm_cancels_writes_the_record_and_removes_the_container(
    tmp_path: Path,
    runs: Runs,
    faults: list[dict[str, Any]] | None,
    delays_ms: dict[int, int] | None,
    ready: str,
) -> None:
    workflow, config = sandbox_quickstart(tmp_path, faults=faults, delays_ms=delays_ms)
    record_path = tmp_path / "record.json"
    command = [
        *AKIT,
        "workflow",
        "run",
        str(workflow),
        "--config",
        str(config),
        "--output",
        str(record_path),
    ]
    code, stderr = _interrupt(command, re.compile(ready), runs)
    assert code == 130, outcome(code, stderr)
    assert "received SIGTERM" in stderr
    assert "Traceback" not in stderr
    record = read_record(record_path)
    assert record["run_id"] == runs.ids[-1]
    assert record["exit_code"] == 130
    assert record["environment_kind"] == "sandbox"
    assert record["execution"]["status"] == "cancelled"
    assert record["cleanup"]["status"] == "complete"
    assert record["cleanup"]["unresolved"] == 0
    assert record["operations"]["unknown"] == 1  # the interrupted operation
    assert containers_of(record["run_id"]) == []


@pytest.mark.docker
def test_cleanup_that_times_out_is_unresolved_exit_7(
    tmp_path: Path, runs: Runs
) -> None:
    """``--cleanup-timeout 1`` cannot fit the final snapshot, let alone removal.

    Cleanup first reads back every file (one helper round trip each, every one
    forking busybox processes in the container) and only then removes the
    container. With 64 initial files that is 65 round trips against a 1 ms bound,
    so the bound always expires first: cleanup is reported unresolved, never
    silently complete. The container it leaves is removed here, by its label.
    """
    workflow, config = sandbox_quickstart(tmp_path, extra_files=64)
    record_path = tmp_path / "record.json"
    done = akit(
        "workflow",
        "run",
        workflow,
        "--config",
        config,
        "--cleanup-timeout",
        "1",
        "--output",
        record_path,
    )
    run_id = runs.started(done.stderr)
    assert done.returncode == 7, outcome(done.returncode, done.stderr)
    assert "cleanup unresolved" in done.stderr
    record = read_record(record_path)
    assert record["exit_code"] == 7
    assert record["execution"]["status"] == "completed"
    assert record["cleanup"] == {
        "status": "unresolved",
        "reason": "cleanup_timeout",
        "timeout_ms": 1,
        "unresolved": 1,
    }
    # The record never under-reports what is left behind.
    assert len(containers_of(run_id)) <= record["cleanup"]["unresolved"]
    anyio.run(remove_labelled, run_id)
    assert containers_of(run_id) == []


@pytest.mark.docker
def test_missing_image_is_exit_3_with_the_hint_and_no_container(
    tmp_path: Path, runs: Runs
) -> None:
    image = "artemiskit-sandbox:does-not-exist"
    workflow, config = sandbox_quickstart(tmp_path, image=image)
    record_path = tmp_path / "record.json"
    done = akit(
        "workflow", "run", workflow, "--config", config, "--output", record_path
    )
    run_id = runs.started(done.stderr)
    assert done.returncode == 3, outcome(done.returncode, done.stderr)
    assert "Traceback" not in done.stderr
    assert install_hint(image) in done.stderr, outcome(done.returncode, done.stderr)
    for word in HINT_WORDS:
        assert word in done.stderr
    # It names the configured image and builds it with plain commands, under that
    # very name, without the repository's scripts.
    assert "the sandbox image 'artemiskit-sandbox:does-not-exist'" in done.stderr
    for command in RECIPE:
        assert command in done.stderr
    assert (
        "    docker import --change 'CMD [\"/bin/sh\"]' rootfs.tar "
        "artemiskit-sandbox:does-not-exist\n"
    ) in done.stderr
    assert "environment ready" not in done.stderr
    record = read_record(record_path)
    assert record["exit_code"] == 3
    assert record["execution"]["status"] == "unsupported"
    assert record["execution"]["reason"] == "sandbox_image_missing"
    assert record["cleanup"]["status"] == "not_needed"
    assert record["budget"]["used"]["model_requests"] == 0
    assert containers_of(run_id) == []


def test_the_hint_names_the_default_image_and_quotes_any_image() -> None:
    assert SandboxConfig().install_hint() == install_hint(DEFAULT_SANDBOX_IMAGE)
    assert f"'{DEFAULT_SANDBOX_IMAGE}'" in SandboxConfig().install_hint()
    hint = SandboxConfig(image="my image;rm -rf x").install_hint()
    assert "rootfs.tar 'my image;rm -rf x'\n" in hint


def test_unreachable_engine_is_exit_3_with_the_hint(tmp_path: Path) -> None:
    """``DOCKER_HOST`` is honoured: an address where nothing answers is exit 3.

    No Docker needed: nothing answers at that address, so nothing is created.
    """
    workflow, config = sandbox_quickstart(tmp_path)
    record_path = tmp_path / "record.json"
    done = akit(
        "workflow",
        "run",
        workflow,
        "--config",
        config,
        "--output",
        record_path,
        env={"DOCKER_HOST": "unix:///nonexistent.sock"},
    )
    assert done.returncode == 3, outcome(done.returncode, done.stderr)
    assert "Traceback" not in done.stderr
    assert "DOCKER_HOST" in done.stderr
    assert install_hint(SANDBOX_IMAGE) in done.stderr, outcome(
        done.returncode, done.stderr
    )
    for word in HINT_WORDS:
        assert word in done.stderr
    record = read_record(record_path)
    assert record["exit_code"] == 3
    assert record["execution"]["status"] == "unsupported"
    assert record["execution"]["reason"] == "sandbox_engine_unreachable"
    assert record["cleanup"]["status"] == "not_needed"


@pytest.mark.parametrize("anyio_backend", ["asyncio"])
@pytest.mark.parametrize("docker_host", [None, "unix:///nonexistent-docker-host.sock"])
async def test_docker_host_wins_over_a_docker_context(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, docker_host: str | None
) -> None:
    """``DOCKER_HOST`` decides the engine even when a Docker context is current.

    A context ``elsewhere`` (``~/.docker/config.json`` ``currentContext``) points at
    one dead socket, ``DOCKER_HOST`` at another; the refusal names the one used.
    No Docker needed: neither address answers.
    """
    context_socket = "unix:///nonexistent-context.sock"
    meta = (
        tmp_path
        / ".docker"
        / "contexts"
        / "meta"
        / hashlib.sha256(b"elsewhere").hexdigest()
        / "meta.json"
    )
    meta.parent.mkdir(parents=True)
    meta.write_text(
        json.dumps(
            {"Name": "elsewhere", "Endpoints": {"docker": {"Host": context_socket}}}
        )
    )
    (tmp_path / ".docker" / "config.json").write_text(
        json.dumps({"currentContext": "elsewhere"})
    )
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("DOCKER_CONTEXT", raising=False)
    if docker_host is None:
        monkeypatch.delenv("DOCKER_HOST", raising=False)
    else:
        monkeypatch.setenv("DOCKER_HOST", docker_host)
    with pytest.raises(UnsupportedError) as refused:
        await DockerSandboxFactory().create(run_id="docker-host-precedence", files={})
    assert refused.value.reason == "sandbox_engine_unreachable"
    used = context_socket if docker_host is None else docker_host
    assert used.removeprefix("unix://") in str(refused.value)


@pytest.mark.parametrize("anyio_backend", ["trio"])
async def test_trio_refuses_the_sandbox_through_the_sdk(tmp_path: Path) -> None:
    """Under trio, `ArtemisKit.run_workflow` refuses before touching Docker.

    The refusal is the `UnsupportedError` family (exit 3), kept in the record as
    ``unsupported`` / ``sandbox_requires_asyncio``; no Docker needed.
    """
    workflow, config = sandbox_quickstart(tmp_path)
    result = await ArtemisKit(config=config).run_workflow(workflow=workflow)
    record = result.record
    assert record.environment_kind == "sandbox"
    assert record.execution.status == "unsupported"
    assert record.execution.reason == "sandbox_requires_asyncio"
    assert record.exit_code == UnsupportedError.exit_code == 3
    assert record.cleanup.status == "not_needed"
    assert record.budget.used.model_requests == 0
    assert result.state is None
