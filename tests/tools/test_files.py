"""The file family through the SDK.

``read_file`` and ``list_files`` never change state (a listing shows only allowed
paths); ``write_file``, ``append_file`` and ``delete_file`` leave digest-only
evidence of each change.
"""

from __future__ import annotations

import itertools
from typing import Any

from artemiskit.records import record_to_dict
from tests._builders import workflow_dict
from tests._runs import call, calling, run
from tests.tools._family import failures, output_of, run_with_events, tool_answers

SENTINEL = "SENTINEL-appended-text-7f3a"


def appending() -> dict[str, object]:
    return workflow_dict(
        environment={"files": {"out/log.md": "first\n"}},
        tools=[{"name": "append_file", "allow": {"paths": ["out/*.md"]}}],
        outcomes=[{"id": "log", "file": "out/log.md", "equals": "first\nsecond\n"}],
    )


async def test_append_file_appends_and_creates_with_change_evidence() -> None:
    result = await run(
        appending(),
        [
            calling(call("append_file", {"path": "out/log.md", "content": "second\n"})),
            calling(call("append_file", {"path": "out/new.md", "content": SENTINEL})),
        ],
    )
    record = record_to_dict(result.record)
    assert record["exit_code"] == 0
    assert result.state is not None
    assert result.state["files"]["out/log.md"] == "first\nsecond\n"
    assert result.state["files"]["out/new.md"] == SENTINEL
    changes = record["state_changes"]["entries"]
    assert [(c["tool"], c["resource"]) for c in changes] == [
        ("append_file", "file")
    ] * 2
    assert changes[1]["before"] is None
    assert SENTINEL not in str(record)


async def test_append_file_outside_allow_is_denied_before_it_runs() -> None:
    result = await run(
        appending(),
        [calling(call("append_file", {"path": "docs/x.md", "content": "x"}))],
    )
    record = record_to_dict(result.record)
    assert record["exit_code"] == 4
    assert record["policy"]["denial_reasons"] == {"path_not_allowed": 1}
    assert result.state is not None
    assert "docs/x.md" not in result.state["files"]


FILES = {
    "docs/policy.md": "Refunds within 30 days.",
    "docs/faq/a.md": "a",
    "private/notes.md": SENTINEL,
    "out/old.md": "old",
}
FILE_TOOLS = [
    {"name": "read_file", "allow": {"paths": ["docs/**"]}},
    {"name": "list_files", "allow": {"paths": ["docs/**", "out/*.md"]}},
    {"name": "write_file", "allow": {"paths": ["out/*.md"]}},
    {"name": "delete_file", "allow": {"paths": ["out/*.md"]}},
]


def files() -> dict[str, object]:
    return workflow_dict(
        environment={"files": dict(FILES)}, tools=FILE_TOOLS, outcomes=[]
    )


async def test_read_file_returns_the_content_and_changes_nothing() -> None:
    result = await run(
        files(), [calling(call("read_file", {"path": "docs/policy.md"}))]
    )
    assert result.record.execution.status == "completed"
    assert output_of(result, "read_file") == {
        "path": "docs/policy.md",
        "content": "Refunds within 30 days.",
    }
    assert result.state is not None
    assert result.state["files"] == FILES
    assert result.record.state_changes.count == 0


async def test_read_file_of_a_missing_file_fails_as_not_found() -> None:
    missing = call("read_file", {"path": "docs/missing.md"})
    result, events = await run_with_events(files(), [calling(missing)])
    ((error, answer),) = tool_answers(result)
    assert error
    assert answer["error"]["code"] == "not_found"
    assert failures(events) == ["not_found"]


async def test_list_files_shows_only_allowed_paths() -> None:
    listing = [
        calling(call("list_files", {})),
        calling(call("list_files", {"directory": "docs/faq"})),
        calling(call("list_files", {"directory": "private"})),
    ]
    result = await run(files(), listing)
    assert result.record.execution.status == "completed"
    assert output_of(result, "list_files", 0) == {
        "files": ["docs/faq/a.md", "docs/policy.md", "out/old.md"]
    }
    assert output_of(result, "list_files", 1) == {"files": ["docs/faq/a.md"]}
    # A directory outside allow is filtered to nothing, not denied.
    assert output_of(result, "list_files", 2) == {"files": []}
    assert result.record.policy.denials == 0
    assert result.record.state_changes.count == 0


async def test_write_then_delete_with_digest_only_evidence() -> None:
    result = await run(
        files(),
        [
            calling(call("write_file", {"path": "out/new.md", "content": SENTINEL})),
            calling(call("delete_file", {"path": "out/old.md"})),
        ],
    )
    assert result.record.execution.status == "completed"
    assert output_of(result, "write_file") == {
        "path": "out/new.md",
        "size": len(SENTINEL),
    }
    assert output_of(result, "delete_file", 1) == {
        "path": "out/old.md",
        "deleted": True,
    }
    assert result.state is not None
    assert result.state["files"]["out/new.md"] == SENTINEL
    assert "out/old.md" not in result.state["files"]
    record = record_to_dict(result.record)
    changes = record["state_changes"]["entries"]
    assert [(c["tool"], c["before"] is None, c["after"] is None) for c in changes] == [
        ("write_file", True, False),
        ("delete_file", False, True),
    ]
    assert SENTINEL not in str(record)


