"""The processes executor: a pool of worker processes on this machine.

Each run is shipped to a worker as the same plain data a Ray task carries
(`RemoteRun`: the unit's workflow, case and target, the files the workflow names,
a way to build the kit without secrets), over a socket pair; the result comes
back the same way with its record encoded by the worker, and the driver writes
every file. A worker serves the suite's runs one after another until the suite
ends: its start is paid once per suite, not per run. A unit's files, script and
configuration travel to a worker once; its later runs there carry only what
differs (their key, repetition, case and cassette options).

Each worker holds the next run ahead of the one it runs (`_DEPTH`), so it
starts it the moment the last one ends, without waiting for the driver to take
the result and hand it another. Before a worker starts a run it says so
(``started``, whole in its socket before the run does anything).

A run is never started twice: a start ledger refuses a second start, and a run
whose worker dies after saying it started it (killed, out of memory) is
reported lost (``worker_died``), never replayed. A run the dead worker held
without having started it never started: it is sent to another worker, when
the dead worker had started runs before (else it is lost too, so that a worker
that cannot start never makes a run wait forever). A new worker takes the
dead one's place. Cancelling the suite asks each worker to cancel its run (which
keeps its cancelled record; a run it held starts cancelled); a worker still
running ``cancel_grace_s`` later is killed and its run is lost
(``task_cancelled``). A worker whose driver died cancels its run and exits.

Workers are forked from a fork server (``forkserver``: one clean process per
suite process, never a fork of the driver, which holds threads) that imported
the engine once, so a worker is ready in milliseconds; a worker first takes the
driver's environment, import path and working folder, as a spawned process
inherits them (where there is no fork server, workers are spawned). Workers bind
nothing to the network and ignore SIGINT: the driver decides when runs stop.
"""

from __future__ import annotations

import collections
import contextlib
import functools
import multiprocessing
import os
import pickle
import socket
import sys
from typing import TYPE_CHECKING, Any

import anyio
import anyio.to_thread
import attrs

from artemiskit._errors import WorkflowError
from artemiskit.suites._channel import Channel
from artemiskit.suites._executor import RunLost, StartLedger
from artemiskit.suites._shipping import RemoteRun

if TYPE_CHECKING:
    from collections.abc import Sequence
    from multiprocessing.context import ForkServerContext, SpawnContext
    from multiprocessing.process import BaseProcess

    from artemiskit.suites._executor import Placement, PlannedRun, ShippedResult

__all__ = ["ProcessExecutor"]

#: How long a cancelled run may take to stop by itself before its worker is killed.
CANCEL_GRACE_S = 2.0
#: How long a worker asked to stop may take to exit before it is killed.
_STOP_WAIT_S = 5.0
#: What the fork server imports once for every worker: the facade (which builds
#: each run's kit), the worker side, this module (a worker's entry point), and
#: the main module where Python hands it over (3.11 does not: each worker then
#: imports it after its fork, as a spawned worker would, so what it defines can
#: be sent).
_PRELOAD = [
    "artemiskit._kit",
    "artemiskit.suites._worker",
    "artemiskit.suites._processes",
    "__main__",
]
#: Runs a worker holds at most: the one it runs and the next one.
_DEPTH = 2
#: What differs between runs of one unit (the rest travels once per worker).
_PER_RUN = ("key", "repetition", "case", "workflow", "run_options")
#: What runs of one unit share (found by ``files_key``): compared by identity.
_PER_UNIT = tuple(
    f.name for f in attrs.fields(RemoteRun) if f.name not in (*_PER_RUN, "files_key")
)


class _Sent:
    """A run sent to a worker: whether the worker started it, and its reply."""

    __slots__ = ("reply", "settled", "started")

    def __init__(self) -> None:
        self.started = False
        self.settled = False
        #: ``("result", ShippedResult)`` or ``("lost", reason)``; ``None``
        #: when its worker died first.
        self.reply: tuple[str, Any] | None = None


def _changes(first: RemoteRun, task: RemoteRun) -> dict[str, Any] | None:
    """What ``task`` changes of its unit's ``first`` run, if only its own fields."""
    for name in _PER_UNIT:
        if getattr(task, name) is not getattr(first, name):
            return None
    return {
        name: getattr(task, name)
        for name in _PER_RUN
        if getattr(task, name) is not getattr(first, name)
    }


def _unit_part(task: RemoteRun) -> RemoteRun:
    """What the unit's later runs differ from: ``task`` without its own parts.

    Its case and cassette are the run's own, not kept for the suite's length.
    """
    return attrs.evolve(task, case=None, run_options={})


