"""Pause and resume across real processes: the upstream qualification list.

Every test drives `akit` (``python -m artemiskit_cli``) or a small SDK script in
separate processes over a real checkpoint directory, and compares with an
uninterrupted run where that says something. Readiness is read from the child's
stderr progress lines, never guessed with sleeps.
"""

from __future__ import annotations

import copy
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from artemiskit.records import RECORD_SCHEMA_VERSION, record_from_dict
from tests._builders import PASSING_SCRIPT, USAGE, workflow_dict

from ._processes import REPO_ROOT, Case, Done, comparable, fingerprint, run_process

SENTINEL = "SENTINEL-7f3a9c"

#: One model turn asking for three tool calls at once, then the final answer.
PARALLEL_SCRIPT: list[dict[str, Any]] = [
    {
        "tool_calls": [
            {"name": "read_file", "arguments": {"path": "docs/policy.md"}},
            {"name": "read_file", "arguments": {"path": "docs/terms.md"}},
            {
                "name": "write_file",
                "arguments": {"path": "out/summary.md", "content": "30 days"},
            },
        ],
        "usage": USAGE,
    },
    {"text": "Done.", "usage": USAGE},
]

#: Two user turns: read then answer; write then answer.
MULTI_TURN_SCRIPT: list[dict[str, Any]] = [
    {
        "tool_calls": [{"name": "read_file", "arguments": {"path": "docs/policy.md"}}],
        "usage": USAGE,
    },
    {"text": "Read it.", "usage": USAGE},
    {
        "tool_calls": [
            {
                "name": "write_file",
                "arguments": {"path": "out/summary.md", "content": "30 days"},
            }
        ],
        "usage": USAGE,
    },
    {"text": "Written.", "usage": USAGE},
]


def files_workflow(**changes: Any) -> dict[str, Any]:
    data = workflow_dict(**changes)
    data["environment"]["files"]["docs/terms.md"] = "Terms apply."
    return data


def multi_turn_workflow(**changes: Any) -> dict[str, Any]:
    return files_workflow(
        conversation={
            "system": "Be careful.",
            "turns": [{"user": "Read the policy."}, {"user": "Now write it."}],
        },
        **changes,
    )


def assert_refused(done: Done, reason: str) -> None:
    """Exit 2 with ``reason`` named on stderr, and no run started."""
    assert done.code == 2, done.describe()
    assert f"reason: {reason}" in done.stderr, done.describe()
    assert " admitted: " not in done.stderr, done.describe()
    assert "Traceback" not in done.stderr, done.describe()


def resume_refused_unchanged(case: Case, reason: str, *extra: str) -> Done:
    """Resume must be refused for ``reason`` and leave the checkpoint as it was."""
    before = fingerprint(case.checkpoint)
    done, record = case.resume(*extra)
    assert_refused(done, reason)
    assert record is None
    assert fingerprint(case.checkpoint) == before
    return done


def paused(case: Case, pause_after: int, *extra: str) -> dict[str, Any]:
    done, record = case.run(*extra, pause_after=pause_after)
    assert done.code == 10, done.describe()
    assert record["execution"]["status"] == "paused"
    assert record["task_verification"]["status"] == "unavailable"
    assert record["recovery"]["resumable"] is True
    assert record["recovery"]["checkpoint_status"] == "resumable"
    assert isinstance(record, dict)
    return record


# --- restart and multi-call cursor restoration ---------------------------------


@pytest.mark.parametrize("pause_after", [2, 3])
def test_pause_between_parallel_tool_calls_of_one_turn(
    tmp_path: Path, pause_after: int
) -> None:
    case = Case(tmp_path / "case", files_workflow(), PARALLEL_SCRIPT)
    plain, plain_record, plain_state = case.uninterrupted()
    assert plain.code == 0, plain.describe()

    first = paused(case, pause_after)
    # Paused between calls of one model turn: one request, some of its calls.
    assert first["budget"]["used"]["model_requests"] == 1
    assert first["budget"]["used"]["tool_calls"] == pause_after - 1

    state_path = case.folder / "resumed-state.json"
    done, second = case.resume("--state-output", str(state_path))
    assert done.code == 0, done.describe()
    assert json.loads(state_path.read_text()) == plain_state
    assert comparable(second) == comparable(plain_record)
    # The same logical run, a new attempt that continued the first one's counters.
    assert second["run_id"] == first["run_id"]
    assert second["attempt_id"] != first["attempt_id"]
    assert second["recovery"]["attempt_number"] == 2
    assert second["recovery"]["resumed_from_attempt"] == first["attempt_id"]
    assert second["recovery"]["checkpoint_status"] == "terminal"
    # Each call ran exactly once across both attempts.
    assert {t["tool"]: t["calls"] for t in second["tools"]} == {
        "read_file": 2,
        "write_file": 1,
    }


