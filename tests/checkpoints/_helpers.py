"""Build real checkpoints on disk and drive child processes that use them."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import anyio

from artemiskit._errors import CheckpointError
from artemiskit.checkpoints import (
    CheckpointLimits,
    LoadedCheckpoint,
    LocalCheckpointStore,
)

REPO_ROOT = Path(__file__).resolve().parents[2]
CHILD = Path(__file__).with_name("_child.py")
FOREIGN_UID = 65534  # "nobody"


def run(coroutine_function: Any, *args: Any) -> Any:
    """Run an async function to completion (for tests that drive subprocesses)."""
    return anyio.run(coroutine_function, *args)


async def build(
    directory: Path,
    snapshot: dict[str, Any],
    entries: Sequence[dict[str, Any]] = (),
    *,
    artifacts: dict[str, bytes] | None = None,
) -> None:
    """Create a checkpoint with one snapshot, journal entries and artifacts."""
    store = LocalCheckpointStore(directory)
    await store.open(mode="create")
    try:
        for name, data in (artifacts or {}).items():
            await store.write_artifact(name, data)
        await store.commit_snapshot(snapshot)
        for entry in entries:
            await store.append(entry)
    finally:
        await store.close()


async def resume_and_load(
    directory: Path, limits: CheckpointLimits | None = None
) -> LoadedCheckpoint:
    """Open ``directory`` for resume, load it and close."""
    store = LocalCheckpointStore(directory, limits=limits)
    await store.open(mode="resume")
    try:
        return await store.load()
    finally:
        await store.close()


async def refusal(operation: Any) -> CheckpointError:
    """Await ``operation`` and return the `CheckpointError` it must raise."""
    try:
        await operation
    except CheckpointError as exc:
        return exc
    raise AssertionError("accepted, expected a CheckpointError")


def spawn(*args: str) -> subprocess.Popen[str]:
    """Start ``_child.py`` with ``args``, line-buffered text pipes."""
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT))
    return subprocess.Popen(
        [sys.executable, str(CHILD), *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        bufsize=1,
        env=env,
    )


def read_line(child: subprocess.Popen[str]) -> str:
    """Read the child's next line; fail if it exited instead."""
    assert child.stdout is not None
    line = child.stdout.readline()
    assert line, f"child exited early with {child.wait()}"
    return line.strip()


def flip_byte(path: Path, offset: int) -> None:
    """Invert one byte of a file in place (offset may be negative)."""
    data = bytearray(path.read_bytes())
    data[offset] ^= 0xFF
    path.write_bytes(bytes(data))
