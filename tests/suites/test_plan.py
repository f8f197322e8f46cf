"""`akit plan` and `plan_suite`: repetitions and tokens from a rate or a saved suite."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest

from artemiskit import ArtemisKit
from artemiskit._common._decisions import repetitions_paired, repetitions_unpaired
from artemiskit.suites import load_suite_record, plan_repetitions, plan_suite
from tests._cli import akit
from tests.suites._suites import FAILING_SCRIPT, write_member, write_suite

if TYPE_CHECKING:
    from pathlib import Path


def test_a_plan_from_a_rate_is_the_test_it_names() -> None:
    unpaired = plan_repetitions(0.8, 0.1)
    assert unpaired.per_side == repetitions_unpaired(0.8, 0.1) == 292
    paired = plan_repetitions(0.8, 0.1, paired=True)
    assert paired.discordance == pytest.approx(0.32)
    assert paired.per_side == repetitions_paired(0.8, 0.1)
    assert paired.per_side < unpaired.per_side


@pytest.fixture
def saved_suite(tmp_path: Path) -> Path:
    root = write_suite(tmp_path)
    write_member(root, "broken", [FAILING_SCRIPT])
    output = tmp_path / "out"
    akit_code = akit("workflow", "run", root, "--repeat", "4", "--output-dir", output)
    assert akit_code.returncode == 8, akit_code.stderr
    return output


def test_a_saved_suite_is_planned_per_workflow_with_its_tokens(
    saved_suite: Path,
) -> None:
    summary = load_suite_record(saved_suite / "suite.json")
    plans = {plan.workflow: plan for plan in plan_suite(summary, 0.2)}
    assert set(plans) == {"steady", "flaky", "broken"}
    steady = plans["steady"]
    assert steady.baseline == 1.0
    assert steady.per_side == repetitions_unpaired(1.0, 0.2)
    assert steady.tokens_per_run == 45.0  # three responses of 10 + 5 tokens
    assert steady.tokens_both_sides == 2 * steady.per_side * 45
    assert plans["flaky"].baseline == 0.5
    broken = plans["broken"]
    assert broken.per_side is None
    assert broken.note == "its pass rate is below the drop to detect"


def test_the_cli_prints_the_plan_and_the_total(saved_suite: Path) -> None:
    done = akit("plan", "--suite", saved_suite, "--detect", "0.2")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("plan: detect a drop of 0.2 in pass rate at alpha 0.05")
    per_side = repetitions_unpaired(1.0, 0.2)
    assert f"  steady: baseline 1.000: {per_side:,} runs per side" in done.stdout
    assert "  broken: baseline 0.000: its pass rate is below the drop" in done.stdout
    assert lines[-1].startswith("total: ")
    as_json = akit("plan", "--baseline", saved_suite, "--detect", "0.2", "--json")
    summary = load_suite_record(saved_suite / "suite.json")
    assert [row["workflow"] for row in json.loads(as_json.stdout)] == [
        workflow["name"] for workflow in summary["workflows"]
    ]


def test_a_paired_plan_from_a_rate() -> None:
    done = akit(
        "plan",
        "--baseline",
        "0.8",
        "--detect",
        "0.1",
        "--paired",
        "--discordance",
        "0.15",
    )
    assert done.returncode == 0, done.stderr
    needed = repetitions_paired(0.8, 0.1, discordance=0.15)
    assert f"baseline 0.800: {needed:,} units, each run on both sides" in done.stdout


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--detect", "0.1"], "give --baseline RATE, or a saved suite"),
        (["--baseline", "1.5", "--detect", "0.1"], "must be in (0, 1]"),
        (["--baseline", "nan", "--detect", "0.1"], "must be in (0, 1]"),
        (["--baseline", "0.8", "--detect", "0"], "--detect"),
        (["--baseline", "0.8", "--detect", "0.1", "--alpha", "1"], "--alpha"),
        (["--baseline", "0.8", "--detect", "0.1", "--discordance", "0.2"], "--paired"),
        (["--baseline", "0.1", "--detect", "0.2"], "drop"),
        (
            [
                "--baseline",
                "0.9",
                "--detect",
                "0.2",
                "--paired",
                "--discordance",
                "0.1",
            ],
            "discordant share",
        ),
        # numbers too small to compute with: no traceback
        (["--baseline", "0.5", "--detect", "1e-300", "--paired"], "reaches"),
        (["--baseline", "0.5", "--detect", "1e-160", "--paired"], "reaches"),
        (["--baseline", "0.5", "--detect", "1e-300"], "reaches"),
        (["--baseline", "0.5", "--detect", "0.1", "--alpha", "1e-300"], "alpha"),
    ],
)
def test_bad_input_is_exit_2_with_what_is_wrong(
    arguments: list[str], message: str
) -> None:
    done = akit("plan", *arguments)
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr


def test_an_unreadable_or_invalid_suite_is_refused(tmp_path: Path) -> None:
    missing = akit("plan", "--suite", tmp_path / "nowhere", "--detect", "0.1")
    assert missing.returncode == 1
    assert "Traceback" not in missing.stderr
    (tmp_path / "suite.json").write_text('{"schema": "something else"}')
    invalid = akit("plan", "--suite", tmp_path, "--detect", "0.1")
    assert invalid.returncode == 2
    assert "not an ArtemisKit suite record" in invalid.stderr


async def test_plan_suite_reads_what_the_sdk_returns(tmp_path: Path) -> None:
    result = await ArtemisKit().run_suite(paths=write_suite(tmp_path), repeat=2)
    plans = plan_suite(result.summary, 0.3, paired=True, discordance=0.5)
    assert {plan.workflow for plan in plans} == {"steady", "flaky"}
    assert all(plan.per_side for plan in plans)
