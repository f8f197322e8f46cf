"""No Docker Engine reachable: every sandbox command exits 3 with the hint (issue 28).

docs/sandbox.md promises exit 3, reason ``sandbox_engine_unreachable`` and a hint
saying how to install or start the engine and the image, never a traceback: for a
run of the sandbox quickstart, its preflight, a suite of it and a resume. The engine
is unreachable in several ways: ``DOCKER_HOST`` naming a socket that does not exist,
a file that is not a socket, a socket file nobody answers on that this user may not
open, and (in a mount namespace, where the kernel allows one) no socket at all.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from artemiskit import ArtemisKit, UnsupportedError
from artemiskit.environments.sandbox._engine import DEFAULT_SANDBOX_IMAGE, install_hint

ROOT = Path(__file__).resolve().parents[2]
QUICKSTART = ROOT / "examples" / "sandbox-quickstart"
AKIT = [sys.executable, "-m", "artemiskit_cli"]
#: What the hint must say: start the engine, and build the image (never pulled).
HINT = install_hint(DEFAULT_SANDBOX_IMAGE)


def _quickstart(tmp_path: Path) -> Path:
    folder = tmp_path / "sandbox-quickstart"
    shutil.copytree(QUICKSTART, folder)
    return folder


def _engine_address(tmp_path: Path, how: str) -> str:
    """A ``DOCKER_HOST`` where no Docker Engine can be reached."""
    path = tmp_path / "docker.sock"
    if how == "regular-file":
        path.write_text("not a socket", "utf-8")
    elif how == "unreadable-socket":
        # A real socket file, closed (nobody answers), mode 000: refused for any
        # user, and not even openable for one without privileges.
        with socket.socket(socket.AF_UNIX) as server:
            server.bind(str(path))
        path.chmod(0)
    return f"unix://{path}"


def _akit(folder: Path, *arguments: str, docker_host: str) -> tuple[int, str]:
    env = {**os.environ, "DOCKER_HOST": docker_host, "HOME": str(folder.parent)}
    env.pop("DOCKER_CONTEXT", None)
    done = subprocess.run(
        [*AKIT, *arguments],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return done.returncode, done.stderr


COMMANDS = {
    "run": ("workflow", "run", "workflow.yaml", "--config", "artemis.config.yaml"),
    "preflight": (
        "workflow",
        "preflight",
        "workflow.yaml",
        "--config",
        "artemis.config.yaml",
    ),
    "suite": (
        "workflow",
        "run",
        ".",
        "--config",
        "artemis.config.yaml",
        "--output-dir",
        "../out",
    ),
}


@pytest.mark.parametrize("how", ["missing-socket", "regular-file", "unreadable-socket"])
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_sandbox_command_exits_3_with_the_hint(
    tmp_path: Path, how: str, command: str
) -> None:
    folder = _quickstart(tmp_path)
    code, errors = _akit(
        folder, *COMMANDS[command], docker_host=_engine_address(tmp_path, how)
    )
    assert code == 3, errors
    assert "Traceback" not in errors
    assert "start it" in errors.lower() or "start docker" in errors.lower(), errors
    assert HINT in errors
    if command == "suite":
        # Refused before any run: no output folder, no run.
        assert not (tmp_path / "out").exists()
    else:
        assert "sandbox_engine_unreachable" in errors


def _mount_namespaces() -> bool:
    done = subprocess.run(
        ["unshare", "-rm", "true"], capture_output=True, check=False, timeout=30
    )
    return done.returncode == 0


@pytest.mark.skipif(
    shutil.which("unshare") is None or not _mount_namespaces(),
    reason="needs unprivileged user and mount namespaces (unshare -rm) to hide "
    "the machine's Docker socket",
)
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_no_socket_at_all_exits_3_with_the_hint(tmp_path: Path, command: str) -> None:
    """No DOCKER_HOST, no context, no socket: aiodocker finds no address at all."""
    folder = _quickstart(tmp_path)
    script = (
        "mount -t tmpfs none /run && "
        "{ [ -L /var/run ] || mount -t tmpfs none /var/run; } && "
        'exec "$@"'
    )
    env = {**os.environ, "HOME": str(tmp_path)}
    for name in ("DOCKER_HOST", "DOCKER_CONTEXT"):
        env.pop(name, None)
    done = subprocess.run(
        ["unshare", "-rm", "sh", "-c", script, "sh", *AKIT, *COMMANDS[command]],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 3, done.stderr
    assert "Traceback" not in done.stderr
    assert HINT in done.stderr


@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_the_sdk_raises_the_typed_error_for_a_sandbox_suite(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _quickstart(tmp_path)
    monkeypatch.setenv("DOCKER_HOST", _engine_address(tmp_path, "missing-socket"))
    kit = ArtemisKit(config=folder / "artemis.config.yaml")
    with pytest.raises(UnsupportedError) as refused:
        await kit.run_suite(paths=[folder], output_dir=tmp_path / "out")
    assert refused.value.reason == "sandbox_engine_unreachable"
    assert refused.value.exit_code == 3
    assert HINT in refused.value.message
    assert not (tmp_path / "out").exists()


@pytest.mark.docker
def test_resume_without_an_engine_exits_3_with_the_hint(tmp_path: Path) -> None:
    """A run paused with the engine up, resumed once it is gone."""
    folder = _quickstart(tmp_path)
    checkpoints = tmp_path / "checkpoints"
    env = {**os.environ}
    env.pop("DOCKER_HOST", None)
    paused = subprocess.run(
        [
            *AKIT,
            *COMMANDS["run"],
            "--checkpoint-dir",
            str(checkpoints),
            "--pause-after-actions",
            "1",
        ],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert paused.returncode == 10, paused.stderr
    code, errors = _akit(
        folder,
        "workflow",
        "resume",
        "workflow.yaml",
        "--checkpoint-dir",
        str(checkpoints),
        "--config",
        "artemis.config.yaml",
        docker_host=_engine_address(tmp_path, "missing-socket"),
    )
    assert code == 3, errors
    assert "Traceback" not in errors
    assert "sandbox_engine_unreachable" in errors
    assert HINT in errors
