"""User-defined tools go through everything the contract says about tools.

They are registered from Python (``ArtemisKit(tools=...)``) or the CLI
(``--tools MODULE:ATTR``) and run the documented example of docs/extending.md.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import attrs
import pytest
from ruamel.yaml import YAML

from artemiskit import (
    ArtemisKit,
    CheckpointOptions,
    Tool,
    ToolDefinitionError,
    WorkflowError,
    load_agent_workflow,
    parse_agent_workflow,
)
from artemiskit.records import record_to_dict
from artemiskit.tools import ToolResource
from tests import _cli
from tests._runs import ReplayTarget, call, calling
from tests.environments._docker import SANDBOX_IMAGE
from tests.tools._order_tools import (
    EXAMPLE,
    LOOKUP_ORDER,
    MALFORMED_LOOKUP,
    TOOLS,
    TOOLS_V2,
)

ROOT = Path(__file__).resolve().parents[2]
TOOLS_REF = "tests.tools._order_tools:TOOLS"


def example_data() -> dict[str, Any]:
    loaded: dict[str, Any] = YAML(typ="safe").load(EXAMPLE / "workflow.yaml")
    return loaded


def copy_example(folder: Path, **changes: Any) -> Path:
    """The example workflow and its script in ``folder``, top-level keys changed."""
    data = {**example_data(), **changes}
    path = folder / "workflow.yaml"
    path.write_text(json.dumps(data), encoding="utf-8")
    shutil.copy(EXAMPLE / "custom-tool.script.yaml", folder)
    return path


def akit(*arguments: str) -> subprocess.CompletedProcess[str]:
    return _cli.akit(*arguments, cwd=ROOT)


def sandbox_config(folder: Path) -> Path:
    path = folder / "artemis.config.yaml"
    path.write_text(json.dumps({"sandbox": {"image": SANDBOX_IMAGE}}))
    return path


# --- SDK -----------------------------------------------------------------------


async def test_registered_tools_run_with_a_fault_a_retry_and_their_own_state() -> None:
    result = await ArtemisKit(tools=TOOLS).run_workflow(
        workflow=EXAMPLE / "workflow.yaml"
    )
    record = record_to_dict(result.record)
    assert record["exit_code"] == 0
    assert record["task_verification"]["status"] == "passed"
    summary = {entry["tool"]: entry for entry in record["tools"]}
    assert summary["lookup_order"]["attempts"] == 2  # the declared fault, retried
    assert summary["lookup_order"]["succeeded"] == 1
    assert record["budget"]["used"]["tool_calls"] == 3
    assert record["state_changes"]["entries"][0]["tool"] == "file_refund"
    assert record["state_changes"]["entries"][0]["resource"] == "tool_state"
    assert result.state is not None
    (refund,) = result.state["tools"]["file_refund"]["refunds"]
    assert refund["order_id"] == "A-100"
    assert refund["status"] == "pending"


async def test_admission_denies_by_input_schema_then_by_allow() -> None:
    data = {**example_data(), "policy": {"on_denial": "report"}, "faults": []}
    data["outcomes"] = []
    workflow = parse_agent_workflow(json.dumps(data), tools=TOOLS)
    target = ReplayTarget(
        [
            calling(call("lookup_order", {"id": "not an order id"}, call_id="c1")),
            calling(call("lookup_order", {"id": "B-7"}, call_id="c2")),
            calling(call("lookup_order", {"id": "A-100"}, call_id="c3")),
        ]
    )
    result = await ArtemisKit(tools=TOOLS).run_workflow(
        workflow=workflow, target=target
    )
    record = record_to_dict(result.record)
    assert record["policy"]["denial_reasons"] == {
        "invalid_arguments": 1,
        "resource_not_allowed": 1,
    }
    answers = [m for m in target.requests[-1].messages if m.role == "tool"]
    assert [
        json.loads(m.content or "{}").get("error", {}).get("code") for m in answers
    ] == [
        "policy_denied",
        "policy_denied",
        None,
    ]
    assert json.loads(answers[2].content or "{}")["status"] == "delivered"


async def test_a_denial_stops_the_run_with_exit_4_by_default() -> None:
    data = {**example_data(), "faults": [], "outcomes": []}
    workflow = parse_agent_workflow(json.dumps(data), tools=TOOLS)
    target = ReplayTarget(
        [calling(call("file_refund", {"order_id": "Z-1", "amount": 1, "reason": "x"}))]
    )
    result = await ArtemisKit(tools=TOOLS).run_workflow(
        workflow=workflow, target=target
    )
    assert result.record.exit_code == 4
    assert result.state is not None
    assert result.state["tools"]["file_refund"] == {"refunds": []}


async def test_a_malformed_output_is_invalid_evidence_never_shown_to_the_model() -> (
    None
):
    tools = (MALFORMED_LOOKUP, TOOLS[1])
    data = {**example_data(), "faults": [], "outcomes": []}
    workflow = parse_agent_workflow(json.dumps(data), tools=tools)
    target = ReplayTarget([calling(call("lookup_order", {"id": "A-100"}))])
    result = await ArtemisKit(tools=tools).run_workflow(
        workflow=workflow, target=target
    )
    record = record_to_dict(result.record)
    assert record["exit_code"] == 7
    assert record["execution"]["status"] == "invalid_evidence"
    assert len(target.requests) == 1  # the model was never asked again


async def test_a_workflow_naming_an_unregistered_tool_is_invalid_with_a_hint() -> None:
    with pytest.raises(WorkflowError) as caught:
        await load_agent_workflow(EXAMPLE / "workflow.yaml")
    assert caught.value.exit_code == 2
    assert all("--tools" in line for line in caught.value.errors)
    assert await load_agent_workflow(EXAMPLE / "workflow.yaml", tools=TOOLS)


def test_a_tool_may_not_take_a_built_in_name() -> None:
    from artemiskit.tools import CATALOGUE

    with pytest.raises(ToolDefinitionError) as caught:
        ArtemisKit(tools=[CATALOGUE["read_file"]])
    assert caught.value.reason == "tool_name_clash"
    with pytest.raises(ToolDefinitionError):
        ArtemisKit(tools=[LOOKUP_ORDER, LOOKUP_ORDER])


def test_an_invalid_tool_is_refused_when_it_is_made() -> None:
    async def handler(arguments: Any, ctx: Any) -> Any:
        raise AssertionError

    with pytest.raises(ToolDefinitionError, match="not an allow key"):
        Tool(
            name="lookup",
            description="d",
            input_schema={"type": "object"},
            output_schema={"type": "object"},
            effect="read",
            handler=handler,
            resource=ToolResource(key="orders"),
        )
    with pytest.raises(ToolDefinitionError, match="name"):
        Tool(
            name="Lookup Order",
            description="d",
            input_schema={"type": "object"},
            output_schema={"type": "object"},
            effect="read",
            handler=handler,
        )


# --- pause here, resume in another process --------------------------------------


def pause_then_resume(
    folder: Path, *extra: str, resume_tools: str = TOOLS_REF
) -> subprocess.CompletedProcess[str]:
    workflow = str(folder / "workflow.yaml")
    checkpoints = str(folder / "checkpoint")
    paused = akit(
        "workflow",
        "run",
        workflow,
        "--tools",
        TOOLS_REF,
        *extra,
        "--checkpoint-dir",
        checkpoints,
        "--pause-after-actions",
        "4",
    )
    assert paused.returncode == 10, paused.stderr
    return akit(
        "workflow",
        "resume",
        workflow,
        "--tools",
        resume_tools,
        *extra,
        "--checkpoint-dir",
        checkpoints,
        "--state-output",
        str(folder / "state.json"),
    )


def test_a_paused_run_resumes_in_another_process(tmp_path: Path) -> None:
    copy_example(tmp_path)
    resumed = pause_then_resume(tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    state = json.loads((tmp_path / "state.json").read_text())
    assert state["tools"]["file_refund"]["refunds"][0]["status"] == "pending"


def test_a_resume_under_another_tool_version_is_refused(tmp_path: Path) -> None:
    copy_example(tmp_path)
    resumed = pause_then_resume(
        tmp_path, resume_tools="tests.tools._order_tools:TOOLS_V2"
    )
    assert resumed.returncode == 2, resumed.stderr
    assert "catalogue_digest" in resumed.stderr
    assert "reason: incompatible_checkpoint" in resumed.stderr
    assert not (tmp_path / "state.json").exists()


# --- the CLI ---------------------------------------------------------------------


def test_scenario_validate_takes_the_tools_option(tmp_path: Path) -> None:
    workflow = str(copy_example(tmp_path))
    assert akit("scenario", "validate", workflow, "--tools", TOOLS_REF).returncode == 0
    refused = akit("scenario", "validate", workflow)
    assert refused.returncode == 2
    assert "--tools MODULE:ATTR" in refused.stderr
    assert "Traceback" not in refused.stderr


@pytest.mark.parametrize(
    "reference",
    [
        "no_colon",
        "tests.tools.missing_module:TOOLS",
        "tests.tools._order_tools:NOPE",
        "tests.tools._order_tools:EXAMPLE",
    ],
)
def test_a_bad_tools_reference_is_a_usage_error(tmp_path: Path, reference: str) -> None:
    workflow = str(copy_example(tmp_path))
    done = akit("scenario", "validate", workflow, "--tools", reference)
    assert done.returncode == 2
    assert "--tools" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_clashing_registration_is_refused_by_the_cli(tmp_path: Path) -> None:
    workflow = str(copy_example(tmp_path))
    clash = "tests.tools._order_tools:CLASHING"
    for command in (("scenario", "validate"), ("workflow", "run")):
        done = akit(*command, workflow, "--tools", clash)
        assert done.returncode == 1, done.stderr
        assert "already in the catalogue" in done.stderr
        assert "Traceback" not in done.stderr


def test_workflow_run_and_preflight_take_the_tools_option(tmp_path: Path) -> None:
    workflow = str(copy_example(tmp_path))
    ran = akit(
        "workflow",
        "run",
        workflow,
        "--tools",
        TOOLS_REF,
        "--output",
        str(tmp_path / "record.json"),
    )
    assert ran.returncode == 0, ran.stderr
    record = json.loads((tmp_path / "record.json").read_text())
    assert {entry["tool"] for entry in record["tools"]} == {
        "lookup_order",
        "file_refund",
    }
    # The example's script does not answer the probe: the workflow loads with
    # the tools (the probe runs and fails, exit 3) and without them it is invalid.
    probed = akit("workflow", "preflight", workflow, "--tools", TOOLS_REF)
    assert probed.returncode == 3, probed.stderr
    assert "preflight_failed" in probed.stderr
    assert akit("workflow", "preflight", workflow).returncode == 2
    assert akit("workflow", "run", workflow).returncode == 2


# --- the Docker sandbox -----------------------------------------------------------


@pytest.mark.docker
@pytest.mark.parametrize("anyio_backend", ["asyncio"])  # the sandbox needs asyncio
async def test_registered_tools_run_in_the_docker_sandbox(tmp_path: Path) -> None:
    environment = {**example_data()["environment"], "kind": "sandbox"}
    workflow = copy_example(tmp_path, environment=environment)
    kit = ArtemisKit(config=sandbox_config(tmp_path), tools=TOOLS)
    result = await kit.run_workflow(workflow=workflow)
    record = record_to_dict(result.record)
    assert record["environment_kind"] == "sandbox"
    assert record["exit_code"] == 0, record["execution"]
    assert result.state is not None
    assert result.state["tools"]["file_refund"]["refunds"][0]["order_id"] == "A-100"


@pytest.mark.docker
def test_a_sandbox_run_pauses_and_resumes_in_another_process(tmp_path: Path) -> None:
    environment = {**example_data()["environment"], "kind": "sandbox"}
    copy_example(tmp_path, environment=environment)
    config = str(sandbox_config(tmp_path))
    resumed = pause_then_resume(tmp_path, "--config", config)
    assert resumed.returncode == 0, resumed.stderr
    state = json.loads((tmp_path / "state.json").read_text())
    assert state["tools"]["file_refund"]["refunds"][0]["status"] == "pending"
    refused_dir = tmp_path / "again"
    refused_dir.mkdir()
    copy_example(refused_dir, environment=environment)
    refused = pause_then_resume(
        refused_dir,
        "--config",
        config,
        resume_tools="tests.tools._order_tools:TOOLS_V2",
    )
    assert refused.returncode == 2
    assert "reason: incompatible_checkpoint" in refused.stderr


def test_the_tools_are_the_documented_example() -> None:
    assert TOOLS_V2[1].version == "2"
    assert [tool.name for tool in TOOLS] == ["lookup_order", "file_refund"]


# --- registered from Python: pause here, resume in another process ---------------

RESUME_SCRIPT = """
import sys
import anyio
import attrs
from artemiskit import ArtemisKit, CheckpointError, CheckpointOptions
from tests.tools import _order_tools

