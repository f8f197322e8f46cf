"""Records stay byte for byte what they were, apart from identities and times.

A handful of runs that between them fill every part of a record (preflight,
faults and retries, denials, a judge, a truncated ledger, a budget stop, a
checkpointed pause and its resume, a cassette, a scripted provider from a file,
an agent of your own through the low-level entry point) are compared with
``golden/records.json``. Run ids, attempt ids, times and durations are replaced
by placeholders; everything else must be equal, so a refactoring of how a
session is put together cannot change what it records.

``ARTEMISKIT_UPDATE_GOLDEN=1`` rewrites the file (review the diff before
committing it).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from artemiskit import (
    ArtemisKit,
    CheckpointOptions,
    create_agent_workflow_session,
)
from artemiskit.records import record_to_dict
from tests._builders import workflow_dict, write_workflow
from tests._runs import ReplayTarget, call, calling, workflow_of
from tests.engine.test_record_and_events import SCRIPT, judge, rich_workflow

if TYPE_CHECKING:
    from artemiskit import ExecutionRecord

GOLDEN = Path(__file__).parent / "golden" / "records.json"
_ID = re.compile(r'"[0-9a-f]{32}"')
_TIME = re.compile(r'"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00"')
_DURATION = re.compile(r'"duration_ms": \d+')
READ = call("read_file", {"path": "docs/policy.md"})
WRITE = call("write_file", {"path": "out/summary.md", "content": "30 days"})


def _comparable(record: ExecutionRecord) -> Any:
    """The record as JSON data with its identities and times made constant."""
    text = json.dumps(record_to_dict(record), indent=1, sort_keys=True)
    text = _ID.sub('"<id>"', text)
    text = _TIME.sub('"<time>"', text)
    text = _DURATION.sub('"duration_ms": 0', text)
    return json.loads(text)


async def _records(folder: Path) -> dict[str, Any]:
    kit = ArtemisKit()
    records: dict[str, Any] = {}

    rich = await kit.run_workflow(
        workflow=workflow_of(rich_workflow()),
        target=ReplayTarget([calling(c) for c in SCRIPT]),
        preflight=True,
        judge=judge(),
    )
    records["rich"] = rich.record

    (folder / "scripted").mkdir()
    path = write_workflow(folder / "scripted")
    records["scripted_file"] = (await kit.run_workflow(workflow=path)).record

    session = create_agent_workflow_session(
        workflow=workflow_of(workflow_dict()),
        target=ReplayTarget([calling(READ), calling(READ), calling(WRITE)]),
        target_name="support-bot",
        target_version="2.1",
        ledger_limit=3,
        cleanup_timeout_ms=250,
    )
    records["low_level_truncated"] = (await session.run()).record

    stopped = await kit.run_workflow(
        workflow=workflow_dict(
            budgets={
                "max_actions": 20,
                "max_model_requests": 1,
                "timeout_ms": 30000,
            }
        ),
        target=ReplayTarget([calling(READ)]),
    )
    records["budget_stop"] = stopped.record

    recorded = await kit.run_workflow(
        workflow=workflow_dict(),
        target=ReplayTarget([calling(READ), calling(WRITE)]),
        record_cassette=True,
    )
    records["cassette"] = recorded.record

    store = folder / "checkpoint"
    paused = await kit.run_workflow(
        workflow=workflow_of(workflow_dict()),
        target=ReplayTarget([calling(READ), calling(WRITE)]),
        checkpoint=CheckpointOptions(directory=store, configuration_id="golden"),
        pause_after_actions=2,
    )
    records["paused"] = paused.record
    resumed = await kit.run_workflow(
        workflow=workflow_of(workflow_dict()),
        target=ReplayTarget([calling(WRITE)]),
        checkpoint=CheckpointOptions(
            directory=store, mode="resume", configuration_id="golden"
        ),
    )
    records["resumed"] = resumed.record
    return {name: _comparable(record) for name, record in records.items()}


async def test_records_equal_the_golden_file(tmp_path: Path) -> None:
    records = await _records(tmp_path)
    if os.environ.get("ARTEMISKIT_UPDATE_GOLDEN") == "1":
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(
            json.dumps(records, indent=1, sort_keys=True) + "\n", encoding="utf-8"
        )
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert records.keys() == golden.keys()
    for name, record in records.items():
        assert record == golden[name], name
