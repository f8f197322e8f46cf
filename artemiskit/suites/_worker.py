"""A worker process of the processes executor: runs each run it is sent, in order.

Imported where workers start from (the fork server, once: see
`artemiskit.suites._processes`), never by the suite's own process: importing
it loads (and warms) everything a run needs, so each worker forked from there
starts with the engine ready. A worker first takes the suite process's
environment, import path and working folder (as a spawned process inherits
them), then serves until it is told to stop or its driver is gone.

Runs reach a worker ahead of time: it holds the ones it was sent in order and
starts the next as soon as the last one ended. Before it starts a run, it tells
the driver so (``("started", key)``, written whole to its socket before the run
does anything): a run the driver never heard about never started. After the
run, it answers with the run's result (its record encoded here).
"""

from __future__ import annotations

import contextlib
import math
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
import artemiskit.suites._shipping  # noqa: F401  (runs unpickle into it)
from artemiskit._common._tool_schemas import schema_validators
from artemiskit._errors import ArtemisError
from artemiskit.providers import SharedTransports
from artemiskit.records._io import compile_record_validator
from artemiskit.suites._channel import Channel
from artemiskit.suites._remote import (
    run_shipped,
    scratch_folder,
    write_shipped_files,
)
from artemiskit.tools import BUILTIN_TOOLS

if TYPE_CHECKING:
    import socket
    from collections.abc import Mapping, Sequence
    from pathlib import Path

    from anyio.streams.memory import (
        MemoryObjectReceiveStream,
        MemoryObjectSendStream,
    )

    from artemiskit.engine._session import WorkflowSession
    from artemiskit.suites._factory import SessionFactory
    from artemiskit.suites._shipping import RemoteRun

__all__ = ["serve"]


async def _nothing() -> None:
    """An event loop's first run loads its backend: done here, once."""


def _warm() -> None:
    """Do once here what each worker's first run would otherwise do itself.

    The record validator and the built-in tools' schema validators are
    compiled, and the event loop's backend is loaded.
    """
    compile_record_validator()
    for tool in BUILTIN_TOOLS:
        schema_validators(tool)
    anyio.run(_nothing)


_warm()


def _take_over(environment: Mapping[str, str], path: Sequence[str], cwd: str) -> None:
    """Run in the suite process's environment, import path and working folder."""
    os.environ.clear()
    os.environ.update(environment)
    sys.path[:] = path
    with contextlib.suppress(OSError):
        os.chdir(cwd)


