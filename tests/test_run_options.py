"""`RunOptions`: one value object for how a session runs, or the same as keywords."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from artemiskit import (
    ArtemisKit,
    RunOptions,
    WorkflowError,
    create_agent_workflow_session,
    load_agent_workflow,
)
from examples.custom_tool.order_tools import FILE_REFUND, LOOKUP_ORDER
from tests._builders import PASSING_SCRIPT, write_workflow
from tests._environments import DictFactory
from tests._runs import ReplayTarget
from tests.tools._order_tools import EXAMPLE, TOOLS


async def test_options_reach_the_session(tmp_path: Path) -> None:
    factory = DictFactory()
    options = RunOptions(environment=factory, preflight="only")
    result = await ArtemisKit().run_workflow(
        workflow=write_workflow(tmp_path, script=PASSING_SCRIPT),
        target=ReplayTarget(),
        options=options,
    )
    assert result.record.execution.reason == "preflight_only"
    assert result.record.preflight.status == "passed"
    assert len(factory.created) == 1


async def test_keywords_override_the_same_fields_of_options(tmp_path: Path) -> None:
    factory = DictFactory()
    result = await ArtemisKit().run_workflow(
        workflow=write_workflow(tmp_path, script=PASSING_SCRIPT),
        options=RunOptions(environment=factory, preflight="only"),
        preflight=False,
    )
    assert result.record.execution.reason != "preflight_only"
    assert result.record.preflight.status == "not_run"
    assert factory.created[0].files["out/summary.md"] == "30 days"


async def test_the_low_level_session_takes_the_same_options(tmp_path: Path) -> None:
    path = write_workflow(tmp_path, script=PASSING_SCRIPT)
    workflow = await load_agent_workflow(path)
    target = ReplayTarget()
    with pytest.raises(WorkflowError, match="ledger_limit") as caught:
        create_agent_workflow_session(
            workflow=workflow,
            target=target,
            options=RunOptions(ledger_limit=0),
        )
    assert caught.value.reason == "invalid_option"
    with pytest.raises(WorkflowError, match="cleanup_timeout_ms"):
        create_agent_workflow_session(
            workflow=workflow,
            target=target,
            options=RunOptions(ledger_limit=5),
            cleanup_timeout_ms=0,
        )


def test_options_are_frozen_keyword_only_data() -> None:
    options = RunOptions(cleanup_timeout_ms=500)
    assert attrs.evolve(options, preflight=True).cleanup_timeout_ms == 500
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        options.preflight = True  # type: ignore[misc]
    with pytest.raises(TypeError):
        RunOptions(None)  # type: ignore[call-arg]


async def test_a_session_built_from_options_runs(tmp_path: Path) -> None:
    workflow = await load_agent_workflow(write_workflow(tmp_path))
    factory = DictFactory()
    session = create_agent_workflow_session(
        workflow=workflow,
        target=ReplayTarget(),
        options=RunOptions(environment=factory, ledger_limit=3),
    )
    result = await session.run()
    assert result.record.execution.status == "completed"
    assert len(factory.created) == 1


async def test_tools_travel_in_the_options_and_add_to_the_kits_own() -> None:
    workflow = EXAMPLE / "workflow.yaml"
    by_options = await ArtemisKit().run_workflow(
        workflow=workflow, options=RunOptions(tools=TOOLS)
    )
    added = await ArtemisKit(tools=[LOOKUP_ORDER]).run_workflow(
        workflow=workflow, tools=[FILE_REFUND]
    )
    again = await ArtemisKit(tools=TOOLS).run_workflow(workflow=workflow, tools=TOOLS)
    for result in (by_options, added, again):
        assert result.record.exit_code == 0
    with pytest.raises(WorkflowError, match="--tools"):
        await ArtemisKit(tools=[LOOKUP_ORDER]).run_workflow(workflow=workflow)


async def test_the_low_level_session_takes_tools_as_a_keyword_or_an_option() -> None:
    workflow = await load_agent_workflow(EXAMPLE / "workflow.yaml", tools=TOOLS)
    with pytest.raises(WorkflowError) as caught:
        create_agent_workflow_session(workflow=workflow, target=ReplayTarget())
    assert caught.value.reason == "unknown_tool"
    for session in (
        create_agent_workflow_session(
            workflow=workflow, target=ReplayTarget(), tools=TOOLS
        ),
        create_agent_workflow_session(
            workflow=workflow, target=ReplayTarget(), options=RunOptions(tools=TOOLS)
        ),
    ):
        result = await session.run()
        assert result.record.execution.status == "completed"
