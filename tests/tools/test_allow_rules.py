"""Resource permissions through the SDK: each `allow` rule admits and denies.

Every case runs a workflow whose model makes one tool call, and reads the verdict
from the record: a denial stops the run (``on_denial: stop``) with its reason code,
before anything executes; an admitted call runs. Glob syntax itself is covered in
``test_allow.py``.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from artemiskit import WorkflowError
from artemiskit.workflow import ToolAllow, ToolDeclaration
from tests._builders import workflow_dict
from tests._environments import DictFactory
from tests._runs import call, calling, run, workflow_of

RECORDS = {"tickets": {"T-1": {"status": "open"}, "T-2": {"status": "open"}}}
DOCUMENTS = {"policy-1": {"title": "Policy", "content": "Refunds."}}


def one_tool(name: str, allow: dict[str, Any]) -> dict[str, Any]:
    return workflow_dict(
        environment={
            "files": {"docs/policy.md": "Refunds.", "secret.md": "s3cret"},
            "state": {"records": RECORDS, "documents": DOCUMENTS},
        },
        tools=[{"name": name, "allow": allow}],
        outcomes=[],
    )


async def verdict(name: str, allow: dict[str, Any], arguments: Any) -> str | None:
    """The denial reason of one call, or ``None`` when it was admitted and ran."""
    result = await run(one_tool(name, allow), [calling(call(name, arguments))])
    record = result.record
    if record.execution.status == "policy_denied":
        assert record.policy.denial_reasons == {record.execution.reason: 1}
        assert record.exit_code == 4
        assert record.budget.used.tool_calls == 1
        assert record.operations.total == 1  # only the model request ran
        return record.execution.reason
    assert record.policy.denials == 0
    assert [(t.tool, t.calls) for t in record.tools] == [(name, 1)]
    return None


@pytest.mark.parametrize(
    ("name", "arguments"),
    [
        ("read_file", {"path": "docs/../secret.md"}),
        ("write_file", {"path": "docs/../secret.md", "content": "x"}),
        ("delete_file", {"path": "docs/../secret.md"}),
        ("read_file", {"path": "/docs/policy.md"}),
    ],
)
async def test_path_outside_the_rules_is_denied_even_if_the_glob_matches(
    name: str, arguments: dict[str, str]
) -> None:
    assert await verdict(name, {"paths": ["docs/**"]}, arguments) == "invalid_path"


async def test_a_custom_environment_never_sees_a_traversing_path() -> None:
    # DictEnvironment applies no path rules of its own: the engine must.
    data = one_tool("read_file", {"paths": ["docs/**"]})
    data["policy"] = {"on_denial": "report"}
    factory = DictFactory()
    traversal = call("read_file", {"path": "docs/../secret.md"})
    result = await run(data, [calling(traversal)], environment=factory)
    assert result.record.policy.denial_reasons == {"invalid_path": 1}
    assert all("s3cret" not in (m.content or "") for m in result.transcript)
    assert [e.files["secret.md"] for e in factory.created] == ["s3cret"]


@pytest.mark.parametrize("name", ["read_file", "delete_file"])
async def test_path_outside_the_globs_is_denied(name: str) -> None:
    reason = await verdict(name, {"paths": ["docs/**"]}, {"path": "secret.md"})
    assert reason == "path_not_allowed"


@pytest.mark.parametrize(
    "path", ["docs/policy.md", "./docs//policy.md", "docs/./policy.md"]
)
@pytest.mark.parametrize("glob", ["docs/**", "docs/*.md"])
async def test_path_inside_the_globs_is_admitted_once_normalized(
    glob: str, path: str
) -> None:
    assert await verdict("read_file", {"paths": [glob]}, {"path": path}) is None


@pytest.mark.parametrize("directory", ["../", "docs/../..", "/etc"])
async def test_list_files_directory_outside_the_rules_is_denied(
    directory: str,
) -> None:
    allow = {"paths": ["docs/**"]}
    reason = await verdict("list_files", allow, {"directory": directory})
    assert reason == "invalid_path"


@pytest.mark.parametrize(
    "arguments",
    [
        {},
        {"directory": "."},
        {"directory": "./"},
        {"directory": "docs"},
    ],
)
async def test_list_files_is_filtered_not_denied(arguments: dict[str, str]) -> None:
    result = await run(
        one_tool("list_files", {"paths": ["docs/**"]}),
        [calling(call("list_files", arguments))],
    )
    assert result.record.execution.status == "completed"
    assert result.record.policy.denials == 0


async def test_an_empty_directory_fails_the_input_schema_first() -> None:
    allow = {"paths": ["docs/**"]}
    reason = await verdict("list_files", allow, {"directory": ""})
    assert reason == "invalid_arguments"


@pytest.mark.parametrize("name", ["get_record", "update_record"])
async def test_record_id_outside_the_ids_is_denied(name: str) -> None:
    allow = {"tables": ["tickets"], "ids": ["T-1"]}
    arguments: dict[str, Any] = {"table": "tickets", "id": "T-2"}
    if name == "update_record":
        arguments["fields"] = {"status": "closed"}
    assert await verdict(name, allow, arguments) == "id_not_allowed"


async def test_record_id_inside_the_ids_is_admitted_and_written() -> None:
    allow = {"tables": ["tickets"], "ids": ["T-1"], "fields": ["status"]}
    arguments = {"table": "tickets", "id": "T-1", "fields": {"status": "closed"}}
    result = await run(
        one_tool("update_record", allow), [calling(call("update_record", arguments))]
    )
    assert result.record.execution.status == "completed"
    assert result.state is not None
    assert result.state["records"]["tickets"]["T-1"]["status"] == "closed"


@pytest.mark.parametrize("name", ["get_record", "update_record"])
async def test_table_outside_the_tables_is_denied(name: str) -> None:
    arguments: dict[str, Any] = {"table": "users", "id": "T-1"}
    if name == "update_record":
        arguments["fields"] = {"status": "closed"}
    assert await verdict(name, {"tables": ["tickets"]}, arguments) == (
        "table_not_allowed"
    )


async def test_update_of_a_field_outside_the_fields_is_denied_and_changes_nothing() -> (
    None
):
    allow = {"tables": ["tickets"], "fields": ["status"]}
    arguments = {
        "table": "tickets",
        "id": "T-1",
        "fields": {"status": "closed", "owner": "mallory"},
    }
    result = await run(
        one_tool("update_record", allow), [calling(call("update_record", arguments))]
    )
    assert result.record.execution.reason == "field_not_allowed"
    assert result.state is not None
    assert result.state["records"]["tickets"]["T-1"] == {"status": "open"}


async def test_any_id_and_field_when_ids_and_fields_are_not_given() -> None:
    arguments = {"table": "tickets", "id": "T-2", "fields": {"owner": "ops"}}
    assert await verdict("update_record", {"tables": ["tickets"]}, arguments) is None


@pytest.mark.parametrize(
    ("name", "allow", "arguments", "reason"),
    [
        (
            "read_document",
            {"ids": ["doc-*"]},
            {"id": "policy-1"},
            "id_not_allowed",
        ),
        (
            "draft_message",
            {"recipients": ["*@example.com"]},
            {"to": "ops@example.com.evil", "subject": "s", "body": "b"},
            "recipient_not_allowed",
        ),
        (
            "request_approval",
            {"actions": ["refund:*"]},
            {"action": "delete:all", "reason": "r"},
            "action_not_allowed",
        ),
        (
            "delegate_task",
            {"assignees": ["team-*"]},
            {"assignee": "outsider", "task": "t"},
            "assignee_not_allowed",
        ),
    ],
)
async def test_each_resource_kind_has_its_denial_reason(
    name: str, allow: dict[str, Any], arguments: dict[str, str], reason: str
) -> None:
    assert await verdict(name, allow, arguments) == reason


@pytest.mark.parametrize(
    ("name", "allow", "arguments"),
    [
        ("read_document", {"ids": ["policy-*"]}, {"id": "policy-1"}),
        (
            "draft_message",
            {"recipients": ["*@example.com"]},
            {"to": "ops@example.com", "subject": "s", "body": "b"},
        ),
        (
            "request_approval",
            {"actions": ["refund:*"]},
            {"action": "refund:T-1", "reason": "r"},
        ),
        (
            "delegate_task",
            {"assignees": ["team-*"]},
            {"assignee": "team-ops", "task": "t"},
        ),
    ],
)
async def test_each_resource_kind_admits_a_matching_resource(
    name: str, allow: dict[str, Any], arguments: dict[str, str]
) -> None:
    assert await verdict(name, allow, arguments) is None


@pytest.mark.parametrize(
    ("name", "key", "arguments"),
    [
        ("read_file", "paths", {"path": "docs/policy.md"}),
        ("read_document", "ids", {"id": "policy-1"}),
        ("get_record", "tables", {"table": "tickets", "id": "T-1"}),
        ("draft_message", "recipients", {"to": "a@b.c", "subject": "s", "body": "b"}),
        ("request_approval", "actions", {"action": "a", "reason": "r"}),
        ("delegate_task", "assignees", {"assignee": "a", "task": "t"}),
    ],
)
async def test_an_empty_pattern_list_allows_nothing(
    name: str, key: str, arguments: dict[str, str]
) -> None:
    data = one_tool(name, {key: []})
    with pytest.raises(WorkflowError, match="must not be empty"):
        workflow_of(data)
    # A workflow built in Python skips the loader: empty still means nothing.
    loaded = workflow_of(one_tool(name, {key: ["*"]}))
    empty = attrs.evolve(
        loaded, tools=(ToolDeclaration(name=name, allow=ToolAllow(**{key: ()})),)
    )
    result = await run(empty, [calling(call(name, arguments))])
    assert result.record.execution.status == "policy_denied"
    assert result.record.exit_code == 4


async def test_argument_over_the_size_bound_is_denied_before_it_runs() -> None:
    arguments = {"path": "docs/big.md", "content": "x" * (256 * 1024 + 1)}
    reason = await verdict("write_file", {"paths": ["docs/**"]}, arguments)
    assert reason == "argument_too_large"


async def test_argument_at_the_size_bound_is_admitted() -> None:
    arguments = {"path": "docs/big.md", "content": "x" * (256 * 1024)}
    assert await verdict("write_file", {"paths": ["docs/**"]}, arguments) is None


async def test_oversize_argument_nested_in_fields_is_denied() -> None:
    arguments = {"table": "tickets", "id": "T-1", "fields": {"note": "y" * 300_000}}
    reason = await verdict("update_record", {"tables": ["tickets"]}, arguments)
    assert reason == "argument_too_large"


async def test_an_oversize_key_is_denied() -> None:
    arguments = {"table": "tickets", "id": "T-1", "fields": {"k" * 300_000: "v"}}
    reason = await verdict("update_record", {"tables": ["tickets"]}, arguments)
    assert reason == "argument_too_large"


async def test_size_is_checked_before_the_schema_even_inside_unknown_lists() -> None:
    arguments = {"path": "docs/policy.md", "extra": [1, ["z" * 300_000]]}
    reason = await verdict("read_file", {"paths": ["docs/**"]}, arguments)
    assert reason == "argument_too_large"


async def test_small_unknown_values_fail_the_schema_not_the_size() -> None:
    arguments = {"path": "docs/policy.md", "extra": [1, 2.5, None, True, {"a": [""]}]}
    reason = await verdict("read_file", {"paths": ["docs/**"]}, arguments)
    assert reason == "invalid_arguments"


async def test_numbers_and_booleans_are_not_oversize() -> None:
    arguments = {"table": "tickets", "id": "T-1", "fields": {"n": 3, "ok": True}}
    assert await verdict("update_record", {"tables": ["tickets"]}, arguments) is None


@pytest.mark.parametrize("raw", ["[1, 2]", '"path"', "3", "null", "{not json"])
async def test_arguments_that_are_not_a_json_object_are_invalid(raw: str) -> None:
    reason = await verdict("read_file", {"paths": ["docs/**"]}, raw)
    assert reason == "invalid_arguments"


@pytest.mark.parametrize("raw", ["", "  ", "{}"])
async def test_empty_arguments_mean_no_arguments(raw: str) -> None:
    assert await verdict("list_files", {"paths": ["docs/**"]}, raw) is None


async def test_missing_arguments_and_undeclared_tools_are_denied() -> None:
    reason = await verdict("read_file", {"paths": ["docs/**"]}, {})
    assert reason == "invalid_arguments"
    result = await run(
        one_tool("read_file", {"paths": ["docs/**"]}),
        [calling(call("write_file", {"path": "docs/x.md", "content": "x"}))],
    )
    assert result.record.execution.reason == "undeclared_tool"
