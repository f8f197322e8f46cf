"""The processes executor: a pool of worker processes on this machine.

Each run is shipped to an idle worker as the same plain data a Ray task carries
(`RemoteRun`: the unit's workflow, case and target, the files the workflow names,
a way to build the kit without secrets), over the worker's pipe; the result comes
back over the same pipe with its record encoded by the worker, and the driver
writes every file. A worker serves the suite's runs one after another until the
suite ends: its start is paid once per suite, not per run.

Workers are forked from a fork server (``forkserver``: one clean process per
suite process, never a fork of the driver, which holds threads) that imported
the engine once, so a worker is ready in milliseconds; a worker first takes the
driver's environment, import path and working folder, as a spawned process
inherits them (where there is no fork server, workers are spawned). Workers bind
nothing to the network and ignore SIGINT: the driver decides when runs stop.

A run is never started twice: a start ledger refuses a second start, and a run
whose worker dies mid-run (killed, out of memory) is reported lost
(``worker_died``), never replayed; a new worker takes the next run. Cancelling
the suite asks each worker to cancel its run (which keeps its cancelled record);
a worker still running ``cancel_grace_s`` later is killed and its run is lost
(``task_cancelled``). A worker whose driver died cancels its run and exits.
"""

from __future__ import annotations

import functools
import multiprocessing
import os
import pickle
import sys
from multiprocessing.reduction import ForkingPickler
from typing import TYPE_CHECKING, Any

import anyio
import anyio.to_thread
import attrs

from artemiskit._errors import WorkflowError
from artemiskit.suites._executor import RunLost, StartLedger

if TYPE_CHECKING:
    from collections.abc import Sequence
    from multiprocessing.connection import Connection
    from multiprocessing.context import ForkServerContext, SpawnContext
    from multiprocessing.process import BaseProcess

    from artemiskit.suites._executor import Placement, PlannedRun, ShippedResult
    from artemiskit.suites._shipping import RemoteRun

__all__ = ["ProcessExecutor"]

#: How long a cancelled run may take to stop by itself before its worker is killed.
CANCEL_GRACE_S = 2.0
#: How long a worker asked to stop may take to exit before it is killed.
_STOP_WAIT_S = 5.0
#: What the fork server imports once for every worker: the facade (which builds
#: each run's kit), the worker side, and the main module as a spawned worker
#: would import it (so what it defines can be sent).
_PRELOAD = ["artemiskit._kit", "artemiskit.suites._worker", "__main__"]


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


def _serve(connection: Connection) -> None:
    """A worker process's entry point: the worker side is imported there only."""
    from artemiskit.suites._worker import serve

    serve(connection)


@functools.cache
def _context() -> ForkServerContext | SpawnContext:
    """Where workers start from: a fork server that imported the engine once.

    The server (one per suite process, started on first use) preloads the
    worker side (`artemiskit.suites._worker`, everything a run needs) and the
    main module, as a spawned worker would import it; each worker is a fork of
    it, ready in milliseconds. Where there is no fork server, workers are
    spawned.
    """
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(_PRELOAD)
        return context
    return multiprocessing.get_context("spawn")


def _start_worker() -> _Worker:
    context = _context()
    here, there = context.Pipe(duplex=True)
    process = context.Process(
        target=_serve, args=(there,), name="akit-worker", daemon=True
    )
    process.start()
    # Only the worker holds its end now: its death reads as end-of-file here.
    there.close()
    worker = _Worker(process, here)
    # As a spawned process would: this process's environment (the workers
    # read provider keys from it), import path and working folder.
    worker.send(("hello", dict(os.environ), list(sys.path), os.getcwd()))
    return worker


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

    async def run(self, planned: PlannedRun) -> ShippedResult:
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
        result: ShippedResult = value
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
