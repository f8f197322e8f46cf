"""A judge sees exactly what ``sees`` lists, ``samples`` times (SPEC 20, 26).

The judge is a real OpenAI-compatible server on 127.0.0.1 that records every
request: each request carries the listed context and nothing else (sentinels show
what leaked), the median of the samples decides, the record keeps the kinds seen
and the score spread, and a judge that answers garbage or never answers leaves the
requirement unavailable.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from artemiskit import ArtemisKit, TargetResponse
from artemiskit.records import record_to_dict
from tests._builders import workflow_dict
from tests._runs import USAGE, ReplayTarget, call, calling, workflow_of
from tests.providers._chat_server import ChatServer, NeverAnswer, chat_reply

FINAL = "FINAL-SENTINEL answer"
FILE = "FILE-SENTINEL summary"
POLICY = "POLICY-SENTINEL text"
DRAFT = "DRAFT-SENTINEL body"
STATUS = "STATE-SENTINEL"
SENTINELS = {"final_response": FINAL, "files": FILE, "drafts": DRAFT}
RESPONSES = [
    calling(call("read_file", {"path": "docs/policy.md"})),
    calling(
        call("write_file", {"path": "out/summary.md", "content": FILE}, call_id="c2"),
        call(
            "draft_message",
            {"to": "a@example.com", "subject": "s", "body": DRAFT},
            call_id="c3",
        ),
    ),
    TargetResponse(text=FINAL, usage=USAGE),
]
SCORE = {"prompt_tokens": 50, "completion_tokens": 5, "total_tokens": 55}


@pytest.fixture
def judge_server() -> Any:
    with ChatServer() as server:
        yield server


def judge_file(folder: Path, server: ChatServer, **limits: int) -> Path:
    path = folder / "judge.yaml"
    path.write_text(
        json.dumps(
            {
                "provider": "local",
                "model": "judge-model",
                **limits,
                "providers": {
                    "local": {
                        "type": "openai",
                        "base_url": server.url,
                        "api_key_env": "AKIT_TEST_JUDGE_KEY",
                    }
                },
            }
        )
    )
    return path


async def judged(
    tmp_path: Path,
    server: ChatServer,
    monkeypatch: pytest.MonkeyPatch,
    *judges: dict[str, Any],
    **limits: int,
) -> Any:
    monkeypatch.setenv("AKIT_TEST_JUDGE_KEY", "k")
    data = workflow_dict(
        environment={
            "files": {"docs/policy.md": POLICY},
            "state": {"records": {"tickets": {"T-1": {"status": STATUS}}}},
        },
        tools=[
            {"name": "read_file", "allow": {"paths": ["docs/**"]}},
            {"name": "write_file", "allow": {"paths": ["out/*.md"]}},
            {"name": "draft_message", "allow": {"recipients": ["*@example.com"]}},
        ],
        outcomes=[
            {"id": f"j{i}", "judge": {"rubric": "Is it good?", "threshold": 0.7, **j}}
            for i, j in enumerate(judges)
        ],
    )
    return await ArtemisKit().run_workflow(
        workflow=workflow_of(data),
        target=ReplayTarget(list(RESPONSES)),
        judge=judge_file(tmp_path, server, **limits),
    )


def seen(server: ChatServer, index: int) -> str:
    messages = server.requests[index].json["messages"]
    return "\n".join(str(m.get("content")) for m in messages)


def reply(score: float) -> Any:
    return chat_reply(content=json.dumps({"score": score}), usage=SCORE)


@pytest.mark.parametrize(
    ("sees", "shown"),
    [
        (None, {"final_response"}),
        (["drafts"], {"drafts"}),
        ([{"files": ["out/*.md"]}], {"files"}),
        (["final_response", "drafts"], {"final_response", "drafts"}),
    ],
)
async def test_the_judge_request_carries_exactly_what_sees_lists(
    tmp_path: Path,
    judge_server: ChatServer,
    monkeypatch: pytest.MonkeyPatch,
    sees: list[Any] | None,
    shown: set[str],
) -> None:
    judge_server.enqueue(reply(0.9))
    spec = {} if sees is None else {"sees": sees}
    result = await judged(tmp_path, judge_server, monkeypatch, spec)
    assert result.record.task_verification.status == "passed"
    text = seen(judge_server, 0)
    assert "Is it good?" in text
    for kind, sentinel in SENTINELS.items():
        assert (sentinel in text) == (kind in shown), (kind, text)
    assert POLICY not in text  # never read by a glob, never shown
    assert STATUS not in text


async def test_state_paths_and_tool_calls_are_shown_only_when_listed(
    tmp_path: Path, judge_server: ChatServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    judge_server.enqueue(reply(0.9), reply(0.9))
    await judged(
        tmp_path,
        judge_server,
        monkeypatch,
        {"sees": [{"state": ["records.tickets.T-1.status", "drafts.5"]}]},
        {"sees": ["tool_calls"]},
    )
    state, calls = seen(judge_server, 0), seen(judge_server, 1)
    assert STATUS in state
    assert "(absent)" in state
    assert FINAL not in state
    assert DRAFT not in state
    assert DRAFT in calls  # the draft_message call's original arguments
    assert "docs/policy.md" in calls
    assert POLICY not in calls
    assert FINAL not in calls


async def test_the_median_of_the_samples_decides_and_the_spread_is_recorded(
    tmp_path: Path, judge_server: ChatServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    judge_server.enqueue(reply(0.2), reply(0.9), reply(0.8))
    result = await judged(
        tmp_path,
        judge_server,
        monkeypatch,
        {"sees": ["drafts", "final_response"], "samples": 3},
    )
    assert len(judge_server.requests) == 3
    (requirement,) = record_to_dict(result.record)["task_verification"]["requirements"]
    assert (requirement["status"], requirement["reason"]) == (
        "passed",
        "judge_score_met",
    )
    assert requirement["judge"] == {
        "sees": ["drafts", "final_response"],
        "samples": 3,
        "scores": {"min": 0.2, "median": 0.8, "max": 0.9},
    }
    record_text = json.dumps(record_to_dict(result.record))
    for sentinel in (FINAL, FILE, DRAFT, POLICY, STATUS):
        assert sentinel not in record_text
    assert result.record.judge.requests == 3


async def test_a_judge_that_answers_garbage_is_unavailable_with_the_scores_so_far(
    tmp_path: Path, judge_server: ChatServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    judge_server.enqueue(reply(0.9), chat_reply(content="no idea", usage=SCORE))
    result = await judged(
        tmp_path, judge_server, monkeypatch, {"sees": ["drafts"], "samples": 2}
    )
    (requirement,) = record_to_dict(result.record)["task_verification"]["requirements"]
    assert (requirement["status"], requirement["reason"]) == (
        "unavailable",
        "invalid_verdict",
    )
    assert requirement["judge"]["scores"] == {"min": 0.9, "median": 0.9, "max": 0.9}
    assert result.record.exit_code == 9


async def test_a_judge_that_never_answers_is_unavailable_never_a_crash(
    tmp_path: Path, judge_server: ChatServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    judge_server.enqueue(NeverAnswer())
    result = await judged(
        tmp_path, judge_server, monkeypatch, {"samples": 2}, timeout_ms=300
    )
    (requirement,) = record_to_dict(result.record)["task_verification"]["requirements"]
    assert requirement["status"] == "unavailable"
    assert requirement["reason"] in {"judge_timeout", "judge_failure"}
    assert requirement["judge"]["scores"] is None
    assert result.record.exit_code == 9


async def test_a_deadline_before_every_sample_answered_never_decides(
    tmp_path: Path, judge_server: ChatServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    judge_server.enqueue(reply(0.9), NeverAnswer())
    result = await judged(
        tmp_path, judge_server, monkeypatch, {"samples": 2}, timeout_ms=2000
    )
    (requirement,) = record_to_dict(result.record)["task_verification"]["requirements"]
    assert (requirement["status"], requirement["reason"]) == (
        "unavailable",
        "judge_timeout",
    )
    assert requirement["judge"]["scores"] == {"min": 0.9, "median": 0.9, "max": 0.9}
