"""Loads of one file asked for together share a read that has not begun yet.

A load never gets content read before it was asked for: it joins another load's
read only while that read has not begun, and a shared read that fails leaves each
joined load to read (and fail, or not) on its own.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

import anyio
import pytest

import artemiskit._common._reading as reading
from artemiskit import FileAccessError, load_agent_workflow
from tests._builders import workflow_dict, write_workflow

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from artemiskit import Workflow

_read_path = reading._read_path


class _GatedReads:
    """Counts file reads; holds the first one in its worker thread until released.

    ``hold`` says where: ``"before"`` the read begins, or ``"after"`` it read the
    file. ``fail_first`` makes the first read fail once released.
    """

    def __init__(self, hold: str, *, fail_first: bool = False) -> None:
        self.hold = hold
        self.fail_first = fail_first
        self.reads = 0
        self.held = threading.Event()
        self.release = threading.Event()

    def __call__(
        self,
        source: str,
        what: str,
        limit: int,
        began: Callable[[], object] | None = None,
    ) -> bytes:
        self.reads += 1
        if self.reads > 1:
            return _read_path(source, what, limit, began)
        if self.hold == "before":
            self.held.set()
            self.release.wait(10)
        raw = _read_path(source, what, limit, began)
        if self.hold == "after":
            self.held.set()
            self.release.wait(10)
        if self.fail_first:
            raise FileAccessError("the first read failed", reason="file_unreadable")
        return raw


async def _until_held(gate: _GatedReads) -> None:
    await anyio.to_thread.run_sync(gate.held.wait, 10)


async def test_loads_asked_for_before_the_read_begins_share_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_workflow(tmp_path, workflow_dict(name="shared-read"))
    gate = _GatedReads("before")
    monkeypatch.setattr(reading, "_read_path", gate)
    loaded: list[Workflow] = []

    async def load() -> None:
        loaded.append(await load_agent_workflow(path))

    async with anyio.create_task_group() as group:
        group.start_soon(load)
        await _until_held(gate)
        for _ in range(3):
            group.start_soon(load)
        await anyio.wait_all_tasks_blocked()
        gate.release.set()
    assert gate.reads == 1
    assert len(loaded) == 4
    assert all(workflow is loaded[0] for workflow in loaded)
    assert loaded[0].name == "shared-read"


async def test_a_load_asked_for_after_the_read_began_reads_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_workflow(tmp_path, workflow_dict(name="before-edit"))
    gate = _GatedReads("after")
    monkeypatch.setattr(reading, "_read_path", gate)
    names: dict[str, str] = {}

    async def load(label: str) -> None:
        names[label] = (await load_agent_workflow(path)).name

    async with anyio.create_task_group() as group:
        group.start_soon(load, "first")
        await _until_held(gate)
        write_workflow(tmp_path, workflow_dict(name="after-edit"))
        await load("second")
        gate.release.set()
    assert gate.reads == 2
    assert names == {"first": "before-edit", "second": "after-edit"}


async def test_loads_that_joined_a_failed_read_read_on_their_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_workflow(tmp_path, workflow_dict(name="read-again"))
    gate = _GatedReads("before", fail_first=True)
    monkeypatch.setattr(reading, "_read_path", gate)
    names: list[str] = []
    failures: list[str] = []

    async def load() -> None:
        try:
            names.append((await load_agent_workflow(path)).name)
        except FileAccessError as exc:
            failures.append(exc.reason)

    async with anyio.create_task_group() as group:
        group.start_soon(load)
        await _until_held(gate)
        group.start_soon(load)
        group.start_soon(load)
        await anyio.wait_all_tasks_blocked()
        gate.release.set()
    assert failures == ["file_unreadable"]
    assert names == ["read-again", "read-again"]
    assert gate.reads == 3


async def test_a_missing_file_fails_every_load_that_shared_its_read(
    tmp_path: Path,
) -> None:
    failures: list[str] = []

    async def load() -> None:
        with pytest.raises(FileAccessError) as missing:
            await load_agent_workflow(tmp_path / "missing.yaml")
        failures.append(missing.value.reason)

    async with anyio.create_task_group() as group:
        for _ in range(3):
            group.start_soon(load)
    assert failures == ["file_unreadable"] * 3
