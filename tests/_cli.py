"""The one way tests run ``akit``: in-process by default, a real process when needed.

`akit` runs the CLI inside the test process through click's test runner: the same
arguments, the same stdout, stderr and exit code as the console script, without the
~0.4 s a new Python process costs. Whatever the CLI changes in the process is put
back afterwards (signal handlers, the signal wake-up fd, logging, environment
variables, the working directory), and an exception escaping the CLI is printed to
``stderr`` with exit code 1, as Python would, so tests asserting "no traceback"
still see one.

`akit_process` runs ``python -m artemiskit_cli`` as a real child process. Use it only
where the test needs a process: signals, SIGKILL, cold imports, the installed
console script or wheel, a real stdin or tty, or a part that must not live in the
test process (a Ray driver). `AKIT` is the command line for tests that manage the
child themselves (`subprocess.Popen`).

Both return a `subprocess.CompletedProcess` (``returncode``, ``stdout``,
``stderr``), so a test reads the same either way.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import subprocess
import sys
import threading
import traceback
from typing import TYPE_CHECKING, Any

import sniffio
from click.testing import CliRunner

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping
    from pathlib import Path

__all__ = ["AKIT", "akit", "akit_process"]

#: The command line of the CLI as a child process (the console script's code).
AKIT: list[str] = [sys.executable, "-m", "artemiskit_cli"]

_TIMEOUT = 60


def akit(
    *args: str | Path,
    cwd: str | Path | None = None,
    env: Mapping[str, str] | None = None,
    input: str | bytes | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run ``akit ARGS`` in this process, as the console script would.

    Args:
        *args: The command line after ``akit``.
        cwd: The working directory during the call (restored afterwards).
        env: The CLI's whole environment during the call, as for `subprocess.run`
            (default: this process's); the process's own is restored afterwards.
        input: What the CLI reads from stdin (empty when ``None``; never a tty).

    Returns:
        The exit code, stdout and stderr, like `subprocess.run`.
    """
    from artemiskit_cli._main import cli

    if _in_event_loop():
        raise RuntimeError(
            "akit() runs the CLI's own event loop: call it from a sync test "
            "(or use akit_process from async code)"
        )
    arguments = [os.fspath(a) for a in args]
    with _restored_process_state(), _working_directory(cwd):
        result = CliRunner().invoke(
            cli,
            arguments,
            input=input,
            env=None if env is None else _changes_to(env),
            prog_name="akit",
            catch_exceptions=True,
        )
    stderr = result.stderr
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        # What Python prints for an uncaught exception, and its exit code.
        stderr += "".join(traceback.format_exception(result.exception))
    return subprocess.CompletedProcess(
        ["akit", *arguments], result.exit_code, result.stdout, stderr
    )


def akit_process(
    *args: str | Path,
    cwd: str | Path | None = None,
    env: Mapping[str, str] | None = None,
    input: str | None = None,
    timeout: float = _TIMEOUT,
    **popen: Any,
) -> subprocess.CompletedProcess[str]:
    """Run ``akit ARGS`` as a real child process (``python -m artemiskit_cli``).

    Args:
        *args: The command line after ``akit``.
        cwd: The child's working directory.
        env: The child's whole environment (default: this process's).
        input: Text written to the child's stdin (else stdin is inherited).
        timeout: Seconds before the child is killed and the test fails.
        **popen: Further `subprocess.run` arguments (``preexec_fn``, ``stdin``).

    Returns:
        The finished process with its text stdout and stderr.
    """
    return subprocess.run(
        [*AKIT, *(os.fspath(a) for a in args)],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=cwd,
        env=env,
        input=input,
        check=False,
        **popen,
    )


def _changes_to(env: Mapping[str, str]) -> dict[str, str | None]:
    """What to set and remove so that `os.environ` becomes ``env``."""
    return {**dict.fromkeys(os.environ.keys() - env.keys()), **env}


def _in_event_loop() -> bool:
    try:
        sniffio.current_async_library()
    except sniffio.AsyncLibraryNotFoundError:
        return False
    return True


@contextlib.contextmanager
def _working_directory(cwd: str | Path | None) -> Iterator[None]:
    if cwd is None:
        yield
        return
    with contextlib.chdir(cwd):
        yield


@contextlib.contextmanager
def _restored_process_state() -> Iterator[None]:
    """Put back what a CLI run may change in the process it runs in."""
    environ = dict(os.environ)
    in_main_thread = threading.current_thread() is threading.main_thread()
    handlers = {
        signum: signal.getsignal(signum)
        for signum in signal.valid_signals()
        if signum not in (signal.SIGKILL, signal.SIGSTOP)
    }
    wakeup_fd = signal.set_wakeup_fd(-1) if in_main_thread else -1
    if in_main_thread:
        signal.set_wakeup_fd(wakeup_fd)
    root = logging.getLogger()
    logging_state = (list(root.handlers), root.level, logging.root.manager.disable)
    try:
        yield
    finally:
        if in_main_thread:
            for signum, handler in handlers.items():
                if handler is not None and signal.getsignal(signum) is not handler:
                    signal.signal(signum, handler)
            signal.set_wakeup_fd(wakeup_fd)
        root.handlers[:] = logging_state[0]
        root.setLevel(logging_state[1])
        logging.disable(logging_state[2])
        if dict(os.environ) != environ:
            os.environ.clear()
            os.environ.update(environ)
