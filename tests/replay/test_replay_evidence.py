"""What replay leaves in evidence: digests and positions, never cassette content.

The sentinel sits in the prompt, the fixture file, the tool arguments and the
model's text; the cassette holds all of it, and nothing of it may reach the
record, the events, the logs, a result's repr or a mismatch message.
"""

from __future__ import annotations

import json
import logging
import pickle
from pathlib import Path
from typing import Any

import pytest

from artemiskit import ArtemisKit, SessionEvent
from artemiskit.records import load_cassette, record_to_dict
from tests._builders import USAGE, workflow_dict, write_workflow

pytestmark = pytest.mark.anyio

SENTINEL = "EVIDENCE-SENTINEL-d41f"


def _workflow(folder: Path, policy: str) -> Path:
    data = workflow_dict(
        conversation={"turns": [{"user": f"Summarize. {SENTINEL}"}]},
        environment={"fixture": "fixture.json"},
    )
    _policy(folder, policy)
    script: list[dict[str, Any]] = [
        {
            "tool_calls": [
                {"name": "read_file", "arguments": {"path": "docs/policy.md"}}
            ],
            "usage": USAGE,
        },
        {
            "tool_calls": [
                {
                    "name": "write_file",
                    "arguments": {"path": "out/summary.md", "content": SENTINEL},
                }
            ],
            "usage": USAGE,
        },
        {"text": f"Done {SENTINEL}", "usage": USAGE},
    ]
    return write_workflow(folder, data, script)


def _policy(folder: Path, policy: str) -> None:
    """The policy file comes from a fixture: its content is not in the contract."""
    (folder / "fixture.json").write_text(
        json.dumps({"files": {"docs/policy.md": policy}}), encoding="utf-8"
    )


async def test_no_cassette_content_reaches_records_events_or_logs(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    workflow = _workflow(tmp_path, f"30 days {SENTINEL}")
    cassette = tmp_path / "run.cassette.jsonl"
    kit = ArtemisKit()
    recorded = await kit.run_workflow(workflow=workflow, record_cassette=cassette)
    assert SENTINEL in cassette.read_text()
    # the fixture file's content changes: a strict mismatch at step 2
    _policy(tmp_path, f"14 days {SENTINEL}")
    session = await kit.create_workflow_session(
        workflow=workflow, replay=cassette, replay_mode="strict"
    )
    events: list[SessionEvent] = []

    async def read() -> None:
        async for event in session.events():
            events.append(event)

    import anyio

    async with anyio.create_task_group() as group:
        group.start_soon(read)
        await anyio.lowlevel.checkpoint()
        result = await session.run()
    assert result.record.execution.reason == "replay_mismatch"
    texts = [
        json.dumps(record_to_dict(recorded.record)),
        json.dumps(record_to_dict(result.record)),
        repr(recorded),
        repr(result),
        repr(session),
        repr(await load_cassette(cassette)),
        result.failure or "",
        caplog.text,
        *(repr(event) for event in events),
    ]
    assert events
    for text in texts:
        assert SENTINEL not in text


async def test_a_cassette_is_plain_data_that_pickles(tmp_path: Path) -> None:
    workflow = _workflow(tmp_path, "30 days")
    cassette = tmp_path / "run.cassette.jsonl"
    await ArtemisKit().run_workflow(workflow=workflow, record_cassette=cassette)
    loaded = await load_cassette(cassette)
    assert pickle.loads(pickle.dumps(loaded)) == loaded
