"""The SDK's argument checks: fixture root, client or target, per-session state."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs
import pytest

from artemiskit import (
    ArtemisKit,
    SessionStateError,
    TargetRequest,
    TargetResponse,
    ToolCall,
    WorkflowError,
    create_agent_workflow_session,
    load_agent_workflow,
    parse_agent_workflow,
)
from artemiskit.targets import ModelRequest
from tests._builders import workflow_dict, write_workflow


@attrs.define
class ScriptTarget:
    """Answers with the given responses in order, counting calls."""

    responses: list[TargetResponse]
    calls: int = 0

    async def respond(self, request: TargetRequest) -> TargetResponse:
        self.calls += 1
        return self.responses[self.calls - 1]


@attrs.define
class CountingClient:
    calls: int = 0

    async def complete(self, request: ModelRequest) -> TargetResponse:
        self.calls += 1
        return TargetResponse(text="Done.")


def with_fixture() -> dict[str, Any]:
    return workflow_dict(
        environment={
            "files": {"docs/policy.md": "Refunds within 30 days."},
            "fixture": "fixtures/extra.json",
        },
        outcomes=[],
    )


def inline_workflow_with_fixture() -> Any:
    return parse_agent_workflow(json.dumps(with_fixture()))


async def test_inline_workflow_with_a_fixture_needs_a_fixture_root() -> None:
    workflow = inline_workflow_with_fixture()
    target = ScriptTarget([TargetResponse(text="Done.")])
    with pytest.raises(WorkflowError) as caught:
        await ArtemisKit().create_workflow_session(workflow=workflow, target=target)
    assert caught.value.reason == "fixture_root_required"
    with pytest.raises(WorkflowError) as caught:
        create_agent_workflow_session(workflow=workflow, target=target)
    assert caught.value.reason == "fixture_root_required"
    assert target.calls == 0


async def test_inline_workflow_fixture_resolves_under_the_given_root(
    tmp_path: Path,
) -> None:
    fixtures = tmp_path / "fixtures"
    fixtures.mkdir()
    extra = {"files": {"docs/extra.md": "from the fixture"}}
    (fixtures / "extra.json").write_text(json.dumps(extra), encoding="utf-8")
    target = ScriptTarget([TargetResponse(text="Done.")])
    result = await ArtemisKit().run_workflow(
        workflow=inline_workflow_with_fixture(), target=target, fixture_root=tmp_path
    )
    assert result.state is not None
    assert result.state["files"]["docs/extra.md"] == "from the fixture"


async def test_file_workflow_uses_its_folder_as_fixture_root(tmp_path: Path) -> None:
    fixtures = tmp_path / "fixtures"
    fixtures.mkdir()
    extra = {"files": {"docs/extra.md": "from the fixture"}}
    (fixtures / "extra.json").write_text(json.dumps(extra), encoding="utf-8")
    path = write_workflow(tmp_path, with_fixture(), [{"text": "Done."}])
    result = await ArtemisKit().run_workflow(workflow=path)
    assert result.state is not None
    assert result.state["files"]["docs/extra.md"] == "from the fixture"


async def test_a_relative_path_resolves_in_the_working_directory_of_each_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kit = ArtemisKit()
    for name in ("first", "second"):
        folder = tmp_path / name
        folder.mkdir()
        write_workflow(folder, workflow_dict(outcomes=[]), [{"text": name}])
    for name in ("first", "second", "first"):
        monkeypatch.chdir(tmp_path / name)
        result = await kit.run_workflow(workflow="workflow.yaml")
        assert result.transcript[-1].content == name


async def test_client_and_target_together_are_refused(tmp_path: Path) -> None:
    path = write_workflow(tmp_path)
    client = CountingClient()
    target = ScriptTarget([TargetResponse(text="Done.")])
    kit = ArtemisKit()
    with pytest.raises(SessionStateError) as caught:
        await kit.run_workflow(workflow=path, client=client, target=target)
    assert caught.value.reason == "invalid_option"
    assert caught.value.exit_code == 2
    with pytest.raises(SessionStateError):
        await kit.create_workflow_session(workflow=path, client=client, target=target)
    assert (client.calls, target.calls) == (0, 0)


async def test_two_sessions_of_one_workflow_do_not_share_state(
    tmp_path: Path,
) -> None:
    workflow = await load_agent_workflow(
        write_workflow(
            tmp_path,
            workflow_dict(
                environment={
                    "files": {"docs/policy.md": "Refunds within 30 days."},
                    "state": {"records": {"tickets": {"T-1": {"status": "open"}}}},
                },
                tools=[
                    {"name": "write_file", "allow": {"paths": ["out/*.md"]}},
                    {"name": "update_record", "allow": {"tables": ["tickets"]}},
                    {"name": "draft_message", "allow": {"recipients": ["*"]}},
                ],
                outcomes=[],
            ),
        )
    )

    def call(call_id: str, name: str, **arguments: Any) -> ToolCall:
        return ToolCall(id=call_id, name=name, arguments=json.dumps(arguments))

    changes = (
        call("a", "write_file", path="out/a.md", content="x"),
        call("b", "update_record", table="tickets", id="T-1", fields={"status": "x"}),
        call("c", "draft_message", to="ops@example.com", subject="s", body="b"),
    )
    writer = ScriptTarget(
        [TargetResponse(tool_calls=changes), TargetResponse(text="Changed.")]
    )
    kit = ArtemisKit()
    first = await kit.create_workflow_session(
        workflow=workflow, target=writer, fixture_root=tmp_path
    )
    second = await kit.create_workflow_session(
        workflow=workflow,
        target=ScriptTarget([TargetResponse(text="Nothing.")]),
        fixture_root=tmp_path,
    )
    changed = await first.run()
    untouched = await second.run()
    assert changed.state is not None
    assert changed.state["records"]["tickets"]["T-1"] == {"status": "x"}
    assert "out/a.md" in changed.state["files"]
    assert len(changed.state["drafts"]) == 1
    assert untouched.state is not None
    assert untouched.state["records"]["tickets"]["T-1"] == {"status": "open"}
    assert untouched.state["files"] == {"docs/policy.md": "Refunds within 30 days."}
    assert untouched.state["drafts"] == []
    assert workflow.environment.state.records == {
        "tickets": {"T-1": {"status": "open"}}
    }
    assert workflow.environment.files == {"docs/policy.md": "Refunds within 30 days."}
