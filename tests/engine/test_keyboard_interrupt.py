"""A `KeyboardInterrupt` raised inside a run is an interruption: cancelled, exit 130.

An agent's ``respond()`` or a tool handler that raises `KeyboardInterrupt` (its own,
or a library's it calls) interrupts the run: the run stops ``cancelled`` with reason
``interrupted`` (exit 130, SPEC 9), the operation in flight is settled ``unknown``,
cleanup drains and the record is kept. Like every other stop it is reported by the
record, not raised (SIGINT under the CLI never arrives as `KeyboardInterrupt`: the
CLI receives signals itself). The exception's text is never kept.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from artemiskit import ArtemisKit, Tool, parse_agent_workflow
from artemiskit.records import record_to_dict
from artemiskit.tools import ToolContext
from tests._builders import workflow_dict, write_workflow
from tests._runs import ReplayTarget, call, calling

if TYPE_CHECKING:
    from pathlib import Path

    from artemiskit import TargetRequest, TargetResponse

SENTINEL = "SENTINEL-7d1e-interrupt-text"


class _InterruptingTarget:
    """An agent whose ``respond`` raises `KeyboardInterrupt` with a sentinel text."""

    async def respond(self, request: TargetRequest) -> TargetResponse:
        raise KeyboardInterrupt(SENTINEL)


async def _interrupt(arguments: Mapping[str, Any], ctx: ToolContext) -> Any:
    raise KeyboardInterrupt(SENTINEL)


INTERRUPTING_TOOL = Tool(
    name="interrupting",
    description="A tool whose handler raises KeyboardInterrupt.",
    input_schema={"type": "object"},
    output_schema={"type": "object"},
    effect="write",
    handler=_interrupt,
)


async def test_an_agent_raising_keyboard_interrupt_cancels_the_run_with_a_record(
    tmp_path: Path,
) -> None:
    path = write_workflow(tmp_path)
    result = await ArtemisKit().run_workflow(
        workflow=path, target=_InterruptingTarget()
    )
    record = record_to_dict(result.record)
    assert record["exit_code"] == 130
    assert record["execution"]["status"] == "cancelled"
    assert record["execution"]["reason"] == "interrupted"
    assert record["verdict"]["status"] != "passed"
    (request,) = [
        e for e in record["timeline"]["entries"] if e["kind"] == "model_request"
    ]
    assert (request["status"], request["reason"]) == ("unknown", "interrupted")
    assert SENTINEL not in json.dumps(record)
    assert SENTINEL not in repr(result)
    assert SENTINEL not in (result.failure or "")


async def test_a_second_run_call_returns_the_interrupted_result(
    tmp_path: Path,
) -> None:
    path = write_workflow(tmp_path)
    session = await ArtemisKit().create_workflow_session(
        workflow=path, target=_InterruptingTarget()
    )
    first = await session.run()
    again = await session.run()
    assert again is first
    assert session.result is first


async def test_a_tool_handler_raising_keyboard_interrupt_cancels_the_run() -> None:
    data = workflow_dict(
        tools=[{"name": INTERRUPTING_TOOL.name}], outcomes=[], policy={}
    )
    workflow = parse_agent_workflow(json.dumps(data), tools=(INTERRUPTING_TOOL,))
    target = ReplayTarget([calling(call(INTERRUPTING_TOOL.name, {}))])
    result = await ArtemisKit(tools=(INTERRUPTING_TOOL,)).run_workflow(
        workflow=workflow, target=target
    )
    record = record_to_dict(result.record)
    assert record["exit_code"] == 130
    assert (record["execution"]["status"], record["execution"]["reason"]) == (
        "cancelled",
        "interrupted",
    )
    (entry,) = [e for e in record["timeline"]["entries"] if e["kind"] == "tool_call"]
    # a write whose handler was interrupted may have had its effect
    assert (entry["status"], entry["reason"]) == ("unknown", "interrupted")
    assert len(target.requests) == 1  # no model request after the interruption
    assert SENTINEL not in json.dumps(record)