def serve(end: socket.socket) -> None:
    """A worker's life: run each run it is sent until told to stop.

    One event loop serves every run. SIGINT is ignored (a terminal's Ctrl-C
    reaches the whole process group; the suite's process decides when runs
    stop). The worker ends when told to stop, or when the suite's process
    closes its end or dies (the run in progress is then cancelled).
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    anyio.run(_serve, Channel(end))


class _Unit:
    """What a unit's runs share on this worker, as a suite's runs share it."""

    __slots__ = ("kit", "root", "shared")

    def __init__(
        self, root: Path, kit: SessionFactory, shared: SharedTransports
    ) -> None:
        self.root = root
        self.kit = kit
        self.shared = shared


class _State:
    """Whether runs are cancelled, and the sessions to cancel."""

    def __init__(self) -> None:
        self.cancelled = False
        #: The driver is gone: nobody is left to take a result.
        self.orphaned = False
        self.sessions: list[WorkflowSession] = []

    def keep(self, session: WorkflowSession) -> None:
        self.sessions.append(session)
        if self.cancelled:
            session.cancel()

    def cancel(self) -> None:
        self.cancelled = True
        for session in self.sessions:
            session.cancel()


async def _serve(channel: Channel) -> None:
    try:
        hello = await channel.receive()
    except (EOFError, OSError):
        return
    _take_over(*hello[1:])
    state = _State()
    # Runs wait here in the order they came (the driver keeps them few).
    held, queued = anyio.create_memory_object_stream["RemoteRun | None"](math.inf)
    async with (
        contextlib.AsyncExitStack() as stack,
        anyio.create_task_group() as group,
    ):
        group.start_soon(_read, channel, held, state)
        await _run_each(channel, queued, state, stack)
        group.cancel_scope.cancel()


async def _read(
    channel: Channel, held: MemoryObjectSendStream[RemoteRun | None], state: _State
) -> None:
    """Take the driver's messages as they come, runs included, while runs run.

    A run comes whole (``run``) the first time its unit reaches this worker;
    later runs of the unit come as what differs from that one (``again``). A
    run this process cannot rebuild (its data names something it cannot
    import) is held as ``None``: it fails in its turn.
    """
    units: dict[str, RemoteRun] = {}
    with held:
        while True:
            try:
                message = await channel.receive()
            except (EOFError, OSError):
                state.orphaned = True
                state.cancel()
                return
            except Exception:
                held.send_nowait(None)
                continue
            kind = message[0]
            if kind == "run":
                task: RemoteRun = message[1]
                # What its unit's later runs differ from (`_unit_part`): its
                # files are written once, its case and cassette are its own.
                units[task.files_key] = attrs.evolve(
                    task, files={}, case=None, run_options={}
                )
                held.send_nowait(task)
            elif kind == "again":
                _, unit, changes = message
                first = units.get(unit)
                held.send_nowait(
                    None if first is None else attrs.evolve(first, **changes)
                )
            elif kind == "cancel":
                state.cancel()
            elif kind == "stop":
                state.cancel()
                return


async def _run_each(
    channel: Channel,
    queued: MemoryObjectReceiveStream[RemoteRun | None],
    state: _State,
    stack: contextlib.AsyncExitStack,
) -> None:
    """Run each queued run in turn: say it starts, run it, answer its result.

    When the next run is already here, its start goes out with the last
    run's result, in one write.
    """
    # Per unit's files (workflow and target): a scratch folder written once,
    # one kit and one set of connection pools for its runs here.
    units: dict[str, _Unit] = {}
    try:
        task = await queued.receive()
        while not state.orphaned:
            if task is None:
                # Never started: it could not even be rebuilt here.
                reply: tuple[str, Any] = ("lost", "task_failed")
            else:
                channel.post(("started", task.key))
                # Whole in the socket before the run does anything.
                await channel.drain()
                reply = await _run(task, units, state, stack)
            try:
                channel.post(reply)
            except (pickle.PicklingError, TypeError, AttributeError):
                channel.post(("lost", "task_failed"))
            try:
                task = queued.receive_nowait()
            except anyio.WouldBlock:
                await channel.drain()
                task = await queued.receive()
    except anyio.EndOfStream:
        with contextlib.suppress(OSError):
            await channel.drain()
    except OSError:
        return


def _unit_of(
    task: RemoteRun, units: dict[str, _Unit], stack: contextlib.AsyncExitStack
) -> _Unit:
    unit = units.get(task.files_key)
    if unit is None:
        root = stack.enter_context(scratch_folder("processes"))
        write_shipped_files(task, root)
        shared = SharedTransports()
        stack.push_async_callback(shared.aclose)
        unit = _Unit(root=root, kit=task.make_kit(), shared=shared)
        units[task.files_key] = unit
    return unit


async def _run(
    task: RemoteRun,
    units: dict[str, _Unit],
    state: _State,
    stack: contextlib.AsyncExitStack,
) -> tuple[str, Any]:
    """Run ``task``; its result, or why it left none."""
    try:
        unit = _unit_of(task, units, stack)
        result = await run_shipped(
            task,
            root=unit.root,
            on_session=state.keep,
            kit=unit.kit,
            shared=unit.shared,
        )
    except (ArtemisError, OSError, RuntimeError):
        # The run left no record, as on the local executor.
        return ("lost", "run_error")
    except Exception:
        return ("lost", "task_failed")
    finally:
        state.sessions.clear()
    return ("result", result)