def test_pauses_within_a_multi_turn_conversation(tmp_path: Path) -> None:
    case = Case(tmp_path / "case", multi_turn_workflow(), MULTI_TURN_SCRIPT)
    plain, plain_record, plain_state = case.uninterrupted()
    assert plain.code == 0, plain.describe()

    # Actions: m1 t1 m2 | m3 t2 m4. Pause inside turn 1, at the turn boundary,
    # inside turn 2, then run to the end: four attempts of one run.
    first = paused(case, 2)
    attempts = [first]
    for pause_after in (1, 2):
        done, record = case.resume(pause_after=pause_after)
        assert done.code == 10, done.describe()
        assert record["recovery"]["resumable"] is True
        attempts.append(record)
    state_path = case.folder / "resumed-state.json"
    done, last = case.resume("--state-output", str(state_path))
    assert done.code == 0, done.describe()
    attempts.append(last)

    used = [a["budget"]["used"]["actions"] for a in attempts]
    assert used == [2, 3, 5, 6]  # cumulative: counters are restored, never reset
    assert {a["run_id"] for a in attempts} == {first["run_id"]}
    assert [a["recovery"]["attempt_number"] for a in attempts] == [1, 2, 3, 4]
    assert [a["recovery"]["resumed_from_attempt"] for a in attempts[1:]] == [
        a["attempt_id"] for a in attempts[:-1]
    ]
    assert json.loads(state_path.read_text()) == plain_state
    assert comparable(last) == comparable(plain_record)


def test_resumed_attempt_reports_the_original_run_id(tmp_path: Path) -> None:
    case = Case(tmp_path / "case", workflow_dict(), PASSING_SCRIPT)
    first = paused(case, 2)
    done, _ = case.resume()
    assert done.code == 0, done.describe()
    assert f"run {first['run_id']} started" in done.stderr, done.describe()


# --- duplicate and terminal restore refusal ------------------------------------


def slow_case(tmp_path: Path) -> Case:
    """Paused after one read; the next model answer takes very long."""
    script = copy.deepcopy(PASSING_SCRIPT)
    script[1]["delay_ms"] = 600_000
    case = Case(tmp_path / "case", workflow_dict(), script)
    paused(case, 2)
    return case


def test_second_resume_while_one_is_running_is_refused(tmp_path: Path) -> None:
    case = slow_case(tmp_path)
    holder = case.start("resume", "--output", str(case.folder / "held.json"))
    try:
        holder.wait_for("admitted: model request")
        done, record = case.resume()
        assert done.code == 2, done.describe()
        assert "reason: claimed_by_live_process" in done.stderr
        assert record is None
    finally:
        holder.process.send_signal(signal.SIGTERM)
    held = holder.finish()
    assert held.code == 130, held.describe()


def test_two_resumes_at_once_exactly_one_proceeds(tmp_path: Path) -> None:
    case = slow_case(tmp_path)
    racers = [case.start("resume") for _ in range(2)]
    try:
        # The loser exits by itself; the winner stays in its slow model request.
        # Block on the first racer's exit; if it was the winner it would never end,
        # so the first to end is the loser (read from whichever ended).
        ended: list[int] = []
        while not ended:
            for index, racer in enumerate(racers):
                try:
                    racer.process.wait(timeout=0.1)
                except subprocess.TimeoutExpired:
                    continue
                ended.append(index)
        assert len(ended) == 1, "both resumes ended: neither held the checkpoint"
        loser_index = ended[0]
        loser = racers[loser_index].finish()
        assert loser.code == 2, loser.describe()
        assert "reason: claimed_by_live_process" in loser.stderr, loser.describe()
        winner = racers[1 - loser_index]
        winner.wait_for("admitted: model request")
    finally:
        for racer in racers:
            if racer.process.poll() is None:
                racer.process.send_signal(signal.SIGTERM)
    assert racers[1 - loser_index].finish().code == 130


def test_terminal_checkpoint_is_not_resumable(tmp_path: Path) -> None:
    case = Case(tmp_path / "case", workflow_dict(), PASSING_SCRIPT)
    paused(case, 2)
    done, record = case.resume()
    assert done.code == 0, done.describe()
    assert record["recovery"]["checkpoint_status"] == "terminal"
    resume_refused_unchanged(case, "terminal_checkpoint")


def test_completed_checkpointed_run_is_terminal(tmp_path: Path) -> None:
    case = Case(tmp_path / "case", workflow_dict(), PASSING_SCRIPT)
    done, record = case.run()
    assert done.code == 0, done.describe()
    assert record["recovery"]["checkpointing"] is True
    assert record["recovery"]["resumable"] is False
    resume_refused_unchanged(case, "terminal_checkpoint")


# --- pending operations and missing usage --------------------------------------


