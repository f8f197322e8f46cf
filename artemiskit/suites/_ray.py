"""The Ray executor: each run of a suite is one Ray task (SPEC 15).

The driver loads and validates everything, then ships each run to a worker as one
task: the unit's workflow, case and target, the files the workflow names (its
script and fixture, see `artemiskit.suites._shipping`) and a picklable way to
build the kit there, from a configuration without secret values. The task runs
the session with `anyio.run` and returns its result, the record encoded there;
the driver writes every file. A task is submitted with ``max_retries=0`` and
``retry_exceptions=False`` and a driver-side ledger refuses to start a run twice,
so a run is never re-executed: a run whose worker or node dies is reported lost,
with the reason Ray gave.

Cancelling a suite cancels its tasks: first gracefully, and a task still running
after a short grace is force-cancelled (its worker process is ended), so the driver
never waits on a model call in flight. The driver never blocks in a wait it cannot
leave: a cancelled caller stops waiting at once and force-cancels the task.

Ray is imported only when this executor starts, with its fatal-signal handler off:
that handler would replace the driver's own SIGTERM handling (SPEC 13: SIGTERM
cancels a suite as SIGINT does).
"""

from __future__ import annotations

import logging
import math
import os
import signal
import socket
import threading
from typing import TYPE_CHECKING, Any

import anyio
import anyio.to_thread

