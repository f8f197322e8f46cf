"""A worker process of the processes executor: runs each run it is sent.

Imported where workers start from (the fork server, once: see
`artemiskit.suites._processes`), never by the suite's own process: importing
it loads everything a run needs, so each worker forked from there starts with
the engine ready. A worker first takes the suite process's environment, import
path and working folder (as a spawned process inherits them), then runs each
shipped run it is sent and answers with its result (the record encoded here),
until it is told to stop or its pipe closes.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import sys
from typing import TYPE_CHECKING, Any

import anyio
import attrs

# Everything a run needs, loaded once where workers fork from (the facade
# that builds each run's kit is preloaded beside this module).
import artemiskit.engine._session
import artemiskit.environments._simulated
import artemiskit.tools  # noqa: F401
from artemiskit._errors import ArtemisError
from artemiskit.providers import SharedTransports
from artemiskit.records._io import compile_record_validator
from artemiskit.suites._remote import (
    run_shipped,
    scratch_folder,
    write_shipped_files,
)

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from multiprocessing.connection import Connection
    from pathlib import Path

    from artemiskit.engine._session import WorkflowSession
    from artemiskit.providers._registry import ScriptVariants
    from artemiskit.suites._factory import SessionFactory
    from artemiskit.suites._shipping import RemoteRun

__all__ = ["serve"]

# Compiled here, once, rather than by each worker's first record.
compile_record_validator()


def _take_over(environment: Mapping[str, str], path: Sequence[str], cwd: str) -> None:
    """Run in the suite process's environment, import path and working folder."""
    os.environ.clear()
    os.environ.update(environment)
    sys.path[:] = path
    with contextlib.suppress(OSError):
        os.chdir(cwd)


def serve(connection: Connection) -> None:
    """A worker's life: run each run it is sent until told to stop.

    One event loop serves every run. SIGINT is ignored (a terminal's Ctrl-C
    reaches the whole process group; the suite's process decides when runs
    stop). The worker ends when the suite's process closes the pipe or dies.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    anyio.run(_serve, connection)


class _Unit:
    """What a unit's runs share on this worker, as a suite's runs share it."""

    __slots__ = ("kit", "root", "script", "shared")

    def __init__(
        self,
        root: Path,
        script: ScriptVariants | None,
        kit: SessionFactory,
        shared: SharedTransports,
    ) -> None:
        self.root = root
        self.script = script
        self.kit = kit
        self.shared = shared


async def _serve(connection: Connection) -> None:
    async with contextlib.AsyncExitStack() as stack:
        # Per unit's files (workflow and target): a scratch folder written
        # once, its script, one kit and one set of connection pools for its
        # runs here.
        units: dict[str, _Unit] = {}
        while True:
            await anyio.wait_readable(connection)
            try:
                message = connection.recv()
            except (EOFError, OSError):
                return
            if message[0] == "hello":
                _take_over(*message[1:])
                continue
            if message[0] == "stop":
                return
            if message[0] != "run":
                # A cancellation that came after its run had finished.
                continue
            task: RemoteRun = message[1]
            unit = units.get(task.files_key)
            if unit is None:
                root = stack.enter_context(scratch_folder("processes"))
                write_shipped_files(task, root)
                shared = SharedTransports()
                stack.push_async_callback(shared.aclose)
                unit = _Unit(
                    root=root, script=task.script, kit=task.make_kit(), shared=shared
                )
                units[task.files_key] = unit
            reply = await _serve_run(
                connection, attrs.evolve(task, script=unit.script), unit
            )
            if reply is None:
                return
            try:
                connection.send(reply)
            except (pickle.PicklingError, TypeError, AttributeError):
                connection.send(("lost", "task_failed"))
            except OSError:
                return


async def _serve_run(
    connection: Connection, task: RemoteRun, unit: _Unit
) -> tuple[str, Any] | None:
    """Run ``task`` while watching the pipe; ``None`` when the driver is gone."""
    sessions: list[WorkflowSession] = []
    state = {"cancelled": False, "orphaned": False}

    def keep(session: WorkflowSession) -> None:
        sessions.append(session)
        if state["cancelled"]:
            session.cancel()

    async def watch() -> None:
        while True:
            await anyio.wait_readable(connection)
            try:
                message = connection.recv()
            except (EOFError, OSError):
                message = ("stop",)
                state["orphaned"] = True
            if message[0] in ("cancel", "stop"):
                state["cancelled"] = True
                for session in sessions:
                    session.cancel()
            if state["orphaned"]:
                return

    reply: tuple[str, Any]
    async with anyio.create_task_group() as group:
        group.start_soon(watch)
        try:
            result = await run_shipped(
                task,
                root=unit.root,
                on_session=keep,
                kit=unit.kit,
                shared=unit.shared,
            )
            reply = ("result", result)
        except (ArtemisError, OSError, RuntimeError):
            # The run left no record, as on the local executor.
            reply = ("lost", "run_error")
        except Exception:
            reply = ("lost", "task_failed")
        group.cancel_scope.cancel()
    return None if state["orphaned"] else reply
