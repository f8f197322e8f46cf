"""Run a workflow from Python with the offline `scripted` provider and read events.

`ArtemisKit().create_workflow_session()` loads the workflow and builds its target
from trusted configuration (none is needed for `scripted`: the model name
``support-triage`` replays ``support-triage.script.yaml`` beside the workflow).
``session.events()`` is a metadata-only stream: ids, tool names, statuses and reason
codes, never arguments or text.

    python examples/sdk_run.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import anyio

from artemiskit import ArtemisKit, SessionEvent

WORKFLOW = Path(__file__).parent / "support-triage" / "workflow.yaml"


def describe(event: SessionEvent) -> str:
    details = [
        f"{name}={value}"
        for name, value in (
            ("turn", event.turn),
            ("op", event.operation_id),
            ("tool", event.tool),
            ("status", event.status),
            ("reason", event.reason),
        )
        if value is not None
    ]
    return f"#{event.sequence:<3} {event.type:<20} {' '.join(details)}"


async def main() -> int:
    kit = ArtemisKit()  # no config: only `scripted` and explicit clients/targets
    session = await kit.create_workflow_session(workflow=WORKFLOW)
    events = session.events(buffer=256)  # subscribe before run(): see every event

    async def print_events() -> None:
        async for event in events:  # ends when the session finishes
            print(describe(event))

    async with anyio.create_task_group() as group:
        group.start_soon(print_events)
        result = await session.run()

    record = result.record
    used = record.budget.used
    print(f"execution: {record.execution.status}; exit code {record.exit_code}")
    print(
        f"actions {used.actions}/{record.budget.limits.max_actions}, "
        f"tokens {used.input_tokens} in + {used.output_tokens} out "
        f"({record.budget.usage_measurement})"
    )
    print(f"events: {record.events.emitted} emitted, {record.events.dropped} dropped")
    # result.state and result.transcript are sensitive working data: look, never log.
    assert result.state is not None
    ticket = result.state["records"]["tickets"]["T-1"]
    print(f"T-1 is now {ticket['status']}; drafts: {len(result.state['drafts'])}")
    return record.exit_code


if __name__ == "__main__":
    sys.exit(anyio.run(main))
