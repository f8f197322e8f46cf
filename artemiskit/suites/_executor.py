"""Executors: where a suite's runs execute, chosen by name.

The runner plans the runs and starts each one (at most ``slots(concurrency)``
at a time) with ``await executor.run(planned)``; the executor runs that one run
where it runs runs and returns its result, or raises `RunLost` when it cannot
say how the run ended. The executor owns what it needs around the runs (a pool
of worker processes, a cluster connection): `start` before the first run,
`close` after the last, `cancel` when the suite is cancelled.

- ``local`` (`LocalExecutor`): in this process, on the suite's event loop.
- ``processes`` (`ProcessExecutor`): a pool of worker processes on this machine.
- ``ray`` (`RayExecutor`): one Ray task per run on a cluster.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, Protocol

import attrs

from artemiskit._errors import SessionStateError, WorkflowError
from artemiskit.engine._result import WorkflowResult

if TYPE_CHECKING:
    from collections.abc import Sequence

    from artemiskit.suites._shipping import RemoteRun

__all__ = [
    "EXECUTOR_NAMES",
    "LocalExecutor",
    "Placement",
    "PlannedRun",
    "RunLost",
    "ShippedResult",
    "StartLedger",
    "SuiteExecutor",
    "executor_named",
]

#: Where an executor runs runs: in the suite's own process, in other processes
#: of this machine, or on other machines.
Placement = Literal["in_process", "this_machine", "cluster"]
#: The executors chosen by name (``--executor``, ``executor="..."``).
EXECUTOR_NAMES = ("local", "processes", "ray")


class RunLost(Exception):
    """The executor could not say what happened to a run (SPEC 15: lost).

    Args:
        reason: ``worker_died``, ``node_died``, ``task_cancelled``, ...
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@attrs.frozen(kw_only=True, repr=False)
class ShippedResult:
    """A run's result as a worker elsewhere returns it, its record encoded there.

    Encoding and validating a record is a good share of a short run's cost:
    the worker does it, in parallel with the others, and the suite's process
    only writes the bytes.

    Attributes:
        result: The run's result.
        record_line: Its record file (`record_line`): validated compact JSON.
    """

    result: WorkflowResult
    record_line: bytes

    def __repr__(self) -> str:
        return f"ShippedResult({self.result!r})"


class StartLedger:
    """The runs an executor started: none is ever started twice (SPEC 15)."""

    def __init__(self) -> None:
        self._started: set[str] = set()

    def start(self, key: str) -> None:
        """Note that the run ``key`` starts now.

        Raises:
            SessionStateError: It was started before (``already_started``).
        """
        if key in self._started:
            raise SessionStateError(
                "a run of the suite was already started once; it is never started "
                "again",
                reason="already_started",
            )
        self._started.add(key)


class PlannedRun(Protocol):
    """One planned run of a suite, as the runner hands it to an executor."""

    @property
    def key(self) -> str:
        """The run's identity (suite, workflow, repetition): a start ledger's key."""
        ...

    @property
    def files_key(self) -> str:
        """Its unit's workflow and target (within the suite).

        Runs with one key ship the same files, script, configuration and
        target: only their case and repetition differ.
        """
        ...

    async def run_here(self) -> WorkflowResult:
        """Run it in this process, with the suite's shared connections.

        Raises:
            RunLost: The run left no record (``run_error``).
        """
        ...

    def shipped(self) -> RemoteRun:
        """The run as plain, picklable data for a worker elsewhere."""
        ...


class SuiteExecutor(Protocol):
    """Runs a suite's runs, one planned run per `run` call."""

    @property
    def name(self) -> str:
        """The executor's name in ``suite.json`` settings (e.g. ``local``)."""
        ...

    @property
    def placement(self) -> Placement:
        """Where runs execute; runs out of this process are shipped.

        Anything out of the suite's process gets `PlannedRun.shipped` data, so
        the suite prepares what travels (and refuses what cannot); the sandbox
        engine is checked before the suite only when runs execute on this
        machine.
        """
        ...

    def slots(self, concurrency: int) -> int:
        """Runs in flight at most, given the suite's ``concurrency``."""
        ...

    async def start(self, runs: Sequence[PlannedRun]) -> None:
        """Get ready before any run starts; refuse runs it cannot carry.

        Raises:
            ArtemisError: The executor cannot run this suite (nothing ran).
        """
        ...

    async def run(self, planned: PlannedRun) -> WorkflowResult | ShippedResult:
        """Run one planned run and return its result.

        A run that ran out of this process may come back as a `ShippedResult`
        (its record already encoded by the worker).

        Raises:
            RunLost: The run was lost (no result came back).
        """
        ...

    def cancel(self) -> None:
        """Stop the runs in flight (the suite was cancelled)."""
        ...

    async def close(self) -> None:
        """Release what `start` and the runs took (after the last run)."""
        ...


class LocalExecutor:
    """Runs each run in this process, on the suite's event loop.

    Args:
        concurrency: How many runs are in flight at most; by default the
            suite's ``concurrency``.

    Raises:
        ValueError: ``concurrency`` is below 1.
    """

    def __init__(self, concurrency: int | None = None) -> None:
        if concurrency is not None and concurrency < 1:
            raise ValueError("concurrency must be at least 1")
        self.concurrency = concurrency

    def __repr__(self) -> str:
        return f"LocalExecutor(concurrency={self.concurrency})"

    @property
    def name(self) -> str:
        """``local``."""
        return "local"

    @property
    def placement(self) -> Placement:
        """``in_process``."""
        return "in_process"

    def slots(self, concurrency: int) -> int:
        """This executor's concurrency, else the suite's."""
        return self.concurrency or concurrency

    async def start(self, runs: Sequence[PlannedRun]) -> None:
        """Nothing to start."""

    async def run(self, planned: PlannedRun) -> WorkflowResult:
        """Run it here (the suite cancels its sessions itself)."""
        return await planned.run_here()

    def cancel(self) -> None:
        """Nothing of its own to stop."""

    async def close(self) -> None:
        """Nothing to release."""


def executor_named(name: str, **settings: Any) -> SuiteExecutor:
    """The executor called ``name``, made with ``settings``.

    Args:
        name: ``local``, ``processes`` or ``ray`` (`EXECUTOR_NAMES`).
        **settings: Keyword arguments of that executor's class (``address=``
            for ``ray``, ``workers=`` for ``processes``).

    Raises:
        WorkflowError: No executor has that name (``invalid_option``, exit 2).
    """
    if name == "local":
        return LocalExecutor(**settings)
    if name == "processes":
        from artemiskit.suites._processes import ProcessExecutor

        return ProcessExecutor(**settings)
    if name == "ray":
        from artemiskit.suites._ray import RayExecutor

        return RayExecutor(**settings)
    raise WorkflowError(
        f"unknown executor {name!r}: choose one of {', '.join(EXECUTOR_NAMES)}",
        reason="invalid_option",
    )
