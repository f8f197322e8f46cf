"""Interop servers that live in their own virtualenv (LiteLLM, Phoenix).

``scripts/server-venv.sh`` installs each one, pinned, into a virtualenv of its own
(``scripts/litellm-env.sh``, ``scripts/phoenix-env.sh``). A test module finds the
executable with `venv_executable`, asks `require` whether it may run (skip without
the server, fail under ``CI=true``), and starts a `ServerProcess` on 127.0.0.1.
"""

from __future__ import annotations

import os
import socket
import subprocess
import threading
from pathlib import Path

import pytest

__all__ = ["ServerProcess", "free_port", "require", "venv_executable"]


def venv_executable(variable: str, name: str, executable: str) -> Path:
    """``$variable/bin/executable``, the virtualenv defaulting to the user's cache."""
    default = Path.home() / ".cache" / "artemiskit" / name
    return Path(os.environ.get(variable, default)) / "bin" / executable


def require(executable: Path, *, what: str, script: str) -> None:
    """Skip the test without ``executable``; fail instead with ``CI=true``."""
    if executable.exists():
        return
    problem = f"no {what} at {executable}; run `bash {script}`"
    if os.environ.get("CI") == "true":
        pytest.fail(f"the {what} tests must run in CI: {problem}", pytrace=False)
    pytest.skip(problem)


def free_port() -> int:
    """A port on 127.0.0.1 that was free a moment ago."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class ServerProcess:
    """A started server whose output is drained, so it never blocks on a pipe.

    ``ready`` is set when a line holds one of ``ready_marks``, or when the
    process exits (the waiter then looks at the exit status).
    """

    def __init__(
        self,
        argv: list[str],
        *,
        cwd: Path,
        env: dict[str, str],
        ready_marks: tuple[str, ...] = (),
    ) -> None:
        self.process = subprocess.Popen(
            argv,
            cwd=cwd,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.ready = threading.Event()
        self.lines: list[str] = []
        self._ready_marks = ready_marks
        self._drainer = threading.Thread(target=self._drain, daemon=True)
        self._drainer.start()

    def _drain(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line)
            if any(mark in line for mark in self._ready_marks):
                self.ready.set()
        self.ready.set()

    def last_output(self) -> str:
        """The server's last 30 lines, for a failure message."""
        return "".join(self.lines[-30:])

    def stop(self) -> None:
        """Terminate the server (kill it after 30 s) and close its pipe."""
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self._drainer.join()
        assert self.process.stdout is not None
        self.process.stdout.close()