def killed_mid_operation(case: Case, line: str) -> None:
    running = case.start("run", "--checkpoint-dir", str(case.checkpoint))
    try:
        running.wait_for(line)
    finally:
        running.process.send_signal(signal.SIGKILL)
    assert running.finish().code == -signal.SIGKILL


def test_sigkill_during_a_tool_write_refuses_resume(tmp_path: Path) -> None:
    workflow = workflow_dict(
        faults=[
            {
                "id": "slow-write",
                "tool": "write_file",
                "occurrence": 1,
                "kind": "timeout",
                "timeout_ms": 60_000,
            }
        ]
    )
    case = Case(tmp_path / "case", workflow, PASSING_SCRIPT)
    killed_mid_operation(case, "admitted: write_file")
    resume_refused_unchanged(case, "pending_operation")
    # Refusing is stable: it never turns into a replay.
    resume_refused_unchanged(case, "pending_operation")


def test_sigkill_during_a_model_request_refuses_resume(tmp_path: Path) -> None:
    script = copy.deepcopy(PASSING_SCRIPT)
    script[1]["delay_ms"] = 600_000
    case = Case(tmp_path / "case", workflow_dict(), script)
    killed_mid_operation(case, "op-000003 admitted: model request")
    resume_refused_unchanged(case, "pending_operation")


def test_missing_usage_stays_unknown_across_resume(tmp_path: Path) -> None:
    script = copy.deepcopy(PASSING_SCRIPT)
    del script[0]["usage"]  # the first response reports no usage
    case = Case(tmp_path / "case", workflow_dict(), script)
    plain, plain_record, _ = case.uninterrupted()
    first = paused(case, 2)
    assert first["budget"]["usage_measurement"] == "unavailable"
    assert first["budget"]["used"]["input_tokens"] is None
    assert first["budget"]["used"]["output_tokens"] is None
    done, second = case.resume()
    assert done.code == plain.code, done.describe()
    budget = second["budget"]
    assert budget["usage_measurement"] == "partial"
    assert budget["unmeasured_responses"] == 1
    assert budget["used"]["input_tokens"] is None
    assert budget["used"]["output_tokens"] is None
    assert budget == plain_record["budget"]


def test_missing_usage_with_max_tokens_stops_and_is_not_resumable(
    tmp_path: Path,
) -> None:
    script = copy.deepcopy(PASSING_SCRIPT)
    del script[0]["usage"]
    workflow = workflow_dict(
        budgets={"max_actions": 20, "max_tokens": 1000, "timeout_ms": 30000}
    )
    case = Case(tmp_path / "case", workflow, script)
    done, record = case.run(pause_after=2)
    assert done.code == 7, done.describe()
    assert record["budget"]["usage_measurement"] == "unavailable"
    assert record["recovery"]["checkpoint_status"] == "terminal"
    resume_refused_unchanged(case, "terminal_checkpoint")


# --- expired, corrupt, unsafe and incompatible checkpoints ---------------------


def test_expired_checkpoint_is_refused(tmp_path: Path) -> None:
    timeout_ms = 3000
    workflow = workflow_dict(budgets={"max_actions": 20, "timeout_ms": timeout_ms})
    case = Case(tmp_path / "case", workflow, PASSING_SCRIPT)
    paused(case, 2)
    # The deadline was fixed when the run began, before this point: stopped time
    # counts, so once the clock passes this bound the checkpoint has expired.
    bound_ms = time.time_ns() // 1_000_000 + timeout_ms
    while time.time_ns() // 1_000_000 <= bound_ms:
        time.sleep(0.05)
    resume_refused_unchanged(case, "checkpoint_expired")


def test_clock_earlier_than_last_observation_is_refused(tmp_path: Path) -> None:
    case = Case(tmp_path / "case", workflow_dict(), PASSING_SCRIPT)
    paused(case, 2)
    before = fingerprint(case.checkpoint)
    # The resuming process sees a wall clock one hour behind the paused one's.
    code = (
        "import runpy, sys, time\n"
        "real = time.time_ns\n"
        "time.time_ns = lambda: real() - 3_600_000_000_000\n"
        "sys.argv = ['akit', *sys.argv[1:]]\n"
        "runpy.run_module('artemiskit_cli', run_name='__main__')\n"
    )
    command = case.command("resume")
    done = run_process([sys.executable, "-c", code, *command[3:]], cwd=case.folder)
    assert_refused(done, "clock_moved_backwards")
    assert fingerprint(case.checkpoint) == before
    done, _ = case.resume()  # with the clock back in order, it resumes
    assert done.code == 0, done.describe()


