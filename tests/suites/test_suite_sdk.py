"""`ArtemisKit.run_suite` and the suite session, on asyncio and trio (SPEC 13)."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import anyio
import pytest

from artemiskit import ArtemisKit, FileAccessError, WorkflowError
from artemiskit.suites import (
    SuiteEvent,
    SuiteOptions,
    junit_xml,
    load_suite_record,
    markdown_summary,
    suite_record_schema,
)
from tests._builders import PASSING_SCRIPT, USAGE
from tests.suites._suites import (
    FAILING_SCRIPT,
    SLOW_SCRIPT,
    write_member,
    write_suite,
)

pytestmark = pytest.mark.anyio

ROOT = Path(__file__).resolve().parents[2]


def _listing(root: Path) -> list[Path]:
    return sorted(root.rglob("*"))


async def test_pass_rates_from_script_variants(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = await ArtemisKit().run_suite(
        paths=[write_suite(tmp_path)], repeat=5, output_dir=out
    )
    summary = result.summary
    assert summary["status"] == "completed"
    by_name = {w["name"]: w for w in summary["workflows"]}
    # Sorted discovery: flaky/ before steady/.
    assert [w["name"] for w in summary["workflows"]] == ["flaky", "steady"]
    flaky = by_name["flaky"]
    # Repetition r replays variant (r - 1) mod 2: runs 2 and 4 fail.
    assert [r["verification"] for r in flaky["runs"]] == [
        "passed",
        "failed",
        "passed",
        "failed",
        "passed",
    ]
    assert (flaky["passed"], flaky["failed"], flaky["pass_rate"]) == (3, 2, 0.6)
    assert flaky["failure_reasons"] == {"missing_content": 2}
    assert flaky["requirements"] == [
        {"id": "summary", "passed": 3, "failed": 2, "unavailable": 0}
    ]
    assert flaky["pass_hat_k"]["2"] == pytest.approx(0.3)
    assert by_name["steady"]["pass_rate"] == 1.0
    assert summary["totals"]["runs_finished"] == 10
    assert summary["totals"]["input_tokens"] == 3 * 10 * 3 + 2 * 10 * 2 + 5 * 30
    assert result.exit_code == 8  # below the default --min-pass-rate 1.0
    assert load_suite_record(out / "suite.json") == summary
    for run in flaky["runs"]:
        record = json.loads((out / run["record"]).read_text("utf-8"))
        assert record["run_id"] == run["run_id"]
    assert sorted(p.name for p in (out / "runs" / "flaky").iterdir()) == [
        f"00{r}.record.json" for r in range(1, 6)
    ]
    assert not list(out.rglob(".akit-*"))


async def test_min_pass_rate_decides_exit_code(tmp_path: Path) -> None:
    result = await ArtemisKit().run_suite(
        paths=[write_suite(tmp_path)], repeat=4, min_pass_rate=0.5
    )
    assert result.exit_code == 0
    assert len(result.runs) == 8


async def test_no_output_dir_writes_nothing(tmp_path: Path) -> None:
    suite = write_suite(tmp_path)
    before = _listing(tmp_path)
    result = await ArtemisKit().run_suite(paths=[suite], repeat=2)
    assert result.summary["totals"]["runs_finished"] == 4
    assert _listing(tmp_path) == before


async def test_fail_fast_stops_new_starts(tmp_path: Path) -> None:
    suite = write_suite(tmp_path)
    result = await ArtemisKit().run_suite(
        paths=[suite], repeat=5, concurrency=1, fail_fast=True
    )
    summary = result.summary
    assert summary["status"] == "failed_fast"
    # Order: flaky#1, steady#1, flaky#2 (fails), then nothing new starts.
    assert summary["totals"]["runs_finished"] == 3
    assert summary["totals"]["runs_not_started"] == 7
    assert result.exit_code == 8


async def test_fail_fast_stops_on_an_unavailable_run(tmp_path: Path) -> None:
    suite = tmp_path / "suite"
    write_member(suite, "judged", [PASSING_SCRIPT], outcomes=JUDGED_OUTCOMES)
    result = await ArtemisKit().run_suite(
        paths=[suite], repeat=3, concurrency=1, fail_fast=True
    )
    summary = result.summary
    assert (summary["status"], summary["reason"]) == ("failed_fast", "run_not_passed")
    assert summary["totals"]["runs_finished"] == 1
    assert summary["totals"]["unavailable"] == 1
    assert summary["totals"]["runs_not_started"] == 2


async def test_fail_fast_stops_on_a_lost_run(tmp_path: Path) -> None:
    suite = tmp_path / "suite"
    write_member(suite, "judged", [PASSING_SCRIPT], outcomes=JUDGED_OUTCOMES)
    judge = tmp_path / "judge.yaml"
    judge.write_text('{"provider": "scripted", "model": "judge"}', "utf-8")
    session = await ArtemisKit().create_suite_session(
        paths=[suite], repeat=3, concurrency=1, fail_fast=True, judge=judge
    )
    # The judge configuration disappears after validation: the run is lost.
    await anyio.Path(judge).unlink()
    result = await session.run()
    summary = result.summary
    assert (summary["status"], summary["reason"]) == ("failed_fast", "run_not_passed")
    assert summary["totals"]["runs_finished"] == 1
    assert summary["totals"]["runs_lost"] == 1
    assert summary["totals"]["runs_not_started"] == 2


async def test_suite_budget_stops_at_measured_tokens(tmp_path: Path) -> None:
    suite = tmp_path / "suite"
    write_member(suite, "only", [PASSING_SCRIPT])
    result = await ArtemisKit().run_suite(
        paths=[suite], repeat=5, concurrency=1, max_suite_tokens=90
    )
    # Each run uses 45 tokens: after two runs the budget is reached.
    assert result.summary["status"] == "budget_exhausted"
    assert result.summary["reason"] == "max_suite_tokens_reached"
    assert result.summary["totals"]["runs_finished"] == 2


async def test_unmeasured_usage_stops_new_starts(tmp_path: Path) -> None:
    suite = tmp_path / "suite"
    unmeasured = [
        {key: value for key, value in entry.items() if key != "usage"}
        for entry in PASSING_SCRIPT
    ]
    write_member(suite, "only", [unmeasured])
    result = await ArtemisKit().run_suite(
        paths=[suite], repeat=5, concurrency=1, max_suite_tokens=10_000
    )
    assert result.summary["status"] == "budget_exhausted"
    assert result.summary["reason"] == "usage_unmeasured"
    assert result.summary["totals"]["runs_finished"] == 1
    assert result.summary["totals"]["input_tokens"] is None


async def test_events_and_cancel_keep_interrupted_records(tmp_path: Path) -> None:
    suite = tmp_path / "suite"
    write_member(suite, "fast", [PASSING_SCRIPT])
    write_member(suite, "slow", [SLOW_SCRIPT])
    out = tmp_path / "out"
    session = await ArtemisKit().create_suite_session(
        paths=[suite], concurrency=2, output_dir=out
    )
    seen: list[SuiteEvent] = []

    async def watch() -> None:
        async for event in session.events():
            seen.append(event)
            if event.type == "run_finished" and event.workflow == "fast":
                session.cancel()

    async with anyio.create_task_group() as group:
        group.start_soon(watch)
        result = await session.run()
    assert result.summary["status"] == "cancelled"
    assert result.exit_code == 130
    slow = result.summary["workflows"][1]["runs"][0]
    assert slow["execution_status"] == "cancelled"
    assert (out / slow["record"]).is_file()
    assert load_suite_record(out / "suite.json")["status"] == "cancelled"
    assert seen[0].type == "suite_started"
    assert seen[-1].type == "suite_finished"
    assert seen[-1].exit_code == 130
    assert {e.type for e in seen} == {
        "suite_started",
        "run_started",
        "run_finished",
        "suite_finished",
    }


async def test_transcripts_are_private(tmp_path: Path) -> None:
    out = tmp_path / "out"
    await ArtemisKit().run_suite(
        paths=[write_suite(tmp_path)], output_dir=out, transcripts=True
    )
    folder = out / "transcripts" / "flaky"
    assert stat.S_IMODE(os.stat(out / "transcripts").st_mode) == 0o700
    assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700
    transcript = folder / "001.transcript.json"
    assert stat.S_IMODE(os.stat(transcript).st_mode) == 0o600
    data = json.loads(transcript.read_text("utf-8"))
    assert data["schema"] == "artemiskit.transcript"
    roles = [m["role"] for m in data["messages"]]
    assert roles[:2] == ["system", "user"] or roles[0] == "user"
    calls = [c["name"] for m in data["messages"] for c in m["tool_calls"]]
    assert calls == ["read_file", "write_file"]
    # The suite record stays metadata only.
    assert "30 days" not in (out / "suite.json").read_text("utf-8")


async def test_invalid_workflow_anywhere_means_nothing_runs(tmp_path: Path) -> None:
    suite = write_suite(tmp_path)
    broken = suite / "broken"
    broken.mkdir()
    (broken / "workflow.yaml").write_text("version: 2\nname: x\n", "utf-8")
    bad_script = suite / "flaky" / "agent.script.yaml"
    bad_script.write_text("version: 1\nvariants: [[{text: 3}]]\n", "utf-8")
    out = tmp_path / "out"
    with pytest.raises(WorkflowError) as caught:
        await ArtemisKit().run_suite(paths=[suite], output_dir=out)
    assert caught.value.reason == "invalid_suite"
    sources = {Path(p.source or "").name for p in caught.value.problems}
    assert sources == {"workflow.yaml", "agent.script.yaml"}
    assert all(p.line is not None for p in caught.value.problems)
    assert not out.exists()


async def test_duplicate_names_are_refused(tmp_path: Path) -> None:
    suite = tmp_path / "suite"
    write_member(suite, "a", [PASSING_SCRIPT])
    write_member(suite, "b", [PASSING_SCRIPT])
    data = json.loads((suite / "b" / "workflow.yaml").read_text("utf-8"))
    data["name"] = "a"
    (suite / "b" / "workflow.yaml").write_text(json.dumps(data), "utf-8")
    with pytest.raises(WorkflowError) as caught:
        await ArtemisKit().run_suite(paths=[suite])
    assert "duplicate workflow name 'a'" in caught.value.problems[0].message


async def test_folder_without_workflows_is_refused(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(WorkflowError) as caught:
        await ArtemisKit().run_suite(paths=[tmp_path / "empty"])
    assert caught.value.reason == "no_workflows"


async def test_non_empty_output_folder_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("mine", "utf-8")
    with pytest.raises(FileAccessError) as caught:
        await ArtemisKit().run_suite(paths=[write_suite(tmp_path)], output_dir=out)
    assert caught.value.exit_code == 1
    assert sorted(p.name for p in out.iterdir()) == ["keep.txt"]


async def test_an_existing_empty_output_folder_is_used(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    result = await ArtemisKit().run_suite(
        paths=[write_suite(tmp_path)], repeat=1, output_dir=out
    )
    assert result.summary["status"] == "completed"
    assert load_suite_record(out / "suite.json")["status"] == "completed"


async def test_usage_sum_over_runs(tmp_path: Path) -> None:
    suite = tmp_path / "suite"
    write_member(suite, "only", [PASSING_SCRIPT])
    result = await ArtemisKit().run_suite(paths=[suite], repeat=3)
    totals = result.summary["totals"]
    assert totals["input_tokens"] == 3 * 3 * USAGE["input_tokens"]
    assert totals["output_tokens"] == 3 * 3 * USAGE["output_tokens"]
    assert totals["usage_measurement"] == "complete"
    use = result.summary["workflows"][0]["budget_use"]
    assert use["actions"] == {"p50": 0.25, "p95": 0.25, "max": 0.25}
    assert use["tokens"] is None  # no max_tokens declared


async def test_fixtures_and_providers_are_checked_before_any_run(
    tmp_path: Path,
) -> None:
    suite = tmp_path / "suite"
    write_member(suite, "missing-fixture", [PASSING_SCRIPT])
    path = suite / "missing-fixture" / "workflow.yaml"
    data = json.loads(path.read_text("utf-8"))
    data["environment"]["fixture"] = "fixtures/state.yaml"
    path.write_text(json.dumps(data, indent=2), "utf-8")
    write_member(suite, "bad-fixture", [PASSING_SCRIPT])
    path = suite / "bad-fixture" / "workflow.yaml"
    data = json.loads(path.read_text("utf-8"))
    data["environment"]["fixture"] = "state.yaml"
    path.write_text(json.dumps(data, indent=2), "utf-8")
    (suite / "bad-fixture" / "state.yaml").write_text("documents: 3\n", "utf-8")
    write_member(
        suite, "remote", [PASSING_SCRIPT], target={"provider": "cloud", "model": "m"}
    )
    out = tmp_path / "out"
    with pytest.raises(WorkflowError) as caught:
        await ArtemisKit().run_suite(paths=[suite], output_dir=out)
    by_folder: dict[str, list[str]] = {}
    for problem in caught.value.problems:
        folder = Path(problem.source or "").relative_to(suite).parts[0]
        by_folder.setdefault(folder, []).append(problem.message)
    assert set(by_folder) == {"missing-fixture", "bad-fixture", "remote"}
    assert any("not found" in m for m in by_folder["missing-fixture"])
    remote = next(
        p for p in caught.value.problems if Path(p.source or "").parent.name == "remote"
    )
    assert remote.path == "$.target.provider"
    assert remote.line is not None
    assert "provider 'cloud' has no entry" in remote.message
    assert not out.exists()


JUDGED_OUTCOMES = [
    {"id": "summary", "file": "out/summary.md", "contains": ["30 days"]},
    {"id": "tone", "judge": {"rubric": "Neutral.", "threshold": 0.7}},
]


async def test_all_unavailable_has_no_pass_rate_and_exits_9(tmp_path: Path) -> None:
    suite = tmp_path / "suite"
    write_member(suite, "judged", [PASSING_SCRIPT], outcomes=JUDGED_OUTCOMES)
    result = await ArtemisKit().run_suite(paths=[suite], repeat=3)
    (workflow,) = result.summary["workflows"]
    assert (workflow["passed"], workflow["failed"], workflow["unavailable"]) == (
        0,
        0,
        3,
    )
    assert workflow["pass_rate"] is None
    assert workflow["pass_rate_interval"] is None
    assert workflow["pass_at_k"] == {}
    assert workflow["pass_hat_k"] == {}
    assert {"id": "tone", "passed": 0, "failed": 0, "unavailable": 3} in workflow[
        "requirements"
    ]
    assert result.exit_code == 9


async def test_a_run_without_a_record_is_lost_and_exits_7(tmp_path: Path) -> None:
    suite = tmp_path / "suite"
    write_member(suite, "judged", [PASSING_SCRIPT], outcomes=JUDGED_OUTCOMES)
    judge = tmp_path / "judge.yaml"
    judge.write_text('{"provider": "scripted", "model": "judge"}', "utf-8")
    session = await ArtemisKit().create_suite_session(
        paths=[suite], repeat=2, judge=judge, output_dir=tmp_path / "out"
    )
    # The judge configuration disappears after validation: no run can start.
    await anyio.Path(judge).unlink()
    result = await session.run()
    (workflow,) = result.summary["workflows"]
    assert [r["lost"] for r in workflow["runs"]] == [True, True]
    assert [r["lost_reason"] for r in workflow["runs"]] == ["run_error"] * 2
    assert [r["record"] for r in workflow["runs"]] == [None, None]
    # Lost runs are neither passed nor failed: left out of the pass rate.
    assert (workflow["passed"], workflow["failed"], workflow["pass_rate"]) == (
        0,
        0,
        None,
    )
    assert workflow["failure_reasons"] == {"run_lost": 2}
    assert result.summary["totals"]["runs_lost"] == 2
    assert result.summary["totals"]["input_tokens"] is None
    assert result.exit_code == 7
    assert load_suite_record(tmp_path / "out" / "suite.json")["exit_code"] == 7


async def test_suite_record_and_exports_carry_no_content(tmp_path: Path) -> None:
    sentinel = "SENTINEL-7f3a"
    suite = tmp_path / "suite"
    write_member(
        suite,
        "secretive",
        [PASSING_SCRIPT, FAILING_SCRIPT],
        environment={"files": {"docs/policy.md": f"30 days {sentinel}"}},
        conversation={"turns": [{"user": f"Summarize {sentinel}."}]},
    )
    out = tmp_path / "out"
    result = await ArtemisKit().run_suite(paths=[suite], repeat=2, output_dir=out)
    texts = [
        (out / "suite.json").read_text("utf-8"),
        junit_xml(result),
        markdown_summary(result.summary),
        repr(result),
        *[path.read_text("utf-8") for path in sorted((out / "runs").rglob("*.json"))],
    ]
    assert all(sentinel not in text for text in texts)
    assert str(tmp_path) not in texts[0]


async def test_a_caller_cancelled_suite_still_finishes_its_record(
    tmp_path: Path,
) -> None:
    suite = tmp_path / "suite"
    write_member(suite, "fast", [PASSING_SCRIPT])
    write_member(suite, "slow", [SLOW_SCRIPT])
    out = tmp_path / "out"
    session = await ArtemisKit().create_suite_session(
        paths=[suite], concurrency=2, output_dir=out
    )
    with anyio.CancelScope() as scope:

        async def watch() -> None:
            async for event in session.events():
                if event.type == "run_finished":
                    scope.cancel()

        async with anyio.create_task_group() as group:
            group.start_soon(watch)
            await session.run()
    assert scope.cancelled_caught
    summary = load_suite_record(out / "suite.json")
    assert summary["status"] == "cancelled"
    assert summary["exit_code"] == 130
    assert summary["totals"]["runs_finished"] == 1


async def test_suite_record_is_validated_on_read(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = await ArtemisKit().run_suite(paths=[write_suite(tmp_path)], output_dir=out)
    tampered = json.loads(json.dumps(result.summary))
    tampered["workflows"][0]["pass_rate"] = 1.5
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(tampered), "utf-8")
    with pytest.raises(WorkflowError) as caught:
        load_suite_record(bad)
    assert caught.value.reason == "invalid_suite_record"
    record = out / result.summary["workflows"][0]["runs"][0]["record"]
    with pytest.raises(WorkflowError) as caught:
        load_suite_record(record)
    assert caught.value.reason == "not_a_suite_record"
    assert suite_record_schema()["properties"]["schema"] == {
        "const": "artemiskit.suite-record"
    }


@pytest.mark.parametrize(
    "options",
    [
        {"repeat": 0},
        {"concurrency": 0},
        {"min_pass_rate": 1.5},
        {"max_suite_tokens": 0},
        {"transcripts": True},
    ],
)
async def test_invalid_options_are_refused_before_any_run(
    tmp_path: Path, options: dict[str, Any]
) -> None:
    suite = write_suite(tmp_path)
    with pytest.raises(WorkflowError) as caught:
        await ArtemisKit().run_suite(paths=[suite], **options)
    assert caught.value.reason == "invalid_option"


async def test_every_run_gets_a_fresh_judge(tmp_path: Path) -> None:
    suite = tmp_path / "suite"
    write_member(suite, "judged", [PASSING_SCRIPT], outcomes=JUDGED_OUTCOMES)
    judge = tmp_path / "judge.yaml"
    judge.write_text('{"provider": "scripted", "model": "judge"}', "utf-8")
    script = {"version": 1, "responses": [{"score": 0.9, "usage": USAGE}]}
    (tmp_path / "judge.script.yaml").write_text(json.dumps(script), "utf-8")
    result = await ArtemisKit().run_suite(paths=[suite], repeat=3, judge=judge)
    (workflow,) = result.summary["workflows"]
    assert (workflow["passed"], workflow["pass_rate"]) == (3, 1.0)
    assert result.exit_code == 0


async def test_a_suite_runs_custom_tools_registered_on_the_kit(
    tmp_path: Path,
) -> None:
    from examples.custom_tool.order_tools import TOOLS

    workflow = ROOT / "examples" / "custom_tool" / "workflow.yaml"
    with pytest.raises(WorkflowError) as caught:
        await ArtemisKit().create_suite_session(paths=[workflow])
    assert caught.value.reason == "invalid_suite"
    assert any("--tools" in problem.message for problem in caught.value.problems)
    result = await ArtemisKit(tools=TOOLS).run_suite(
        paths=[workflow], repeat=2, output_dir=tmp_path / "out"
    )
    assert result.exit_code == 0
    (summary,) = result.summary["workflows"]
    assert (summary["name"], summary["passed"], summary["failed"]) == (
        "custom-tool",
        2,
        0,
    )


def _bytes_written() -> int:
    """This process's bytes written so far (``wchar`` of ``/proc/self/io``)."""
    for line in Path("/proc/self/io").read_text("ascii").splitlines():
        if line.startswith("wchar:"):
            return int(line.split()[1])
    raise AssertionError("no wchar in /proc/self/io")


