"""The processes executor: a pool of worker processes on this machine.

Each run is shipped to an idle worker as the same plain data a Ray task carries
(`RemoteRun`: the validated workflow, the files it names, a way to build the kit
without secrets), over the worker's pipe; the result comes back over the same
pipe, and the driver writes every file. Workers are started with the ``spawn``
method (a fresh interpreter: no fork of a process holding threads), bind nothing
to the network, and ignore SIGINT: the driver decides when runs stop.

A run is never started twice: a start ledger refuses a second start, and a run
whose worker dies mid-run (killed, out of memory) is reported lost
(``worker_died``), never replayed; a new worker takes the next run. Cancelling
the suite asks each worker to cancel its run (which keeps its cancelled record);
a worker still running ``cancel_grace_s`` later is killed and its run is lost
(``task_cancelled``). A worker whose driver died cancels its run and exits.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import pickle
import signal
from multiprocessing.reduction import ForkingPickler
from typing import TYPE_CHECKING, Any

import anyio
import anyio.to_thread
import attrs

from artemiskit._errors import ArtemisError, WorkflowError
from artemiskit.suites._executor import RunLost, StartLedger
from artemiskit.suites._remote import (
    run_shipped,
    scratch_folder,
    write_shipped_files,
)

if TYPE_CHECKING:
    from collections.abc import Sequence
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess
    from pathlib import Path

    from artemiskit.engine._result import WorkflowResult
    from artemiskit.engine._session import WorkflowSession
    from artemiskit.providers._registry import ScriptVariants
    from artemiskit.suites._executor import Placement, PlannedRun
    from artemiskit.suites._shipping import RemoteRun

__all__ = ["ProcessExecutor"]

#: How long a cancelled run may take to stop by itself before its worker is killed.
CANCEL_GRACE_S = 2.0
#: How long a worker asked to stop may take to exit before it is killed.
_STOP_WAIT_S = 5.0


class _Worker:
    """One worker process and the driver's end of its pipe."""

    def __init__(self, process: BaseProcess, connection: Connection) -> None:
        self.process = process
        self.connection = connection
        #: The workflows whose files and script this worker already holds.
        self.holds: set[str] = set()

    def send(self, message: tuple[Any, ...]) -> bool:
        """Send ``message``; whether the worker could still be reached."""
        try:
            self.connection.send(message)
        except (OSError, ValueError):
            return False
        return True

    async def end(self, *, kill: bool) -> None:
        """Ask the worker to stop (or kill it), then reap it."""
        if kill or not self.send(("stop",)):
            self.process.kill()
        await anyio.to_thread.run_sync(self.process.join, _STOP_WAIT_S)
        if self.process.is_alive():
            self.process.kill()
            await anyio.to_thread.run_sync(self.process.join)
        self.connection.close()
        self.process.close()


def _start_worker() -> _Worker:
    context = multiprocessing.get_context("spawn")
    here, there = context.Pipe(duplex=True)
    process = context.Process(
        target=serve, args=(there,), name="akit-worker", daemon=True
    )
    process.start()
    # Only the worker holds its end now: its death reads as end-of-file here.
    there.close()
    return _Worker(process, here)


