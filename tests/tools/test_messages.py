"""The message family through the SDK: drafts, approval requests, delegations.

All three are write tools over the detached local state, and all three stay local: a
draft is never sent, an approval request stays pending, a delegated task is a pending
record that no agent runs. Each appends an entry with a generated id and leaves
digest-only evidence.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from artemiskit import ArtemisKit
from artemiskit.records import record_to_dict
from tests._builders import workflow_dict
from tests._runs import ReplayTarget, call, calling, run, workflow_of
from tests.tools._family import output_of, run_with_events

SENTINEL = "SENTINEL-message-body-93ad"
TOOLS = [
    {"name": "draft_message", "allow": {"recipients": ["*@example.com"]}},
    {"name": "request_approval", "allow": {"actions": ["refund"]}},
    {"name": "delegate_task", "allow": {"assignees": ["billing"]}},
]
DRAFT = call(
    "draft_message", {"to": "ops@example.com", "subject": "Done", "body": SENTINEL}
)
APPROVAL = call("request_approval", {"action": "refund", "reason": SENTINEL})
DELEGATION = call("delegate_task", {"assignee": "billing", "task": SENTINEL})


def messages(**changes: Any) -> dict[str, Any]:
    return workflow_dict(environment={}, tools=TOOLS, outcomes=[], **changes)


@pytest.mark.parametrize(
    ("tool_call", "collection", "entry", "status"),
    [
        (
            DRAFT,
            "drafts",
            {"to": "ops@example.com", "subject": "Done", "body": SENTINEL},
            "draft",
        ),
        (APPROVAL, "approvals", {"action": "refund", "reason": SENTINEL}, "pending"),
        (
            DELEGATION,
            "delegations",
            {"assignee": "billing", "task": SENTINEL},
            "pending",
        ),
    ],
    ids=["draft_message", "request_approval", "delegate_task"],
)
async def test_each_tool_keeps_a_local_entry_with_digest_only_evidence(
    tool_call: Any, collection: str, entry: dict[str, str], status: str
) -> None:
    result, events = await run_with_events(messages(), [calling(tool_call)])
    assert result.record.execution.status == "completed"
    resource = collection[:-1]
    output = output_of(result, tool_call.name)
    assert output["status"] == status
    assert re.fullmatch(rf"{resource}-\d+", output[f"{resource}_id"])
    assert result.state is not None
    assert result.state[collection] == [
        {"id": output[f"{resource}_id"], **entry, "status": status}
    ]
    others = {"drafts", "approvals", "delegations"} - {collection}
    assert all(result.state[other] == [] for other in others)
    record = record_to_dict(result.record)
    (change,) = record["state_changes"]["entries"]
    assert change["tool"] == tool_call.name
    assert change["resource"] == resource
    assert change["before"] is None
    assert change["after"].startswith("sha256:")
    assert SENTINEL not in str(record)
    assert SENTINEL not in repr(events)


async def test_generated_ids_are_distinct_within_a_run() -> None:
    result = await run(messages(), [calling(DRAFT), calling(DRAFT), calling(APPROVAL)])
    assert result.state is not None
    ids = [d["id"] for d in result.state["drafts"]]
    ids += [a["id"] for a in result.state["approvals"]]
    assert len(ids) == len(set(ids)) == 3


async def test_a_draft_is_never_sent_and_nothing_else_runs() -> None:
    result, events = await run_with_events(messages(), [calling(DRAFT)])
    admitted = [e.tool for e in events if e.type == "operation_admitted" and e.tool]
    assert admitted == ["draft_message"]
    # Two model requests and the draft: no operation delivers anything.
    assert result.record.operations.total == 3
    assert result.record.operations.succeeded == 3
    assert result.state is not None
    assert [d["status"] for d in result.state["drafts"]] == ["draft"]
    assert result.state["files"] == {}


async def test_an_approval_stays_pending_through_later_turns() -> None:
    data = messages(
        conversation={"turns": [{"user": "Ask for approval."}, {"user": "Go on."}]}
    )
    result = await run(data, [calling(APPROVAL)])
    assert result.record.execution.status == "completed"
    assert result.state is not None
    assert [a["status"] for a in result.state["approvals"]] == ["pending"]


async def test_a_delegated_task_runs_no_agent() -> None:
    target = ReplayTarget([calling(DELEGATION)])
    result = await ArtemisKit().run_workflow(
        workflow=workflow_of(messages()), target=target
    )
    assert result.record.execution.status == "completed"
    # The delegation and the final answer: the only model requests of the run.
    assert len(target.requests) == 2
    assert result.record.budget.used.model_requests == 2
    assert result.state is not None
    assert [d["status"] for d in result.state["delegations"]] == ["pending"]


@pytest.mark.parametrize(
    ("tool_call", "reason"),
    [
        (
            call("draft_message", {"to": "ceo@else.org", "subject": "s", "body": "b"}),
            "recipient_not_allowed",
        ),
        (
            call("request_approval", {"action": "wire", "reason": "r"}),
            "action_not_allowed",
        ),
        (
            call("delegate_task", {"assignee": "ops", "task": "t"}),
            "assignee_not_allowed",
        ),
    ],
)
async def test_outside_allow_is_denied_and_keeps_nothing(
    tool_call: Any, reason: str
) -> None:
    result = await run(messages(), [calling(tool_call)])
    record = record_to_dict(result.record)
    assert record["exit_code"] == 4
    assert record["policy"]["denial_reasons"] == {reason: 1}
    assert record["state_changes"]["count"] == 0
    assert result.state is not None
    assert result.state["drafts"] == result.state["approvals"] == []
    assert result.state["delegations"] == []
