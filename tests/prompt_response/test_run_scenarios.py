"""`run_scenarios`: ``akit run`` as one SDK call (load, run, save, export, decide)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from artemiskit import ConfigError, FileAccessError
from artemiskit.prompt_response import (
    Baseline,
    LocalStorage,
    RedactionSettings,
    ScenarioError,
    ScenarioRunOptions,
    run_scenarios,
)
from tests.examples.test_examples import ROOT

if TYPE_CHECKING:
    from artemiskit.prompt_response import BaselineCheck, RunManifest, Scenario

GOLDEN = Path(__file__).parent / "golden"


class Recorder:
    """Keeps every report, as (method, detail)."""

    def __init__(self) -> None:
        self.events: list[tuple[str, Any]] = []

    def skipped(self, message: str) -> None:
        self.events.append(("skipped", message))

    def notice(self, message: str) -> None:
        self.events.append(("notice", message))

    def problem(self, problem: Any, path: str) -> None:
        self.events.append(("problem", path))

    def scenario_started(self, scenario: Scenario) -> None:
        self.events.append(("started", scenario.name))

    def scenario_finished(self, manifest: RunManifest, *, quiet: bool) -> None:
        self.events.append(("finished", manifest.config.scenario))

    def scenario_failed(self, label: str, message: str) -> None:
        self.events.append(("failed", label))

    def written(self, what: str, path: Path) -> None:
        self.events.append((what, path.suffix))

    def compared(self, check: BaselineCheck) -> None:
        self.events.append(("compared", check.has_regression))

    def warning(self, message: str) -> None:
        self.events.append(("warning", message))


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "scenarios"
    folder.mkdir()
    for name in ("scenario.yaml", "golden.script.yaml"):
        shutil.copy(GOLDEN / name, folder / name)
    return folder


async def test_the_sdk_call_saves_exports_compares_and_decides(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    storage = LocalStorage(tmp_path / "store")
    recorder = Recorder()
    first = await run_scenarios(
        [folder],
        storage=storage,
        exports=["junit", "markdown", "junit"],
        export_folder=tmp_path / "exports",
        progress=recorder,
    )
    assert first.exit_code == 1  # two cases of the golden scenario fail
    [outcome] = first.outcomes
    assert outcome.manifest is not None
    run_id = outcome.manifest.run_id
    assert storage.find(run_id) is not None
    written = sorted(p.name for p in (tmp_path / "exports").iterdir())
    assert written == [f"{run_id}.md", f"{run_id}.xml"]
    assert [e for e in recorder.events if e[0] != "notice"] == [
        ("skipped", recorder.events[0][1]),
        ("started", "golden"),
        ("finished", "golden"),
        ("Saved", ".json"),
        ("Exported", ".xml"),
        ("Exported", ".md"),
    ]
    assert first.cost_usd > 0
    assert not first.over_budget
    metrics = outcome.manifest.metrics
    storage.set_baseline(
        Baseline(
            scenario="golden",
            run_id=run_id,
            created_at="2026-01-01T00:00:00.000Z",
            success_rate=metrics.success_rate,
            median_latency_ms=metrics.median_latency_ms,
            total_tokens=metrics.total_tokens,
            passed_cases=metrics.passed_cases,
            failed_cases=metrics.failed_cases,
            total_cases=metrics.total_cases,
        )
    )
    again = await run_scenarios(
        [folder / "scenario.yaml"],
        options=ScenarioRunOptions(tags=("smoke",)),
        storage=storage,
        save=False,
        baseline=True,
        budget=0.0,
    )
    [check] = again.checks
    assert not check.has_regression  # the one case run passed
    assert again.worst == check
    assert again.over_budget
    assert again.exit_code == 1  # only the budget
    assert len(storage.runs()) == 1  # not saved


async def test_nothing_to_run_and_wrong_inputs_are_typed_errors(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(FileAccessError, match="no scenario files found"):
        await run_scenarios([empty])
    with pytest.raises(ConfigError, match="unknown export format"):
        await run_scenarios([empty], exports=["html"])
    workflow = ROOT / "examples" / "quickstart" / "workflow.yaml"
    with pytest.raises(ScenarioError) as raised:
        await run_scenarios([workflow])
    assert raised.value.reason == "not_a_scenario"


async def test_the_result_gives_the_ci_summaries_akit_run_prints(
    tmp_path: Path,
) -> None:
    """The CLI prints what the result returns: the golden ``--ci`` lines, as SDK."""
    result = await run_scenarios(
        [_folder(tmp_path)], storage=LocalStorage(tmp_path / "store"), budget=0.0
    )
    [outcome] = result.outcomes
    assert outcome.manifest is not None
    run_id = outcome.manifest.run_id
    lines = "\n".join(result.ci_lines()).replace(run_id, "RUN_ID") + "\n"
    lines = re.sub(r"ARTEMISKIT_DURATION_MS=\d+", "ARTEMISKIT_DURATION_MS=0", lines)
    golden = (GOLDEN / "ci.txt").read_text("utf-8")
    budget = "ARTEMISKIT_BUDGET_LIMIT=0.00\nARTEMISKIT_BUDGET_EXCEEDED=true\n"
    assert lines.startswith(golden)  # spent budget: its lines follow
    assert lines[len(golden) :].startswith(budget)
    summary = result.ci_summary()
    assert summary["success"] is False
    assert summary["cases"] == {
        "total": 6,
        "passed": 4,
        "failed": 2,
        "successRate": 4 / 6,
    }
    assert summary["runs"][0]["runId"] == run_id
    security = result.security_summary()
    assert security["overallRisk"] == "high"  # 66.7% of cases passed
    assert security["vulnerabilities"]["high"] == 2


def test_redaction_settings_name_their_unusable_patterns() -> None:
    settings = RedactionSettings(patterns=("email", "(unclosed", "[a-z]+"))
    [problem] = settings.problems()
    assert problem.startswith("'(unclosed' is neither a built-in pattern name")
    assert RedactionSettings().problems() == []