class _Worker:
    """One worker process, the driver's end of its socket, and its runs."""

    def __init__(self, process: BaseProcess, channel: Channel) -> None:
        self.process = process
        self.channel = channel
        #: The first run of each unit sent here: later ones send what differs.
        self.units: dict[str, RemoteRun] = {}
        #: Its runs not yet settled, in the order they were sent.
        self.sent: collections.deque[_Sent] = collections.deque()
        #: Whether it ever said it started a run.
        self.worked = False
        #: One waiter at a time reads its messages (for every waiter).
        self.reading = anyio.Lock()
        #: The reading waiter's scope, cancelled to wake it up on cancellation.
        self.waiting: anyio.CancelScope | None = None
        #: After a cancellation: when its run must have stopped.
        self.deadline: float | None = None
        self.killed = False
        self.ended = False

    def post(self, task: RemoteRun) -> None:
        """Queue the message that sends ``task`` here.

        Raises:
            pickle.PicklingError: The run cannot be pickled (nothing was queued).
        """
        first = self.units.get(task.files_key)
        changes = None if first is None else _changes(first, task)
        if changes is not None:
            self.channel.post(("again", task.files_key, changes))
            return
        self.channel.post(("run", task))
        self.units[task.files_key] = _unit_part(task)

    def note(self, message: tuple[Any, ...]) -> None:
        """Take one message of the worker: a start, or the oldest run's reply."""
        if message[0] == "started":
            self.worked = True
            next(sent for sent in self.sent if not sent.started).started = True
            return
        sent = self.sent.popleft()
        sent.reply = message
        sent.settled = True

    def cancel(self, deadline: float) -> None:
        """Ask the worker to cancel its runs; its reader wakes to keep the deadline."""
        self.deadline = deadline
        self.channel.post(("cancel",))
        with contextlib.suppress(OSError):
            self.channel.flush()
        if self.waiting is not None:
            self.waiting.cancel()

    def kill(self) -> None:
        """Kill the process (what it sent stays readable, then end of file)."""
        if not self.killed and not self.ended:
            self.killed = True
            self.process.kill()

    async def end(self, *, kill: bool) -> None:
        """Ask the worker to stop (or kill it), then reap it."""
        if self.ended:
            return
        if not kill:
            self.channel.post(("stop",))
            try:
                self.channel.flush()
            except OSError:
                kill = True
        if kill:
            self.kill()
        self.ended = True
        await anyio.to_thread.run_sync(self.process.join, _STOP_WAIT_S)
        if self.process.is_alive():
            self.process.kill()
            await anyio.to_thread.run_sync(self.process.join)
        self.process.close()


def _serve(end: socket.socket) -> None:
    """A worker process's entry point: the worker side is imported there only."""
    from artemiskit.suites._worker import serve

    serve(end)


@functools.cache
def _context() -> ForkServerContext | SpawnContext:
    """Where workers start from: a fork server that imported the engine once.

    The server (one per suite process, started on first use) preloads the
    worker side (`artemiskit.suites._worker`, everything a run needs, warmed);
    each worker is a fork of it, ready in milliseconds, and imports the main
    module as a spawned worker would (`_PRELOAD`). Where there is no fork
    server, workers are spawned.
    """
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(_PRELOAD)
        return context
    return multiprocessing.get_context("spawn")


def _fork() -> tuple[BaseProcess, socket.socket]:
    """Start a worker process; the driver's end of its socket pair."""
    here, there = socket.socketpair()
    process = _context().Process(
        target=_serve, args=(there,), name="akit-worker", daemon=True
    )
    try:
        process.start()
    finally:
        # Only the worker holds its end now: its death reads as end of file here.
        there.close()
    return process, here


