"""Target matrices (SPEC 19): every workflow on every chosen target, one unit each.

Real offline runs: the scripted provider (one script per model name) and agents
of our own; ``suite.json`` and the records are read back from disk.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from artemiskit import (
    ArtemisKit,
    ConfigError,
    TargetRequest,
    TargetResponse,
    TrustedConfig,
    WorkflowError,
)
from artemiskit.records import record_from_dict
from artemiskit.suites import RayExecutor, load_suite_record
from artemiskit.targets import parse_target
from tests._builders import PASSING_SCRIPT
from tests._runs import USAGE, call, calling
from tests.suites._suites import FAILING_SCRIPT, write_member

READ = call("read_file", {"path": "docs/policy.md"})
WRITE = call("write_file", {"path": "out/summary.md", "content": "30 days"})


def _suite(root: Path) -> Path:
    """Two workflows, each with a script for model ``agent`` and ``weak``."""
    suite = root / "suite"
    for name in ("steady", "other"):
        path = write_member(suite, name, [PASSING_SCRIPT])
        weak = {"version": 1, "variants": [PASSING_SCRIPT, FAILING_SCRIPT]}
        (path.parent / "weak.script.yaml").write_text(json.dumps(weak), "utf-8")
    return suite


def _records(out: Path) -> list[dict[str, Any]]:
    return [
        json.loads(path.read_text("utf-8"))
        for path in sorted((out / "runs").rglob("*.record.json"))
    ]


async def test_two_targets_make_one_suite_whose_units_pair_up(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = await ArtemisKit().run_suite(
        paths=[_suite(tmp_path)],
        output_dir=out,
        repeat=2,
        min_pass_rate=0,
        targets=["scripted:agent", "scripted:weak"],
    )
    summary = load_suite_record(out / "suite.json")
    assert summary["settings"]["targets"] == ["scripted:agent", "scripted:weak"]
    units = {(u["workflow"], u["case"], u["target"]): u for u in summary["units"]}
    assert set(units) == {
        (w, None, t)
        for w in ("other", "steady")
        for t in ("scripted:agent", "scripted:weak")
    }
    # Every workflow on every target, and the units of one workflow pair up.
    for workflow in ("other", "steady"):
        assert units[(workflow, None, "scripted:agent")]["pass_rate"] == 1.0
        assert units[(workflow, None, "scripted:weak")]["pass_rate"] == 0.5
    assert summary["totals"]["runs_planned"] == 8
    targets = {t["target"]: t for t in summary["targets"]}
    assert targets["scripted:weak"]["pass_rate"] == 0.5
    assert targets["scripted:weak"]["units"] == 2
    assert targets["scripted:weak"]["pass_rate_interval"]["method"] == "cluster-robust"
    # Several targets add the <target> level: a safe form of the id.
    layout = sorted(
        str(p.relative_to(out)) for p in (out / "runs").rglob("*.record.json")
    )
    assert len(layout) == 8
    assert all(len(Path(p).parts) == 4 for p in layout)
    folders = {Path(p).parts[2] for p in layout}
    assert len(folders) == 2
    assert all(":" not in folder for folder in folders)
    # Each record names the target that ran; the contract digest is shared.
    records = _records(out)
    assert {r["target"]["id"] for r in records} == {"scripted:agent", "scripted:weak"}
    for workflow in ("other", "steady"):
        digests = {
            r["workflow"]["digest"]
            for r in records
            if r["workflow"]["name"] == workflow
        }
        assert len(digests) == 1
    for entry in summary["workflows"]:
        assert entry["target"] is None
        for run in entry["runs"]:
            assert run["target"] in ("scripted:agent", "scripted:weak")
            saved = record_from_dict(json.loads((out / run["record"]).read_text()))
            assert saved.target.id == run["target"]
        # Two units: the mean of their rates (each of one case cluster).
        assert entry["pass_rate"] == 0.75
    assert {(r.workflow, r.target) for r in result.runs} == {
        (w, t) for w in ("other", "steady") for t in ("scripted:agent", "scripted:weak")
    }


async def test_one_target_keeps_the_layout_of_plain_workflows(tmp_path: Path) -> None:
    out = tmp_path / "out"
    await ArtemisKit().run_suite(
        paths=[_suite(tmp_path)], output_dir=out, targets=["scripted:weak"]
    )
    summary = load_suite_record(out / "suite.json")
    assert sorted(
        str(p.relative_to(out)) for p in (out / "runs").rglob("*.record.json")
    ) == ["runs/other/001.record.json", "runs/steady/001.record.json"]
    assert {u["target"] for u in summary["units"]} == {"scripted:weak"}
    assert all(w["target"] == "scripted:weak" for w in summary["workflows"])
    assert {r["target"]["model"] for r in _records(out)} == {"weak"}


async def test_without_targets_each_workflow_runs_its_own(tmp_path: Path) -> None:
    out = tmp_path / "out"
    await ArtemisKit().run_suite(paths=[_suite(tmp_path)], output_dir=out)
    summary = load_suite_record(out / "suite.json")
    assert "targets" not in summary["settings"]
    assert [t["target"] for t in summary["targets"]] == ["scripted:agent"]
    assert {r["target"]["id"] for r in _records(out)} == {"scripted:agent"}


class Support:
    """An agent of our own: reads the policy and writes the summary.

    It keeps no state between requests, so one object may serve every run.
    """

    version = "1.0"

    async def respond(self, request: TargetRequest) -> TargetResponse:
        answered = sum(1 for m in request.messages if m.role == "assistant")
        if answered == 0:
            return calling(READ)
        if answered == 1:
            return calling(WRITE)
        return TargetResponse(text="Done.", usage=USAGE)


def support_bot() -> Support:
    return Support()


async def test_an_agent_of_our_own_runs_in_a_suite_and_names_every_record(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out"
    result = await ArtemisKit().run_suite(
        paths=[_suite(tmp_path)],
        output_dir=out,
        repeat=2,
        targets={"support-bot": support_bot, "scripted": Support()},
    )
    assert result.exit_code == 0
    records = _records(out)
    assert len(records) == 8
    assert {r["target"]["id"] for r in records} == {"support-bot", "scripted"}
    for record in records:
        assert record["target"]["provider"] == "agent"
        assert record["target"]["version"] == "1.0"
    summary = load_suite_record(out / "suite.json")
    assert summary["settings"]["targets"] == ["support-bot", "scripted"]


@pytest.mark.parametrize(
    ("targets", "reason"),
    [
        (["nowhere:m"], "unknown_target"),
        (["scripted:missing-script"], "invalid_suite"),
        (["scripted:a", "scripted:a"], "invalid_target"),
        (["not a target"], "invalid_target"),
    ],
)
async def test_a_bad_target_runs_nothing(
    tmp_path: Path, targets: list[str], reason: str
) -> None:
    out = tmp_path / "out"
    with pytest.raises(WorkflowError) as caught:
        await ArtemisKit(config=TrustedConfig(providers={})).run_suite(
            paths=[_suite(tmp_path)], output_dir=out, targets=targets
        )
    assert caught.value.reason == reason
    assert caught.value.exit_code == 2
    assert not out.exists()


async def test_an_unknown_entry_lists_the_entries(tmp_path: Path) -> None:
    with pytest.raises(WorkflowError) as caught:
        await ArtemisKit().run_suite(
            paths=[_suite(tmp_path)], targets=[parse_target("nowhere:m")]
        )
    assert "'nowhere:m'" in caught.value.message
    assert "`scripted` is built in" in caught.value.message


async def test_an_agent_that_makes_no_target_runs_nothing(tmp_path: Path) -> None:
    out = tmp_path / "out"
    with pytest.raises(ConfigError) as caught:
        await ArtemisKit().run_suite(
            paths=[_suite(tmp_path)],
            output_dir=out,
            targets={"x": dict},  # type: ignore[dict-item]
        )
    assert caught.value.reason == "invalid_agent"
    assert not out.exists()


async def test_an_agent_is_refused_under_ray_before_anything_runs(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out"
    with pytest.raises(WorkflowError) as caught:
        await ArtemisKit().run_suite(
            paths=[_suite(tmp_path)],
            output_dir=out,
            executor=RayExecutor(),
            targets={"support-bot": support_bot},
        )
    assert caught.value.reason == "agent_not_shippable"
    assert not out.exists()


async def test_cases_times_targets_are_units_of_their_own(tmp_path: Path) -> None:
    suite = tmp_path / "suite"
    path = write_member(
        suite, "tickets", [PASSING_SCRIPT], cases=[{"id": "a"}, {"id": "b"}]
    )
    weak = {"version": 1, "variants": [FAILING_SCRIPT]}
    (path.parent / "weak.script.yaml").write_text(json.dumps(weak), "utf-8")
    out = tmp_path / "out"
    result = await ArtemisKit().run_suite(
        paths=[suite],
        output_dir=out,
        min_pass_rate=0,
        targets=["scripted:agent", "scripted:weak"],
    )
    summary = load_suite_record(out / "suite.json")
    assert [(u["case"], u["target"], u["pass_rate"]) for u in summary["units"]] == [
        ("a", "scripted:agent", 1.0),
        ("a", "scripted:weak", 0.0),
        ("b", "scripted:agent", 1.0),
        ("b", "scripted:weak", 0.0),
    ]
    layout = sorted(
        str(p.relative_to(out)) for p in (out / "runs").rglob("*.record.json")
    )
    assert len(layout) == 4
    assert all(len(Path(p).parts) == 5 for p in layout)  # runs/w/case/target/NNN
    targets = {t["target"]: t for t in summary["targets"]}
    assert targets["scripted:agent"]["pass_rate"] == 1.0
    assert targets["scripted:weak"]["pass_rate"] == 0.0
    assert result.exit_code == 0


async def test_a_chosen_target_is_what_a_ray_task_ships(tmp_path: Path) -> None:
    """A Ray task gets the workflow on the chosen model and that model's script."""
    from artemiskit.suites._discovery import load_suite_workflows
    from artemiskit.suites._shipping import named_files, worker_config
    from artemiskit.suites._targets import plan_targets

    config = TrustedConfig()
    workflows = await load_suite_workflows([_suite(tmp_path)], config)
    units = await plan_targets(workflows, [parse_target("scripted:weak")], config)
    assert [u.target for u in units] == ["scripted:weak", "scripted:weak"]
    for unit in units:
        assert unit.item.workflow.target.model == "weak"
        assert list(named_files(unit.item, config)) == ["weak.script.yaml"]
        # The contract digest stays the workflow's own.
        assert unit.item.digest == next(
            w.digest for w in workflows if w.name == unit.name
        )
    assert worker_config(config, {"scripted"})().providers == {}


async def test_junit_has_a_testcase_per_run_of_every_target(tmp_path: Path) -> None:
    from xml.etree import ElementTree

    from artemiskit.suites import junit_xml

    result = await ArtemisKit().run_suite(
        paths=[_suite(tmp_path)],
        repeat=2,
        min_pass_rate=0,
        targets=["scripted:agent", "scripted:weak"],
    )
    root = ElementTree.fromstring(junit_xml(result))
    names = [case.get("name") for case in root.iter("testcase")]
    assert len(names) == len(set(names)) == 8
    assert "steady[scripted:weak] #002" in names
    failures = [
        case.get("name")
        for case in root.iter("testcase")
        if case.find("failure") is not None
    ]
    assert failures == ["other[scripted:weak] #002", "steady[scripted:weak] #002"]
    weak = next(
        case
        for case in root.iter("testcase")
        if case.get("name") == "steady[scripted:weak] #002"
    )
    failure = weak.find("failure")
    assert failure is not None
    # The failed requirement of the run on that target (not the workflow's own).
    assert (failure.text or "").endswith("requirement summary: missing_content")