async def test_suite_record_rewrites_stay_linear_in_runs(tmp_path: Path) -> None:
    path = write_member(tmp_path / "suite", "steady", [PASSING_SCRIPT])
    out = tmp_path / "out"
    before = _bytes_written()
    await ArtemisKit().run_suite(
        paths=[path], repeat=300, concurrency=1, output_dir=out
    )
    written = _bytes_written() - before
    kept = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    # Every record once and suite.json a few times over, not once per run
    # (which would write it about 150 times over).
    assert written <= kept + 12 * (out / "suite.json").stat().st_size


async def test_a_finished_runs_record_is_on_disk_before_its_event(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out"
    session = await ArtemisKit().create_suite_session(
        paths=[write_suite(tmp_path)], repeat=3, output_dir=out
    )
    seen: list[bool] = []

    async def watch() -> None:
        async for event in session.events():
            if event.type == "run_finished":
                name = f"{event.repetition:03d}.record.json"
                seen.append((out / "runs" / str(event.workflow) / name).is_file())

    async with anyio.create_task_group() as group:
        group.start_soon(watch)
        await anyio.wait_all_tasks_blocked()
        await session.run()
    assert seen == [True] * 6


def test_suite_statuses_are_those_of_the_spec() -> None:
    status = suite_record_schema()["properties"]["status"]
    assert sorted(status["enum"]) == [
        "budget_exhausted",
        "cancelled",
        "completed",
        "failed_fast",
    ]


async def test_variant_runs_bind_the_scripts_transport_digest(tmp_path: Path) -> None:
    path = write_member(tmp_path / "suite", "flaky", [PASSING_SCRIPT, FAILING_SCRIPT])
    kit = ArtemisKit()
    single = await kit.run_workflow(workflow=path)
    digest = single.record.target.transport_digest
    assert digest is not None
    result = await kit.run_suite(paths=[path], repeat=2)
    digests = [
        run.result.record.target.transport_digest
        for run in result.runs
        if run.result is not None
    ]
    assert digests == [digest, digest]


async def test_suite_options_and_keywords(tmp_path: Path) -> None:
    options = SuiteOptions(repeat=3, output_dir=tmp_path / "out", min_pass_rate=0.5)
    kit = ArtemisKit()
    result = await kit.run_suite(paths=[write_suite(tmp_path)], options=options)
    assert result.summary["settings"]["repeat"] == 3
    assert result.exit_code == 0  # flaky passes 2 of 3: above 0.5
    session = await kit.create_suite_session(
        paths=[write_suite(tmp_path / "again")],
        options=options,
        repeat=1,
        output_dir=None,
    )
    assert session.planned == 2


async def test_runs_replay_the_script_as_validated(tmp_path: Path) -> None:
    path = write_member(tmp_path / "suite", "steady", [PASSING_SCRIPT])
    kit = ArtemisKit()
    digest = (await kit.run_workflow(workflow=path)).record.target.transport_digest
    session = await kit.create_suite_session(paths=[path], repeat=3)
    # Validated; now the script changes before (and while) the runs go.
    failing = {"version": 1, "variants": [FAILING_SCRIPT]}
    (path.parent / "agent.script.yaml").write_text(json.dumps(failing), "utf-8")
    result = await session.run()
    assert result.exit_code == 0
    assert [r["verification"] for r in result.summary["workflows"][0]["runs"]] == [
        "passed"
    ] * 3
    assert {
        run.result.record.target.transport_digest
        for run in result.runs
        if run.result is not None
    } == {digest}


async def test_names_that_would_share_a_folder_are_kept_apart(tmp_path: Path) -> None:
    # "x y" gets the folder x-y-<first 8 hex of its sha256>: 887fcea6, which is
    # also a plain workflow name here.
    suite = tmp_path / "suite"
    write_member(suite, "x-y-887fcea6", [FAILING_SCRIPT], folder_name="a")
    write_member(suite, "x y", [PASSING_SCRIPT], folder_name="b")
    write_member(suite, "X-Y-887FCEA6", [PASSING_SCRIPT], folder_name="c")
    out = tmp_path / "out"
    result = await ArtemisKit().run_suite(paths=[suite], repeat=2, output_dir=out)
    summary = load_suite_record(out / "suite.json")
    assert summary["status"] == "completed"
    folders = {
        w["name"]: {run["record"].split("/")[1] for run in w["runs"]}
        for w in summary["workflows"]
    }
    assert all(len(names) == 1 for names in folders.values())
    chosen = [next(iter(names)).lower() for names in folders.values()]
    assert len(set(chosen)) == 3
    verdicts = {
        w["name"]: [r["verification"] for r in w["runs"]] for w in summary["workflows"]
    }
    assert verdicts == {
        "x-y-887fcea6": ["failed", "failed"],
        "x y": ["passed", "passed"],
        "X-Y-887FCEA6": ["passed", "passed"],
    }
    for workflow in summary["workflows"]:
        for run in workflow["runs"]:
            record = json.loads((out / run["record"]).read_text("utf-8"))
            assert record["workflow"]["name"] == workflow["name"]
    assert result.exit_code == 8


def test_a_suite_record_that_is_a_fifo_is_refused_not_waited_on(
    tmp_path: Path,
) -> None:
    fifo = tmp_path / "suite.json"
    os.mkfifo(fifo)
    with pytest.raises(FileAccessError, match="not a regular file"):
        load_suite_record(fifo)


def test_a_suite_record_that_is_not_strict_json_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "suite.json"
    path.write_text('{"schema": "artemiskit.suite-record", "x": NaN}', "utf-8")
    with pytest.raises(WorkflowError, match="holds NaN"):
        load_suite_record(path)
    path.write_bytes(b'{"schema": "\xff"}')
    with pytest.raises(WorkflowError, match="not valid UTF-8"):
        load_suite_record(path)
