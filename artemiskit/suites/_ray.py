"""The Ray executor: each run of a suite is one Ray task (SPEC 15).

The driver loads and validates everything, then ships each run to a worker as one
task: the validated workflow, the files of its folder (scripts, fixtures) and a
picklable way to build the kit there. The task runs the session with `anyio.run`
and returns its `WorkflowResult`; the driver writes records and transcripts. A
task is submitted with ``max_retries=0`` and ``retry_exceptions=False`` and a
driver-side ledger refuses to start a run twice, so a run is never re-executed:
a run whose worker or node dies is reported lost, with the reason Ray gave.

Ray is imported only when this executor starts.
"""

from __future__ import annotations

import logging
import os
import socket
import tempfile
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
#: The most a workflow's folder may weigh to be shipped with each of its runs.
MAX_SHIPPED_BYTES = 64 * 1024 * 1024


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
        files: The files of the workflow's folder, by relative POSIX path
            (scripts, fixtures).
        repetition: The repetition, from 1.
        judge: The judge for ``judge`` outcomes, if any.
        cleanup_timeout_ms: The run's cleanup drain period.
    """

    key: str
    make_kit: Callable[[], Any]
    workflow: Workflow
    files: Mapping[str, bytes]
    repetition: int
    judge: Any = None
    cleanup_timeout_ms: int | None = None

    def __repr__(self) -> str:
        return f"RemoteRun(key={self.key!r}, repetition={self.repetition})"


def ship_folder(folder: Path) -> dict[str, bytes]:
    """Read every regular file below ``folder`` for shipping with a task.

    Raises:
        ConfigError: The folder weighs more than `MAX_SHIPPED_BYTES`
            (``folder_too_large``).
    """
    files: dict[str, bytes] = {}
    total = 0
    for path in sorted(folder.rglob("*")):
        if path.is_symlink() or not path.is_file():
            continue
        data = path.read_bytes()
        total += len(data)
        if total > MAX_SHIPPED_BYTES:
            raise ConfigError(
                f"a workflow's folder weighs more than {MAX_SHIPPED_BYTES} bytes: "
                "too much to ship with each Ray task",
                reason="folder_too_large",
            )
        files[path.relative_to(folder).as_posix()] = data
    return files


def run_on_worker(task: RemoteRun) -> WorkflowResult:
    """The Ray task: write the shipped files, run the session, return its result."""
    return anyio.run(_run_here, task)


async def _run_here(task: RemoteRun) -> WorkflowResult:
    with tempfile.TemporaryDirectory(prefix="akit-ray-") as scratch:
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

    Raises:
        ValueError: ``concurrency`` is below 1 or ``num_cpus`` is not positive.
    """

    def __init__(
        self,
        address: str | None = None,
        *,
        concurrency: int | None = None,
        num_cpus: float = 1.0,
    ) -> None:
        if concurrency is not None and concurrency < 1:
            raise ValueError("concurrency must be at least 1")
        if not num_cpus > 0:
            raise ValueError("num_cpus must be positive")
        self.num_cpus = num_cpus
        self.address = address
        self.concurrency = concurrency
        self._ledger: dict[str, bool] = {}
        self._in_flight: dict[str, Any] = {}
        self._ray: Any = None
        self._function: Any = None
        self._threads: anyio.CapacityLimiter | None = None
        self._cancelled = False

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
        self._threads = anyio.CapacityLimiter(self.concurrency or 4)

    async def execute(
        self,
        jobs: Sequence[Any],
        run: Callable[[Any], Awaitable[None]],
        may_start: Callable[[], bool],
    ) -> None:
        """Start each job when a slot is free, while ``may_start()`` allows."""
        self._cancelled = False
        await self.start()
        await LocalExecutor(self.concurrency or 4).execute(jobs, run, may_start)

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
        try:
            result: WorkflowResult = await anyio.to_thread.run_sync(
                self._ray.get, ref, limiter=self._threads
            )
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
        """Cancel every task in flight (each is then reported lost, cancelled)."""
        self._cancelled = True
        if self._ray is None:
            return
        for ref in list(self._in_flight.values()):
            self._ray.cancel(ref, force=False)


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
