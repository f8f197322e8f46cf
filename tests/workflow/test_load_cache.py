"""Loading an unchanged workflow file again reuses its validation; a change never.

`load_agent_workflow` reads the file every time and keys what it validated by the
content's digest, the file name and the tools, so 1000 sessions started from one
path validate it once, and an edited file is always validated again.
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING

import pytest

from artemiskit import ArtemisKit, FileAccessError, WorkflowError, load_agent_workflow
from artemiskit.workflow import read_agent_workflow
from tests._builders import PASSING_SCRIPT, workflow_dict, write_workflow
from tests._runs import ReplayTarget

if TYPE_CHECKING:
    from pathlib import Path


async def test_an_unchanged_file_loads_as_the_workflow_validated_before(
    tmp_path: Path,
) -> None:
    path = write_workflow(tmp_path, workflow_dict())
    first = await load_agent_workflow(path)
    assert await load_agent_workflow(path) is first
    assert await load_agent_workflow(str(path)) is first


async def test_reading_without_an_event_loop_shares_the_loaded_workflow(
    tmp_path: Path,
) -> None:
    path = write_workflow(tmp_path, workflow_dict())
    first = await load_agent_workflow(path)
    assert read_agent_workflow(path) is first
    write_workflow(tmp_path, workflow_dict(name="renamed"))
    assert read_agent_workflow(path).name == "renamed"


def test_reading_without_an_event_loop_refuses_what_loading_refuses(
    tmp_path: Path,
) -> None:
    with pytest.raises(FileAccessError) as missing:
        read_agent_workflow(tmp_path / "missing.yaml")
    assert missing.value.reason == "file_unreadable"
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    with pytest.raises(FileAccessError) as not_regular:
        read_agent_workflow(fifo)
    assert not_regular.value.reason == "file_not_regular"
    latin = tmp_path / "latin.yaml"
    latin.write_bytes(b"name: caf\xe9\n")
    with pytest.raises(WorkflowError) as not_utf8:
        read_agent_workflow(latin)
    assert "not valid UTF-8" in not_utf8.value.problems[0].message
    broken = tmp_path / "broken.yaml"
    broken.write_text("version: 2\n", "utf-8")
    with pytest.raises(WorkflowError) as invalid:
        read_agent_workflow(broken)
    assert invalid.value.problems


async def test_a_changed_file_is_read_and_validated_again(tmp_path: Path) -> None:
    path = write_workflow(tmp_path, workflow_dict())
    first = await load_agent_workflow(path)
    write_workflow(tmp_path, workflow_dict(name="renamed"))
    second = await load_agent_workflow(path)
    assert (first.name, second.name) == ("test-workflow", "renamed")
    broken = workflow_dict()
    broken["budgets"] = {"max_actions": -1, "timeout_ms": 30000}
    path.write_text(json.dumps(broken), encoding="utf-8")
    with pytest.raises(WorkflowError):
        await load_agent_workflow(path)
    write_workflow(tmp_path, workflow_dict())
    assert await load_agent_workflow(path) is first  # the same text once more


async def test_the_same_text_in_another_file_is_its_own_workflow(
    tmp_path: Path,
) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = await load_agent_workflow(write_workflow(tmp_path / "a"))
    other = await load_agent_workflow(write_workflow(tmp_path / "b"))
    assert other == first
    assert other is not first


async def test_sessions_from_one_path_run_after_the_file_changes(
    tmp_path: Path,
) -> None:
    path = write_workflow(tmp_path, workflow_dict(), PASSING_SCRIPT)
    kit = ArtemisKit()
    first = await kit.run_workflow(workflow=path, target=ReplayTarget())
    write_workflow(tmp_path, workflow_dict(name="renamed"), PASSING_SCRIPT)
    second = await kit.run_workflow(workflow=path, target=ReplayTarget())
    assert first.record.workflow.name == "test-workflow"
    assert second.record.workflow.name == "renamed"
    assert first.record.workflow.digest != second.record.workflow.digest