async def test_delete_file_of_a_missing_file_fails_as_not_found() -> None:
    missing = call("delete_file", {"path": "out/missing.md"})
    result, events = await run_with_events(files(), [calling(missing)])
    assert failures(events) == ["not_found"]
    assert result.record.state_changes.count == 0


async def test_each_change_names_the_digest_the_previous_change_left() -> None:
    path = {"path": "out/chain.md"}
    data = workflow_dict(
        tools=[
            {"name": name, "allow": {"paths": ["out/*.md"]}}
            for name in ("write_file", "append_file", "delete_file")
        ],
        outcomes=[],
    )
    result = await run(
        data,
        [
            calling(call("write_file", {**path, "content": "one"})),
            calling(call("append_file", {**path, "content": " two"})),
            calling(call("write_file", {**path, "content": "three"})),
            calling(call("append_file", {**path, "content": " four"})),
            calling(call("delete_file", path)),
        ],
    )
    assert result.record.execution.status == "completed"
    changes = record_to_dict(result.record)["state_changes"]["entries"]
    assert [c["tool"] for c in changes] == [
        "write_file",
        "append_file",
        "write_file",
        "append_file",
        "delete_file",
    ]
    assert changes[0]["before"] is None
    for earlier, later in itertools.pairwise(changes):
        assert later["before"] == earlier["after"]
    afters = [c["after"] for c in changes[:4]]
    assert None not in afters
    assert len(set(afters)) == 4
    assert changes[4]["after"] is None


WRITE_FAILURES = {"out/dir/inner.md": "x", "out/file.md": "f"}


async def test_write_and_list_failures_reach_the_model_with_their_reason() -> None:
    data = workflow_dict(
        environment={"files": dict(WRITE_FAILURES)},
        tools=[
            {"name": name, "allow": {"paths": ["out/**"]}}
            for name in ("write_file", "append_file", "list_files")
        ],
        outcomes=[],
    )
    result, events = await run_with_events(
        data,
        [
            calling(call("write_file", {"path": "out/dir", "content": "x"})),
            calling(call("append_file", {"path": "out/dir", "content": "x"})),
            calling(call("write_file", {"path": "out/file.md/a.md", "content": "x"})),
            calling(call("append_file", {"path": "out/file.md/a.md", "content": "x"})),
            calling(call("list_files", {"directory": "out/file.md"})),
        ],
    )
    directory = "the path names a directory, not a file"
    parent = "a parent of the path is a file, not a directory"
    assert tool_answers(result) == [
        (True, {"error": {"code": "is_directory", "message": directory}}),
        (True, {"error": {"code": "is_directory", "message": directory}}),
        (True, {"error": {"code": "not_a_directory", "message": parent}}),
        (True, {"error": {"code": "not_a_directory", "message": parent}}),
        (True, {"error": {"code": "not_a_directory", "message": parent}}),
    ]
    assert failures(events) == ["is_directory"] * 2 + ["not_a_directory"] * 3
    assert result.state is not None
    assert result.state["files"] == WRITE_FAILURES
    assert result.record.state_changes.count == 0


async def test_reading_or_deleting_a_directory_fails_with_reason_and_message() -> None:
    data = workflow_dict(
        environment={"files": dict(WRITE_FAILURES)},
        tools=[
            {"name": name, "allow": {"paths": ["out/**"]}}
            for name in ("read_file", "delete_file")
        ],
        outcomes=[],
    )
    result = await run(
        data,
        [
            calling(call("read_file", {"path": "out/dir"})),
            calling(call("delete_file", {"path": "out/dir"})),
        ],
    )
    directory = "the path names a directory, not a file"
    answer = (True, {"error": {"code": "is_directory", "message": directory}})
    assert tool_answers(result) == [answer, answer]


BAD_ARGUMENTS: list[tuple[str, dict[str, Any]]] = [
    ("read_file", {"path": "out/a.md", "extra": 1}),
    ("read_file", {}),
    ("read_file", {"path": 7}),
    ("list_files", {"directory": "out", "extra": 1}),
    ("list_files", {"directory": ""}),
    ("write_file", {"path": "out/a.md"}),
    ("write_file", {"path": "out/a.md", "content": 1}),
    ("write_file", {"path": "out/a.md", "content": "x", "mode": "w"}),
    ("append_file", {"content": "x"}),
    ("append_file", {"path": "out/a.md", "content": "x", "extra": 1}),
    ("delete_file", {"path": "out/a.md", "force": True}),
    ("delete_file", {"path": "x" * 513}),
]


async def test_arguments_outside_each_file_tools_input_schema_are_invalid() -> None:
    data = workflow_dict(
        environment={"files": {"out/a.md": "a"}},
        tools=[
            {"name": name, "allow": {"paths": ["**"]}}
            for name in (
                "read_file",
                "list_files",
                "write_file",
                "append_file",
                "delete_file",
            )
        ],
        policy={"on_denial": "report"},
        budgets={"max_actions": 50, "timeout_ms": 30000},
        outcomes=[],
    )
    result = await run(
        data,
        [
            calling(call(name, arguments, call_id=f"c{n}"))
            for n, (name, arguments) in enumerate(BAD_ARGUMENTS)
        ],
    )
    assert result.record.policy.denial_reasons == {
        "invalid_arguments": len(BAD_ARGUMENTS)
    }
    assert result.state is not None
    assert result.state["files"] == {"out/a.md": "a"}
