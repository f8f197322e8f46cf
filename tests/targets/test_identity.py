"""Target identity (SPEC 19): the contract digest leaves the target out, and the
record names the target that ran, never the workflow's default.

Every run here is real: the offline scripted provider, or agents of our own.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from artemiskit import (
    ArtemisKit,
    CheckpointError,
    CheckpointOptions,
    ConfigError,
    TargetRequest,
    TargetResponse,
    WorkflowError,
)
from artemiskit.engine._evidence import contract_digest, workflow_digest
from artemiskit.records import record_from_dict, record_to_dict
from artemiskit.targets import agent_choices, parse_target, target_choices
from tests._builders import PASSING_SCRIPT, workflow_dict, write_workflow
from tests._runs import ReplayTarget, call, calling, workflow_of

READ = call("read_file", {"path": "docs/policy.md"})


def _script(folder: Path, model: str) -> None:
    (folder / f"{model}.script.yaml").write_text(
        json.dumps({"version": 1, "responses": PASSING_SCRIPT}), encoding="utf-8"
    )


def test_the_contract_digest_leaves_the_target_out() -> None:
    base = workflow_of(workflow_dict())
    other = workflow_of(
        workflow_dict(
            target={
                "provider": "openai",
                "model": "gpt-4.1-mini",
                "parameters": {"temperature": 0},
            }
        )
    )
    assert contract_digest(base) == contract_digest(other)
    # The whole workflow's digest (what a checkpoint binds to) keeps it.
    assert workflow_digest(base) != workflow_digest(other)
    changed = workflow_of(workflow_dict(name="renamed"))
    assert contract_digest(changed) != contract_digest(base)


async def test_a_record_names_the_chosen_entry_and_model(tmp_path: Path) -> None:
    path = write_workflow(tmp_path)
    _script(tmp_path, "other")
    default = await ArtemisKit().run_workflow(workflow=path)
    chosen = await ArtemisKit().run_workflow(
        workflow=path, target=parse_target("scripted:other")
    )
    assert default.record.target.id == "scripted:agent"
    assert chosen.record.target.id == "scripted:other"
    assert chosen.record.target.model == "other"
    assert chosen.record.exit_code == 0
    # Same contract, another target.
    assert chosen.record.workflow.digest == default.record.workflow.digest
    saved = record_to_dict(chosen.record)
    assert saved["target"]["id"] == "scripted:other"
    assert "version" not in saved["target"]
    assert record_from_dict(saved).target.id == "scripted:other"


class Support:
    """An agent of our own with a version."""

    version = "2.1"

    def __init__(self) -> None:
        self.inner = ReplayTarget([calling(READ)])

    async def respond(self, request: TargetRequest) -> TargetResponse:
        return await self.inner.respond(request)


async def test_a_record_names_an_agent_by_its_name_and_version() -> None:
    (choice,) = agent_choices({"support-bot": Support})
    result = await ArtemisKit().run_workflow(
        workflow=workflow_dict(outcomes=[]), target=choice
    )
    target = result.record.target
    assert (target.id, target.provider, target.model) == (
        "support-bot",
        "agent",
        "support-bot",
    )
    assert target.version == "2.1"
    assert record_to_dict(result.record)["target"]["version"] == "2.1"


async def test_a_bare_target_is_named_by_its_class_not_the_workflow_model() -> None:
    result = await ArtemisKit().run_workflow(
        workflow=workflow_dict(outcomes=[]), target=Support()
    )
    assert result.record.target.id == "Support"
    assert result.record.target.model == "Support"
    assert result.record.target.version == "2.1"


def test_a_record_without_an_id_reads_as_provider_and_model() -> None:
    saved = {
        "provider": "openai",
        "model": "gpt-4o",
        "transport_digest": None,
        "provider_retries": 0,
    }
    from tests.records.test_historical import saved_0_6_1_record

    current = record_to_dict(record_from_dict(saved_0_6_1_record()))
    current["target"] = saved
    assert record_from_dict(current).target.id == "openai:gpt-4o"


@pytest.mark.parametrize(
    "value",
    ["", "openai", ":gpt", "openai:", "-x:gpt", "open ai:gpt", "a:b c", "a:\x1b"],
)
def test_a_malformed_target_is_refused(value: str) -> None:
    with pytest.raises(WorkflowError) as caught:
        parse_target(value)
    assert caught.value.reason == "invalid_target"
    assert caught.value.exit_code == 2


def test_a_target_given_twice_is_refused() -> None:
    with pytest.raises(WorkflowError, match="given twice"):
        target_choices(["scripted:a", "scripted:a"])
    with pytest.raises(WorkflowError, match="mapping"):
        target_choices("scripted:a")
    with pytest.raises(WorkflowError, match="TargetChoice"):
        target_choices([3])  # type: ignore[list-item]


def raising() -> Support:
    raise RuntimeError("sk-SECRET-123")


def not_a_target() -> object:
    return object()


@pytest.mark.parametrize(
    ("value", "words"),
    [
        (raising, "raised RuntimeError"),
        (not_a_target, "returned a object, not an artemiskit.AgentTarget"),
        ({"bad name": Support}, "agent name"),
        ({"x": 3}, "neither"),
        ({}, "empty"),
        (3, "neither a callable"),
        ({"x": lambda: Support}, "returned a type"),
    ],
)
def test_an_agent_that_makes_no_target_is_refused(value: object, words: str) -> None:
    with pytest.raises(ConfigError) as caught:
        agent_choices(value)
    assert caught.value.reason == "invalid_agent"
    assert words in caught.value.message
    assert "SECRET" not in caught.value.message


def test_a_version_that_is_not_a_short_string_is_refused() -> None:
    class Odd(Support):
        version = 3  # type: ignore[assignment]

    with pytest.raises(ConfigError, match="version"):
        agent_choices({"odd": Odd})


async def test_a_paused_run_never_resumes_on_another_model(tmp_path: Path) -> None:
    """The two models' scripts are byte for byte the same, so only the target
    section, bound into the checkpoint, tells the runs apart."""
    path = write_workflow(tmp_path)
    shutil.copyfile(tmp_path / "agent.script.yaml", tmp_path / "other.script.yaml")
    checkpoint = tmp_path / "ckpt"
    paused = await ArtemisKit().run_workflow(
        workflow=path,
        target=parse_target("scripted:other"),
        checkpoint=CheckpointOptions(directory=checkpoint),
        pause_after_actions=1,
    )
    assert paused.record.execution.status == "paused"
    with pytest.raises(CheckpointError) as caught:
        await ArtemisKit().run_workflow(
            workflow=path,
            checkpoint=CheckpointOptions(directory=checkpoint, mode="resume"),
        )
    assert caught.value.reason == "incompatible_checkpoint"
    assert "workflow" in caught.value.message
    resumed = await ArtemisKit().run_workflow(
        workflow=path,
        target=parse_target("scripted:other"),
        checkpoint=CheckpointOptions(directory=checkpoint, mode="resume"),
    )
    assert resumed.record.exit_code == 0
    assert resumed.record.target.id == "scripted:other"