async def main() -> None:
    kit = ArtemisKit(tools=getattr(_order_tools, sys.argv[1]))
    options = CheckpointOptions(directory=sys.argv[3], mode="resume")
    try:
        result = await kit.run_workflow(workflow=sys.argv[2], checkpoint=options)
    except CheckpointError as exc:
        print("refused:", exc.reason)
        return
    assert result.state is not None
    print("exit code:", result.record.exit_code)
    print("refunds:", len(result.state["tools"]["file_refund"]["refunds"]))

anyio.run(main)
"""


def resume_in_another_process(
    workflow: Path, checkpoints: Path, tools: str
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", RESUME_SCRIPT, tools, str(workflow), str(checkpoints)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


async def test_a_pause_from_python_resumes_in_another_process(tmp_path: Path) -> None:
    workflow = copy_example(tmp_path)
    checkpoints = tmp_path / "checkpoint"
    kit = ArtemisKit(tools=TOOLS)
    paused = await kit.run_workflow(
        workflow=workflow,
        checkpoint=CheckpointOptions(directory=checkpoints),
        pause_after_actions=4,
    )
    assert paused.record.exit_code == 10
    refused = resume_in_another_process(workflow, checkpoints, "TOOLS_V2")
    assert "refused: incompatible_checkpoint" in refused.stdout, refused.stderr
    resumed = resume_in_another_process(workflow, checkpoints, "TOOLS")
    assert "exit code: 0" in resumed.stdout, resumed.stderr
    assert "refunds: 1" in resumed.stdout


async def test_custom_tool_arguments_and_state_stay_out_of_the_record() -> None:
    secret = "SENTINEL-refund-reason-91c2"
    data = {**example_data(), "faults": [], "outcomes": []}
    workflow = parse_agent_workflow(json.dumps(data), tools=TOOLS)
    arguments = {"order_id": "A-100", "amount": 3, "reason": secret}
    target = ReplayTarget([calling(call("file_refund", arguments))])
    session = await ArtemisKit(tools=TOOLS).create_workflow_session(
        workflow=workflow, target=target
    )
    seen: list[str] = []

    async def collect() -> None:
        async for event in session.events():
            seen.append(repr(event))

    async with anyio.create_task_group() as group:
        group.start_soon(collect)
        await anyio.wait_all_tasks_blocked()
        result = await session.run()
    assert result.state is not None
    assert result.state["tools"]["file_refund"]["refunds"][0]["id"]
    assert secret not in json.dumps(record_to_dict(result.record))
    assert seen
    assert not any(secret in line for line in seen)
    assert secret not in repr(session.state)


def test_a_state_section_must_be_a_json_object() -> None:
    with pytest.raises(ToolDefinitionError, match="JSON object"):
        attrs.evolve(TOOLS[1], state={"refunds": {1, 2}})