from artemiskit._common._extras import install_hint
from artemiskit._errors import ConfigError
from artemiskit.suites._executor import RunLost, StartLedger
from artemiskit.suites._remote import (
    run_shipped,
    scratch_folder,
    write_shipped_files,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

    from artemiskit.suites._executor import Placement, PlannedRun, ShippedResult
    from artemiskit.suites._shipping import RemoteRun

__all__ = ["RayExecutor", "run_on_worker"]

#: Ray's exception names and the ``lost_reason`` each one becomes.
_LOSS_REASONS = {
    "WorkerCrashedError": "worker_died",
    "NodeDiedError": "node_died",
    "TaskCancelledError": "task_cancelled",
    "ObjectLostError": "object_lost",
    "OwnerDiedError": "object_lost",
    "OutOfMemoryError": "out_of_memory",
    "RayTaskError": "task_failed",
    "LocalRayletDiedError": "node_died",
    "RaySystemError": "ray_error",
}
#: How long a cancelled task may take to stop by itself before it is force-cancelled.
CANCEL_GRACE_S = 2.0


def run_on_worker(task: RemoteRun) -> ShippedResult:
    """The Ray task: write the shipped files, run the session, return its result."""
    return anyio.run(_run_task, task)


async def _run_task(task: RemoteRun) -> ShippedResult:
    with scratch_folder("ray") as root:
        write_shipped_files(task, root)
        return await run_shipped(task, root=root)


def _loss_reason(exc: BaseException) -> str:
    for kind in type(exc).__mro__:
        reason = _LOSS_REASONS.get(kind.__name__)
        if reason is not None:
            return reason
    return "ray_error"


class RayExecutor:
    """Runs a suite's runs as Ray tasks on a cluster (``artemiskit[ray]``).

    Args:
        address: The cluster's address (``HOST:PORT`` of its head, or ``auto``
            for the cluster started on this machine with ``ray start --head``).
        concurrency: Runs in flight at most; by default the suite's
            ``concurrency``.
        num_cpus: The CPUs Ray reserves for each run's task (Ray's default,
            1, runs as many runs at once as the cluster has CPUs; runs that
            mostly wait on a model can reserve a fraction).
        cancel_grace_s: After a cancellation, how long a task may take to stop
            by itself before it is force-cancelled (its worker process ended).

    Raises:
        ValueError: ``concurrency`` is below 1, or ``num_cpus`` or
            ``cancel_grace_s`` is not positive.
    """

    def __init__(
        self,
        address: str | None = None,
        *,
        concurrency: int | None = None,
        num_cpus: float = 1.0,
        cancel_grace_s: float = CANCEL_GRACE_S,
    ) -> None:
        if concurrency is not None and concurrency < 1:
            raise ValueError("concurrency must be at least 1")
        if not num_cpus > 0:
            raise ValueError("num_cpus must be positive")
        if not cancel_grace_s > 0:
            raise ValueError("cancel_grace_s must be positive")
        self.num_cpus = num_cpus
        self.cancel_grace_s = cancel_grace_s
        self.address = address
        self.concurrency = concurrency
        self._ledger = StartLedger()
        self._in_flight: dict[str, Any] = {}
        self._ray: Any = None
        self._function: Any = None
        self._threads: anyio.CapacityLimiter | None = None
        self._cancelled = False
        self._cancel_requested: anyio.Event | None = None

    def __repr__(self) -> str:
        return (
            f"RayExecutor(address={self.address!r}, "
            f"concurrency={self.concurrency}, num_cpus={self.num_cpus})"
        )

    @property
    def name(self) -> str:
        """``ray``."""
        return "ray"

    @property
    def placement(self) -> Placement:
        """``cluster``: runs are shipped, and run on other machines."""
        return "cluster"

    def slots(self, concurrency: int) -> int:
        """This executor's concurrency, else the suite's."""
        return self.concurrency or concurrency

    async def start(self, runs: Sequence[PlannedRun] = ()) -> None:
        """Import Ray and connect to the cluster (once).

        Raises:
            ConfigError: Ray is not installed (``ray_not_installed``) or the
                cluster cannot be reached (``ray_unreachable``).
        """
        self._cancelled = False
        self._cancel_requested = anyio.Event()
        if self._ray is not None:
            return
        self._ray, self._function = await anyio.to_thread.run_sync(
            _connect, self.address, self.num_cpus
        )
        _restore_sigterm_handler()
        # The runner bounds the runs in flight; each waits for its task on a thread.
        self._threads = anyio.CapacityLimiter(math.inf)

    async def run(self, planned: PlannedRun) -> ShippedResult:
        """Run ``planned`` as one Ray task and return its result.

        Once `cancel` is called, the task is asked to stop, and force-cancelled
        if it still runs ``cancel_grace_s`` later.

        Raises:
            SessionStateError: The run was already started (``already_started``).
            RunLost: Ray lost the task (its worker or node died, it was
                cancelled, or it failed).
        """
        if self._ray is None or self._cancel_requested is None:
            await self.start()
        assert self._cancel_requested is not None
        task = planned.shipped()
        self._ledger.start(task.key)
        ref = self._function.remote(task)
        self._in_flight[task.key] = ref
        if self._cancelled:
            # Submitted while the suite was being cancelled: stopped at once.
            self._ray.cancel(ref, force=True)
        results: list[ShippedResult] = []
        failure: Exception | None = None
        try:
            async with anyio.create_task_group() as group:
                group.start_soon(self._force_cancel_after_grace, ref)
                try:
                    # Abandoned if the caller is cancelled: the wait for a task
                    # never holds the driver, and the task is force-cancelled.
                    results.append(
                        await anyio.to_thread.run_sync(
                            self._ray.get,
                            ref,
                            limiter=self._threads,
                            abandon_on_cancel=True,
                        )
                    )
                except anyio.get_cancelled_exc_class():
                    self._cancelled = True
                    self._ray.cancel(ref, force=True)
                    raise
                except Exception as exc:
                    failure = exc
                finally:
                    group.cancel_scope.cancel()
        finally:
            self._in_flight.pop(task.key, None)
        if failure is not None:
            if isinstance(failure, self._ray.exceptions.RayError):
                # A task this driver cancelled fails in whatever way it was
                # interrupted: it is reported as cancelled.
                reason = "task_cancelled" if self._cancelled else _loss_reason(failure)
                raise RunLost(reason) from None
            raise failure
        return results[0]

    async def _force_cancel_after_grace(self, ref: Any) -> None:
        assert self._cancel_requested is not None
        await self._cancel_requested.wait()
        await anyio.sleep(self.cancel_grace_s)
        self._ray.cancel(ref, force=True)

    def cancel(self) -> None:
        """Cancel every task in flight (each is then reported lost, cancelled).

        Each task is asked to stop; one still running ``cancel_grace_s`` later
        is force-cancelled.
        """
        self._cancelled = True
        if self._cancel_requested is not None:
            self._cancel_requested.set()
        if self._ray is None:
            return
        for ref in list(self._in_flight.values()):
            self._ray.cancel(ref, force=False)

    async def close(self) -> None:
        """Leave the cluster connection open (Ray keeps one per process)."""
        self._in_flight.clear()


def _restore_sigterm_handler() -> None:
    """Give SIGTERM back to Python's handler if Ray's C++ code took it.

    Ray's fatal-signal handler (turned off by `_connect` when Ray is imported
    here) stays installed when Ray was imported before; re-installing the
    handler Python holds (the caller's, or the default) puts it back in front.
    Only the main thread may set handlers; elsewhere nothing is done.
    """
    if threading.current_thread() is not threading.main_thread():
        return
    handler = signal.getsignal(signal.SIGTERM)
    if handler is not None:
        signal.signal(signal.SIGTERM, handler)


def _probe(address: str | None) -> None:
    """Fail at once on a ``HOST:PORT`` nothing listens on (Ray retries for minutes).

    Raises:
        ConfigError: Nothing accepts connections there (``ray_unreachable``).
    """
    if address is None or address == "auto" or "://" in address:
        return
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        raise ConfigError(
            f"the Ray address {address!r} is not HOST:PORT", reason="invalid_option"
        )
    try:
        socket.create_connection((host, int(port)), timeout=10).close()
    except OSError as exc:
        raise ConfigError(
            f"cannot reach the Ray cluster at {address} ({exc.strerror or exc}); "
            "start one with `ray start --head` or give its address with "
            "--ray-address",
            reason="ray_unreachable",
        ) from None


def _connect(address: str | None, num_cpus: float) -> tuple[Any, Any]:
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    # Read when Ray is imported: its C++ fatal-signal handler would take SIGTERM
    # from the driver's handler (and abort the process 3 s after the signal).
    os.environ["RAY_DISABLE_FAILURE_SIGNAL_HANDLER"] = "1"
    try:
        import ray
    except ImportError:
        raise ConfigError(
            f"the Ray executor needs Ray: {install_hint('ray')}",
            reason="ray_not_installed",
        ) from None
    if not ray.is_initialized():
        _probe(address)
        try:
            ray.init(
                address=address or "auto",
                log_to_driver=False,
                logging_level=logging.ERROR,
            )
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise ConfigError(
                f"cannot reach the Ray cluster at {address or 'auto'} "
                f"({type(exc).__name__}); start one with `ray start --head` or "
                "give its address with --ray-address",
                reason="ray_unreachable",
            ) from None
    function = ray.remote(max_retries=0, retry_exceptions=False, num_cpus=num_cpus)(
        run_on_worker
    )
    return ray, function
