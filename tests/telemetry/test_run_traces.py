"""A run exported to a loopback OTLP/HTTP receiver: names, attributes, parents.

The receiver is a real HTTP server on 127.0.0.1 that decodes the protobuf it
receives; nothing here looks inside the exporter.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from artemiskit import ArtemisKit, CheckpointOptions
from artemiskit.records import record_to_dict
from artemiskit.telemetry import Telemetry, TelemetryConfig
from tests._builders import USAGE, workflow_dict, write_workflow

if TYPE_CHECKING:
    from pathlib import Path

    from artemiskit import WorkflowResult
    from tests.telemetry._receiver import ReceivedSpan, Receiver

SENTINEL = "SENTINEL-7f3a"


def _telemetry(receiver: Receiver, **changes: Any) -> Telemetry:
    return Telemetry(TelemetryConfig(otlp_endpoint=receiver.endpoint, **changes))


async def _run(path: Path, receiver: Receiver, **options: Any) -> WorkflowResult:
    return await ArtemisKit().run_workflow(
        workflow=path, telemetry=_telemetry(receiver), **options
    )


def _by_name(spans: list[ReceivedSpan]) -> dict[str, list[ReceivedSpan]]:
    found: dict[str, list[ReceivedSpan]] = {}
    for span in spans:
        found.setdefault(span.name, []).append(span)
    return found


async def test_a_run_is_one_trace_with_model_and_tool_spans(
    tmp_path: Path, receiver: Receiver
) -> None:
    result = await _run(write_workflow(tmp_path), receiver)
    record = result.record
    spans = receiver.spans()
    assert receiver.paths == ["/v1/traces"]
    assert record.telemetry is not None
    assert record.telemetry.exported == len(spans) == 6
    assert record.telemetry.dropped == 0
    assert len({span.trace_id for span in spans}) == 1
    names = _by_name(spans)
    (root,) = names["invoke_agent test-workflow"]
    assert root.parent_id == ""
    assert root.service_name == "artemiskit"
    assert root.attributes["artemiskit.run_id"] == record.run_id
    assert root.attributes["artemiskit.verdict"] == "passed"
    assert root.attributes["artemiskit.exit_code"] == 0
    assert root.attributes["gen_ai.usage.input_tokens"] == 30
    assert root.attributes["gen_ai.usage.output_tokens"] == 15
    chats = names["chat agent"]
    assert len(chats) == 3
    for chat in chats:
        assert chat.parent_id == root.span_id
        assert chat.kind == 3  # SPAN_KIND_CLIENT
        assert chat.attributes["gen_ai.operation.name"] == "chat"
        assert chat.attributes["gen_ai.provider.name"] == "scripted"
        assert chat.attributes["gen_ai.request.model"] == "agent"
        assert chat.attributes["gen_ai.usage.input_tokens"] == USAGE["input_tokens"]
        assert chat.attributes["gen_ai.usage.output_tokens"] == USAGE["output_tokens"]
    for tool in ("read_file", "write_file"):
        (span,) = names[f"execute_tool {tool}"]
        assert span.parent_id == root.span_id
        assert span.attributes["gen_ai.operation.name"] == "execute_tool"
        assert span.attributes["gen_ai.tool.name"] == tool
        assert span.attributes["gen_ai.tool.call.id"].startswith("op-")
        assert span.attributes["artemiskit.retry.attempt"] == 1
        assert "error.type" not in span.attributes
    starts = [span.start_ns for span in sorted(spans, key=lambda s: s.start_ns)]
    assert root.start_ns == starts[0]
    assert all(
        root.start_ns <= span.start_ns <= span.end_ns <= root.end_ns for span in spans
    )


async def test_no_content_ever_reaches_the_collector(
    tmp_path: Path, receiver: Receiver
) -> None:
    data = workflow_dict(
        environment={"files": {"docs/policy.md": f"30 days {SENTINEL}-file"}},
        conversation={
            "system": f"{SENTINEL}-system",
            "turns": [{"user": f"{SENTINEL}-prompt"}],
        },
    )
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
                    "arguments": {
                        "path": "out/summary.md",
                        "content": f"30 days {SENTINEL}-argument",
                    },
                }
            ],
            "usage": USAGE,
        },
        {"text": f"{SENTINEL}-completion", "usage": USAGE},
    ]
    result = await _run(write_workflow(tmp_path, data, script), receiver)
    assert result.record.exit_code == 0
    assert receiver.bodies
    for body in receiver.bodies:
        assert SENTINEL.encode() not in body
        assert b"docs/policy.md" not in body
        assert b"out/summary.md" not in body
    for span in receiver.spans():
        for key in span.attributes:
            assert not key.startswith(
                ("gen_ai.input", "gen_ai.output", "gen_ai.prompt")
            )
            assert key not in (
                "gen_ai.tool.call.arguments",
                "gen_ai.tool.call.result",
                "gen_ai.system_instructions",
            )


async def test_a_denied_call_has_its_own_span_with_the_denial_reason(
    tmp_path: Path, receiver: Receiver
) -> None:
    script: list[dict[str, Any]] = [
        {
            "tool_calls": [
                {"name": "read_file", "arguments": {"path": "secrets/keys.md"}}
            ],
            "usage": USAGE,
        },
        {"text": "Done.", "usage": USAGE},
    ]
    data = workflow_dict(policy={"network": "denied", "on_denial": "report"})
    result = await _run(write_workflow(tmp_path, data, script), receiver)
    assert result.record.policy.denials == 1
    (denied,) = _by_name(receiver.spans())["execute_tool read_file"]
    reason = next(iter(result.record.policy.denial_reasons))
    assert denied.attributes["error.type"] == reason
    assert denied.attributes["artemiskit.denial.reason"] == reason
    assert denied.status_code == 2  # STATUS_CODE_ERROR
    assert b"secrets/keys.md" not in b"".join(receiver.bodies)


async def test_faults_and_retries_are_attributes_of_each_attempt(
    tmp_path: Path, receiver: Receiver
) -> None:
    data = workflow_dict(
        faults=[
            {
                "id": "flaky",
                "tool": "read_file",
                "occurrence": 1,
                "kind": "unavailable_tool",
            }
        ],
        retry={"max_attempts": 2},
    )
    result = await _run(write_workflow(tmp_path, data), receiver)
    assert result.record.exit_code == 0
    attempts = sorted(
        _by_name(receiver.spans())["execute_tool read_file"],
        key=lambda span: span.attributes["artemiskit.retry.attempt"],
    )
    assert [a.attributes["artemiskit.retry.attempt"] for a in attempts] == [1, 2]
    assert attempts[0].attributes["artemiskit.fault"] == "unavailable_tool"
    assert attempts[0].attributes["error.type"] == "fault_unavailable_tool"
    assert "artemiskit.fault" not in attempts[1].attributes
    assert "error.type" not in attempts[1].attributes
    (root,) = _by_name(receiver.spans())["invoke_agent test-workflow"]
    assert root.attributes["artemiskit.faults.injected"] == 1
    assert root.attributes["artemiskit.retries"] == 1


async def test_a_failed_run_carries_its_verdict_and_failed_requirements(
    tmp_path: Path, receiver: Receiver
) -> None:
    script = [{"text": "I did nothing.", "usage": USAGE}]
    result = await _run(write_workflow(tmp_path, script=script), receiver)
    assert result.record.exit_code == 8
    (root,) = _by_name(receiver.spans())["invoke_agent test-workflow"]
    assert root.attributes["artemiskit.verdict"] == "failed"
    assert root.attributes["artemiskit.requirements.failed"] == ("summary",)
    assert root.status_code == 2


async def test_a_resumed_run_shares_the_trace_and_links_its_paused_attempt(
    tmp_path: Path, receiver: Receiver
) -> None:
    path = write_workflow(tmp_path)
    checkpoint = tmp_path / "checkpoint"
    paused = await _run(
        path,
        receiver,
        checkpoint=CheckpointOptions(directory=checkpoint),
        pause_after_actions=2,
    )
    assert paused.record.execution.status == "paused"
    resumed = await _run(
        path,
        receiver,
        checkpoint=CheckpointOptions(directory=checkpoint, mode="resume"),
    )
    assert resumed.record.exit_code == 0
    roots = _by_name(receiver.spans())["invoke_agent test-workflow"]
    first, second = sorted(roots, key=lambda span: span.start_ns)
    assert first.trace_id == second.trace_id
    assert first.attributes["artemiskit.attempt_id"] == paused.record.attempt_id
    assert second.attributes["artemiskit.attempt_id"] == resumed.record.attempt_id
    assert second.links == (first.span_id,)
    assert first.links == ()


async def test_header_values_come_from_the_environment_and_stay_out_of_evidence(
    tmp_path: Path, receiver: Receiver, monkeypatch: Any
) -> None:
    monkeypatch.setenv("COLLECTOR_TOKEN_FOR_TEST", f"Bearer {SENTINEL}")
    telemetry = _telemetry(
        receiver, headers_env={"authorization": "COLLECTOR_TOKEN_FOR_TEST"}
    )
    result = await ArtemisKit().run_workflow(
        workflow=write_workflow(tmp_path), telemetry=telemetry
    )
    assert receiver.headers[0]["authorization"] == f"Bearer {SENTINEL}"
    assert SENTINEL not in json.dumps(record_to_dict(result.record))
    assert SENTINEL not in repr(telemetry)
    assert SENTINEL not in repr(result)


async def test_without_telemetry_the_record_has_no_telemetry_part(
    tmp_path: Path,
) -> None:
    result = await ArtemisKit().run_workflow(workflow=write_workflow(tmp_path))
    assert result.record.telemetry is None
    assert "telemetry" not in record_to_dict(result.record)
