"""The record family through the SDK: ``get_record`` and ``update_record``.

``get_record`` reads and never changes state; ``update_record`` merges fields into a
record (creating it, and its table, when missing) and leaves digest-only evidence.
``allow`` names the tables and, optionally, the ids and the fields a call may touch.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from artemiskit.records import record_to_dict
from tests._builders import workflow_dict
from tests._runs import call, calling, run
from tests.tools._family import failures, output_of, run_with_events, tool_answers

SENTINEL = "SENTINEL-record-value-2b7d"
RECORDS: dict[str, dict[str, dict[str, Any]]] = {
    "tickets": {"T-1": {"status": "open", "customer": "c-9"}},
    "orders": {"O-1": {"total": 12}},
}


def records(*tools: dict[str, Any]) -> dict[str, Any]:
    return workflow_dict(
        environment={"state": {"records": copy.deepcopy(RECORDS)}},
        tools=list(tools),
        outcomes=[],
    )


GET = {"name": "get_record", "allow": {"tables": ["*"]}}
UPDATE = {"name": "update_record", "allow": {"tables": ["tickets", "new"]}}


async def test_get_record_returns_the_fields_and_changes_nothing() -> None:
    get = call("get_record", {"table": "tickets", "id": "T-1"})
    result = await run(records(GET), [calling(get)])
    assert result.record.execution.status == "completed"
    assert output_of(result, "get_record") == {
        "table": "tickets",
        "id": "T-1",
        "fields": {"status": "open", "customer": "c-9"},
    }
    assert result.state is not None
    assert result.state["records"] == RECORDS
    assert result.record.state_changes.count == 0


@pytest.mark.parametrize(
    "arguments",
    [{"table": "tickets", "id": SENTINEL}, {"table": SENTINEL, "id": "T-1"}],
    ids=["missing-id", "missing-table"],
)
async def test_get_record_of_a_missing_id_or_table_fails_as_not_found(
    arguments: dict[str, str],
) -> None:
    result, events = await run_with_events(
        records(GET), [calling(call("get_record", arguments))]
    )
    assert result.record.execution.status == "completed"
    ((error, answer),) = tool_answers(result)
    assert error
    assert answer["error"]["code"] == "not_found"
    assert failures(events) == ["not_found"]
    assert [(t.tool, t.failed) for t in result.record.tools] == [("get_record", 1)]
    assert result.state is not None
    assert result.state["records"] == RECORDS
    assert SENTINEL not in str(record_to_dict(result.record))
    assert SENTINEL not in repr(events)


async def test_update_record_merges_fields_with_digest_only_evidence() -> None:
    update = call(
        "update_record",
        {"table": "tickets", "id": "T-1", "fields": {"status": SENTINEL}},
    )
    result = await run(records(UPDATE), [calling(update)])
    assert result.record.execution.status == "completed"
    merged = {"status": SENTINEL, "customer": "c-9"}
    assert output_of(result, "update_record") == {
        "table": "tickets",
        "id": "T-1",
        "fields": merged,
    }
    assert result.state is not None
    assert result.state["records"] == {**RECORDS, "tickets": {"T-1": merged}}
    record = record_to_dict(result.record)
    (change,) = record["state_changes"]["entries"]
    assert change["tool"] == "update_record"
    assert change["resource"] == "record"
    assert change["before"].startswith("sha256:")
    assert change["after"].startswith("sha256:")
    assert change["before"] != change["after"]
    assert SENTINEL not in str(record)


async def test_update_record_creates_a_missing_record_and_table() -> None:
    updates = [
        call("update_record", {"table": "tickets", "id": "T-2", "fields": {"a": 1}}),
        call("update_record", {"table": "new", "id": "N-1", "fields": {"b": True}}),
    ]
    result = await run(records(UPDATE), [calling(u) for u in updates])
    assert output_of(result, "update_record", 1) == {
        "table": "new",
        "id": "N-1",
        "fields": {"b": True},
    }
    assert result.state is not None
    assert result.state["records"]["tickets"]["T-2"] == {"a": 1}
    assert result.state["records"]["tickets"]["T-1"] == RECORDS["tickets"]["T-1"]
    assert result.state["records"]["new"] == {"N-1": {"b": True}}
    changes = record_to_dict(result.record)["state_changes"]["entries"]
    assert [change["before"] for change in changes] == [None, None]


@pytest.mark.parametrize(
    ("allow", "arguments", "reason"),
    [
        (
            {"tables": ["tickets"]},
            {"table": "orders", "id": "O-1"},
            "table_not_allowed",
        ),
        (
            {"tables": ["tickets"], "ids": ["T-2"]},
            {"table": "tickets", "id": "T-1"},
            "id_not_allowed",
        ),
        (
            {"tables": ["tickets"], "fields": ["status"]},
            {"table": "tickets", "id": "T-1"},
            "field_not_allowed",
        ),
    ],
)
async def test_update_record_outside_allow_is_denied_and_changes_nothing(
    allow: dict[str, list[str]], arguments: dict[str, str], reason: str
) -> None:
    tool = {"name": "update_record", "allow": allow}
    update = call("update_record", {**arguments, "fields": {"customer": SENTINEL}})
    result = await run(records(tool), [calling(update)])
    record = record_to_dict(result.record)
    assert record["exit_code"] == 4
    assert record["policy"]["denial_reasons"] == {reason: 1}
    assert record["state_changes"]["count"] == 0
    assert result.state is not None
    assert result.state["records"] == RECORDS
    assert SENTINEL not in str(record)


async def test_get_record_outside_allowed_ids_is_denied() -> None:
    tool = {"name": "get_record", "allow": {"tables": ["tickets"], "ids": ["T-2"]}}
    get = call("get_record", {"table": "tickets", "id": "T-1"})
    result = await run(records(tool), [calling(get)])
    record = record_to_dict(result.record)
    assert record["exit_code"] == 4
    assert record["policy"]["denial_reasons"] == {"id_not_allowed": 1}
