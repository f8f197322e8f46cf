"""The file family through the SDK: ``append_file``."""

from __future__ import annotations

from artemiskit.records import record_to_dict
from tests._builders import workflow_dict
from tests._runs import call, calling, run

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
