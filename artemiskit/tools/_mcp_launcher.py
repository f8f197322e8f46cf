"""Start a stdio MCP server so that it never outlives its owner (run by path).

``python -I _mcp_launcher.py COMMAND [ARGS...]`` is what ArtemisKit starts instead
of the server itself, as the leader of a new process group. The launcher asks the
kernel to send it SIGTERM when its parent (the owning process) dies, even by
SIGKILL (``PR_SET_PDEATHSIG``), then starts the server in the launcher's process
group, handing it the MCP pipes. On that signal, on SIGTERM/SIGINT/SIGHUP from
anyone, or when the server ends, the whole group is killed. Nothing but the
standard library is imported, so it starts fast; nothing is printed (the server's
stderr is the launcher's, which the owner discards).
"""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys

_PR_SET_PDEATHSIG = 1


def _kill_group() -> None:
    try:
        os.killpg(os.getpgrp(), signal.SIGKILL)
    except OSError:
        os._exit(1)


def _on_signal(signum: int, frame: object) -> None:
    _kill_group()


def main(argv: list[str]) -> int:
    """Run the server of ``argv``; return its exit status."""
    if not argv:
        return 2
    owner = os.getppid()
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, _on_signal)
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    if os.getppid() != owner:  # the owner died before the request took effect
        return 1
    try:
        server = subprocess.Popen(argv, stdin=0, stdout=1, stderr=2)
    except OSError:
        return 127
    # the pipes are the server's now: an exited server closes them
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)
    status = server.wait()
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    _kill_group()  # anything the server left behind in its group
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