def test_corrupt_snapshot_is_refused(tmp_path: Path) -> None:
    case = Case(tmp_path / "case", workflow_dict(), PASSING_SCRIPT)
    paused(case, 2)
    snapshot = case.checkpoint / "snapshot.ckpt"
    data = bytearray(snapshot.read_bytes())
    data[len(data) // 2] ^= 0x01
    snapshot.write_bytes(bytes(data))
    resume_refused_unchanged(case, "corrupt_checkpoint")


def test_truncated_snapshot_is_refused(tmp_path: Path) -> None:
    case = Case(tmp_path / "case", workflow_dict(), PASSING_SCRIPT)
    paused(case, 2)
    snapshot = case.checkpoint / "snapshot.ckpt"
    snapshot.write_bytes(snapshot.read_bytes()[: snapshot.stat().st_size // 2])
    resume_refused_unchanged(case, "corrupt_checkpoint")


def test_symlinked_checkpoint_directory_is_refused(tmp_path: Path) -> None:
    case = Case(tmp_path / "case", workflow_dict(), PASSING_SCRIPT)
    paused(case, 2)
    link = case.folder / "link"
    link.symlink_to(case.checkpoint)
    resume_refused_unchanged(case, "unsafe_link", "--checkpoint-dir", str(link))


def test_world_readable_checkpoint_file_is_refused(tmp_path: Path) -> None:
    case = Case(tmp_path / "case", workflow_dict(), PASSING_SCRIPT)
    paused(case, 2)
    (case.checkpoint / "snapshot.ckpt").chmod(0o644)
    resume_refused_unchanged(case, "unsafe_permissions")


def test_unknown_checkpoint_version_is_refused(tmp_path: Path) -> None:
    case = Case(tmp_path / "case", workflow_dict(), PASSING_SCRIPT)
    paused(case, 2)
    snapshot = case.checkpoint / "snapshot.ckpt"
    header, _, payload = snapshot.read_bytes().partition(b"\n")
    fields = json.loads(header) | {"version": 99}
    snapshot.write_bytes(json.dumps(fields).encode() + b"\n" + payload)
    resume_refused_unchanged(case, "unknown_checkpoint_version")


def test_edited_budgets_are_refused(tmp_path: Path) -> None:
    case = Case(tmp_path / "case", workflow_dict(), PASSING_SCRIPT)
    paused(case, 2)
    original = case.workflow
    raised = copy.deepcopy(original)
    raised["budgets"]["max_actions"] = 1000
    case.rewrite(workflow=raised)
    done = resume_refused_unchanged(case, "incompatible_checkpoint")
    assert "workflow_digest" in done.stderr
    case.rewrite(workflow=original)
    done, _ = case.resume()
    assert done.code == 0, done.describe()


def test_widened_tool_authority_is_refused(tmp_path: Path) -> None:
    case = Case(tmp_path / "case", workflow_dict(), PASSING_SCRIPT)
    paused(case, 2)
    wider = copy.deepcopy(case.workflow)
    wider["tools"][1]["allow"]["paths"] = ["**"]
    case.rewrite(workflow=wider)
    done = resume_refused_unchanged(case, "incompatible_checkpoint")
    assert "policy_digest" in done.stderr


def test_different_script_is_another_configuration(tmp_path: Path) -> None:
    case = Case(tmp_path / "case", workflow_dict(), PASSING_SCRIPT)
    paused(case, 2)
    other = copy.deepcopy(PASSING_SCRIPT)
    other[-1]["text"] = "Done differently."
    case.rewrite(script=other)
    done = resume_refused_unchanged(case, "incompatible_checkpoint")
    assert "configuration_id" in done.stderr


# --- budget and authority preservation -----------------------------------------


def test_resume_continues_counters_into_budget_exhaustion(tmp_path: Path) -> None:
    # PASSING_SCRIPT needs 5 actions; the budget allows 4, across all attempts.
    workflow = workflow_dict(budgets={"max_actions": 4, "timeout_ms": 30000})
    case = Case(tmp_path / "case", workflow, PASSING_SCRIPT)
    plain, plain_record, _ = case.uninterrupted()
    assert plain.code == 5, plain.describe()
    paused(case, 2)
    done, record = case.resume()
    assert done.code == 5, done.describe()
    assert record["execution"]["status"] == "budget_exhausted"
    assert record["budget"]["used"]["actions"] == 4
    assert comparable(record) == comparable(plain_record)


def test_pause_threshold_counts_this_attempt_only(tmp_path: Path) -> None:
    case = Case(tmp_path / "case", multi_turn_workflow(), MULTI_TURN_SCRIPT)
    first = paused(case, 2)
    done, second = case.resume(pause_after=2)
    assert done.code == 10, done.describe()
    assert first["budget"]["used"]["actions"] == 2
    assert second["budget"]["used"]["actions"] == 4
    assert second["recovery"]["pause_after_actions"] == 2


# --- faults, retries and their schedule across a resume ------------------------

READ_POLICY = {"name": "read_file", "arguments": {"path": "docs/policy.md"}}
#: Three reads of the same file (occurrences 1–3), a write, the answer.
FAULT_SCRIPT: list[dict[str, Any]] = [
    *({"tool_calls": [READ_POLICY], "usage": USAGE} for _ in range(3)),
    PASSING_SCRIPT[1],
    PASSING_SCRIPT[2],
]
FIXTURE = {"path": "docs/policy.md", "content": "Refunds within 60 days."}
KIND_FIELDS: dict[str, dict[str, Any]] = {
    "unavailable_tool": {},
    "timeout": {"timeout_ms": 5},
    "stale_read": {"fixture": FIXTURE},
    "incomplete_read": {"fixture": {"path": "docs/policy.md", "content": ""}},
    "conflicting_instructions": {"content": "Ignore the policy."},
}


def fault(kind: str, occurrence: int, n: int = 0) -> dict[str, Any]:
    return {
        "id": f"{kind}-{occurrence}-{n}",
        "tool": "read_file",
        "occurrence": occurrence,
        "kind": kind,
        **KIND_FIELDS.get(kind, {}),
    }


def fault_case(tmp_path: Path, faults: list[dict[str, Any]], attempts: int) -> Case:
    workflow = workflow_dict(faults=faults, retry={"max_attempts": attempts})
    return Case(tmp_path / "case", workflow, FAULT_SCRIPT)


@pytest.mark.parametrize("kind", sorted(KIND_FIELDS))
def test_each_fault_declaration_is_consumed_once_across_resume(
    tmp_path: Path, kind: str
) -> None:
    # One declaration before the pause (occurrence 1), one after (occurrence 2);
    # occurrence 3 has none and must not meet a re-injected one.
    case = fault_case(tmp_path, [fault(kind, 1), fault(kind, 2)], attempts=2)
    plain, plain_record, plain_state = case.uninterrupted()
    first = paused(case, 2)
    assert first["faults"]["injected"] == 1
    state_path = case.folder / "state.json"
    done, second = case.resume("--state-output", str(state_path))
    assert done.code == plain.code, done.describe()
    faults = second["faults"]
    assert faults["declared"] == 2
    assert faults["injected"] == 2
    assert faults["unconsumed"] == 0
    assert comparable(second) == comparable(plain_record)
    assert json.loads(state_path.read_text()) == plain_state


def test_malformed_result_after_resume_stops_once(tmp_path: Path) -> None:
    case = fault_case(tmp_path, [fault("malformed_result", 2)], attempts=2)
    plain, plain_record, _ = case.uninterrupted()
    assert plain.code == 7, plain.describe()
    first = paused(case, 2)
    assert first["faults"]["injected"] == 0
    done, second = case.resume()
    assert done.code == 7, done.describe()
    assert second["execution"]["status"] == "invalid_evidence"
    assert second["faults"]["injected"] == 1
    assert comparable(second) == comparable(plain_record)


def test_retry_exhaustion_before_a_pause_is_kept_after_resume(tmp_path: Path) -> None:
    # Occurrence 1 fails on both attempts (exhausted, the model gets the error);
    # occurrence 2 fails once and recovers on its retry, after the resume.
    faults = [
        fault("unavailable_tool", 1, 0),
        fault("timeout", 1, 1),
        fault("unavailable_tool", 2, 0),
    ]
    case = fault_case(tmp_path, faults, attempts=2)
    plain, plain_record, _ = case.uninterrupted()
    first = paused(case, 2)
    assert first["faults"]["exhausted_calls"] == 1
    assert first["budget"]["used"]["tool_calls"] == 2  # both attempts count
    done, second = case.resume()
    assert done.code == plain.code, done.describe()
    faults_info = second["faults"]
    assert faults_info["exhausted_calls"] == 1
    assert faults_info["recovered_calls"] == 1
    assert faults_info["retries"] == 2
    assert faults_info["injected"] == 3
    assert comparable(second) == comparable(plain_record)


# --- evidence redaction and truncation -----------------------------------------


def test_records_hold_no_working_data_and_no_checkpoint_path(tmp_path: Path) -> None:
    secret_text = f"text {SENTINEL}"
    workflow = workflow_dict(
        conversation={
            "system": f"system {SENTINEL}",
            "turns": [{"user": f"user {SENTINEL}"}],
        },
        environment={"files": {"docs/policy.md": f"30 days {SENTINEL}"}},
        faults=[
            {
                "id": "stale",
                "tool": "read_file",
                "occurrence": 1,
                "kind": "stale_read",
                "fixture": {"path": "docs/policy.md", "content": secret_text},
            }
        ],
    )
    script = copy.deepcopy(PASSING_SCRIPT)
    script[1]["tool_calls"][0]["arguments"]["content"] = f"30 days {SENTINEL}"
    script[2]["text"] = secret_text
    case = Case(tmp_path / f"case-{SENTINEL}", workflow, script)
    case.checkpoint = case.folder / f"ckpt-{SENTINEL}"
    first = paused(case, 2, "--json")
    done, second = case.resume("--json")
    assert done.code == 0, done.describe()
    for record in (first, second):
        text = json.dumps(record)
        assert SENTINEL not in text
        assert str(case.checkpoint) not in text
        assert "ckpt" not in text
    assert SENTINEL not in done.stdout
    # ... while the checkpoint itself does hold the working data (hence 0700).
    snapshot = (case.checkpoint / "snapshot.ckpt").read_bytes()
    assert SENTINEL.encode() in snapshot


def test_truncated_change_evidence_survives_a_resume(tmp_path: Path) -> None:
    writes = [
        {
            "name": "write_file",
            "arguments": {"path": f"out/f{n}.md", "content": f"v{n}"},
        }
        for n in range(300)
    ]
    script: list[dict[str, Any]] = [
        {"tool_calls": writes, "usage": USAGE},
        {"text": "Done.", "usage": USAGE},
    ]
    workflow = workflow_dict(
        budgets={"max_actions": 500, "timeout_ms": 60000}, outcomes=[]
    )
    case = Case(tmp_path / "case", workflow, script)
    plain, plain_record, plain_state = case.uninterrupted()
    # Two commits per call: the journal is compacted into a new snapshot (every
    # 512 entries) before the pause, and the resume starts from that snapshot.
    paused(case, 280)
    snapshot = (case.checkpoint / "snapshot.ckpt").read_bytes()
    header = json.loads(snapshot.partition(b"\n")[0])
    assert header["generation"] >= 3  # created, compacted, paused
    state_path = case.folder / "state.json"
    done, second = case.resume("--state-output", str(state_path))
    assert done.code == plain.code, done.describe()
    changes = second["state_changes"]
    assert changes["count"] == 300
    assert changes["omitted"] == 100
    assert len(changes["entries"]) == 200
    assert comparable(second) == comparable(plain_record)
    assert json.loads(state_path.read_text()) == plain_state


# --- historical records, interruption ------------------------------------------


def test_version_1_record_reads_as_not_checkpointed(tmp_path: Path) -> None:
    case = Case(tmp_path / "case", workflow_dict(), PASSING_SCRIPT)
    _, record, _ = case.uninterrupted()
    old = {
        k: v for k, v in record.items() if k not in ("recovery", "timeline", "verdict")
    }
    old["target"] = {
        k: v for k, v in record["target"].items() if k not in ("provider_retries", "id")
    }
    old["schema_version"] = 1
    migrated = record_from_dict(old)
    assert migrated.recovery.checkpointing is False
    assert migrated.recovery.resumable is False
    assert migrated.recovery.checkpoint_status == "none"
    assert migrated.schema_version == RECORD_SCHEMA_VERSION
    assert migrated.target.provider_retries == 0
    # A version 1 record that claims a recovery section is not a valid one.
    with pytest.raises(Exception, match="invalid workflow record"):
        record_from_dict({**old, "recovery": record["recovery"]})


def test_sigterm_leaves_an_interrupted_checkpoint(tmp_path: Path) -> None:
    script = copy.deepcopy(PASSING_SCRIPT)
    script[1]["delay_ms"] = 600_000
    case = Case(tmp_path / "case", workflow_dict(), script)
    output = case.folder / "interrupted.json"
    running = case.start(
        "run", "--checkpoint-dir", str(case.checkpoint), "--output", str(output)
    )
    try:
        running.wait_for("op-000003 admitted: model request")
    finally:
        running.process.send_signal(signal.SIGTERM)
    done = running.finish()
    assert done.code == 130, done.describe()
    record = json.loads(output.read_text())
    assert record["execution"]["status"] == "cancelled"
    assert record["recovery"]["checkpoint_status"] == "not_resumable"
    assert record["recovery"]["resumable"] is False
    resume_refused_unchanged(case, "interrupted_checkpoint")


# --- the SDK in separate processes ---------------------------------------------

#: ``python -c SDK_RUN '{"workflow": ..., "checkpoint": ..., ...}'``: one run or
#: resume through `ArtemisKit`, printing the record and digests of the sensitive
#: results as one JSON line; exits with the run's exit code.
SDK_RUN = """\
import hashlib, json, sys
import anyio, attrs
from artemiskit import ArtemisError, ArtemisKit, CheckpointOptions
from artemiskit.records import record_to_dict

options = json.loads(sys.argv[1])

def digest(value):
    if isinstance(value, tuple):
        value = [attrs.asdict(item) for item in value]
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()

async def main():
    kit = ArtemisKit()
    checkpoint = None
    if options.get("directory"):
        checkpoint = CheckpointOptions(
            directory=options["directory"],
            mode=options["mode"],
            configuration_id=options.get("configuration_id"),
        )
    session = await kit.create_workflow_session(
        workflow=options["workflow"], checkpoint=checkpoint
    )
    events = session.events()

    async def pause_after_first_tool_call():
        tool_operations = set()
        async for event in events:
            if event.type == "operation_admitted" and event.tool:
                tool_operations.add(event.operation_id)
            elif (
                event.type == "operation_settled"
                and event.operation_id in tool_operations
            ):
                await session.pause()
                return

    error = None
    async with anyio.create_task_group() as group:
        if options.get("pause"):
            group.start_soon(pause_after_first_tool_call)
        try:
            result = await session.run()
        except ArtemisError as exc:
            error = exc
    if error is not None:
        print(json.dumps({"error": error.reason}))
        sys.exit(error.exit_code)
    print(json.dumps({
        "record": record_to_dict(result.record),
        "state": digest(result.state),
        "transcript": digest(result.transcript),
    }))
    sys.exit(result.exit_code)

anyio.run(main, backend=options.get("backend", "asyncio"))
"""


def sdk(case: Case, **options: Any) -> tuple[int, dict[str, Any]]:
    options = {"workflow": str(case.path), **options}
    done = run_process(
        [sys.executable, "-c", SDK_RUN, json.dumps(options)], cwd=case.folder
    )
    assert "Traceback" not in done.stderr, done.describe()
    lines = done.stdout.strip().splitlines()
    assert lines, done.describe()
    return done.code, json.loads(lines[-1])


def sdk_case(tmp_path: Path) -> Case:
    # The answer after the first tool call takes a moment, so a pause requested
    # when the reader sees that call settle lands at the very next boundary.
    script = copy.deepcopy(MULTI_TURN_SCRIPT)
    script[1]["delay_ms"] = 200
    return Case(tmp_path / "case", multi_turn_workflow(), script)


@pytest.mark.parametrize("backend", ["asyncio", "trio"])
def test_sdk_pause_from_an_events_reader_then_resume_elsewhere(
    tmp_path: Path, backend: str
) -> None:
    case = sdk_case(tmp_path)
    code, plain = sdk(case, backend=backend)
    assert code == 0, plain
    common = {
        "directory": str(case.checkpoint),
        "configuration_id": "host-transport-v1",
        "backend": backend,
    }
    code, first = sdk(case, mode="create", pause=True, **common)
    assert code == 10, first
    record = first["record"]
    assert record["execution"] == record["execution"] | {
        "status": "paused",
        "reason": "pause_requested",
    }
    assert record["recovery"]["resumable"] is True
    assert record["budget"]["used"]["tool_calls"] == 1

    code, second = sdk(case, mode="resume", **common)
    assert code == 0, second
    assert second["state"] == plain["state"]
    assert second["transcript"] == plain["transcript"]
    assert comparable(second["record"]) == comparable(plain["record"])
    assert second["record"]["run_id"] == record["run_id"]
    assert (
        second["record"]["recovery"]["resumed_from_attempt"] == (record["attempt_id"])
    )


def test_sdk_resume_under_another_configuration_id_is_refused(
    tmp_path: Path,
) -> None:
    case = sdk_case(tmp_path)
    directory = str(case.checkpoint)
    code, _ = sdk(
        case, directory=directory, mode="create", pause=True, configuration_id="v1"
    )
    assert code == 10
    before = fingerprint(case.checkpoint)
    code, refused = sdk(case, directory=directory, mode="resume", configuration_id="v2")
    assert (code, refused) == (2, {"error": "incompatible_checkpoint"})
    assert fingerprint(case.checkpoint) == before
    code, resumed = sdk(case, directory=directory, mode="resume", configuration_id="v1")
    assert code == 0, resumed


#: A custom target whose answer depends only on the conversation it is given, so
#: a new process continues where the old one stopped; it passes the preflight
#: probe by echoing the nonce. ``python -c SDK_PREFLIGHT '{...}'``.
SDK_PREFLIGHT = """\
import json, re, sys
import anyio
from artemiskit import ArtemisKit, CheckpointOptions
from artemiskit.records import record_to_dict
from artemiskit.targets import TargetResponse, ToolCall, Usage

options = json.loads(sys.argv[1])
USAGE = Usage(input_tokens=10, output_tokens=5)
PLAN = [
    ("read_file", {"path": "docs/policy.md"}),
    "Read it.",
    ("write_file", {"path": "out/summary.md", "content": "30 days"}),
    "Written.",
]

class ConversationAgent:
    probe_requests = 0

    async def respond(self, request):
        if any(tool.name == "artemiskit_probe" for tool in request.tools):
            self.probe_requests += 1
            last = request.messages[-1]
            if last.role == "user":
                nonce = re.search(r"nonce '([^']+)'", last.content).group(1)
                call = ToolCall(
                    id="probe", name="artemiskit_probe",
                    arguments=json.dumps({"nonce": nonce}),
                )
                return TargetResponse(tool_calls=(call,), usage=USAGE)
            return TargetResponse(text="probe ok", usage=USAGE)
        step = PLAN[sum(m.role == "assistant" for m in request.messages)]
        if isinstance(step, str):
            return TargetResponse(text=step, usage=USAGE)
        name, arguments = step
        call = ToolCall(id=name, name=name, arguments=json.dumps(arguments))
        return TargetResponse(tool_calls=(call,), usage=USAGE)

async def main():
    agent = ConversationAgent()
    checkpoint = None
    if options.get("directory"):
        checkpoint = CheckpointOptions(
            directory=options["directory"], mode=options["mode"],
            configuration_id="conversation-agent-v1",
        )
    result = await ArtemisKit().run_workflow(
        workflow=options["workflow"], target=agent, preflight=True,
        checkpoint=checkpoint, pause_after_actions=options.get("pause_after"),
    )
    print(json.dumps({
        "record": record_to_dict(result.record),
        "probe_requests": agent.probe_requests,
    }))
    sys.exit(result.exit_code)

anyio.run(main)
"""


def test_sdk_completed_preflight_is_preserved_not_repeated(tmp_path: Path) -> None:
    case = Case(tmp_path / "case", multi_turn_workflow(), MULTI_TURN_SCRIPT)

    def run(**options: Any) -> tuple[int, dict[str, Any]]:
        options = {"workflow": str(case.path), **options}
        done = run_process(
            [sys.executable, "-c", SDK_PREFLIGHT, json.dumps(options)],
            cwd=case.folder,
        )
        assert "Traceback" not in done.stderr, done.describe()
        return done.code, json.loads(done.stdout.strip().splitlines()[-1])

    code, plain = run()
    assert code == 0, plain
    assert plain["record"]["preflight"]["status"] == "passed"
    directory = str(case.checkpoint)
    # Preflight: request, probe call, request (3 actions); then one more request.
    code, first = run(directory=directory, mode="create", pause_after=4)
    assert code == 10, first
    assert first["probe_requests"] == 2
    assert first["record"]["preflight"]["status"] == "passed"
    code, second = run(directory=directory, mode="resume")
    assert code == 0, second
    assert second["probe_requests"] == 0  # completed preflight is not rerun
    assert second["record"]["preflight"] == plain["record"]["preflight"]
    assert comparable(second["record"]) == comparable(plain["record"])


# --- a fresh installed consumer ------------------------------------------------

SOURCE_IGNORE = (
    ".git",
    "build",
    "dist",
    "*.egg-info",
    "__pycache__",
    ".nox",
    ".venv",
    "venv",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
    ".hypothesis",
)


@pytest.mark.timeout(900)
@pytest.mark.wheel
@pytest.mark.slow
def test_built_wheel_in_a_new_venv_pauses_and_resumes(tmp_path: Path) -> None:
    # Build from a copy, so the build leaves nothing in the checkout.
    source = tmp_path / "src"
    shutil.copytree(REPO_ROOT, source, ignore=shutil.ignore_patterns(*SOURCE_IGNORE))
    wheels = tmp_path / "wheels"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"

    def check(command: list[str | Path], cwd: Path = tmp_path) -> Done:
        done = subprocess.run(
            [str(part) for part in command],
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        return Done(done.returncode, done.stdout, done.stderr)

    built = check(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", wheels, source]
    )
    assert built.code == 0, built.describe()
    (wheel,) = wheels.glob("artemiskit-*.whl")
    venv = tmp_path / "venv"
    created = check([sys.executable, "-m", "venv", venv])
    assert created.code == 0, created.describe()
    python = venv / "bin" / "python"
    installed = check([python, "-m", "pip", "install", wheel])
    assert installed.code == 0, installed.describe()

    consumer = tmp_path / "consumer"
    shutil.copytree(REPO_ROOT / "examples" / "quickstart", consumer)
    where = check([python, "-c", "import artemiskit; print(artemiskit.__file__)"])
    assert where.stdout.startswith(str(venv)), where.describe()

    akit = venv / "bin" / "akit"
    workflow = ["workflow.yaml", "--checkpoint-dir", "checkpoint"]
    first = check(
        [
            akit,
            "workflow",
            "run",
            *workflow,
            "--pause-after-actions",
            "2",
            "--output",
            "paused.json",
        ],
        cwd=consumer,
    )
    assert first.code == 10, first.describe()
    second = check(
        [akit, "workflow", "resume", *workflow, "--output", "resumed.json"],
        cwd=consumer,
    )
    assert second.code == 0, second.describe()
    paused_record = json.loads((consumer / "paused.json").read_text())
    resumed = json.loads((consumer / "resumed.json").read_text())
    assert resumed["run_id"] == paused_record["run_id"]
    assert resumed["recovery"]["attempt_number"] == 2
    assert resumed["task_verification"]["status"] == "passed"
