"""`WorkflowResult.failure`: what stopped a run, for people, never in the record."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from artemiskit import (
    ArtemisKit,
    TargetError,
    TargetRequest,
    TargetResponse,
    load_agent_workflow,
)
from artemiskit.records import record_to_dict
from tests._builders import workflow_dict, write_workflow

HOST = "sentinel-host.invalid:8080"


class UnreachableTarget:
    """A target whose provider cannot be reached."""

    async def respond(self, request: TargetRequest) -> TargetResponse:
        raise TargetError(
            f"could not reach the model provider at http://{HOST}/v1",
            reason="provider_unreachable",
        )


async def test_a_target_failure_is_told_but_not_recorded(tmp_path: Path) -> None:
    path = write_workflow(tmp_path)
    result = await ArtemisKit().run_workflow(workflow=path, target=UnreachableTarget())
    assert result.record.execution.reason == "provider_unreachable"
    assert result.failure is not None
    # The record names the agent that ran, not the workflow's default model.
    assert result.failure.startswith("agent 'UnreachableTarget': ")
    assert HOST in result.failure
    assert HOST not in json.dumps(record_to_dict(result.record))
    assert HOST not in repr(result)


async def test_a_failed_preflight_says_why(tmp_path: Path) -> None:
    path = write_workflow(tmp_path)
    result = await ArtemisKit().run_workflow(
        workflow=await load_agent_workflow(path),
        target=UnreachableTarget(),
        preflight="only",
    )
    assert result.exit_code == 3
    assert result.failure is not None
    assert "preflight failed (provider_unreachable)" in result.failure
    assert HOST in result.failure


async def test_a_completed_run_has_no_failure(tmp_path: Path) -> None:
    path = write_workflow(tmp_path, workflow_dict())
    result = await ArtemisKit().run_workflow(workflow=path)
    assert result.exit_code == 0
    assert result.failure is None


class _Escape(BaseException):
    """A base exception of the agent's own (not an `Exception`)."""


class _ExitingTarget:
    """An agent whose ``respond`` raises a base exception with a sentinel text."""

    def __init__(self, error: BaseException) -> None:
        self.error = error

    async def respond(self, request: TargetRequest) -> TargetResponse:
        raise self.error


@pytest.mark.parametrize(
    "error", [SystemExit("SENTINEL-EXIT"), _Escape("SENTINEL-EXIT")], ids=repr
)
async def test_an_agent_raising_a_base_exception_ends_the_run_with_a_record(
    tmp_path: Path, error: BaseException
) -> None:
    path = write_workflow(tmp_path)
    result = await ArtemisKit().run_workflow(
        workflow=path, target=_ExitingTarget(error)
    )
    assert result.record.execution.reason == "target_failure"
    assert result.record.exit_code == 7
    assert "SENTINEL" not in json.dumps(record_to_dict(result.record))
    assert "SENTINEL" not in (result.failure or "")