class ProcessExecutor:
    """Runs a suite's runs in a pool of worker processes on this machine.

    Args:
        workers: Worker processes at most (by default ``os.cpu_count()``); the
            suite's ``concurrency`` bounds them further.
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
        #: How many workers the pool keeps (`slots`).
        self._wanted = self.workers
        #: The live workers runs may be sent to.
        self._pool: list[_Worker] = []
        #: Every worker started, until `close` reaps it.
        self._started: list[_Worker] = []
        self._growing = anyio.Lock()
        self._ledger = StartLedger()
        self._cancelled = False

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
        """Two runs per worker: the one it runs and the next, held ahead.

        The pool has one worker per run of the suite's ``concurrency``, at most
        ``workers``.
        """
        self._wanted = min(concurrency, self.workers)
        return self._wanted * _DEPTH

    async def start(self, runs: Sequence[PlannedRun]) -> None:
        """Check that every workflow's runs can travel to a worker process.

        Raises:
            WorkflowError: A run holds something that cannot be sent to another
                process (a tool, scorer or target defined inside a function,
                an object holding a lock or a connection): ``not_shippable``,
                before any run starts.
        """
        self._cancelled = False
        seen: set[str] = set()
        for planned in runs:
            # one run per unit's files: the others differ only in plain data
            if planned.files_key in seen:
                continue
            seen.add(planned.files_key)
            task = planned.shipped()
            try:
                pickle.dumps(task, protocol=pickle.HIGHEST_PROTOCOL)
            except (pickle.PicklingError, TypeError, AttributeError):
                raise WorkflowError(
                    f"workflow {task.workflow.name!r} cannot be sent to worker "
                    "processes: its tools, scorers and targets must be importable "
                    "by name (defined at the top of a module, not inside a "
                    "function) and hold no open resource; run it with the local "
                    "executor instead",
                    reason="not_shippable",
                ) from None

    async def run(self, planned: PlannedRun) -> ShippedResult:
        """Run ``planned`` on a worker and return its result.

        Raises:
            SessionStateError: The run was already started (``already_started``).
            RunLost: Its worker died after starting it (``worker_died``), was
                killed after a cancellation (``task_cancelled``), or the run
                left no record (``run_error``, ``task_failed``).
        """
        task = planned.shipped()
        self._ledger.start(task.key)
        while True:
            worker = await self._worker()
            sent = _Sent()
            await self._send(worker, sent, task)
            if sent.reply is not None:
                break
            if sent.started or not worker.worked:
                raise RunLost("task_cancelled" if self._cancelled else "worker_died")
            # Its worker died mid-run before starting this one: it never
            # started, so it starts on another worker.
        kind, value = sent.reply
        if kind == "lost":
            raise RunLost(value)
        result: ShippedResult = value
        return result

    async def _worker(self) -> _Worker:
        """The worker holding the fewest runs; a new one while the pool is short."""
        while True:
            worker = min(self._pool, key=lambda w: len(w.sent), default=None)
            if worker is not None and (
                not worker.sent or len(self._pool) >= self._wanted
            ):
                return worker
            async with self._growing:
                missing = self._wanted - len(self._pool)
                async with anyio.create_task_group() as group:
                    for _ in range(missing):
                        group.start_soon(self._grow)

    async def _grow(self) -> None:
        process, end = await anyio.to_thread.run_sync(_fork)
        worker = _Worker(process, Channel(end))
        self._started.append(worker)
        # As a spawned process would: this process's environment (the workers
        # read provider keys from it), import path and working folder.
        # (Written with the first run: a death reads as end of file then.)
        worker.channel.post(("hello", dict(os.environ), list(sys.path), os.getcwd()))
        if self._cancelled:
            worker.cancel(anyio.current_time() + self.cancel_grace_s)
        self._pool.append(worker)

    async def _send(self, worker: _Worker, sent: _Sent, task: RemoteRun) -> None:
        """Send ``task`` to ``worker`` and wait until it is settled.

        Raises:
            RunLost: The run cannot be pickled (``task_failed``; it never left).
        """
        try:
            worker.post(task)
        except (pickle.PicklingError, TypeError, AttributeError):
            raise RunLost("task_failed") from None
        # In the order the worker gets them (posting never waits).
        worker.sent.append(sent)
        try:
            try:
                await worker.channel.drain()
            except OSError:
                # The worker is gone; what it sent before is still read below.
                worker.kill()
            while not sent.settled:
                async with worker.reading:
                    if not sent.settled:
                        await self._read(worker)
        except BaseException:
            # The caller stopped waiting: the run is abandoned with its worker
            # (`close` reaps it).
            self._drop(worker)
            worker.kill()
            raise

    async def _read(self, worker: _Worker) -> None:
        """Take the worker's next messages; bury the worker at its end of file.

        Waits for one message, then takes every other one already read (a
        worker's result and its next start come together).
        """
        channel = worker.channel
        try:
            worker.note(await self._receive(worker))
            while channel.holds_message():
                worker.note(await channel.receive())
        except (EOFError, OSError):
            self._drop(worker)
            for sent in worker.sent:
                sent.settled = True
            worker.sent.clear()
            with anyio.CancelScope(shield=True):
                await worker.end(kill=True)

    async def _receive(self, worker: _Worker) -> Any:
        """The worker's next message; after a cancellation, until its deadline.

        A worker whose run is still going at the deadline is killed (its run
        is lost, ``task_cancelled``).
        """
        if worker.channel.holds_message():
            return await worker.channel.receive()
        while True:
            if worker.deadline is not None and not worker.killed:
                with anyio.move_on_after(worker.deadline - anyio.current_time()):
                    return await worker.channel.receive()
                worker.kill()
                continue
            with anyio.CancelScope() as scope:
                worker.waiting = scope
                try:
                    return await worker.channel.receive()
                finally:
                    worker.waiting = None
            # Woken by a cancellation: wait for the run until its deadline.

    def _drop(self, worker: _Worker) -> None:
        """Send no more runs to ``worker``."""
        if worker in self._pool:
            self._pool.remove(worker)

    def cancel(self) -> None:
        """Cancel every run in flight (each keeps its cancelled record).

        A worker whose run is still going ``cancel_grace_s`` later is killed,
        and its run is lost (``task_cancelled``).
        """
        self._cancelled = True
        if not self._pool:
            return
        deadline = anyio.current_time() + self.cancel_grace_s
        for worker in self._pool:
            worker.cancel(deadline)

    async def close(self) -> None:
        """Stop every worker and reap it: no process outlives the suite."""
        workers = list(self._started)
        self._started.clear()
        self._pool.clear()
        with anyio.CancelScope(shield=True):
            async with anyio.create_task_group() as group:
                for worker in workers:
                    group.start_soon(functools.partial(worker.end, kill=False))
        for worker in workers:
            worker.channel.close()
