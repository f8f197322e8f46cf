"""The Ray executor: each run of a suite is one Ray task (SPEC 15).

The driver loads and validates everything, then ships each run to a worker as one
task: the validated workflow, the files it names (its script and fixture, see
`artemiskit.suites._shipping`) and a picklable way to build the kit there, from a
configuration without secret values. The task runs the session with `anyio.run`
and returns its `WorkflowResult`; the driver writes records and transcripts. A
task is submitted with ``max_retries=0`` and ``retry_exceptions=False`` and a
driver-side ledger refuses to start a run twice, so a run is never re-executed:
a run whose worker or node dies is reported lost, with the reason Ray gave.

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
import os
import shutil
import signal
import socket
import tempfile
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio
import anyio.to_thread
import attrs

from artemiskit._errors import ConfigError, SessionStateError
from artemiskit.suites._executor import LocalExecutor
from artemiskit.workflow import Workflow

if TYPE_CHECKING:
    from collections.abc import Awaitable, Sequence

    from artemiskit.engine._result import WorkflowResult
    from artemiskit.suites._factory import SessionFactory

__all__ = ["RayExecutor", "RemoteRun", "RunLost"]

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


class RunLost(Exception):
    """The executor could not say what happened to a run (SPEC 15: lost).

    Args:
        reason: ``worker_died``, ``node_died``, ``task_cancelled``, ...
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@attrs.frozen(kw_only=True, repr=False)
class RemoteRun:
    """One run as shipped to a worker: all it needs, nothing it must find there.

    Attributes:
        key: The run's identity in the driver's start ledger.
        make_kit: Builds the session factory (a `SessionFactory`) on the
            worker from the trusted configuration and tools, never a resolved
            key.
        workflow: The validated workflow.
        files: The files the workflow names, by relative POSIX path (its
            script and fixture; `named_files`).
        repetition: The repetition, from 1.
        judge: The judge for ``judge`` outcomes, if any.
        cleanup_timeout_ms: The run's cleanup drain period.
        run_options: Further `RunOptions` fields of the run as plain data (its
            cassette to replay, whether to record one).
    """

    key: str
    make_kit: Callable[[], Any]
    workflow: Workflow
    files: Mapping[str, bytes]
    repetition: int
    judge: Any = None
    cleanup_timeout_ms: int | None = None
    run_options: Mapping[str, Any] = attrs.field(factory=dict)

    def __repr__(self) -> str:
        return f"RemoteRun(key={self.key!r}, repetition={self.repetition})"


def run_on_worker(task: RemoteRun) -> WorkflowResult:
    """The Ray task: write the shipped files, run the session, return its result."""
    return anyio.run(_run_here, task)


def _scratch_parent() -> Path:
    """This user's folder of run folders on this machine (mode 0700)."""
    user = getattr(os, "getuid", lambda: "user")()
    parent = Path(tempfile.gettempdir()) / f"akit-ray-{user}"
    parent.mkdir(mode=0o700, exist_ok=True)
    return parent


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _sweep(parent: Path) -> None:
    """Remove the run folders that workers killed mid-run left behind.

    A run folder is named after its worker's process id: one whose process is
    gone belongs to a killed (or force-cancelled) worker.
    """
    for folder in parent.glob("run-*-*"):
        pid = folder.name.split("-")[1]
        if pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(folder, ignore_errors=True)


async def _run_here(task: RemoteRun) -> WorkflowResult:
    parent = _scratch_parent()
    _sweep(parent)
    prefix = f"run-{os.getpid()}-"
    with tempfile.TemporaryDirectory(prefix=prefix, dir=parent) as scratch:
        root = Path(scratch)
        for name, data in task.files.items():
            path = root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        kit: SessionFactory = task.make_kit()
        session = await kit.create_workflow_session(
            workflow=task.workflow,
            target=None,
            fixture_root=root,
            judge=task.judge,
            cleanup_timeout_ms=task.cleanup_timeout_ms,
            shared_transports=None,
            repetition=task.repetition,
            **task.run_options,
        )
        return await session.run()


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
        self._ledger: dict[str, bool] = {}
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

    def with_concurrency(self, concurrency: int) -> RayExecutor:
        """This executor, with the suite's concurrency when none was given."""
        if self.concurrency is None:
            self.concurrency = concurrency
        return self

    async def start(self) -> None:
        """Import Ray and connect to the cluster (once).

        Raises:
            ConfigError: Ray is not installed (``ray_not_installed``) or the
                cluster cannot be reached (``ray_unreachable``).
        """
        if self._ray is not None:
            return
        self._ray, self._function = await anyio.to_thread.run_sync(
            _connect, self.address, self.num_cpus
        )
        _restore_sigterm_handler()
        self._threads = anyio.CapacityLimiter(self.concurrency or 4)

    async def execute(
        self,
        jobs: Sequence[Any],
        run: Callable[[Any], Awaitable[None]],
        may_start: Callable[[], bool],
    ) -> None:
        """Start each job when a slot is free, while ``may_start()`` allows.

        Once `cancel` is called, tasks still in flight after ``cancel_grace_s``
        are force-cancelled.
        """
        await self.start()
        self._cancel_requested = anyio.Event()
        if self._cancelled:
            self._cancel_requested.set()
        async with anyio.create_task_group() as group:
            group.start_soon(self._force_cancel_after_grace)
            await LocalExecutor(self.concurrency or 4).execute(jobs, run, may_start)
            group.cancel_scope.cancel()

    async def _force_cancel_after_grace(self) -> None:
        assert self._cancel_requested is not None
        await self._cancel_requested.wait()
        await anyio.sleep(self.cancel_grace_s)
        for ref in list(self._in_flight.values()):
            self._ray.cancel(ref, force=True)

    async def _run_remote(self, task: RemoteRun) -> WorkflowResult:
        """Run ``task`` as one Ray task and return its result.

        Raises:
            SessionStateError: The run was already started (``already_started``).
            RunLost: Ray lost the task (its worker or node died, it was
                cancelled, or it failed).
        """
        await self.start()
        if self._ledger.get(task.key):
            raise SessionStateError(
                "a run of the suite was already started once; it is never started "
                "again",
                reason="already_started",
            )
        self._ledger[task.key] = True
        ref = self._function.remote(task)
        self._in_flight[task.key] = ref
        if self._cancelled:
            # Submitted while the suite was being cancelled: stopped at once.
            self._ray.cancel(ref, force=True)
        try:
            # Abandoned if the caller is cancelled: the wait for a task never
            # holds the driver, and the task is force-cancelled right away.
            result: WorkflowResult = await anyio.to_thread.run_sync(
                self._ray.get, ref, limiter=self._threads, abandon_on_cancel=True
            )
        except anyio.get_cancelled_exc_class():
            self._cancelled = True
            self._ray.cancel(ref, force=True)
            raise
        except Exception as exc:
            if isinstance(exc, self._ray.exceptions.RayError):
                # A task this driver cancelled fails in whatever way it was
                # interrupted: it is reported as cancelled.
                reason = "task_cancelled" if self._cancelled else _loss_reason(exc)
                raise RunLost(reason) from None
            raise
        finally:
            self._in_flight.pop(task.key, None)
        return result

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
            "the Ray executor needs Ray: pip install 'artemiskit[ray]'",
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
