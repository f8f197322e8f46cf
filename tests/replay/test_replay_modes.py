"""Strict and lenient replay, forks, and the cassette's place in the record (SPEC 22).

Offline, against the scripted provider: a run is recorded, then replayed after a
fixture changed (tools run for real, so the model would have seen another tool
result), or forked at step K onto another script.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from artemiskit import ArtemisKit, CassetteError, WorkflowError
from artemiskit.records import load_cassette
from tests._builders import PASSING_SCRIPT, USAGE, workflow_dict, write_workflow

pytestmark = pytest.mark.anyio

SENTINEL = "FIXTURE-SENTINEL-5c1e"


def _fixture_workflow(folder: Path, policy: str) -> Path:
    """A workflow whose policy file comes from a fixture (not in the contract)."""
    data = workflow_dict(environment={"fixture": "fixture.json"})
    path = write_workflow(folder, data)
    (folder / "fixture.json").write_text(
        json.dumps({"files": {"docs/policy.md": policy}}), encoding="utf-8"
    )
    return path


def _script(folder: Path, entries: list[dict[str, Any]]) -> None:
    (folder / "agent.script.yaml").write_text(
        json.dumps({"version": 1, "responses": entries}), encoding="utf-8"
    )


async def _recorded(folder: Path) -> tuple[Path, Path]:
    workflow = _fixture_workflow(folder, "Refunds within 30 days.")
    cassette = folder / "run.cassette.jsonl"
    result = await ArtemisKit().run_workflow(
        workflow=workflow, record_cassette=cassette
    )
    assert result.record.verdict.status == "passed"
    assert result.record.cassette is not None
    return workflow, cassette


async def test_strict_replay_stops_where_the_model_would_see_a_changed_tool_result(
    tmp_path: Path,
) -> None:
    workflow, cassette = await _recorded(tmp_path)
    _fixture_workflow(tmp_path, f"Refunds within 14 days. {SENTINEL}")
    result = await ArtemisKit().run_workflow(workflow=workflow, replay=cassette)
    record = result.record
    assert record.execution.reason == "replay_mismatch"
    assert record.exit_code == 2
    # step 1 (the read) replayed; the request that carries the read's result
    # differs: step 2, and the field is that tool result, not its content
    assert record.budget.used.model_requests == 2
    assert record.budget.used.tool_calls == 1
    assert result.failure is not None
    assert "step 2" in result.failure
    assert "the tool result of read_file" in result.failure
    assert SENTINEL not in result.failure
    assert SENTINEL not in json.dumps(repr(result))


async def test_lenient_replay_goes_on_past_a_changed_tool_result(
    tmp_path: Path,
) -> None:
    workflow, cassette = await _recorded(tmp_path)
    _fixture_workflow(tmp_path, f"Refunds within 14 days. {SENTINEL}")
    result = await ArtemisKit().run_workflow(
        workflow=workflow, replay=cassette, replay_mode="lenient"
    )
    assert result.record.execution.status == "completed"
    assert result.record.verdict.status == "passed"
    assert result.record.replay is not None
    assert result.record.replay.mode == "lenient"


async def test_a_changed_parameter_or_tool_list_is_named(tmp_path: Path) -> None:
    _workflow, cassette = await _recorded(tmp_path)
    data = workflow_dict(environment={"fixture": "fixture.json"})
    data["target"]["parameters"] = {"temperature": 0.5}
    changed = tmp_path / "changed"
    changed.mkdir()
    path = write_workflow(changed, data)
    (changed / "fixture.json").write_bytes((tmp_path / "fixture.json").read_bytes())
    # the target section is not part of the contract: the cassette still binds
    result = await ArtemisKit().run_workflow(workflow=path, replay=cassette)
    assert result.record.execution.reason == "replay_mismatch"
    assert result.failure is not None
    assert "step 1" in result.failure
    assert "parameters" in result.failure
    assert "messages" not in result.failure


async def test_a_fork_at_step_k_replays_k_responses_then_goes_live(
    tmp_path: Path,
) -> None:
    workflow, cassette = await _recorded(tmp_path)
    recorded = await load_cassette(cassette)
    forked_script = [
        PASSING_SCRIPT[0],
        {
            "tool_calls": [
                {
                    "name": "write_file",
                    "arguments": {"path": "out/summary.md", "content": "30 days (B)"},
                }
            ],
            "usage": {"input_tokens": 77, "output_tokens": 7},
        },
        {"text": "Model B is done.", "usage": USAGE},
    ]
    _script(tmp_path, forked_script)
    result = await ArtemisKit().run_workflow(
        workflow=workflow, replay=cassette, replay_until=1, record_cassette=True
    )
    assert result.record.replay is not None
    assert result.record.replay.fork_at == 1
    assert result.record.verdict.status == "passed"
    assert result.cassette is not None
    fork = tmp_path / "fork.cassette.jsonl"
    fork.write_bytes(result.cassette)
    forked = await load_cassette(fork)
    responses = [e.response for e in forked.of_kind("model")]
    originals = [e.response for e in recorded.of_kind("model")]
    assert responses[:1] == originals[:1]
    assert responses[1] != originals[1]
    assert responses[2] is not None
    assert responses[2].text == "Model B is done."


async def test_replay_usage_is_the_recorded_usage(tmp_path: Path) -> None:
    workflow, cassette = await _recorded(tmp_path)
    _script(tmp_path, [])  # the live script would answer nothing
    result = await ArtemisKit().run_workflow(workflow=workflow, replay=cassette)
    used = result.record.budget.used
    assert (used.input_tokens, used.output_tokens) == (30, 15)
    assert result.record.budget.usage_measurement == "complete"


async def test_a_cassette_shorter_than_the_run_stops_at_the_step_that_runs_out(
    tmp_path: Path,
) -> None:
    workflow, cassette = await _recorded(tmp_path)
    lines = cassette.read_text().splitlines()
    short = [*lines[:3], json.dumps({"kind": "end", "exchanges": 2})]
    cassette.write_text("\n".join(short) + "\n")
    result = await ArtemisKit().run_workflow(workflow=workflow, replay=cassette)
    assert result.record.execution.reason == "cassette_exhausted"
    assert result.record.exit_code == 2
    assert result.failure is not None
    assert "step 3" in result.failure


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"replay_mode": "loose"}, "replay_mode"),
        ({"replay_until": -1}, "replay_until"),
        ({"replay_until": True}, "replay_until"),
    ],
)
async def test_bad_replay_options_are_refused(
    tmp_path: Path, options: dict[str, Any], message: str
) -> None:
    workflow, cassette = await _recorded(tmp_path)
    with pytest.raises(WorkflowError, match=message) as caught:
        await ArtemisKit().run_workflow(workflow=workflow, replay=cassette, **options)
    assert caught.value.reason == "invalid_option"


async def test_another_workflows_cassette_is_refused_before_anything_runs(
    tmp_path: Path,
) -> None:
    _, cassette = await _recorded(tmp_path)
    other = tmp_path / "other"
    other.mkdir()
    path = write_workflow(other, workflow_dict(name="another"))
    with pytest.raises(CassetteError, match="another workflow contract") as caught:
        await ArtemisKit().run_workflow(workflow=path, replay=cassette)
    assert caught.value.reason == "cassette_foreign"
    assert caught.value.exit_code == 2


async def test_another_targets_cassette_is_refused(tmp_path: Path) -> None:
    _workflow, cassette = await _recorded(tmp_path)
    data = workflow_dict(
        environment={"fixture": "fixture.json"},
        target={"provider": "scripted", "model": "other"},
    )
    path = tmp_path / "workflow.yaml"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CassetteError, match="another target") as caught:
        await ArtemisKit().run_workflow(workflow=path, replay=cassette)
    assert caught.value.reason == "cassette_foreign"


async def test_recording_over_an_existing_file_is_refused_before_the_run(
    tmp_path: Path,
) -> None:
    from artemiskit import FileAccessError

    workflow, cassette = await _recorded(tmp_path)
    before = cassette.read_bytes()
    with pytest.raises(FileAccessError) as caught:
        await ArtemisKit().run_workflow(workflow=workflow, record_cassette=cassette)
    assert caught.value.reason == "output_exists"
    assert cassette.read_bytes() == before
