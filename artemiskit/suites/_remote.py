"""Running a shipped run on a worker (a Ray task, a worker process).

The worker writes the run's shipped files to a scratch folder of its own, builds
the kit from the shipped configuration (keys from its own environment), runs the
session and returns its result (`ShippedResult`, the record encoded there); the
driver writes every file. A scratch folder is named after its worker's process
id, so one left by a killed worker is removed by the next run on that machine.
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import anyio
import attrs

from artemiskit.providers import SharedTransports
from artemiskit.providers._registry import script_key
from artemiskit.suites._executor import ShippedResult
from artemiskit.suites._layout import record_line

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from artemiskit.engine._session import WorkflowSession
    from artemiskit.suites._factory import SessionFactory
    from artemiskit.suites._shipping import RemoteRun

__all__ = ["run_shipped", "scratch_folder", "write_shipped_files"]

_T = TypeVar("_T")


async def _ready(value: _T) -> _T:
    return value


def _scratch_parent(kind: str) -> Path:
    """This user's folder of run folders on this machine (mode 0700)."""
    user = getattr(os, "getuid", lambda: "user")()
    parent = Path(tempfile.gettempdir()) / f"akit-{kind}-{user}"
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


@contextlib.contextmanager
def scratch_folder(kind: str) -> Iterator[Path]:
    """A new scratch folder for shipped files, removed on exit.

    Args:
        kind: The executor's name, which names the folder of run folders
            (``$TMPDIR/akit-<kind>-<uid>/run-<pid>-...``).
    """
    parent = _scratch_parent(kind)
    _sweep(parent)
    with tempfile.TemporaryDirectory(prefix=f"run-{os.getpid()}-", dir=parent) as made:
        yield Path(made)


def write_shipped_files(task: RemoteRun, root: Path) -> None:
    """Write ``task``'s shipped files below ``root``, at their relative names."""
    for name, data in task.files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


async def run_shipped(
    task: RemoteRun,
    *,
    root: Path,
    on_session: Callable[[WorkflowSession], None] | None = None,
    kit: SessionFactory | None = None,
    shared: SharedTransports | None = None,
) -> ShippedResult:
    """Run ``task`` here, from its shipped files written below ``root``.

    The result comes back with its record encoded here (`ShippedResult`): the
    suite's process only writes it. Without ``working_data``, it comes back
    without its final state and transcript.

    Args:
        task: The shipped run.
        root: Where its files were written (`write_shipped_files`): the run's
            fixture root.
        on_session: Called with the session before it runs (to cancel it).
        kit: The kit its unit's runs share on this worker (as a suite's runs
            share one); by default one built for this run (``make_kit``).
        shared: The connection pools (and script) its unit's runs share on
            this worker, closed by the caller; by default the run's own.
    """
    if kit is None:
        kit = task.make_kit()
    own = shared is None
    if shared is None:
        shared = SharedTransports()
    try:
        if task.script is not None:
            # The script as the driver validated it (`worker_config` puts a
            # scripted entry's scripts at the root of the run's folder).
            key = script_key(root, task.workflow.target.model)
            await shared.get(key, functools.partial(_ready, task.script))
        session = await kit.create_workflow_session(
            # the unit's case, expanded by the driver, else the workflow
            workflow=task.workflow if task.case is None else task.case,
            target=task.target,
            fixture_root=root,
            judge=task.judge,
            cleanup_timeout_ms=task.cleanup_timeout_ms,
            shared_transports=shared,
            repetition=task.repetition,
            **task.run_options,
        )
        if on_session is not None:
            on_session(session)
        result = await session.run()
        line = record_line(result.record)
        if not task.working_data:
            # Nothing to carry back that the suite would not keep.
            result = attrs.evolve(result, state=None, transcript=())
        return ShippedResult(result=result, record_line=line)
    finally:
        if own:
            with anyio.CancelScope(shield=True):
                await shared.aclose()