class ProcessExecutor:
    """Runs a suite's runs in a pool of worker processes on this machine.

    Args:
        workers: Worker processes at most (by default ``os.cpu_count()``); the
            runs in flight are the suite's ``concurrency`` bounded by them.
        cancel_grace_s: After a cancellation, how long a run may take to stop
            by itself before its worker is killed (the run is then lost).

    Raises:
        ValueError: ``workers`` is below 1 or ``cancel_grace_s`` not positive.
    """

    def __init__(
        self, workers: int | None = None, *, cancel_grace_s: float = CANCEL_GRACE_S
    ) -> None:
        if workers is not None and workers < 1:
            raise ValueError("workers must be at least 1")
        if not cancel_grace_s > 0:
            raise ValueError("cancel_grace_s must be positive")
        self.workers = workers or os.cpu_count() or 1
        self.cancel_grace_s = cancel_grace_s
        self._idle: list[_Worker] = []
        self._busy: set[_Worker] = set()
        self._ledger = StartLedger()
        self._cancelled = False
        self._cancel_requested: anyio.Event | None = None

    def __repr__(self) -> str:
        return f"ProcessExecutor(workers={self.workers})"

    @property
    def name(self) -> str:
        """``processes``."""
        return "processes"

    @property
    def placement(self) -> Placement:
        """``this_machine``: runs are shipped to other processes of this machine."""
        return "this_machine"

    def slots(self, concurrency: int) -> int:
        """The suite's concurrency, bounded by the workers."""
        return min(concurrency, self.workers)

    async def start(self, runs: Sequence[PlannedRun]) -> None:
        """Check that every workflow's runs can travel to a worker process.

        Raises:
            WorkflowError: A run holds something that cannot be sent to another
                process (a tool, scorer or target defined inside a function,
                an object holding a lock or a connection): ``not_shippable``,
                before any run starts.
        """
        self._cancelled = False
        self._cancel_requested = anyio.Event()
        seen: set[str] = set()
        for planned in runs:
            # one run per unit's files: the others differ only in plain data
            if planned.files_key in seen:
                continue
            seen.add(planned.files_key)
            task = planned.shipped()
            try:
                ForkingPickler.dumps(task)
            except (pickle.PicklingError, TypeError, AttributeError) as exc:
                raise WorkflowError(
                    f"workflow {task.workflow.name!r} cannot be sent to worker "
                    f"processes ({type(exc).__name__}): its tools, scorers and "
                    "targets must be importable by name (defined at the top of a "
                    "module, not inside a function) and hold no open resource; "
                    "run it with the local executor instead",
                    reason="not_shippable",
                ) from None

    async def run(self, planned: PlannedRun) -> WorkflowResult:
        """Run ``planned`` on an idle worker and return its result.

        Raises:
            SessionStateError: The run was already started (``already_started``).
            RunLost: Its worker died (``worker_died``), was killed after a
                cancellation (``task_cancelled``), or the run left no record
                (``run_error``, ``task_failed``).
        """
        if self._cancel_requested is None:
            await self.start(())
        task = planned.shipped()
        self._ledger.start(task.key)
        worker = await self._take()
        self._busy.add(worker)
        try:
            reply = await self._exchange(worker, task)
        except BaseException:
            # The caller stopped waiting: the run is abandoned with its worker.
            self._busy.discard(worker)
            with anyio.CancelScope(shield=True):
                await worker.end(kill=True)
            raise
        self._busy.discard(worker)
        if reply is None:
            with anyio.CancelScope(shield=True):
                await worker.end(kill=True)
            raise RunLost("task_cancelled" if self._cancelled else "worker_died")
        self._idle.append(worker)
        kind, value = reply
        if kind == "lost":
            raise RunLost(value)
        result: WorkflowResult = value
        return result

    async def _take(self) -> _Worker:
        """An idle live worker, or a new one."""
        while self._idle:
            worker = self._idle.pop()
            if worker.process.is_alive():
                return worker
            await worker.end(kill=True)
        return await anyio.to_thread.run_sync(_start_worker)

    async def _exchange(
        self, worker: _Worker, task: RemoteRun
    ) -> tuple[str, Any] | None:
        """Send ``task`` and wait for its reply; ``None`` when the worker died.

        A workflow's files and script travel to a worker once: its later runs
        there are sent without them.
        """
        unit = task.files_key
        if unit in worker.holds:
            task = attrs.evolve(task, files={}, script=None)
        if not worker.send(("run", task)):
            return None
        worker.holds.add(unit)
        async with anyio.create_task_group() as group:
            group.start_soon(self._stop_after_grace, worker)
            try:
                await anyio.wait_readable(worker.connection)
            finally:
                group.cancel_scope.cancel()
        try:
            # A result can be larger than the pipe holds: it is read on a
            # thread, so the loop never waits for a worker's next bytes.
            reply: tuple[str, Any] = await anyio.to_thread.run_sync(
                worker.connection.recv, abandon_on_cancel=True
            )
        except (EOFError, OSError):
            return None
        return reply

    async def _stop_after_grace(self, worker: _Worker) -> None:
        """On cancellation, ask the worker to cancel its run; kill it after grace."""
        assert self._cancel_requested is not None
        await self._cancel_requested.wait()
        worker.send(("cancel",))
        await anyio.sleep(self.cancel_grace_s)
        worker.process.kill()

    def cancel(self) -> None:
        """Cancel every run in flight (each keeps its cancelled record).

        A worker whose run is still going ``cancel_grace_s`` later is killed,
        and its run is lost (``task_cancelled``).
        """
        self._cancelled = True
        if self._cancel_requested is not None:
            self._cancel_requested.set()

    async def close(self) -> None:
        """Stop every worker and reap it: no process outlives the suite."""
        workers = [*self._idle, *self._busy]
        self._idle.clear()
        self._busy.clear()
        with anyio.CancelScope(shield=True):
            for worker in workers:
                await worker.end(kill=False)


def serve(connection: Connection) -> None:
    """A worker's life: run each run it is sent until told to stop.

    SIGINT is ignored (a terminal's Ctrl-C reaches the whole process group;
    the driver decides when runs stop). The worker ends when the driver closes
    the pipe or dies.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.ExitStack() as folders:
        # One scratch folder per workflow of the suite, written once, and its
        # script: its runs read the same files and replay the same script.
        roots: dict[str, tuple[Path, ScriptVariants | None]] = {}
        while True:
            try:
                message = connection.recv()
            except (EOFError, OSError):
                return
            if message[0] == "stop":
                return
            if message[0] != "run":
                # A cancellation that came after its run had finished.
                continue
            task: RemoteRun = message[1]
            unit = task.files_key
            if unit not in roots:
                root = folders.enter_context(scratch_folder("processes"))
                write_shipped_files(task, root)
                roots[unit] = (root, task.script)
            root, script = roots[unit]
            task = attrs.evolve(task, script=script)
            reply = anyio.run(_serve_run, connection, task, root)
            if reply is None:
                return
            try:
                connection.send(reply)
            except (pickle.PicklingError, TypeError, AttributeError):
                connection.send(("lost", "task_failed"))
            except OSError:
                return


async def _serve_run(
    connection: Connection, task: RemoteRun, root: Path
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
            result = await run_shipped(task, root=root, on_session=keep)
            reply = ("result", result)
        except (ArtemisError, OSError, RuntimeError):
            # The run left no record, as on the local executor.
            reply = ("lost", "run_error")
        except Exception:
            reply = ("lost", "task_failed")
        group.cancel_scope.cancel()
    return None if state["orphaned"] else reply
